"""The order parser (``adjudication.orders.parse``) and the messages players see.

Parsing is forgiving about spelling (case, spaces, abbreviations, coast notations, arrows) and
strict about meaning: an illegal order comes back ``invalid`` with a precise reason, and the
unit holds.
"""

from __future__ import annotations

import re

import pytest

from adjudication import adjudicate, check, load
from adjudication.orders import (
    BUILD,
    CONVOY,
    DISBAND,
    HOLD,
    MOVE,
    REMOVE,
    RETREAT,
    SUPPORT,
    WAIVE,
    Order,
    OrderError,
    blank,
    parse,
)


@pytest.fixture(scope="module")
def standard():
    return load("standard")


@pytest.fixture(scope="module")
def colonial():
    return load("colonial")


def request(variant, units, orders, phase=None, **extra):
    req = {
        "variant": variant,
        "units": [{"power": p, "unit": k, "location": loc} for p, k, loc in units],
        "orders": [{"power": p, "order": o} for p, o in orders],
    }
    if phase is not None:
        req["phase"] = phase
    req.update(extra)
    return req


def judge(variant, units, orders, phase=None, **extra):
    response = adjudicate(request(variant, units, orders, phase, **extra))
    assert "error" not in response, response
    return response


def unit_set(response):
    return {(u["power"], u["unit"], u["location"]) for u in response["units"]}


# -- movement orders: the forgiving notation ------------------------------------------------

MOVE_SPELLINGS = [
    "A Moscow - Perm",
    "A Moscow -> Perm",
    "A Moscow-Perm",
    "a mos - prm",
    "A MOS - PRM",
    "army moscow - perm",
    "Army Moscow Move Perm",
    "A Moscow moves Perm",
    "A Moscow to Perm",
    "  A   Moscow    ->   Perm  ",
    "A mOsCoW - pErM",
    "A Moscow - Perm.",
    "A Moscow -- Perm",
    "A Moscow - to Perm",
]


@pytest.mark.parametrize("text", MOVE_SPELLINGS)
def test_move_spellings(colonial, text):
    order = parse(colonial, text, "movement")
    assert order == Order(MOVE, "A", "Moscow", destination="Perm")
    assert order.text() == "A Moscow - Perm"


@pytest.mark.parametrize("text", ["A Moscow move to Perm", "A Moscow moves to Perm"])
def test_move_to_spelling(colonial, text):
    assert parse(colonial, text, "movement").text() == "A Moscow - Perm"


@pytest.mark.parametrize(
    "text",
    ["A Moscow => Perm", "A Moscow → Perm", "A Moscow – Perm", "A Moscow — Perm"]
    # pasted text: minus sign, hyphen, non-breaking hyphen, full-width hyphen-minus
    + [
        "A Moscow \u2212 Perm",
        "A Moscow \u2010 Perm",
        "A Moscow\u2011Perm",
        "A Moscow \uff0d Perm",
    ],
)
def test_other_arrows(colonial, text):
    assert parse(colonial, text, "movement").text() == "A Moscow - Perm"


@pytest.mark.parametrize(
    "text", ["A Moscow H", "A Moscow h", "A Moscow hold", "A Moscow HOLDS", "A Moscow", "a mos"]
)
def test_hold_spellings(colonial, text):
    order = parse(colonial, text, "movement")
    assert order.kind == HOLD
    assert (order.unit, order.location) == ("A", "Moscow")
    assert order.text() == "A Moscow H"


@pytest.mark.parametrize("text", ["A Mos$ H", "A Mos\ufffd H", "A Mos\udcff H", "A M\u00f6s H"])
def test_a_character_orders_do_not_use_is_refused_not_dropped(colonial, text):
    # Dropped, each would leave "A Mos H": Moscow holding, though the player wrote no such order.
    with pytest.raises(OrderError, match="character that is not read"):
        parse(colonial, text, "movement")


@pytest.mark.parametrize(
    "text",
    [
        "A Ｍｏｓｃｏｗ - Perm",
        "A Moscow - Ｐｅｒｍ",
        "Ａ ＭＯＳ － ＰＥＲＭ",
        "ａ　ｍｏｓ　－　ｐｅｒｍ",
    ],
)
def test_full_width_letters_read_as_letters(colonial, text):
    # As Chinese and Japanese keyboards type them (the site speaks both).
    assert parse(colonial, text, "movement").text() == "A Moscow - Perm"


@pytest.mark.parametrize("text", ["A Mos H.", "A Mos H!", "“A Mos H”;", "A Mos -> Perm?"])
def test_punctuation_around_an_order_is_dropped(colonial, text):
    assert parse(colonial, text, "movement").location == "Moscow"


def test_unit_word_may_be_left_out(colonial):
    order = parse(colonial, "Moscow - Perm", "movement")
    assert order.kind == MOVE
    assert order.unit is None
    assert (order.location, order.destination) == ("Moscow", "Perm")
    assert order.text("A") == "A Moscow - Perm"


@pytest.mark.parametrize(
    "text",
    [
        "A Perm S A Moscow - Omsk",
        "A Perm supports A Moscow -> Omsk",
        "a prm s a mos - oms",
        "A PERM SUPPORT A MOSCOW MOVE OMSK",
        "A Perm s A Moscow to Omsk",
    ],
)
def test_support_move_spellings(colonial, text):
    order = parse(colonial, text, "movement")
    assert order == Order(SUPPORT, "A", "Perm", "A", "Moscow", "Omsk")
    assert order.text() == "A Perm S A Moscow - Omsk"


@pytest.mark.parametrize(
    "text", ["A Perm S A Moscow", "A Perm supports A Moscow H", "a prm s a mos hold"]
)
def test_support_hold_spellings(colonial, text):
    order = parse(colonial, text, "movement")
    assert order == Order(SUPPORT, "A", "Perm", "A", "Moscow")
    assert order.text() == "A Perm S A Moscow"


@pytest.mark.parametrize(
    "text",
    [
        "F North Sea C A London - Belgium",
        "F North Sea convoys A London -> Belgium",
        "f nth c a lon - bel",
        "F NTH CONVOYS A LON TO BEL",
        "Fleet North Sea Convoy Army London Move Belgium",
    ],
)
def test_convoy_spellings(standard, text):
    order = parse(standard, text, "movement")
    assert order == Order(CONVOY, "F", "North Sea", "A", "London", "Belgium")
    assert order.text() == "F North Sea C A London - Belgium"


@pytest.mark.parametrize(
    "text",
    [
        "A London - Belgium via Convoy",
        "A lon - bel via convoy",
        "a lon -> bel VIA C",
        "A London - Belgium by convoy",
    ],
)
def test_via_convoy(standard, text):
    order = parse(standard, text, "movement")
    assert order == Order(MOVE, "A", "London", destination="Belgium", via="convoy")
    assert order.text() == "A London - Belgium via Convoy"


def test_convoy_without_the_move_is_an_error(standard):
    with pytest.raises(OrderError, match="needs the army's move"):
        parse(standard, "F North Sea C A London", "movement")


def test_via_without_a_route_is_an_error(standard):
    with pytest.raises(OrderError, match="'via' must be followed by Convoy"):
        parse(standard, "A London - Belgium via", "movement")


# -- coasts ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "F MAO - spa/nc",
        "F mao - spa(nc)",
        "F mao - spa (nc)",
        "F Mid-Atlantic Ocean - Spain (North Coast)",
        "F mid atlantic - Spain North Coast",
        "f mao - SPA/NC",
        "F mao - spa nc",
        "F mao - Spain/north coast",
    ],
)
def test_coast_notations(standard, text):
    order = parse(standard, text, "movement")
    assert order == Order(MOVE, "F", "Mid-Atlantic Ocean", destination="Spain/nc")
    assert order.text() == "F Mid-Atlantic Ocean - Spain/nc"


@pytest.mark.parametrize(
    "text",
    [
        "F Barents Sea - St Petersburg/nc",
        "f bar - stp nc",
        "F bar - stp(nc)",
        "F bar - St. Petersburg (North Coast)",
        "F bar - Saint Petersburg/nc",
    ],
)
def test_st_petersburg_north_coast(standard, text):
    assert parse(standard, text, "movement").destination == "St Petersburg/nc"


def test_coast_on_the_ordered_unit(standard):
    order = parse(standard, "F stp sc - bot", "movement")
    assert order.location == "St Petersburg/sc"
    assert order.text() == "F St Petersburg/sc - Gulf of Bothnia"


def test_unknown_coast_word_is_an_error(standard):
    with pytest.raises(OrderError, match="'xc' is not a coast"):
        parse(standard, "F mao - spa/xc", "movement")


def test_coast_a_province_does_not_have(standard):
    with pytest.raises(OrderError, match="Spain has no east coast"):
        parse(standard, "F mao - spa/ec", "movement")


def test_colonial_coasts(colonial):
    for text in ["F Seoul/ec H", "F seo(ec) H", "F Seoul (East Coast) H", "f seo ec h"]:
        assert parse(colonial, text, "movement").text() == "F Seoul/ec H", text


# -- Colonial names -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["AND.S", "and.s", "Andaman Sea", "andaman sea", "AND", "and", "ANDAMAN  SEA", "And. S."],
)
def test_andaman_sea_spellings(colonial, name):
    order = parse(colonial, f"F {name} - Bay of Bengal", "movement")
    assert order.location == "Andaman Sea"
    assert order.text() == "F Andaman Sea - Bay of Bengal"


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("F Sea of Japan - Vladivostok", "F Sea of Japan - Vladivostok"),
        ("f soj - vla", "F Sea of Japan - Vladivostok"),
        ("F SEA OF JAPAN - SEOUL/EC", "F Sea of Japan - Seoul/ec"),
        ("A Port Arthur - Manchuria", "A Port Arthur - Manchuria"),
        ("a port arthur-manchuria", "A Port Arthur - Manchuria"),
        ("A POR - MAC", "A Port Arthur - Manchuria"),
        ("F Bay of Bengal C A Bengal - Rangoon", "F Bay of Bengal C A Bengal - Rangoon"),
        ("F east china sea s f yellow sea", "F East China Sea S F Yellow Sea"),
        ("A Hong Kong S A Canton - Yunnan", "A Hong Kong S A Canton - Yunnan"),
        ("F Southeast Indian Ocean H", "F Southeast Indian Ocean H"),
    ],
)
def test_colonial_multi_word_names(colonial, text, canonical):
    assert parse(colonial, text, "movement").text() == canonical


