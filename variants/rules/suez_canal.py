"""The Suez Canal (Colonial Diplomacy rule 7).

The power whose unit stands in Egypt when the turn starts may give one extra order,
``Suez permit F Mediterranean Sea`` (or ``F Red Sea``). That fleet may then move straight to
the sea at the other end of the canal, in that direction only. The permission stands even if
the unit in Egypt leaves or is dislodged during the turn. The canal is a passage for that one
move: nobody supports or convoys through it.
"""

from __future__ import annotations

from adjudication.movement import Movement as _Core
from adjudication.orders import MOVE, ORDER_WORDS, SPECIAL, Order, OrderError
from adjudication.reasons import why
from adjudication.registry import Rule
from adjudication.variant import Variant, normalise, province_of

from .words import gettext_noop


def _canal(variant: Variant) -> tuple[tuple[str, str], str]:
    data = variant.rule_data["suez_canal"]
    return tuple(data["connects"]), data["controlled_from"]


_PERMIT_WORDS = ("permit", "permits", "permission", "allow", "allows")
_BEFORE_THE_SEA = (("canal",), (":",), _PERMIT_WORDS, (":",), ("f", "fleet"))


def parse_order(variant: Variant, tokens: list[str], phase_type: str) -> Order | None:
    """``Suez permit F Mediterranean Sea``: the permit names the fleet's sea."""
    if not tokens or tokens[0] != "suez":
        return None
    if phase_type != "movement":
        raise OrderError("a Suez permit is given in a movement phase")
    words = tokens[1:]
    # Each of these words in turn, where it is: "Suez Canal permit F Med" (the rule's own
    # name), "Suez: permit F Med", "Suez permit: F the Red Sea".
    for optional in _BEFORE_THE_SEA:
        if words and words[0] in optional:
            words = words[1:]
    if len(words) > 1 and words[0] == "the" and "the" not in variant.name_starts:
        words = words[1:]  # "the" before a name, as in any order
    sea = variant.lookup(" ".join(words)) if words else None
    ends, _ = _canal(variant)
    if sea not in ends:
        _misworded(variant, words, ends)
        raise OrderError(
            "a Suez permit names the fleet in {one} or {other}", one=ends[0], other=ends[1]
        )
    return Order(SPECIAL, "F", sea, extra=("Suez permit F", sea))


def _misworded(variant: Variant, words: list[str], ends: tuple[str, ...]) -> None:
    """A permit whose words after ``Suez permit`` are not a fleet's sea at the canal: refused
    for what they are (an army, another order's words after the sea, a space away from the
    canal), so that the reason never names the sea the player did write as missing. Only on
    the way to an error; returns when the words name no space at all."""
    power = None
    for size in (1, 2):  # a power's name before the fleet (``Suez permit Turkey F Med``)
        power = variant.power_names.get("".join(words[:size])) if len(words) > size else None
        if power is not None:
            words = words[size:]
            break
    army = bool(words) and words[0] in ("a", "army")
    if army or (power is not None and words and words[0] in ("f", "fleet")):
        words = words[1:]
    # The longest words from the start that name a space, and what follows them.
    place, rest = None, []
    for k in range(len(words), 0, -1):
        place = variant.lookup(" ".join(words[:k]))
        if place is not None:
            rest = words[k:]
            break
    if place is None:
        # The first words of a sea's name at the canal (``Mediterranean``), as other orders
        # refuse a name cut short: with the name meant.
        typed, key = " ".join(words), normalise(" ".join(words))
        meant = [end for end in ends if key and normalise(end).startswith(key)]
        if len(key) > 2 and len(meant) == 1 and key != normalise(meant[0]):
            raise OrderError(
                "'{typed}' is not a full name: did you mean {province}?",
                typed=typed,
                province=meant[0],
            )
        return
    if place not in ends:
        raise OrderError(
            "{province} is at neither end of the Suez Canal: a permit names the fleet in "
            "{one} or {other}",
            province=place,
            one=ends[0],
            other=ends[1],
        )
    order = f"Suez permit F {place}"
    if power is not None:
        raise OrderError(
            "a Suez permit names only the fleet's sea, not its power ({power}): write '{order}'",
            power=power,
            order=order,
        )
    if army:
        raise OrderError("only a fleet passes the Suez Canal: write '{order}'", order=order)
    if rest and (normalise(rest[0]) or rest[0]) not in ORDER_WORDS:
        return  # more words of a name (``MED ITERRANEAN``): no space is named, as written
    raise OrderError(
        "a Suez permit names only the fleet it lets through, not '{typed}': write '{order}'",
        typed=" ".join(rest),
        order=order,
    )


def order_form(order: Order) -> str:
    """The permit is this rule's one order of its own."""
    return "permit"


def one_a_turn(order: Order) -> str | None:
    """A canal permit: Egypt's holder may open the canal to one fleet a turn."""
    if order.kind == SPECIAL and order.extra[:1] == ("Suez permit F",):
        return why("the Suez Canal opens to one fleet a turn")
    return None


