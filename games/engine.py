"""The server's side of the adjudication contract: requests from phases, facts from responses.

Nothing here touches the database; ``games.services`` decides what to store.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import adjudication

from .models import Game, Phase

logger = logging.getLogger(__name__)

# Words that end a unit's location in canonical order text ("A North Sea - Norway").
_ORDER_WORDS = {"H", "-", "S", "C", "R", "D"}


class EngineError(RuntimeError):
    """The engine refused a request the server built: a bug, never the players' fault."""


@dataclass
class Checked:
    text: str
    canonical: str
    valid: bool
    reason: str
    location: str | None


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
        "options": game.options,
        **phase.carried,
    }
    if "economy" in phase.carried:
        payments = [p.as_engine() for p in phase.payments.all()]
        body["economy"] = {**phase.carried["economy"], "payments": payments}
    return body


def carried(response: dict) -> dict:
    """What the next phase's request must carry from this response (Chinese Diplomacy)."""
    out = {}
    if "economy" in response:
        out["economy"] = {"balances": response["economy"]["balances"]}
    if "factions" in response:
        out["faction_orders"] = response["factions"].get("next_orders", [])
    return out


def adjudicate(payload: dict) -> dict:
    response = adjudication.adjudicate(payload)
    if "error" in response:
        raise EngineError(response["error"])
    return response


def check_orders(game: Game, phase: Phase, power: str, texts: list[str]) -> list[Checked]:
    """Ask the engine about one power's orders alone, against the current board."""
    orders = [{"power": power, "order": text} for text in texts]
    # A variant may append orders of its own (the Chinese factions') after ours.
    replies = adjudicate(request(game, phase, orders))["orders"][: len(texts)]
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
                location=unit_location(canonical) if valid else None,
            )
        )
    return out


def unit_location(canonical: str) -> str | None:
    """The location of the unit a canonical order is about; None for Waive and the like.

    "A North Sea - Norway" -> "North Sea", "Build F St Petersburg/nc" -> "St Petersburg/nc".
    """
    words = canonical.split()
    if words[:1] in (["Build"], ["Remove"]):
        words = words[1:]
    if not words or words[0] not in ("A", "F"):
        return None
    location = []
    for word in words[1:]:
        if word in _ORDER_WORDS:
            break
        location.append(word)
    return " ".join(location) or None


def powers(game: Game) -> list[str]:
    """The powers people play (not the sides the server moves, like the Chinese factions)."""
    return adjudication.load(game.variant).playable_powers


def survivors(phase: Phase) -> set[str]:
    """Powers that still have a unit or a supply centre."""
    alive = {u["power"] for u in phase.units} | {u["power"] for u in phase.dislodged}
    alive |= {power for power, centres in phase.supply_centers.items() if centres}
    return alive


def powers_to_act(phase: Phase) -> set[str]:
    """Powers that have something to order in this phase."""
    if phase.type == Phase.Type.MOVEMENT:
        return {u["power"] for u in phase.units}
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