# -- retreat and adjustment phases ---------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["A Irkutsk R Mongolia", "a irk r mon", "A Irkutsk - Mongolia", "A irk retreat mon"]
)
def test_retreat_spellings(colonial, text):
    order = parse(colonial, text, "retreats")
    assert order == Order(RETREAT, "A", "Irkutsk", destination="Mongolia")
    assert order.text() == "A Irkutsk R Mongolia"


@pytest.mark.parametrize(
    "text",
    ["A Irkutsk D", "a irk d", "A Irkutsk disband", "A IRK DISBANDS"]
    # the verb first, as removals are written in an adjustment phase
    + ["Disband A Irkutsk", "disband a irk", "D A Irkutsk", "Disbands A (Irkutsk)"],
)
def test_disband_spellings(colonial, text):
    order = parse(colonial, text, "retreats")
    assert order == Order(DISBAND, "A", "Irkutsk")
    assert order.text() == "A Irkutsk D"


@pytest.mark.parametrize(
    "text",
    [
        "A Moscow - Vladivostok via Trans-Siberian Railroad",
        "A Moscow - Vladivostok via trans siberian railway",
        "a mos - vla by transsiberian railroad",
        "A Moscow - Vladivostok via Trans-Siberian",
        "A Moscow - Vladivostok (TSR)",
        "A Moscow - Vladivostok (via TSR)",
        "A Mos - Vla (by railroad)",
    ],
)
def test_the_railroad_by_its_name_and_in_brackets(colonial, text):
    assert parse(colonial, text, "movement").text() == "A Moscow - Vladivostok via TSR"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("A Moscow - Vladivostok (TSR", "bracket after TSR is not closed"),
        ("A Moscow - Vladivostok via Trans-Siberian Road", "unexpected 'Road'"),
        ("A Moscow - Vladivostok (Omsk)", "unexpected '\\(Omsk\\)'"),
    ],
)
def test_a_route_half_named_is_refused(colonial, text, reason):
    with pytest.raises(OrderError, match=reason):
        parse(colonial, text, "movement")


def test_a_convoy_in_brackets(standard):
    assert parse(standard, "A Lon - Bel (via Convoy)", "movement").via == "convoy"


def test_retreat_phase_hold_is_an_error(colonial):
    with pytest.raises(OrderError, match="they retreat .R. or disband .D., they cannot hold"):
        parse(colonial, "A Irkutsk H", "retreats")


def test_retreat_phase_support_is_an_error(colonial):
    with pytest.raises(OrderError, match="no supports or convoys in a retreat phase"):
        parse(colonial, "A Irkutsk S A Omsk", "retreats")


@pytest.mark.parametrize(
    ("variant_id", "text", "expected", "canonical"),
    [
        ("colonial", "Build A Moscow", Order(BUILD, "A", "Moscow"), "Build A Moscow"),
        ("colonial", "build a mos", Order(BUILD, "A", "Moscow"), "Build A Moscow"),
        ("standard", "A ber build", Order(BUILD, "A", "Berlin"), "Build A Berlin"),
        ("standard", "A Berlin Builds", Order(BUILD, "A", "Berlin"), "Build A Berlin"),
        (
            "standard",
            "Build F St Petersburg/nc",
            Order(BUILD, "F", "St Petersburg/nc"),
            "Build F St Petersburg/nc",
        ),
        (
            "standard",
            "build f stp(nc)",
            Order(BUILD, "F", "St Petersburg/nc"),
            "Build F St Petersburg/nc",
        ),
        (
            "colonial",
            "Build F Port Arthur",
            Order(BUILD, "F", "Port Arthur"),
            "Build F Port Arthur",
        ),
        ("colonial", "Remove A Omsk", Order(REMOVE, "A", "Omsk"), "Remove A Omsk"),
        ("colonial", "remove a oms", Order(REMOVE, "A", "Omsk"), "Remove A Omsk"),
        ("colonial", "Disband A Omsk", Order(REMOVE, "A", "Omsk"), "Remove A Omsk"),
        ("colonial", "A Omsk disband", Order(REMOVE, "A", "Omsk"), "Remove A Omsk"),
        ("colonial", "A omsk remove", Order(REMOVE, "A", "Omsk"), "Remove A Omsk"),
        ("colonial", "Waive", Order(WAIVE), "Waive"),
        ("colonial", "waive", Order(WAIVE), "Waive"),
        ("colonial", "  WAIVE  ", Order(WAIVE), "Waive"),
    ],
)
def test_adjustment_spellings(variant_id, text, expected, canonical):
    order = parse(load(variant_id), text, "adjustments")
    assert order == expected
    assert order.text() == canonical


@pytest.mark.parametrize("text", ["A Moscow - Perm", "R F Singapore", "retreat A Omsk"])
def test_adjustment_gibberish_is_an_error(colonial, text):
    """``R F Singapore`` was "expected a province, not 'R'" (found by an adversary): the forms
    an adjustment takes are said instead."""
    with pytest.raises(OrderError, match="Build A <home centre>.*'Remove A <province>'"):
        parse(colonial, text, "adjustments")


def test_build_in_a_movement_phase_is_an_error(colonial):
    with pytest.raises(OrderError, match="adjustment phase"):
        parse(colonial, "Build A Moscow", "movement")


def test_retreat_in_a_movement_phase_is_an_error(colonial):
    with pytest.raises(OrderError, match="retreat phase"):
        parse(colonial, "A Irkutsk R Mongolia", "movement")


@pytest.mark.parametrize(
    "text", ["", "   ", "\n\t", "\u200b", " \u200b\u200d\ufeff\u2060 ", "\u200e\u00ad"]
)
def test_empty_order(colonial, text):
    """Characters drawn as nothing (a zero-width space pasted alone) are no order either: the
    order is empty, as a server reads it (``blank``), not a unit's province missing."""
    assert blank(text)
    with pytest.raises(OrderError, match="the order is empty"):
        parse(colonial, text, "movement")


def test_trailing_junk_is_an_error(standard):
    with pytest.raises(OrderError, match="unexpected 'please' at the end"):
        parse(standard, "A Paris - Burgundy please", "movement")


# -- canonical text in responses --------------------------------------------------------------


def test_response_canonical_uses_full_names(colonial):
    r = judge(
        "colonial",
        [("Russia", "A", "Moscow"), ("Russia", "A", "Omsk"), ("Russia", "F", "Port Arthur")],
        [
            ("Russia", "a mos - prm"),
            ("RUS", "a oms s a mos - prm"),
            ("Russia", "f por - yel"),
        ],
    )
    canon = [o["canonical"] for o in r["orders"]]
    assert canon == [
        "A Moscow - Perm",
        "A Omsk S A Moscow - Perm",
        "F Port Arthur - Yellow Sea",
    ]
    assert [o["result"] for o in r["orders"]] == ["succeeds", "succeeds", "succeeds"]
    assert [o["power"] for o in r["orders"]] == ["Russia", "Russia", "Russia"]
    assert [o["order"] for o in r["orders"]] == [
        "a mos - prm",
        "a oms s a mos - prm",
        "f por - yel",
    ]


def test_response_canonical_convoy(standard):
    r = judge(
        "standard",
        [("England", "A", "London"), ("England", "F", "North Sea")],
        [("England", "f nth c a lon - bel"), ("England", "a lon - bel")],
    )
    assert [o["canonical"] for o in r["orders"]] == [
        "F North Sea C A London - Belgium",
        "A London - Belgium via Convoy",
    ]
    assert [o["result"] for o in r["orders"]] == ["succeeds", "succeeds"]
    assert unit_set(r) == {("England", "A", "Belgium"), ("England", "F", "North Sea")}


def test_response_canonical_fleet_gets_its_coast(standard):
    r = judge("standard", [("France", "F", "Gascony")], [("France", "F gas - spa")])
    assert r["orders"][0]["canonical"] == "F Gascony - Spain/nc"
    assert unit_set(r) == {("France", "F", "Spain/nc")}


def test_response_canonical_fills_in_the_unit_kind(colonial):
    r = judge("colonial", [("Russia", "A", "Moscow")], [("Russia", "Moscow - Perm")])
    assert r["orders"][0]["canonical"] == "A Moscow - Perm"
    assert r["orders"][0]["result"] == "succeeds"


def test_response_canonical_build(standard):
    r = judge(
        "standard",
        [],
        [("Russia", "build f stp nc")],
        phase={"season": "winter", "year": 1901, "type": "adjustments"},
    )
    assert r["orders"][0]["canonical"] == "Build F St Petersburg/nc"
    assert r["orders"][0]["result"] == "succeeds"
    assert ("Russia", "F", "St Petersburg/nc") in unit_set(r)


# -- precise reasons for illegal orders -------------------------------------------------------


def assert_invalid(response, index, *fragments):
    item = response["orders"][index]
    assert item["result"] == "invalid", item
    assert isinstance(item.get("reason"), str) and item["reason"], item
    for fragment in fragments:
        assert fragment in item["reason"], item["reason"]
    return item


