"""Findings of an independent adversary against the engine (rules engine round 2), each with
the case that showed it. Through the engine's entry points only."""

from __future__ import annotations

import itertools

import pytest

from adjudication import adjudicate, check

try:
    from tests.colonial_cases import judge
    from tests.colonial_cases import request as colonial_request
except ImportError:  # tests/ is not a package: pytest put tests/ on sys.path
    from colonial_cases import judge
    from colonial_cases import request as colonial_request

MID = "Mid-Pacific Ocean"


def far_east(units, orders):
    return adjudicate(
        {
            "variant": "far-east",
            "phase": {"season": "spring", "year": 1991, "type": "movement"},
            "units": [{"power": p, "unit": u, "location": loc} for p, u, loc in units],
            "orders": [{"power": p, "order": o} for p, o in orders],
        }
    )


def reply(response, text, power=None):
    found = [o for o in response["orders"] if o["order"] == text and power in (None, o["power"])]
    assert len(found) == 1, response
    return found[0]


# -- supports to a unit in a space that holds several -------------------------------------

TWO_POWERS = [("China", "F", MID), ("Japan", "F", MID), ("Japan", "F", "Philippine Sea")]


def test_support_into_a_shared_ocean_naming_nobody_is_refused_when_two_powers_stand_there():
    """China's and Japan's fleets both sail from the Mid-Pacific to Guam; Japan's support
    "S F Mid-Pacific - Guam" could be for either, so it is refused with the reason (it used
    to go to the first-listed fleet, China's)."""
    orders = [
        ("China", "F Mid-Pacific - Guam"),
        ("Japan", "F Mid-Pacific - Guam"),
        ("Japan", "F Philippine Sea S F Mid-Pacific - Guam"),
    ]
    r = far_east(TWO_POWERS, orders)
    support = reply(r, "F Philippine Sea S F Mid-Pacific - Guam")
    assert support["result"] == "invalid"
    assert "China, Japan" in support["reason"] and "say whose" in support["reason"]
    assert "China" not in {u["power"] for u in r["units"] if u["location"] == "Guam"}


@pytest.mark.parametrize("sequence", list(itertools.permutations(range(3))))
def test_support_naming_the_power_goes_to_that_powers_fleet(sequence):
    orders = [
        ("China", "F Mid-Pacific - Guam"),
        ("Japan", "F Mid-Pacific - Guam"),
        ("Japan", "F Philippine Sea S Japan F Mid-Pacific - Guam"),
    ]
    r = far_east(TWO_POWERS, [orders[n] for n in sequence])
    support = reply(r, "F Philippine Sea S Japan F Mid-Pacific - Guam")
    assert support["result"] == "succeeds", support
    assert support["canonical"] == f"F Philippine Sea S Japan F {MID} - Guam"
    assert reply(r, "F Mid-Pacific - Guam", "Japan")["result"] == "succeeds"
    assert reply(r, "F Mid-Pacific - Guam", "China")["result"] == "fails"
    guam = [u["power"] for u in r["units"] if u["location"] == "Guam"]
    assert guam == ["Japan"]


def test_numbered_fleets_are_the_powers_first_and_second_in_the_position():
    """F2 is the power's second fleet in the ocean (in the position's order); the support for
    F2 goes to F2, not to the first fleet moving to Guam."""
    units = [("Japan", "F", MID), ("Japan", "F", MID), ("Japan", "F", "Philippine Sea")]
    orders = [
        ("Japan", "F2 Mid-Pacific - Guam"),
        ("Japan", "F1 Mid-Pacific - Guam"),
        ("Japan", "F Philippine Sea S F2 Mid-Pacific - Guam"),
    ]
    r = far_east(units, orders)
    assert reply(r, "F2 Mid-Pacific - Guam")["result"] == "succeeds"
    assert reply(r, "F1 Mid-Pacific - Guam")["result"] == "fails"
    support = reply(r, "F Philippine Sea S F2 Mid-Pacific - Guam")
    assert support["canonical"] == f"F Philippine Sea S F2 {MID} - Guam"


def test_a_fleet_number_that_is_not_there_is_refused():
    r = far_east(TWO_POWERS, [("Japan", "F Philippine Sea S Japan F3 Mid-Pacific - Guam")])
    assert r["orders"][0]["result"] == "invalid"
    assert "no number 3" in r["orders"][0]["reason"]
    r = far_east(TWO_POWERS, [("Japan", "F Philippine Sea S Australia F Mid-Pacific - Guam")])
    assert "Australia has no unit" in r["orders"][0]["reason"]


