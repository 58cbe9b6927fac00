"""The Suez Canal (Colonial Diplomacy rule 7).

The power whose unit stands in Egypt when the turn starts may give one extra order,
``Suez permit F Mediterranean Sea`` (or ``F Red Sea``). That fleet may then move straight to
the sea at the other end of the canal, in that direction only. The permission stands even if
the unit in Egypt leaves or is dislodged during the turn. The canal is a passage for that one
move: nobody supports or convoys through it.
"""

from __future__ import annotations

from adjudication.movement import Movement as _Core
from adjudication.orders import SPECIAL, Order, OrderError
from adjudication.variant import Variant, province_of


def _canal(variant: Variant) -> tuple[tuple[str, str], str]:
    data = variant.rule_data["suez_canal"]
    return tuple(data["connects"]), data["controlled_from"]


def parse_order(variant: Variant, tokens: list[str], phase_type: str) -> Order | None:
    """``Suez permit F Mediterranean Sea``: the permit names the fleet's sea."""
    if not tokens or tokens[0] != "suez":
        return None
    if phase_type != "movement":
        raise OrderError("a Suez permit is given in a movement phase")
    words = tokens[1:]
    if words and words[0] in ("permit", "permits", "permission", "allow", "allows"):
        words = words[1:]
    if words and words[0] in ("f", "fleet"):
        words = words[1:]
    sea = variant.lookup(" ".join(words)) if words else None
    ends, _ = _canal(variant)
    if sea not in ends:
        raise OrderError(f"a Suez permit names the fleet in {ends[0]} or {ends[1]}")
    return Order(SPECIAL, "F", sea, extra=("Suez permit F", sea))


class Movement(_Core):
    """Adds the permit order and the one permitted passage through the canal."""

    def add_special(self, power: str, order: Order) -> Order:
        if order.extra[:1] != ("Suez permit F",):
            return super().add_special(power, order)
        ends, gate = _canal(self.variant)
        keeper = self.unit_at.get(gate)
        if keeper is None or self.units[keeper].power != power:
            raise OrderError(f"only the power with a unit in {gate} may open the Suez Canal")
        if getattr(self, "suez_permit", None) is not None:
            raise OrderError("the Suez Canal is already open to a fleet this turn")
        sea = order.location
        fleet = self.unit_at.get(sea)
        if fleet is None or self.units[fleet].kind != "F":
            raise OrderError(f"there is no fleet in the {sea} to let through")
        self.suez_permit = fleet
        return order

    def _canal_move(self, i: int, dest: str) -> bool:
        """Whether unit i moving to dest is the permitted passage through the canal."""
        ends, _ = _canal(self.variant)
        if getattr(self, "suez_permit", None) != i:
            return False
        here = self.units[i].province
        return here in ends and province_of(dest) in ends and province_of(dest) != here

    def check_move(self, i: int, order: Order) -> Order | None:
        unit = self.units[i]
        ends, gate = _canal(self.variant)
        dest = province_of(order.destination)
        if unit.kind == "F" and unit.province in ends and dest in ends and dest != unit.province:
            if self._canal_move(i, dest):
                return Order("move", "F", unit.location, destination=dest)
            if self.unit_at.get(gate) is None:
                raise OrderError(f"the Suez Canal is closed: there is no unit in {gate}")
            raise OrderError(f"the fleet in the {unit.province} has no Suez permit this turn")
        return super().check_move(i, order)

    def target_could_move(self, t: int, dprov: str) -> bool:
        return self._canal_move(t, dprov) or super().target_could_move(t, dprov)