INVALID_CASES = [
    pytest.param(
        "colonial",
        [("Russia", "A", "Perm")],
        ("Russia", "A Perm - Vladivostok"),
        ["Perm is not adjacent to Vladivostok"],
        id="not-adjacent",
    ),
    pytest.param(
        "colonial",
        [("Russia", "A", "Perm")],
        ("Russia", "A Perm - Atlantis"),
        ["'Atlantis'"],
        id="unknown-province",
    ),
    pytest.param(
        "colonial",
        [("Russia", "A", "Perm")],
        ("Russia", "A Perm - bOgUsLaNd"),
        ["'bOgUsLaNd'"],
        id="unknown-province-as-typed",
    ),
    pytest.param(
        "colonial",
        [("Russia", "A", "Perm")],
        ("China", "A Perm - Omsk"),
        ["belongs to Russia"],
        id="another-powers-unit",
    ),
    pytest.param(
        "colonial",
        [("Russia", "A", "Perm")],
        ("Russia", "F Perm - Omsk"),
        ["the unit in Perm is an army"],
        id="wrong-unit-type",
    ),
    pytest.param(
        "standard",
        [("France", "F", "Brest")],
        ("France", "F Brest - Paris"),
        ["a fleet cannot move to Paris", "inland"],
        id="fleet-inland",
    ),
    pytest.param(
        "standard",
        [("England", "A", "London")],
        ("England", "A London - North Sea"),
        ["an army cannot move to North Sea", "sea"],
        id="army-to-sea",
    ),
    pytest.param(
        "standard",
        [("Germany", "A", "Silesia"), ("Germany", "A", "Munich")],
        ("Germany", "A Silesia S A Munich - Warsaw"),
        ["A Munich could not move to Warsaw"],
        id="support-impossible-move",
    ),
    pytest.param(
        "standard",
        [("Germany", "A", "Munich"), ("Germany", "A", "Berlin")],
        ("Germany", "A Munich S A Berlin - Prussia"),
        ["A Munich cannot support into Prussia"],
        id="support-where-supporter-cannot-go",
    ),
    pytest.param(
        "standard",
        [("England", "A", "London"), ("England", "F", "Wales")],
        ("England", "F Wales C A London - Belgium"),
        ["a fleet in Wales cannot convoy"],
        id="convoy-from-coast",
    ),
    pytest.param(
        "standard",
        [("England", "A", "London")],
        ("England", "A Yorkshire - Wales"),
        ["there is no unit in Yorkshire"],
        id="no-unit",
    ),
    pytest.param(
        "standard",
        [("France", "F", "Mid-Atlantic Ocean")],
        ("France", "F mao - spa/ec"),
        ["Spain has no east coast"],
        id="bad-coast",
    ),
    pytest.param(
        "standard",
        [("France", "A", "Paris")],
        ("France", "A Paris - Paris"),
        ["cannot move to the province it is already in"],
        id="move-to-itself",
    ),
    pytest.param(
        "standard",
        [("France", "A", "Paris")],
        ("France", "A Paris S A Paris"),
        ["cannot support itself"],
        id="support-itself",
    ),
    pytest.param(
        "standard",
        [("Italy", "F", "Rome")],
        ("Italy", "F Rome - Venice"),
        ["Rome is not adjacent to Venice"],
        id="fleet-not-adjacent",
    ),
    pytest.param(
        "standard",
        [("Italy", "A", "Rome")],
        ("Italy", "Build A Rome"),
        ["adjustment phase"],
        id="build-in-movement",
    ),
]


@pytest.mark.parametrize(("variant_id", "units", "order", "fragments"), INVALID_CASES)
def test_invalid_movement_orders(variant_id, units, order, fragments):
    r = judge(variant_id, units, [order])
    assert_invalid(r, 0, *fragments)
    # The unit holds: the board is unchanged and nothing is dislodged.
    assert unit_set(r) == set(units)
    assert r["dislodged"] == []
    assert r["orders"][0]["power"] == order[0]
    assert r["orders"][0]["order"] == order[1]


def test_unknown_province_quotes_the_word_the_player_typed():
    r = judge("colonial", [("Russia", "A", "Moscow")], [("Russia", "A MOSCOW - Os")])
    assert_invalid(r, 0, "'Os'")


def test_invalid_order_canonical_names_the_unit_kind():
    r = judge("colonial", [("Russia", "A", "Perm")], [("Russia", "Perm - Vladivostok")])
    item = assert_invalid(r, 0, "Perm is not adjacent to Vladivostok")
    assert item["canonical"] == "A Perm - Vladivostok"


def test_invalid_order_unit_holds_and_can_be_dislodged():
    """An invalid order leaves a plain hold: the unit defends with strength 1."""
    r = judge(
        "standard",
        [("Russia", "A", "Warsaw"), ("Germany", "A", "Prussia"), ("Germany", "A", "Silesia")],
        [
            ("Russia", "A Warsaw - Berlin"),  # not adjacent: holds
            ("Germany", "A Prussia - Warsaw"),
            ("Germany", "A Silesia S A Prussia - Warsaw"),
        ],
    )
    assert_invalid(r, 0, "Warsaw is not adjacent to Berlin")
    assert [o["result"] for o in r["orders"][1:]] == ["succeeds", "succeeds"]
    assert r["dislodged"][0]["location"] == "Warsaw"
    assert r["dislodged"][0]["attacker_from"] == "Prussia"


def test_unknown_province_shows_the_typed_text():
    r = judge("standard", [("France", "A", "Paris")], [("France", "A Paris - Narnia")])
    item = assert_invalid(r, 0, "there is no province called 'Narnia'")
    assert item["canonical"] is None
    assert unit_set(r) == {("France", "A", "Paris")}


def test_second_order_for_the_same_unit():
    r = judge(
        "standard",
        [("Russia", "A", "Moscow")],
        [("Russia", "A Moscow - Ukraine"), ("Russia", "A mos - sev")],
    )
    assert r["orders"][0]["result"] == "succeeds"
    assert_invalid(r, 1, "A Moscow already has an order")
    # The first order stands; the second changes nothing.
    assert unit_set(r) == {("Russia", "A", "Ukraine")}


def test_fleet_move_needs_a_coast_when_both_can_be_reached():
    r = judge("standard", [("France", "F", "Mid-Atlantic Ocean")], [("France", "F mao - spa")])
    assert_invalid(r, 0, "say which coast of Spain", "Spain/nc", "Spain/sc")
    assert unit_set(r) == {("France", "F", "Mid-Atlantic Ocean")}


def test_army_convoy_without_fleets():
    r = judge("standard", [("England", "A", "London")], [("England", "A London - Belgium")])
    assert_invalid(r, 0, "no fleets stand at sea")
    assert unit_set(r) == {("England", "A", "London")}


def test_convoy_by_an_army():
    r = judge(
        "standard",
        [("England", "A", "London"), ("England", "A", "Wales")],
        [("England", "A Wales C A London - Belgium")],
    )
    assert_invalid(r, 0, "only fleets can convoy")
    assert unit_set(r) == {("England", "A", "London"), ("England", "A", "Wales")}


def test_unknown_power_in_an_order_is_a_request_error():
    r = adjudicate(request("standard", [], [("Narnia", "A Paris H")]))
    assert set(r) == {"error", "details"}
    assert "Narnia" in r["error"]


# -- adjustment phase reasons ------------------------------------------------------------------

WINTER = {"season": "winter", "year": 1901, "type": "adjustments"}
RUSSIA_6 = {
    "Russia": ["Moscow", "Warsaw", "Sevastopol", "St Petersburg", "Rumania", "Sweden"],
    "Germany": ["Berlin", "Kiel", "Munich"],
}


def test_build_in_a_foreign_centre():
    r = judge("standard", [], [("Russia", "Build A Berlin")], WINTER, supply_centers=RUSSIA_6)
    assert_invalid(r, 0, "Berlin is not a home centre of Russia")
    assert r["units"] == []


def test_build_in_a_captured_neutral_centre():
    r = judge("standard", [], [("Russia", "Build A Rumania")], WINTER, supply_centers=RUSSIA_6)
    assert_invalid(r, 0, "Rumania is not a home centre of Russia")
    assert r["units"] == []


def test_build_in_an_occupied_centre():
    units = [("Russia", "A", "Moscow")]
    r = judge("standard", units, [("Russia", "Build A Moscow")], WINTER, supply_centers=RUSSIA_6)
    assert_invalid(r, 0, "Moscow is occupied")
    assert unit_set(r) == set(units)


def test_build_in_a_home_centre_another_power_owns():
    centres = {"Russia": ["Moscow", "Sevastopol"], "Germany": ["Warsaw", "Berlin"]}
    r = judge("standard", [], [("Russia", "Build A Warsaw")], WINTER, supply_centers=centres)
    assert_invalid(r, 0, "Russia does not own Warsaw")
    assert r["units"] == []


def test_fleet_build_needs_a_coast_on_a_two_coast_centre():
    r = judge(
        "standard", [], [("Russia", "Build F St Petersburg")], WINTER, supply_centers=RUSSIA_6
    )
    assert_invalid(r, 0, "say which coast", "St Petersburg/nc", "St Petersburg/sc")
    assert r["units"] == []


def test_fleet_build_inland():
    r = judge("standard", [], [("Russia", "Build F Moscow")], WINTER, supply_centers=RUSSIA_6)
    assert_invalid(r, 0, "a fleet cannot be built in Moscow")
    assert r["units"] == []


def test_build_without_a_unit_kind():
    r = judge("standard", [], [("Russia", "Build Moscow")], WINTER, supply_centers=RUSSIA_6)
    assert_invalid(r, 0, "say what to build")
    assert r["units"] == []


def test_too_many_builds():
    centres = {"Russia": ["Moscow", "Warsaw", "Sevastopol"]}
    units = [("Russia", "A", "Sevastopol")]
    r = judge(
        "standard",
        units,
        [
            ("Russia", "Build A Moscow"),
            ("Russia", "Build A Warsaw"),
            ("Russia", "Build F St Petersburg/nc"),
        ],
        WINTER,
        supply_centers=centres,
    )
    assert [o["result"] for o in r["orders"][:2]] == ["succeeds", "succeeds"]
    assert_invalid(r, 2, "Russia has no builds left")
    assert unit_set(r) == {
        ("Russia", "A", "Sevastopol"),
        ("Russia", "A", "Moscow"),
        ("Russia", "A", "Warsaw"),
    }