def test_chinese_entry_space_supports_name_the_army_meant():
    """Entry spaces hold armies of several powers: a support must say whose."""
    units = [
        {"power": "England", "unit": "A", "location": "Pacific Ocean"},
        {"power": "Japan", "unit": "A", "location": "Pacific Ocean"},
        {"power": "Japan", "unit": "A", "location": "Kiangsu"},
    ]
    body = {
        "variant": "chinese",
        "phase": {"season": "year", "year": 1900, "type": "movement"},
        "units": units,
        "random_seed": 1,
    }
    orders = [
        {"power": "England", "order": "A Pacific Ocean - Chekiang"},
        {"power": "Japan", "order": "A Pacific Ocean - Chekiang"},
        {"power": "Japan", "order": "A Kiangsu S A Pacific Ocean - Chekiang"},
    ]
    r = adjudicate({**body, "orders": orders})
    assert reply(r, "A Kiangsu S A Pacific Ocean - Chekiang")["result"] == "invalid"
    orders[2] = {"power": "Japan", "order": "A Kiangsu S Japan A Pacific Ocean - Chekiang"}
    r = adjudicate({**body, "orders": orders})
    assert reply(r, orders[2]["order"])["result"] == "succeeds"
    assert [u["power"] for u in r["units"] if u["location"] == "Chekiang"] == ["Japan"]


# -- variant ids are names, never paths -----------------------------------------------------

BAD_IDS = ["../../etc", "x" * 5000, "../standard", "standard/../colonial", "far_east", "/etc"]


@pytest.mark.parametrize("variant_id", BAD_IDS)
def test_a_long_or_path_like_variant_id_is_an_unknown_variant(variant_id):
    """No OSError, no file outside variants/: the engine's usual error reply."""
    import adjudication
    from adjudication.api import opening
    from adjudication.game_options import option_schema

    body = {
        "variant": variant_id,
        "phase": {"season": "spring", "year": 1901, "type": "movement"},
        "units": [],
        "orders": [],
    }
    for answer in (adjudicate(body), check(body)):
        assert answer["error"].startswith("unknown variant"), answer
        assert len(answer["error"]) < 200
    for call in (adjudication.load, opening, option_schema):
        with pytest.raises(adjudication.VariantError, match="unknown variant"):
            call(variant_id)


