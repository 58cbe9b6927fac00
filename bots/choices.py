"""Helpers shared by every player: grouping the engine's options by unit, picking builds."""

from __future__ import annotations

from collections.abc import Callable

import adjudication

SPECIAL = "special"  # the data ``kind`` of a rule's own orders, as the contract names it


def legal_options(request: dict, power: str) -> dict:
    """The engine's options for the power (``adjudication.options``); a bad request raises."""
    answer = adjudication.options(request, power)
    if "error" in answer:
        raise ValueError(answer["error"])
    return answer


def by_unit(orders: list[dict]) -> dict[str, list[dict]]:
    """Options grouped by the unit they are for. A plug-in's own orders (a canal permit, a
    Chinese entry) are grouped by their form as the engine names it (``special:permit``,
    ``special:enter``, ``special:leave``): a player gives at most one of a group, or none."""
    groups: dict[str, list[dict]] = {}
    for item in orders:
        if item["kind"] == SPECIAL:
            groups.setdefault(f"special:{item.get('form', item.get('rule'))}", []).append(item)
        else:
            groups.setdefault(item.get("location", "").split("/")[0], []).append(item)
    return groups


def units_at(units: list[dict], power: str) -> dict[str, int]:
    """How many units the power has in each province (several share an ocean or an entry
    space), from a request's ``units`` or ``dislodged``."""
    count: dict[str, int] = {}
    for u in units:
        if u["power"] == power:
            province = u["location"].split("/")[0]
            count[province] = count.get(province, 0) + 1
    return count


def slots(groups: dict[str, list[dict]], count: dict[str, int]) -> dict[str, list[dict]]:
    """``by_unit``'s groups with one entry a unit: the engine lists the orders of alike units
    (a power's fleets in one ocean) once, so the second unit of a province gets the same list
    under ``"<province>#2"``, and so on; ``place`` reads the province back."""
    out: dict[str, list[dict]] = {}
    for key, items in groups.items():
        out[key] = items
        for n in range(2, count.get(key, 1) + 1):
            out[f"{key}#{n}"] = items
    return out


def place(slot: str) -> str:
    """The province of a ``slots`` key."""
    return slot.split("#", 1)[0]


def fill_adjustments(
    orders: list[dict],
    count: int,
    pick: Callable[[list[dict]], dict],
    rank: Callable[[str], float],
    units: dict[str, int] | None = None,
) -> list[str]:
    """``count`` builds (or ``-count`` removals), one a site or unit, the best ``rank`` first
    (lowest first for removals), each site's order chosen by ``pick``; fewer builds when sites
    run out. ``units`` (``units_at``) counts the units of a province, each of which may be
    removed: two fleets in one ocean are two removals there, not one."""
    wanted = "build" if count > 0 else "remove"
    sites = by_unit([o for o in orders if o["kind"] == wanted])
    if wanted == "remove" and units:
        sites = slots(sites, units)
    keys = sorted(sites, key=lambda k: rank(place(k)), reverse=count > 0)
    return [pick(sites[k])["order"] for k in keys[: abs(count)]]