def test_remove_a_unit_that_is_not_there():
    units = [("Russia", "A", "Moscow"), ("Russia", "A", "Warsaw")]
    centres = {"Russia": ["Moscow"]}
    r = judge("standard", units, [("Russia", "Remove A Ukraine")], WINTER, supply_centers=centres)
    assert_invalid(r, 0, "Russia has no unit in Ukraine")
    # The missing removal falls to civil disorder.
    assert len(r["units"]) == 1
    assert len(r["civil_disorder"]) == 1


def test_waive_without_builds():
    units = [("Russia", "A", "Moscow")]
    r = judge(
        "standard", units, [("Russia", "Waive")], WINTER, supply_centers={"Russia": ["Moscow"]}
    )
    assert_invalid(r, 0, "Russia has no builds to waive")
    assert unit_set(r) == set(units)


def test_waive_after_every_build_is_taken():
    """Found by an adversary: "has no builds to waive" of a power that had one, taken by its
    build listed before."""
    centres = {"Russia": ["Moscow", "Warsaw"]}
    r = judge(
        "standard",
        [("Russia", "A", "Moscow")],
        [("Russia", "Build A Warsaw"), ("Russia", "Waive")],
        WINTER,
        supply_centers=centres,
    )
    assert_invalid(r, 1, "Russia has no builds left to waive")


# -- retreat phase reasons ---------------------------------------------------------------------

RETREATS = {"season": "spring", "year": 1901, "type": "retreats"}
WARSAW_DISLODGED = [
    {"power": "Russia", "unit": "A", "location": "Warsaw", "attacker_from": "Silesia"}
]


def test_retreat_to_the_attackers_province():
    units = [("Germany", "A", "Warsaw")]
    r = judge(
        "standard",
        units,
        [("Russia", "A Warsaw R Silesia")],
        RETREATS,
        dislodged=WARSAW_DISLODGED,
    )
    assert_invalid(r, 0, "cannot retreat to Silesia", "attacker")
    assert unit_set(r) == set(units)  # the dislodged army is gone


def test_retreat_into_a_contested_province():
    r = judge(
        "standard",
        [("Germany", "A", "Warsaw")],
        [("Russia", "A Warsaw R Galicia")],
        RETREATS,
        dislodged=WARSAW_DISLODGED,
        contested=["Galicia"],
    )
    assert_invalid(r, 0, "Galicia was left empty by a standoff")
    assert unit_set(r) == {("Germany", "A", "Warsaw")}


def test_retreat_of_another_powers_unit():
    r = judge(
        "standard",
        [("Germany", "A", "Warsaw")],
        [("Germany", "A Warsaw R Livonia")],
        RETREATS,
        dislodged=WARSAW_DISLODGED,
    )
    assert_invalid(r, 0, "belongs to Russia")
    assert unit_set(r) == {("Germany", "A", "Warsaw")}


def test_retreat_to_a_province_that_is_not_adjacent():
    r = judge(
        "standard",
        [("Germany", "A", "Warsaw")],
        [("Russia", "A Warsaw R Berlin")],
        RETREATS,
        dislodged=WARSAW_DISLODGED,
    )
    assert_invalid(r, 0, "Warsaw is not adjacent to Berlin")
    assert unit_set(r) == {("Germany", "A", "Warsaw")}


def test_second_retreat_order_for_a_unit():
    r = judge(
        "standard",
        [("Germany", "A", "Warsaw")],
        [("Russia", "A Warsaw R Livonia"), ("Russia", "A Warsaw R Ukraine")],
        RETREATS,
        dislodged=WARSAW_DISLODGED,
    )
    assert r["orders"][0]["result"] == "succeeds"
    assert_invalid(r, 1, "already has an order")
    assert unit_set(r) == {("Germany", "A", "Warsaw"), ("Russia", "A", "Livonia")}


# -- names are read as written, never glued across a separator (issue 13) ----------------------

READ_AS_WRITTEN = [
    ("standard", "movement", "A SWE - DEN", "A Sweden - Denmark"),
    ("standard", "movement", "a swe-den", "A Sweden - Denmark"),
    ("standard", "movement", "F BAL S A SWE - DEN", "F Baltic Sea S A Sweden - Denmark"),
    ("standard", "movement", "F BAL C A SWE - DEN", "F Baltic Sea C A Sweden - Denmark"),
    ("standard", "movement", "A SWE - DEN via Convoy", "A Sweden - Denmark via Convoy"),
    ("standard", "retreats", "A RUH R KIE", "A Ruhr R Kiel"),
    ("colonial", "movement", "A CAN - TON", "A Canton - Tongking"),
    ("colonial", "movement", "A PER - SIA", "A Persia - North Siam"),
    ("colonial", "movement", "A MYS - ORE", "A Mysore - Orenburg"),
    ("colonial", "movement", "A YUN - NAN", "A Yunnan - Nanchung"),
    ("colonial", "movement", "F AND S F BEN", "F Andaman Sea S F Bengal"),
    ("colonial", "movement", "F AND S A BEN - BUR", "F Andaman Sea S A Bengal - Upper Burma"),
    ("colonial", "movement", "A PER M SHI", "A Persia - Shiraz"),
    ("far-east", "movement", "A LAO S A BUR - THA", "A Laos S A Burma - Thailand"),
    ("far-east", "movement", "F GUA M PHI", "F Guam - Philippine Sea"),
    ("far-east", "movement", "F KYO to SOJ", "F Kyoto - Sea of Japan"),
    ("far-east", "movement", "F JVS C A JAV - SUM", "F Java Sea C A Java - Sumatra"),
    ("far-east", "movement", "F CAN - TON", "F Canton - Gulf of Tonkin"),
    ("far-east", "movement", "F can-ton", "F Canton - Gulf of Tonkin"),
]


@pytest.mark.parametrize(("variant_id", "phase", "text", "canonical"), READ_AS_WRITTEN)
def test_abbreviations_are_not_glued_across_separators(variant_id, phase, text, canonical):
    assert parse(load(variant_id), text, phase).text() == canonical


REFUSED_NOT_REREAD = [
    # Each spells another order if its tokens are glued (Perm, Laos, Guam, Kyoto, Java,
    # Andaman Sea): it is refused with the reason, never read as that order.
    ("colonial", "A PER M", "expected a destination"),
    ("colonial", "F AND S", "expected the supported unit's province"),
    ("far-east", "A LAO S", "expected the supported unit's province"),
    ("far-east", "F GUA M", "expected a destination"),
    ("far-east", "A KYO to", "expected a destination"),
    ("far-east", "F JAV A", "I don't understand 'A' here"),
    ("standard", "A SWE DEN", "I don't understand 'DEN' here"),
]


@pytest.mark.parametrize(("variant_id", "text", "reason"), REFUSED_NOT_REREAD)
def test_incomplete_orders_are_refused_not_reread(variant_id, text, reason):
    with pytest.raises(OrderError, match=reason):
        parse(load(variant_id), text, "movement")


def test_sweden_to_denmark_with_abbreviations_is_played_as_written():
    r = judge(
        "standard",
        [("Russia", "A", "Sweden"), ("Russia", "F", "Baltic Sea"), ("Germany", "A", "Denmark")],
        [("Russia", "A SWE - DEN"), ("Russia", "F BAL S A SWE - DEN"), ("Germany", "A DEN H")],
    )
    assert [o["canonical"] for o in r["orders"]] == [
        "A Sweden - Denmark",
        "F Baltic Sea S A Sweden - Denmark",
        "A Denmark H",
    ]
    assert [o["result"] for o in r["orders"]] == ["succeeds", "succeeds", "fails"]
    assert ("Russia", "A", "Denmark") in unit_set(r)
    assert r["dislodged"][0]["location"] == "Denmark"


def test_ruhr_retreats_to_kiel_with_abbreviations():
    r = judge(
        "standard",
        [("France", "A", "Ruhr")],
        [("Germany", "A RUH R KIE")],
        RETREATS,
        dislodged=[
            {"power": "Germany", "unit": "A", "location": "Ruhr", "attacker_from": "Burgundy"}
        ],
    )
    assert r["orders"][0]["canonical"] == "A Ruhr R Kiel"
    assert r["orders"][0]["result"] == "succeeds"
    assert ("Germany", "A", "Kiel") in unit_set(r)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("F And. S. - Bay of Bengal", "F Andaman Sea - Bay of Bengal"),
        ("F and. s", "F Andaman Sea H"),
        ("F AND. S F BEN", "F Andaman Sea S F Bengal"),  # every name as written wins
        ("F and.s s f ben", "F Andaman Sea S F Bengal"),
        ("F andamansea - bay of bengal", "F Andaman Sea - Bay of Bengal"),
    ],
)
def test_andaman_sea_dotted_forms(colonial, text, canonical):
    assert parse(colonial, text, "movement").text() == canonical


@pytest.mark.parametrize(
    ("variant_id", "text", "typed"),
    [
        ("colonial", "A YUN.NAN H", "NAN"),  # Yunnan's abbreviation, then a word too many
        ("colonial", "A MYS.ORE H", "ORE"),
        ("colonial", "A CAN.TON H", "TON"),
        ("colonial", "A PER.SIA H", "SIA"),
        ("standard", "A SWE.DEN H", "DEN"),
        ("standard", "A YUN.NAN H", "YUN"),
        ("standard", "A SWE'DEN H", "DEN"),  # an apostrophe parts words as a dot does
        ("colonial", "A YUN'NAN H", "NAN"),
    ],
)
def test_a_dot_never_glues_two_names_into_a_third(variant_id, text, typed):
    """Dots are dropped inside a name's words, but a dot between two words parts them: ``YUN.NAN``
    is two abbreviations, never Yunnan held (the words run together would be)."""
    with pytest.raises(OrderError, match=f"'{typed}'"):
        parse(load(variant_id), text, "movement")


