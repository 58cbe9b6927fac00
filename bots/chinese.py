"""Chinese Diplomacy for the bot: gold, not centres, is the score.

The sums (rules 3 and 4, as ``variants.rules.chinese`` keeps them): an army costs 10 a year, 5
to bring on and 5 to take off, and 50 when annihilated; a centre held at the start of a year
pays 20. So an army standing on a centre earns 10 a year and any other army loses 10. The bot
brings armies on only where centres next to the entry space are open to it (its share of them,
below), takes centres with the fewest armies that win them (an army on a centre supports
without leaving it; an entry space's support cannot be cut), never attacks another great
power's centre, supports its armies in danger and takes idle armies off when they have nothing
to go for or money runs short. It never pays anyone.

Bots sharing an entry space would all go for the same empty centre and bounce year after year,
so the open centres are shared out by a tacit rule that every bot works out alike from what all
players see (the board and the published orders): ``ChinesePlanner._claims``. Only powers seen
to go for centres (after the first years, those holding one) get a share.

Every plan is scored in gold on the engine against what the players know: the year's profit and
loss for the power as the engine draws it up on trial, plus what the armies left standing make
next year. The trial holds the factions' orders that were published (the Imperials' always, the
Kuomintang's when the die says so), and the other great powers' armies holding or, in a few
guesses, going for centres of their share. Nothing unpublished is read, and the trial runs under
a seed of the bot's own so the year-end draws say nothing about the game's.
"""

from __future__ import annotations

import math
import random
import zlib
from dataclasses import dataclass

import adjudication
from adjudication.variant import Variant
from variants.rules.chinese import CENTRE_PROFIT, UPKEEP

from .choices import by_unit

WAITING = 2  # armies kept ready in an entry space
OUTSIDE_SHARE = 0.5  # how often a guessed rival goes for a centre outside its share
GRACE = 3  # years in which every power is counted in the share of the centres
ALLOWED_SHARE = 0.6  # of the powers allowed in an entry space, those counted as rivals there
MAX_ENTRIES = 2  # armies brought on in one year at most
GUESSES = 3  # guesses at the other great powers' orders each plan is tried against
BROKE = -800  # deposition is below -1000: under this, idle armies go and none come on
LAST_ENTRY = 1947  # an army brought on later cannot pay for itself before 1950


@dataclass
class Slot:
    """One of the power's armies (two in one entry space are two slots)."""

    location: str
    options: list[dict]
    on_centre: bool
    entry: bool


