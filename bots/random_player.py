"""The arena's yardstick: a legal order for every unit, chosen at random."""

from __future__ import annotations

import random

import adjudication

from .choices import by_unit, fill_adjustments


class RandomPlayer:
    """Picks uniformly among each unit's legal orders (and random builds or removals)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def decide(self, request: dict, power: str) -> list[str]:
        answer = adjudication.options(request, power)
        if "error" in answer:
            raise ValueError(answer["error"])
        if answer["phase"]["type"] == "adjustments":
            rank = {}  # a random order of sites, fixed for this phase
            return fill_adjustments(
                answer["orders"],
                answer["adjustment"],
                self.rng.choice,
                lambda site: rank.setdefault(site, self.rng.random()),
            )
        chosen = []
        for group, items in by_unit(answer["orders"]).items():
            if group.startswith("special:"):
                items = [*items, None]  # a rule's own order is optional
            pick = self.rng.choice(items)
            if pick is not None:
                chosen.append(pick["order"])
        return chosen
