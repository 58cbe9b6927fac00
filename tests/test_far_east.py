"""Far East I-R (seed 002): oceans (rules 6.1-6.7), land bridges (rule 8), calendar and builds."""

from __future__ import annotations

import pytest

import adjudication
from adjudication import adjudicate, load


def judge(units, orders, phase=None, **extra):
    body = {
        "variant": "far-east",
        "phase": phase or {"season": "spring", "year": 1991, "type": "movement"},
        "units": [{"power": p, "unit": u, "location": loc} for p, u, loc in units],
        "orders": [{"power": p, "order": o} for p, o in orders],
    }
    body.update(extra)
    response = adjudicate(body)
    assert "error" not in response, response
    return response


def results(response):
    return [(o["canonical"] or o["order"], o["result"]) for o in response["orders"]]


def where(response, power):
    return sorted(u["location"] for u in response["units"] if u["power"] == power)


def test_variant_calendar_and_victory():
    v = load("far-east")
    assert (v.start_year, v.seasons, v.victory_centers) == (1991, ("spring", "fall"), 15)
    assert len(v.centres) == 28
    assert {p for p in v.provinces if "ocean" in v.provinces[p].flags} == {
        "North Pacific Ocean",
        "Mid-Pacific Ocean",
        "South Pacific Ocean",
        "Indian Ocean",
    }


def test_6_1_any_number_of_fleets_share_an_ocean_and_none_is_dislodged():
    units = [("Japan", "F", "North Pacific Ocean"), ("Australia", "F", "North Pacific Ocean")]
    units += [("China", "F", "North Pacific Ocean"), ("Japan", "F", "Tokyo")]
    units += [("Japan", "F", "Sapporo")]
    orders = [
        ("Japan", "F Tokyo - North Pacific"),
        ("Japan", "F Sapporo S F Tokyo - North Pacific"),
    ]
    r = judge(units, orders)
    assert r["dislodged"] == []
    in_ocean = [u["power"] for u in r["units"] if u["location"] == "North Pacific Ocean"]
    assert sorted(in_ocean) == ["Australia", "China", "Japan", "Japan"]


def test_6_2_a_move_into_an_ocean_always_succeeds():
    # Three fleets from three sides into the Mid-Pacific: all arrive, no standoff.
    units = [("Japan", "F", "Guam"), ("Australia", "F", "New Guinea")]
    units += [("China", "F", "Philippine Sea")]
    orders = [
        ("Japan", "F Guam - Mid-Pacific"),
        ("Australia", "F New Guinea - Mid-Pacific"),
        ("China", "F Philippine Sea - Mid-Pacific"),
    ]
    r = judge(units, orders)
    assert all(result == "succeeds" for _, result in results(r))
    assert r["contested"] == []


def test_6_3_fleets_exchange_through_oceans():
    # Seed: JAPAN F North Pacific - Mid-Pacific, AUSTRALIA F Mid-Pacific - North Pacific.
    r = judge(
        [("Japan", "F", "North Pacific Ocean"), ("Australia", "F", "Mid-Pacific Ocean")],
        [
            ("Japan", "F North Pacific - Mid-Pacific"),
            ("Australia", "F Mid-Pacific - North Pacific"),
        ],
    )
    assert where(r, "Japan") == ["Mid-Pacific Ocean"]
    assert where(r, "Australia") == ["North Pacific Ocean"]
    # The same between a coast and an ocean: New Guinea borders the Mid-Pacific as well.
    r = judge(
        [("Indonesia", "F", "New Guinea"), ("Australia", "F", "Mid-Pacific Ocean")],
        [("Indonesia", "F New Guinea - Mid-Pacific"), ("Australia", "F Mid-Pacific - New Guinea")],
    )
    assert where(r, "Indonesia") == ["Mid-Pacific Ocean"]
    assert where(r, "Australia") == ["New Guinea"]


SEED_6_3_UNITS = [("Indonesia", "F", "New Guinea"), ("Australia", "F", "South Pacific Ocean")]
# Rule 6.3's second example, written as the seed prints it (with its en dashes).
SEED_6_3_ORDERS = [
    ("Indonesia", "F New Guinea \u2013 South Pacific"),
    ("Australia", "F South Pacific \u2013 New Guinea"),
]


