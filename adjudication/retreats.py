"""Retreat phases: where a dislodged unit may go, and what happens when two go to one space."""

from __future__ import annotations

from .board import Board, Dislodged
from .orders import DISBAND, RETREAT, Order, OrderError
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


def adjudicate_retreats(board: Board, entries: list, answer) -> list:
    """Judge retreat orders; returns the units that survive, in their new places.

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
                raise OrderError(f"a {order.kind} order is not allowed in a retreat phase")
            d = by_province.get(province_of(order.location))
            if d is None:
                raise OrderError(f"there is no dislodged unit in {province_of(order.location)}")
            if d.unit.power != power:
                raise OrderError(
                    f"the dislodged unit in {d.unit.province} belongs to {d.unit.power}"
                )
            if order.unit and order.unit != d.unit.kind:
                raise OrderError(f"the dislodged unit in {d.unit.province} is {_noun(d.unit.kind)}")
            if d.unit.province in chosen:
                raise OrderError(f"{d.unit.label()} already has an order")
            if order.kind == DISBAND:
                canonical = Order(DISBAND, d.unit.kind, d.unit.location)
                chosen[d.unit.province] = (index, "")
            else:
                dest = _destination(variant, d, order.destination, options[d.unit.province])
                canonical = Order(RETREAT, d.unit.kind, d.unit.location, destination=dest)
                chosen[d.unit.province] = (index, dest)
            answer(index, "pending", canonical=canonical.text())
        except OrderError as e:
            # An order that was read but refused echoes how it was read (``F Brest R Paris``).
            kind = d.unit.kind if d else None
            answer(index, "invalid", str(e), canonical=order.text(kind) if order else None)
    arrivals: dict[str, list[str]] = {}
    for province, (_, dest) in chosen.items():
        if dest:
            arrivals.setdefault(province_of(dest), []).append(province)
    survivors = list(board.units)
    for province, (index, dest) in chosen.items():
        d = by_province[province]
        if not dest:
            answer(index, "succeeds", "disbanded")
            continue
        rivals = [p for p in arrivals[province_of(dest)] if p != province]
        if province_of(dest) in variant.stacking:
            rivals = []  # a space that holds any number of units takes them all
        if rivals:
            others = ", ".join(by_province[p].unit.label() for p in rivals)
            answer(index, "fails", f"bounced with {others} in {province_of(dest)}: both disband")
            continue
        answer(index, "succeeds")
        moved = d.unit.__class__(d.unit.power, d.unit.kind, dest, province_of(dest))
        survivors.append(moved)
    return survivors


def _destination(variant: Variant, d: Dislodged, dest: str, options: list[str]) -> str:
    province = province_of(dest)
    if d.unit.kind == "A":
        dest = province  # an army goes to the province, whatever coast is named (DATC 6.B.12)
    if dest in options:
        return dest
    matches = [o for o in options if province_of(o) == province]
    if "/" in dest and matches:
        raise OrderError(f"{d.unit.location} cannot retreat to {dest}, only to {matches[0]}")
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        raise OrderError(f"say which coast of {province}: {' or '.join(matches)}")
    terrain = variant.provinces[province].type
    if d.unit.kind == "A" and terrain == "sea":
        return _fail(f"an army cannot retreat to {province}: it is a sea")
    if d.unit.kind == "F" and terrain == "land":
        return _fail(f"a fleet cannot retreat to {province}: it is inland")
    near = variant.army_adj if d.unit.kind == "A" else variant.fleet_adj
    here = d.unit.province if d.unit.kind == "A" else d.unit.location
    if not any(province_of(n) == province for n in near.get(here, ())):
        return _fail(f"{d.unit.location} is not adjacent to {province}")
    if province == d.attacker_from:
        return _fail(f"{d.unit.label()} cannot retreat to {province}, where its attacker came from")
    return _fail(f"{province} is occupied or was left empty by a standoff")


def _fail(reason: str) -> str:
    raise OrderError(reason)


def _noun(kind: str) -> str:
    return "an army" if kind == "A" else "a fleet"