@pytest.mark.parametrize(
    ("variant_id", "text", "canonical"),
    [
        ("standard", "A St.Petersburg H", "A St Petersburg H"),
        ("standard", "A st.petersburg - Mos", "A St Petersburg - Moscow"),
        ("standard", "A St. Petersburg - Mos.", "A St Petersburg - Moscow"),
        ("colonial", "F AND.S - Bay of Bengal", "F Andaman Sea - Bay of Bengal"),  # its spelling
    ],
)
def test_a_dot_inside_a_names_own_words_still_reads(variant_id, text, canonical):
    assert parse(load(variant_id), text, "movement").text() == canonical


@pytest.mark.parametrize(
    ("variant_id", "text", "canonical"),
    [
        ("standard", "F Bul (e.c.) H", "F Bulgaria/ec H"),
        ("standard", "F BUL (E.C.) - CON", "F Bulgaria/ec - Constantinople"),
        ("standard", "F Bul e.c. - Con", "F Bulgaria/ec - Constantinople"),
        ("standard", "F Bul/e.c. H", "F Bulgaria/ec H"),
        ("standard", "F Bul (e. c.) H", "F Bulgaria/ec H"),
        ("standard", "F Stp(n.c.) - Bar", "F St Petersburg/nc - Barents Sea"),
        ("standard", "F Spa s.c. H", "F Spain/sc H"),
        ("standard", "F Spa (s.c) - Mao", "F Spain/sc - Mid-Atlantic Ocean"),
        ("colonial", "A Mos - Irk via T.S.R", "A Moscow - Irkutsk via TSR"),
        ("colonial", "A mos - irk (t.s.r.)", "A Moscow - Irkutsk via TSR"),
        ("standard", "A Par S.A Bur", "A Paris S A Burgundy"),  # letters of an order part
        ("standard", "A Par S A.Bur H", "A Paris S A Burgundy"),
        # An abbreviation with dots, as CONTRACT.md accepts names "with or without dots".
        ("far-east", "F tok - n.p.o.", "F Tokyo - North Pacific Ocean"),
        ("far-east", "F Tok - N.P.O", "F Tokyo - North Pacific Ocean"),
        ("far-east", "F N.S.W. - Tasman Sea", "F New South Wales - Tasman Sea"),
        ("far-east", "F Tok S F n.p.o. - Guam", "F Tokyo S F North Pacific Ocean - Guam"),
        ("far-east", "F Per - I.O.", "F Perth - Indian Ocean"),  # an alias (IO)
        ("standard", "A A.R.M. - Sev", "A Armenia - Sevastopol"),
        ("colonial", "F Egy - R.S.", "F Egypt - Red Sea"),
    ],
)
def test_initials_with_dots_of_a_coast_or_a_route_read(variant_id, text, canonical):
    """``(e.c.)`` and ``via T.S.R.`` are how many players write a coast and the railroad: the
    initials read as ``ec`` and ``TSR``, and a name's abbreviation with dots (``N.P.O.``) as
    the abbreviation; other dotted letters still part."""
    assert parse(load(variant_id), text, "movement").text() == canonical


@pytest.mark.parametrize(
    "text",
    [
        "A Mos - Vla via T. S. R.",
        "A Mos - Vla via t s r",
        "A Mos - Vla by the T. S. R.",
        "A Mos - Vla (T. S. R.)",
        "A Mos - Vla (via t. s. r)",
        # Found by an adversary: between dashes, as A MOS-T.S.R.-VLA is; in brackets after "the".
        "A Mos - T. S. R. - Vla",
        "A Mos - Vla (the T. S. R.)",
        "A Mos - Vla (the TSR)",
    ],
)
def test_a_route_spelt_in_spaced_initials_is_read(text):
    """``T. S. R.`` with a space after each dot, or the bare letters, is the railroad, as
    ``T.S.R.`` is, with or without ``via`` and in brackets."""
    order = parse(load("colonial"), text, "movement")
    assert order.text() == "A Moscow - Vladivostok via TSR"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        # All the letters are named, not a province they might begin (Timor Sea for T. S.).
        ("A Mos - Vla via T. S.", "there is no route called 'T S' on this map"),
        ("A Mos - Vla (T. S.)", "unexpected '(T. S.)' at the end of the order"),
    ],
)
def test_letters_that_spell_no_route_are_still_refused(text, reason):
    units = [{"power": "Russia", "unit": "A", "location": "Moscow"}]
    phase = {"season": "spring", "year": 1870, "type": "movement"}
    body = {"variant": "colonial", "phase": phase, "units": units}
    answer = check({**body, "orders": [{"power": "Russia", "order": text}]})["orders"][0]
    assert answer["result"] == "invalid"
    assert answer["reason"].startswith(reason)


@pytest.mark.parametrize(
    ("variant_id", "text", "typed"),
    [
        ("standard", "A.X.Y. - Sev", "X"),  # initials of no name
        # Full names only: not read, and refused as the abbreviation it spells.
        ("chinese", "A P.A.C. - Kwangtung", "P.A.C."),
        ("standard", "F Bul (e.x.) H", "("),
    ],
)
def test_other_initials_with_dots_still_part(variant_id, text, typed):
    with pytest.raises(OrderError, match=re.escape(f"'{typed}'")):
        parse(load(variant_id), text, "movement")


@pytest.mark.parametrize(
    ("variant_id", "text", "canonical"),
    [
        ("standard", "F Mid-Atlantic Ocean-NAO", "F Mid-Atlantic Ocean - North Atlantic Ocean"),
        ("standard", "F mid - atlantic ocean - nao", "F Mid-Atlantic Ocean - North Atlantic Ocean"),
        ("standard", "F MidAtlantic Ocean - nao", "F Mid-Atlantic Ocean - North Atlantic Ocean"),
        ("standard", "F nao-mid-atlantic", "F North Atlantic Ocean - Mid-Atlantic Ocean"),
        ("standard", "F mid-nao", "F Mid-Atlantic Ocean - North Atlantic Ocean"),
        ("far-east", "F Mid-Pacific Ocean-Guam", "F Mid-Pacific Ocean - Guam"),
        ("far-east", "F GUA-MPO", "F Guam - Mid-Pacific Ocean"),
        ("chinese", "A Yunan-Indo-China", "A Yunan - Indo-China"),
        ("chinese", "A Indo - China - Yunan", "A Indo-China - Yunan"),
    ],
)
def test_hyphen_inside_a_hyphenated_name(variant_id, text, canonical):
    assert parse(load(variant_id), text, "movement").text() == canonical


@pytest.mark.parametrize(
    ("variant_id", "text", "canonical"),
    [
        # Found by an adversary: "Pacific-Ocean" was refused as "no province called 'Ocean'".
        # A hyphen between the words a name spaces reads as the space; a move's dash still
        # parts two names (``NPO-TOK``), and the longer reading goes first.
        ("far-east", "F North-Pacific-Ocean H", "F North Pacific Ocean H"),
        ("far-east", "F Mid-Pacific-Ocean - Guam", "F Mid-Pacific Ocean - Guam"),
        ("far-east", "F New-Guinea-SPO", "F New Guinea - South Pacific Ocean"),
        ("far-east", "F NEW-Guinea H", "F New Guinea H"),
        ("far-east", "F NPO-TOK", "F North Pacific Ocean - Tokyo"),
        ("far-east", "F Java-Sea-Java", "F Java Sea - Java"),
        ("far-east", "A New-South-Wales-Adelaide", "A New South Wales - Adelaide"),
        ("far-east", "F Sea-of-Japan - Korea", "F Sea of Japan - Korea"),
        ("standard", "A St-Petersburg - Moscow", "A St Petersburg - Moscow"),
        ("colonial", "F Hong-Kong - South-China-Sea", "F Hong Kong - South China Sea"),
        ("chinese", "Enter A Pacific-Ocean", "Enter A Pacific Ocean"),
        # Underscores part words as spaces; more spaces, trailing dots and "the" change nothing.
        ("far-east", "F North_Pacific_Ocean - Tokyo", "F North Pacific Ocean - Tokyo"),
        ("far-east", "F  North   Pacific  Ocean.  -  Guam.", "F North Pacific Ocean - Guam"),
        ("far-east", "F the North Pacific Ocean - the Mid-Pacific", "F North Pacific Ocean - "
         "Mid-Pacific Ocean"),
        ("colonial", "A the Moscow - the Omsk", "A Moscow - Omsk"),
        ("chinese", "Enter A the Pacific Ocean", "Enter A Pacific Ocean"),
        # ... also before a name's dotted short form (the loose reading's).
        ("far-east", "F Nagasaki - the E. China Sea", "F Nagasaki - East China Sea"),
        ("far-east", "F The E.China Sea - Nagasaki", "F East China Sea - Nagasaki"),
        ("colonial", "F the S. E. Indian Ocean H", "F Southeast Indian Ocean H"),
        # A coast hyphened to its province, or its words hyphened (no name is a coast's).
        ("far-east", "F GOT - Thailand-east-coast", "F Gulf of Thailand - Thailand/ec"),
        ("far-east", "F GOT - Thailand (east-coast)", "F Gulf of Thailand - Thailand/ec"),
        ("far-east", "F Thailand-ec-GOT", "F Thailand/ec - Gulf of Thailand"),
        ("far-east", "F Thailand-GOT", "F Thailand - Gulf of Thailand"),
        ("standard", "F Spa-sc - Wes", "F Spain/sc - Western Mediterranean"),
        ("standard", "A Spa-Por", "A Spain - Portugal"),
    ],
)  # fmt: skip
def test_a_hyphen_or_underscore_between_a_names_words(variant_id, text, canonical):
    assert parse(load(variant_id), text, "movement").text() == canonical


