"""``adjudication.options``: every legal order of a power, and nothing the engine refuses.

Soundness: each listed order passes the engine's check. Completeness: a brute force over every
order text the map could spell (every unit, every province and coast) finds no legal order
that the list lacks.
"""

from __future__ import annotations

import random

import pytest

import adjudication
from adjudication.api import check
from adjudication.options import options

SPRING = {"season": "spring", "year": 1901, "type": "movement"}


def _request(variant_id: str, units: list[dict], phase=SPRING, **extra) -> dict:
    return {"variant": variant_id, "phase": phase, "units": units, **extra}


def _random_units(variant_id: str, rng: random.Random, count: int) -> list[dict]:
    variant = adjudication.load(variant_id)
    powers = variant.playable_powers
    spots = list(variant.provinces)
    rng.shuffle(spots)
    units = []
    for name in spots[:count]:
        p = variant.provinces[name]
        kinds = []
        if not p.is_sea:
            kinds.append(("A", name))
        kinds += [("F", loc) for loc in variant.fleet_locations(name)]
        kind, loc = rng.choice(kinds)
        units.append({"power": rng.choice(powers), "unit": kind, "location": loc})
    return units


def _valid(request: dict, power: str, texts: list[str]) -> set[str]:
    out = set()
    for text in texts:
        reply = check({**request, "orders": [{"power": power, "order": text}]})["orders"][0]
        if reply["result"] != "invalid":
            out.add(reply["canonical"])
    return out


def _every_text(variant_id: str, request: dict, power: str) -> list[str]:
    """Every movement order text over the map's locations, for this power's units."""
    variant = adjudication.load(variant_id)
    places = sorted(set(variant.provinces) | set(variant.fleet_adj))
    mine = [u for u in request["units"] if u["power"] == power]
    texts = []
    for u in mine:
        here = f"{u['unit']} {u['location']}"
        texts.append(f"{here} H")
        for dest in places:
            texts.append(f"{here} - {dest}")
            texts.append(f"{here} - {dest} via Convoy")
        for other in request["units"]:
            there = f"{other['unit']} {other['location']}"
            texts.append(f"{here} S {there}")
            for dest in variant.provinces:
                texts.append(f"{here} S {there} - {dest}")
                texts.append(f"{here} C {there} - {dest}")
    return texts


def test_standard_opening_lists_the_familiar_moves():
    variant = adjudication.load("standard")
    answer = options(_request("standard", variant.starting_units), "Russia")
    listed = {o["order"] for o in answer["orders"]}
    assert "F St Petersburg/sc - Gulf of Bothnia" in listed
    assert "A Moscow - Ukraine" in listed
    assert "A Warsaw S A Moscow - Ukraine" in listed
    assert "A Moscow - Berlin" not in listed
    assert len(listed) == len(answer["orders"])  # no duplicates
    move = next(o for o in answer["orders"] if o["order"] == "A Moscow - Ukraine")
    assert move == {
        "kind": "move",
        "order": "A Moscow - Ukraine",
        "unit": "A",
        "location": "Moscow",
        "destination": "Ukraine",
    }


@pytest.mark.parametrize("seed", range(6))
def test_options_are_exactly_the_legal_orders(seed):
    rng = random.Random(seed)
    units = _random_units("standard", rng, 14)
    request = _request("standard", units)
    power = units[0]["power"]
    listed = {o["order"] for o in options(request, power)["orders"]}
    legal = _valid(request, power, _every_text("standard", request, power))
    assert listed == legal


def test_retreat_options_and_disband():
    request = _request(
        "standard",
        [{"power": "Germany", "unit": "A", "location": "Munich"}],
        phase={"season": "spring", "year": 1901, "type": "retreats"},
        dislodged=[
            {"power": "France", "unit": "A", "location": "Burgundy", "attacker_from": "Paris"}
        ],
        contested=["Picardy"],
    )
    listed = {o["order"] for o in options(request, "France")["orders"]}
    assert listed == {
        "A Burgundy R Belgium",
        "A Burgundy R Gascony",
        "A Burgundy R Marseilles",
        "A Burgundy R Ruhr",
        "A Burgundy D",
    }


def test_builds_list_each_free_home_centre_and_the_count():
    request = _request(
        "standard",
        [{"power": "Russia", "unit": "A", "location": "Moscow"}],
        phase={"season": "winter", "year": 1901, "type": "adjustments"},
        supply_centers={"Russia": ["Moscow", "St Petersburg", "Warsaw", "Sevastopol"]},
    )
    answer = options(request, "Russia")
    listed = {o["order"] for o in answer["orders"]}
    assert answer["adjustment"] == 3
    assert "Build F St Petersburg/nc" in listed
    assert "Build A Warsaw" in listed
    assert "Build F Warsaw" not in listed
    assert "Build A Moscow" not in listed  # occupied
    assert "Waive" in listed


