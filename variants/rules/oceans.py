"""Oceans (Far East I-R rules 6.1-6.7): sea spaces that hold any number of fleets.

A province flagged ``ocean`` takes any number of fleets and none can be dislodged there. A move
into an ocean always succeeds; fleets exchange places freely when either end is an ocean; a
move out of an ocean is judged normally. A fleet in an ocean may convoy and may support units
next to it or another fleet in the same ocean, and its support cannot be cut. A fleet dislodged
next to an ocean may always retreat into it, even if its attacker came from there. Orders may
number fleets in one ocean (F1, F2) to tell them apart; the numbers name no particular fleet.
"""

from __future__ import annotations

from dataclasses import replace

from adjudication.board import Board, Dislodged, RequestError
from adjudication.movement import Movement as _Core
from adjudication.orders import MOVE, SUPPORT, Order, OrderError
from adjudication.reasons import UNIT_IS, listed, no_number
from adjudication.registry import Rule
from adjudication.variant import Variant, province_of

from .words import gettext_noop

FLAG = "ocean"


def allows_stacking(variant: Variant, province: str) -> bool:
    return FLAG in variant.provinces[province].flags


def may_retreat_to_attacker(variant: Variant, dislodged: Dislodged, province: str) -> bool:
    return allows_stacking(variant, province)


