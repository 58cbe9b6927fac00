"""Retreat and adjustment phases, centre ownership, victory and the phase sequence."""

from __future__ import annotations

from adjudication import adjudicate


def request(variant, units, orders, phase, **extra):
    req = {
        "variant": variant,
        "phase": phase,
        "units": [{"power": p, "unit": k, "location": loc} for p, k, loc in units],
        "orders": [{"power": p, "order": o} for p, o in orders],
    }
    req.update(extra)
    return req


def judge(variant, units, orders, phase, **extra):
    response = adjudicate(request(variant, units, orders, phase, **extra))
    assert "error" not in response, response
    return response


def unit_set(response):
    return {(u["power"], u["unit"], u["location"]) for u in response["units"]}


def phase(season, year, kind):
    return {"season": season, "year": year, "type": kind}


SPRING = phase("spring", 1901, "movement")
FALL = phase("fall", 1901, "movement")
SPRING_RETREATS = phase("spring", 1901, "retreats")
FALL_RETREATS = phase("fall", 1901, "retreats")
WINTER = phase("winter", 1901, "adjustments")

# Warsaw attacked from Prussia with support from Silesia; Galicia is a standoff; Moscow is held.
WARSAW_ATTACK_UNITS = [
    ("Russia", "A", "Warsaw"),
    ("Russia", "A", "Moscow"),
    ("Germany", "A", "Prussia"),
    ("Germany", "A", "Silesia"),
    ("Austria", "A", "Budapest"),
    ("Turkey", "A", "Rumania"),
]
WARSAW_ATTACK_ORDERS = [
    ("Russia", "A Warsaw H"),
    ("Russia", "A Moscow H"),
    ("Germany", "A Prussia - Warsaw"),
    ("Germany", "A Silesia S A Prussia - Warsaw"),
    ("Austria", "A Budapest - Galicia"),
    ("Turkey", "A Rumania - Galicia"),
]


# -- retreat options after movement -------------------------------------------------------


def test_dislodged_unit_and_its_retreat_options():
    r = judge("standard", WARSAW_ATTACK_UNITS, WARSAW_ATTACK_ORDERS, SPRING)
    assert r["dislodged"] == [
        {
            "power": "Russia",
            "unit": "A",
            "location": "Warsaw",
            "attacker_from": "Prussia",
            # Not Prussia (attacker), Silesia/Moscow (occupied), Galicia (standoff).
            "retreats": ["Livonia", "Ukraine"],
        }
    ]
    assert r["contested"] == ["Galicia"]
    assert ("Germany", "A", "Warsaw") in unit_set(r)
    assert ("Russia", "A", "Warsaw") not in unit_set(r)
    assert r["next_phase"] == SPRING_RETREATS
    assert [o["result"] for o in r["orders"]] == [
        "fails",
        "succeeds",
        "succeeds",
        "succeeds",
        "fails",
        "fails",
    ]


def test_dislodged_unit_without_retreats_skips_the_retreat_phase():
    units = [
        ("Russia", "A", "Warsaw"),
        ("Germany", "A", "Prussia"),
        ("Germany", "A", "Silesia"),
        ("Germany", "A", "Galicia"),
        ("Germany", "A", "Ukraine"),
        ("Germany", "A", "Livonia"),
        ("Germany", "A", "Moscow"),
    ]
    orders = [("Germany", "A Prussia - Warsaw"), ("Germany", "A Silesia S A Prussia - Warsaw")]
    r = judge("standard", units, orders, SPRING)
    assert len(r["dislodged"]) == 1
    assert r["dislodged"][0]["retreats"] == []
    assert r["next_phase"] == FALL


def test_fleet_retreat_options_name_coasts():
    units = [
        ("France", "F", "Mid-Atlantic Ocean"),
        ("England", "F", "English Channel"),
        ("England", "F", "Irish Sea"),
    ]
    orders = [
        ("England", "F English Channel - Mid-Atlantic Ocean"),
        ("England", "F Irish Sea S F English Channel - Mid-Atlantic Ocean"),
    ]
    r = judge("standard", units, orders, SPRING)
    assert r["dislodged"][0]["location"] == "Mid-Atlantic Ocean"
    assert r["dislodged"][0]["attacker_from"] == "English Channel"
    assert r["dislodged"][0]["retreats"] == [
        "Brest",
        "Gascony",
        "North Africa",
        "North Atlantic Ocean",
        "Portugal",
        "Spain/nc",
        "Spain/sc",
        "Western Mediterranean",
    ]


