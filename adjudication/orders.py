"""Orders: reading the forgiving notation players type, and writing the canonical one.

Parsing only understands the words; whether an order is legal on the current board is decided
later (``movement.Movement.add_order``), so that a parse can be cached by its text and reused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache

from .variant import COAST_NAMES, Variant, normalise

HOLD, MOVE, SUPPORT, CONVOY = "hold", "move", "support", "convoy"
RETREAT, DISBAND, BUILD, REMOVE, WAIVE = "retreat", "disband", "build", "remove", "waive"
SPECIAL = "special"


class OrderError(ValueError):
    """An order that cannot be understood; the message says what is wrong."""


@dataclass(frozen=True, slots=True)
class Order:
    """One parsed order. Locations are canonical names (``Spain/nc`` for coasts)."""

    kind: str
    unit: str | None = None  # "A" or "F" as written; None when the order omits it
    location: str | None = None
    target_unit: str | None = None  # supported or convoyed unit's kind
    target: str | None = None  # supported or convoyed unit's location
    destination: str | None = None  # move, retreat, or the supported/convoyed move's end
    via: str | None = None  # "convoy", or a plug-in's route name such as "TSR"
    number: int | None = None  # F1, F2: several fleets of one power in one space
    extra: tuple = ()  # plug-in specific words, e.g. ("permit",) for the Suez canal
    # text() worked out in advance by shared_order (its unit is always known); not compared.
    canonical: str | None = field(default=None, compare=False, repr=False)

    def text(self, unit: str | None = None) -> str:
        """The canonical notation of the contract."""
        u = unit or self.unit or "?"
        kind = self.kind
        if kind == HOLD:
            return f"{u} {self.location} H"
        if kind == MOVE:
            via = f" via {_via_word(self.via)}" if self.via else ""
            return f"{u} {self.location} - {self.destination}{via}"
        if kind == SUPPORT:
            t = self.target_unit or "?"
            if self.destination is None:
                return f"{u} {self.location} S {t} {self.target}"
            return f"{u} {self.location} S {t} {self.target} - {self.destination}"
        if kind == CONVOY:
            t = self.target_unit or "A"
            return f"{u} {self.location} C {t} {self.target} - {self.destination}"
        if kind == RETREAT:
            return f"{u} {self.location} R {self.destination}"
        if kind == DISBAND:
            return f"{u} {self.location} D"
        if kind == BUILD:
            return f"Build {u} {self.location}"
        if kind == REMOVE:
            return f"Remove {u} {self.location}"
        if kind == WAIVE:
            return "Waive"
        return " ".join(str(x) for x in self.extra)


@lru_cache(maxsize=16384)
def shared_order(
    kind: str,
    unit: str | None = None,
    location: str | None = None,
    target_unit: str | None = None,
    target: str | None = None,
    destination: str | None = None,
    via: str | None = None,
) -> Order:
    """An Order with these fields, built once and then reused.

    Orders are immutable and the legality checks make the same canonical orders every phase;
    a frozen dataclass is slow to build, a cache hit is not. Its text is worked out here too.
    """
    order = Order(kind, unit, location, target_unit, target, destination, via)
    return replace(order, canonical=order.text())


def _via_word(via: str) -> str:
    return "Convoy" if via == "convoy" else via


# -- tokenising -------------------------------------------------------------------------------

_ARROWS = re.compile(r"=>|→|–|—")
_TOKEN = re.compile(r"[a-z0-9.']+|[-/(),:]")

UNIT_WORDS = {"a": "A", "army": "A", "f": "F", "fleet": "F"}
HOLD_WORDS = {"h", "hold", "holds", "stand", "stands"}
MOVE_WORDS = {"-", "m", "move", "moves", "to", "attack", "attacks"}
SUPPORT_WORDS = {"s", "support", "supports"}
CONVOY_WORDS = {"c", "convoy", "convoys"}
RETREAT_WORDS = {"r", "retreat", "retreats"}
DISBAND_WORDS = {"d", "disband", "disbands"}
BUILD_WORDS = {"build", "builds", "b"}
REMOVE_WORDS = {"remove", "removes"}
WAIVE_WORDS = {"waive", "waives", "pass"}
COAST_WORDS = {
    "nc": "nc", "north": "nc", "n": "nc", "sc": "sc", "south": "sc",
    "ec": "ec", "east": "ec", "e": "ec", "wc": "wc", "west": "wc", "w": "wc",
}  # fmt: skip
_FLEET_NUMBER = re.compile(r"^f(\d{1,2})$")


def tokenize(text: str) -> list[str]:
    """Lower-case word tokens, with a hyphen kept as its own token."""
    return _TOKEN.findall(_ARROWS.sub(" - ", text.lower()))


class _Reader:
    """A cursor over tokens with the variant's name matching."""

    __slots__ = ("tokens", "pos", "variant", "text")

    def __init__(self, variant: Variant, text: str) -> None:
        self.variant = variant
        self.text = text
        self.tokens = tokenize(text)
        self.pos = 0

    def peek(self, offset: int = 0) -> str | None:
        i = self.pos + offset
        return self.tokens[i] if i < len(self.tokens) else None

    def take(self) -> str | None:
        tok = self.peek()
        if tok is not None:
            self.pos += 1
        return tok

    def at_end(self) -> bool:
        return self.pos >= len(self.tokens)

    def accept(self, words: set[str]) -> str | None:
        tok = self.peek()
        if tok is not None and tok in words:
            self.pos += 1
            return tok
        return None

    def unit(self) -> tuple[str | None, int | None]:
        tok = self.peek()
        if tok in UNIT_WORDS:
            # "A" followed by nothing a name could start with is still a unit word.
            self.pos += 1
            return UNIT_WORDS[tok], None
        if tok is not None:
            m = _FLEET_NUMBER.match(tok)
            if m:
                self.pos += 1
                return "F", int(m.group(1))
        return None, None

    def location(self, what: str = "a province") -> str:
        """Longest run of tokens that names a province, then an optional coast."""
        names = self.variant.names
        tokens = self.tokens
        start = self.pos
        best: tuple[int, str] | None = None
        key = ""
        end = start
        words = 0
        while end < len(tokens) and words < self.variant.max_name_words + 2:
            tok = tokens[end]
            if tok in ("(", ")", ",", ":"):
                break
            if tok == "/" and best is not None:
                break
            if tok != "-":
                key += _token_key(tok)
                words += 1
            end += 1
            if tok != "-" and key in names:
                best = (end, names[key])
        if best is None:
            shown = tokens[start] if start < len(tokens) else ""
            if not shown:
                raise OrderError(f"expected {what} at the end of the order")
            raise OrderError(f"there is no province called {_original(self.text, shown)!r}")
        self.pos, name = best
        if "/" in name:
            return name
        coast = self._coast()
        if coast:
            province = self.variant.provinces.get(name)
            if province is None or coast not in province.coasts:
                raise OrderError(f"{name} has no {COAST_NAMES[coast].lower()}")
            return f"{name}/{coast}"
        return name

    def _coast(self) -> str | None:
        save = self.pos
        tok = self.peek()
        if tok == "/":
            self.pos += 1
            word = self.take()
            if word in COAST_WORDS:
                self.accept({"coast"})
                return COAST_WORDS[word]
            raise OrderError(f"{word!r} is not a coast (use nc, sc, ec or wc)")
        if tok == "(":
            self.pos += 1
            word = self.take()
            if word in COAST_WORDS:
                self.accept({"coast"})
                if self.accept({")"}):
                    return COAST_WORDS[word]
            self.pos = save
            return None
        if tok in ("nc", "sc", "ec", "wc"):
            self.pos += 1
            return COAST_WORDS[tok]
        if tok in COAST_WORDS and self.peek(1) == "coast":
            self.pos += 2
            return COAST_WORDS[tok]
        return None


