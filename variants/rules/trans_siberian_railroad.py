"""The Trans-Siberian Railroad (Colonial Diplomacy rule 8, version 2.2).

One Russian army a turn may ride the line (``A Moscow - Vladivostok via TSR``). It passes
Russian units freely but never attacks: it is stopped by foreign units that stand on the line
(holding, supporting, or moving along it), by foreign units that get onto the line this turn,
and by a standoff with any unit trying to enter a space it reaches. It then stops on the last
space before the block that is empty at the end of the turn.

Each step of the ride is a decision of the resolver ("does the army pass this space?"), so the
rules above are judged together with every other order and cannot produce a paradox of their
own; a cycle through them is settled like circular movement.
"""

from __future__ import annotations

from adjudication.movement import Movement as _Core
from adjudication.orders import MOVE, Order, OrderError
from adjudication.variant import province_of

RAIL = "tsr"


class Movement(_Core):
    """Adds the railroad move and its decisions to the core resolver."""

    tsr: int | None = None

    # -- the order -------------------------------------------------------------------------

    def check_move(self, i: int, order: Order) -> Order | None:
        if order.via != "TSR":
            return super().check_move(i, order)
        data = self.variant.rule_data["trans_siberian_railroad"]
        route, owner = data["route"], data.get("power", "Russia")
        unit = self.units[i]
        dest = province_of(order.destination)
        if unit.power != owner:
            raise OrderError(f"only {owner} may use the Trans-Siberian Railroad")
        if unit.kind != "A":
            raise OrderError("only armies may use the Trans-Siberian Railroad")
        if unit.province not in route:
            raise OrderError(f"{unit.province} is not on the Trans-Siberian Railroad")
        if dest not in route:
            raise OrderError(f"{dest} is not on the Trans-Siberian Railroad")
        if dest == unit.province:
            raise OrderError(f"{unit.label()} is already in {dest}")
        if self.tsr is not None:
            first = self.units[self.tsr].label()
            raise OrderError(f"only one army may use the railroad a turn ({first} already does)")
        self.tsr = i
        return Order(MOVE, "A", unit.location, destination=dest, via="TSR")

    def target_could_move(self, t: int, dprov: str) -> bool:
        return t == self.tsr or super().target_could_move(t, dprov)

    def is_head_to_head(self, i: int, j: int) -> bool:
        return i != self.tsr and j != self.tsr and super().is_head_to_head(i, j)

    # -- decisions -------------------------------------------------------------------------

    def prepare(self) -> None:
        super().prepare()
        t = self.tsr
        if t is None:
            return
        data = self.variant.rule_data["trans_siberian_railroad"]
        route = data["route"]
        self.rail_owner = data.get("power", "Russia")
        start, end = route.index(self.prov[t]), route.index(self.dest[t])
        step = 1 if end > start else -1
        self.path = [route[k] for k in range(start, end + step, step)]  # origin first
        self.on_route = set(route)
        self.movers_into[self.dest[t]].remove(t)
        self.kind[t] = RAIL
        self.adjudicators[t] = self._leaves_origin
        # passes[m] for 1 <= m < len(path) - 1, and enters for the last space.
        self.passes = {m: self.add_decision(self._pass) for m in range(1, len(self.path) - 1)}
        self.space_of = {d: m for m, d in self.passes.items()}
        self.enters = self.add_decision(self._enter)

    def is_mover(self, j: int) -> bool:
        return j == self.tsr or super().is_mover(j)

    def leaves(self, j: int) -> bool:
        if j == self.tsr:
            return self.resolve(j)
        return super().leaves(j)

    def arrives(self, m: int) -> bool:
        """Whether the army gets as far as path[m] (before any block there)."""
        if m > 1 and not self.resolve(self.passes[m - 1]):
            return False
        return not self.moves_along(self.path[m])

    def foreign(self, j: int) -> bool:
        return self.power[j] != self.rail_owner

    def moves_along(self, space: str) -> bool:
        """A foreign unit leaving ``space`` for another railroad space blocks it."""
        j = self.occupant(space)
        return (
            j is not None
            and self.foreign(j)
            and self.kind[j] == MOVE
            and self.dest[j] in self.on_route
        )

    def stands_on(self, space: str) -> bool:
        """A foreign unit that holds, supports (or was ordered nothing) on ``space``."""
        j = self.occupant(space)
        return j is not None and self.foreign(j) and not self.is_mover(j)

    def rail_prevent(self, m: int) -> int:
        """The army's strength against others entering path[m]: supports count at the end."""
        return 1 + self.support_count(self.tsr) if m == len(self.path) - 1 else 1

    def bounced_by_rail(self, k: int, m: int) -> bool:
        """Whether move k into path[m] fails only because the railroad army arrives there."""
        attack = self.attack_strength(k)
        if attack == 0 or attack > self.rail_prevent(m):
            return False
        j = self.h2h[k]
        if j is not None:
            if attack <= self.defend_strength(j):
                return False
        elif attack <= self.hold_strength(self.dest[k]):
            return False
        return all(attack > self.prevent_strength(r) for r in self.rivals(k))

    def held_by_returning_unit(self, k: int) -> bool:
        """Whether move k fails only because the unit it meets tried to leave and could not."""
        j = self.occupant(self.dest[k])
        if j is None or not self.is_mover(j) or self.leaves(j) or self.h2h[k] == j:
            return False
        attack = self.attack_strength(k)
        return all(attack > self.prevent_strength(r) for r in self.rivals(k))

    def blocker(self, m: int) -> tuple[str, int] | None:
        """What stops the army passing path[m]: (how, unit index), or None."""
        space = self.path[m]
        j = self.occupant(space)
        if self.moves_along(space) or self.stands_on(space):
            return "stands", j
        for k in self.movers_into.get(space, ()):
            if self.resolve(k):
                if self.foreign(k):
                    return "enters", k
            elif self.bounced_by_rail(k, m):
                return "standoff", k
            elif self.foreign(k) and self.held_by_returning_unit(k):
                return "enters", k
        return None

    def _pass(self, d: int) -> bool:
        m = self.space_of[d]
        return self.arrives(m) and self.blocker(m) is None

    def _enter(self, d: int) -> bool:
        last = len(self.path) - 1
        if not self.arrives(last) or self.stands_on(self.path[last]):
            return False
        j = self.occupant(self.path[last])
        if j is not None and not self.leaves(j):
            return False
        strength = self.rail_prevent(last)
        return all(
            strength > self.prevent_strength(k) for k in self.movers_into.get(self.path[last], ())
        )

    def free_at_end(self, space: str) -> bool:
        """Whether the army may stop here: nobody stays, and nobody else fought for the space.

        The army passes a standoff between two other units, but stopping there would be a
        third move into the space, which bounces like theirs.
        """
        j = self.occupant(space)
        if j is not None and not self.leaves(j):
            return False
        return not any(self.prevent_strength(k) for k in self.movers_into.get(space, ()))

    def stop(self) -> int:
        """Index in path where the army ends the turn (0: it never left)."""
        last = len(self.path) - 1
        if self.resolve(self.enters):
            return last
        reached = 0
        while reached + 1 < last and self.resolve(self.passes[reached + 1]):
            reached += 1
        for m in range(reached, 0, -1):
            if self.free_at_end(self.path[m]):
                return m
        return 0

    def _leaves_origin(self, d: int) -> bool:
        return self.stop() > 0

    def adjudicate_move(self, i: int) -> bool:
        if not super().adjudicate_move(i):
            return False
        m = self.path_index(self.dest[i])
        if m is None or not self.arrives(m):
            return True
        return self.attack_strength(i) > self.rail_prevent(m)

    def path_index(self, space: str) -> int | None:
        if self.tsr is None or space not in self.path or space == self.path[0]:
            return None
        return self.path.index(space)

    # -- answers ---------------------------------------------------------------------------

    def moved(self, i: int) -> bool:
        if i == self.tsr:
            return self.result[i]
        return super().moved(i)

    def final_location(self, i: int) -> str:
        if i == self.tsr:
            return self.path[self.stop()]
        return super().final_location(i)

    def outcome(self, i: int) -> tuple[str, str | None]:
        if i != self.tsr:
            return super().outcome(i)
        at = self.stop()
        last = len(self.path) - 1
        if at == last:
            return "succeeds", None
        reason = self.stop_reason()
        if at == 0:
            return "fails", reason
        return "stopped", reason

    def stop_reason(self) -> str:
        last = len(self.path) - 1
        for m in range(1, last + 1):
            space = self.path[m]
            if not self.arrives(m):
                j = self.occupant(space)
                return f"route blocked at {space} by {self.power[j]}'s {self.units[j].label()}"
            if m < last and self.result[self.passes[m]]:
                continue
            found = self.blocker(m) if m < last else None
            if found is None and m == last:
                found = self.blocker(m)
                j = self.occupant(space)
                if found is None and j is not None and not self.leaves(j):
                    found = ("occupied", j)
            if found is None:
                return f"bounced at {space}"
            how, k = found
            unit = f"{self.power[k]}'s {self.units[k].label()}"
            if how == "standoff":
                return f"stood off with {unit} at {space}"
            if how == "occupied":
                return f"{space} is held by {unit}"
            return f"route blocked at {space} by {unit}"
        return "stopped"

    def move_reason(self, i: int) -> str:
        m = self.path_index(self.dest[i]) if self.tsr is not None else None
        if m is not None and self.arrives(m) and self.attack_strength(i) <= self.rail_prevent(m):
            rail = self.units[self.tsr].label()
            return f"bounced with {rail} (railroad) in {self.dest[i]}"
        return super().move_reason(i)

    def contested(self, occupied: set[str]) -> set[str]:
        out = super().contested(occupied)
        if self.tsr is not None:
            for space in self.path[1:]:
                m = self.path.index(space)
                if space in occupied or not self.arrives(m):
                    continue
                if any(self.bounced_by_rail(k, m) for k in self.movers_into.get(space, ())):
                    out.add(space)
        return out

    def annotate(self, response: dict) -> None:
        super().annotate(response)
        if self.tsr is None:
            return
        at = self.stop()
        for item in response["orders"]:
            if item.get("result") == "stopped":
                item["stopped_at"] = self.path[at]
