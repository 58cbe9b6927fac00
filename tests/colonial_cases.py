"""Helpers for the Colonial Diplomacy rule tests (tests/test_colonial.py).

Requests are built in the notation of /work/shared/CONTRACT.md and sent to the engine only
through ``adjudication.adjudicate``. Units are written ``"Russia A Moscow"`` and orders
``"Russia: A Moscow - Vladivostok via TSR"``; a reply is looked up by the order text after the
colon, exactly as written.
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudication import adjudicate

VARIANT = "colonial"


def unit_entry(text: str) -> dict:
    power, kind, location = text.split(" ", 2)
    return {"power": power, "unit": kind, "location": location}


def order_entry(text: str) -> dict:
    power, order = text.split(": ", 1)
    return {"power": power, "order": order}


def request(
    units: list[str],
    orders: list[str],
    *,
    season: str = "spring",
    year: int = 1870,
    kind: str = "movement",
    supply_centers: dict | None = None,
    options: dict | None = None,
    dislodged: list[dict] | None = None,
) -> dict:
    req: dict = {
        "variant": VARIANT,
        "phase": {"season": season, "year": year, "type": kind},
        "units": [unit_entry(u) for u in units],
        "orders": [order_entry(o) for o in orders],
    }
    if supply_centers is not None:
        req["supply_centers"] = supply_centers
    if options is not None:
        req["options"] = options
    if dislodged is not None:
        req["dislodged"] = dislodged
    return req


@dataclass
class Judged:
    request: dict
    response: dict

    def __post_init__(self) -> None:
        assert "error" not in self.response, self.response

    def reply(self, order: str) -> dict:
        """The reply to the order whose text (after ``Power: ``) is ``order``."""
        found = [o for o in self.response["orders"] if o["order"] == order]
        assert len(found) == 1, (order, self.response["orders"])
        return found[0]

    def result(self, order: str) -> str:
        return self.reply(order)["result"]

    def reason(self, order: str) -> str:
        return self.reply(order).get("reason") or ""

    @property
    def units(self) -> set[str]:
        return {f"{u['power']} {u['unit']} {u['location']}" for u in self.response["units"]}

    @property
    def dislodged(self) -> dict[str, dict]:
        """Dislodged units by ``"Power K Location"``."""
        return {f"{d['power']} {d['unit']} {d['location']}": d for d in self.response["dislodged"]}

    def centres(self, power: str) -> set[str]:
        return set(self.response["supply_centers"].get(power, []))

    @property
    def owned(self) -> set[str]:
        return {c for cs in self.response["supply_centers"].values() for c in cs}

    @property
    def winner(self):
        return self.response["winner"]

    def explain(self) -> str:
        return repr(self.response["orders"])

    # --- railroad checks -------------------------------------------------------------------

    def assert_succeeds(self, order: str) -> None:
        assert self.result(order) == "succeeds", self.explain()

    def assert_fails(self, order: str, mention: str | None = None) -> None:
        assert self.result(order) == "fails", self.explain()
        if mention is not None:
            assert mention.lower() in self.reason(order).lower(), self.explain()

    def assert_invalid(self, order: str, *mentions: str) -> None:
        assert self.result(order) == "invalid", self.explain()
        reason = self.reason(order)
        assert reason, self.explain()
        if mentions:
            low = reason.lower()
            assert any(m.lower() in low for m in mentions), self.explain()

    def assert_stopped(self, order: str, at: str, block: str | None = None) -> None:
        reply = self.reply(order)
        assert reply["result"] == "stopped", self.explain()
        assert reply.get("stopped_at") == at, self.explain()
        if block is not None:
            assert block.lower() in (reply.get("reason") or "").lower(), self.explain()

    def assert_back_at_origin(self, order: str, origin: str) -> None:
        """A railroad move that ends where it started (queued all the way back).

        The contract says ``fails`` when the army cannot leave its origin; an engine that
        reports ``stopped`` with ``stopped_at`` equal to the origin is accepted too.
        """
        reply = self.reply(order)
        if reply["result"] == "stopped":
            assert reply.get("stopped_at") == origin, self.explain()
        else:
            assert reply["result"] == "fails", self.explain()


def judge(units: list[str], orders: list[str], **kw) -> Judged:
    req = request(units, orders, **kw)
    return Judged(req, adjudicate(req))