@lru_cache(maxsize=4096)
def _token_key(token: str) -> str:
    """``normalise`` of one token, cached: the same few hundred words make up every order."""
    return normalise(token)


def _original(text: str, token: str) -> str:
    """The token as the player typed it, for error messages."""
    m = re.search(rf"(?<![a-z0-9]){re.escape(token)}(?![a-z0-9])", text, re.IGNORECASE)
    return text[m.start() : m.end()] if m else token


# -- grammar --------------------------------------------------------------------------------


@lru_cache(maxsize=65536)
def parse(variant: Variant, text: str, phase_type: str = "movement") -> Order:
    """Parse one order in the given phase type; raises OrderError with a reason."""
    if not isinstance(text, str) or not text.strip():
        raise OrderError("the order is empty")
    r = _Reader(variant, text)
    for plugin in variant.plugins:
        special = getattr(plugin, "parse_order", None)
        if special is not None:
            order = special(variant, r.tokens, phase_type)
            if order is not None:
                return order
    if phase_type == "adjustments":
        return _adjustment(r)
    first = r.peek()
    if first in BUILD_WORDS or first in REMOVE_WORDS or first in WAIVE_WORDS:
        raise OrderError(f"{first} orders belong in an adjustment phase, not a {phase_type} phase")
    unit, number = r.unit()
    location = r.location("the unit's province")
    if phase_type == "retreats":
        return _retreat(r, unit, location)
    return _movement(r, unit, number, location)


