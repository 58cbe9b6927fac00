"""The server's side of the adjudication contract: requests from phases, facts from responses.

Nothing here touches the database; ``games.services`` decides what to store.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass

import adjudication
from adjudication.variant import normalise

from .models import Game, Phase

logger = logging.getLogger(__name__)


class EngineError(RuntimeError):
    """The engine refused a request the server built: a bug, never the players' fault."""


@dataclass
class Checked:
    text: str
    canonical: str
    valid: bool
    reason: str
    location: str | None
    data: dict | None = None
    reason_words: dict | None = None  # the reason as a template and names, to translate
    # What a valid order waits for from other powers' orders (a canal permit, the railroad
    # move a support is for), judged at the deadline; "" when nothing.
    needs: str = ""
    needs_words: dict | None = None


def variant_ids() -> list[str]:
    """Variants that load; one whose data is broken (or half-written) is left out, not fatal."""
    ids = []
    for variant_id in adjudication.available():
        try:
            adjudication.load(variant_id)
        except Exception:
            logger.exception("variant %s does not load", variant_id)
            continue
        ids.append(variant_id)
    return ids


def describe(variant_id: str) -> dict:
    return adjudication.load(variant_id).describe()


def deposition_limit(variant_id: str) -> int | None:
    """The balance below which a leader is deposed at the year's end (Chinese Diplomacy), as
    the variant's rule objects state it; None where gold deposes nobody."""
    limits = [rule.deposed_below for rule in adjudication.load(variant_id).plugins]
    return next((limit for limit in limits if limit is not None), None)


def rule_summaries(variant_id: str) -> list[str]:
    """The variant's rules in the words of their rule objects, for the rules page."""
    return [rule.summary for rule in adjudication.load(variant_id).plugins if rule.summary]


# Options the engine reads that the server sets itself and nobody chooses: the seed of the
# game's chance (Chinese Diplomacy's factions' dice and chits), which would tell whoever knew it
# every hidden faction order of the game (``services.create_game`` draws it, ``visibility``
# keeps it secret until the game is over).
SERVER_OPTIONS = frozenset({"seed"})


def option_schema(variant_id: str) -> dict:
    """The options a game of this variant may set, as a JSON Schema, from the engine; without
    those the server sets itself (``SERVER_OPTIONS``)."""
    schema = adjudication.option_schema(variant_id)
    chosen = {k: v for k, v in schema["properties"].items() if k not in SERVER_OPTIONS}
    if "victory_centers" in chosen:  # the server's own bound, above the engine's 1
        least = fewest_centres_to_win(variant_id)
        chosen["victory_centers"] = {**chosen["victory_centers"], "minimum": least}
    return {**schema, "properties": chosen}


def read_options(game: Game) -> dict:
    """The game's options for the engine. A Chinese game made while ``victory_centers`` was
    still offered for it stored one, which never did anything (the richest power wins) and
    which the engine now refuses for a variant not won on centres: left out, the game goes on.
    """
    options = game.options
    if "victory_centers" not in options:
        return options
    if "victory_centers" in adjudication.option_schema(game.variant)["properties"]:
        return options
    return {k: v for k, v in options.items() if k != "victory_centers"}


def option_problems(variant_id: str, options: object) -> list[str]:
    """What is wrong with a game's options as its creator chose them, by the engine's own
    declaration of what each variant reads (``adjudication.option_schema``); an option the
    server sets itself is refused. Empty when nothing is wrong."""
    if not isinstance(options, dict):
        return adjudication.option_problems(variant_id, options)
    declared = option_schema(variant_id)["properties"]
    problems = []
    for key in options:
        if key in SERVER_OPTIONS:
            problems.append(f"{key}: set by the server and kept secret; it cannot be chosen")
        elif key not in declared and key != "victory_centers":  # the engine words that one
            known = f"this variant reads {', '.join(sorted(declared))}" if declared else ""
            problems.append(
                f"unknown option {str(key)[:50]!r}; {known or 'this variant has none to set'}"
            )
    checked = {k: v for k, v in options.items() if k in declared or k == "victory_centers"}
    return [*problems, *adjudication.option_problems(variant_id, checked)]


def fewest_centres_to_win(variant_id: str) -> int:
    """The least victory threshold a player may choose: one centre more than any power starts
    with. At or below that, a power has won before anyone moves (its first autumn's count)."""
    return 1 + max(len(p["home_centers"]) for p in describe(variant_id)["powers"])


def starting_phase(variant_id: str, seed: int = 0) -> dict:
    """The board of a new game: the variant's starting units and home centres."""
    variant = adjudication.load(variant_id)
    return {
        "carried": adjudication.opening(variant_id, seed),
        "season": variant.seasons[0],
        "year": variant.start_year,
        "type": "movement",
        "units": [dict(u) for u in variant.starting_units],
        "supply_centers": {p.name: list(p.home_centers) for p in variant.powers.values()},
    }


