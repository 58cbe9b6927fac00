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


# -- order words and powers where a name belongs ------------------------------------------------

STANDARD = [("Turkey", "F", "Bulgaria/sc"), ("Turkey", "A", "Greece"), ("France", "A", "Paris")]
STANDARD += [("France", "F", "Brest"), ("France", "A", "Marseilles")]
NAMED = [
    # variant, power, text, reason
    (
        "standard",
        "Turkey",
        "F Bul S - Aeg",
        "the support does not say which unit it supports: name it after S, "
        "e.g. 'F Bulgaria S A <province> - Aegean Sea'",
    ),
    (
        "standard",
        "France",
        "A Par S F - Bur",
        "the support does not say which unit it supports: name it after S, "
        "e.g. 'A Paris S F <province> - Burgundy'",
    ),
    (
        "standard",
        "France",
        "A Par S H",
        "the support does not say which unit it supports: name it after S, "
        "e.g. 'A Paris S A <province>'",
    ),
    (
        "standard",
        "France",
        "F Bre C - Lon",
        "the convoy does not say which army it convoys: name it after C, "
        "e.g. 'F Brest C A <province> - London'",
    ),
    ("standard", "France", "A - Bur", "expected the unit's province, not '-'"),
    ("standard", "France", "F Bre - (Eng)", "expected a destination, not '('"),
    (
        "standard",
        "France",
        "A Par S Bur - via",
        "expected the supported move's destination, not 'via'",
    ),
    ("standard", "France", "A Par S Mar - Bur", None),  # the order itself is read as before
    ("colonial", "Russia", "A Mos - via TSR", "expected a destination, not 'via'"),
    ("colonial", "Russia", "A Mos - Vla via", "'via' must be followed by Convoy or TSR"),
    ("standard", "France", "A Par - Bur via", "'via' must be followed by Convoy"),
    ("colonial", "Russia", "A Mos - TSR", "expected a destination, not 'TSR'"),
    (
        "far-east",
        "Japan",
        "F Phi S 2 Mid-Pacific - Guam",
        "expected the supported unit's province, not '2'",
    ),
    (
        "far-east",
        "Japan",
        "F Phi S Australia Mid-Pacific - Guam",
        "Australia is a power: name its unit after it, e.g. 'Australia A <province>'",
    ),
    (
        "standard",
        "France",
        "France A Par - Bur",
        "an order begins with its unit: leave out the power's name (France)",
    ),
    ("standard", "France", "A Par - Germany", "Germany is a power, not a province"),
    # A word that is no order's word is still a province that does not exist.
    ("standard", "France", "A Par - Narnia", "there is no province called 'Narnia'"),
    ("standard", "France", "A Par S Narnia - Bur", "there is no province called 'Narnia'"),
    # Words that start a name but stop short of it say which names they start.
    (
        "standard",
        "France",
        "F bre - north atlantic",
        "'north atlantic' is not a full name: did you mean North Atlantic Ocean?",
    ),
    (
        "standard",
        "France",
        "F Bre S F North - English Channel",
        "'North' is not a full name: did you mean one of North Africa, North Atlantic Ocean, "
        "North Sea?",
    ),
    (
        "far-east",
        "Japan",
        "F Phi - South",
        "'South' is not a full name: did you mean one of South China Sea, South Pacific Ocean?",
    ),
]
UNITS = {
    "standard": STANDARD,
    "colonial": [("Russia", "A", "Moscow")],
    "far-east": [("Australia", "F", MID), ("Japan", "F", "Philippine Sea")],
}


@pytest.mark.parametrize(("variant", "power", "text", "reason"), NAMED)
def test_a_word_where_a_name_belongs_is_named_as_what_it_is(variant, power, text, reason):
    """``F Bul S - Aeg`` was refused as "there is no province called '-'"."""
    reply = answer(variant, UNITS[variant], power, text)
    assert reply.get("reason") == reason, reply
    assert (reply["result"] == "invalid") is (reason is not None)


# -- Chinese Diplomacy: entering and leaving the board ---------------------------------------------