class Movement(_Core):
    """Adds the permit order and the one permitted passage through the canal.

    A canal move is refused when sent only if nobody stands in Egypt (nobody could permit
    it). Whether the permit was given is another power's order, so it is judged with all the
    orders together: without it the move fails and the fleet stays, like a convoyed army
    whose fleets did not convoy it.
    """

    suez_permit: int | None = None  # the fleet let through this turn
    no_passage: frozenset[int] | set[int] = frozenset()  # canal moves without the permit

    def add_special(self, power: str, order: Order) -> Order:
        if order.extra[:1] != ("Suez permit F",):
            return super().add_special(power, order)
        ends, gate = _canal(self.variant)
        keeper = self.unit_at.get(gate)
        if keeper is None or self.units[keeper].power != power:
            raise OrderError(
                "only the power with a unit in {gate} may open the Suez Canal", gate=gate
            )
        sea = order.location
        fleet = self.unit_at.get(sea)
        if self.suez_permit is not None:
            if self.suez_permit == fleet:
                raise OrderError("the same permit was given before: the first is taken")
            raise OrderError("the Suez Canal is already open to a fleet this turn")
        if fleet is None or self.units[fleet].kind != "F":
            raise OrderError("there is no fleet in the {sea} to let through", sea=sea)
        self.suez_permit = fleet
        return order

    def through_canal(self, i: int, dprov: str) -> bool:
        """Whether unit i going to ``dprov`` would pass the canal, and someone could let it:
        a fleet at one end going to the other, with a unit in Egypt. Map and position only."""
        ends, gate = _canal(self.variant)
        unit = self.units[i]
        return (
            unit.kind == "F"
            and unit.province in ends
            and dprov in ends
            and dprov != unit.province
            and gate in self.unit_at
        )

    def check_move(self, i: int, order: Order) -> Order | None:
        unit = self.units[i]
        ends, gate = _canal(self.variant)
        dest = province_of(order.destination)
        # Only a plain move passes the canal: one "via" anything is read as written (and
        # refused for it: no such route, only armies are convoyed) by the checks behind.
        if (
            order.via is None
            and unit.kind == "F"
            and unit.province in ends
            and dest in ends
            and dest != unit.province
        ):
            if not self.through_canal(i, dest):
                raise OrderError("the Suez Canal is closed: there is no unit in {gate}", gate=gate)
            return Order(MOVE, "F", unit.location, destination=dest)
        return super().check_move(i, order)

    def target_could_move(self, t: int, dprov: str) -> bool:
        return self.through_canal(t, dprov) or super().target_could_move(t, dprov)

    def check_support(self, i: int, order: Order) -> Order | None:
        """A fleet at one end supporting into the other is refused as before, with the rule's
        reason: "it could not move there" read as wrong beside a permit for that very fleet."""
        try:
            return super().check_support(i, order)
        except OrderError as refused:
            unit = self.units[i]
            ends, _ = _canal(self.variant)
            into = refused.reason.args.get("tprov") or refused.reason.args.get("dprov")
            if (
                refused.reason.template.endswith(": it could not move there")
                and unit.kind == "F"
                and unit.province in ends
                and into in ends
            ):
                raise OrderError(
                    "{unit} cannot support into {sea}: the Suez Canal carries a permitted "
                    "fleet's own move and nothing else",
                    unit=unit.label(),
                    sea=into,
                ) from None
            raise

    def prepare(self) -> None:
        super().prepare()
        ends, _ = _canal(self.variant)
        shut = set()
        for end in ends:
            i = self.unit_at.get(end)
            if i is None or i == self.suez_permit or self.kind[i] != MOVE:
                continue
            if self.dest[i] in ends and self.dest[i] != self.prov[i]:
                shut.add(i)
                j = self.h2h[i]
                if j is not None:  # it never leaves: nobody meets it head to head
                    self.h2h[i] = self.h2h[j] = None
        if shut:
            self.no_passage = shut

    def path_ok(self, i: int) -> bool:
        return i not in self.no_passage and super().path_ok(i)

    def no_route_reason(self, i: int) -> str:
        if i not in self.no_passage:
            return super().no_route_reason(i)
        unit = self.units[i].label()
        if self.suez_permit is None:
            return why("no Suez permit for {unit} this turn", unit=unit)
        return why(
            "no Suez permit for {unit} this turn (the permit is for {permitted})",
            unit=unit,
            permitted=self.units[self.suez_permit].label(),
        )

    def needs(self, i: int) -> str | None:
        if i < len(self.units) and i in self.no_passage:
            _, gate = _canal(self.variant)
            keeper = self.units[self.unit_at[gate]].power
            label = self.units[i].label()
            return why(
                "a Suez permit for {unit} from {power}, whose unit is in {gate}",
                unit=label,
                power=keeper,
                gate=gate,
            )
        return super().needs(i)


# -- options ----------------------------------------------------------------------------------


def extra_reach(board, unit) -> set[str]:
    """The far end of the canal, for a fleet at one end (whether it may pass is the check's)."""
    ends, _ = _canal(board.variant)
    if unit.kind != "F" or unit.province not in ends:
        return set()
    return set(ends) - {unit.province}


def option_orders(board, power: str) -> list[str]:
    """The canal passages of the power's fleets and, from Egypt's holder, the permits."""
    if board.phase_type != "movement":
        return []
    ends, gate = _canal(board.variant)
    out = [
        f"F {u.location} - {dest}"
        for u in board.units
        if u.power == power and u.kind == "F" and u.province in ends
        for dest in ends
        if dest != u.province
    ]
    if any(u.power == power and u.province == gate for u in board.units):
        out += [
            f"Suez permit F {u.location}"
            for u in board.units
            if u.kind == "F" and u.province in ends
        ]
    return out


class SuezCanal(Rule):
    """The rule object the engine calls: the hooks are this module's functions above."""

    name = "suez_canal"
    title = "The Suez Canal"
    summary = gettext_noop(
        "The Suez Canal: the power whose unit stands in Egypt when the turn begins may add one "
        "order, “Suez permit F Mediterranean Sea” (or “F Red Sea”). That fleet, of any power, "
        "may then move straight to the sea at the other end. The board shows the permission "
        "as a blue arrow."
    )
    Movement = Movement
    parse_order = staticmethod(parse_order)
    order_form = staticmethod(order_form)
    one_a_turn = staticmethod(one_a_turn)
    extra_reach = staticmethod(extra_reach)
    option_orders = staticmethod(option_orders)


RULE = SuezCanal()
