"""Every legal order a power may give this phase, as structured data.

Bots, the click menu of the board and API clients all need the same list, and each of them
used to work it out from adjacency tables of its own. Here candidates are drawn from the map
(neighbours, chains of the fleets now at sea, supports of units in reach, and what each rule
plug-in adds) and every candidate is then put through the engine's own check (``api.check``),
so nothing listed is refused. An order whose success depends on other powers' orders (a canal
passage, a support of a railroad move) is listed, as the check accepts it.

The list is every legal order but one kind: a support of a move the supported unit could not
make this turn (a convoyed move that no chain of fleets now at sea could carry, the supporter
aside) is legal when typed (DATC 6.D.31) and left out here (``_support_destinations``).
"""

from __future__ import annotations

from .board import Board, RequestError, read
from .movement import convoy_chains, fleets_at_sea, reaches
from .orders import SPECIAL, WAIVE, parse
from .variant import Variant


def ordered_unit(data: dict | None) -> str | None:
    """Where the unit an order commands stands, from the order's data: the key of "one order
    a unit". None for a waive and for a rule's own orders (a canal permit names another
    power's fleet, an entry a unit not yet on the board)."""
    if not data or data.get("kind") in (WAIVE, SPECIAL):
        return None
    return data.get("location")


def options(request: dict, power: object) -> dict:
    """``{"power", "phase", "orders": [...], "adjustment": n}`` for one power.

    Each item of ``orders`` is ``order_data`` plus ``"needs"`` when the engine says the
    order's success hangs on other powers' orders. ``adjustment`` is the builds (positive) or
    removals (negative) the power has to make in an adjustment phase, else 0. A malformed
    request comes back as ``{"error": ..., "details": [...]}`` like ``adjudicate``.
    """
    from .api import error

    try:
        board, _ = read({**request, "orders": []})
    except RequestError as e:
        return error(str(e), e.details)
    variant = board.variant
    named = variant.power(power) if isinstance(power, str) else None
    if named is None:
        return error(f"unknown power {power!r}")
    candidates = _candidates(board, named)
    texts = _checked(board, named, candidates)
    once = _once_a_turn(variant)
    orders = []
    for _text, reply in texts:
        item = dict(reply["data"])  # the check's own reading of the order
        if reply.get("needs"):
            item["needs"] = reply["needs"]
        if once:
            order = parse(variant, item["order"], board.phase_type)
            for rule, hook in once:
                if hook(order):
                    item["once"] = rule  # a second such order would refuse both
                    break
        orders.append(item)
    return {
        "power": named,
        "phase": board.phase,
        "orders": orders,
        "adjustment": _adjustment(board, named),
    }


def _once_a_turn(variant: Variant) -> tuple:
    """(rule name, hook) of each rule that allows a power one order of a kind a turn (a
    railroad ride, a canal permit): the options mark such orders ``once`` with the rule's
    name, so that a menu takes the earlier one out when another is chosen."""
    from .registry import Rule

    return tuple(
        (p.name, p.one_a_turn) for p in variant.plugins if type(p).one_a_turn is not Rule.one_a_turn
    )


def _adjustment(board: Board, power: str) -> int:
    if board.phase_type != "adjustments":
        return 0
    from .adjustments import needed

    return needed(board)[power]


def _checked(board: Board, power: str, candidates: list[list[str]]) -> list[tuple]:
    """The candidates the engine accepts, with its replies, without duplicates.

    Candidates are checked in rounds, one per unit a round, so a unit never gets two orders in
    one request; one refused in a round is checked again alone, in case its refusal came from
    another candidate of the round (two railroad moves, say)."""
    accepted: list[tuple] = []
    seen: set[str] = set()
    rounds = max((len(c) for c in candidates), default=0)
    for r in range(rounds):
        batch = [c[r] for c in candidates if r < len(c)]
        for text, reply in _check(board, power, batch):
            if reply["result"] == "invalid" and len(batch) > 1:
                text, reply = _check(board, power, [text])[0]
            if reply["result"] != "invalid" and reply["canonical"] not in seen:
                seen.add(reply["canonical"])
                accepted.append((text, reply))
    return accepted


def _check(board: Board, power: str, texts: list[str]) -> list[tuple]:
    """``api.check`` of some orders on the board read once, not once a batch (reading the
    request was most of the time of a big power's list)."""
    from .api import _check as check

    replies = check(board, [(power, t) for t in texts])
    return list(zip(texts, replies, strict=True))


def _candidates(board: Board, power: str) -> list[list[str]]:
    """Order texts worth checking, one list per unit (or per build site, or plug-in)."""
    variant = board.variant
    if board.phase_type == "retreats":
        lists = [_retreats(board, d) for d in board.dislodged if d.unit.power == power]
    elif board.phase_type == "adjustments":
        lists = _adjustments(board, power)
    else:
        fleets = fleets_at_sea(variant, board.units)
        # Units alike (a power's armies in an entry space, its fleets in an ocean) have the
        # same orders: listed once, not once per unit (100 armies made it 10^6 checks).
        lists = [_movement(board, u, fleets) for u in _distinct(board.units) if u.power == power]
    for rule in variant.plugins:
        extra = rule.option_orders(board, power)
        if extra:
            lists.append(list(extra))
    return [c for c in lists if c]


def _distinct(units) -> list:
    """One of each set of equal units (same power, kind and location), in board order."""
    first: dict[tuple[str, str, str], object] = {}
    for u in units:
        first.setdefault((u.power, u.kind, u.location), u)
    return list(first.values())


