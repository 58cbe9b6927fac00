"""The Trans-Siberian Railroad (Colonial Diplomacy rule 8, version 2.2).

One Russian army a turn may ride the line (``A Moscow - Vladivostok via TSR``). It never
attacks. It passes Russian units: it never bounces, and is never bounced by, a Russian unit
holding on the line, moving along it either way or moving onto it. It is stopped by foreign
units that stand on the line (holding, supporting, or moving along it), by foreign units that
get onto the line this turn, and by a standoff with a foreign unit trying to enter a space it
reaches. It then stops on the last space before the block that is empty at the end of the
turn: a space a Russian unit stays in or moves into is not empty, one it leaves is.

Each step of the ride is a decision of the resolver ("does the army pass this space?"), so the
rules above are judged together with every other order and cannot produce a paradox of their
own; a cycle through them is settled like circular movement.
"""

from __future__ import annotations

from adjudication.board import Unit
from adjudication.movement import RESOLVED, UNRESOLVED
from adjudication.movement import Movement as _Core
from adjudication.orders import MOVE, SUPPORT, Order, OrderError
from adjudication.reasons import reason_template, why
from adjudication.registry import Rule
from adjudication.variant import province_of

from .words import gettext_noop

RAIL = "tsr"
ROUTES = ("TSR",)  # the word after "via" (a support may repeat it)
CUT_OPTION = "tsr_captured_centres_cut"
OPTIONS = {
    CUT_OPTION: {
        "type": "boolean",
        "description": "Errata 9.241 (default true): a supply centre on the railroad owned by "
        "another power cuts the line there, even when empty; the railroad army may ride to "
        "it but not past it until Russia owns it again.",
    }
}


STOP_REASONS = {
    "standoff": reason_template("stood off with {power}'s {unit} at {space}"),
    "occupied": reason_template("{space} is held by {power}'s {unit}"),
    "taken": reason_template("{space} is taken by {power}'s {unit}"),
}
# A line cut short (errata 9.241) whose end a Russian unit holds: both say why it stopped where
# it did; the second alone blamed a unit of Russia's own, which never blocks the line.
CUT_AND_HELD = reason_template(
    "the line is cut at {cut}, a centre {owner} owns (errata 9.241), and {space} is held by "
    "{power}'s {unit}"
)


def one_a_turn(order: Order) -> str | None:
    """A railroad move: one a turn (seed 000: "Only one unit may use the TSR per turn")."""
    if order.kind == MOVE and order.via == "TSR":
        return why("only one army may ride the Trans-Siberian Railroad a turn")
    return None


