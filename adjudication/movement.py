"""Movement phases: order legality and the dependency resolver.

Every order carries one yes/no decision: a move succeeds, a support is given, a convoying
fleet (or any unit that stays) is not dislodged. The strengths of the DATC "math of
adjudication" are computed from those decisions. ``resolve`` is Kruijswijk's guess-and-check:
a decision that depends on itself is tried both ways; one consistent answer is taken, and a
true cycle falls to the backup rule (circular movement succeeds; a convoy paradox is settled by
the Szykman rule).

Rules extend this class (``registry.Rule.Movement``): they may add decisions of their own
with ``add_decision`` and override the strength methods, always calling ``super()``. Legality
on the map alone is cached per variant.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from ._mypyc import mypyc_attr
from .board import Board, Dislodged, Unit, moved_unit
from .orders import CONVOY, HOLD, MOVE, SPECIAL, SUPPORT, Order, OrderError, shared_order
from .reasons import UNIT_IS, WHICH_COAST, either, keep, kept, reason_template, why
from .variant import PROVINCE_OF, Variant, province_of

# ``typing`` only for the type checker (and mypyc): importing it cost every batch's start-up a
# few milliseconds, and these annotations are never evaluated.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

# The state of a decision (Final: compiled, a constant rather than a global looked up).
UNRESOLVED: Final = 0
GUESSING: Final = 1
RESOLVED: Final = 2
# The kinds of order a movement phase checks (``Movement.add_order``).
_CHECKED: Final = frozenset({HOLD, MOVE, SUPPORT, CONVOY})


# The reasons given most, each kept by its call site under (template, names' values...)
# (``reasons.kept``): a ``why`` call builds a dict of its names each time.
_OWN_UNIT: Final = reason_template("cannot dislodge a unit of its own power in {dest}")
_HEAD_ON: Final = reason_template(
    "lost a head-to-head battle with {label} ({attack} against {against})"
)
_HELD: Final = reason_template("{label} stays in {dest} (strength {attack} against {against})")
_BOUNCED: Final = reason_template(
    "bounced with {label} in {destination} ({attack} against {against})"
)
_DISLODGED: Final = reason_template("dislodged by {unit}")
_CUT_BY: Final = reason_template("support cut by {unit}")
_ON_ITS_COAST: Final = reason_template("the fleet is on {location}, not {written}: {reason}")


@lru_cache(maxsize=64)
def overrides(cls: type, *names: str) -> bool:
    """Whether a resolver class (a rule's mixin) overrides any of these Movement methods."""
    return any(getattr(cls, name) is not getattr(Movement, name) for name in names)


@mypyc_attr(allow_interpreted_subclasses=True)  # the rules' mixins extend it in Python
class Movement:
    """One movement phase being adjudicated."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.variant = board.variant
        units = board.units
        self.units: list[Unit] = units
        n = len(units)
        self.power = [u.power for u in units]
        self.prov = [u.province for u in units]
        self.order: list[Order | None] = [None] * n
        # Where units share a province (stacking), the first one listed answers for it. (A
        # loop compiled: ``dict`` of a zip took each pair through the generic path.)
        unit_at: dict[str, int] = {}
        prov = self.prov
        for i in range(n - 1, -1, -1):
            unit_at[prov[i]] = i
        self.unit_at = unit_at
        # What the orders come to and the decisions: set by restart(), filled by prepare().
        self.restart()
        self.specials: list[tuple[str, Order]] = []
        self.dislodged_by: list[int | None] = []  # filled at the end of run()
        # A list while a failed decision's cause is worked out (an instance attribute from the
        # start: set later, it would change the object's layout and slow every attribute).
        self.explain: list | None = None
        self.fleet_provinces: set[str] | None = None  # where fleets stand; made when needed

    def restart(self) -> None:
        """Forget every decision and what ``prepare`` built, keeping the orders, so that
        ``run`` may judge them again (a plug-in that finds its cycle settled badly does)."""
        n = len(self.units)
        self.kind: list[str] = [HOLD] * n
        self.dest: list[str | None] = [None] * n
        self.convoyed = [False] * n
        self.target: list[int | None] = [None] * n  # supported or convoyed unit
        self.matches = [False] * n  # support/convoy matches what its target does
        self.movers_into: dict[str, list[int]] = {}
        # An empty tuple stands for "none" until the first one arrives.
        self.supports_of: list[list[int] | tuple[()]] = [()] * n
        self.convoys_of: list[list[int] | tuple[()]] = [()] * n
        self.h2h: list[int | None] = [None] * n
        self.paradox: set[int] = set()
        self.by_intent: set[int] = set()  # adjacent moves convoyed because their power convoys
        # Decisions: one per unit, then any a plug-in adds.
        self.adjudicators: list = [None] * n
        self.state = [UNRESOLVED] * n
        self.result = [False] * n
        self.deps: list[int] = []
        self.guesses_read = 0
        # Why each failed decision failed, as the run that settled it found (see ``fails``).
        self.causes: dict[int, tuple] = {}

    def release(self) -> None:
        """Drop the decisions' bound methods once the phase is answered: they point back at
        this object, so without this every phase's resolver (and all it holds) waited for the
        garbage collector instead of going when its last reference did."""
        self.adjudicators = []

    def consistent(self) -> bool:
        """Whether every decision, judged again once all are settled, agrees with itself."""
        return all(judge(d) == self.result[d] for d, judge in enumerate(self.adjudicators))

    # -- orders ------------------------------------------------------------------------------

    def unit_for(self, power: str, order: Order) -> int:
        """The index of the unit an order is for, or OrderError saying why there is none."""
        loc = order.location
        province = PROVINCE_OF[loc]  # type: ignore[index]
        i = self.unit_at.get(province)
        if i is None:
            raise OrderError("there is no unit in {province}", province=province)
        unit = self.units[i]
        if unit.power != power:
            raise OrderError(
                "the unit in {province} belongs to {owner}, not {power}",
                province=province,
                owner=unit.power,
                power=power,
            )
        if order.unit and order.unit != unit.kind:
            raise OrderError(UNIT_IS[unit.kind], province=province)
        return i  # a wrong coast on the ordered unit is ignored (DATC 6.B.10)

    def kind_at(self, location: str | None) -> str | None:
        """The kind of unit standing in a location's province, if any."""
        i = self.unit_at.get(PROVINCE_OF[location]) if location else None
        return None if i is None else self.units[i].kind

    def add_order(self, power: str, order: Order) -> int:
        """Check an order's legality and give it to its unit. Returns the unit index.

        Orders of a plug-in's own (``SPECIAL``) get a handle past the last unit instead.
        """
        if order.kind == SPECIAL:
            handle = len(self.units) + len(self.specials)
            self.specials.append((power, self.add_special(power, order)))
            return handle
        kind = order.kind
        if kind not in _CHECKED:
            raise OrderError("a {kind} order is not allowed in a movement phase", kind=kind)
        i = self.unit_for(power, order)
        if self.order[i] is not None:
            raise OrderError("{unit} already has an order", unit=self.units[i].label())
        # Called as methods (a rule's mixin may override each), not looked up in a table: a
        # compiled call to a compiled method is direct, one through a table went the generic
        # way, a tenth of giving a unit its order.
        if kind == MOVE:
            legal = self.check_move(i, order) or order
        elif kind == SUPPORT:
            legal = self.check_support(i, order) or order
        elif kind == HOLD:
            legal = self.check_hold(i, order) or order
        else:
            legal = self.check_convoy(i, order) or order
        # F2 Mid-Pacific: the canonical text keeps the 2, so sent again it names the same unit.
        if (
            order.number is not None
            and legal.number is None
            and self.units[i].province in self.variant.stacking
        ):
            legal = replace(legal, number=order.number, canonical=None, data=None)
        self.order[i] = legal
        return i

    def add_special(self, power: str, order: Order) -> Order:
        """A plug-in's own order (e.g. a Suez permit); returns its canonical form."""
        raise OrderError("this order is not used on this map")

    def special_outcome(self, handle: int) -> tuple[str, str | None]:
        return "succeeds", None

    def check_hold(self, i: int, order: Order) -> Order | None:
        # The shared order carries its canonical text, at the unit's own location: a wrong
        # coast on the ordered unit is ignored (DATC 6.B.10), as a move's is.
        unit = self.units[i]
        kind, location = unit.kind, unit.location
        checked = order.checked
        if checked is not None and checked[0] == kind and checked[1] == location:
            return checked[2]
        legal = shared_order(HOLD, kind, location)
        order.remember_check((kind, location, legal))
        return legal

    def check_move(self, i: int, order: Order) -> Order | None:
        unit = self.units[i]
        variant, kind, location = self.variant, unit.kind, unit.location
        # The last check's answer where it was for the same map and unit (``Order.checked``):
        # a few comparisons where the cached function built and hashed a key of five.
        checked = order.checked
        if (
            checked is not None
            and checked[0] is variant
            and checked[1] == kind
            and checked[2] == location
        ):
            legal = checked[3]
        else:
            legal = legal_move(variant, kind, location, order.destination, order.via)
            order.remember_check((variant, kind, location, legal))
        if isinstance(legal, str):
            written = order.location
            if written is not None and written != location and "/" in written:
                # DATC 6.B.10: the unit's own coast is read; the refusal says which it is, or
                # the player reads of a coast other than the one written, and not why.
                raise OrderError(_ON_ITS_COAST, location=location, written=written, reason=legal)
            raise OrderError(legal)
        if legal.via == "convoy" and not self.fleets_could_convoy(unit.province, legal.destination):  # type: ignore[arg-type]
            raise OrderError(
                "no fleets stand at sea to convoy it from {province} to {destination}",
                province=unit.province,
                destination=legal.destination,
            )
        return legal

    def fleets_could_convoy(self, origin: str, dest: str, only: set[str] | None = None) -> bool:
        """Whether fleets now at sea form a chain from origin to dest (DATC 6.D.8, 6.D.32)."""
        fleets = self.fleets_between(origin, dest)
        if only is not None:
            fleets &= only
        reach = self.variant.fleet_reach
        frontier = [origin]
        seen: set[str] = set()
        while frontier:
            here = frontier.pop()
            for sea in reach.get(here, ()):
                if sea in fleets and sea not in seen:
                    if dest in reach[sea]:
                        return True
                    seen.add(sea)
                    frontier.append(sea)
        return False

    def can_reach(self, i: int, province: str) -> bool:
        """Whether unit i could move to a province (any coast): the test for supporting."""
        unit = self.units[i]
        return reaches(self.variant, unit.kind, unit.location, province)

    def check_support(self, i: int, order: Order) -> Order | None:
        unit = self.units[i]
        tprov = PROVINCE_OF[order.target]  # type: ignore[index]
        t = self.unit_at.get(tprov)
        target = None if t is None else self.units[t]
        variant, kind, location = self.variant, unit.kind, unit.location
        tkind = None if target is None else target.kind
        tlocation = None if target is None else target.location
        checked = order.checked  # as in check_move
        if (
            checked is not None
            and checked[0] is variant
            and checked[1] == kind
            and checked[2] == location
            and checked[3] == tkind
            and checked[4] == tlocation
        ):
            legal = checked[5]
        else:
            legal = legal_support(
                variant, kind, location, order.target_unit, tprov, order.destination, tkind,
                tlocation,
            )  # fmt: skip
            order.remember_check((variant, kind, location, tkind, tlocation, legal))
        if isinstance(legal, str):
            raise OrderError(legal)
        assert target is not None and t is not None  # a support of nobody is refused above
        named = order.target_power  # "S British F Red Sea": read as written, or refused
        if named and named != target.power and tprov not in self.variant.stacking:
            raise OrderError(
                "the unit in {province} belongs to {owner}, not {power}",
                province=tprov,
                owner=target.power,
                power=named,
            )
        if legal.destination is not None:
            dprov = PROVINCE_OF[legal.destination]
            if not self.target_could_move(t, dprov):
                raise OrderError(
                    "{unit} could not move to {dprov}", unit=target.label(), dprov=dprov
                )
        return legal

    def target_could_move(self, t: int, dprov: str) -> bool:
        """Whether the supported unit could make the move at all (by land, sea or convoy)."""
        target = self.units[t]
        return could_move(self.variant, target.kind, target.location, dprov)

    def check_convoy(self, i: int, order: Order) -> Order | None:
        unit = self.units[i]
        tprov = PROVINCE_OF[order.target]  # type: ignore[index]
        t = self.unit_at.get(tprov)
        army = None if t is None else self.units[t].kind
        if army is not None and order.target_unit and order.target_unit != army:
            raise OrderError(UNIT_IS[army], province=tprov)  # "C F Brest": never read as A
        named = order.target_power  # "C France A Brest - London": read as written, or refused
        if named and t is not None and named != self.units[t].power:
            raise OrderError(
                "the unit in {province} belongs to {owner}, not {power}",
                province=tprov,
                owner=self.units[t].power,
                power=named,
            )
        dprov = PROVINCE_OF[order.destination]  # type: ignore[index]
        legal = legal_convoy(self.variant, unit.kind, unit.location, tprov, dprov, army)
        if isinstance(legal, str):
            raise OrderError(legal)
        # As for the army's move (check_move): a convoy no chain of the fleets now at sea could
        # make, with this fleet in it, is refused; else the two orders would disagree.
        if not self.on_a_chain(unit.province, tprov, dprov):
            raise OrderError(
                "no chain of fleets standing at sea joins {tprov} to {dprov} through {province}",
                tprov=tprov,
                dprov=dprov,
                province=unit.province,
            )
        return legal

    def on_a_chain(self, sea: str, origin: str, dest: str) -> bool:
        """Whether the fleet in ``sea`` lies on a chain of fleets now at sea from origin to
        dest. A chain of one or two fleets (most convoys) is seen at once; longer ones are
        searched among the fleets on some route between the two (``chain_fleets``)."""
        fleets = self.fleets_between(origin, dest)
        if sea not in fleets:
            return False
        reach = self.variant.fleet_reach
        near, far = sea in reach.get(origin, ()), dest in reach[sea]
        if near and far:
            return True  # origin, sea, dest
        for other in reach[sea]:
            if other in fleets and other != sea:
                if near and dest in reach[other]:
                    return True  # origin, sea, other, dest
                if far and other in reach.get(origin, ()):
                    return True  # origin, other, sea, dest
        return sea in chain_fleets(self.variant, frozenset(fleets), origin, dest)

    def fleets_between(self, origin: str, dest: str) -> set[str]:
        """The fleets standing in seas on some convoy route from origin to dest."""
        if self.fleet_provinces is None:  # one pass over the units a phase, not one a convoy
            self.fleet_provinces = {u.province for u in self.units if u.kind == "F"}
        return self.fleet_provinces & seas_between(self.variant, origin, dest)

    # -- preparing the decisions --------------------------------------------------------------

    def prepare(self) -> None:
        """Index the legal orders: who moves where, which supports and convoys match."""
        kind, dest, target, matches = self.kind, self.dest, self.target, self.matches
        convoyed, convoys_of, supports_of = self.convoyed, self.convoys_of, self.supports_of
        orders, movers = self.order, self.movers_into
        moving: list[int] = []
        convoys: list[int] = []
        supports: list[int] = []
        # Each unit's decision: its move's, its support's, or staying where it is (a hold, a
        # convoy, a unit without an order).
        adjudicators = self.adjudicators
        adjudicators[: len(kind)] = [self.adjudicate_stays] * len(kind)
        move, support = self.adjudicate_move, self.adjudicate_support
        for i, order in enumerate(orders):
            if order is None:
                continue
            k = kind[i] = order.kind
            if k == MOVE:
                adjudicators[i] = move
                d = dest[i] = PROVINCE_OF[order.destination]  # type: ignore[index]
                convoyed[i] = order.via == "convoy"
                if d in movers:
                    movers[d].append(i)
                else:
                    movers[d] = [i]
                moving.append(i)
            elif k == SUPPORT:
                adjudicators[i] = support
                supports.append(i)
            elif k == CONVOY:
                convoys.append(i)
        for i in convoys:
            order = orders[i]
            t = target[i] = self.unit_at[order.target]  # type: ignore[union-attr,index]
            if kind[t] == MOVE and dest[t] == order.destination:  # type: ignore[union-attr]
                if convoys_of[t]:
                    convoys_of[t].append(i)  # type: ignore[union-attr]
                else:
                    convoys_of[t] = [i]
        for t in {target[i] for i in convoys}:  # type: ignore[assignment]
            fleets = convoys_of[t]
            if fleets and not convoyed[t]:
                # To an adjacent province an army goes by land unless its own power convoys it.
                if any(self.power[f] == self.power[t] for f in fleets):
                    convoyed[t] = True
                    self.by_intent.add(t)
                else:
                    convoys_of[t] = []
            for f in convoys_of[t]:
                matches[f] = True
        for i in supports:
            order = orders[i]
            t = target[i] = self.support_target(i, order)  # type: ignore[arg-type]
            wanted = order.destination  # type: ignore[union-attr]
            if wanted is None:
                ok = kind[t] != MOVE
            elif "/" in wanted:
                ok = kind[t] == MOVE and orders[t].destination == wanted  # type: ignore[union-attr]
            else:
                ok = kind[t] == MOVE and dest[t] == wanted
            matches[i] = ok
            if ok:
                if supports_of[t]:
                    supports_of[t].append(i)  # type: ignore[union-attr]
                else:
                    supports_of[t] = [i]
        for i in moving:
            j = self.unit_at.get(dest[i])  # type: ignore[arg-type]
            if j is not None and self.meets_head_on(i, j):
                self.h2h[i] = j

    def meets_head_on(self, i: int, j: int) -> bool:
        """Two units moving into each other's province, neither by convoy."""
        return (
            self.kind[i] == MOVE
            and self.kind[j] == MOVE
            and not self.convoyed[i]
            and not self.convoyed[j]
            and self.dest[j] == self.prov[i]
            and self.dest[i] == self.prov[j]
            and self.is_head_to_head(i, j)
        )

    def support_target(self, s: int, order: Order) -> int:
        """The unit a support order is for (a plug-in may choose among several in a space)."""
        return self.unit_at[PROVINCE_OF[order.target]]  # type: ignore[index]

    def is_head_to_head(self, i: int, j: int) -> bool:
        """Two units ordered into each other's province meet head to head (plug-ins may veto)."""
        return True

    def add_decision(self, adjudicator) -> int:
        """Register a plug-in decision; ``adjudicator(d) -> bool``. Returns its index."""
        self.adjudicators.append(adjudicator)
        self.state.append(UNRESOLVED)
        self.result.append(False)
        return len(self.adjudicators) - 1

    # -- the resolver ---------------------------------------------------------------------

    def resolve(self, d: int) -> bool:
        state = self.state
        s = state[d]
        if s == RESOLVED:
            return self.result[d]
        deps = self.deps
        if s == GUESSING:
            self.guesses_read += 1
            if d not in deps:
                deps.append(d)
            return self.result[d]
        n0 = len(deps)
        read0 = self.guesses_read
        self.result[d] = False
        state[d] = GUESSING
        first = self.adjudicators[d](d)
        if self.guesses_read == read0:
            # Nothing guessed was read: the answer is final.
            self.result[d] = first
            state[d] = RESOLVED
            return first
        if len(deps) == n0 or deps[n0] != d:
            # It rests on someone else's guess; that guesser will reset it.
            deps.append(d)
            self.result[d] = first
            return first
        for x in deps[n0:]:
            state[x] = UNRESOLVED
        del deps[n0:]
        self.result[d] = True
        state[d] = GUESSING
        second = self.adjudicators[d](d)
        if first == second:
            for x in deps[n0:]:
                state[x] = UNRESOLVED
            del deps[n0:]
            self.result[d] = first
            state[d] = RESOLVED
            self.causes.pop(d, None)  # found under its own guess: the reason judges it again
            return first
        self.backup_rule(deps[n0:])
        del deps[n0:]
        return self.resolve(d)

    def backup_rule(self, cycle: list[int]) -> None:
        """Settle a cycle: a convoy paradox by Szykman, otherwise circular movement."""
        n = len(self.units)
        for x in cycle:
            self.state[x] = UNRESOLVED
        fleets = [x for x in cycle if x < n and self.kind[x] == CONVOY]
        if fleets:
            for f in fleets:
                t = self.target[f]
                if not self.matches[f]:
                    continue
                if t in self.by_intent:
                    self.go_by_land(t)  # DATC 6.G.11: an intended convoy in a paradox is dropped
                else:
                    self.paradox.add(t)  # type: ignore[arg-type]
            return
        for x in cycle:
            if x < n and self.kind[x] == MOVE:
                self.result[x] = True
                self.state[x] = RESOLVED
            else:
                self.settle_cycle_member(x)

    def go_by_land(self, t: int) -> None:
        """Drop the convoy of an army that could also move over land."""
        self.convoyed[t] = False
        self.by_intent.discard(t)
        for f in self.convoys_of[t]:
            self.matches[f] = False
        self.convoys_of[t] = []
        j = self.unit_at.get(self.dest[t])  # type: ignore[arg-type]
        if j is not None and self.meets_head_on(t, j):
            self.h2h[t], self.h2h[j] = j, t

    def settle_cycle_member(self, d: int) -> None:
        """Hook for plug-in decisions caught in a circular movement: they succeed with it."""
        self.result[d] = True
        self.state[d] = RESOLVED

    # -- strengths ------------------------------------------------------------------------------

    def path_ok(self, i: int) -> bool:
        """Whether unit i's move has its route: by land, or an unbroken chain of convoys."""
        if not self.convoyed[i]:
            return True
        if i in self.paradox:
            return False
        fleets = self.convoys_of[i]
        if not fleets:
            return False
        reach = self.variant.fleet_reach
        start, end = self.prov[i], self.dest[i]
        frontier = [start]
        used: set[int] = set()
        while frontier:
            here = frontier.pop()
            near = reach.get(here, ())
            for f in fleets:
                if f in used or self.prov[f] not in near:
                    continue
                used.add(f)
                if not self.resolve(f):  # the fleet was dislodged
                    continue
                if end in reach.get(self.prov[f], ()):
                    return True
                frontier.append(self.prov[f])
        return False

    def occupant(self, province: str) -> int | None:
        return self.unit_at.get(province)

    def support_count(self, i: int, exclude_power: str | None = None) -> int:
        count = 0
        for s in self.supports_of[i]:
            if self.power[s] != exclude_power and self.resolve(s):
                count += 1
        return count

    def attack_strength(self, i: int) -> int:
        if not self.path_ok(i):
            return 0
        j = self.occupant(self.dest[i])  # type: ignore[arg-type]
        if j is None or (self.h2h[i] != j and self.leaves(j)):
            return 1 + self.support_count(i)
        if self.power[j] == self.power[i]:
            return 0
        return 1 + self.support_count(i, self.power[j])

    def hold_strength(self, province: str) -> int:
        j = self.occupant(province)
        if j is None:
            return 0
        if self.is_mover(j):
            return 0 if self.leaves(j) else 1
        return 1 + self.support_count(j)

    def is_mover(self, j: int) -> bool:
        """Whether unit j was ordered to leave its province (so hold supports do not count)."""
        return self.kind[j] == MOVE

    def leaves(self, j: int) -> bool:
        """Whether unit j ends the phase outside its province."""
        return self.kind[j] == MOVE and self.resolve(j)

    def defend_strength(self, j: int) -> int:
        return 1 + self.support_count(j)

    def prevent_strength(self, k: int) -> int:
        if not self.path_ok(k):
            return 0
        j = self.h2h[k]
        if j is not None and self.resolve(j):
            return 0
        return 1 + self.support_count(k)

    def rivals(self, i: int) -> list[int]:
        """Other units trying to enter unit i's destination."""
        movers = self.movers_into[self.dest[i]]  # type: ignore[index]
        if len(movers) == 1 and movers[0] == i:
            return []  # the usual case: it moves there alone
        return [k for k in movers if k != i]

    # -- decisions --------------------------------------------------------------------------

    def fails(self, d: int, cause: tuple) -> bool:
        """Fail decision d for ``cause``, so that the reason a player reads is the very test
        that failed it: kept for the reason when the decision is being settled (a decision
        settled without reading any guess is final, so its cause is too), or put in
        ``explain`` while a reason judges the decision again. Returns False."""
        if self.explain is not None:
            self.explain.append(cause)
        elif self.state[d] != RESOLVED:
            self.causes[d] = cause
        return False

    def cause(self, d: int, judge) -> tuple | None:
        """Why failed decision d failed: the cause its settling run kept, or, when it was
        settled by guessing (its cause then rests on guesses), ``judge(d)`` run again now that
        every decision is settled."""
        cause = self.causes.get(d) if self.state[d] == RESOLVED else None
        if cause is None:
            found: list[tuple] = []
            self.explain = found
            judge(d)
            self.explain = None
            cause = found[0] if found else None
        return cause

    def adjudicate_move(self, i: int) -> bool:
        """The move decision; a failure records its cause (``fails``)."""
        attack = self.attack_strength(i)
        if attack == 0:
            return self.fails(i, ("no-attack",))
        j = self.h2h[i]
        if j is not None:
            defend = self.defend_strength(j)
            if attack <= defend:
                return self.fails(i, ("head-on", j, attack, defend))
        else:
            hold = self.hold_strength(self.dest[i])  # type: ignore[arg-type]
            if attack <= hold:
                held = self.occupant(self.dest[i])  # type: ignore[arg-type]
                return self.fails(i, ("held", held, attack, hold))
        for k in self.movers_into[self.dest[i]]:  # type: ignore[index]
            if k != i:  # a rival (``rivals``, without making its list)
                prevent = self.prevent_strength(k)
                if attack <= prevent:
                    return self.fails(i, ("bounced", k, attack, prevent))
        return True

    def cuts_support(self, k: int, s: int) -> bool:
        """Whether a move k into supporter s's province cuts its support (before dislodging)."""
        if self.power[k] == self.power[s]:
            return False
        aim = self.order[s].destination  # type: ignore[union-attr]
        if aim is not None and self.prov[k] == PROVINCE_OF[aim]:
            return False  # not cut from the province it is directed at, whatever the coast
        return self.path_ok(k)

    def adjudicate_support(self, s: int) -> bool:
        """The support decision; a failure records its cause (``fails``)."""
        attackers = self.movers_into.get(self.prov[s], ())
        for k in attackers:
            if self.cuts_support(k, s):
                return self.fails(s, ("cut", k))
        for k in attackers:
            if self.power[k] != self.power[s] and self.resolve(k):
                return self.fails(s, ("dislodged", k))
        return True

    def adjudicate_stays(self, j: int) -> bool:
        """A unit that does not move keeps its province unless a move into it succeeds."""
        for k in self.movers_into.get(self.prov[j], ()):
            if self.resolve(k):
                return False
        return True

    # -- running ----------------------------------------------------------------------------

    def run(self) -> None:
        self.prepare()
        state = self.state
        for d in range(len(self.adjudicators)):
            if state[d] != RESOLVED:  # most were settled while resolving others
                self.resolve(d)
        self.dislodged_by = self.find_dislodgers()

    def moved(self, i: int) -> bool:
        return self.kind[i] == MOVE and self.result[i]

    def final_location(self, i: int) -> str:
        """Where unit i stands after the phase, if it is not dislodged."""
        if self.moved(i):
            return self.order[i].destination  # type: ignore[union-attr,return-value]
        return self.units[i].location

    def final_units(self) -> tuple[list[Unit], list[Dislodged]]:
        """The units that were not dislodged, where they stand after the phase, and the
        dislodged ones with where their attacker came from; in one pass over the units."""
        by, kind, result, order = self.dislodged_by, self.kind, self.result, self.order
        cls: type = type(self)
        # Movement's own final_location read here, without two calls a unit, unless a rule's
        # resolver moves units its own way (the railroad).
        own = not overrides(cls, "final_location", "moved")
        units: list[Unit] = []
        dislodged: list[Dislodged] = []
        for i, unit in enumerate(self.units):
            k = by[i]
            if k is not None:
                dislodged.append(Dislodged(unit, self.prov[k], self.convoyed[k]))
                continue
            if own:
                moved = kind[i] == MOVE and result[i]
                loc = order[i].destination if moved else unit.location  # type: ignore[union-attr]
            else:
                loc = self.final_location(i)
            units.append(unit if loc == unit.location else moved_unit(unit, loc))  # type: ignore[arg-type]
        return units, dislodged

    def find_dislodgers(self) -> list[int | None]:
        """Who dislodged each unit, worked out once when all is resolved: it is read often."""
        out: list[int | None] = [None] * len(self.units)
        movers_into, result = self.movers_into, self.result
        for j, province in enumerate(self.prov):
            movers = movers_into.get(province)
            if movers is None or self.moved(j):
                continue
            for k in movers:
                if result[k] and self.can_be_dislodged(j):
                    out[j] = k
                    break
        return out

    def can_be_dislodged(self, j: int) -> bool:
        return True

    def contested(self, occupied: set[str]) -> set[str]:
        """Empty provinces where a real standoff happened: no retreat may go there."""
        out = set()
        for province, movers in self.movers_into.items():
            if province in occupied:
                continue
            for k in movers:
                if self.result[k] or not self.path_ok(k):
                    continue
                j = self.h2h[k]
                if j is not None and self.result[j]:
                    continue  # lost a head-to-head: no standoff there
                out.add(province)
                break
        return out

    def move_reason(self, i: int) -> str:
        """Why a legal move failed, in words a player understands, from the cause its decision
        records: ``("no-attack",)``, or ``(how, unit, attack, against)``."""
        cause = self.cause(i, self.adjudicate_move)
        if cause is None:
            return why("failed")
        dest = self.dest[i]
        how = cause[0]
        if how == "no-attack":
            if not self.path_ok(i):
                return self.no_route_reason(i)
            key: tuple = (_OWN_UNIT, dest)
            return kept.get(key) or keep(key, why(_OWN_UNIT, dest=dest))
        if (
            how in ("held", "head-on")
            and self.dislodged_by
            and self.dislodged_by[cause[1]] is not None
        ):
            # Too weak for the unit there (holding, or coming the other way), which did not
            # stay: the move that dislodged it (or another at least as strong) is what the
            # player reads of.
            found = self.strongest_rival(i, cause[2])
            if found is not None:
                how, cause = "bounced", ("bounced", found[1], cause[2], found[0])
        elif how == "bounced":
            cause = self.named_rival(i, cause)
        if how == "head-on":
            _, other, attack, against = cause
            label = self.rival_label(other)
            key = (_HEAD_ON, label, attack, against)
            return kept.get(key) or keep(
                key, why(_HEAD_ON, label=label, attack=attack, against=against)
            )
        if how == "held":
            _, other, attack, against = cause
            label = self.rival_label(other)
            key = (_HELD, label, dest, attack, against)
            return kept.get(key) or keep(
                key, why(_HELD, label=label, dest=dest, attack=attack, against=against)
            )
        return self.bounce_reason(i, cause)

    def named_rival(self, i: int, cause: tuple) -> tuple:
        """Of the rivals that each bounced move i, the one its reason names: the strongest,
        then by province, so the reason never depends on the order the units are listed."""
        if len(self.movers_into[self.dest[i]]) < 3:  # type: ignore[index]
            return cause  # the one rival (besides i) is the one its decision recorded
        found = self.strongest_rival(i, cause[2], at_least=2)
        return cause if found is None else ("bounced", found[1], cause[2], found[0])

    def strongest_rival(self, i: int, attack: int, at_least: int = 1) -> tuple[int, int] | None:
        """(prevent strength, unit) of the strongest move into move i's destination that
        holds an ``attack`` out, then by province; None when fewer than ``at_least`` do."""
        held = [(self.prevent_strength(k), k) for k in self.rivals(i)]
        held = [(p, k) for p, k in held if p >= attack]
        if len(held) < at_least:
            return None
        return min(held, key=lambda pk: (-pk[0], self.prov[pk[1]]))

    def bounce_reason(self, i: int, cause: tuple) -> str:
        """A move stopped by another unit entering (plug-ins name causes of their own)."""
        _, other, attack, against = cause
        label = self.rival_label(other)
        dest = self.dest[i]
        key = (_BOUNCED, label, dest, attack, against)
        return kept.get(key) or keep(
            key, why(_BOUNCED, label=label, destination=dest, attack=attack, against=against)
        )

    def no_route_reason(self, i: int) -> str:
        """Why a move had no route at all (a plug-in may close a route of its own)."""
        if i in self.paradox and self.convoys_of[i]:
            return why(
                "the convoy was disrupted (paradox: convoyed moves fail by the Szykman rule)"
            )
        return why("the convoy failed: no unbroken chain of convoying fleets")

    # -- answers ----------------------------------------------------------------------------

    def canonical(self, i: int) -> str:
        if i >= len(self.units):
            return self.specials[i - len(self.units)][1].text()
        order = self.order[i]
        return order.canonical or order.text(self.units[i].kind)  # type: ignore[union-attr]

    def outcome(self, i: int) -> tuple[str, str | None]:
        """The contract's result for unit i's order, and the reason when it did not work."""
        if i >= len(self.units):
            return self.special_outcome(i)
        kind = self.kind[i]
        if kind == MOVE:
            if self.result[i]:
                return "succeeds", None
            return "fails", self.move_reason(i)
        if kind == SUPPORT:
            if self.result[i]:
                if not self.matches[i]:
                    return "succeeds", self.void_reason(i)
                return "succeeds", None
            return "fails", self.support_reason(i)
        if kind == CONVOY and not self.matches[i]:
            t = self.units[self.target[i]]  # type: ignore[index]
            reason = why(
                "{unit} was not ordered to {destination} via convoy",
                unit=t.label(),
                destination=self.order[i].destination,  # type: ignore[union-attr]
            )
            if self.dislodged_by[i] is not None:
                return "fails", reason
            return "succeeds", reason
        k = self.dislodged_by[i]
        if k is None:
            return "succeeds", None
        return "fails", self.dislodged_reason(k)

    def dislodged_reason(self, k: int) -> str:
        """``dislodged by`` unit k."""
        label = self.rival_label(k)
        key = (_DISLODGED, label)
        return kept.get(key) or keep(key, why(_DISLODGED, unit=label))

    def support_reason(self, s: int) -> str:
        """Why support s was not given, from the cause its decision recorded."""
        cause = self.cause(s, self.adjudicate_support)
        k = cause[1] if cause else None
        if cause and cause[0] == "cut":  # of several cutters, name one whatever the unit order
            movers = self.movers_into.get(self.prov[s], ())
            if len(movers) > 1:  # else the one that cut it is the one its decision recorded
                cutters = [c for c in movers if self.cuts_support(c, s)]
                k = min(cutters, key=self.prov.__getitem__, default=k)
        by = self.dislodged_by[s]
        if by is not None and k in (None, by):
            return self.dislodged_reason(by)
        if k is None:
            if by is None:
                return why("support cut")
            return why("support cut; dislodged by {unit}", unit=self.rival_label(by))
        cutter = self.rival_label(k)
        if by is None:
            key = (_CUT_BY, cutter)
            return kept.get(key) or keep(key, why(_CUT_BY, unit=cutter))
        return why("support cut by {unit}; dislodged by {by}", unit=cutter, by=self.rival_label(by))

    def rival_label(self, k: int) -> str:
        """Unit k as a reason about another unit's fate names it: in a space several units
        share (a Far East ocean, a Chinese entry space), with its power (``Indonesia F
        Mid-Pacific Ocean``), as a support names it there; elsewhere the one unit there is
        enough. (Two powers bounced by "F Mid-Pacific Ocean" could not tell whose it was.)"""
        unit = self.units[k]
        if unit.province in self.variant.stacking:
            return f"{unit.power} {unit.label()}"
        return unit.label()

    def target_label(self, i: int, power: bool = True) -> str:
        """The unit support i names, as reasons name it: in a space several units share, as
        the order named it, with its number (``F2 Mid-Pacific Ocean``) and, with ``power``,
        its power where the canonical order names one (``Australia F2 Mid-Pacific Ocean``):
        among alike units the number is the one that tells which."""
        t = self.units[self.target[i]]  # type: ignore[index]
        order = self.order[i]
        number = order.target_number  # type: ignore[union-attr]
        if number is None:
            return t.label()
        whose = order.target_power if power else None  # type: ignore[union-attr]
        return (
            f"{whose} {t.kind}{number} {t.location}" if whose else f"{t.kind}{number} {t.location}"
        )

    def void_reason(self, i: int) -> str:
        """Why a support that was not cut still had no effect."""
        label = self.target_label(i)
        if self.order[i].destination is None:  # type: ignore[union-attr]
            return why("no effect: {unit} was ordered to move, not to hold", unit=label)
        return why(
            "no effect: {unit} was not ordered to {destination}",
            unit=label,
            destination=self.order[i].destination,  # type: ignore[union-attr]
        )

    def needs(self, i: int) -> str | None:
        """In a check (orders added and prepared, nothing resolved): what other powers must
        order for order i to work, or None. It never makes the order invalid."""
        if i >= len(self.units):
            return None
        kind = self.kind[i]
        if kind == MOVE and self.convoyed[i] and not self.convoys_of[i]:
            return why("convoy orders from the fleets at sea")
        if kind not in (SUPPORT, CONVOY) or self.matches[i]:
            return None
        t = self.target[i]
        if t is None or self.power[t] == self.power[i]:
            return None
        order = self.order[i]
        label = self.target_label(i, power=False) if kind == SUPPORT else self.units[t].label()
        if order.destination is None:  # type: ignore[union-attr]
            return why("{power} to keep {unit} where it is", power=self.power[t], unit=label)
        template = reason_template("{power} to order {unit} - {destination}")
        if kind == CONVOY:
            template = reason_template("{power} to order {unit} - {destination} via Convoy")
        return why(template, power=self.power[t], unit=label, destination=order.destination)  # type: ignore[union-attr]

    def annotate(self, response: dict) -> None:
        """Hook for plug-ins to add fields to the response."""


@lru_cache(maxsize=4096)
def seas_between(variant: Variant, origin: str, dest: str) -> frozenset[str]:
    """Seas that lie on some convoy route from origin to dest (reachable from both ends)."""
    return _seas_from(variant, origin) & _seas_from(variant, dest)


@lru_cache(maxsize=1024)
def _seas_from(variant: Variant, start: str) -> frozenset[str]:
    reach = variant.fleet_reach
    provinces = variant.provinces
    seen: set[str] = set()
    frontier = [p for p in reach.get(start, ()) if provinces[p].is_sea]
    seen.update(frontier)
    while frontier:
        here = frontier.pop()
        for nxt in reach.get(here, ()):
            if nxt not in seen and provinces[nxt].is_sea:
                seen.add(nxt)
                frontier.append(nxt)
    return frozenset(seen)


def fleets_at_sea(variant: Variant, units: list[Unit]) -> frozenset[str]:
    """The seas where fleets stand (the fleets that may convoy)."""
    provinces = variant.provinces
    return frozenset(u.province for u in units if u.kind == "F" and provinces[u.province].is_sea)


def chain_fleets(
    variant: Variant, fleets: frozenset[str], origin: str, dest: str
) -> frozenset[str]:
    """The seas of ``fleets`` that can take part in convoying an army from origin to dest: each
    lies on a chain origin, sea, ..., sea, dest of adjacent seas where fleets stand, no sea
    twice. Empty when no chain joins them (a fleet off every such chain, one that joins it
    only by way of another fleet and leads nowhere, is not in it either)."""
    out: set[str] = set()
    for last, members in convoy_chains(variant, fleets, origin).items():
        if dest in variant.fleet_reach[last]:
            out |= members
    return frozenset(out)


@lru_cache(maxsize=512)
def convoy_chains(
    variant: Variant, fleets: frozenset[str], origin: str
) -> dict[str, frozenset[str]]:
    """Chains of fleets for an army in ``origin``: each sea of ``fleets`` a chain reaches from
    there, with the seas of every chain ending at it that visits no sea twice.

    Those seas are the blocks (biconnected components) of the graph of the fleets' seas and
    origin that lie between origin and that sea (a fleet outside them could be used only by
    going through one sea twice). Computed once per position and origin."""
    reach = variant.fleet_reach
    adj = {sea: [n for n in reach[sea] if n in fleets or n == origin] for sea in fleets}
    adj[origin] = [n for n in reach.get(origin, ()) if n in fleets]
    blocks: list[tuple[str, set[str]]] = []
    _blocks(adj, origin, None, {}, {}, [], blocks)
    own = {sea: b for b, (head, block) in enumerate(blocks) for sea in block if sea != head}
    # A block is found before the block above it (nearer origin): go up from the last.
    upward: list[frozenset[str]] = [frozenset()] * len(blocks)
    for b in range(len(blocks) - 1, -1, -1):
        head, block = blocks[b]
        above = frozenset() if head == origin else upward[own[head]]
        upward[b] = above | (block - {origin})
    return {sea: upward[b] for sea, b in own.items()}


def _blocks(
    adj: dict[str, list[str]],
    here: str,
    parent: str | None,
    order: dict[str, int],
    low: dict[str, int],
    edges: list[tuple[str, str]],
    blocks: list[tuple[str, set[str]]],
) -> None:
    """Tarjan's biconnected components, depth first from ``here``: each block with its vertex
    nearest the start (its head), appended to ``blocks`` as it is completed."""
    order[here] = low[here] = len(order)
    for nxt in adj[here]:
        if nxt not in order:
            edges.append((here, nxt))
            _blocks(adj, nxt, here, order, low, edges, blocks)
            low[here] = min(low[here], low[nxt])
            if low[nxt] >= order[here]:  # here parts nxt's block from the rest
                block: set[str] = set()
                while True:
                    edge = edges.pop()
                    block.update(edge)
                    if edge == (here, nxt):
                        break
                blocks.append((here, block))
        elif nxt != parent and order[nxt] < order[here]:
            edges.append((here, nxt))
            low[here] = min(low[here], order[nxt])


# -- legality on the map alone ----------------------------------------------------------------
# Whether an order is legal depends on the map, on the ordered unit and (for supports and
# convoys) on the unit it names; never on the rest of the board, except the fleets an army's
# convoy needs (checked by the caller). So the answers are cached: they come back every phase.
# Each returns the canonical order, or the reason the order is illegal as a string.


@lru_cache(maxsize=16384)
def legal_move(
    variant: Variant, kind: str, location: str, destination: str, via: str | None
) -> Order | str:
    """A unit's move: ``via == "convoy"`` in the answer means fleets must carry it."""
    province = province_of(location)
    dprov = province_of(destination)
    if dprov == province:
        return why(
            "{kind} {location} cannot move to the province it is already in",
            kind=kind,
            location=location,
        )
    if via and via != "convoy":
        # ``via Suez``: a canal or a land bridge is an ordinary move, named by no route.
        if kind == "F":  # never carried, and no rule's route is a fleet's (the railroad's)
            return why(
                "there is no route called '{via}' on this map, and a fleet's move names "
                "none: leave 'via' out",
                via=via,
            )
        routes = ["Convoy", *(word for plugin in variant.plugins for word in plugin.ROUTES)]
        return why(
            "there is no route called '{via}' on this map; after 'via' write {routes}, or "
            "leave 'via' out",
            via=via,
            routes=either(routes),
        )
    if kind == "F":
        if via:
            return why("only armies can be convoyed")
        return _fleet_move(variant, location, destination)
    if variant.provinces[dprov].type == "sea":
        return why("an army cannot move to {dprov}: it is a sea", dprov=dprov)
    if via == "convoy" or dprov not in variant.army_adj[province]:
        if not seas_between(variant, province, dprov):
            if via:
                return _no_convoy_reason(variant, province, dprov)
            return why("{province} is not adjacent to {dprov}", province=province, dprov=dprov)
        return shared_order(MOVE, "A", location, None, None, dprov, "convoy")
    return shared_order(MOVE, "A", location, None, None, dprov)


def _no_convoy_reason(variant: Variant, province: str, dprov: str) -> str:
    """Why an army ordered ``via Convoy`` has no sea route: armies cross only the sea."""
    for end in (province, dprov):
        if not _seas_from(variant, end):
            return why(
                "no convoy can reach {end}: it has no coast (armies are convoyed by sea only)",
                end=end,
            )
    return why(
        "no sea route joins {province} and {dprov} for a convoy", province=province, dprov=dprov
    )


def _fleet_move(variant: Variant, location: str, dest: str) -> Order | str:
    """A fleet's move, choosing the coast when only one can be reached."""
    dprov = province_of(dest)
    target = variant.provinces[dprov]
    if target.type == "land":
        return why("a fleet cannot move to {dprov}: it is inland", dprov=dprov)
    neighbours = variant.fleet_adj[location]
    if "/" in dest or not target.coasts:
        if dest not in neighbours:
            return why("{location} is not adjacent to {dest}", location=location, dest=dest)
        return shared_order(MOVE, "F", location, None, None, dest)
    reachable = [loc for loc in variant.fleet_locations(dprov) if loc in neighbours]
    if not reachable:
        return why("{location} is not adjacent to {dprov}", location=location, dprov=dprov)
    if len(reachable) > 1:
        return why(WHICH_COAST, province=dprov, coasts=" / ".join(reachable))
    return shared_order(MOVE, "F", location, None, None, reachable[0])


def reaches(variant: Variant, kind: str, location: str, province: str) -> bool:
    """Whether a unit could move to a province (any coast): the test for supporting."""
    if kind == "A":
        return province in variant.army_adj.get(location, ())
    return province in variant.fleet_provinces[location]


def could_move(variant: Variant, kind: str, location: str, dprov: str) -> bool:
    """Whether a unit could make a move at all (by land, sea or convoy)."""
    if kind == "F":
        return dprov in variant.fleet_provinces[location]
    if variant.provinces[dprov].type == "sea":
        return False
    return dprov in variant.army_adj[location] or bool(seas_between(variant, location, dprov))


@lru_cache(maxsize=16384)
def legal_support(
    variant: Variant,
    kind: str,
    location: str,
    target_unit: str | None,
    tprov: str,
    destination: str | None,
    tkind: str | None,
    tlocation: str | None,
) -> Order | str:
    """A support for the unit (``tkind``, ``tlocation``; None if none) in ``tprov``.

    Whether the supported unit could make the move is left to the caller (a plug-in may
    open a route for one phase)."""
    label = f"{kind} {location}"
    if tprov == province_of(location):
        return why("{label} cannot support itself", label=label)
    if tkind is None:
        return why("there is no unit in {tprov} to support", tprov=tprov)
    if target_unit and target_unit != tkind:
        return why(UNIT_IS[tkind], province=tprov)
    if destination is None:
        if not reaches(variant, kind, location, tprov):
            return why(
                "{label} cannot support into {tprov}: it could not move there",
                label=label,
                tprov=tprov,
            )
        return shared_order(SUPPORT, kind, location, tkind, tlocation)
    dprov = province_of(destination)
    if dprov == province_of(location):
        return why("{label} cannot support a move into its own province", label=label)
    if dprov == tprov:
        return why(
            "{tkind} {tlocation} cannot move to the province it is in",
            tkind=tkind,
            tlocation=tlocation,
        )
    if not reaches(variant, kind, location, dprov):
        return why(
            "{label} cannot support into {dprov}: it could not move there", label=label, dprov=dprov
        )
    # A named coast must match the fleet's move; without one (or for an army, which moves
    # into the province whatever coast is named) the support is for the province.
    dest = destination if "/" in destination and tkind == "F" else dprov
    return shared_order(SUPPORT, kind, location, tkind, tlocation, dest)


@lru_cache(maxsize=16384)
def legal_convoy(
    variant: Variant, kind: str, location: str, tprov: str, dprov: str, tkind: str | None
) -> Order | str:
    """A fleet's convoy of the unit of kind ``tkind`` (None if none) in ``tprov``."""
    province = province_of(location)
    if kind != "F":
        return why("only fleets can convoy")
    if variant.provinces[province].type != "sea":
        return why("a fleet in {province} cannot convoy: only fleets at sea can", province=province)
    if tkind is None:
        return why("there is no army in {tprov} to convoy", tprov=tprov)
    if tkind != "A":
        return why("only armies can be convoyed")
    if dprov == tprov:
        return why("an army cannot be convoyed to the province it is in ({tprov})", tprov=tprov)
    if variant.provinces[dprov].type == "sea" or dprov not in variant.fleet_reach:
        return why("an army cannot be convoyed to {dprov}: it has no coast", dprov=dprov)
    if province not in seas_between(variant, tprov, dprov):
        return why(
            "{kind} {location} is not on any sea route from {tprov} to {dprov}",
            kind=kind,
            location=location,
            tprov=tprov,
            dprov=dprov,
        )
    return shared_order(CONVOY, "F", location, "A", tprov, dprov)