# -- retreat phase --------------------------------------------------------------------------


def after_attack():
    return judge("standard", WARSAW_ATTACK_UNITS, WARSAW_ATTACK_ORDERS, SPRING)


def test_retreat_succeeds():
    m = after_attack()
    r = judge(
        "standard",
        [(u["power"], u["unit"], u["location"]) for u in m["units"]],
        [("Russia", "A Warsaw R Ukraine")],
        m["next_phase"],
        dislodged=m["dislodged"],
        contested=m["contested"],
    )
    assert r["orders"][0]["result"] == "succeeds"
    assert r["orders"][0]["canonical"] == "A Warsaw R Ukraine"
    assert ("Russia", "A", "Ukraine") in unit_set(r)
    assert len(r["units"]) == len(m["units"]) + 1
    assert r["dislodged"] == []
    assert r["next_phase"] == FALL
    # Spring: nobody's centres change, not even Warsaw's.
    assert "Warsaw" in r["supply_centers"]["Russia"]
    assert "Warsaw" not in r["supply_centers"]["Germany"]


def test_a_hold_in_a_retreat_phase_says_only_dislodged_units_are_ordered():
    """Sent for a unit that was not dislodged (another power's was, in the same province),
    the reason must not call it dislodged."""
    m = after_attack()
    r = judge(
        "standard",
        [(u["power"], u["unit"], u["location"]) for u in m["units"]],
        [("Germany", "A Warsaw H")],
        m["next_phase"],
        dislodged=m["dislodged"],
        contested=m["contested"],
    )
    assert r["orders"][0]["result"] == "invalid"
    assert r["orders"][0]["reason"].startswith("only dislodged units are ordered")


def test_retreat_into_a_contested_province_is_refused():
    m = after_attack()
    r = judge(
        "standard",
        [(u["power"], u["unit"], u["location"]) for u in m["units"]],
        [("Russia", "A Warsaw R Galicia")],
        m["next_phase"],
        dislodged=m["dislodged"],
        contested=m["contested"],
    )
    assert r["orders"][0]["result"] == "invalid"
    assert "standoff" in r["orders"][0]["reason"]
    assert unit_set(r) == {(u["power"], u["unit"], u["location"]) for u in m["units"]}


def test_retreat_to_the_attackers_province_is_refused():
    m = after_attack()
    r = judge(
        "standard",
        [(u["power"], u["unit"], u["location"]) for u in m["units"]],
        [("Russia", "A Warsaw R Prussia")],
        m["next_phase"],
        dislodged=m["dislodged"],
        contested=m["contested"],
    )
    assert r["orders"][0]["result"] == "invalid"
    assert "attacker" in r["orders"][0]["reason"]
    assert ("Russia", "A", "Prussia") not in unit_set(r)
    assert len(r["units"]) == len(m["units"])


def test_retreat_to_the_attackers_province_after_a_convoy_is_allowed():
    dislodged = [
        {
            "power": "France",
            "unit": "A",
            "location": "Belgium",
            "attacker_from": "Holland",
            "via_convoy": True,
        }
    ]
    r = judge(
        "standard",
        [("England", "A", "Belgium")],
        [("France", "A Belgium R Holland")],
        SPRING_RETREATS,
        dislodged=dislodged,
    )
    assert r["orders"][0]["result"] == "succeeds"
    assert ("France", "A", "Holland") in unit_set(r)


def test_disband():
    m = after_attack()
    r = judge(
        "standard",
        [(u["power"], u["unit"], u["location"]) for u in m["units"]],
        [("Russia", "A Warsaw D")],
        m["next_phase"],
        dislodged=m["dislodged"],
        contested=m["contested"],
    )
    assert r["orders"][0]["result"] == "succeeds"
    assert r["orders"][0]["canonical"] == "A Warsaw D"
    assert unit_set(r) == {(u["power"], u["unit"], u["location"]) for u in m["units"]}