class Movement(_Core):
    """Adds the railroad move and its decisions to the core resolver."""

    tsr: int | None = None
    cut: int | None = None
    # Whether a cycle settled by the backup rule held a railroad decision, and whether such a
    # cycle now keeps the army where it is (see ``run``).
    rail_cycle = False
    rail_stays_in_cycle = False

    # -- the order -------------------------------------------------------------------------

    def check_move(self, i: int, order: Order) -> Order | None:
        if order.via != "TSR":
            try:
                return super().check_move(i, order)
            except OrderError as e:
                raise self.by_rail_instead(i, order, e) from None
        unit = self.units[i]
        dest = province_of(order.destination)
        refusal = self.off_the_line(unit, dest)
        if refusal is not None:
            raise refusal
        if self.tsr is not None:
            first = self.units[self.tsr].label()
            raise OrderError(
                "only one army may use the railroad a turn ({unit} already does)", unit=first
            )
        self.tsr = i
        return Order(MOVE, "A", unit.location, destination=dest, via="TSR")

    def off_the_line(self, unit: Unit, dest: str) -> OrderError | None:
        """Why this unit may not ride the railroad to ``dest`` (a province), or None."""
        data = self.variant.rule_data["trans_siberian_railroad"]
        route, owner = data["route"], data.get("power", "Russia")
        if unit.power != owner:
            return OrderError("only {power} may use the Trans-Siberian Railroad", power=owner)
        if unit.kind != "A":
            return OrderError("only armies may use the Trans-Siberian Railroad")
        if unit.province not in route:
            return OrderError(
                "{province} is not on the Trans-Siberian Railroad", province=unit.province
            )
        if dest not in route:
            return OrderError("{province} is not on the Trans-Siberian Railroad", province=dest)
        if dest == unit.province:
            return OrderError("{unit} is already in {province}", unit=unit.label(), province=dest)
        return None

    def by_rail_instead(self, i: int, order: Order, refusal: OrderError) -> OrderError:
        """A plain move the map refuses that the railroad would take (``A Moscow -
        Vladivostok`` for a Russian army): the refusal says how to write it."""
        unit = self.units[i]
        dest = province_of(order.destination)
        if order.via is not None or self.off_the_line(unit, dest) is not None:
            return refusal
        return OrderError(
            "{reason}; by the railroad, write '{order}'",
            reason=refusal.reason,
            order=f"A {unit.location} - {dest} via TSR",
        )

    def target_could_move(self, t: int, dprov: str) -> bool:
        return self.rail_could_carry(t, dprov) or super().target_could_move(t, dprov)

    def rail_could_carry(self, t: int, dprov: str) -> bool:
        """Whether the railroad could carry unit t to ``dprov``: the map and the position
        decide it, never the order list, so a support for a railroad move is legal from any
        power in any order sequence (like a support for a convoyed move)."""
        data = self.variant.rule_data["trans_siberian_railroad"]
        route, unit = data["route"], self.units[t]
        return (
            unit.kind == "A"
            and unit.power == data.get("power", "Russia")
            and unit.province in route
            and dprov in route
            and dprov != unit.province
        )

    def is_head_to_head(self, i: int, j: int) -> bool:
        return i != self.tsr and j != self.tsr and super().is_head_to_head(i, j)

    def needs(self, i: int) -> str | None:
        """A support of a move only the railroad makes waits on that railroad move: "Russia
        to order A Moscow - Omsk via TSR" (the same move without the route is refused, as
        Moscow and Omsk do not touch)."""
        said = super().needs(i)
        if said is None or i >= len(self.units) or self.kind[i] != SUPPORT:
            return said  # a rule's own order (a canal permit) has no unit's index
        t, order = self.target[i], self.order[i]
        if t is None or order is None or order.destination is None:
            return said
        dprov = province_of(order.destination)
        if not self.rail_could_carry(t, dprov) or super().target_could_move(t, dprov):
            return said
        return why(
            "{power} to order {unit} - {destination} via TSR",
            power=self.power[t],
            unit=self.target_label(i, power=False),
            destination=order.destination,
        )

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
        # Errata 9.241: the ride ends at the first centre on the way that another power owns.
        self.cut = self.cut_index()
        if self.cut is not None:
            del self.path[self.cut + 1 :]
        self.on_route = set(route)
        self.movers_into[self.dest[t]].remove(t)
        for space in self.path:  # the block a reason names: the same whatever the unit order
            if space in self.movers_into:
                self.movers_into[space].sort(key=self.prov.__getitem__)
        self.kind[t] = RAIL
        self.adjudicators[t] = self._leaves_origin
        # passes[m] for 1 <= m < len(path) - 1, and enters for the last space.
        self.passes = {m: self.add_decision(self._pass) for m in range(1, len(self.path) - 1)}
        self.space_of = {d: m for m, d in self.passes.items()}
        self.enters = self.add_decision(self._enter)

    def cut_index(self) -> int | None:
        """Where a centre owned by another power cuts the line before the destination (errata
        9.241; the game option ``tsr_captured_centres_cut`` may switch it off), or None."""
        if self.board.options.get(CUT_OPTION, True) is False:
            return None
        owners = self.board.centres
        for m in range(1, len(self.path) - 1):
            owner = owners.get(self.path[m])
            if owner is not None and owner != self.rail_owner:
                return m
        return None

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
        """The army's strength against others entering path[m]: supports count at the end
        (the destination ordered, not a cut centre the ride ends at instead)."""
        if m == len(self.path) - 1 and self.cut is None:
            return 1 + self.support_count(self.tsr)
        return 1

    def rail_stops(self, k: int) -> bool:
        """Whether the railroad army, arriving at move k's destination, bounces it there.

        Only foreign moves: the army never bounces, and is never bounced by, a unit of the
        railroad's own power. Part of move k's own decision (``adjudicate_move``)."""
        if self.tsr is None or not self.foreign(k):
            return False
        m = self.path_index(self.dest[k])
        if m is None or not self.arrives(m):
            return False
        attack, prevent = self.attack_strength(k), self.rail_prevent(m)
        if attack > prevent:
            return False
        self.fails(k, ("railroad", self.tsr, attack, prevent))  # move k's cause, if it is judged
        return True

    def bounced_by_rail(self, k: int) -> bool:
        """Whether move k fails only because the railroad army arrives at its destination."""
        return self.foreign(k) and super().adjudicate_move(k) and self.rail_stops(k)

    def held_by_returning_unit(self, k: int) -> bool:
        """Whether move k fails only because the unit it meets tried to leave and could not."""
        j = self.occupant(self.dest[k])
        if j is None or not self.is_mover(j) or self.leaves(j) or self.h2h[k] == j:
            return False
        attack = self.attack_strength(k)
        return all(attack > self.prevent_strength(r) for r in self.rivals(k))

    def blocker(self, m: int) -> tuple[str, int] | None:
        """What stops the army passing path[m] once it got there: (how, unit), or None.

        Units of the railroad's own power never do; foreign ones do when they stay on the
        space, enter it, are bounced back by the army alone, or are held out only by a unit
        that failed to leave."""
        space = self.path[m]
        if self.stands_on(space):
            return "stands", self.occupant(space)
        for k in self.movers_into.get(space, ()):
            if not self.foreign(k):
                continue
            if self.resolve(k):
                return "enters", k
            if self.bounced_by_rail(k):
                return "standoff", k
            if self.held_by_returning_unit(k):
                return "enters", k
        return None

    def enter_block(self) -> tuple[str, int | None] | None:
        """What keeps the army out of its destination: (how, unit), or None if it enters."""
        last = len(self.path) - 1
        space = self.path[last]
        if not self.arrives(last):
            return "short", None
        j = self.occupant(space)
        if self.stands_on(space):
            return "stands", j
        if j is not None and not self.leaves(j):
            return "occupied", j
        strength = self.rail_prevent(last)
        for k in self.movers_into.get(space, ()):
            if self.foreign(k):
                if strength <= self.prevent_strength(k):
                    return ("enters" if self.resolve(k) else "standoff"), k
            elif self.resolve(k):
                return "taken", k  # an own unit is never bounced: it takes the space
        return None

    def _pass(self, d: int) -> bool:
        m = self.space_of[d]
        return self.arrives(m) and self.blocker(m) is None

    def _enter(self, d: int) -> bool:
        return self.enter_block() is None

    def free_at_end(self, space: str) -> bool:
        """Whether the army may stop here: the space is empty at the end of the turn (no unit
        stays in it, no unit of its own power moves into it) and no foreign unit fought for it.

        The army passes a standoff between two other units, but stopping there would be a
        third move into the space, which bounces like theirs.
        """
        j = self.occupant(space)
        if j is not None and not self.leaves(j):
            return False
        for k in self.movers_into.get(space, ()):
            if self.prevent_strength(k) if self.foreign(k) else self.resolve(k):
                return False
        return True

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

    def rail_decisions(self) -> set[int]:
        return {self.tsr, self.enters, *self.passes.values()} if self.tsr is not None else set()

    def backup_rule(self, cycle: list[int]) -> None:
        """A cycle through the railroad: circular movement first; if that proved impossible
        (``run`` found two units in one space), the army stays where it is."""
        rail = self.rail_decisions().intersection(cycle)
        if not rail:
            return super().backup_rule(cycle)
        self.rail_cycle = True
        if not self.rail_stays_in_cycle:
            return super().backup_rule(cycle)
        for x in cycle:
            self.state[x] = UNRESOLVED
        for x in rail:
            self.result[x] = False
            self.state[x] = RESOLVED
        return None

    def run(self) -> None:
        """Judge the phase; when the circular-movement backup rule settled a cycle through the
        railroad in a way its own decisions contradict (a third Russian move into a space of
        a swap, say), judge again with the army kept at its origin in that cycle. The answer
        depends on the position only, never on the order of the list."""
        super().run()
        if self.rail_cycle and not self.rail_stays_in_cycle and not self.consistent():
            self.rail_stays_in_cycle = True
            self.restart()
            super().run()

    def _leaves_origin(self, d: int) -> bool:
        return self.stop() > 0

    def adjudicate_move(self, i: int) -> bool:
        return super().adjudicate_move(i) and not self.rail_stops(i)

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
        if at == last and self.cut is None:
            return "succeeds", None
        reason = self.stop_reason()
        if at == 0:
            return "fails", reason
        return "stopped", reason

    def stop_reason(self) -> str:
        """The first block on the way, from the decisions that stopped the army."""
        last = len(self.path) - 1
        if self.cut is not None and self.stop() == last:
            space = self.path[last]
            owner = self.board.centres[space]
            return why(
                "the line is cut at {space}, a centre {power} owns (errata 9.241)",
                space=space,
                power=owner,
            )
        for m in range(1, last + 1):
            space = self.path[m]
            if self.moves_along(space):
                found: tuple | None = ("stands", self.occupant(space))
            elif m < last:
                if self.result[self.passes[m]]:
                    continue
                found = self.blocker(m)
            else:
                found = self.enter_block()
            if found is None or found[1] is None:
                return why(
                    "stopped before {space}", space=space
                )  # a cycle settled by the backup rule
            how, k = found
            if self.cut is not None and how == "occupied" and self.power[k] == self.power[self.tsr]:
                cut = self.path[last]
                return why(
                    CUT_AND_HELD,
                    cut=cut,
                    owner=self.board.centres[cut],
                    space=space,
                    power=self.power[k],
                    unit=self.units[k].label(),
                )
            template = STOP_REASONS.get(
                how, reason_template("route blocked at {space} by {power}'s {unit}")
            )
            return why(template, space=space, power=self.power[k], unit=self.units[k].label())
        return why("stopped")

    def bounce_reason(self, i: int, cause: tuple) -> str:
        if cause[0] != "railroad":
            return super().bounce_reason(i, cause)
        _, rail, attack, prevent = cause
        label = self.units[rail].label()
        return why(
            "bounced with {unit} (railroad) in {destination} ({attack} against {against})",
            unit=label,
            destination=self.dest[i],
            attack=attack,
            against=prevent,
        )

    def contested(self, occupied: set[str]) -> set[str]:
        out = super().contested(occupied)
        if self.tsr is not None:
            for space in self.path[1:]:
                m = self.path.index(space)
                if space in occupied or not self.arrives(m):
                    continue
                if any(self.bounced_by_rail(k) for k in self.movers_into.get(space, ())):
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


