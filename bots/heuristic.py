"""A heuristic bot in the spirit of the classic ones: centres pull, threats push, allies of one
power support each other.

Every province gets a value: a supply centre it does not own is worth taking, an owned centre
with enemies next to it is worth defending, and the value spreads to the provinces around it,
halving at each step, so units drift towards what they can win. Each unit then takes the best
of its legal orders (the engine's ``options``) that no other unit of the power has claimed, and
units with nothing better to do support the power's attacks and threatened holds. Retreats go
to the most valuable space, builds to the home centres nearest to what is worth taking, and
removals take the least useful units. The rules come only from the engine's options, so the
railroad (a ride is a move), the canal (a passage listed as needing a permit is used only when
the bot gives the permit itself) and oceans need no code of their own. Chinese Diplomacy, where
gold is the score, has a planner of its own (``bots.chinese``).
"""

from __future__ import annotations

import random
from collections import deque
from functools import cache

import adjudication
from adjudication.variant import Variant

from .chinese import ChinesePlanner
from .choices import by_unit, fill_adjustments, legal_options, place, slots, units_at

TAKE, DEFEND, SPREAD = 10.0, 8.0, 0.5


@cache
def distances(variant: Variant) -> dict[str, dict[str, int]]:
    """Steps between provinces for any unit (armies' and fleets' borders alike)."""
    near: dict[str, set[str]] = {name: set() for name in variant.provinces}
    for loc, others in variant.army_adj.items():
        near[loc].update(others)
    for prov, others in variant.fleet_reach.items():
        near[prov].update(others)
    out = {}
    for start in variant.provinces:
        seen = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for nxt in near[here]:
                if nxt not in seen:
                    seen[nxt] = seen[here] + 1
                    queue.append(nxt)
        out[start] = seen
    return out