def test_the_command_line_answers_a_path_like_variant_with_an_error():
    import json
    import subprocess
    import sys

    body = {"variant": "x" * 5000, "phase": {"season": "spring", "year": 1901, "type": "movement"}}
    run = subprocess.run(
        [sys.executable, "-m", "adjudication", "adjudicate"],
        input=json.dumps(body),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "unknown variant" in run.stdout, (run.stdout, run.stderr)
    assert "Traceback" not in run.stderr


# -- Chinese economy of the wrong shape -----------------------------------------------------

CHINESE = {
    "variant": "chinese",
    "phase": {"season": "year", "year": 1900, "type": "movement"},
    "units": [],
    "orders": [],
    "random_seed": 1,
}


@pytest.mark.parametrize(
    ("part", "field"),
    [
        ({"economy": {"payments": 5}}, "economy.payments"),
        ({"economy": {"payments": {"from": "England"}}}, "economy.payments"),
        ({"economy": {"payments": [7]}}, "economy.payments[0]"),
        ({"economy": {"payments": [{"from": "England", "to": "Japan", "amount": "9"}]}}, "amount"),
        ({"economy": {"balances": 12}}, "economy.balances"),
        ({"economy": {"balances": {"England": 1.5}}}, "economy.balances.England"),
        ({"economy": "rich"}, "economy"),
        ({"faction_orders": 5}, "faction_orders"),
        ({"faction_orders": [{"power": "Imperials", "order": 3}]}, "faction_orders[0]"),
    ],
)
def test_chinese_economy_of_the_wrong_type_is_an_error_naming_the_field(part, field):
    for answer in (adjudicate({**CHINESE, **part}), check({**CHINESE, **part})):
        assert field in answer["error"], answer
        assert answer["details"][0]["field"].endswith(field)


@pytest.mark.parametrize("numbered_first", [True, False])
def test_numbered_and_unnumbered_orders_in_one_ocean_do_not_depend_on_the_list(numbered_first):
    units = [("Japan", "F", MID), ("Japan", "F", MID)]
    orders = [("Japan", "F Mid-Pacific - Guam"), ("Japan", "F1 Mid-Pacific - New Guinea")]
    r = far_east(units, orders[::-1] if numbered_first else orders)
    assert {o["result"] for o in r["orders"]} == {"succeeds"}, r["orders"]
    assert sorted(u["location"] for u in r["units"]) == ["Guam", "New Guinea"]


# -- the seeds' own notations ----------------------------------------------------------------


def test_far_east_rule_6_4_examples_as_the_seed_writes_them():
    """Seed 002 writes the unit's space in brackets and the move with an en dash. Example 2's
    "Fl" is written F1 here: "Fl" is read as nothing (a number or a fleet? it is a guess)."""
    example_1 = [
        ("Australia", "F (Mid-Pacific) – Guam"),
        ("Japan", "F (Guam) – Mid-Pacific"),
        ("Japan", "F (North Pacific) – Guam"),
    ]
    units = [("Australia", "F", MID), ("Japan", "F", "Guam"), ("Japan", "F", "North Pacific Ocean")]
    r = far_east(units, example_1)
    assert [o["result"] for o in r["orders"]] == ["fails", "succeeds", "fails"], r["orders"]
    example_2 = [
        ("Australia", "F1 (Mid-Pacific) S F2(Mid—Pacific) – Guam"),
        ("Australia", "F2 (Mid-Pacific) – Guam"),
        *example_1[1:],
    ]
    r = far_east([("Australia", "F", MID), *units], example_2)
    assert [o["result"] for o in r["orders"]] == ["succeeds", "succeeds", "succeeds", "fails"]
    # Both numbers kept: the canonical texts, sent again, name the same fleets.
    assert r["orders"][0]["canonical"] == f"F1 {MID} S F2 {MID} - Guam"
    assert r["orders"][1]["canonical"] == f"F2 {MID} - Guam"
    assert sorted(u["location"] for u in r["units"] if u["power"] == "Australia") == [
        "Guam",
        MID,
    ]


@pytest.mark.parametrize("text", ["A MOS-TSR-VLA", "A Mos-TSR-Vla", "A Moscow - TSR - Vladivostok"])
def test_the_errata_railroad_notation_is_a_railroad_move(text):
    r = judge(["Russia A Moscow"], [f"Russia: {text}"])
    assert r.reply(text)["canonical"] == "A Moscow - Vladivostok via TSR"
    assert r.units == {"Russia A Vladivostok"}


@pytest.mark.parametrize(
    ("variant", "text", "words"),
    [
        ("standard", "A MOS-TSR-WAR", "no province called 'TSR'"),  # no railroad on this map
        ("colonial", "A Mos-TRS-Vla", "no province called 'TRS'"),  # the errata's typo
        ("colonial", "A Mos-TSR-Vla via Convoy", "two routes"),
        ("colonial", "A (Moscow H", "not closed"),
    ],
)
def test_notations_close_to_the_seeds_are_not_misread(variant, text, words):
    from adjudication import load
    from adjudication.orders import OrderError, parse

    with pytest.raises(OrderError, match=words):
        parse(load(variant), text)


# -- true reasons ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("order", "words"),
    [
        ("A Moscow - Perm via Convoy", "no convoy can reach Moscow: it has no coast"),
        ("A Moscow - Bombay via Convoy", "no convoy can reach Moscow"),
        ("A Moscow - Peking", "Moscow is not adjacent to Peking"),
        ("A Orenburg S A Moscow - Omsk via Bogus", "no route called 'Bogus'"),
        ("A Orenburg S A Moscow - Omsk by Bogus", "no route called 'Bogus'"),
        # Found by an adversary: a support named only the route's last word ('Canal').
        ("A Orenburg S A Moscow - Omsk via the Suez Canal", "no route called 'the Suez Canal'"),
        # Found by an adversary: letters one by one named no route, and only the first or the
        # letters after an order's word ('s') were named. All of them now.
        ("A Orenburg S A Moscow - Omsk via T. S. R. X.", "no route called 'T. S. R. X.'"),
        ("A Orenburg S A Moscow - Omsk via t s", "no route called 't s'"),
        ("A Moscow - Omsk via T. S. R. X.", "no route called 'T S R X'"),
        ("A Moscow - Omsk via t s", "no route called 'T S'"),
    ],
)
def test_reasons_say_the_true_cause(order, words):
    r = judge(["Russia A Moscow", "Russia A Orenburg"], [f"Russia: {order}"])
    assert r.reply(order)["result"] == "invalid"
    assert words in r.reason(order), r.reason(order)


def test_a_support_repeating_the_railroad_route_is_read():
    order = "A Orenburg S A Moscow - Omsk via TSR"
    r = judge(["Russia A Moscow", "Britain A Orenburg"], [f"Britain: {order}"])
    assert r.reply(order)["result"] == "succeeds"


def test_an_army_retreating_to_sea_and_a_second_build_get_their_true_reason():
    retreat = adjudicate(
        {
            "variant": "standard",
            "phase": {"season": "spring", "year": 1901, "type": "retreats"},
            "units": [],
            "dislodged": [
                {"power": "England", "unit": "A", "location": "Wales", "attacker_from": "London"}
            ],
            "orders": [{"power": "England", "order": "A Wales R English Channel"}],
        }
    )
    assert (
        retreat["orders"][0]["reason"] == "an army cannot retreat to English Channel: it is a sea"
    )
    builds = adjudicate(
        {
            "variant": "standard",
            "phase": {"season": "winter", "year": 1901, "type": "adjustments"},
            "units": [],
            "supply_centers": {"England": ["London", "Edinburgh", "Liverpool", "Norway"]},
            "orders": [
                {"power": "England", "order": "Build A London"},
                {"power": "England", "order": "Build F London"},
            ],
        }
    )
    assert builds["orders"][1]["reason"] == "London already has a build this phase"