CHINESE = [
    ("Russia", "A", "Siberia"),
    ("Japan", "A", "Pacific Ocean"),
    ("France", "A", "Indo-China"),
]
CHINESE += [("Russia", "A", "Gungkiang")]
ENTER_LEAVE = [
    # power, text, reason
    (
        "Russia",
        "A Siberia - Leave",
        "a Leave order names only the army that leaves: write 'A Siberia Leave'",
    ),
    (
        "Russia",
        "A Siberia to Leave",
        "a Leave order names only the army that leaves: write 'A Siberia Leave'",
    ),
    (
        "Japan",
        "A Pacific -> Leave",
        "a Leave order names only the army that leaves: write 'A Pacific Ocean Leave'",
    ),
    (
        "France",
        "A Indo-China - Leave",
        "a Leave order names only the army that leaves: write 'A Indo-China Leave'",
    ),
    (
        "Russia",
        "A Gungkiang - Leave",
        "armies leave the board only from an entry space, not Gungkiang",
    ),
    (
        "Russia",
        "Enter A - Siberia",
        "an Enter order names only the army that enters: write 'Enter A Siberia'",
    ),
    (
        "Russia",
        "Enter - A Siberia",
        "an Enter order names only the army that enters: write 'Enter A Siberia'",
    ),
    (
        "Russia",
        "Enter A Siberia H",
        "an Enter order names only the army that enters: write 'Enter A Siberia'",
    ),
    (
        "Russia",
        "Enter A Siberia - Gungkiang",
        "an Enter order names only the army that enters: write 'Enter A Siberia'",
    ),
    (
        "Russia",
        "Enter A Gungkiang - Kirin",
        "armies enter the board only at Siberia, Indo-China, Pacific Ocean",
    ),
    # As before: a name that is no space's is said so; the right forms are read.
    ("Japan", "Enter A Pacific Oceans", "there is no province called 'Pacific Oceans'"),
    ("Russia", "A Siberia Leave", None),
    ("France", "A Indo-China Leave", None),
    ("Russia", "Enter A Siberia", None),
    # Chinese Diplomacy takes full names only (CONTRACT.md): an abbreviation is refused as one,
    # the power's or province's name to write said, not as "no province called 'ENG'".
    (
        "Japan",
        "A Pacific Ocean S ENG A Pacific Ocean - Kwangtung",
        "power names are written in full here: write England, not 'ENG'",
    ),
    (
        "Japan",
        "USA A Pacific Ocean - Kwangtung",
        "power names are written in full here: write United States, not 'USA'",
    ),
    (
        "Japan",
        "A Pacific Ocean - KWT",
        "province names are written in full here: write Kwangtung, not 'KWT'",
    ),
    (
        "Japan",
        "Enter A pac",
        "province names are written in full here: write Pacific Ocean, not 'pac'",
    ),
    # An alias is a full name of the variant's (Pacific for Pacific Ocean), and a hyphen inside
    # a name may be left out (Indochina): both read.
    ("Japan", "Enter A Pacific", None),
    ("France", "A Indochina - Yunan", None),
]


@pytest.mark.parametrize(("power", "text", "reason"), ENTER_LEAVE)
def test_a_chinese_enter_or_leave_written_as_a_move_shows_its_form(power, text, reason):
    """``A Siberia - Leave`` was refused as "there is no province called 'Siberia -'"."""
    reply = answer("chinese", CHINESE, power, text)
    assert reply.get("reason") == reason, reply
    assert (reply["result"] == "invalid") is (reason is not None)


# -- Colonial: the Suez permit -------------------------------------------------------------------

EGYPT = [
    ("Britain", "A", "Egypt"),
    ("Turkey", "F", "Mediterranean Sea"),
    ("Britain", "F", "Red Sea"),
]
PERMITS = [
    # text, reason
    (
        "Suez permit F Med H",
        "a Suez permit names only the fleet it lets through, not 'H': "
        "write 'Suez permit F Mediterranean Sea'",
    ),
    (
        "Suez permit F Med - Red Sea",
        "a Suez permit names only the fleet it lets through, not '- Red Sea': "
        "write 'Suez permit F Mediterranean Sea'",
    ),
    ("Suez permit A Red", "only a fleet passes the Suez Canal: write 'Suez permit F Red Sea'"),
    (
        "Suez permit F Egy",
        "Egypt is at neither end of the Suez Canal: "
        "a permit names the fleet in Mediterranean Sea or Red Sea",
    ),
    (
        "suez permit TURKEY fleet Med",
        "a Suez permit names only the fleet's sea, not its power (Turkey): "
        "write 'Suez permit F Mediterranean Sea'",
    ),
    (
        "Suez permit Turkey Mediterranean Sea",
        "a Suez permit names only the fleet's sea, not its power (Turkey): "
        "write 'Suez permit F Mediterranean Sea'",
    ),
    # As before: words that name no space get the form; the right forms are read.
    ("Suez permit", "a Suez permit names the fleet in Mediterranean Sea or Red Sea"),
    ("Suez permit F Xyz", "a Suez permit names the fleet in Mediterranean Sea or Red Sea"),
    ("Suez permit F Med Red", "a Suez permit names the fleet in Mediterranean Sea or Red Sea"),
    ("Suez permit F Med", None),
    ("Suez permits fleet Red Sea", None),
]