def _movement(board: Board, unit, fleets: frozenset[str]) -> list[str]:
    variant = board.variant
    here = f"{unit.kind} {unit.location}"
    texts = [f"{here} H"]
    for dest in _destinations(variant, unit.kind, unit.location):
        texts.append(f"{here} - {dest}")
    if unit.kind == "A":
        for dest in _convoy_destinations(variant, fleets, unit.province):
            texts.append(f"{here} - {dest} via Convoy")
    at_sea = unit.kind == "F" and unit.province in fleets
    # Fleets that could carry a supported army: the supporter is not one (it cannot convoy
    # while it supports) unless another fleet shares its ocean.
    carriers = fleets - {unit.province} if at_sea and _alone(board, unit) else fleets
    # Units that share a stacking space (an ocean, an entry space) may support each other.
    twins = sum(1 for other in board.units if other == unit) > 1
    for other in _distinct(board.units):
        if other == unit and not twins:
            continue
        there = f"{other.kind} {other.location}"
        if other.province in variant.stacking:  # a shared space: say whose unit it is
            there = f"{other.power} {there}"
        if reaches(variant, unit.kind, unit.location, other.province):
            texts.append(f"{here} S {there}")
        for dprov in _support_destinations(board, unit, other, carriers):
            texts.append(f"{here} S {there} - {dprov}")
        if at_sea and other.kind == "A":
            for dest in _convoy_destinations(variant, fleets, other.province, unit.province):
                texts.append(f"{here} C {there} - {dest}")
    return texts


def _destinations(variant: Variant, kind: str, location: str) -> list[str]:
    if kind == "A":
        return sorted(variant.army_adj.get(location, ()))
    return sorted(variant.fleet_adj.get(location, ()))


def _convoy_destinations(
    variant: Variant, fleets: frozenset[str], province: str, through: str | None = None
) -> list[str]:
    """Where the fleets now at sea (``fleets``) could carry an army from this province, by a
    chain of them (with the fleet in ``through`` in it, if given): the check of a convoyed
    move or a convoy (``Movement.check_move``, ``check_convoy``) asks the same."""
    if province not in variant.fleet_reach:
        return []
    reach, provinces = variant.fleet_reach, variant.provinces
    out: set[str] = set()
    for last, members in convoy_chains(variant, fleets, province).items():
        if through is None or through in members:
            out.update(p for p in reach[last] if p != province and not provinces[p].is_sea)
    return sorted(out)


def _support_destinations(board: Board, unit, other, carriers: frozenset[str]) -> list[str]:
    """Where ``unit`` could support ``other`` to: the moves ``other`` could really make this
    turn. That is narrower than what the engine accepts when typed: the DATC (6.D.31) makes a
    support legal for any move the map allows, a convoyed one even with no fleets to carry it;
    the menus offer a convoyed move only where the fleets now at sea in ``carriers`` (the
    supporter not among them) could make a chain for it."""
    variant = board.variant
    extra = _extra_reach(board, other)
    land = variant.army_adj.get(other.location, frozenset()) if other.kind == "A" else frozenset()
    by_sea: set[str] = set()
    if other.kind == "A" and other.province in variant.fleet_reach:
        by_sea = set(_convoy_destinations(variant, carriers, other.province))
    out = []
    for dprov in sorted(_reachable_provinces(variant, unit)):
        if dprov in (unit.province, other.province):
            continue
        if other.kind == "F":
            possible = dprov in variant.fleet_provinces[other.location]
        else:
            possible = dprov in land or dprov in by_sea
        if (possible or dprov in extra) and all(
            rule.may_enter(variant, other, dprov) for rule in variant.plugins
        ):
            out.append(dprov)
    return out


def _alone(board: Board, unit) -> bool:
    """Whether no other fleet stands in this fleet's sea (an ocean may hold several)."""
    return sum(1 for u in board.units if u.province == unit.province and u.kind == "F") == 1


def _extra_reach(board: Board, unit) -> set[str]:
    """Provinces a rule lets a unit reach beyond the map's borders (the railroad, the canal);
    the engine's check still decides whether each order is legal."""
    out: set[str] = set()
    for rule in board.variant.plugins:
        out.update(rule.extra_reach(board, unit))
    return out


def _reachable_provinces(variant: Variant, unit) -> set[str]:
    if unit.kind == "A":
        return set(variant.army_adj.get(unit.location, ()))
    return set(variant.fleet_provinces.get(unit.location, ()))


def _retreats(board: Board, d) -> list[str]:
    from .retreats import retreat_options

    occupied = {u.province for u in board.units}
    here = f"{d.unit.kind} {d.unit.location}"
    places = retreat_options(board.variant, d, occupied, board.contested)
    return [f"{here} R {p}" for p in places] + [f"{here} D"]


def _adjustments(board: Board, power: str) -> list[list[str]]:
    from .adjustments import build_sites, needed

    delta = needed(board)[power]
    if delta > 0:
        occupied = {u.province for u in board.units}
        lists = []
        for site in build_sites(board, power, occupied):
            texts = [f"Build A {site}"] if board.variant.can_stand("A", site) else []
            texts += [f"Build F {loc}" for loc in board.variant.fleet_locations(site)]
            lists.append(texts)
        return [*lists, ["Waive"]]
    if delta < 0:
        return [[f"Remove {u.kind} {u.location}"] for u in board.units if u.power == power]
    return []