def test_a_second_build_in_one_place_is_refused_for_its_own_reason_first():
    """Found by an adversary: ``Build F Paris`` after ``Build A Paris`` was refused as
    "already has a build", listed first as "inland": its own reason comes first now."""
    for orders, refused, reason in (
        (["Build A Paris", "Build F Paris"], 1, "a fleet cannot be built in Paris: it is inland"),
        (["Build F Paris", "Build A Paris"], 0, "a fleet cannot be built in Paris: it is inland"),
        (["Build A Paris", "Build A Paris"], 1, "Paris already has a build this phase"),
    ):
        builds = adjudicate(
            {
                "variant": "standard",
                "phase": {"season": "winter", "year": 1901, "type": "adjustments"},
                "units": [],
                "supply_centers": {"France": ["Paris", "Brest", "Marseilles", "Spain"]},
                "orders": [{"power": "France", "order": o} for o in orders],
            }
        )
        assert builds["orders"][refused]["reason"] == reason, (orders, builds["orders"])
        assert builds["orders"][1 - refused]["result"] == "succeeds"


@pytest.mark.parametrize("britain_first", [True, False])
def test_a_build_where_another_power_built_is_refused_for_its_own_reason(britain_first):
    """Found by an adversary: China's build in Hong Kong, listed after Britain's, was refused
    with "Hong Kong already has a build this phase" (listed before it, with the true reason),
    which also told China of Britain's build."""
    britain = {"power": "Britain", "order": "Build F Hong Kong"}
    china = {"power": "China", "order": "Build A Hong Kong"}
    builds = adjudicate(
        {
            "variant": "colonial",
            "phase": {"season": "winter", "year": 1870, "type": "adjustments"},
            "units": [],
            "supply_centers": {"Britain": ["Hong Kong", "Madras"], "China": ["Peking", "Canton"]},
            "orders": [britain, china] if britain_first else [china, britain],
        }
    )
    replies = {o["power"]: o for o in builds["orders"]}
    assert replies["Britain"]["result"] == "succeeds"
    assert replies["China"]["reason"] == "Hong Kong is not a home centre of China"


# -- orders a power may give once a turn -----------------------------------------------------


@pytest.mark.parametrize("reverse", [False, True])
def test_two_railroad_rides_are_both_refused_by_the_check_as_well(reverse):
    orders = ["Russia: A Moscow - Perm via TSR", "Russia: A Omsk - Irkutsk via TSR"]
    body = colonial_request(
        ["Russia A Moscow", "Russia A Omsk"], orders[::-1] if reverse else orders
    )
    for answer in (check(body), adjudicate(body)):
        assert [o["result"] for o in answer["orders"]] == ["invalid", "invalid"], answer
        assert all("gave 2" in o["reason"] for o in answer["orders"])


def _kwangsi_attacked(power: str, neighbour: dict) -> dict:
    """``power``'s army in Kwangsi dislodged by Japan; ``neighbour`` stands in an entry space."""
    return {
        "variant": "chinese",
        "phase": {"season": "year", "year": 1905, "type": "movement"},
        "units": [
            {"power": power, "unit": "A", "location": "Kwangsi"},
            {"power": "Japan", "unit": "A", "location": "Kweichow"},
            {"power": "Japan", "unit": "A", "location": "Hunan"},
            neighbour,
            {"power": "Germany", "unit": "A", "location": "Yunan"},
            {"power": "Germany", "unit": "A", "location": "Kwangtung"},
        ],
        "orders": [
            {"power": power, "order": "A Kwangsi H"},
            {"power": "Japan", "order": "A Kweichow - Kwangsi"},
            {"power": "Japan", "order": "A Hunan S A Kweichow - Kwangsi"},
        ],
        "economy": {"balances": {}},
    }


def test_a_chinese_army_retreats_into_an_entry_space_another_army_holds() -> None:
    """Rule 9: an entry space holds any number of armies, so a dislodged army whose only way
    out is an occupied entry space retreats there and is not annihilated."""
    france = {"power": "France", "unit": "A", "location": "Indo-China"}
    r = adjudicate(_kwangsi_attacked("England", france))
    [d] = r["dislodged"]
    assert d["retreats"] == ["Indo-China"] and d["retreated_to"] == "Indo-China"
    assert {"power": "England", "unit": "A", "location": "Indo-China"} in r["units"]
    assert r["economy"]["balances"]["England"] == 10  # profit 20, upkeep 10, no annihilation
    assert not any(e["item"] == "annihilation" for e in r["economy"]["ledger"])


def test_a_chinese_retreat_lists_only_the_entry_spaces_the_power_may_use() -> None:
    """Indo-China is France's and England's way in: a Russian army may not retreat there."""
    france = {"power": "France", "unit": "A", "location": "Indo-China"}
    r = adjudicate(_kwangsi_attacked("Russia", france))
    [d] = r["dislodged"]
    assert "Indo-China" not in d["retreats"] and d["retreated_to"] is None


def _standard_move(units: list[tuple[str, str]], orders: list[tuple[str, str]]) -> dict:
    return {
        o["order"]: o
        for o in adjudicate(
            {
                "variant": "standard",
                "phase": {"season": "spring", "year": 1901, "type": "movement"},
                "units": [{"power": p, "unit": t[0], "location": t[2:]} for p, t in units],
                "orders": [{"power": p, "order": text} for p, text in orders],
            }
        )["orders"]
    }


