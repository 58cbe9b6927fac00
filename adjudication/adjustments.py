"""Adjustment phases: builds, removals, waives, and removals by civil disorder."""

from __future__ import annotations

from collections import deque

from .board import Board, Unit
from .orders import BUILD, REMOVE, WAIVE, OrderError, parse
from .reasons import UNIT_IS, either, no_number
from .variant import Variant, province_of


def centre_counts(variant: Variant, centres: dict[str, str]) -> dict[str, int]:
    """Supply centres each power owns that count for it."""
    counts = dict.fromkeys(variant.powers, 0)
    exclusions = variant.centre_exclusions  # ``is_centre_for``, looked up once for all
    for province, power in centres.items():
        excluded = exclusions.get(province)
        if excluded is not None and power not in excluded:
            counts[power] += 1
    return counts


def build_sites(board: Board, power: str, occupied: set[str]) -> list[str]:
    """Owned, empty home centres where the power may build."""
    homes = board.variant.home_centres(power)
    return [h for h in homes if board.centres.get(h) == power and h not in occupied]


def needed(board: Board) -> dict[str, int]:
    """Builds (positive) or removals (negative) each power must make."""
    counts = centre_counts(board.variant, board.centres)
    units = dict.fromkeys(board.variant.powers, 0)
    for u in board.units:
        units[u.power] += 1
    return {p: counts[p] - units[p] for p in board.variant.powers}


def anything_to_do(board: Board, counts: dict[str, int] | None = None) -> bool:
    """Whether some power must remove a unit or may build one. ``counts`` are the
    ``centre_counts`` of the board's centres when the caller has them already."""
    if counts is None:
        counts = centre_counts(board.variant, board.centres)
    units: dict[str, int] = {}
    for unit in board.units:  # a compiled loop: a Counter counted through Python calls
        units[unit.power] = units.get(unit.power, 0) + 1
    occupied = None
    for power in board.variant.powers:
        delta = counts[power] - units.get(power, 0)
        if delta < 0:
            return True
        if delta > 0:
            if occupied is None:
                occupied = {u.province for u in board.units}
            if build_sites(board, power, occupied):
                return True
    return False


def adjudicate_adjustments(board: Board, entries: list, answer) -> tuple[list[Unit], list[Unit]]:
    """Judge the orders; returns the units after the phase and those removed by civil disorder."""
    variant = board.variant
    delta = needed(board)
    owed = dict(delta)  # what each power was to build (+) or remove (-) before any order
    units = list(board.units)
    occupied = {u.province for u in units}
    built: set[str] = set()  # provinces given a unit by an earlier build of this phase
    removed: set[int] = set()  # where in ``units`` the units removed by an order of this phase are
    for index, (power, text) in enumerate(entries):
        order = None
        try:
            order = parse(variant, text, "adjustments")
            if order.kind == WAIVE:
                if delta[power] <= 0:
                    if owed[power] > 0:  # its builds are all taken by earlier orders
                        raise OrderError("{power} has no builds left to waive", power=power)
                    raise OrderError("{power} has no builds to waive", power=power)
                delta[power] -= 1
                answer(index, "succeeds", canonical="Waive")
            elif order.kind == BUILD:
                unit = _build(board, power, order, delta[power], owed[power], occupied, built)
                delta[power] -= 1
                built.add(unit.province)
                units.append(unit)
                answer(index, "succeeds", canonical=f"Build {unit.kind} {unit.location}")
            elif order.kind == REMOVE:
                at = _removal(units, power, order, delta[power], owed[power], removed)
                unit = units[at]
                delta[power] += 1
                removed.add(at)
                answer(index, "succeeds", canonical=f"Remove {unit.kind} {unit.location}")
            else:
                raise OrderError(
                    "a {kind} order is not allowed in an adjustment phase", kind=order.kind
                )
        except OrderError as e:
            # An order that was read but refused echoes how it was read (``Build A Munich``).
            answer(index, "invalid", e.reason, canonical=order.text() if order else None)
    # By unit, not by province: an ocean holds several fleets, of several powers. By place in
    # the list, not by identity: two equal units may be one object.
    units = [u for at, u in enumerate(units) if at not in removed]
    disorder: list[Unit] = []
    for power, missing in delta.items():
        if missing < 0:
            disorder += civil_disorder(
                board, power, [u for u in units if u.power == power], -missing
            )
    for unit in disorder:  # one at a time: equal units (fleets in one ocean) each count
        units.remove(unit)
    return units, disorder


