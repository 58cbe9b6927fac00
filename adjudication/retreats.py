"""Retreat phases: where a dislodged unit may go, and what happens when two go to one space."""

from __future__ import annotations

from .board import Board, Dislodged
from .orders import DISBAND, RETREAT, Order, OrderError
from .reasons import DISLODGED_IS, WHICH_COAST, listed, why
from .variant import Variant, province_of


def retreat_options(
    variant: Variant, d: Dislodged, occupied: set[str], contested: set[str]
) -> list[str]:
    """Every location a dislodged unit may retreat to, in map order."""
    unit = d.unit
    if unit.kind == "A":
        near = variant.army_adj.get(unit.province, ())
    else:
        near = variant.fleet_adj.get(unit.location, ())
    options = []
    for loc in sorted(near):
        province = province_of(loc)
        if province in contested or (province in occupied and province not in variant.stacking):
            continue
        if (
            province == d.attacker_from
            and not d.via_convoy
            and not _may_return(variant, d, province)
        ):
            continue
        options.append(loc)
    return options


def _may_return(variant: Variant, d: Dislodged, province: str) -> bool:
    """A rule may let a unit retreat to where its attacker came from (Far East oceans)."""
    return any(rule.may_retreat_to_attacker(variant, d, province) for rule in variant.plugins)


def adjudicate_retreats(board: Board, entries: list, answer) -> tuple[list, list]:
    """Judge retreat orders; returns the units that survive, in their new places, and the
    dislodged units that could have retreated, disbanded by default because their power
    ordered none for them.

    ``answer(index, result, reason=None, canonical=None)`` records the reply to each order.
    """
    from .orders import parse

    variant = board.variant
    occupied = {u.province for u in board.units}
    by_province = {d.unit.province: d for d in board.dislodged}
    options = {
        d.unit.province: retreat_options(variant, d, occupied, board.contested)
        for d in board.dislodged
    }
    chosen: dict[str, tuple[int, str]] = {}  # dislodged province -> (entry index, destination)
    for index, entry in enumerate(entries):
        power, text = entry
        order = d = None
        try:
            order = parse(variant, text, "retreats")
            if order.kind not in (RETREAT, DISBAND):
                raise OrderError(
                    "a {kind} order is not allowed in a retreat phase", kind=order.kind
                )
            d = by_province.get(province_of(order.location))
            if d is None:
                raise OrderError(
                    "there is no dislodged unit in {province}", province=province_of(order.location)
                )
            if d.unit.power != power:
                raise OrderError(
                    "the dislodged unit in {province} belongs to {power}",
                    province=d.unit.province,
                    power=d.unit.power,
                )
            if order.unit and order.unit != d.unit.kind:
                raise OrderError(DISLODGED_IS[d.unit.kind], province=d.unit.province)
            if d.unit.province in chosen:
                raise OrderError("{unit} already has an order", unit=d.unit.label())
            if order.kind == DISBAND:
                canonical = Order(DISBAND, d.unit.kind, d.unit.location)
                chosen[d.unit.province] = (index, "")
            else:
                destination = order.destination
                assert destination is not None  # every retreat names one (the parser's RETREAT)
                dest = _destination(variant, d, destination, options[d.unit.province])
                if dest is None:  # a space the board closes: which way it is closed
                    province = province_of(destination)
                    if province in board.contested:
                        raise OrderError(
                            "{province} was left empty by a standoff", province=province
                        )
                    raise OrderError("{province} is occupied", province=province)
                canonical = Order(RETREAT, d.unit.kind, d.unit.location, destination=dest)
                chosen[d.unit.province] = (index, dest)
            answer(index, "pending", canonical=canonical.text())
        except OrderError as e:
            # An order that was read but refused echoes how it was read (``F Brest R Paris``).
            # The kind as written (``F Munich R Burgundy`` for an army is refused, and so is
            # its echo sent again); the unit's own only where none was written.
            kind = d.unit.kind if d and order and not order.unit else None
            answer(index, "invalid", e.reason, canonical=order.text(kind) if order else None)
    arrivals: dict[str, list[str]] = {}
    for province, (_, dest) in chosen.items():
        if dest:
            arrivals.setdefault(province_of(dest), []).append(province)
    survivors = list(board.units)
    for province, (index, dest) in chosen.items():
        d = by_province[province]
        if not dest:
            answer(index, "succeeds", why("disbanded"))
            continue
        rivals = [p for p in arrivals[province_of(dest)] if p != province]
        if province_of(dest) in variant.stacking:
            rivals = []  # a space that holds any number of units takes them all
        if rivals:
            others = listed([by_province[p].unit.label() for p in rivals])
            answer(
                index,
                "fails",
                why(
                    "bounced with {others} in {province}: both disband",
                    others=others,
                    province=province_of(dest),
                ),
            )
            continue
        answer(index, "succeeds")
        moved = d.unit.__class__(d.unit.power, d.unit.kind, dest, province_of(dest))
        survivors.append(moved)
    # Left unordered with somewhere to go: disbanded by default (one with nowhere to go is
    # disbanded by the rules, whatever its power orders).
    unordered = [
        d.unit
        for d in board.dislodged
        if d.unit.province not in chosen and options[d.unit.province]
    ]
    return survivors, unordered


def _destination(variant: Variant, d: Dislodged, dest: str, options: list[str]) -> str | None:
    """Where the retreat goes, the coast worked out; None for a space the board closes to it
    (occupied or left empty by a standoff); raises OrderError for one the map forbids."""
    province = province_of(dest)
    if d.unit.kind == "A":
        dest = province  # an army goes to the province, whatever coast is named (DATC 6.B.12)
    if dest in options:
        return dest
    matches = [o for o in options if province_of(o) == province]
    if "/" in dest and matches:
        raise OrderError(
            "{location} cannot retreat to {destination}, only to {only}",
            location=d.unit.location,
            destination=dest,
            only=matches[0],
        )
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        raise OrderError(WHICH_COAST, province=province, coasts=" / ".join(matches))
    if province == d.unit.province:
        raise OrderError(
            "{unit} cannot retreat to {province}, the province it was dislodged from",
            unit=d.unit.label(),
            province=province,
        )
    terrain = variant.provinces[province].type
    if d.unit.kind == "A" and terrain == "sea":
        raise OrderError("an army cannot retreat to {province}: it is a sea", province=province)
    if d.unit.kind == "F" and terrain == "land":
        raise OrderError("a fleet cannot retreat to {province}: it is inland", province=province)
    near = variant.army_adj if d.unit.kind == "A" else variant.fleet_adj
    here = d.unit.province if d.unit.kind == "A" else d.unit.location
    if not any(province_of(n) == province for n in near.get(here, ())):
        raise OrderError(
            "{location} is not adjacent to {province}", location=d.unit.location, province=province
        )
    if province == d.attacker_from:
        raise OrderError(
            "{unit} cannot retreat to {province}, where its attacker came from",
            unit=d.unit.label(),
            province=province,
        )
    return None