def test_unordered_dislodged_unit_disbands():
    m = after_attack()
    r = judge(
        "standard",
        [(u["power"], u["unit"], u["location"]) for u in m["units"]],
        [],
        m["next_phase"],
        dislodged=m["dislodged"],
        contested=m["contested"],
    )
    assert r["orders"] == []
    assert unit_set(r) == {(u["power"], u["unit"], u["location"]) for u in m["units"]}
    assert all(u["location"] not in ("Livonia", "Ukraine") for u in r["units"])


def test_two_units_retreating_to_one_space_both_disband():
    dislodged = [
        {"power": "Russia", "unit": "A", "location": "Warsaw", "attacker_from": "Silesia"},
        {"power": "Turkey", "unit": "A", "location": "Rumania", "attacker_from": "Bulgaria"},
    ]
    units = [("Germany", "A", "Warsaw"), ("Austria", "A", "Rumania")]
    r = judge(
        "standard",
        units,
        [("Russia", "A Warsaw R Galicia"), ("Turkey", "A Rumania R Galicia")],
        SPRING_RETREATS,
        dislodged=dislodged,
    )
    assert [o["result"] for o in r["orders"]] == ["fails", "fails"]
    assert "both disband" in r["orders"][0]["reason"]
    assert unit_set(r) == set(units)


def test_two_retreats_to_different_spaces_both_succeed():
    dislodged = [
        {"power": "Russia", "unit": "A", "location": "Warsaw", "attacker_from": "Silesia"},
        {"power": "Turkey", "unit": "A", "location": "Rumania", "attacker_from": "Bulgaria"},
    ]
    units = [("Germany", "A", "Warsaw"), ("Austria", "A", "Rumania")]
    r = judge(
        "standard",
        units,
        [("Russia", "A Warsaw R Galicia"), ("Turkey", "A Rumania R Ukraine")],
        SPRING_RETREATS,
        dislodged=dislodged,
    )
    assert [o["result"] for o in r["orders"]] == ["succeeds", "succeeds"]
    assert unit_set(r) == {*units, ("Russia", "A", "Galicia"), ("Turkey", "A", "Ukraine")}


def test_a_dislodged_unit_left_unordered_is_listed_as_disbanded_by_default():
    """The phase says which units its powers let go: one that could retreat but got no order
    (or only a refused one) is in ``civil_disorder``; one ordered, or with nowhere to go, is
    not."""
    dislodged = [
        {"power": "Russia", "unit": "A", "location": "Warsaw", "attacker_from": "Silesia"},
        {"power": "Turkey", "unit": "A", "location": "Rumania", "attacker_from": "Bulgaria"},
        {"power": "Austria", "unit": "A", "location": "Vienna", "attacker_from": "Bohemia"},
    ]
    units = [
        ("Germany", "A", "Warsaw"),
        ("Austria", "A", "Rumania"),
        ("Germany", "A", "Vienna"),
        ("Italy", "A", "Tyrolia"),
        ("Russia", "A", "Galicia"),
        ("Turkey", "A", "Budapest"),
        ("Italy", "A", "Trieste"),
    ]
    r = judge(
        "standard",
        units,
        [("Russia", "A Warsaw R Ukraine"), ("Turkey", "A Rumania R Moscow")],
        SPRING_RETREATS,
        dislodged=dislodged,
    )
    assert [o["result"] for o in r["orders"]] == ["succeeds", "invalid"]
    assert ("Russia", "A", "Ukraine") in unit_set(r)
    # Turkey's only order was refused: Rumania is disbanded by default. Vienna had nowhere to
    # go (Bohemia is where its attacker came from, every other neighbour is held).
    assert r["civil_disorder"] == [{"power": "Turkey", "unit": "A", "location": "Rumania"}]