@pytest.mark.parametrize(
    ("variant_id", "text", "reason"),
    [
        # A name that is none is named whole as written, with the names that hold its words.
        ("far-east", "F Pacific-Ocean - Tokyo", "there is no province called 'Pacific-Ocean': "
         "did you mean one of Mid-Pacific Ocean, North Pacific Ocean, South Pacific Ocean?"),
        ("far-east", "F Tokyo - Pacific Ocean", "there is no province called 'Pacific Ocean': "
         "did you mean one of Mid-Pacific Ocean, North Pacific Ocean, South Pacific Ocean?"),
        ("far-east", "F Tokyo - Pacific_Ocean", "there is no province called 'Pacific_Ocean': "
         "did you mean one of Mid-Pacific Ocean, North Pacific Ocean, South Pacific Ocean?"),
        ("far-east", "F Tokyo - Guinea", "there is no province called 'Guinea': did you mean "
         "New Guinea?"),
        ("far-east", "F Tokyo - Foo-Bar-Baz", "there is no province called 'Foo-Bar-Baz'"),
        ("far-east", "F Tokyo S F Foo-Bar - NPO", "there is no province called 'Foo-Bar'"),
        ("far-east", "F Tokyo - Narnia please", "there is no province called 'Narnia'"),
        ("colonial", "A Moscow - St-Petersburg", "there is no province called 'St-Petersburg'"),
        ("far-east", "F the H", "there is no province called 'the'"),
        # After "the", a name misspelt is named, not "the".
        ("far-east", "F Tokyo - the E China Sea", "there is no province called 'E China "
         "Sea': did you mean East China Sea?"),
        ("far-east", "F Tokyo - the Narnia", "there is no province called 'Narnia'"),
        # Words left over that end a longer name, one of them cut short, name that name
        # (``Jav.`` alone is read as Java, ``Sea`` then left over).
        ("far-east", "F Sumatra - Jav. Sea", "there is no province called 'Jav. Sea': did you "
         "mean Java Sea?"),
        ("far-east", "F Sumatra - jav sea", "there is no province called 'jav sea': did you "
         "mean Java Sea?"),
        ("far-east", "F Brisbane - Cor. Sea H", "there is no province called 'Cor. Sea': did "
         "you mean Coral Sea?"),
        ("far-east", "F Sumatra H Sea", "unexpected 'Sea' at the end of the order"),
        # Initials with dots, as without (``S`` is then no support).
        ("colonial", "F Sumatra - S.E.I.O.", "there is no province called 'S.E.I.O.': did you "
         "mean Southeast Indian Ocean?"),
        ("colonial", "F Sumatra - s. e. i. o", "there is no province called 's. e. i. o': did "
         "you mean Southeast Indian Ocean?"),
        ("colonial", "F S.E.I.O. H", "there is no province called 'S.E.I.O.': did you mean "
         "Southeast Indian Ocean?"),
        ("far-east", "F Tokyo - Ec", "there is no province called 'Ec'"),  # no Thailand here
        # A name's initials are suggested, never read (a compass word by its two points).
        ("colonial", "F Sumatra - SEIO", "there is no province called 'SEIO': did you mean "
         "Southeast Indian Ocean?"),
        ("colonial", "F Java - JS", "there is no province called 'JS'"),  # two say too little
        ("colonial", "F Java - Xyz", "there is no province called 'Xyz'"),
        # A word of one or two letters for one of a name's words (no name is read so).
        ("standard", "F Bre - N. Atlantic", "'N. Atlantic' is not a full name: did you mean "
         "North Atlantic Ocean?"),
        ("colonial", "F Hong Kong - S. China", "'S. China' is not a full name: did you mean "
         "South China Sea?"),
        ("colonial", "F S China H", "'S China' is not a full name: did you mean South China "
         "Sea?"),
        ("colonial", "F S China - Canton", "'S China' is not a full name: did you mean South "
         "China Sea?"),  # the dash is the move's, not the name's
        ("colonial", "F Canton - Gulf of 3", "'Gulf of' is not a full name: did you mean one of "
         "Gulf of Aden, Gulf of Manaar, Gulf of Siam?"),
        ("far-east", "F Tokyo - N Guinea", "there is no province called 'N Guinea': did you "
         "mean New Guinea?"),
        # ... also where the words after it start a name or are a power's name (China).
        ("colonial", "F Canton - So China Sea", "there is no province called 'So China Sea': "
         "did you mean South China Sea?"),
        # A point of the compass cut short without its dot (with it, it is read: below).
        ("colonial", "F Canton - S China Sea", "there is no province called 'S China Sea': "
         "did you mean South China Sea?"),
        ("colonial", "F S China Sea - Canton", "there is no province called 'S China Sea': "
         "did you mean South China Sea?"),
        ("colonial", "F ECS - SE Indian Ocean", "there is no province called 'SE Indian "
         "Ocean': did you mean Southeast Indian Ocean?"),
        ("far-east", "F N Pacific Ocean H", "there is no province called 'N Pacific Ocean': "
         "did you mean North Pacific Ocean?"),
        # ... and with its dot where it may begin another name (the Norwegian Sea), or where
        # it would be parted between a support and a name (``S.E.``: not S East Indian Ocean).
        ("standard", "F Nwy - N. Sea", "there is no province called 'N. Sea': did you mean "
         "one of North Sea, Norwegian Sea?"),
        ("standard", "F Lon - No Sea", "there is no province called 'No Sea': did you mean "
         "one of North Sea, Norwegian Sea?"),
        ("colonial", "F Ceylon S.E. Indian Ocean H", "I don't understand 'S.E.' here; expected "
         "H, -, S or C"),
        # A power's name that begins words names hold: those names, not the power.
        ("colonial", "F Hong Kong - China Sea", "there is no province called 'China Sea': did "
         "you mean one of East China Sea, South China Sea?"),
        ("colonial", "F Hong Kong - China", "China is a power, not a province"),
        # Words that begin names, then one no name goes on with: a place of the player's own.
        ("colonial", "F Annam - Gulf of Tonkin", "there is no province called 'Gulf of "
         "Tonkin': did you mean one of Gulf of Aden, Gulf of Manaar, Gulf of Siam?"),
        ("standard", "F Bre - North Pole", "there is no province called 'North Pole': did you "
         "mean one of North Africa, North Atlantic Ocean, North Sea?"),
        # Letters that begin a few names: those names.
        ("colonial", "F Bombay - Ara", "there is no province called 'Ara': did you mean one of "
         "Arabia, Arabian Sea?"),
        ("colonial", "A Moscow - Vlad", "there is no province called 'Vlad': did you mean "
         "Vladivostok?"),
        ("far-east", "A Ha Noi - Laos", "there is no province called 'Ha Noi': did you mean "
         "Hanoi?"),
        # A hyphen without spaces after such a word is a move: only the word is named.
        ("standard", "A Mo-Sev", "there is no province called 'Mo'"),
        ("standard", "A St-Mos", "'St' is not a full name: did you mean St Petersburg?"),
        ("far-east", "F Tokyo - Mid-Pac", "'Mid-Pac' is not a full name: did you mean "
         "Mid-Pacific Ocean?"),
        ("standard", "F Brest - North-Atl", "'North-Atl' is not a full name: did you mean "
         "North Atlantic Ocean?"),
        ("standard", "F Brest - North Af", "'North' is not a full name: did you mean "
         "North Africa?"),
        ("standard", "F Bre S F North - English Channel", "'North' is not a full name: did you "
         "mean one of North Africa, North Atlantic Ocean, North Sea?"),
        # Read as one name that is none: six words at most (no name has more than four), so
        # that a line of unknown words costs no more than a long name.
        ("far-east", "F Tokyo - qa_qb_qc_qd_qe_qf_qg_qh", "there is no province called "
         "'qa_qb_qc_qd_qe_qf'"),
    ],
)  # fmt: skip
def test_a_name_that_is_none_is_named_whole(variant_id, text, reason):
    """Also a name cut short: as written (``Mid-Pac``, not ``Mid``), with the names whose next
    word it begins."""
    with pytest.raises(OrderError) as refused:
        parse(load(variant_id), text, "movement")
    assert str(refused.value) == reason


@pytest.mark.parametrize(
    ("variant_id", "text", "canonical"),
    [
        ("colonial", "F E. China Sea H", "F East China Sea H"),
        ("colonial", "F e.  CHINA   sea h", "F East China Sea H"),
        ("colonial", "F E.China Sea - S.China Sea", "F East China Sea - South China Sea"),
        ("colonial", "F Canton - So. China Sea", "F Canton - South China Sea"),
        ("colonial", "F Canton - Sth. China Sea", "F Canton - South China Sea"),
        ("colonial", "F S. China Sea S. F E. China Sea - Formosa",
         "F South China Sea S F East China Sea - Formosa"),
        ("colonial", "F S.E. Indian Ocean - W. Indian Ocean",
         "F Southeast Indian Ocean - West Indian Ocean"),
        ("colonial", "F SE. Indian Ocean H", "F Southeast Indian Ocean H"),
        ("colonial", "F S.E Indian Ocean H", "F Southeast Indian Ocean H"),
        ("colonial", "F Ceylon S SE. Indian Ocean H", "F Ceylon S Southeast Indian Ocean"),
        ("standard", "F Lon - Nth. Sea", "F London - North Sea"),
        ("colonial", "A N. Siam - Upper Burma", "A North Siam - Upper Burma"),
        ("far-east", "F Tokyo - N. Pacific Ocean", "F Tokyo - North Pacific Ocean"),
        ("far-east", "F Tokyo - N. Pacific", "F Tokyo - North Pacific Ocean"),  # an alias
        ("far-east", "F No. Pacific Ocean S F S. Pacific Ocean - Mid-Pacific Ocean",
         "F North Pacific Ocean S F South Pacific Ocean - Mid-Pacific Ocean"),
        ("standard", "F W. Mediterranean - N. Africa", "F Western Mediterranean - North Africa"),
        ("standard", "F E. Mediterranean S F Aegean Sea", "F Eastern Mediterranean S F Aegean Sea"),
        # Read as written first: ``S.`` after a unit is still a support.
        ("standard", "F Nth S. F Eng - Bel", "F North Sea S F English Channel - Belgium"),
        ("colonial", "F Java S. E. Indian Ocean", "F Java S East Indian Ocean"),
        # Found by an adversary: refused as "expected a destination, not 'S.'", or ('South
        # East') as "'South' is not a full name: did you mean South China Sea?".
        ("colonial", "F Java - S. E. Indian Ocean", "F Java - Southeast Indian Ocean"),
        ("colonial", "F Java - South East Indian Ocean", "F Java - Southeast Indian Ocean"),
        ("colonial", "F Java - south-east indian ocean", "F Java - Southeast Indian Ocean"),
        ("colonial", "F South-East Indian-Ocean H", "F Southeast Indian Ocean H"),
    ],
)  # fmt: skip
def test_a_point_of_the_compass_cut_short_with_its_dot(variant_id, text, canonical):
    """``E. China Sea``, ``So. China Sea``, ``S.E. Indian Ocean``: what players write for a
    name that starts with a point of the compass, read only with the dot (``S`` is a support:
    without it the name is refused, above, naming the sea it may mean)."""
    assert parse(load(variant_id), text, "movement").text() == canonical