# -- options ----------------------------------------------------------------------------------


def _line(board):
    data = board.variant.rule_data["trans_siberian_railroad"]
    return data["route"], data.get("power", "Russia")


def extra_reach(board, unit) -> set[str]:
    """Where the railroad could carry a unit, for listing supports of railroad moves."""
    route, owner = _line(board)
    if unit.kind != "A" or unit.power != owner or unit.province not in route:
        return set()
    return set(route) - {unit.province}


def option_orders(board, power: str) -> list[str]:
    """Every railroad move the power's armies could make (one list: one ride a turn)."""
    if board.phase_type != "movement":
        return []
    route, owner = _line(board)
    if power != owner:
        return []
    return [
        f"A {u.location} - {dest} via TSR"
        for u in board.units
        if u.power == power and u.kind == "A" and u.province in route
        for dest in route
        if dest != u.province
    ]


class TransSiberianRailroad(Rule):
    """The rule object the engine calls: the hooks are this module's functions above."""

    name = "trans_siberian_railroad"
    title = "The Trans-Siberian Railroad"
    summary = gettext_noop(
        "The Trans-Siberian Railroad (Moscow, Perm, Omsk, Krasnoyarsk, Irkutsk, Vladivostok): "
        "one Russian army a turn may ride it, “A Moscow - Vladivostok via TSR”. It passes "
        "Russian units, but a foreign unit on the line, or a centre on it owned by another power, "
        "closes it. The army never attacks: when "
        "blocked it stops on the last free space before the block. The board shows the ride as "
        "an orange arrow."
    )
    Movement = Movement
    OPTIONS = OPTIONS
    ROUTES = ROUTES
    ROUTE_WORDS = {
        "railroad": "TSR", "railway": "TSR", "rail": "TSR",
        "Trans-Siberian Railroad": "TSR", "Trans-Siberian Railway": "TSR", "Trans-Siberian": "TSR",
    }  # fmt: skip
    one_a_turn = staticmethod(one_a_turn)
    extra_reach = staticmethod(extra_reach)
    option_orders = staticmethod(option_orders)


RULE = TransSiberianRailroad()