def test_fleet_retreat_to_a_split_province_needs_a_coast():
    dislodged = [
        {
            "power": "France",
            "unit": "F",
            "location": "Mid-Atlantic Ocean",
            "attacker_from": "English Channel",
        }
    ]
    units = [("England", "F", "Mid-Atlantic Ocean")]
    r = judge("standard", units, [("France", "F mao R spa")], SPRING_RETREATS, dislodged=dislodged)
    assert r["orders"][0]["result"] == "invalid"
    assert "say which coast of Spain" in r["orders"][0]["reason"]
    r = judge(
        "standard", units, [("France", "F mao R spa/sc")], SPRING_RETREATS, dislodged=dislodged
    )
    assert r["orders"][0]["result"] == "succeeds"
    assert ("France", "F", "Spain/sc") in unit_set(r)


# -- supply centres and the phase sequence ---------------------------------------------------


def test_centres_do_not_change_after_spring():
    units = [("Germany", "F", "Kiel")]
    r = judge("standard", units, [("Germany", "F Kiel - Denmark")], SPRING)
    assert r["orders"][0]["result"] == "succeeds"
    assert r["supply_centers"]["Germany"] == ["Berlin", "Kiel", "Munich"]
    assert r["next_phase"] == FALL


def test_centres_change_after_fall():
    units = [("Germany", "F", "Kiel"), ("Germany", "A", "Berlin"), ("Germany", "A", "Munich")]
    r = judge("standard", units, [("Germany", "F Kiel - Denmark")], FALL)
    assert r["supply_centers"]["Germany"] == ["Berlin", "Denmark", "Kiel", "Munich"]
    # Kiel was left empty but stays German.
    assert r["next_phase"] == WINTER


def test_capture_of_another_powers_centre_after_fall():
    units = [("Germany", "A", "Prussia"), ("Germany", "A", "Silesia"), ("Russia", "A", "Moscow")]
    orders = [("Germany", "A Prussia - Warsaw")]
    r = judge("standard", units, orders, FALL)
    assert r["orders"][0]["result"] == "succeeds"
    assert "Warsaw" in r["supply_centers"]["Germany"]
    assert "Warsaw" not in r["supply_centers"]["Russia"]


def test_centres_change_after_fall_retreats_not_fall_movement():
    m = judge("standard", WARSAW_ATTACK_UNITS, WARSAW_ATTACK_ORDERS, FALL)
    assert m["next_phase"] == FALL_RETREATS
    assert "Warsaw" in m["supply_centers"]["Russia"]
    assert "Warsaw" not in m["supply_centers"]["Germany"]
    r = judge(
        "standard",
        [(u["power"], u["unit"], u["location"]) for u in m["units"]],
        [("Russia", "A Warsaw R Ukraine")],
        m["next_phase"],
        dislodged=m["dislodged"],
        contested=m["contested"],
        supply_centers=m["supply_centers"],
    )
    assert r["orders"][0]["result"] == "succeeds"
    assert "Warsaw" in r["supply_centers"]["Germany"]
    assert "Warsaw" not in r["supply_centers"]["Russia"]
    # Turkey stands on neutral Rumania; it becomes Turkish.
    assert "Rumania" in r["supply_centers"]["Turkey"]
    # Germany and Turkey gained a centre each, so there are adjustments.
    assert r["next_phase"] == WINTER


def test_nothing_to_adjust_skips_the_adjustment_phase():
    units = [("Germany", "F", "Kiel"), ("Germany", "A", "Berlin"), ("Germany", "A", "Munich")]
    centres = {"Germany": ["Berlin", "Kiel", "Munich"]}
    r = judge("standard", units, [("Germany", "F Kiel - Baltic Sea")], FALL, supply_centers=centres)
    assert r["supply_centers"]["Germany"] == ["Berlin", "Kiel", "Munich"]
    assert r["next_phase"] == phase("spring", 1902, "movement")


def test_builds_due_but_no_site_free_skips_the_adjustment_phase():
    units = [("Germany", "A", "Berlin"), ("Germany", "A", "Munich"), ("Germany", "A", "Kiel")]
    centres = {"Germany": ["Berlin", "Kiel", "Munich", "Denmark"]}
    r = judge("standard", units, [], FALL, supply_centers=centres)
    assert r["supply_centers"]["Germany"] == ["Berlin", "Denmark", "Kiel", "Munich"]
    assert r["next_phase"] == phase("spring", 1902, "movement")