class ChinesePlanner:
    """One power's orders for one year of Chinese Diplomacy."""

    def __init__(self, request: dict, power: str, answer: dict, rng: random.Random) -> None:
        self.request = request
        self.power = power
        self.rng = rng
        self.variant: Variant = adjudication.load(request["variant"])
        self.year = request["phase"]["year"]
        known = [o for o in request.get("faction_orders") or [] if o.get("published")]
        # What the power may know, judged under a seed of the bot's own.
        self.trial = {
            **request,
            "faction_orders": [{"power": o["power"], "order": o["order"]} for o in known],
            "random_seed": rng.randrange(1 << 30),
        }
        groups = by_unit(answer["orders"])
        self.enter = groups.get("special:enter", [])
        self.leave = {o["location"]: o["order"] for o in groups.get("special:leave", [])}
        self.slots = [
            Slot(
                u["location"],
                groups.get(u["location"], []),
                self.variant.provinces[u["location"]].supply_center,
                u["location"] in self.variant.stacking,
            )
            for u in request["units"]
            if u["power"] == power
        ]
        self.occupied = {u["location"]: u["power"] for u in request["units"]}
        self.gold = ((request.get("economy") or {}).get("balances") or {}).get(power, 0)
        self.claims = self._claims()
        self._shares_cache: dict[str, float] | None = None
        self.scenarios = [[]] + [self._guess() for _ in range(GUESSES)]

    def _claims(self) -> dict[str, str]:
        """The great powers' tacit share of the centres open to them this year, worked out
        from what every player sees (the armies on the board and the published orders) the
        same way by every bot. First the centres the factions leave empty, each needing one
        army, then those they hold, each needing two (one to move, one to support). Each goes,
        in an order drawn from the year, to the power first in an order drawn from the year
        and the centre among those with the armies next to it that are not yet given a centre.
        Going only for one's own share keeps bots from bouncing off each other year after
        year."""
        free: dict[tuple[str, str], int] = {}
        orderly = self._orderly()
        for u in self.request["units"]:
            where = u["location"]
            if u["power"] in orderly:
                free[u["power"], where] = free.get((u["power"], where), 0) + 1
        claims: dict[str, str] = {}
        open_centres = [
            c
            for c in self.variant.centres
            if self.occupied.get(c) not in self.variant.playable_powers
        ]
        vacated = self._vacated()
        drawn = sorted(open_centres, key=lambda c: zlib.crc32(f"{self.year}:{c}".encode()))
        for need, centres in ((1, [c for c in drawn if c in vacated]), (2, drawn)):
            for c in centres:
                if c in claims:
                    continue
                near: dict[str, list[tuple[str, str]]] = {}
                for key, n in free.items():
                    if n and c in self.variant.army_adj[key[1]]:
                        near.setdefault(key[0], []).extend([key] * n)
                near = {p: keys for p, keys in near.items() if len(keys) >= need}
                if not near:
                    continue
                first = min(near, key=lambda p: zlib.crc32(f"{self.year}:{c}:{p}".encode()))
                # the armies off the centres go first (those on centres stay where they earn)
                for key in sorted(near[first], key=lambda k: (self._centre(k[1]), k[1]))[:need]:
                    free[key] -= 1
                claims[c] = first
        return claims

    def _vacated(self) -> set[str]:
        """Centres the factions' published orders leave empty when no great power moves."""
        response = adjudication.adjudicate({**self.trial, "orders": []})
        held = {u["location"] for u in self.request["units"] if self._centre(u["location"])}
        for reply in response.get("orders", []):
            data = reply.get("data") or {}
            if data.get("kind") == "move" and reply["result"] == "succeeds":
                held.discard(data["location"])
        for reply in response.get("orders", []):
            data = reply.get("data") or {}
            if data.get("kind") == "move" and reply["result"] == "succeeds":
                held.add(data["destination"])
        return {c for c in self.variant.centres if c not in held}

    def _orderly(self) -> set[str]:
        """The great powers seen to play for the centres, who take part in the share: in the
        first ``GRACE`` years every power, later those holding a centre (a power that holds
        none by then is not going for them in earnest), and always the power itself."""
        powers = set(self.variant.playable_powers)
        if self.year < self.variant.start_year + GRACE:
            return powers
        holding = {u["power"] for u in self.request["units"] if self._centre(u["location"])}
        return (powers & holding) | {self.power}

    def _guess(self) -> list[dict]:
        """One guess at the other great powers' orders, which nobody publishes: an army off
        a centre goes, more often than not, for a centre of its power's share next to it, or
        now and then for any centre next to it; one on a centre holds."""
        out = []
        claimed: set[str] = set()
        for u in self.request["units"]:
            where = u["location"]
            if u["power"] == self.power or u["power"] not in self.variant.playable_powers:
                continue
            if self.variant.provinces[where].supply_center or self.rng.random() < 0.4:
                continue
            centres = sorted(
                c
                for c in self.variant.army_adj[where]
                if self.claims.get(c) == u["power"] and c not in claimed
            )
            if not centres and self.rng.random() < OUTSIDE_SHARE:
                centres = sorted(
                    c
                    for c in self.variant.army_adj[where]
                    if self._centre(c) and self.occupied.get(c) != u["power"]
                )
            if centres:
                goal = self.rng.choice(centres)
                claimed.add(goal)
                out.append({"power": u["power"], "order": f"A {where} - {goal}"})
        return out

    # -- trying a plan on the engine --------------------------------------------------------

    def judge(self, plan: list[str], others: tuple[dict, ...] | list[dict] = ()) -> list[str]:
        """Where each army ends on trial: a province, ``!`` when dislodged with somewhere to
        retreat, ``!!`` when dislodged with nowhere to go (annihilated)."""
        orders = [{"power": self.power, "order": text} for text in plan] + list(others)
        response = adjudication.adjudicate({**self.trial, "orders": orders})
        if "error" in response:
            raise ValueError(response["error"])
        lost = {
            d["location"]: "!" if d.get("retreats") else "!!"
            for d in response.get("dislodged", [])
            if d["power"] == self.power
        }
        ends: list[str] = []
        for slot, reply in zip(self.slots, response["orders"][: len(plan)], strict=True):
            data = reply.get("data") or {}
            if reply["result"] == "invalid":
                raise ValueError(f"the bot's own order is refused: {reply}")
            if slot.location in lost and not slot.entry:
                ends.append(lost[slot.location])
            elif data.get("kind") == "move" and reply["result"] == "succeeds":
                ends.append(data["destination"])
            else:
                ends.append(slot.location)
        return ends

    def score(self, plan: list[str]) -> float:
        """The gold the plan is worth, on average over the guesses at the others' orders: the
        year's profit and loss for the power as the engine's Chinese rules draw it up on trial
        (upkeep, annihilations, ...), and what the armies left standing make next year (the
        profit of the centres they hold less their upkeep, by the same rules)."""
        total = 0.0
        for others in self.scenarios:
            orders = [{"power": self.power, "order": text} for text in plan] + list(others)
            response = adjudication.adjudicate({**self.trial, "orders": orders})
            if "error" in response:
                raise ValueError(response["error"])
            ledger = (response.get("economy") or {}).get("ledger", [])
            # Not the deposition's line: it puts a bankrupt power back at zero for a new
            # leader, and counted as gold it made ruin look like a profit of the whole debt.
            total += sum(
                line["amount"]
                for line in ledger
                if line["power"] == self.power and line["item"] != "deposed"
            )
            for u in response["units"]:
                if u["power"] == self.power:
                    total -= UPKEEP
                    if self._centre(u["location"]):
                        total += CENTRE_PROFIT
        return total / len(self.scenarios)

    def _dislodged(self, plan: list[str]) -> list[int]:
        return [i for i, end in enumerate(self.judge(plan)) if end in ("!", "!!")]

    def _exposed(self) -> list[int]:
        """Armies on centres next to foreign armies (whose orders may not be known)."""
        near = self.variant.army_adj
        foreign = [
            loc
            for loc, owner in self.occupied.items()
            if owner != self.power and owner in self.variant.powers
        ]
        out = [
            i
            for i, s in enumerate(self.slots)
            if s.on_centre and any(loc in near[s.location] for loc in foreign)
        ]
        self.rng.shuffle(out)
        return out

    # -- the year ---------------------------------------------------------------------------

    def orders(self) -> list[str]:
        """The year's orders: defend what the published orders threaten, take centres, move
        inland armies on, then armies off and on the board."""
        plan = [f"A {s.location} H" for s in self.slots]
        best = self.score(plan)
        busy: set[int] = set()  # slots given a part in an attack or a defence
        best = self._defences(plan, best, busy, self._dislodged(plan))
        best = self._attacks(plan, best, busy)
        best = self._hopeful(plan, best, busy)
        leaving = self._leaving(plan, busy)
        best = self._defences(plan, best, busy | leaving, self._exposed())
        out = [text for i, text in enumerate(plan) if i not in leaving]
        out += [self.leave[self.slots[i].location] for i in sorted(leaving)]
        out += self._entries(plan, leaving)
        return out

    def _move(self, slot: Slot, target: str) -> str | None:
        moves = (o for o in slot.options if o["kind"] == "move" and o["destination"] == target)
        return next((o["order"] for o in moves), None)

    def _support(self, slot: Slot, mover: str, target: str | None) -> str | None:
        for o in slot.options:
            if (
                o["kind"] == "support"
                and o["target"] == mover
                and o.get("destination") == target
                and not o.get("needs")
            ):
                return o["order"]
        return None

    def _attacks(self, plan: list[str], best: float, busy: set[int]) -> float:
        """Take centres: for each centre in reach, the fewest armies that win it on trial.

        An army already on a centre supports rather than moves (its support keeps it there),
        unless another army steps into the centre it leaves."""
        targets = {
            o["destination"]
            for s in self.slots
            for o in s.options
            if o["kind"] == "move" and self.variant.provinces[o["destination"]].supply_center
        }
        # The power's share first (see ``_claims``), then centres nobody else can reach, then
        # the factions' before the great powers'; another power's share is left to it.
        order = sorted(
            targets,
            key=lambda t: (
                self.claims.get(t, self.power) != self.power,
                self._rivals(t),
                self.occupied.get(t) in self.variant.playable_powers,
                zlib.crc32(f"{self.power}:{t}".encode()),
            ),
        )
        for target in order:
            if self.occupied.get(target) in self.variant.playable_powers:
                continue
            if self.claims.get(target, self.power) != self.power:
                continue
            best = self._attack(plan, best, busy, target)
        return best

    def _rivals(self, province: str) -> float:
        """How many of the other great powers' armies off centres may go for a province: each
        next to it counts as one over the centres it could go for (their orders are never
        known)."""
        total = 0.0
        for u in self.request["units"]:
            where = u["location"]
            if (
                u["power"] == self.power
                or u["power"] not in self.variant.playable_powers
                or self.variant.provinces[where].supply_center
                or province not in self.variant.army_adj[where]
            ):
                continue
            total += 1 / sum(1 for c in self.variant.army_adj[where] if self._centre(c))
        return total

    def _attack(self, plan: list[str], best: float, busy: set[int], target: str) -> float:
        movers = [
            i
            for i, s in enumerate(self.slots)
            if i not in busy and self._move(s, target) is not None
        ]
        movers.sort(key=lambda i: self.slots[i].on_centre)
        for i in movers:
            slot = self.slots[i]
            helpers = [
                j
                for j, s in enumerate(self.slots)
                if j != i and j not in busy and self._support(s, slot.location, target)
            ]
            helpers.sort(key=lambda j: not self.slots[j].on_centre)  # those staying put first
            followers = [None]
            if slot.on_centre:
                followers = [
                    j
                    for j, s in enumerate(self.slots)
                    if j != i and j not in busy and j not in helpers
                    and not s.on_centre and self._move(s, slot.location)
                ]  # fmt: skip
            for follower in followers:
                for k in range(min(2, len(helpers)) + 1):
                    trial = plan[:]
                    trial[i] = self._move(slot, target)
                    for j in helpers[:k]:
                        trial[j] = self._support(self.slots[j], slot.location, target)
                    if follower is not None:
                        trial[follower] = self._move(self.slots[follower], slot.location)
                    got = self.score(trial)
                    if got > best:
                        plan[:] = trial
                        busy.update([i, *helpers[:k]])
                        if follower is not None:
                            busy.add(follower)
                        return got
        return best

    def _defences(self, plan: list[str], best: float, busy: set[int], at_risk: list[int]) -> float:
        """Armies on centres in danger get a hold support from an idle army (an entry space's
        support cannot be cut), when the trial says it does no harm."""
        for i in at_risk:
            if i in busy:
                continue
            for j, helper in enumerate(self.slots):
                if j == i or j in busy:
                    continue
                text = self._support(helper, self.slots[i].location, None)
                if text is None:
                    continue
                trial = plan[:]
                trial[j] = text
                got = self.score(trial)
                if got >= best:  # no worse on trial, safer against what is not published
                    plan[:] = trial
                    busy.update([i, j])
                    best = got
                    break
        return best

    def _hopeful(self, plan: list[str], best: float, busy: set[int]) -> float:
        """An idle army inland and off the centres steps towards the nearest centre not yet
        the power's."""
        for i, slot in enumerate(self.slots):
            if i in busy or slot.on_centre or slot.entry:
                continue  # an army in an entry space waits for next year's published orders
            moves = [o for o in slot.options if o["kind"] == "move"]
            ranked = sorted(moves, key=lambda o: self._pull(o["destination"]), reverse=True)
            for o in ranked[:3]:
                if self._pull(o["destination"]) <= self._pull(slot.location):
                    break
                trial = plan[:]
                trial[i] = o["order"]
                got = self.score(trial)
                if got >= best:
                    plan[:] = trial
                    busy.add(i)
                    best = got
                    break
        return best

    def _pull(self, province: str) -> float:
        """How close a province is to centres the power does not hold (entry spaces: none)."""
        if province in self.variant.stacking:
            return 0.0
        mine = {s.location for s in self.slots}
        best = 0.0
        for centre, steps in _distances(self.variant)[province].items():
            if centre not in mine and self.variant.provinces[centre].supply_center:
                best = max(best, 0.5**steps)
        return best

    def _leaving(self, plan: list[str], busy: set[int]) -> set[int]:
        """Idle armies in entry spaces beyond those wanted there (``_wanted``), or all of
        them when money runs short or the game is near its end."""
        out: set[int] = set()
        kept: dict[str, int] = {}
        late = self.year >= LAST_ENTRY
        wanted = self._kept(plan)
        for i, slot in enumerate(self.slots):
            if i in busy or not slot.entry or slot.location not in self.leave:
                continue
            kept[slot.location] = kept.get(slot.location, 0) + 1
            if late or self.gold < BROKE or kept[slot.location] > wanted.get(slot.location, 0):
                out.add(i)
        return out

    def _entries(self, plan: list[str], leaving: set[int]) -> list[str]:
        """Armies brought on up to the number wanted in each entry space, counting those that
        stay there this year."""
        if self.year >= LAST_ENTRY or self.gold < BROKE / 2:
            return []
        ends = self.judge(plan)
        wanted = self._wanted(plan)
        out = []
        for item in self.enter:
            space = item["location"]
            staying = sum(
                1
                for i, s in enumerate(self.slots)
                if s.location == space and i not in leaving and ends[i] == space
            )
            out += [item["order"]] * max(0, wanted.get(space, 0) - staying)
        return out[:MAX_ENTRIES]

    def _shares(self, plan: list[str]) -> dict[str, float]:
        """The power's share of the centres next to each entry space it may use that no great
        power will hold after this year's moves (on trial): shared with the other powers'
        armies waiting there, or, where few wait, with a part of the powers allowed there
        (they may bring armies on too)."""
        if self._shares_cache is not None:
            return self._shares_cache
        orders = [{"power": self.power, "order": text} for text in plan]
        response = adjudication.adjudicate({**self.trial, "orders": orders})
        held = {
            u["location"]
            for u in response.get("units", [])
            if u["power"] in self.variant.playable_powers
        }
        out = {}
        for item in self.enter:
            space = item["location"]
            free = [c for c in self.variant.army_adj[space] if self._centre(c) and c not in held]
            others = {
                u["power"]
                for u in self.request["units"]
                if u["location"] == space and u["power"] != self.power
            }
            allowed = len(self.variant.rule_data["chinese"]["entry"][space])
            out[space] = len(free) / max(1 + len(others), ALLOWED_SHARE * allowed)
        self._shares_cache = out
        return out

    def _kept(self, plan: list[str]) -> dict[str, int]:
        """Armies worth keeping in each entry space: the share rounded up, at most
        ``WAITING``."""
        return {s: min(WAITING, math.ceil(x)) for s, x in self._shares(plan).items()}

    def _wanted(self, plan: list[str]) -> dict[str, int]:
        """Armies worth bringing on to wait in each entry space: the share, rounded up or
        down at random by a draw from the year, the space and the power (so that the powers
        sharing a space bring on about as many as there are centres), at most ``WAITING``."""
        out = {}
        for space, share in self._shares(plan).items():
            draw = zlib.crc32(f"{self.year}:{space}:{self.power}".encode()) / 2**32
            out[space] = min(WAITING, math.floor(share + draw))
        return out

    def _centre(self, end: str) -> bool:
        """Whether a trial's end (or any province) is a centre."""
        return end not in ("!", "!!") and self.variant.provinces[end].supply_center


def _distances(variant: Variant) -> dict[str, dict[str, int]]:
    from .heuristic import distances

    return distances(variant)