def test_a_move_too_weak_for_a_unit_dislodged_there_names_the_move_that_dislodged_it():
    """Burgundy's 1 is no more than Munich's hold, but A Munich does not stay: A Ruhr,
    supported, dislodges it, and that is the move Burgundy's reason names."""
    replies = _standard_move(
        [
            ("Germany", "A Ruhr"),
            ("Germany", "A Kiel"),
            ("France", "A Burgundy"),
            ("Russia", "A Munich"),
        ],  # fmt: skip
        [
            ("Germany", "A Ruhr - Munich"),
            ("Germany", "A Kiel S A Ruhr - Munich"),
            ("France", "A Burgundy - Munich"),
            ("Russia", "A Munich H"),
        ],  # fmt: skip
    )
    assert replies["A Munich H"]["reason"] == "dislodged by A Ruhr"
    burgundy = replies["A Burgundy - Munich"]
    assert burgundy["result"] == "fails"
    assert burgundy["reason"] == "bounced with A Ruhr in Munich (1 against 2)"


def test_a_move_too_weak_for_a_unit_that_stays_still_names_that_unit():
    replies = _standard_move(
        [("Germany", "A Ruhr"), ("France", "A Burgundy"), ("Russia", "A Munich")],
        [
            ("Germany", "A Ruhr - Munich"),
            ("France", "A Burgundy - Munich"),
            ("Russia", "A Munich H"),
        ],  # fmt: skip
    )
    assert replies["A Burgundy - Munich"]["reason"].startswith("A Munich stays in Munich")


def test_the_chinese_oceans_speak_of_units_not_fleets():
    """Chinese Diplomacy has armies only (seed 003, rule 3), in oceans too."""
    reply = adjudicate(
        {
            "variant": "chinese",
            "phase": {"season": "year", "year": 1901, "type": "movement"},
            "units": [{"power": "Japan", "unit": "A", "location": "Pacific Ocean"}],
            "orders": [{"power": "Japan", "order": "A Pacific Ocean S A Pacific Ocean - Kiangsu"}],
        }
    )["orders"][0]
    assert reply["result"] == "invalid"
    assert reply["reason"] == "there is no other unit in Pacific Ocean to support"


def test_a_head_to_head_loser_names_the_move_that_took_the_space():
    """Munich and Burgundy meet head to head (1 against 1) while A Ruhr, twice supported,
    dislodges Burgundy: Munich reads of A Ruhr, which took the space; Burgundy, whose rival
    stayed, of the head-to-head. (Found by an adversary; the results are unchanged.)"""
    replies = _standard_move(
        [
            ("France", "A Burgundy"),
            ("Germany", "A Munich"),
            ("England", "A Ruhr"),
            ("England", "A Belgium"),
            ("England", "A Picardy"),
        ],  # fmt: skip
        [
            ("France", "A Burgundy - Munich"),
            ("Germany", "A Munich - Burgundy"),
            ("England", "A Ruhr - Burgundy"),
            ("England", "A Belgium S A Ruhr - Burgundy"),
            ("England", "A Picardy S A Ruhr - Burgundy"),
        ],  # fmt: skip
    )
    assert replies["A Munich - Burgundy"]["result"] == "fails"
    assert (
        replies["A Munich - Burgundy"]["reason"] == "bounced with A Ruhr in Burgundy (1 against 3)"
    )
    assert replies["A Burgundy - Munich"]["reason"] == (
        "lost a head-to-head battle with A Munich (1 against 1)"
    )


# -- round 3: a refused order of its own does not count toward one a turn ----------------------

RIDE = "A Moscow - Vladivostok via TSR"


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize(
    ("power", "other", "words"),
    [
        ("Russia", "A Perm - Omsk via TSR", "there is no unit in Perm"),
        ("Russia", "A Odessa - Omsk via TSR", "Odessa is not on the Trans-Siberian Railroad"),
        ("Russia", "A Omsk - Akmolinsk via TSR", "there is no unit in Omsk"),
        ("Russia", "F Odessa - Black Sea via TSR", "the unit in Odessa is an army"),
        ("Britain", "A Moscow - Omsk via TSR", "the unit in Moscow belongs to Russia, not Britain"),
    ],
)
def test_an_illegal_railroad_order_is_refused_for_itself_and_the_legal_ride_goes(
    power, other, words, reverse
):
    """An order that is not legal by itself (no unit there, off the line, a fleet, another
    power's unit) is refused for that, and does not make Russia's one ride a second one."""
    orders = [f"{power}: {other}", f"Russia: {RIDE}"]
    body = colonial_request(
        ["Russia A Moscow", "Russia A Odessa"], orders[::-1] if reverse else orders
    )
    for answer, ride in ((check(body), "valid"), (adjudicate(body), "succeeds")):
        assert reply(answer, other)["result"] == "invalid"
        assert reply(answer, other)["reason"] == words
        assert reply(answer, RIDE)["result"] == ride, answer
        assert "reason" not in reply(answer, RIDE)
    assert {"power": "Russia", "unit": "A", "location": "Vladivostok"} in answer["units"]