def test_removal_due_goes_to_adjustments():
    units = [("Germany", "A", "Berlin"), ("Germany", "A", "Munich"), ("Germany", "A", "Ruhr")]
    centres = {"Germany": ["Berlin", "Munich"]}
    r = judge("standard", units, [], FALL, supply_centers=centres)
    assert r["next_phase"] == WINTER


def test_adjustments_lead_to_next_spring():
    r = judge(
        "colonial",
        [],
        [("Russia", "Build A Moscow")],
        phase("winter", 1875, "adjustments"),
    )
    assert r["next_phase"] == phase("spring", 1876, "movement")
    assert unit_set(r) == {("Russia", "A", "Moscow")}


def test_fall_retreats_with_nothing_to_adjust_go_to_next_spring():
    dislodged = [
        {"power": "Russia", "unit": "A", "location": "Ukraine", "attacker_from": "Galicia"}
    ]
    units = [
        ("Austria", "A", "Ukraine"),
        ("Austria", "A", "Vienna"),
        ("Austria", "A", "Budapest"),
    ]
    centres = {"Austria": ["Vienna", "Budapest", "Trieste"], "Russia": ["Moscow"]}
    r = judge(
        "standard",
        units,
        [("Russia", "A Ukraine R Moscow")],
        FALL_RETREATS,
        dislodged=dislodged,
        supply_centers=centres,
    )
    assert r["orders"][0]["result"] == "succeeds"
    assert r["next_phase"] == phase("spring", 1902, "movement")


# -- adjustments ----------------------------------------------------------------------------


def test_builds_in_owned_empty_home_centres():
    centres = {"Russia": ["Moscow", "Warsaw", "Sevastopol", "St Petersburg", "Sweden"]}
    units = [("Russia", "A", "Moscow"), ("Russia", "A", "Sweden")]
    orders = [
        ("Russia", "Build A Warsaw"),
        ("Russia", "Build F Sevastopol"),
        ("Russia", "Build F St Petersburg/nc"),
    ]
    r = judge("standard", units, orders, WINTER, supply_centers=centres)
    assert [o["result"] for o in r["orders"]] == ["succeeds"] * 3
    assert unit_set(r) == {
        *units,
        ("Russia", "A", "Warsaw"),
        ("Russia", "F", "Sevastopol"),
        ("Russia", "F", "St Petersburg/nc"),
    }
    assert r["civil_disorder"] == []
    assert r["supply_centers"]["Russia"] == sorted(centres["Russia"])


def test_build_refused_in_home_centre_owned_by_another_power():
    centres = {"Russia": ["Moscow", "Sevastopol"], "Turkey": ["Warsaw"]}
    r = judge("standard", [], [("Russia", "Build A Warsaw")], WINTER, supply_centers=centres)
    assert r["orders"][0]["result"] == "invalid"
    assert "Russia does not own Warsaw" in r["orders"][0]["reason"]
    assert r["units"] == []


def test_build_refused_in_occupied_home_centre():
    centres = {"Russia": ["Moscow", "Sevastopol"], "Turkey": ["Ankara"]}
    units = [("Turkey", "A", "Moscow")]
    r = judge("standard", units, [("Russia", "Build A Moscow")], WINTER, supply_centers=centres)
    assert r["orders"][0]["result"] == "invalid"
    assert unit_set(r) == set(units)


def test_builds_on_colonial_map():
    r = judge(
        "colonial",
        [],
        [("Russia", "Build F Port Arthur"), ("Russia", "build a oms"), ("Japan", "Build F Kyoto")],
        phase("winter", 1870, "adjustments"),
    )
    assert [o["canonical"] for o in r["orders"]] == [
        "Build F Port Arthur",
        "Build A Omsk",
        "Build F Kyoto",
    ]
    assert unit_set(r) == {
        ("Russia", "F", "Port Arthur"),
        ("Russia", "A", "Omsk"),
        ("Japan", "F", "Kyoto"),
    }


def test_removal():
    units = [("Russia", "A", "Omsk"), ("Russia", "A", "Moscow"), ("Russia", "F", "Odessa")]
    centres = {"Russia": ["Moscow", "Odessa"]}
    r = judge(
        "colonial",
        units,
        [("Russia", "Remove A Omsk")],
        phase("winter", 1870, "adjustments"),
        supply_centers=centres,
    )
    assert r["orders"][0]["result"] == "succeeds"
    assert r["orders"][0]["canonical"] == "Remove A Omsk"
    assert unit_set(r) == {("Russia", "A", "Moscow"), ("Russia", "F", "Odessa")}
    assert r["civil_disorder"] == []