def test_6_3_seed_example_new_guinea_and_the_south_pacific_exchange():
    r = judge(SEED_6_3_UNITS, SEED_6_3_ORDERS)
    assert results(r) == [
        ("F New Guinea - South Pacific Ocean", "succeeds"),
        ("F South Pacific Ocean - New Guinea", "succeeds"),
    ]
    assert where(r, "Indonesia") == ["South Pacific Ocean"]
    assert where(r, "Australia") == ["New Guinea"]
    assert r["dislodged"] == [] and r["contested"] == []


def test_6_3_with_6_4_the_fleet_leaving_the_ocean_can_still_be_stood_off():
    # A third fleet entering New Guinea with equal strength stands Australia off (rule 6.4);
    # the exchange does not help it, while Indonesia still reaches the ocean (rule 6.2).
    units = [*SEED_6_3_UNITS, ("China", "F", "Coral Sea")]
    orders = [*SEED_6_3_ORDERS, ("China", "F Coral Sea - New Guinea")]
    r = judge(units, orders)
    assert [result for _, result in results(r)] == ["succeeds", "fails", "fails"]
    assert where(r, "Indonesia") == ["South Pacific Ocean"]
    assert where(r, "Australia") == ["South Pacific Ocean"]
    assert r["contested"] == ["New Guinea"]


def test_6_4_example_1():
    """AUSTRALIA F (Mid-Pacific) - Guam; JAPAN F (Guam) - Mid-Pacific, F (North Pacific) - Guam.

    Guam's fleet reaches the ocean; the two fleets entering Guam stand off.
    """
    r = judge(
        [
            ("Australia", "F", "Mid-Pacific Ocean"),
            ("Japan", "F", "Guam"),
            ("Japan", "F", "North Pacific Ocean"),
        ],
        [
            ("Australia", "F Mid-Pacific - Guam"),
            ("Japan", "F Guam - Mid-Pacific"),
            ("Japan", "F North Pacific - Guam"),
        ],
    )
    assert results(r) == [
        ("F Mid-Pacific Ocean - Guam", "fails"),
        ("F Guam - Mid-Pacific Ocean", "succeeds"),
        ("F North Pacific Ocean - Guam", "fails"),
    ]
    assert where(r, "Japan") == ["Mid-Pacific Ocean", "North Pacific Ocean"]
    assert where(r, "Australia") == ["Mid-Pacific Ocean"]
    assert r["contested"] == ["Guam"]


def test_6_4_example_2():
    """AUSTRALIA F1 (Mid-Pacific) S F2 (Mid-Pacific) - Guam; F2 (Mid-Pacific) - Guam.

    JAPAN F (Guam) - Mid-Pacific, F (North Pacific) - Guam. The supported fleet takes Guam.
    """
    r = judge(
        [
            ("Australia", "F", "Mid-Pacific Ocean"),
            ("Australia", "F", "Mid-Pacific Ocean"),
            ("Japan", "F", "Guam"),
            ("Japan", "F", "North Pacific Ocean"),
        ],
        [
            ("Australia", "F1 Mid-Pacific S F2 Mid-Pacific - Guam"),
            ("Australia", "F2 Mid-Pacific - Guam"),
            ("Japan", "F Guam - Mid-Pacific"),
            ("Japan", "F North Pacific - Guam"),
        ],
    )
    assert [result for _, result in results(r)] == ["succeeds", "succeeds", "succeeds", "fails"]
    assert where(r, "Australia") == ["Guam", "Mid-Pacific Ocean"]
    assert where(r, "Japan") == ["Mid-Pacific Ocean", "North Pacific Ocean"]


def test_6_4_a_move_out_of_an_ocean_can_dislodge_with_support():
    r = judge(
        [
            ("Australia", "F", "Mid-Pacific Ocean"),
            ("Australia", "F", "Philippine Sea"),
            ("Japan", "F", "Guam"),
        ],
        [
            ("Australia", "F Mid-Pacific - Guam"),
            ("Australia", "F Philippine Sea S F Mid-Pacific - Guam"),
            ("Japan", "F Guam H"),
        ],
    )
    assert where(r, "Australia") == ["Guam", "Philippine Sea"]
    dislodged = r["dislodged"][0]
    assert (dislodged["location"], dislodged["attacker_from"]) == ("Guam", "Mid-Pacific Ocean")
    # 6.6: it may retreat into the ocean its attacker came from.
    assert "Mid-Pacific Ocean" in dislodged["retreats"]