class HeuristicBot:
    """Decides one power's orders for a phase; seeded, so a game with bots replays."""

    name = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    # -- the phase ----------------------------------------------------------------------------

    def decide(self, request: dict, power: str) -> list[str]:
        answer = legal_options(request, power)
        variant = adjudication.load(request["variant"])
        if "chinese" in variant.rules:
            return ChinesePlanner(request, power, answer, self.rng).orders()
        values = self.values(variant, request, power)
        kind = answer["phase"]["type"]
        if kind == "retreats":
            dislodged = units_at(request.get("dislodged") or [], power)
            return self._retreats(answer["orders"], values, dislodged)
        if kind == "adjustments":
            return self._adjustments(variant, answer, values, request, power)
        return self._movement(variant, answer["orders"], values, request, power)

    def values(self, variant: Variant, request: dict, power: str) -> dict[str, float]:
        """Each province's worth to the power: centres to take or defend, spread by distance."""
        owners = {
            centre: owner
            for owner, centres in (request.get("supply_centers") or {}).items()
            for centre in centres
        }
        enemy_near = self._enemy_pressure(variant, request, power)
        self.threatened = {c for c, owner in owners.items() if owner == power and c in enemy_near}
        base: dict[str, float] = {}
        for centre in variant.centres:
            if owners.get(centre) == power:
                threat = enemy_near.get(centre, 0)
                base[centre] = DEFEND * threat if threat else 1.0
            elif variant.is_centre_for(centre, power):
                base[centre] = TAKE if centre in owners else TAKE * 1.2
        dist = distances(variant)
        values = {}
        for province in variant.provinces:
            steps = dist[province]
            values[province] = max(
                (worth * SPREAD ** steps.get(c, 99) for c, worth in base.items()), default=0.0
            )
        return values

    @staticmethod
    def _enemy_pressure(variant: Variant, request: dict, power: str) -> dict[str, int]:
        dist = distances(variant)
        pressure: dict[str, int] = {}
        for u in request.get("units", []):
            if u["power"] == power:
                continue
            here = u["location"].split("/")[0]
            for province, steps in dist[here].items():
                if steps == 1:
                    pressure[province] = pressure.get(province, 0) + 1
        return pressure

    # -- movement -----------------------------------------------------------------------------

    def _movement(self, variant, orders, values, request, power) -> list[str]:
        groups = by_unit(orders)
        specials = {k: v for k, v in groups.items() if k.startswith("special:")}
        # One order a unit: the engine lists the orders of alike units in one space (a power's
        # fleets in a Far East ocean) once, so each of them gets a slot of its own there
        # ("Mid-Pacific Ocean", "Mid-Pacific Ocean#2"), each with the whole list.
        units = slots(
            {k: v for k, v in groups.items() if not k.startswith("special:")},
            units_at(request["units"], power),
        )
        mine = {u["location"].split("/")[0] for u in request["units"] if u["power"] == power}
        enemies = {u["location"].split("/")[0] for u in request["units"] if u["power"] != power}
        stacking = variant.stacking
        permit = self._permit(specials, units, values)
        claimed: dict[str, str] = {}
        chosen: dict[str, dict] = {}
        routes: set[str] = set()
        ranked = []
        for unit, items in units.items():
            for item in items:
                score = self._score(item, unit, values, enemies, permit)
                if score is not None:
                    ranked.append((score * (1 + 0.15 * self.rng.random()), unit, item))
        ranked.sort(key=lambda r: r[0], reverse=True)
        for _score, unit, item in ranked:
            if unit in chosen:
                continue
            target = self._target(item, unit)
            if target in claimed and target not in stacking:
                continue
            if item["kind"] == "move" and target in mine and target not in stacking:
                continue  # never walk into a unit of our own that may stay
            route = item.get("via")
            if route not in (None, "convoy"):
                if route in routes:
                    continue  # a rule's route (the railroad) carries one unit a turn
                routes.add(route)
            chosen[unit] = item
            claimed[target] = unit
        self._add_supports(units, chosen, values, enemies, power)
        out = [item["order"] for item in chosen.values()]
        out += self._specials(specials, units, permit)
        return out

    @staticmethod
    def _target(item: dict, unit: str) -> str:
        if item["kind"] == "move":
            return item["destination"].split("/")[0]
        return place(unit)

    @staticmethod
    def _score(item, unit, values, enemies, permit) -> float | None:
        kind = item["kind"]
        if kind == "hold":
            return values.get(place(unit), 0.0) * 0.6 + 0.01
        if kind != "move":
            return None  # supports are given in a second pass; convoys are left to players
        if item.get("needs") and item["order"] != permit:
            return None  # hangs on another power's order the bot cannot count on
        dest = item["destination"].split("/")[0]
        worth = values.get(dest, 0.0)
        if dest in enemies:
            worth *= 0.7  # an attack needs support to succeed
        return worth

    def _add_supports(self, units, chosen, values, enemies, power) -> None:
        """Concentrate force: an attack on an enemy-held province alone is likely to bounce, so
        the power's most valuable attacks get supports, first from units whose own order is
        weak or is such a lone attack, then threatened holds get support from idle units."""
        attacks = sorted(
            (
                (values.get(self._target(item, unit), 0.0), unit)
                for unit, item in chosen.items()
                if item["kind"] == "move" and self._target(item, unit) in enemies
            ),
            reverse=True,
        )
        helping: set[str] = set()
        for worth, attacker in attacks:
            if attacker in helping:
                continue
            goal = self._target(chosen[attacker], attacker)
            for unit, items in units.items():
                if unit == attacker or unit in helping:
                    continue
                plan = chosen.get(unit)
                plan_worth = values.get(self._target(plan, unit), 0.0) if plan else 0.0
                lone_attack = (
                    plan is not None
                    and plan["kind"] == "move"
                    and (self._target(plan, unit) in enemies)
                )
                if not lone_attack and plan_worth * 1.2 >= worth:
                    continue
                support = next(
                    (
                        o
                        for o in items
                        if o["kind"] == "support"
                        and o["target"].split("/")[0] == place(attacker)
                        and o.get("target_power", power) == power  # not another's in an ocean
                        and (o.get("destination") or "").split("/")[0] == goal
                    ),
                    None,
                )
                if support is not None:
                    chosen[unit] = support
                    helping.update((unit, attacker))
                    break
        for unit, items in units.items():
            if unit in helping:
                continue
            plan = chosen.get(unit)
            own_worth = values.get(self._target(plan, unit), 0.0) if plan else 0.0
            best = None
            for item in items:
                if item["kind"] != "support" or item.get("destination") is not None:
                    continue
                helped = item["target"].split("/")[0]
                other = chosen.get(helped) if helped != place(unit) else None
                if other is None or other["kind"] != "hold" or helped not in self.threatened:
                    continue
                worth = values.get(helped, 0.0)
                if worth > own_worth * 1.2 and (best is None or worth > best[0]):
                    best = (worth, item)
            if best is not None:
                chosen[unit] = best[1]

    @staticmethod
    def _permit(specials, units, values) -> str | None:
        """The canal passage the bot lets its own fleet make, when it holds the gate."""
        permits = specials.get("special:permit", [])
        by_sea = {p["location"]: p for p in permits}
        for items in units.values():
            for item in items:
                if item.get("needs") and item["kind"] == "move" and item["location"] in by_sea:
                    return item["order"]
        return None

    @staticmethod
    def _specials(specials, units, permit) -> list[str]:
        """The canal permit for the bot's own passage (Chinese entries are ``ChinesePlanner``'s)."""
        if permit is None:
            return []
        sea = next(o["location"] for u in units.values() for o in u if o["order"] == permit)
        permits = [p for p in specials.get("special:permit", []) if p["location"] == sea]
        return [p["order"] for p in permits[:1]]

    # -- retreats and adjustments -------------------------------------------------------------

    @staticmethod
    def _retreats(orders, values, dislodged) -> list[str]:
        out = []
        for _unit, items in slots(by_unit(orders), dislodged).items():
            best = max(
                items,
                key=lambda o: (
                    values.get(o["destination"].split("/")[0], 0.0)
                    if o["kind"] == "retreat"
                    else -1.0
                ),
            )
            out.append(best["order"])
        return out

    def _adjustments(self, variant, answer, values, request, power) -> list[str]:
        count = answer["adjustment"]
        if count == 0:
            return []
        fleets = sum(1 for u in request["units"] if u["power"] == power and u["unit"] == "F")
        armies = sum(1 for u in request["units"] if u["power"] == power and u["unit"] == "A")

        def pick(items: list[dict]) -> dict:
            kinds = {o["unit"]: o for o in items}
            if "F" in kinds and ("A" not in kinds or fleets * 2 < armies):
                return kinds["F"]
            return kinds.get("A") or items[0]

        return fill_adjustments(
            answer["orders"],
            count,
            pick,
            lambda site: values.get(site, 0.0),
            units_at(request["units"], power),
        )