def _build(
    board: Board,
    power: str,
    order,
    remaining: int,
    owed: int,
    occupied: set[str],
    built: set[str],
) -> Unit:
    """The unit a build order makes, or OrderError. A build where another was made this phase
    is refused as such only when the power might build there at all: a reason that depends on
    no other order first, and none that tells one power of another's build."""
    variant = board.variant
    province = province_of(order.location)
    if remaining <= 0:
        if owed <= 0:  # it owes removals, or nothing: it had no build to make
            raise OrderError("{power} has no builds to make this phase", power=power)
        raise OrderError("{power} has no builds left this phase", power=power)
    if province not in variant.home_centres(power):
        raise OrderError(
            "{province} is not a home centre of {power}", province=province, power=power
        )
    if board.centres.get(province) != power:
        raise OrderError("{power} does not own {province}", power=power, province=province)
    if province in occupied:
        raise OrderError("{province} is occupied", province=province)
    kind = order.unit
    if kind is None:
        raise OrderError("say what to build: an army (A) or a fleet (F)")
    location = order.location
    p = variant.provinces[province]
    if kind == "F":
        if p.is_land:
            raise OrderError(
                "a fleet cannot be built in {province}: it is inland", province=province
            )
        if p.coasts and "/" not in location:
            coasts = either(variant.fleet_locations(province))
            raise OrderError("say which coast to build the fleet on: {coasts}", coasts=coasts)
    else:
        location = province
    if not variant.can_stand(kind, location):
        if kind == "A":
            raise OrderError("an army cannot stand in {location}", location=location)
        raise OrderError("a fleet cannot stand in {location}", location=location)
    if province in built:  # last: every reason of the order's own comes first
        raise OrderError("{where} already has a build this phase", where=province)
    return Unit(power, kind, location, province)


def _removal(
    units: list[Unit], power: str, order, remaining: int, owed: int, removed: set[int]
) -> int:
    """Where in ``units`` the power's unit the order names is; in an ocean holding several of
    its fleets, the first not yet removed (Far East rule 6.7: such fleets are interchangeable)."""
    province = province_of(order.location)
    mine = [at for at, u in enumerate(units) if u.province == province and u.power == power]
    if not mine:
        raise OrderError("{power} has no unit in {province}", power=power, province=province)
    unit = units[mine[0]]
    if order.unit and order.unit != unit.kind:
        raise OrderError(UNIT_IS[unit.kind], province=province)
    if order.number is None:
        at = next((at for at in mine if at not in removed), None)
        if at is None:
            raise OrderError("{unit} is already being removed", unit=unit.label())
    else:  # F2: the power's second unit there, as in a movement phase (F3 of two: refused)
        number = order.number
        if number > len(mine):
            raise OrderError(no_number(power, len(mine), province, number))
        at = mine[number - 1]
        if at in removed:
            label = f"{unit.kind}{number} {province}"
            raise OrderError("{unit} is already being removed", unit=label)
    if remaining >= 0:
        if owed >= 0:  # it may build, or owes nothing: it had no removal to make
            raise OrderError("{power} has no removals to make this phase", power=power)
        raise OrderError("{power} has no removals left this phase", power=power)
    return at


def civil_disorder(board: Board, power: str, units: list[Unit], count: int) -> list[Unit]:
    """Units removed for a power that ordered too few removals (DATC 2023 distance rule).

    The farthest from any centre the power owns goes first, counting moves over land and sea
    alike; on a tie fleets before armies, then by province name.
    """
    distance = _distances(board.variant, [c for c, p in board.centres.items() if p == power])
    far = 1 << 20

    def key(u: Unit) -> tuple:
        return (-distance.get(u.province, far), 0 if u.kind == "F" else 1, u.province)

    return sorted(units, key=key)[:count]


def _distances(variant: Variant, sources: list[str]) -> dict[str, int]:
    distance = dict.fromkeys(sources, 0)
    queue = deque(sources)
    while queue:
        here = queue.popleft()
        step = distance[here] + 1
        for nxt in _neighbours(variant, here):
            if nxt not in distance:
                distance[nxt] = step
                queue.append(nxt)
    return distance


def _neighbours(variant: Variant, province: str):
    yield from variant.army_adj.get(province, ())
    yield from variant.fleet_reach.get(province, ())