@pytest.mark.parametrize("reverse", [False, True])
def test_two_illegal_railroad_orders_of_another_power_give_their_own_reasons(reverse):
    orders = ["Britain: A Moscow - Omsk via TSR", f"Britain: {RIDE}"]
    body = colonial_request(["Russia A Moscow"], orders[::-1] if reverse else orders)
    for answer in (check(body), adjudicate(body)):
        for o in answer["orders"]:
            assert o["result"] == "invalid"
            assert o["reason"] == "the unit in Moscow belongs to Russia, not Britain"


@pytest.mark.parametrize("reverse", [False, True])
def test_three_railroad_orders_two_legal_count_two(reverse):
    """The refusal for two rides counts and quotes the legal ones only."""
    orders = [
        "Russia: A Perm - Omsk via TSR",
        f"Russia: {RIDE}",
        "Russia: A Omsk - Irkutsk via TSR",
    ]
    body = colonial_request(
        ["Russia A Moscow", "Russia A Omsk"], orders[::-1] if reverse else orders
    )
    for answer in (check(body), adjudicate(body)):
        assert reply(answer, "A Perm - Omsk via TSR")["reason"] == "there is no unit in Perm"
        for text in (RIDE, "A Omsk - Irkutsk via TSR"):
            assert reply(answer, text)["result"] == "invalid"
            assert "Russia gave 2" in reply(answer, text)["reason"]
            assert "Perm" not in reply(answer, text)["reason"]


@pytest.mark.parametrize("reverse", [False, True])
def test_a_permit_naming_no_fleet_does_not_cancel_the_real_permit(reverse):
    orders = [
        "Turkey: Suez permit F Mediterranean Sea",
        "Turkey: Suez permit F Red Sea",
        "Russia: F Red Sea - Mediterranean Sea",
    ]
    if reverse:
        orders[:2] = orders[1::-1]
    body = colonial_request(["Turkey F Egypt", "Russia F Red Sea"], orders)
    for answer in (check(body), adjudicate(body)):
        wrong = reply(answer, "Suez permit F Mediterranean Sea")
        assert wrong["result"] == "invalid"
        assert wrong["reason"] == "there is no fleet in the Mediterranean Sea to let through"
        assert reply(answer, "Suez permit F Red Sea")["result"] != "invalid"
    assert reply(answer, "F Red Sea - Mediterranean Sea")["result"] == "succeeds"


# -- round 3: a canal move is read as written ------------------------------------------------


@pytest.mark.parametrize(
    ("route", "words"),
    [
        # A fleet is told to leave 'via' out, not to write Convoy or TSR, neither of which a
        # fleet may take (an adversary's finding).
        (
            "Banana",
            "there is no route called 'BANANA' on this map, and a fleet's move names none: "
            "leave 'via' out",
        ),
        # The canal is no route: the reason says to leave 'via' out, as the plain move is.
        (
            "Suez",
            "there is no route called 'SUEZ' on this map, and a fleet's move names none: "
            "leave 'via' out",
        ),
        # Found by an adversary: all its words are named ("unexpected 'Canal'" before).
        (
            "the Suez Canal",
            "there is no route called 'THE SUEZ CANAL' on this map, and a fleet's move names "
            "none: leave 'via' out",
        ),
        ("Convoy", "only armies can be convoyed"),
        ("TSR", "only armies may use the Trans-Siberian Railroad"),
    ],
)
def test_a_canal_move_via_a_route_is_not_read_as_a_plain_canal_move(route, words):
    order = f"F Red Sea - Mediterranean Sea via {route}"
    body = colonial_request(
        ["Turkey F Egypt", "Russia F Red Sea"],
        ["Turkey: Suez permit F Red Sea", f"Russia: {order}"],
    )
    for answer in (check(body), adjudicate(body)):
        assert reply(answer, order)["result"] == "invalid", answer
        assert reply(answer, order)["reason"] == words
        assert "via" in reply(answer, order)["canonical"]
    assert {"power": "Russia", "unit": "F", "location": "Red Sea"} in answer["units"]


def test_an_army_via_no_route_is_told_the_routes_an_army_may_name():
    order = "A Moscow - Omsk via Banana"
    body = colonial_request(["Russia A Moscow"], [f"Russia: {order}"])
    for answer in (check(body), adjudicate(body)):
        assert reply(answer, order)["reason"] == (
            "there is no route called 'BANANA' on this map; after 'via' write Convoy or TSR, "
            "or leave 'via' out"
        )


# -- round 3: reasons that name the true cause -----------------------------------------------


def _winter(units, centres, orders):
    return colonial_request(
        units, orders, season="winter", kind="adjustments", supply_centers=centres
    )