def test_disband_in_adjustments_is_a_removal():
    units = [("Russia", "A", "Omsk"), ("Russia", "A", "Moscow")]
    r = judge(
        "colonial",
        units,
        [("Russia", "disband a omsk")],
        phase("winter", 1870, "adjustments"),
        supply_centers={"Russia": ["Moscow"]},
    )
    assert r["orders"][0]["result"] == "succeeds"
    assert r["orders"][0]["canonical"] == "Remove A Omsk"
    assert unit_set(r) == {("Russia", "A", "Moscow")}


def test_removing_a_unit_twice():
    units = [("Russia", "A", "Omsk"), ("Russia", "A", "Moscow"), ("Russia", "A", "Perm")]
    r = judge(
        "colonial",
        units,
        [("Russia", "Remove A Omsk"), ("Russia", "Remove A Omsk")],
        phase("winter", 1870, "adjustments"),
        supply_centers={"Russia": ["Moscow"]},
    )
    assert r["orders"][0]["result"] == "succeeds"
    assert r["orders"][1]["result"] == "invalid"
    assert "already being removed" in r["orders"][1]["reason"]
    # One removal is still missing: civil disorder takes Perm, the only other unit off a centre.
    assert r["civil_disorder"] == [{"power": "Russia", "unit": "A", "location": "Perm"}]
    assert unit_set(r) == {("Russia", "A", "Moscow")}


def test_waive():
    centres = {"Russia": ["Moscow", "Warsaw", "Sevastopol"]}
    r = judge(
        "standard",
        [("Russia", "A", "Moscow")],
        [("Russia", "Waive"), ("Russia", "Build A Warsaw"), ("Russia", "Build A Sevastopol")],
        WINTER,
        supply_centers=centres,
    )
    assert [o["result"] for o in r["orders"]] == ["succeeds", "succeeds", "invalid"]
    assert "no builds left" in r["orders"][2]["reason"]
    assert unit_set(r) == {("Russia", "A", "Moscow"), ("Russia", "A", "Warsaw")}


def test_unused_builds_are_simply_lost():
    centres = {"Russia": ["Moscow", "Warsaw", "Sevastopol"]}
    r = judge("standard", [], [], WINTER, supply_centers=centres)
    assert r["units"] == []
    assert r["civil_disorder"] == []
    assert r["next_phase"] == phase("spring", 1902, "movement")


def test_civil_disorder_removes_the_farthest_units():
    centres = {"Austria": ["Vienna"]}
    units = [("Austria", "A", "Vienna"), ("Austria", "A", "Budapest"), ("Austria", "A", "Greece")]
    r = judge("standard", units, [], WINTER, supply_centers=centres)
    assert r["civil_disorder"] == [
        {"power": "Austria", "unit": "A", "location": "Greece"},
        {"power": "Austria", "unit": "A", "location": "Budapest"},
    ]
    assert unit_set(r) == {("Austria", "A", "Vienna")}


def test_civil_disorder_only_for_missing_removals():
    centres = {"Austria": ["Vienna"]}
    units = [("Austria", "A", "Vienna"), ("Austria", "A", "Budapest"), ("Austria", "A", "Greece")]
    r = judge("standard", units, [("Austria", "Remove A Vienna")], WINTER, supply_centers=centres)
    assert r["orders"][0]["result"] == "succeeds"
    assert r["civil_disorder"] == [{"power": "Austria", "unit": "A", "location": "Greece"}]
    assert unit_set(r) == {("Austria", "A", "Budapest")}


def test_civil_disorder_prefers_fleets_on_a_tie():
    centres = {"Italy": ["Rome", "Naples"]}
    units = [("Italy", "A", "Rome"), ("Italy", "A", "Apulia"), ("Italy", "F", "Tyrrhenian Sea")]
    r = judge("standard", units, [], WINTER, supply_centers=centres)
    # Apulia and the Tyrrhenian Sea are both one step from Naples: the fleet goes first.
    assert r["civil_disorder"] == [{"power": "Italy", "unit": "F", "location": "Tyrrhenian Sea"}]