def test_6_5_ocean_support_cannot_be_cut_and_ocean_fleets_convoy():
    units = [
        ("Australia", "F", "South Pacific Ocean"),
        ("Australia", "F", "Tasman Sea"),
        ("Japan", "F", "New Zealand"),
        ("China", "F", "Coral Sea"),
    ]
    orders = [
        ("Australia", "F Tasman Sea - New Zealand"),
        ("Australia", "F South Pacific S F Tasman Sea - New Zealand"),
        ("China", "F Coral Sea - South Pacific"),  # would cut an ordinary support
        ("Japan", "F New Zealand H"),
    ]
    r = judge(units, orders)
    assert r["orders"][1]["result"] == "succeeds"
    assert where(r, "Australia") == ["New Zealand", "South Pacific Ocean"]
    assert [d["location"] for d in r["dislodged"]] == ["New Zealand"]
    # A fleet in the Indian Ocean convoys an army from Perth to Sumatra.
    r = judge(
        [("Australia", "A", "Perth"), ("Australia", "F", "Indian Ocean")],
        [("Australia", "A Perth - Sumatra"), ("Australia", "F Indian Ocean C A Perth - Sumatra")],
    )
    assert where(r, "Australia") == ["Indian Ocean", "Sumatra"]


def test_6_5_support_to_another_fleet_in_the_same_ocean():
    r = judge(
        [
            ("Japan", "F", "North Pacific Ocean"),
            ("Japan", "F", "North Pacific Ocean"),
            ("China", "F", "Tokyo"),
        ],
        [
            ("Japan", "F North Pacific S F North Pacific - Tokyo"),
            ("Japan", "F North Pacific - Tokyo"),
        ],
    )
    assert where(r, "Japan") == ["North Pacific Ocean", "Tokyo"]
    assert r["dislodged"][0]["location"] == "Tokyo"


def test_6_5_an_unnumbered_supporter_of_fleet_2_leaves_it_to_the_move_in_either_order():
    """The numbers are labels only (6.7): ``S F2 ... - Java`` with ``F Indian Ocean - Java``
    means fleet 2 moves and the other supports, whichever line comes first."""
    fleets = [
        ("Indonesia", "F", "Indian Ocean"),
        ("Indonesia", "F", "Indian Ocean"),
        ("China", "F", "Java"),
    ]
    move, support = "F Indian Ocean - Java", "F Indian Ocean S F2 Indian Ocean - Java"
    for orders in ([move, support], [support, move]):
        r = judge(fleets, [("Indonesia", o) for o in orders])
        assert [o["result"] for o in r["orders"]] == ["succeeds", "succeeds"], r["orders"]
        assert [(d["location"], d["attacker_from"]) for d in r["dislodged"]] == [
            ("Java", "Indian Ocean")
        ]


def test_6_6_retreat_into_an_ocean_is_always_open():
    phase = {"season": "spring", "year": 1991, "type": "retreats"}
    r = judge(
        [("Japan", "F", "North Pacific Ocean"), ("Australia", "F", "Guam")],
        [("China", "F Guam R North Pacific")],
        phase=phase,
        dislodged=[
            {
                "power": "China",
                "unit": "F",
                "location": "Guam",
                "attacker_from": "North Pacific Ocean",
            }
        ],
    )
    assert r["orders"][0]["result"] == "succeeds"
    assert where(r, "China") == ["North Pacific Ocean"]


def test_6_7_numbered_fleets_need_not_be_numbered():
    r = judge(
        [("Japan", "F", "North Pacific Ocean"), ("Japan", "F", "North Pacific Ocean")],
        [("Japan", "F North Pacific - Guam"), ("Japan", "F North Pacific - Tokyo")],
    )
    assert where(r, "Japan") == ["Guam", "Tokyo"]
    r = judge(
        [("Japan", "F", "North Pacific Ocean")],
        [("Japan", "F1 North Pacific - Guam"), ("Japan", "F2 North Pacific - Tokyo")],
    )
    assert r["orders"][1]["result"] == "invalid"  # only one Japanese fleet there


