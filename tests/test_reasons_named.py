"""A refused order is answered with what is wrong with what the player typed: its reason names
the real cause (never an order word or a dash read as a province), and its canonical text
echoes the order as it was read, so that the echo, sent again, is refused again."""

from __future__ import annotations

import pytest

from adjudication import adjudicate, check

YEARS = {"standard": 1901, "colonial": 1870, "far-east": 1991, "chinese": 1912}
MID = "Mid-Pacific Ocean"


def request(variant, units, orders, phase="movement", season=None, **extra):
    season = season or ("year" if variant == "chinese" else "spring")
    body = {
        "variant": variant,
        "phase": {"season": season, "year": YEARS[variant], "type": phase},
        "units": [{"power": p, "unit": u, "location": loc} for p, u, loc in units],
        "orders": [{"power": p, "order": o} for p, o in orders],
    }
    if variant == "chinese":
        body.update(random_seed=11, faction_orders=[])
    body.update(extra)
    return body


def answer(variant, units, power, text, **extra):
    """The one order's reply, checked alone."""
    reply = check(request(variant, units, [(power, text)], **extra))
    assert "error" not in reply, reply
    return reply["orders"][0]


# -- the echo of a refused order ---------------------------------------------------------------

DISLODGED_MUNICH = {
    "phase": "retreats",
    "dislodged": [
        {"power": "France", "unit": "A", "location": "Munich", "attacker_from": "Berlin"}
    ],
}
REFUSED = [
    # variant, units, power, text, canonical, extra
    ("standard", [("France", "A", "Brest")], "France", "F Bre - Pic", "F Brest - Picardy", {}),
    ("standard", [("France", "F", "Brest")], "France", "A Bre - Pic", "A Brest - Picardy", {}),
    (
        "standard",
        [("England", "A", "Brest"), ("England", "F", "English Channel")],
        "England",
        "F Eng C France A Bre - Lon",
        "F English Channel C France A Brest - London",
        {},
    ),
    (
        "colonial",
        [("Russia", "A", "Moscow")],
        "Russia",
        "F Mos - Vla via TSR",
        "F Moscow - Vladivostok via TSR",
        {},
    ),
    (
        "standard",
        [("Germany", "A", "Berlin")],
        "France",
        "F Mun R Bur",
        "F Munich R Burgundy",
        DISLODGED_MUNICH,
    ),
    (
        "standard",
        [("Germany", "A", "Berlin")],
        "France",
        "Disband F Mun",
        "F Munich D",
        DISLODGED_MUNICH,
    ),
    (
        "far-east",
        [("Japan", "F", MID), ("Japan", "F", MID)],
        "Japan",
        "A2 Mid-Pacific - Guam",
        f"A2 {MID} - Guam",
        {},
    ),
]


@pytest.mark.parametrize(("variant", "units", "power", "text", "canonical", "extra"), REFUSED)
def test_a_refused_order_echoes_the_unit_as_written_and_its_echo_is_refused_again(
    variant, units, power, text, canonical, extra
):
    """``F Bre - Pic`` with an army in Brest was echoed ``A Brest - Picardy``: the server
    stores the echo and sends it at the deadline, where the army moved."""
    first = answer(variant, units, power, text, **extra)
    assert first["result"] == "invalid", first
    assert first["canonical"] == canonical
    again = answer(variant, units, power, first["canonical"], **extra)
    assert again["result"] == "invalid", again
    assert again["reason"] == first["reason"]
    judged = adjudicate(request(variant, units, [(power, first["canonical"])], **extra))
    assert judged["orders"][0]["result"] == "invalid", judged["orders"][0]


def test_a_refused_order_without_its_unit_kind_is_echoed_with_the_unit_there():
    """Where the player wrote no kind, the echo names the unit standing there, as before."""
    reply = answer("standard", [("France", "A", "Brest")], "France", "Bre - Mun")
    assert reply["result"] == "invalid"
    assert reply["canonical"] == "A Brest - Munich"