@pytest.mark.parametrize(("text", "reason"), PERMITS)
def test_a_misworded_suez_permit_is_refused_for_what_is_wrong(text, reason):
    """``Suez permit F Med H`` was refused as "a Suez permit names the fleet in Mediterranean
    Sea or Red Sea", as if the player had not named the Mediterranean."""
    reply = answer("colonial", EGYPT, "Britain", text)
    assert reply.get("reason") == reason, reply
    assert (reply["result"] == "invalid") is (reason is not None)


# -- Far East: a support of one of several fleets in an ocean -----------------------------------

OCEAN = [("Australia", "F", MID), ("Australia", "F", MID), ("Japan", "F", "Philippine Sea")]
OCEAN += [("Japan", "F", MID)]


def test_a_support_that_matched_no_order_names_the_fleet_by_its_number():
    """The support of F2 found F2 holding: its reason said "F Mid-Pacific Ocean was not
    ordered to Guam", which of Australia's two fleets it did not say."""
    orders = [
        ("Australia", "F1 Mid-Pacific S F2 Mid-Pacific - Guam"),
        ("Australia", "F2 Mid-Pacific H"),
        ("Japan", "F Philippine Sea S Australia F2 Mid-Pacific - Guam"),
        ("Japan", "F Mid-Pacific S Australia F1 Mid-Pacific"),
    ]
    orders_of = {
        text: reply
        for (_, text), reply in zip(
            orders, adjudicate(request("far-east", OCEAN, orders))["orders"], strict=True
        )
    }
    for text in orders[0][1], orders[2][1]:
        assert orders_of[text]["result"] == "succeeds"
        assert orders_of[text]["reason"] == f"no effect: Australia F2 {MID} was not ordered to Guam"
    # Checked alone, Japan's support waits for Australia's F2, and says so.
    alone = check(request("far-east", OCEAN, [orders[2]]))["orders"][0]
    assert alone["needs"] == f"Australia to order F2 {MID} - Guam"


def test_a_support_naming_no_number_names_the_fleet_as_before():
    orders = [
        ("Australia", "F1 Mid-Pacific H"),
        ("Australia", "F2 Mid-Pacific H"),
        ("Japan", "F Philippine Sea S Australia F Mid-Pacific - Guam"),
    ]
    reply = adjudicate(request("far-east", OCEAN, orders))["orders"][2]
    assert reply["reason"] == f"no effect: F {MID} was not ordered to Guam"


# -- in the players' languages ------------------------------------------------------------------


def _reason_cases():
    """Every refusal this module checks, as (variant, units, power, text, extra)."""
    for variant, power, text, reason in NAMED:
        if reason is not None:
            yield variant, UNITS[variant], power, text, {}
    for text, reason in PERMITS:
        if reason is not None:
            yield "colonial", EGYPT, "Britain", text, {}
    for power, text, reason in ENTER_LEAVE:
        if reason is not None:
            yield "chinese", CHINESE, power, text, {}


@pytest.mark.parametrize("language", ["ja", "zh-hans"])
def test_the_new_reasons_are_said_in_the_players_language(language):
    from django.utils import translation

    import adjudication
    from games.reason_words import say

    for variant, units, power, text, extra in _reason_cases():
        reason = answer(variant, units, power, text, **extra)["reason"]
        words = adjudication.reason_words(reason)
        with translation.override(language):
            assert translation.gettext(words["template"]) != words["template"], words
            said = say(words, reason)
        assert said != reason, (language, reason)


# -- refused orders echo only what was typed -----------------------------------------------------

WINTER = {"France": ["Paris", "Brest", "Marseilles", "Belgium"]}