@pytest.mark.parametrize(
    ("order", "reason"),
    [
        # Found by an adversary: F9999 was "no province called 'F9999'", F0 "no number 0",
        # F-1 "expected the unit's province, not '-'". Numbers count from 1 (rule 6.7: F1,
        # F2); one past the power's fleets there is refused by the board, in any number of
        # digits, and never read as another fleet.
        ("F9999 North Pacific - Guam",
         "Japan has 2 units in North Pacific Ocean, so there is no number 9999"),
        ("F3 North Pacific - Guam",
         "Japan has 2 units in North Pacific Ocean, so there is no number 3"),
        ("F0 North Pacific - Guam", "there is no unit F0: the units a power has in one space "
         "are numbered from 1 (F1, F2, ...)"),
        ("F-1 North Pacific - Guam", "there is no unit F-1: the units a power has in one space "
         "are numbered from 1 (F1, F2, ...)"),
        ("F1 North Pacific S F0 North Pacific - Guam", "there is no unit F0: the units a power "
         "has in one space are numbered from 1 (F1, F2, ...)"),
        ("F9999 Tokyo - Guam", "Tokyo holds one unit at most, so there is no number 9999 there"),
        ("F1 North Pacific S F9999 North Pacific - Guam",
         "Japan has 2 units in North Pacific Ocean, so there is no number 9999"),
    ],
)  # fmt: skip
def test_an_absurd_fleet_number_is_refused_saying_why(order, reason):
    units = [("Japan", "F", "North Pacific Ocean")] * 2 + [("Japan", "F", "Tokyo")]
    r = adjudication.check(
        {
            "variant": "far-east",
            "phase": {"season": "spring", "year": 1991, "type": "movement"},
            "units": [{"power": p, "unit": u, "location": loc} for p, u, loc in units],
            "orders": [{"power": "Japan", "order": order}],
        }
    )
    answer = r["orders"][0]
    assert (answer["result"], answer["reason"]) == ("invalid", reason)


def test_a_fleet_number_may_stand_apart():
    """``F 2 North Pacific``: the number written apart from its F is that fleet's number."""
    units = [("Japan", "F", "North Pacific Ocean")] * 2
    r = judge(units, [("Japan", "F 1 North Pacific - Guam"), ("Japan", "F 2 NPO - Tokyo")])
    assert [o["canonical"] for o in r["orders"]] == [
        "F1 North Pacific Ocean - Guam",
        "F2 North Pacific Ocean - Tokyo",
    ]
    assert where(r, "Japan") == ["Guam", "Tokyo"]


def test_orders_beyond_a_powers_fleets_in_an_ocean_are_the_last_written():
    """Two fleets, three orders: numbered orders were given their fleets first, so a
    numbered one written last took a fleet from an order written before it. The last
    written is refused, numbered or not, saying how many fleets there are; one the map
    refuses keeps its own reason; F2 twice is a second order for F2."""
    fleets = [("Australia", "F", "Mid-Pacific Ocean")] * 2
    only = "Australia has only 2 fleets in Mid-Pacific Ocean, and earlier orders command them all"
    for orders in (
        ["F Mid-Pacific H", "F Mid-Pacific - New Guinea", "F2 Mid-Pacific - Guam"],
        ["F2 Mid-Pacific - Guam", "F Mid-Pacific H", "F Mid-Pacific - New Guinea"],
        ["F Mid-Pacific S F1 Mid-Pacific - Guam", "F1 Mid-Pacific - Guam", "F Mid-Pacific H"],
        ["F Mid-Pacific H"] * 3,
    ):
        r = judge(fleets, [("Australia", o) for o in orders])
        assert [o["result"] == "invalid" for o in r["orders"]] == [False, False, True], orders
        assert r["orders"][2]["reason"] == only
    r = judge(
        fleets,
        [("Australia", o) for o in ("F Mid-Pacific - Tokyo", "F Mid-Pacific H", "F Mid-Pacific H")],
    )
    assert r["orders"][0]["reason"] == "Mid-Pacific Ocean is not adjacent to Tokyo"
    assert [o["result"] for o in r["orders"][1:]] == ["succeeds", "succeeds"]
    twice = ("F2 Mid-Pacific - Guam", "F2 Mid-Pacific - New Guinea", "F Mid-Pacific H")
    r = judge(fleets, [("Australia", o) for o in twice])
    assert [o["result"] == "invalid" for o in r["orders"]] == [False, True, False]
    assert r["orders"][1]["reason"] == "F2 Mid-Pacific Ocean already has an order"


def test_response_lists_every_fleet_in_an_ocean():
    units = [("Japan", "F", "Indian Ocean")] * 3 + [("Indonesia", "F", "Indian Ocean")]
    r = judge(units, [])
    assert len([u for u in r["units"] if u["location"] == "Indian Ocean"]) == 4