def test_a_removal_by_a_power_that_owes_a_build_says_it_has_none_to_make():
    body = _winter(
        ["China A Peking", "China A Canton"],
        {"China": ["Canton", "Peking", "Shanghai"]},
        ["China: Remove A Canton"],
    )
    for answer in (check(body), adjudicate(body)):
        assert answer["orders"][0]["result"] == "invalid"
        assert answer["orders"][0]["reason"] == "China has no removals to make this phase"


def test_a_removal_past_the_ones_owed_says_none_is_left():
    body = _winter(
        ["China A Peking", "China A Canton", "China A Shanghai"],
        {"China": ["Canton", "Peking"]},
        ["China: Remove A Canton", "China: Remove A Canton", "China: Remove A Shanghai"],
    )
    answer = adjudicate(body)
    assert [o["result"] for o in answer["orders"]] == ["succeeds", "invalid", "invalid"]
    assert answer["orders"][1]["reason"] == "A Canton is already being removed"
    assert answer["orders"][2]["reason"] == "China has no removals left this phase"


def test_a_build_by_a_power_that_owes_a_removal_says_it_has_none_to_make():
    body = _winter(
        ["China A Canton", "China A Shanghai"],
        {"China": ["Canton", "Peking"]},
        ["China: Build A Peking"],
    )
    assert adjudicate(body)["orders"][0]["reason"] == "China has no builds to make this phase"


def _chinese(order: str) -> dict:
    return adjudicate(
        {
            "variant": "chinese",
            "phase": {"season": "year", "year": 1905, "type": "movement"},
            "units": [{"power": "Japan", "unit": "A", "location": "Kiangsu"}],
            "orders": [{"power": "Japan", "order": order}],
        }
    )["orders"][0]


@pytest.mark.parametrize(
    ("order", "words"),
    [
        ("Enter F Pacific Ocean", "Chinese Diplomacy has no fleets"),
        ("Enter Fleet Pacific Ocean", "Chinese Diplomacy has no fleets"),
        ("F Pacific Ocean Leave", "Chinese Diplomacy has no fleets"),
        # Full names only: an abbreviation is refused as one (round 5; it was "there is no
        # province called 'PAC'").
        ("Enter A PAC", "province names are written in full here: write Pacific Ocean, not 'PAC'"),
        ("A PAC Leave", "province names are written in full here: write Pacific Ocean, not 'PAC'"),
        # With dots too: it was "no province called 'P A C.'" (round 6).
        (
            "Enter A P.A.C.",
            "province names are written in full here: write Pacific Ocean, not 'P.A.C.'",
        ),
        ("A P.A.C Leave", "province names are written in full here: write Pacific Ocean, not"),
        ("A Kiangsu - K.S.U.", "province names are written in full here: write Kiangsu, not"),
        (
            "A Kiangsu S E.N.G. A Kiangsu - Kwangtung",
            "power names are written in full here: write England, not 'E.N.G.'",
        ),
        ("A Kiangsu - X.Y.Z.", "there is no province called 'X'"),  # no abbreviation's letters
        ("Enter A Pacific Oceans", "there is no province called 'Pacific Oceans'"),
        ("A Kiangsu - PAC", "province names are written in full here"),  # the core's words
        ("Enter A", "say where the army enters"),
        ("Leave", "say which army leaves"),
    ],
)
def test_a_chinese_entry_or_exit_names_the_true_cause(order, words):
    answer = _chinese(order)
    assert answer["result"] == "invalid"
    assert answer["reason"].startswith(words), answer["reason"]


@pytest.mark.parametrize(
    ("order", "named"),
    [
        ("A DELHİ H", "'İ' (LATIN CAPITAL LETTER I WITH DOT ABOVE)"),  # Turkish dotted capital I
        ("A Delhi$ H", "'$' (DOLLAR SIGN)"),
    ],
)
def test_an_unreadable_character_is_named_as_typed(order, named):
    """The reason names the character the player typed, not one lowering made of it (İ
    lowers to i and a combining dot above)."""
    r = judge(["Britain A Delhi"], [f"Britain: {order}"])
    assert r.reply(order)["result"] == "invalid"
    assert r.reason(order) == f"the order has a character that is not read in orders: {named}"


@pytest.mark.parametrize("reverse", [False, True])
def test_a_support_in_a_shared_ocean_for_the_one_foreign_fleet_names_it_in_its_canonical(
    reverse,
):
    """Japan's fleet shares the Mid-Pacific with one Australian fleet: an unnamed support can
    only be for the Australian one (a unit never supports itself). It is accepted, as the
    README says, and its canonical order names whose fleet it is, so it reads the same to
    everyone and sent again means the same."""
    units = [("Australia", "F", MID), ("Japan", "F", MID)]
    orders = [("Japan", "F MPO S F MPO - Guam"), ("Australia", "F MPO - Guam")]
    r = far_east(units, orders[::-1] if reverse else orders)
    support = reply(r, "F MPO S F MPO - Guam")
    assert support["result"] == "succeeds"
    assert support["canonical"] == f"F {MID} S Australia F {MID} - Guam"
    assert {"power": "Australia", "unit": "F", "location": "Guam"} in r["units"]
    again = far_east(units, [("Japan", support["canonical"]), ("Australia", "F MPO - Guam")])
    assert reply(again, support["canonical"])["canonical"] == support["canonical"]


