"""The variants and rules the engine knows: registered with it, never looked for by it.

A variant is its data (the ``variant.json`` document) and the rules its ``rules`` list names.
Whoever provides variants registers them here: ``register_variant(id, data)`` for the data
and ``register_rule(rule)`` for each rule object. The engine itself imports no variant
package and reads no directory of its own.

Variants are found in two ways:

- a program registers them before it asks for them (a test registering a toy variant, the
  server's app configuration calling ``variants.register()``);
- an installed package declares a registration function as an entry point in the group
  ``adjudication.variants`` (``ENTRY_POINT_GROUP``). The first time the engine is asked for a
  variant or rule nobody registered, it calls every such function once (``discover``). This
  project declares ``variants:register`` in ``pyproject.toml``, so ``python -m adjudication``
  and every other user of the engine find the maps once the project is installed.

A rule object is an instance of ``Rule``: the hooks below are everything the engine ever asks
a rule, each with a default that does nothing, so a rule overrides only what it changes.
"""

from __future__ import annotations

import json
import os
import re
import sys
from _thread import RLock
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

# Types only, and ``typing`` itself only for type checkers: importing it cost the batch
# command line's start-up a few milliseconds. The hooks' annotations name these and are never
# evaluated; ``Rule``'s class attributes name builtins alone, so that
# ``typing.get_type_hints(Rule)`` resolves them (it raised NameError on ``ClassVar``).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .board import Board, Dislodged, Unit
    from .orders import Order
    from .variant import Variant

ENTRY_POINT_GROUP = "adjudication.variants"


class Rule:
    """One variant rule (a canal, a railroad, oceans, an economy): the interface the engine
    calls. Subclass it, set ``name``, override the hooks the rule needs and register an
    instance with ``register_rule``; a variant switches it on by listing ``name`` in its
    ``rules``. Every hook receives plain engine objects and must not keep state between calls
    (one rule object serves every game at once): per-request state goes in ``board.extra``.
    """

    #: The name a variant's ``rules`` list uses, and ``data.rule`` of the rule's own orders.
    name: str = ""
    #: A heading for the rule, e.g. "The Suez Canal".
    title: str = ""
    #: The rule in a few sentences for a rules page, for players rather than programmers.
    summary: str = ""
    #: A rule with an economy: the balance below which a power's leader is deposed at the
    #: year's end, for a server to warn a player before it happens. None: nobody is.
    deposed_below: int | None = None
    #: A mixin over ``adjudication.movement.Movement`` put in front of the core resolver for
    #: the variants with this rule: it overrides checks and strengths (calling ``super()``)
    #: and may add decisions of its own with ``add_decision``. None: the core resolver's.
    #: (Annotated ``type``: ``adjudication.movement`` imports this module, so that class
    #: cannot be named here at run time.)
    Movement: type | None = None
    #: Game options the rule reads (``board.options``), each declared as
    #: ``adjudication.game_options`` describes, so a server checks them when a game is set up.
    OPTIONS: dict[str, dict] = {}
    #: Words a move may name after ``via`` besides Convoy (``TSR``); a support may repeat them.
    ROUTES: tuple[str, ...] = ()
    #: Other words for those routes, read as the route (``via railroad`` is ``via TSR``), so
    #: the canonical order always names a route one way, as ``via Convoy`` does.
    ROUTE_WORDS: dict[str, str] = {}
    #: The only phase types the variants with this rule have (Chinese: movement alone, once
    #: a year); None: any that the season allows.
    PHASE_TYPES: tuple[str, ...] | None = None

    # -- orders ----------------------------------------------------------------------------

    def parse_order(self, variant: Variant, tokens: list[str], phase_type: str) -> Order | None:
        """An order in words of the rule's own (``Suez permit F Red Sea``), or None when the
        tokens are not one; raises ``OrderError`` for one of its orders that is malformed.
        The tokens are lowered: a reason's ``typed`` name, made of them, is given back to the
        player as typed (``there is no province called 'PAC'``)."""
        return None

    def order_form(self, order: Order) -> str | None:
        """The name of one of the rule's own orders' forms (``permit``, ``enter``, ``leave``),
        given in the order's data as ``form`` beside ``rule``, so that no reader outside the
        rule tells its orders apart by their words."""
        return None

    def one_a_turn(self, order: Order) -> str | None:
        """The rule, in words, of an order a power may give only once a turn (a railroad ride,
        a canal permit), or None for any other order. When a power gives two that are each
        legal by themselves, every one of them is refused with it, whatever the order they are
        listed in; one that is not is refused for its own reason and does not count."""
        return None

    def option_orders(self, board: Board, power: str) -> list[str]:
        """Order texts the rule adds to the power's options (each still goes through the
        engine's check): railroad rides, canal passages, entries onto the board."""
        return []

    def extra_reach(self, board: Board, unit: Unit) -> set[str]:
        """Provinces the rule could carry the unit to beyond the map's borders, so the options
        list supports of such moves; whether a move is legal stays the check's decision."""
        return set()

    def may_enter(self, variant: Variant, unit: Unit, province: str) -> bool:
        """Whether the rule lets the unit move into the province at all (Chinese Diplomacy:
        an entry space only for the great powers that may use it), so the options list no
        support of a move its unit could never make."""
        return True

    # -- the request and the response --------------------------------------------------------

    def opening(self, variant: Variant, seed: int) -> dict:
        """State a new game carries besides its units (gold, the factions' first orders)."""
        return {}

    def read_request(self, board: Board, request: dict) -> None:
        """Read and check the request's fields of the rule's own into ``board.extra``; raise
        ``RequestError`` for a malformed one."""

    def extra_orders(self, board: Board, orders: list[tuple[str, str]]) -> list[tuple[str, str]]:
        """(power, order text) the rule adds before judging (the gamesmaster's orders)."""
        return []

    def finish_response(self, board: Board, response: dict) -> None:
        """Change or add fields of the response after the phase is judged."""

    def carry(self, request: dict, response: dict) -> dict:
        """Fields of the rule's own the next phase's request carries from this one."""
        return {}

    # -- the map -----------------------------------------------------------------------------

    def allows_stacking(self, variant: Variant, province: str) -> bool:
        """Whether the province may hold several units (oceans, entry spaces)."""
        return False

    def may_retreat_to_attacker(
        self, variant: Variant, dislodged: Dislodged, province: str
    ) -> bool:
        """Whether a dislodged unit may retreat to where its attacker came from."""
        return False