def test_land_bridges_take_armies_fleets_supports_and_retreats():
    # Armies and fleets cross Java - Sumbawa.
    r = judge([("Indonesia", "A", "Java")], [("Indonesia", "A Java - Sumbawa")])
    assert where(r, "Indonesia") == ["Sumbawa"]
    r = judge([("Indonesia", "F", "Java")], [("Indonesia", "F Java - Sumbawa")])
    assert where(r, "Indonesia") == ["Sumbawa"]
    # A support across the Sumatra - Malaysia bridge.
    r = judge(
        [("Indonesia", "A", "Sumatra"), ("Indonesia", "A", "Thailand"), ("China", "A", "Malaysia")],
        [
            ("Indonesia", "A Thailand - Malaysia"),
            ("Indonesia", "A Sumatra S A Thailand - Malaysia"),
        ],
    )
    assert where(r, "Indonesia") == ["Malaysia", "Sumatra"]
    # A retreat across the Mindanao - Manila bridge.
    phase = {"season": "fall", "year": 1991, "type": "retreats"}
    r = judge(
        [("China", "F", "Philippine Sea")],
        [("Viet Nam", "A Manila R Mindanao")],
        phase=phase,
        dislodged=[
            {
                "power": "Viet Nam",
                "unit": "A",
                "location": "Manila",
                "attacker_from": "Luzon Strait",
            }
        ],
    )
    assert where(r, "Viet Nam") == ["Mindanao"]


def test_bridges_are_plain_borders_between_seas_and_flores_sea_lies_on_both_sides():
    """Rule 8: a bridge is a demarcation line between sea spaces, and fleets move from one
    to the other "as if the bridges ... were, instead, simply borders" (the seed's example:
    the Mindanao - Manila bridge, between the South China Sea and the Philippine Sea)."""
    v = load("far-east")
    reach = v.fleet_reach
    assert "Philippine Sea" in reach["South China Sea"]
    assert {"Java", "Sumbawa"} <= reach["Flores Sea"]
    r = judge(
        [("Viet Nam", "F", "South China Sea"), ("Japan", "F", "Sea of Japan")],
        [("Viet Nam", "F SCS - Philippine Sea"), ("Japan", "F Sea of Japan - North Pacific")],
    )
    assert [o["result"] for o in r["orders"]] == ["succeeds", "succeeds"]


def test_thailand_has_two_coasts():
    r = judge(
        [("Viet Nam", "F", "Gulf of Thailand")], [("Viet Nam", "F Gulf of Thailand - Thailand")]
    )
    assert r["orders"][0]["result"] == "succeeds"
    assert where(r, "Viet Nam") == ["Thailand/ec"]
    r = judge([("Viet Nam", "F", "Malaysia")], [("Viet Nam", "F Malaysia - Thailand")])
    assert r["orders"][0]["result"] == "invalid"  # both coasts reachable: say which


def test_builds_only_in_owned_empty_home_centres_in_winter():
    centres = {"Japan": ["Sapporo", "Tokyo", "Nagasaki", "Korea"], "China": ["Peking"]}
    r = judge(
        [("Japan", "A", "Korea"), ("Japan", "F", "Tokyo"), ("Japan", "F", "Nagasaki")],
        [("Japan", "Build A Korea"), ("Japan", "Build A Sapporo"), ("China", "Build A Shanghai")],
        phase={"season": "winter", "year": 1991, "type": "adjustments"},
        supply_centers=centres,
    )
    assert [o["result"] for o in r["orders"]] == ["invalid", "succeeds", "invalid"]
    assert r["next_phase"] == {"season": "spring", "year": 1992, "type": "movement"}