def request(game: Game, phase: Phase, orders: list[dict]) -> dict:
    body = {
        "variant": game.variant,
        "phase": phase.as_engine_phase(),
        "units": phase.units,
        "supply_centers": phase.supply_centers,
        "dislodged": phase.dislodged,
        "contested": phase.contested,
        "orders": orders,
        "options": read_options(game),
        **phase.carried,
    }
    if "economy" in phase.carried:
        payments = [p.as_engine() for p in phase.payments.all()]
        body["economy"] = {**phase.carried["economy"], "payments": payments}
    return body


def carried(request: dict, response: dict) -> dict:
    """What the next phase's request must carry from this one (Chinese gold and faction
    orders), as the variant's rules say (``adjudication.carried``)."""
    return adjudication.carried(request, response)


def adjudicate(payload: dict) -> dict:
    """The engine's answer, with each reason's words beside it (``reason_words``)."""
    response = adjudication.adjudicate(payload)
    if "error" in response:
        raise EngineError(response["error"])
    return adjudication.add_words(response)


def order_lines(texts: Iterable[str]) -> list[str]:
    """The orders of a list sent, or of a box's lines: each trimmed, and those that are
    nothing at all dropped: empty, spaces, or only characters drawn as nothing (``\\u200b``,
    a byte-order mark), which the engine reads as no order (``adjudication.blank``)."""
    return [text.strip() for text in texts if not adjudication.blank(text)]


def check_orders(game: Game, phase: Phase, power: str, texts: list[str]) -> list[Checked]:
    """Check one power's orders as they are sent, against the current board.

    The engine's check mode refuses only what the map, the position and the phase decide; an
    order that rests on other powers' orders (a canal permit, a support of a railroad move)
    is valid now and judged with every other order at the deadline.
    """
    orders = [{"power": power, "order": text} for text in texts]
    reply = adjudication.check(request(game, phase, orders))
    if "error" in reply:
        raise EngineError(reply["error"])
    replies = reply["orders"]
    out = []
    for text, reply in zip(texts, replies, strict=True):
        valid = reply["result"] != "invalid"
        canonical = reply.get("canonical") or ""
        out.append(
            Checked(
                text=text,
                canonical=canonical,
                valid=valid,
                reason=reply.get("reason", "") if not valid else "",
                reason_words=adjudication.reason_words(reply["reason"])
                if not valid and reply.get("reason")
                else None,
                location=adjudication.ordered_unit(reply.get("data")) if valid else None,
                data=reply.get("data"),
                needs=reply.get("needs") or "" if valid else "",
                needs_words=adjudication.reason_words(reply["needs"])
                if valid and reply.get("needs")
                else None,
            )
        )
    return out


def options(game: Game, phase: Phase, power: str) -> dict:
    """Every legal order of the power this phase, as the engine lists them (structured data:
    kind, unit, location, destination, via, ..., ``order`` the canonical text, ``needs``)."""
    reply = adjudication.options(request(game, phase, []), power)
    if "error" in reply:
        raise EngineError(reply["error"])
    return adjudication.add_words(reply)


# ``rule_orders`` by phase, power and the game's options, kept in the process: a phase's board
# is never rewritten (a rollback reopens a phase with its board as it was; new phases get new
# ids), so the engine's answer for it stands. Not where the phase's payments count (Chinese
# Diplomacy's economy): those change during the phase. Listing every option to pick out these
# few was a tenth of a game page's CPU.
_RULE_ORDERS: OrderedDict[tuple, tuple[str, ...]] = OrderedDict()
RULE_ORDERS_KEPT = 4096
_rule_orders_lock = threading.Lock()


def rule_orders(game: Game, phase: Phase, power: str) -> list[str]:
    """The power's orders of the variant's own rules that are not a unit's hold, move or
    support, as the engine lists them: Chinese Diplomacy's entries onto the board and
    departures from it, Colonial's Suez permits; none in other variants."""
    key = None
    if phase.pk is not None and "economy" not in (phase.carried or {}):
        key = (phase.pk, power, game.variant, json.dumps(game.options, sort_keys=True))
        with _rule_orders_lock:
            found = _RULE_ORDERS.get(key)
            if found is not None:
                _RULE_ORDERS.move_to_end(key)
                return list(found)
    found = tuple(
        o["order"] for o in options(game, phase, power)["orders"] if o["kind"] == "special"
    )
    if key is not None:
        with _rule_orders_lock:
            _RULE_ORDERS[key] = found
            while len(_RULE_ORDERS) > RULE_ORDERS_KEPT:
                _RULE_ORDERS.popitem(last=False)
    return list(found)


def powers(game: Game) -> list[str]:
    """The powers people play (not the sides the server moves, like the Chinese factions)."""
    return adjudication.load(game.variant).playable_powers