@dataclass(eq=False)
class VariantSource:
    """Where a registered variant's data comes from: read (and validated) on first use."""

    variant_id: str
    read: Callable[[], dict] = field(repr=False)
    origin: str = ""  # the file, or "data" for a document registered as it is


_variants: dict[str, VariantSource] = {}
_rules: dict[str, Rule] = {}
_discovered = False
# Two threads asking at once wait for one discovery; a registration function that itself asks
# for a variant (same thread) finds discovery under way and does not start it again.
_discovering = RLock()
#: Registration entry points that failed (name: error), shown with an unknown variant.
discovery_errors: dict[str, str] = {}


def register_rule(rule: Rule) -> Rule:
    """Make a rule object known by its name; registering the same kind of rule again is a
    no-op, another rule under a taken name is refused (``ValueError``)."""
    if not isinstance(rule, Rule):
        raise TypeError(f"a rule must be an adjudication.registry.Rule, not {type(rule)!r}")
    if not rule.name:
        raise ValueError(f"{type(rule).__name__} has no name")
    known = _rules.get(rule.name)
    if known is not None and type(known) is not type(rule):
        raise ValueError(f"another rule is registered as {rule.name!r}")
    if known is None:
        _rules[rule.name] = rule
    return _rules[rule.name]


def register_variant(variant_id: str, data: dict | str | Path) -> None:
    """Make a variant known by its id: its data as a document, or the path of its JSON file.

    The same file registered twice is a no-op; another source for a taken id is refused
    (``ValueError``), so two packages cannot silently shadow each other's maps.
    """
    if not isinstance(variant_id, str) or not variant_id:
        raise ValueError("a variant id must be a non-empty string")
    if isinstance(data, dict):
        document = data
        source = VariantSource(variant_id, lambda: document, "data")
    else:
        path = Path(data)
        source = VariantSource(variant_id, lambda: _read_json(path), str(path))
    known = _variants.get(variant_id)
    if known is not None:
        if known.origin == source.origin and source.origin != "data":
            return
        raise ValueError(f"variant {variant_id!r} is already registered (from {known.origin})")
    _variants[variant_id] = source