def test_numbered_fleets_keep_their_numbers_in_the_canonical_text():
    """``F1 Mid-Pacific S F2 Mid-Pacific - Guam``: the canonical orders keep F1 and F2, so the
    stored canonical texts, sent again at the deadline in any order, name the same fleets and
    give the same answer; a number outside a shared space is dropped."""
    units = [
        ("Australia", "F", "Mid-Pacific Ocean"),
        ("Australia", "F", "Mid-Pacific Ocean"),
        ("Japan", "F", "Guam"),
    ]
    orders = [
        ("Australia", "F2 Mid-Pacific - Guam"),
        ("Australia", "F1 Mid-Pacific S F2 Mid-Pacific - Guam"),
        ("Japan", "F1 Guam H"),
    ]
    r = judge(units, orders)
    assert [o["canonical"] for o in r["orders"]] == [
        "F2 Mid-Pacific Ocean - Guam",
        "F1 Mid-Pacific Ocean S F2 Mid-Pacific Ocean - Guam",
        "F Guam H",
    ]
    again = judge(units, [(o["power"], o["canonical"]) for o in reversed(r["orders"])])
    assert [o["result"] for o in reversed(again["orders"])] == [o["result"] for o in r["orders"]]
    assert where(again, "Australia") == where(r, "Australia") == ["Guam", "Mid-Pacific Ocean"]


def _winter(units, orders, centres):
    return judge(
        units,
        orders,
        phase={"season": "winter", "year": 1991, "type": "adjustments"},
        supply_centers=centres,
    )


def test_a_removal_in_an_ocean_takes_one_fleet_not_every_fleet_there():
    """Rule 6.1: an ocean holds several fleets, of several powers. A removal (or civil
    disorder) takes one of the power's fleets there; it took every fleet in the ocean,
    Indonesia's too, which owed nothing."""
    npo = "North Pacific Ocean"
    units = [("Japan", "F", npo), ("Japan", "F", npo), ("Japan", "A", "Tokyo")]
    units += [("Indonesia", "F", npo)]
    centres = {"Japan": ["Tokyo", "Sapporo"], "Indonesia": ["Sumatra", "Java"]}
    r = _winter(units, [("Japan", "Remove F North Pacific")], centres)
    assert [o["result"] for o in r["orders"]] == ["succeeds"]
    in_ocean = sorted(u["power"] for u in r["units"] if u["location"] == npo)
    assert in_ocean == ["Indonesia", "Japan"]
    assert where(r, "Japan") == [npo, "Tokyo"]

    centres["Japan"] = ["Tokyo"]  # two removals owed: both fleets, one order each
    orders = [("Japan", "Remove F North Pacific")] * 3
    r = _winter(units, orders, centres)
    assert [o["result"] for o in r["orders"]] == ["succeeds", "succeeds", "invalid"]
    assert where(r, "Japan") == ["Tokyo"] and where(r, "Indonesia") == [npo]

    r = _winter(units, [], centres)  # civil disorder: the two farthest, nobody else's
    assert len(r["civil_disorder"]) == 2
    assert where(r, "Indonesia") == [npo]
    assert len(where(r, "Japan")) == 1


def test_civil_disorder_in_an_ocean_takes_as_many_fleets_as_owed():
    npo = "North Pacific Ocean"
    units = [("Japan", "F", npo), ("Japan", "F", npo), ("Japan", "A", "Tokyo")]
    units += [("Indonesia", "F", npo)]
    centres = {"Japan": ["Tokyo", "Sapporo"], "Indonesia": ["Sumatra", "Java"]}
    r = _winter(units, [], centres)  # one removal owed
    assert [u["location"] for u in r["civil_disorder"]] == [npo]
    assert where(r, "Japan") == [npo, "Tokyo"] and where(r, "Indonesia") == [npo]


def test_an_army_named_for_fleets_in_an_ocean_is_refused_not_read_as_a_fleet():
    """Only fleets stand in an ocean: "A Mid-Pacific - Guam" was judged as the fleet's move,
    and a support naming an army there as a support of a fleet."""
    mpo = "Mid-Pacific Ocean"
    units = [("Japan", "F", mpo), ("Japan", "F", mpo), ("Australia", "F", mpo)]
    for text in (
        "A Mid-Pacific - Guam",
        "A2 Mid-Pacific H",
        "F Mid-Pacific S A2 Mid-Pacific - Guam",
        "F2 Mid-Pacific S Australia A Mid-Pacific - Guam",
    ):
        r = judge(units, [("Japan", text)])
        assert r["orders"][0]["result"] == "invalid", text
        assert r["orders"][0]["reason"] == "the unit in Mid-Pacific Ocean is a fleet", text
    assert judge(units, [("Japan", "F2 Mid-Pacific - Guam")])["orders"][0]["result"] == "succeeds"