@pytest.mark.parametrize(
    ("units", "text", "canonical", "phase", "centres"),
    [
        ([("France", "A", "Brest")], "build  paris", "Build Paris", "adjustments", WINTER),
        ([("France", "A", "Paris")], "Build Paris", "Build Paris", "adjustments", WINTER),
        ([("France", "A", "Paris")], "remove paris", "Remove Paris", "adjustments", {"France": []}),
        ([("France", "A", "Paris")], "A Paris S Burgundy", "A Paris S Burgundy", "movement", None),
        (
            [("France", "A", "Paris")],
            "A PAR S BUR - PIC",
            "A Paris S Burgundy - Picardy",
            "movement",
            None,
        ),
    ],
)
def test_a_refused_order_with_no_unit_kind_is_echoed_without_a_placeholder(
    units, text, canonical, phase, centres
):
    extra = {"centres": centres} if centres else {}
    season = "winter" if phase == "adjustments" else None
    for judge in (check, adjudicate):
        body = request("standard", units, [("France", text)], phase=phase, season=season, **extra)
        reply = judge(body)["orders"][0]
        assert reply["result"] == "invalid"
        assert reply["canonical"] == canonical
        body["orders"] = [{"power": "France", "order": canonical}]
        again = judge(body)["orders"][0]
        assert (again["result"], again["canonical"]) == ("invalid", canonical)


@pytest.mark.parametrize(
    ("text", "rest"),
    [("A Paris H Hold", "Hold"), ("A PAR H Extra Words", "Extra Words")],
)
def test_words_left_over_are_quoted_as_typed(text, rest):
    reply = answer("standard", [("France", "A", "Paris")], "France", text)
    assert reply["reason"] == f"unexpected '{rest}' at the end of the order"


def test_a_convoy_of_a_unit_of_unknown_kind_is_echoed_without_one():
    """``F Nth C Eng - Bel`` was echoed ``F North Sea C A English Channel - Belgium``: an army
    the board does not have, refused again for another reason."""
    units = [("England", "F", "North Sea"), ("England", "F", "English Channel")]
    for judge in (check, adjudicate):
        body = request("standard", units, [("England", "F Nth C Eng - Bel")])
        reply = judge(body)["orders"][0]
        assert reply["canonical"] == "F North Sea C English Channel - Belgium"
        body["orders"] = [{"power": "England", "order": reply["canonical"]}]
        again = judge(body)["orders"][0]
        assert (again["canonical"], again["reason"]) == (reply["canonical"], reply["reason"])


@pytest.mark.parametrize("text", ["A Par > Bur", "A Par>Bur", "A Par -> Bur", "A Par => Bur"])
def test_an_arrowhead_is_a_move(text):
    """A lone ``>`` was dropped, and the reason blamed the next word."""
    reply = answer("standard", [("France", "A", "Paris")], "France", text)
    assert (reply["result"], reply["canonical"]) == ("valid", "A Paris - Burgundy")


@pytest.mark.parametrize(
    ("text", "rest"),
    [
        ("F Mao - Spa (north-coastline)", "(north-coastline)"),
        ("F Mao - Spa (?)", "(?)"),
        ("F Mao - Spa (France)", "(France)"),
        ("F Mao - Spa/sc/nc", "/nc"),
    ],
)
def test_the_words_left_over_are_the_end_of_the_text_as_typed(text, rest):
    reply = answer("standard", [("France", "F", "Mid-Atlantic Ocean")], "France", text)
    assert reply["reason"] == f"unexpected '{rest}' at the end of the order"


def test_an_order_longer_than_any_order_is_refused_unread():
    """A 26,000-character order took seconds to read, and its reason quoted all of it."""
    text = "F " + "Mid-Atlantic-" * 2000
    reply = answer("standard", [("France", "F", "Mid-Atlantic Ocean")], "France", text)
    assert reply["reason"] == f"the order is too long: {len(text)} characters, at most 400"


def test_the_same_suez_permit_twice_is_one_permit():
    """A permit line pasted twice shut the canal: two permits, both refused."""
    units = [("Turkey", "F", "Mediterranean Sea"), ("Britain", "A", "Egypt")]
    orders = [("Britain", "Suez permit F Med"), ("Britain", "suez permit F Mediterranean Sea")]
    orders.append(("Turkey", "F Med - Red Sea"))
    reply = adjudicate(request("colonial", units, orders))["orders"]
    assert [r["result"] for r in reply] == ["succeeds", "invalid", "succeeds"]
    assert reply[1]["reason"] == "the same permit was given before: the first is taken"


def test_an_order_without_a_power_says_so():
    body = request("standard", [("France", "A", "Paris")], [])
    body["orders"] = [{"order": "A Par H"}]
    assert check(body)["error"] == 'order 1 must name its power in "power"'


PASTED = ["\ufeffA Par - Bur", "A Par\u200b - Bur", "A\u2060 Par - Bur\u200d"]


@pytest.mark.parametrize("text", PASTED)
def test_invisible_characters_that_pasting_brings_are_ignored(text):
    reply = answer("standard", [("France", "A", "Paris")], "France", text)
    assert (reply["result"], reply["canonical"]) == ("valid", "A Paris - Burgundy")