@pytest.mark.parametrize(
    ("variant_id", "text", "reason"),
    [
        # Found by an adversary: each was "expected a destination, not 'B.'" (a build), 'A.'
        # (an army) or 'S.' (a support).
        ("colonial", "F Madras - B. of Bengal", "there is no province called 'B. of Bengal': "
         "did you mean Bay of Bengal?"),
        ("colonial", "F Bombay - A. Sea", "there is no province called 'A. Sea': did you mean "
         "one of Andaman Sea, Arabian Sea?"),
        ("colonial", "F Java - S. Indian Ocean", "there is no province called 'S. Indian "
         "Ocean': did you mean Southeast Indian Ocean?"),
        ("colonial", "F Bombay - Arab. Sea", "there is no province called 'Arab. Sea': did "
         "you mean Arabian Sea?"),
        ("far-east", "A Peking - M. Republic", "there is no province called 'M. Republic': "
         "did you mean Mongolian Republic?"),
        ("colonial", "F Java - S E Indian Ocean", "there is no province called 'S E Indian "
         "Ocean': did you mean Southeast Indian Ocean?"),
        # Found by the adversary of the change: the halves of Southeast alone made the
        # Southeast Indian Ocean the name a player meant by "South East China Sea" and "S. E.
        # China Sea"; a variant that takes no abbreviation said so no more.
        ("colonial", "F Java - South East China Sea", "'South' is not a full name: did you "
         "mean South China Sea?"),
        ("colonial", "F Java - S. E. China Sea", "expected a destination, not 'S.'"),
        ("chinese", "F Kiangsu - Pac. Ocean", "province names are written in full here: write "
         "Pacific Ocean, not 'Pac.'"),
        ("standard", "F Rome - a. sea", "there is no province called 'a. sea': did you mean "
         "one of Adriatic Sea, Aegean Sea?"),
    ],
)  # fmt: skip
def test_a_names_first_word_cut_short_is_refused_naming_the_names(variant_id, text, reason):
    """Only where no such cut is read (the points of the compass, above): the refusal names
    the names whose first word the cut begins and whose other words follow it."""
    with pytest.raises(OrderError) as refused:
        parse(load(variant_id), text, "movement")
    assert str(refused.value) == reason


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        # Found by an adversary: "A\u200bMoscow H" was "no province called 'amoscow'" (the zero-
        # width space dropped, gluing the words), a soft hyphen or a direction mark pasted with
        # an order refused it as unreadable. A zero-width space is a space; the others nothing.
        ("A\u200bMoscow H", "A Moscow H"),
        ("A Mos\u00adcow H", "A Moscow H"),
        ("\u200eA Moscow - Omsk\u200f", "A Moscow - Omsk"),
        # The dashes a Japanese keyboard types: the long-vowel mark, the horizontal bar.
        ("A Moscow ー Omsk", "A Moscow - Omsk"),
        ("A Moscow ｰ Omsk", "A Moscow - Omsk"),
        ("A Moscow―Omsk", "A Moscow - Omsk"),
        # A route's words joined by hyphens, as a name's may be.
        ("A Moscow - Omsk via Trans-Siberian-Railroad", "A Moscow - Omsk via TSR"),
    ],
)
def test_pasted_invisible_characters_and_a_hyphened_route(colonial, text, canonical):
    assert parse(colonial, text, "movement").text() == canonical


def test_new_is_new_guineas_abbreviation_in_far_east():
    """Reported as a misread: "F NEW H" read as New Guinea. It is right: NEW is New Guinea's
    abbreviation on the Far East map (``variants/far_east/variant.json``), as on the Colonial
    map, whose abbreviations the Far East board follows (its README); no other province is
    called or abbreviated NEW, and New South Wales and New Zealand are NSW and NZE."""
    far_east = load("far-east")
    assert far_east.provinces["New Guinea"].abbreviation == "NEW"
    assert parse(far_east, "F NEW H", "movement").text() == "F New Guinea H"
    assert parse(load("colonial"), "F NEW H", "movement").text() == "F New Guinea H"
    assert [p.name for p in far_east.provinces.values() if p.abbreviation == "NEW"] == [
        "New Guinea"
    ]


def test_error_comes_from_the_reading_that_got_furthest(colonial):
    # "F AND S F ..." is the Andaman Sea supporting: the unknown name is the error, not "F".
    with pytest.raises(OrderError, match="no province called 'Narnia'"):
        parse(colonial, "F AND S F Narnia", "movement")


def test_lookup_of_a_whole_name_is_as_strict(standard):
    assert standard.lookup("SWE DEN") is None
    assert standard.lookup("swe-den") is None
    assert standard.lookup("Sweden") == "Sweden"
    assert standard.lookup("Spain (North Coast)") == "Spain/nc"
    assert standard.lookup("st. petersburg/sc") == "St Petersburg/sc"
    assert standard.lookup("mid-atlantic") == "Mid-Atlantic Ocean"
    r = adjudicate(request("standard", [("Russia", "A", "SWE DEN")], []))
    assert "SWE DEN" in r["error"]


def test_plugin_orders_read_names_as_written():
    colonial = load("colonial")
    order = parse(colonial, "Suez permit F MED", "movement")
    assert order.text() == "Suez permit F Mediterranean Sea"
    with pytest.raises(OrderError, match="Suez permit names the fleet"):
        parse(colonial, "Suez permit F MED ITERRANEAN SEA", "movement")
    # Found by an adversary: "the" before the sea, and a colon after "permit", were refused.
    for text in ("Suez permit F the Red Sea", "Suez permit: F Red Sea", "suez permit: the red sea"):
        assert parse(colonial, text, "movement").text() == "Suez permit F Red Sea", text
    chinese = load("chinese")
    assert parse(chinese, "Enter A Indo - China", "movement").text() == "Enter A Indo-China"
    with pytest.raises(OrderError, match="no province called 'Pacific Oce An'"):
        parse(chinese, "Enter A Pacific Oce An", "movement")


KEYWORDS = (
    {"a", "army", "f", "fleet", "h", "hold", "holds", "stand", "stands", "m", "move", "moves"}
    | {"to", "attack", "attacks", "s", "support", "supports", "c", "convoy", "convoys", "r"}
    | {"retreat", "retreats", "d", "disband", "disbands", "build", "builds", "b", "remove"}
    | {"removes", "waive", "waives", "pass", "via", "by", "coast", "suez", "enter", "leave"}
)


@pytest.mark.parametrize("variant_id", ["standard", "colonial", "far-east", "chinese"])
def test_no_name_is_made_of_order_words(variant_id):
    """What keeps most orders to one reading: a keyword never reads as (part of) a name.

    Loose forms (``And. S.``) may end in one; they are read last, and only with their dots.
    """
    variant = load(variant_id)
    words = {w for found in variant.name_starts.values() for ws, _ in found for w in ws}
    assert words & KEYWORDS == set()
    assert all(not re.fullmatch(r"[af]\d+", w) for w in words)  # numbered units: A2, F1
    routes = {w.lower() for plugin in variant.plugins for w in getattr(plugin, "ROUTES", ())}
    assert words & routes == set()  # MOS-TSR-VLA is a railroad move, never a name
    powers = {w for name in variant.power_names for w in name.split()}
    assert not any(re.fullmatch(r"[af]\d+|a|f|army|fleet", p) for p in powers)


@pytest.mark.parametrize("variant_id", ["standard", "colonial", "far-east", "chinese"])
def test_no_hyphenated_name_is_two_names(variant_id):
    """``A - B`` would be a hold of A-B and a move from A to B: no variant may allow both."""
    variant = load(variant_id)
    starts = variant.name_starts
    for words in variant.phrases:
        for i, word in enumerate(words):
            if word != "-":
                continue
            head, tail = words[:i], words[i + 1 :]
            follows = [ws for ws, _ in starts.get(tail[0], ()) if tail[: len(ws)] == ws]
            assert head not in variant.phrases or not follows, (words, follows)


# -- the seeds' and errata's notations --------------------------------------------------------