def test_a_numbered_removal_names_a_fleet_there_is():
    mpo = "Mid-Pacific Ocean"
    units = [("Japan", "F", mpo), ("Japan", "F", mpo), ("Japan", "F", mpo)]
    orders = [("Japan", f"Remove {f} Mid-Pacific") for f in ("F2", "F2", "F9", "F")]
    r = _winter(units, orders, {"Japan": ["Tokyo"]})
    assert [o["result"] for o in r["orders"]] == ["succeeds", "invalid", "invalid", "succeeds"]
    assert r["orders"][1]["reason"] == "F2 Mid-Pacific Ocean is already being removed"
    assert "no number 9" in r["orders"][2]["reason"]
    assert where(r, "Japan") == [mpo]


def test_an_unnumbered_fleet_supporting_a_numbered_one_is_another_of_them():
    """ "F Mid-Pacific S F1 Mid-Pacific - Guam" from a power with two fleets there: the support
    comes from its other fleet (it was given to F1 itself, refused as supporting itself)."""
    mpo = "Mid-Pacific Ocean"
    units = [("Japan", "F", mpo), ("Japan", "F", mpo), ("China", "F", "Guam")]
    units += [("China", "F", "Philippine Sea")]
    orders = [
        ("Japan", "F Mid-Pacific S F1 Mid-Pacific - Guam"),
        ("Japan", "F1 Mid-Pacific - Guam"),
        ("China", "F Philippine Sea S F Guam"),
    ]
    r = judge(units, orders)
    assert [o["result"] for o in r["orders"]][:2] == ["succeeds", "fails"]
    r = judge(units, orders[:2])
    assert [o["result"] for o in r["orders"]] == ["succeeds", "succeeds"]
    assert where(r, "Japan") == ["Guam", mpo]
    alone = judge(units, orders[:1])["orders"][0]  # F1 unordered: still the other one supports
    assert (alone["result"], alone["reason"]) == (
        "succeeds",
        "no effect: F1 Mid-Pacific Ocean was not ordered to Guam",  # the fleet it named
    )


def test_of_two_orders_for_a_fleet_alone_the_first_listed_is_given_numbered_or_not():
    """Found by an adversary: ``F Tokyo - Kyoto`` then ``F1 Tokyo H`` gave Tokyo the hold,
    numbered orders going first everywhere. A number only tells apart fleets sharing an
    ocean; outside one, F1 Tokyo is F Tokyo and the first order listed is the one given."""
    units = [("Japan", "F", "Tokyo"), ("Japan", "F", "North Pacific Ocean")]
    r = judge(units, [("Japan", "F Tokyo - Kyoto"), ("Japan", "F1 Tokyo H")])
    assert [o["result"] for o in r["orders"]] == ["succeeds", "invalid"]
    assert r["orders"][1]["reason"] == "F Tokyo already has an order"
    assert "Kyoto" in where(r, "Japan")
    # In an ocean too the order in excess is the last written, numbered or not.
    r = judge(units, [("Japan", "F NPO - Guam"), ("Japan", "F1 NPO H")])
    assert [o["result"] for o in r["orders"]] == ["succeeds", "invalid"]
    r = judge(units, [("Japan", "F1 NPO H"), ("Japan", "F NPO - Guam")])
    assert [o["result"] for o in r["orders"]] == ["succeeds", "invalid"]


def test_a_numbered_fleet_supporting_itself_is_named_by_its_number():
    """``F1 NPO S F1 NPO - Guam`` was refused as "F North Pacific Ocean cannot support
    itself", which names no fleet of the two there."""
    units = [("Japan", "F", "North Pacific Ocean")] * 2
    r = judge(units, [("Japan", "F2 North Pacific S F2 North Pacific - Guam")])
    assert r["orders"][0]["reason"] == "F2 North Pacific Ocean cannot support itself"