def unregister_variant(variant_id: str) -> None:
    """Forget a variant (a test's toy map); games already loaded keep their ``Variant``."""
    _variants.pop(variant_id, None)


def unregister_rule(name: str) -> None:
    """Forget a rule (a test's toy rule)."""
    _rules.pop(name, None)


def variant_source(variant_id: str) -> VariantSource | None:
    if variant_id not in _variants:
        discover()
    return _variants.get(variant_id)


def rule(name: str) -> Rule | None:
    if name not in _rules:
        discover()
    return _rules.get(name)


def variant_ids() -> list[str]:
    discover()
    return sorted(_variants)


def discover() -> None:
    """Call every ``adjudication.variants`` entry point once per process. A failing one is
    recorded in ``discovery_errors`` rather than breaking the variants that did register."""
    global _discovered
    with _discovering:
        if _discovered:
            return
        _discovered = True
        for value in entry_points():
            try:
                load_entry_point(value)()
            except Exception as e:  # a broken plug-in package must not take the others down
                discovery_errors[value] = f"{type(e).__name__}: {e}"


def entry_points() -> list[str]:
    """The ``module:function`` of every entry point of the group, one per installed
    distribution (the first of a name on ``sys.path``, as ``importlib.metadata`` picks).

    Read straight from the ``entry_points.txt`` of the ``*.dist-info`` and ``*.egg-info``
    folders on ``sys.path``: importing ``importlib.metadata`` costs every command-line start
    about 30 ms and 4 MB, more than reading a thousand phases' orders. Where distributions
    may live elsewhere (a zip on the path, an import hook that finds its own), it falls back
    to ``importlib.metadata``, which knows every kind."""
    if _unusual_path():
        from importlib import metadata

        return [e.value for e in metadata.entry_points(group=ENTRY_POINT_GROUP)]
    seen: set[str] = set()
    values: list[str] = []
    for folder in sys.path:
        try:
            names = sorted(os.listdir(folder or "."))
        except OSError:
            continue
        for name in names:
            stem, dot, suffix = name.rpartition(".")
            if not dot or suffix not in ("dist-info", "egg-info"):
                continue
            project = re.sub(r"[-_.]+", "_", stem.split("-", 1)[0]).lower()
            if project in seen:
                continue
            seen.add(project)
            values += _group_entries(os.path.join(folder or ".", name, "entry_points.txt"))
    return values


def _unusual_path() -> bool:
    """Whether distributions might hide where ``entry_points`` does not look: in a zip or
    other file on ``sys.path``, or behind an import hook with its own ``find_distributions``
    (``importlib.metadata`` asks every finder on ``sys.meta_path``)."""
    from importlib.machinery import PathFinder

    if any(os.path.isfile(p) for p in sys.path if p):
        return True
    return any(
        hasattr(finder, "find_distributions") and finder is not PathFinder
        for finder in sys.meta_path
    )


def _group_entries(path: str) -> list[str]:
    """The values of the group's section of one ``entry_points.txt`` (an INI file)."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    values: list[str] = []
    section = None
    for raw in lines:
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
        elif section == ENTRY_POINT_GROUP and "=" in line:
            values.append(line.split("=", 1)[1].strip())
    return values


def load_entry_point(value: str) -> Any:
    """The object an entry point's ``module:attribute`` names (extras in brackets ignored),
    resolved as ``importlib.metadata.EntryPoint.load`` resolves it (by hand: ``pkgutil``
    would bring ``typing``, a few milliseconds of every batch's start-up)."""
    spec = value.split("[", 1)[0].replace(" ", "")
    module, colon, attributes = spec.partition(":")
    if not colon:  # pkgutil's dotted module.attribute, rarely given: pkgutil reads it
        import pkgutil

        return pkgutil.resolve_name(spec)
    __import__(module)
    found = sys.modules[module]
    for name in filter(None, attributes.split(".")):
        found = getattr(found, name)
    return found


def _read_json(path: Path) -> Any:
    with path.open(encoding="utf-8") as f:
        return json.load(f)
