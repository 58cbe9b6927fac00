"""The arena's yardstick: a legal order for every unit, chosen at random."""

from __future__ import annotations

import random

from .choices import by_unit, fill_adjustments, legal_options, units_at


class RandomPlayer:
    """Picks uniformly among each unit's legal orders (and random builds or removals)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def decide(self, request: dict, power: str) -> list[str]:
        answer = legal_options(request, power)
        if answer["phase"]["type"] == "adjustments":
            rank = {}  # a random order of sites, fixed for this phase
            return fill_adjustments(
                answer["orders"],
                answer["adjustment"],
                self.rng.choice,
                lambda site: rank.setdefault(site, self.rng.random()),
                units_at(request["units"], power),
            )
        # One order a unit; several units may share a place (an ocean, an entry space).
        count: dict[str, int] = {}
        for u in request["units"]:
            if u["power"] == power:
                place = u["location"].split("/")[0]
                count[place] = count.get(place, 0) + 1
        groups = by_unit(answer["orders"])
        chosen: list[str] = []
        used: set[str] = set()
        for group in sorted(groups, key=lambda g: not g.startswith("special:")):
            items = groups[group]
            if group.startswith("special:"):
                pick = self.rng.choice([*items, None])  # a rule's own order is optional
                if pick is not None:
                    chosen.append(pick["order"])
                    if pick.get("form") == "leave":  # the army leaving has its order
                        count[pick["location"]] -= 1
                continue
            for _ in range(count.get(group, 1)):
                free = [
                    o for o in items if o.get("via") in (None, "convoy") or o["via"] not in used
                ]
                pick = self.rng.choice(free)
                if pick.get("via") not in (None, "convoy"):
                    used.add(pick["via"])  # a rule's route (the railroad) carries one a turn
                chosen.append(pick["order"])
        return chosen