def test_a_reason_names_whose_fleet_in_a_shared_ocean():
    """Found by an adversary: Japan and Indonesia each "bounced with F Mid-Pacific Ocean", and
    Japan had a fleet there too. In a space several units share, the rival is named with its
    power, as a support names it there; elsewhere the one unit there is enough."""
    r = judge(
        [
            ("Japan", "F", "Mid-Pacific Ocean"),
            ("Indonesia", "F", "Mid-Pacific Ocean"),
            ("Japan", "F", "Guam"),
            ("Australia", "F", "Coral Sea"),
        ],
        [
            ("Japan", "F MPO - Guam"),
            ("Japan", "F Guam - MPO"),
            ("Indonesia", "F MPO - Guam"),
            ("Australia", "F Coral Sea H"),
        ],
    )
    reasons = {(o["power"], o["canonical"]): o.get("reason") for o in r["orders"]}
    assert reasons[("Japan", "F Mid-Pacific Ocean - Guam")] == (
        "bounced with Indonesia F Mid-Pacific Ocean in Guam (1 against 1)"
    )
    assert reasons[("Indonesia", "F Mid-Pacific Ocean - Guam")] == (
        "bounced with Japan F Mid-Pacific Ocean in Guam (1 against 1)"
    )
    plain = adjudicate(
        {
            "variant": "standard",
            "phase": {"season": "spring", "year": 1901, "type": "movement"},
            "units": [
                {"power": "France", "unit": "A", "location": "Paris"},
                {"power": "Germany", "unit": "A", "location": "Munich"},
            ],
            "orders": [
                {"power": "France", "order": "A Paris - Burgundy"},
                {"power": "Germany", "order": "A Munich - Burgundy"},
            ],
        }
    )
    assert plain["orders"][0]["reason"] == "bounced with A Munich in Burgundy (1 against 1)"


def test_a_retreat_request_with_a_fleet_dislodged_from_an_ocean_is_refused():
    """Rule 6.1: no fleet can be dislodged from an ocean space. Found by an adversary: such a
    retreat request was judged, the fleet sent to retreat, instead of refused as malformed."""
    body = {
        "variant": "far-east",
        "phase": {"season": "spring", "year": 1992, "type": "retreats"},
        "units": [{"power": "Japan", "unit": "F", "location": "Guam"}],
        "dislodged": [
            {"power": "Indonesia", "unit": "F", "location": "MPO", "attacker_from": "Guam"}
        ],
        "orders": [{"power": "Indonesia", "order": "F MPO R Marshall Islands"}],
    }
    answer = adjudicate(body)
    assert answer["error"] == (
        "F Mid-Pacific Ocean cannot be dislodged: no unit is dislodged from an ocean"
    )
    # Dislodged from Guam into the ocean its attacker came from: still a retreat (rule 6).
    body["units"] = [{"power": "Japan", "unit": "F", "location": "Mid-Pacific Ocean"}]
    body["dislodged"] = [
        {"power": "Indonesia", "unit": "F", "location": "Guam", "attacker_from": "MPO"}
    ]
    body["orders"] = [{"power": "Indonesia", "order": "F Guam R MPO"}]
    assert adjudicate(body)["orders"][0]["result"] == "succeeds"


def test_a_move_refused_from_the_wrong_coast_says_which_coast_the_fleet_is_on():
    """DATC 6.B.10: the unit's own coast is read, not the one written. Found by an adversary:
    "F Thailand/wc - Andaman Sea" for a fleet on the east coast was refused as "Thailand/ec is
    not adjacent to Andaman Sea", naming a coast the player never wrote, and not why."""
    from adjudication import add_words, check

    body = {
        "variant": "far-east",
        "phase": {"season": "spring", "year": 1991, "type": "movement"},
        "units": [{"power": "Viet Nam", "unit": "F", "location": "Thailand/ec"}],
        "orders": [{"power": "Viet Nam", "order": "F Thailand/wc - Andaman Sea"}],
    }
    answer = add_words(check(body))["orders"][0]
    assert answer["result"] == "invalid"
    assert answer["reason"] == (
        "the fleet is on Thailand/ec, not Thailand/wc: Thailand/ec is not adjacent to Andaman Sea"
    )
    assert answer["reason_words"]["args"]["reason"]["template"] == (
        "{location} is not adjacent to {dest}"
    )
    body["orders"] = [{"power": "Viet Nam", "order": "F Thailand - Andaman Sea"}]
    assert check(body)["orders"][0]["reason"] == "Thailand/ec is not adjacent to Andaman Sea"


def test_andaman_sea_as_the_contract_writes_it():
    """The contract's example of a name with dots, ``and.s``, reads in Far East I-R too (only
    Colonial listed it): as a unit's place and in an order, not as "and S" (a support)."""
    r = judge([("Indonesia", "F", "and.s")], [("Indonesia", "F and.s - Bay of Bengal")])
    assert r["orders"][0]["result"] == "succeeds"
    assert r["orders"][0]["canonical"] == "F Andaman Sea - Bay of Bengal"