def _movement(r: _Reader, unit: str | None, number: int | None, location: str) -> Order:
    word = r.take()
    if word is None or word in HOLD_WORDS:
        _end(r)
        return Order(HOLD, unit, location, number=number)
    if word in MOVE_WORDS:
        r.accept({"to"})
        destination = r.location("a destination")
        via = _via(r)
        _end(r)
        return Order(MOVE, unit, location, destination=destination, via=via, number=number)
    if word in SUPPORT_WORDS:
        t_unit, _ = r.unit()
        target = r.location("the supported unit's province")
        if r.accept(MOVE_WORDS):
            destination = r.location("the supported move's destination")
            _via(r)  # a supporter may repeat "via convoy"; it changes nothing
            _end(r)
            return Order(SUPPORT, unit, location, t_unit, target, destination, number=number)
        r.accept(HOLD_WORDS)
        _end(r)
        return Order(SUPPORT, unit, location, t_unit, target, number=number)
    if word in CONVOY_WORDS:
        t_unit, _ = r.unit()
        target = r.location("the convoyed army's province")
        if not r.accept(MOVE_WORDS):
            raise OrderError(
                "a convoy order needs the army's move, e.g. 'F North Sea C A London - Belgium'"
            )
        destination = r.location("the convoyed army's destination")
        _end(r)
        return Order(CONVOY, unit, location, t_unit, target, destination, number=number)
    if word in RETREAT_WORDS or word in DISBAND_WORDS:
        raise OrderError(
            "retreats and disbands are ordered in a retreat phase, not a movement phase"
        )
    if word in BUILD_WORDS or word in REMOVE_WORDS:
        raise OrderError("builds and removals are ordered in an adjustment phase")
    raise OrderError(f"I don't understand {_original(r.text, word)!r} here; expected H, -, S or C")


def _via(r: _Reader) -> str | None:
    if not r.accept({"via", "by"}):
        return None
    word = r.take()
    if word in CONVOY_WORDS:
        return "convoy"
    if word is None:
        raise OrderError("'via' must be followed by Convoy")
    return word.upper()


def _retreat(r: _Reader, unit: str | None, location: str) -> Order:
    word = r.take()
    if word in RETREAT_WORDS or word in MOVE_WORDS:
        destination = r.location("a retreat destination")
        _end(r)
        return Order(RETREAT, unit, location, destination=destination)
    if word in DISBAND_WORDS:
        _end(r)
        return Order(DISBAND, unit, location)
    if word is None or word in HOLD_WORDS:
        raise OrderError("a dislodged unit must retreat (R) or disband (D); it cannot hold")
    if word in SUPPORT_WORDS or word in CONVOY_WORDS:
        raise OrderError("there are no supports or convoys in a retreat phase")
    raise OrderError(f"I don't understand {_original(r.text, word)!r} here; expected R or D")


def _adjustment(r: _Reader) -> Order:
    if r.accept(WAIVE_WORDS):
        _end(r)
        return Order(WAIVE)
    if r.accept(BUILD_WORDS):
        unit, _ = r.unit()
        location = r.location("where to build")
        _end(r)
        return Order(BUILD, unit, location)
    if r.accept(REMOVE_WORDS | DISBAND_WORDS):
        unit, _ = r.unit()
        location = r.location("the unit to remove")
        _end(r)
        return Order(REMOVE, unit, location)
    unit, _ = r.unit()
    location = r.location("a province")
    word = r.take()
    if word in BUILD_WORDS:
        _end(r)
        return Order(BUILD, unit, location)
    if word in REMOVE_WORDS or word in DISBAND_WORDS:
        _end(r)
        return Order(REMOVE, unit, location)
    raise OrderError("an adjustment order is 'Build A Moscow', 'Remove A Omsk' or 'Waive'")


def _end(r: _Reader) -> None:
    if not r.at_end():
        rest = " ".join(r.tokens[r.pos :])
        raise OrderError(f"unexpected {rest!r} at the end of the order")