class Movement(_Core):
    """Oceans in the resolver: stacking, sure moves in, uncut supports, no dislodging."""

    def ocean(self, province: str | None) -> bool:
        return province is not None and province in self.variant.stacking

    def units_in(self, province: str) -> list[int]:
        return [i for i, p in enumerate(self.prov) if p == province]

    def unit_for(self, power: str, order: Order) -> int:
        province = province_of(order.location)
        if not self.ocean(province):
            return super().unit_for(power, order)
        here = self.units_in(province)
        mine = [i for i in here if self.power[i] == power]
        owners = sorted({self.power[i] for i in here})
        if not mine and len(owners) > 1:  # every power whose units are there, not the first
            raise OrderError(
                "the units in {province} belong to {owners}, not {power}",
                province=province,
                owners=listed(owners),
                power=power,
            )
        if not mine:
            return super().unit_for(power, order)  # says whose units are there
        if order.unit and order.unit != self.units[mine[0]].kind:  # all alike: fleets at sea
            raise OrderError(UNIT_IS[self.units[mine[0]].kind], province=province)
        if order.number is not None:
            i = self.numbered(power, province, order.number)
            if self.order[i] is not None:
                raise OrderError(
                    "{unit} already has an order",
                    unit=f"{self.units[i].kind}{order.number} {province}",
                )
            return i
        free = [i for i in mine if self.order[i] is None]
        if (
            order.kind == SUPPORT
            and order.target_number is not None
            and order.target_power in (None, power)
            and order.target is not None
            and province_of(order.target) == province
        ):  # "F Mid-Pacific S F1 Mid-Pacific - Guam": another of the power's fleets supports
            supported = self.numbered(power, province, order.target_number)
            free = [i for i in free if i != supported] or free
        if not free:
            if self.units[mine[0]].kind == "F":
                raise OrderError(
                    "every unit of {power} in {province} already has an order",
                    power=power,
                    province=province,
                )
            raise OrderError(
                "every army of {power} in {province} already has an order",
                power=power,
                province=province,
            )
        return free[0]

    def numbered(self, power: str, province: str, number: int) -> int:
        """A power's unit number ``number`` in a shared space: its units there count from 1 in
        the order the position lists them."""
        theirs = [i for i in self.units_in(province) if self.power[i] == power]
        if not 1 <= number <= len(theirs):
            raise OrderError(no_number(power, len(theirs), province, number))
        return theirs[number - 1]

    def whose(self, s: int, order: Order, province: str) -> tuple[str, bool]:
        """Whose unit in a shared space support s names, and whether the canonical order must
        say so (units of several powers stand there, the supporter's own counted). A number
        without a power counts the supporter's own units; without either, the units the
        support could be for (any there but the supporter) must be one power's: a fleet alone
        in an ocean with a foreign one supports that one, and its canonical order names whose
        it is (``F Mid-Pacific Ocean S Australia F Mid-Pacific Ocean - Guam``)."""
        here = self.units_in(province)
        others = [j for j in here if j != s]
        powers = sorted({self.power[j] for j in others})
        power = order.target_power
        if power is None and order.target_number is not None:
            power = self.power[s]
        if power is None:
            if len(powers) > 1:
                kind = self.units[others[0]].kind
                raise OrderError(
                    "{province} holds units of {powers}: say whose, e.g. '{example}'",
                    province=province,
                    powers=listed(powers),
                    example=f"S {powers[0]} {kind} {province}",
                )
            power = powers[0] if powers else self.power[s]
            return power, any(self.power[j] != power for j in here)
        if order.target_number is not None:
            if self.numbered(power, province, order.target_number) == s:
                unit = self.units[s]  # named as the order numbers it (F1 North Pacific Ocean)
                label = f"{unit.kind}{order.number} {unit.location}" if order.number else None
                raise OrderError("{unit} cannot support itself", unit=label or unit.label())
        elif power not in powers:
            raise OrderError(
                "{power} has no unit in {province} to support", power=power, province=province
            )
        return power, len(powers) > 1 or order.target_power is not None

    def check_support(self, i: int, order: Order) -> Order | None:
        unit = self.units[i]
        target = province_of(order.target)
        if not self.ocean(target):
            return super().check_support(i, order)
        power, named = self.whose(i, order, target)
        whose = {
            "target_power": power if named else None,
            "target_number": order.target_number,
        }
        if target != unit.province:
            legal = super().check_support(i, order)
            return replace(legal, canonical=None, data=None, **whose)
        if len(self.units_in(target)) < 2:
            raise OrderError("there is no other unit in {province} to support", province=target)
        if order.target_unit and order.target_unit != unit.kind:  # units of one kind there
            raise OrderError(UNIT_IS[unit.kind], province=target)
        if order.destination is None:
            raise OrderError("a unit in an ocean cannot be dislodged: it needs no hold support")
        dest = province_of(order.destination)
        if not self.can_reach(i, dest):
            raise OrderError(
                "the units in {province} cannot move to {destination}",
                province=target,
                destination=dest,
            )
        dest = order.destination if "/" in order.destination else dest
        return Order(SUPPORT, unit.kind, unit.location, unit.kind, target, dest, **whose)

    def support_target(self, s: int, order: Order) -> int:
        """The unit support s names: the one of the named power doing what the support says
        (its units there are alike but for their orders), the numbered one first.

        A number is a label, not a particular fleet (rule 6.7: "These numbers do not designate
        specific Fleets"): another power cannot know which of a power's fleets that power's
        own orders call F2, nor whether they number them at all. So ``S Australia F2
        Mid-Pacific - Guam`` supports whichever Australian fleet there moves to Guam; only when
        none does is it the numbered fleet, whose orders the reason then names."""
        province = province_of(order.target)
        if not self.ocean(province):
            return super().support_target(s, order)
        power = order.target_power or self.whose(s, order, province)[0]
        candidates = [i for i in self.units_in(province) if i != s and self.power[i] == power]
        if order.target_number is not None:
            named = self.numbered(power, province, order.target_number)
            candidates = [named, *(i for i in candidates if i != named)]
        for t in candidates:
            if self.does_as_supported(t, order):
                return t
        return candidates[0]

    def does_as_supported(self, t: int, order: Order) -> bool:
        """Whether unit t does what support ``order`` says: holds for a hold support, moves
        to the support's destination for a support of a move."""
        if order.destination is None:
            return self.kind[t] != MOVE
        return self.kind[t] == MOVE and order.destination in (
            self.dest[t],
            self.order[t].destination,
        )

    def occupant(self, province: str) -> int | None:
        return None if self.ocean(province) else super().occupant(province)

    def is_head_to_head(self, i: int, j: int) -> bool:
        if self.ocean(self.prov[i]) or self.ocean(self.prov[j]):
            return False  # rule 6.3: fleets exchange freely through an ocean
        return super().is_head_to_head(i, j)

    def adjudicate_move(self, i: int) -> bool:
        if self.ocean(self.dest[i]):
            return True  # rule 6.2
        return super().adjudicate_move(i)

    def adjudicate_support(self, s: int) -> bool:
        if self.ocean(self.prov[s]):
            return True  # rule 6.5: never cut
        return super().adjudicate_support(s)

    def adjudicate_stays(self, j: int) -> bool:
        if self.ocean(self.prov[j]):
            return True  # rule 6.1: never dislodged
        return super().adjudicate_stays(j)

    def can_be_dislodged(self, j: int) -> bool:
        return not self.ocean(self.prov[j]) and super().can_be_dislodged(j)


class Oceans(Rule):
    """The rule object the engine calls: the hooks are this module's functions above."""

    name = "oceans"
    title = "Oceans"
    summary = gettext_noop(
        "Oceans hold any number of fleets (armies never stand there), and no fleet can be "
        "dislodged there."
    )
    Movement = Movement
    allows_stacking = staticmethod(allows_stacking)
    may_retreat_to_attacker = staticmethod(may_retreat_to_attacker)

    def read_request(self, board: Board, request: dict) -> None:
        """A retreat phase with a unit dislodged from an ocean is no position a movement phase
        makes (rule 6.1: no fleet can be dislodged from an ocean space): a malformed request,
        refused, rather than the fleet sent to retreat."""
        for d in board.dislodged:
            if allows_stacking(board.variant, d.unit.province):
                raise RequestError(
                    f"{d.unit.label()} cannot be dislodged: no unit is dislodged from an ocean",
                    [d.unit.as_json()],
                )


RULE = Oceans()