# -- victory ----------------------------------------------------------------------------------

RUSSIA_17 = [
    "Moscow",
    "Sevastopol",
    "St Petersburg",
    "Warsaw",
    "Sweden",
    "Norway",
    "Denmark",
    "Rumania",
    "Bulgaria",
    "Constantinople",
    "Ankara",
    "Smyrna",
    "Budapest",
    "Vienna",
    "Trieste",
    "Serbia",
    "Greece",
]


def test_victory_at_eighteen_centres():
    units = [("Russia", "A", "Silesia")]
    r = judge(
        "standard",
        units,
        [("Russia", "A Silesia - Berlin")],
        FALL,
        supply_centers={"Russia": RUSSIA_17},
    )
    assert len(r["supply_centers"]["Russia"]) == 18
    assert r["winner"] == "Russia"


def test_no_victory_at_seventeen():
    units = [("Russia", "A", "Silesia")]
    r = judge(
        "standard",
        units,
        [("Russia", "A Silesia - Bohemia")],
        FALL,
        supply_centers={"Russia": RUSSIA_17},
    )
    assert len(r["supply_centers"]["Russia"]) == 17
    assert r["winner"] is None


def test_no_victory_declared_in_spring():
    units = [("Russia", "A", "Silesia")]
    r = judge(
        "standard",
        units,
        [("Russia", "A Silesia - Berlin")],
        SPRING,
        supply_centers={"Russia": RUSSIA_17},
    )
    assert r["winner"] is None
    assert len(r["supply_centers"]["Russia"]) == 17


def test_victory_threshold_option():
    units = [("Germany", "F", "Kiel"), ("Germany", "A", "Ruhr")]
    orders = [("Germany", "F Kiel - Denmark"), ("Germany", "A Ruhr - Holland")]
    r = judge("standard", units, orders, FALL, options={"victory_centers": 5})
    assert r["supply_centers"]["Germany"] == ["Berlin", "Denmark", "Holland", "Kiel", "Munich"]
    assert r["winner"] == "Germany"
    r = judge("standard", units, orders, FALL, options={"victory_centers": 6})
    assert r["winner"] is None


def test_victory_threshold_option_on_colonial():
    units = [("Russia", "A", "Perm")]
    centres = {"Russia": ["Moscow", "Odessa", "Port Arthur", "Vladivostok"]}
    fall = phase("fall", 1870, "movement")
    orders = [("Russia", "A Perm - Omsk")]
    r = judge(
        "colonial", units, orders, fall, supply_centers=centres, options={"victory_centers": 5}
    )
    assert len(r["supply_centers"]["Russia"]) == 5
    assert r["winner"] == "Russia"
    r = judge("colonial", units, orders, fall, supply_centers=centres)
    assert len(r["supply_centers"]["Russia"]) == 5
    assert r["winner"] is None  # Colonial needs 29 by default


def test_victory_after_fall_retreats():
    dislodged = [
        {"power": "Germany", "unit": "A", "location": "Berlin", "attacker_from": "Silesia"}
    ]
    r = judge(
        "standard",
        [("Russia", "A", "Berlin")],
        [("Germany", "A Berlin R Kiel")],
        FALL_RETREATS,
        dislodged=dislodged,
        supply_centers={"Russia": RUSSIA_17, "Germany": ["Berlin", "Kiel", "Munich"]},
    )
    assert "Berlin" in r["supply_centers"]["Russia"]
    assert r["winner"] == "Russia"


def test_a_convoy_of_a_fleet_is_refused_not_read_as_the_army_there():
    """ "F Eng C F Bre - Lon" with an army in Brest was read as a convoy of the army; a
    support naming the wrong kind of unit was already refused."""
    units = [("England", "F", "English Channel"), ("France", "A", "Brest")]
    r = judge("standard", units, [("England", "F Eng C F Bre - Lon")], SPRING)
    assert r["orders"][0]["result"] == "invalid"
    assert r["orders"][0]["reason"] == "the unit in Brest is an army"