def power_named(game: Game, text: str) -> str:
    """The power players play that ``text`` names as an order would (any case, ``RUS``,
    ``Russian``); otherwise ``text`` itself, for the caller to refuse by name."""
    named = adjudication.load(game.variant).power(text) if isinstance(text, str) else None
    return named if named in powers(game) else text


def power_written_short(game: Game, text: object) -> str | None:
    """The power ``text`` abbreviates (``JAP``, ``J.A.P.``) in a variant whose names are
    written in full (Chinese Diplomacy, seed 003 rule 8), which ``power_named`` does not read,
    so that the refusal names the name to write; otherwise None."""
    variant = adjudication.load(game.variant)
    if variant.raw.get("abbreviations_allowed", True) or not isinstance(text, str):
        return None
    key = normalise(text)
    for name in powers(game):
        abbreviation = variant.powers[name].abbreviation
        if key and abbreviation and normalise(abbreviation) == key:
            return name
    return None


def survivors(phase: Phase) -> set[str]:
    """Powers still in the game: a unit or a supply centre, or an account of gold.

    A power that keeps an account (Chinese Diplomacy's great powers) plays on with nothing on
    the board: it may bring armies on in any year, and pay and be paid; only deposition ends
    its leader's seat.
    """
    alive = {u["power"] for u in phase.units} | {u["power"] for u in phase.dislodged}
    alive |= {power for power, centres in phase.supply_centers.items() if centres}
    return alive | account_holders(phase)


def final_board(phase: Phase) -> Phase:
    """The board as it stands in ``phase``: its own, or, once it is processed, the board its
    results left. A game that ends with a phase (a solo, Chinese Diplomacy's last year) opens
    none after it, so its final position (the winner's centres) is in that phase's results."""
    results = phase.results or {}
    if phase.processed_at is None or "units" not in results:
        return phase
    return Phase(
        game_id=phase.game_id,
        index=phase.index,
        season=phase.season,
        year=phase.year,
        type=phase.type,
        units=results["units"],
        supply_centers=results.get("supply_centers") or {},
        dislodged=[],
        contested=[],
        carried=phase.carried,
    )


def centres_and_units(phase: Phase, *, as_left: bool = True) -> dict[str, tuple[int, int]]:
    """Each power's supply centres and units as ``phase`` leaves them (``final_board``: a
    game won with its phase shows the winner's centres), or, not ``as_left``, as it began; a
    power with neither is left out."""
    board = final_board(phase) if as_left else phase
    counts = {power: (len(held), 0) for power, held in board.supply_centers.items()}
    for unit in board.units:
        centres, units = counts.get(unit["power"], (0, 0))
        counts[unit["power"]] = (centres, units + 1)
    return counts


def counting_season(variant_id: str) -> str:
    """The season whose movement phase ends a year: centres change hands then and builds
    follow (Fall on the standard, Colonial and Far East maps; Chinese Diplomacy's one
    movement phase a year)."""
    return adjudication.load(variant_id).adjustments_after


def opening_balances(phase: Phase) -> dict[str, int] | None:
    """The gold each great power holds going into the phase (Chinese Diplomacy; None in other
    variants): the carried balances, with a power a new player took over after a deposition
    at zero (rule 6, ``services.take_over``), as the engine will count it."""
    economy = (phase.carried or {}).get("economy")
    if not economy:
        return None
    balances = dict(economy.get("balances") or {})
    for power in economy.get("new_leaders") or ():
        balances[power] = 0
    return balances


def account_holders(phase: Phase) -> set[str]:
    """Powers with a balance of gold carried into the phase (none outside Chinese Diplomacy)."""
    economy = (phase.carried or {}).get("economy") or {}
    return set(economy.get("balances") or {})


def powers_bound_to_act(phase: Phase) -> set[str]:
    """Powers that miss the phase if they send nothing (civil disorder, reliability): those
    with something to order, less a great power with nothing on the board in a movement phase
    (Chinese Diplomacy), which may bring an army on but need not."""
    due = powers_to_act(phase)
    if phase.type == Phase.Type.MOVEMENT:
        due &= {u["power"] for u in phase.units}
    return due


def powers_to_act(phase: Phase) -> set[str]:
    """Powers that have something to order in this phase (an account holder off the board
    may bring an army on in any movement phase)."""
    if phase.type == Phase.Type.MOVEMENT:
        return {u["power"] for u in phase.units} | account_holders(phase)
    if phase.type == Phase.Type.RETREATS:
        return {d["power"] for d in phase.dislodged if d.get("retreats", True)}
    counts: dict[str, int] = {}
    for unit in phase.units:
        counts[unit["power"]] = counts.get(unit["power"], 0) + 1
    return {
        power
        for power in set(counts) | set(phase.supply_centers)
        if counts.get(power, 0) != len(phase.supply_centers.get(power, []))
    }