def test_a_support_in_a_shared_ocean_that_could_be_for_two_powers_fleets_says_whose():
    units = [("Australia", "F", MID), ("Japan", "F", MID), ("Japan", "F", MID)]
    r = far_east(units, [("Japan", "F1 MPO S F MPO - Guam")])
    support = reply(r, "F1 MPO S F MPO - Guam")
    assert support["result"] == "invalid"
    assert "say whose" in support["reason"]


# -- round 4: an order is one line -----------------------------------------------------------


@pytest.mark.parametrize("brk", ["\n", "\r\n", "\r", "\u2028", "\u2029", "\x0b", "\x85"])
def test_two_orders_in_one_item_are_refused_not_read_as_one(brk):
    """A page shows such an item as two lines, and saving it from there stores two orders:
    the API must not have read it as one order with words left over."""
    text = f"A Paris - Burgundy{brk}A Marseilles - Spain"
    answer = adjudicate(
        {
            "variant": "standard",
            "phase": {"season": "spring", "year": 1901, "type": "movement"},
            "units": [{"power": "France", "unit": "A", "location": "Paris"}],
            "orders": [
                {"power": "France", "order": text},
                {"power": "France", "order": "A Paris H\n"},
            ],
        }
    )
    assert answer["orders"][0]["result"] == "invalid"
    assert answer["orders"][0]["reason"] == "an order is one line: send each order on its own"
    assert answer["orders"][1]["result"] != "invalid"  # a line's own end is no second line


# -- round 5: order reading ------------------------------------------------------------------


def test_a_unit_number_beyond_the_powers_units_is_worded_for_one_and_for_several():
    """The reason said "Indonesia has 1 unit(s) in ..."."""
    r = far_east(TWO_POWERS, [("Japan", "F Philippine Sea S China F2 Mid-Pacific - Guam")])
    assert r["orders"][0]["reason"] == (
        "China has one unit in Mid-Pacific Ocean, so there is no number 2"
    )
    units = [("Japan", "F", MID), ("Japan", "F", MID), ("Japan", "F", "Philippine Sea")]
    r = far_east(units, [("Japan", "F Philippine Sea S Japan F3 Mid-Pacific - Guam")])
    assert r["orders"][0]["reason"] == (
        "Japan has 2 units in Mid-Pacific Ocean, so there is no number 3"
    )
    r = far_east(TWO_POWERS, [("Japan", "F Philippine Sea S Australia F2 Mid-Pacific - Guam")])
    assert r["orders"][0]["reason"] == (
        "Australia has no unit in Mid-Pacific Ocean, so there is no number 2"
    )


@pytest.mark.parametrize(
    ("variant", "unit", "text"),
    [
        ("far-east", ("Viet Nam", "F", "South China Sea", "Luzon Strait"), "F scs R scs"),
        ("standard", ("Germany", "A", "Munich", "Berlin"), "A Mun R Munich"),
    ],
)
def test_a_retreat_to_the_space_it_was_dislodged_from_says_so(variant, unit, text):
    """It was refused as "South China Sea is not adjacent to South China Sea"."""
    power, kind, location, attacker = unit
    answer = adjudicate(
        {
            "variant": variant,
            "phase": {"season": "spring", "year": 1991, "type": "retreats"},
            "units": [],
            "dislodged": [
                {"power": power, "unit": kind, "location": location, "attacker_from": attacker}
            ],
            "orders": [{"power": power, "order": text}],
        }
    )
    reply = answer["orders"][0]
    assert reply["result"] == "invalid"
    assert reply["reason"] == (
        f"{kind} {location} cannot retreat to {location}, the province it was dislodged from"
    )


@pytest.mark.parametrize(
    ("typed", "echo"),
    [
        ("A.R.M. - Sev", "Armenia - Sevastopol"),
        ("Arm - Sev", "Armenia - Sevastopol"),
        ("Arm H", "Armenia H"),
        ("F Arm - Sev", "F Armenia - Sevastopol"),
    ],
)
def test_a_move_for_an_empty_space_is_echoed_without_a_placeholder(typed, echo):
    """No unit stands in Armenia and none was named: the echo leaves the unit out, as typed,
    not '? Armenia - Sevastopol', which no player wrote and which reads as nothing."""
    answer = adjudicate(
        {
            "variant": "standard",
            "phase": {"season": "spring", "year": 1901, "type": "movement"},
            "units": [{"power": "Russia", "unit": "A", "location": "Moscow"}],
            "orders": [{"power": "Russia", "order": typed}],
        }
    )
    (reply,) = answer["orders"]
    assert (reply["canonical"], reply["result"]) == (echo, "invalid")
    assert reply["reason"] == "there is no unit in Armenia"
