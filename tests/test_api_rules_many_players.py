"""Colonial Diplomacy and Far East I-R played through the API by several players of one game.

Each power's player sends their own orders with their own token; the moderator processes the
phase; the results, reasons and the next board are read back as a player reads them. The
positions are set on the current phase's board (``place``), as test_api_rules_in_context.py
does, so that each rule is met at once.
"""

from __future__ import annotations

import pytest
from test_api_rules_in_context import judged, place, units_of
from test_api_variants_play import new_game, order, process

pytestmark = pytest.mark.django_db

MPO = "Mid-Pacific Ocean"


def sent(client, game_id: int, orders: list[str]) -> list[dict]:
    """The orders saved, each as the server answered it (valid or not)."""
    response = client.put(f"/api/games/{game_id}/orders/", {"orders": orders}, format="json")
    assert response.status_code == 200, response.data
    return response.data


# -- Far East I-R, rule 6.7: a fleet's number is a label, not a particular fleet ---------------


@pytest.mark.parametrize(
    "australia",
    [
        ["F Mid-Pacific - Guam", "F Mid-Pacific H"],  # unnumbered: the move takes fleet 1
        ["F1 Mid-Pacific - Guam", "F2 Mid-Pacific H"],  # numbered otherwise than Japan guessed
        ["F2 Mid-Pacific - Guam", "F1 Mid-Pacific H"],  # numbered as Japan guessed
    ],
)
def test_a_foreign_support_naming_f2_supports_the_fleet_that_makes_the_move(australia):
    """Seed 002, 6.7: "These numbers do not designate specific Fleets". Japan cannot know which
    Australian fleet Australia's own orders call F2, or whether they number them at all: its
    support of "Australia F2 Mid-Pacific - Guam" is for the Australian fleet there that moves
    to Guam, and dislodges China's fleet, 2 to 1, however Australia wrote its orders."""
    game_id, moderator, players = new_game("far-east")
    place(
        game_id,
        [
            ("Australia", "F", MPO),
            ("Australia", "F", MPO),
            ("Japan", "F", "Philippine Sea"),
            ("China", "F", "Guam"),
        ],
    )
    order(players["Australia"], game_id, australia)
    order(players["Japan"], game_id, ["F Philippine Sea S Australia F2 Mid-Pacific - Guam"])
    phase = process(moderator, game_id)
    results = judged(moderator, game_id, 0)
    assert results["F Philippine Sea S Australia F2 Mid-Pacific Ocean - Guam"] == ("succeeds", "")
    assert ("Australia", "F", "Guam") in units_of(phase)
    assert [(d["power"], d["location"]) for d in phase["dislodged"]] == [("China", "Guam")]


def test_a_support_naming_f2_when_no_fleet_makes_the_move_names_f2():
    game_id, moderator, players = new_game("far-east")
    place(
        game_id,
        [
            ("Australia", "F", MPO),
            ("Australia", "F", MPO),
            ("Japan", "F", "Philippine Sea"),
            ("China", "F", "Guam"),
        ],
    )
    order(players["Australia"], game_id, ["F Mid-Pacific - New Guinea", "F Mid-Pacific H"])
    order(players["Japan"], game_id, ["F Philippine Sea S Australia F2 Mid-Pacific - Guam"])
    process(moderator, game_id)
    result, reason = judged(moderator, game_id, 0)[
        "F Philippine Sea S Australia F2 Mid-Pacific Ocean - Guam"
    ]
    assert (result, reason) == (
        "succeeds",
        "no effect: Australia F2 Mid-Pacific Ocean was not ordered to Guam",
    )


def test_a_far_east_support_may_name_whose_fleet_by_the_powers_adjective():
    """As in Colonial (errata 9.35, "S British F RS-MED"), a Far East support may say whose fleet
    in a shared ocean it means by the power's adjective: "S Australian F2 Mid-Pacific"."""
    game_id, moderator, players = new_game("far-east")
    others = [("Japan", "F", MPO), ("Viet Nam", "F", MPO), ("Indonesia", "F", MPO)]
    place(
        game_id,
        [("Australia", "F", MPO), ("Australia", "F", MPO), *others, ("China", "F", "Guam")],
    )
    for adjective, power in [("Japanese", "Japan"), ("Vietnamese", "Viet Nam")]:
        answer = sent(players["Indonesia"], game_id, [f"F Mid-Pacific S {adjective} F Mid-Pacific"])
        assert answer[0]["data"]["target_power"] == power, answer
    answer = sent(players["Japan"], game_id, ["F Mid-Pacific S Indonesian F Mid-Pacific - Guam"])
    assert answer[0]["data"]["target_power"] == "Indonesia", answer
    answer = order(players["Japan"], game_id, ["F Mid-Pacific S Australian F2 Mid-Pacific - Guam"])
    assert answer[0]["canonical"] == "F Mid-Pacific Ocean S Australia F2 Mid-Pacific Ocean - Guam"
    order(players["Australia"], game_id, ["F2 Mid-Pacific - Guam", "F1 Mid-Pacific H"])
    phase = process(moderator, game_id)
    assert ("Australia", "F", "Guam") in units_of(phase)
    assert [(d["power"], d["location"]) for d in phase["dislodged"]] == [("China", "Guam")]