def test_the_errata_support_with_an_adjective_and_rs_for_the_red_sea():
    """Colonial errata: ``F EGY S British F RS-MED``. The adjective names whose unit (read as
    the power, refused when the unit is another's) and ``RS`` is the Red Sea."""
    units = [("Britain", "F", "Egypt"), ("Britain", "F", "Red Sea")]
    r = judge("colonial", units, [("Britain", "F EGY S British F RS-MED"), ("Britain", "F RS H")])
    assert r["orders"][0]["canonical"] == "F Egypt S F Red Sea - Mediterranean Sea"
    assert r["orders"][0]["result"] == "succeeds"
    assert r["orders"][0]["reason"].startswith("no effect")  # the fleet held instead
    r = judge("colonial", units, [("Britain", "F EGY S Dutch F RS-MED")])
    assert_invalid(r, 0, "the unit in Red Sea belongs to Britain, not Holland")
    r = judge("standard", [("France", "A", "Paris"), ("France", "A", "Burgundy")],
              [("France", "A Burgundy S Germany A Paris")])  # fmt: skip
    assert_invalid(r, 0, "belongs to France, not Germany")


@pytest.mark.parametrize("word", ["railroad", "Railroad", "railway", "TSR", "tsr"])
def test_a_railroad_move_is_written_via_tsr_whatever_word_names_it(word):
    r = judge(
        "colonial",
        [("Russia", "A", "Moscow")],
        [("Russia", f"A Moscow - Vladivostok via {word}")],
    )
    assert r["orders"][0]["canonical"] == "A Moscow - Vladivostok via TSR"
    assert r["orders"][0]["data"]["via"] == "TSR"


def test_refused_builds_and_retreats_echo_how_they_were_read():
    adjustments = {"season": "winter", "year": 1901, "type": "adjustments"}
    r = judge(
        "standard",
        [],
        [("France", "build a munich"), ("France", "Build F Paris"), ("France", "Build xyz")],
        adjustments,
        supply_centers={"France": ["Paris", "Brest", "Marseilles", "Belgium"]},
    )
    assert [o["canonical"] for o in r["orders"]] == ["Build A Munich", "Build F Paris", None]
    assert all(o["result"] == "invalid" for o in r["orders"])
    retreats = {"season": "spring", "year": 1901, "type": "retreats"}
    r = judge(
        "standard",
        [("Germany", "A", "Brest")],
        [("France", "Brest R Paris")],
        retreats,
        dislodged=[
            {"power": "France", "unit": "F", "location": "Brest", "attacker_from": "Gascony"}
        ],
    )
    assert_invalid(r, 0, "inland")
    assert r["orders"][0]["canonical"] == "F Brest R Paris"


# -- unit numbers, named powers, coasts (an adversary's findings) ---------------------------


@pytest.mark.parametrize(
    ("text", "phase_type"),
    [
        ("F7 Bre H", "movement"),
        ("A2 Par - Bur", "movement"),
        ("A Mun S France A3 Par - Bur", "movement"),
        ("F ENG C A2 Lon - Bel", "movement"),
        ("A2 Par R Bur", "retreats"),
        ("Build A2 Ber", "adjustments"),
        ("Remove A3 Par", "adjustments"),
    ],
)
def test_a_unit_number_outside_a_shared_space_is_refused(standard, text, phase_type):
    # It was dropped: F7 Brest read as F Brest, another unit than the one written.
    with pytest.raises(OrderError, match="holds one unit at most, so there is no number"):
        parse(standard, text, phase_type)


def test_number_one_names_the_one_unit():
    units = [{"power": "France", "unit": "F", "location": "Brest"}]
    phase = {"season": "spring", "year": 1901, "type": "movement"}
    request = {"variant": "standard", "units": units, "phase": phase}
    reply = check({**request, "orders": [{"power": "France", "order": "F1 Bre H"}]})
    assert (
        reply["orders"][0]["canonical"] == "F Brest H" and reply["orders"][0]["result"] == "valid"
    )


def test_a_convoy_may_name_the_armys_power(standard):
    order = parse(standard, "F ENG C France A Bre - Lon", "movement")
    assert (order.kind, order.target_power, order.target) == (CONVOY, "France", "Brest")


@pytest.mark.parametrize("text", ["F MAO - Spa (s)", "F MAO - Spa/s", "F MAO - spa/s coast"])
def test_s_is_the_south_coast_after_a_slash_or_in_brackets(standard, text):
    assert parse(standard, text, "movement").destination == "Spain/sc"


@pytest.mark.parametrize(
    ("variant_id", "text", "canonical"),
    [
        # Found by an adversary: the Far East's alias, not Colonial's; "Sea of Okhotsk" was
        # refused with "did you mean Sea of Japan?".
        ("colonial", "F Otaru - Sea of Okhotsk", "F Otaru - Okhotsk Sea"),
        # ... and the seed's "Imperial armies": Chinese Diplomacy's powers by their adjectives.
        ("chinese", "A Kiangsu S Imperial A Shamtung", "A Kiangsu S Imperials A Shamtung"),
        ("chinese", "A Kiangsu S Communist A Shamtung", "A Kiangsu S Communists A Shamtung"),
        ("chinese", "A Kiangsu S American A Shamtung", "A Kiangsu S United States A Shamtung"),
        # ... with "the" before it, as one writes it in a sentence.
        ("chinese", "A Kiangsu S the Imperial A Shamtung", "A Kiangsu S Imperials A Shamtung"),
        ("chinese", "A Kiangsu S the Imperials Army Shamtung", "A Kiangsu S Imperials A Shamtung"),
        ("colonial", "F Egy S the British F Red Sea", "F Egypt S Britain F Red Sea"),
        # The standard map's powers by their adjectives too, with or without "the".
        ("standard", "A Mun S German A Ber", "A Munich S Germany A Berlin"),
        ("standard", "A Mun S the German A Ber - Sil", "A Munich S Germany A Berlin - Silesia"),
        ("standard", "F Bre C the english A Lon - Bre", "F Brest C England A London - Brest"),
        # An adjective that begins a province's name is still the province without a unit word.
        ("standard", "F Lon S English Channel", "F London S English Channel"),
    ],
)
def test_names_players_write_from_the_rules(variant_id, text, canonical):
    assert parse(load(variant_id), text, "movement").text() == canonical


@pytest.mark.parametrize(
    "text",
    [
        "A Pacific Ocean Leave.",
        "Leave A Pacific Ocean",
        "leave pacific ocean!",
        "Army Pacific Ocean exits",
    ],
)
def test_chinese_leave_spellings(text):
    assert parse(load("chinese"), text, "movement").text() == "A Pacific Ocean Leave"


@pytest.mark.parametrize(
    "text",
    [
        "A2 Pacific Ocean Leave",
        "leave army2 the pacific ocean",
        "A 2 Pacific Ocean Leave",  # the number apart, as any order may write it
        "Army 2 Pacific Ocean leave",
        "Leave A 2 Pacific Ocean",
    ],
)
def test_a_chinese_leave_keeps_its_armys_number(text):
    """As any order does in a space several units share: it names army 2 there."""
    order = parse(load("chinese"), text, "movement")
    assert (order.text(), order.number) == ("A2 Pacific Ocean Leave", 2)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        # The advice keeps the army's number (adversary's finding: it dropped it).
        ("A 2 Pacific Ocean - Leave", "write 'A2 Pacific Ocean Leave'"),
        ("A2 Pacific Ocean - Leave", "write 'A2 Pacific Ocean Leave'"),
        ("A Pacific Ocean - Leave", "write 'A Pacific Ocean Leave'"),
        # Numbers below 1, refused as the core refuses F-1 (not as a province '- 1 Pacific').
        ("A-1 Pacific Ocean Leave", "there is no unit A-1: the units a power has in one space"),
        ("Army-2 Pacific Ocean Leave", "there is no unit Army-2"),
        # An army that enters is not on the board yet: no number names it (it was dropped).
        (
            "Enter A2 Pacific Ocean",
            "an army that enters has no number yet: write 'Enter A Pacific Ocean'",
        ),
        ("Enter A 2 Pacific Ocean", "has no number yet"),
    ],
)
def test_a_chinese_enter_or_leave_refused_says_so_with_its_number(text, reason):
    with pytest.raises(OrderError) as refused:
        parse(load("chinese"), text, "movement")
    assert reason in str(refused.value)


@pytest.mark.parametrize("text", ["A0 Pacific Ocean Leave", "A 0 Pacific Ocean Leave"])
def test_a_chinese_leave_of_army_0_is_refused_as_other_orders_are(text):
    """Units are numbered from 1: army 0 is refused when read, with the reason ``F0`` gets,
    not accepted and then found to have no army."""
    with pytest.raises(OrderError, match="numbered from 1"):
        parse(load("chinese"), text, "movement")


@pytest.mark.parametrize(
    ("variant_id", "text", "canonical"),
    [
        ("chinese", "Army2 Pacific Ocean - Kwangtung", "A2 Pacific Ocean - Kwangtung"),
        ("far-east", "Fleet2 Mid-Pacific Ocean - Guam", "F2 Mid-Pacific Ocean - Guam"),
        ("far-east", "F Guam S fleet12 mid-pacific ocean", "F Guam S F12 Mid-Pacific Ocean"),
    ],
)
def test_a_unit_word_in_full_with_its_number_joined_is_read(variant_id, text, canonical):
    """``Army2`` as ``A2`` and ``Army 2`` are: the unit word in full, its number joined."""
    assert parse(load(variant_id), text, "movement").text() == canonical


def test_a_hold_with_the_wrong_coast_is_answered_at_the_units_own_coast():
    # DATC 6.B.10 ignores the wrong coast; the answer kept it, and its data put the fleet
    # where no unit stands.
    units = [{"power": "France", "unit": "F", "location": "Spain/nc"}]
    phase = {"season": "spring", "year": 1901, "type": "movement"}
    reply = check(
        {"variant": "standard", "units": units, "phase": phase,
         "orders": [{"power": "France", "order": "F Spa/sc H"}]}
    )  # fmt: skip
    assert reply["orders"][0]["canonical"] == "F Spain/nc H"
    assert reply["orders"][0]["data"]["location"] == "Spain/nc"