def test_removals_when_short_of_centres():
    request = _request(
        "standard",
        [
            {"power": "Russia", "unit": "A", "location": "Moscow"},
            {"power": "Russia", "unit": "A", "location": "Ukraine"},
        ],
        phase={"season": "winter", "year": 1901, "type": "adjustments"},
        supply_centers={"Russia": ["Moscow"]},
    )
    answer = options(request, "Russia")
    assert answer["adjustment"] == -1
    assert {o["order"] for o in answer["orders"]} == {"Remove A Moscow", "Remove A Ukraine"}


def test_unknown_power_and_bad_request_are_errors():
    assert "error" in options(_request("standard", []), "Atlantis")
    assert "error" in options({"variant": "nowhere"}, "Russia")


def _colonial(units: list[dict]) -> dict:
    return _request("colonial", units, phase={"season": "spring", "year": 1870, "type": "movement"})


def test_colonial_railroad_and_supports_of_it_are_listed():
    request = _colonial(
        [
            {"power": "Russia", "unit": "A", "location": "Moscow"},
            {"power": "Britain", "unit": "A", "location": "Orenburg"},
        ]
    )
    russia = {o["order"] for o in options(request, "Russia")["orders"]}
    assert "A Moscow - Vladivostok via TSR" in russia
    britain = {o["order"] for o in options(request, "Britain")["orders"]}
    assert "A Orenburg S A Moscow - Omsk" in britain
    assert not any("TSR" in o for o in britain)
    ride = next(o for o in options(request, "Russia")["orders"] if o["order"].endswith("TSR"))
    assert ride["via"] == "TSR" and ride["kind"] == "move"


def test_colonial_canal_passage_for_a_foreign_fleet_and_the_permit():
    request = _colonial(
        [
            {"power": "Britain", "unit": "A", "location": "Egypt"},
            {"power": "Turkey", "unit": "F", "location": "Mediterranean Sea"},
        ]
    )
    turkey = options(request, "Turkey")["orders"]
    passage = next(o for o in turkey if o["order"] == "F Mediterranean Sea - Red Sea")
    assert "needs" in passage  # it hangs on Britain's permit
    britain = {o["order"] for o in options(request, "Britain")["orders"]}
    assert "Suez permit F Mediterranean Sea" in britain
    assert "Suez permit F Mediterranean Sea" not in {o["order"] for o in turkey}


def test_colonial_canal_shut_without_a_unit_in_egypt():
    request = _colonial([{"power": "Turkey", "unit": "F", "location": "Mediterranean Sea"}])
    turkey = {o["order"] for o in options(request, "Turkey")["orders"]}
    assert "F Mediterranean Sea - Red Sea" not in turkey


def test_chinese_great_power_without_units_may_enter():
    variant = adjudication.load("chinese")
    request = _request(
        "chinese",
        variant.starting_units,
        phase={"season": variant.seasons[0], "year": variant.start_year, "type": "movement"},
    )
    japan = {o["order"] for o in options(request, "Japan")["orders"]}
    assert japan and all(o.startswith("Enter A ") for o in japan)


def test_units_sharing_an_entry_space_support_each_other() -> None:
    """Two armies of one power in a Chinese entry space: one may support the other's move
    (the list used to skip it, taking the twin for the unit itself), and the canonical order
    names armies, not fleets, and whose army it supports."""
    request = {
        "variant": "chinese",
        "phase": {"season": "year", "year": 1900, "type": "movement"},
        "units": [{"power": "England", "unit": "A", "location": "Pacific Ocean"}] * 2
        + [{"power": "Imperials", "unit": "A", "location": "Shamtung"}],
    }
    listed = {o["order"] for o in options(request, "England")["orders"]}
    assert "A Pacific Ocean S England A Pacific Ocean - Shamtung" in listed
    assert not any(" S F " in text for text in listed)
    orders = [
        {"power": "England", "order": "A Pacific Ocean - Shamtung"},
        {"power": "England", "order": "A Pacific Ocean S A Pacific Ocean - Shamtung"},
    ]
    response = adjudication.adjudicate({**request, "orders": orders})
    assert {"power": "England", "unit": "A", "location": "Shamtung"} in response["units"]