# -- Colonial: the Trans-Siberian Railroad ------------------------------------------------------


@pytest.mark.parametrize("support", ["A Orenburg S A MOS-TSR-OMS", "A Ore S A Mos - TSR - Oms"])
def test_a_support_may_write_the_railroad_move_as_the_errata_write_it(support):
    """Errata 9.23 writes a railroad move "A MOS-TSR-VLA", and the server reads a move so; a
    support of that move, written the same way, is read too and counts, 2 to 1 in Omsk."""
    game_id, moderator, players = new_game("colonial")
    place(
        game_id,
        [("Russia", "A", "Moscow"), ("Britain", "A", "Orenburg"), ("China", "A", "Akmolinsk")],
    )
    answer = order(players["Britain"], game_id, [support])
    assert answer[0]["canonical"] == "A Orenburg S A Moscow - Omsk"
    order(players["Russia"], game_id, ["A MOS-TSR-OMS"])
    order(players["China"], game_id, ["A Akmolinsk - Omsk"])
    phase = process(moderator, game_id)
    assert ("Russia", "A", "Omsk") in units_of(phase)
    assert judged(moderator, game_id, 0)["A Moscow - Omsk via TSR"] == ("succeeds", "")


# -- Colonial: the Suez Canal -------------------------------------------------------------------


@pytest.mark.parametrize("permit", ["Suez Canal permit F Med", "Suez: permit F Med"])
def test_a_permit_may_name_the_canal_in_full(permit):
    """Rule 7 names it "the Suez Canal": "Suez Canal permit F Med" is the permit, not "a Suez
    permit names the fleet in Mediterranean Sea or Red Sea" (it does name it)."""
    game_id, moderator, players = new_game("colonial")
    place(game_id, [("Britain", "A", "Egypt"), ("Turkey", "F", "Mediterranean Sea")])
    answer = order(players["Britain"], game_id, [permit])
    assert answer[0]["canonical"] == "Suez permit F Mediterranean Sea"
    order(players["Turkey"], game_id, ["F Med - Red Sea"])
    phase = process(moderator, game_id)
    assert ("Turkey", "F", "Red Sea") in units_of(phase)


# -- sloppy input ---------------------------------------------------------------------------------


def test_orders_ended_with_chinese_or_japanese_punctuation_are_read():
    """The site speaks Chinese and Japanese, whose keyboards end a sentence with "。" and quote
    with corner brackets: read as the full stop and quotes they are, as full-width letters are
    (it was "a character that is not read in orders: '。'")."""
    game_id, moderator, players = new_game("colonial")
    answer = order(
        players["Russia"],
        game_id,
        [
            "A Moscow - Vladivostok via TSR。",
            "「A Omsk H」",
            "Ｆ Ｏｄｅｓｓａ － Ｂｌａｃｋ Ｓｅａ｡",
        ],
    )
    assert [a["canonical"] for a in answer] == [
        "A Moscow - Vladivostok via TSR",
        "A Omsk H",
        "F Odessa - Black Sea",
    ]
    process(moderator, game_id)
    results = judged(moderator, game_id, 0)
    assert results["F Odessa - Black Sea"] == ("succeeds", "")


