"""The request of the phase that follows a judged one: what a server, a replay or a bot arena
feeds the engine next, so that none of them has to know which state a variant carries."""

from __future__ import annotations

from .variant import load


def next_request(request: dict, response: dict) -> dict | None:
    """The next phase's request (without orders), or None when the game is over."""
    over = response.get("winner") or response.get("game_over")
    if "error" in response or over or not response.get("next_phase"):
        return None
    variant = load(request["variant"])
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
    for plugin in variant.plugins:
        carry = getattr(plugin, "carry", None)
        if carry is not None:
            following.update(carry(request, response))
    return following
