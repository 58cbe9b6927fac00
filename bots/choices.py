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


def fill_adjustments(
    orders: list[dict], count: int, pick: Callable[[list[dict]], dict], rank: Callable[[str], float]
) -> list[str]:
    """``count`` builds (or ``-count`` removals), one a site or unit, the best ``rank`` first
    (lowest first for removals), each site's order chosen by ``pick``; fewer builds when sites
    run out."""
    wanted = "build" if count > 0 else "remove"
    sites = by_unit([o for o in orders if o["kind"] == wanted])
    keys = sorted(sites, key=rank, reverse=count > 0)
    return [pick(sites[k])["order"] for k in keys[: abs(count)]]