def test_seas_named_with_a_point_of_the_compass_cut_short_are_read():
    """``S. China Sea``, ``E. China Sea``: how players write the seas; each power's player sends
    them, the support counts, and the move succeeds. Without the dot the order is refused for
    the sea it may mean (it was "expected the unit's province, not 'S.'")."""
    game_id, moderator, players = new_game("colonial")
    place(
        game_id,
        [
            ("China", "F", "South China Sea"),
            ("Japan", "F", "East China Sea"),
            ("France", "F", "Formosa"),
        ],
    )
    china = order(players["China"], game_id, ["F S. China Sea - Formosa"])
    japan = order(players["Japan"], game_id, ["f e.china sea s. f so. china SEA -  formosa"])
    assert china[0]["canonical"] == "F South China Sea - Formosa"
    assert japan[0]["canonical"] == "F East China Sea S F South China Sea - Formosa"
    refused = sent(players["China"], game_id, ["F S China Sea - Formosa"])
    assert not refused[0]["valid"]
    assert "did you mean South China Sea?" in refused[0]["reason"]
    order(players["China"], game_id, ["F S. China Sea - Formosa"])
    process(moderator, game_id)
    results = judged(moderator, game_id, 0)
    assert results["F South China Sea - Formosa"] == ("succeeds", "")
    assert results["F East China Sea S F South China Sea - Formosa"] == ("succeeds", "")


def test_a_support_of_a_railroad_move_waits_on_the_railroad_move_by_name():
    """Britain's menu offers A Orenburg S A Moscow - Omsk: Moscow and Omsk do not touch, so
    what it waits on is Russia's "A Moscow - Omsk via TSR", which the menu names (it named
    "A Moscow - Omsk", an order the server refuses); a land move stays a land move."""
    game_id, moderator, players = new_game("colonial")
    place(game_id, [("Russia", "A", "Moscow"), ("Britain", "A", "Orenburg")])
    listed = players["Britain"].get(f"/api/games/{game_id}/options/").data["orders"]
    needs = {o["order"]: o.get("needs") for o in listed}
    assert needs["A Orenburg S A Moscow - Omsk"] == "Russia to order A Moscow - Omsk via TSR"
    assert needs["A Orenburg S A Moscow - Perm"] == "Russia to order A Moscow - Perm"
    # What it names is what Russia may send: valid, and the support counts with it.
    assert order(players["Russia"], game_id, ["A Moscow - Omsk via TSR"])[0]["valid"]
    refused = sent(players["Russia"], game_id, ["A Moscow - Omsk"])
    assert not refused[0]["valid"]


@pytest.mark.parametrize(
    "ride",
    ["A Moscow - Irkutsk via the TSR", "A Mos - Irk by the railroad", "A Mos - Irk (via the TSR)"],
)
def test_the_railroad_may_be_named_with_the(ride):
    """ "via the TSR" is how a player says it; it was "unexpected 'TSR' at the end"."""
    game_id, moderator, players = new_game("colonial")
    place(game_id, [("Russia", "A", "Moscow")])
    answer = order(players["Russia"], game_id, [ride])
    assert answer[0]["canonical"] == "A Moscow - Irkutsk via TSR"
    phase = process(moderator, game_id)
    assert ("Russia", "A", "Irkutsk") in units_of(phase)


def test_orders_given_once_a_turn_are_marked_so_in_the_options():
    """The options say which orders a rule allows once a turn (``once``: the rule's name), so
    that a menu can take the earlier one out rather than have both refused."""
    game_id, moderator, players = new_game("colonial")
    place(
        game_id,
        [
            ("Russia", "A", "Moscow"),
            ("Russia", "A", "Egypt"),
            ("Turkey", "F", "Mediterranean Sea"),
        ],
    )
    listed = players["Russia"].get(f"/api/games/{game_id}/options/").data["orders"]
    once = {o["order"]: o.get("once") for o in listed}
    assert once["A Moscow - Vladivostok via TSR"] == "trans_siberian_railroad"
    assert once["Suez permit F Mediterranean Sea"] == "suez_canal"
    assert once["A Moscow - Perm"] is None and once["A Egypt H"] is None


def test_an_order_for_another_powers_fleet_in_a_shared_ocean_names_every_owner_there():
    """China orders a fleet in the Mid-Pacific, where Australia and Japan have fleets and China
    none: the reason names both owners (it said the unit there belongs to Australia, as if
    the ocean held Australia's fleets alone)."""
    game_id, moderator, players = new_game("far-east")
    place(game_id, [("Australia", "F", MPO), ("Australia", "F", MPO), ("Japan", "F", MPO)])
    (answer,) = sent(players["China"], game_id, ["F Mid-Pacific - Guam"])
    assert not answer["valid"]
    assert answer["reason"] == (
        "the units in Mid-Pacific Ocean belong to Australia, Japan, not China"
    )
    chinese = players["China"].post(
        f"/api/games/{game_id}/orders/check/",
        {"orders": ["F Mid-Pacific - Guam"]},
        format="json",
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    assert (
        chinese.data[0]["reason"] == "Mid-Pacific Ocean 的单位属于 Australia、Japan，不属于 China"
    )
