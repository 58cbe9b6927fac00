"""The request of the phase that follows a judged one: what a server, a replay or a bot arena
feeds the engine next, so that none of them has to know which state a variant carries."""

from __future__ import annotations

from .variant import load


def next_request(request: dict, response: dict) -> dict | None:
    """The next phase's request (without orders), or None when the game is over."""
    over = response.get("winner") or response.get("game_over")
    if "error" in response or over or not response.get("next_phase"):
        return None
    following = {
        "variant": request["variant"],
        "phase": response["next_phase"],
        "units": response["units"],
        "supply_centers": response["supply_centers"],
        "options": request.get("options", {}),
    }
    if response["next_phase"]["type"] == "retreats":
        following["dislodged"] = response["dislodged"]
        following["contested"] = response["contested"]
    following.update(carried(request, response))
    return following


def carried(request: dict, response: dict) -> dict:
    """The state of the variant's rules (gold, the factions' orders) that the next phase's
    request carries from this phase; empty for variants without such state."""
    out: dict = {}
    for rule in load(request["variant"]).plugins:
        out.update(rule.carry(request, response))
    return out
