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


def _move_possible_now(request: dict, support: dict) -> bool:
    """Whether the move a support is for could be ordered this turn, a supporting fleet left
    out (it cannot convoy while it supports): by land, or by sea through fleets now there."""
    supporter = _unit_at(request, support["location"])
    units = [u for u in request["units"] if supporter["unit"] == "A" or u is not supporter]
    owner = _unit_at(request, support["target"])["power"]
    move = f"{support['target_unit']} {support['target']} - {support['destination']}"
    if support["target_unit"] == "A":
        texts = [move, f"{move} via Convoy"]
    else:  # a fleet's move to either coast
        texts = [move] + [f"{move}/{coast}" for coast in ("nc", "sc", "ec", "wc")]
    return bool(_valid({**request, "units": units}, owner, texts))


def _unit_at(request: dict, location: str) -> dict:
    province = location.split("/")[0]
    return next(u for u in request["units"] if u["location"].split("/")[0] == province)


@pytest.mark.parametrize("seed", range(6))
def test_options_are_exactly_the_legal_orders(seed):
    """Every order listed is legal, and every legal order is listed but for supports of a
    move the supported unit could not make this turn (a convoyed move with no chain of
    fleets for it): legal when typed (DATC 6.D.31), left out of the menus."""
    rng = random.Random(seed)
    units = _random_units("standard", rng, 14)
    request = _request("standard", units)
    power = units[0]["power"]
    listed = {o["order"] for o in options(request, power)["orders"]}
    legal = _valid(request, power, _every_text("standard", request, power))
    assert listed <= legal
    for text in legal - listed:
        data = check({**request, "orders": [{"power": power, "order": text}]})["orders"][0]
        data = data["data"]
        assert data["kind"] == "support" and "destination" in data, text
        assert not _move_possible_now(request, data), text
    for text in listed:  # and each support listed is for a move that could be made
        data = check({**request, "orders": [{"power": power, "order": text}]})["orders"][0]
        if data["data"]["kind"] == "support" and "destination" in data["data"]:
            assert _move_possible_now(request, data["data"]), text


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


def _check_one(request: dict, power: str, text: str) -> dict:
    return check({**request, "orders": [{"power": power, "order": text}]})["orders"][0]


def _colonial_start(moved: dict[str, str], extra: list[dict] = ()) -> dict:
    """Colonial's opening position with some units moved (``{from: to}``) and others added."""
    variant = adjudication.load("colonial")
    units = [
        {**u, "location": moved.get(u["location"], u["location"])} for u in variant.starting_units
    ]
    return _colonial(units + list(extra))


def test_convoys_only_through_a_chain_of_fleets_at_sea_now():
    """A fleet alone in the South China Sea: no convoy of A Madras (no fleets on the way), in
    the menus or typed, agreeing with the army's own move; convoys it can make alone, are."""
    request = _colonial_start({"Hong Kong": "South China Sea"})
    listed = {o["order"] for o in options(request, "Britain")["orders"]}
    convoys = {text for text in listed if " C " in text}
    assert "F South China Sea C A Canton - Tongking" in convoys
    assert not any("Madras" in text or "Kyoto" in text for text in convoys)
    reach = adjudication.load("colonial").fleet_reach["South China Sea"]
    for text in convoys:  # one fleet alone: the army and its destination are next to it
        origin, dest = text.split(" C A ")[1].split(" - ")
        assert origin in reach and dest in reach, text
    convoy = _check_one(request, "Britain", "F South China Sea C A Madras - Canton")
    move = _check_one(request, "Britain", "A Madras - Canton via Convoy")
    assert convoy["result"] == move["result"] == "invalid"
    assert "no chain of fleets" in convoy["reason"]


def test_a_chain_of_fleets_opens_the_convoy_and_the_move_alike():
    chain = ["West Indian Ocean", "Southeast Indian Ocean", "Java Sea", "Sunda Sea"]
    request = _colonial_start(
        {"Hong Kong": "South China Sea"},
        [{"power": "Holland", "unit": "F", "location": sea} for sea in chain],
    )
    listed = {o["order"] for o in options(request, "Britain")["orders"]}
    assert "F South China Sea C A Madras - Canton" in listed
    assert "A Madras - Canton via Convoy" in listed
    for text in ("F South China Sea C A Madras - Canton", "A Madras - Canton via Convoy"):
        assert _check_one(request, "Britain", text)["result"] == "valid", text
    holland = {o["order"] for o in options(request, "Holland")["orders"]}
    assert "F Java Sea C A Madras - Canton" in holland


def test_a_fleet_off_every_chain_may_not_convoy():
    """DATC 6.F.12's fleet in the Irish Sea: it touches the chain London - English Channel -
    Belgium only through the Channel, so no chain has it: refused, as the menus leave it."""
    request = _request(
        "standard",
        [
            {"power": "England", "unit": "A", "location": "London"},
            {"power": "England", "unit": "F", "location": "English Channel"},
            {"power": "England", "unit": "F", "location": "Irish Sea"},
        ],
    )
    listed = {o["order"] for o in options(request, "England")["orders"]}
    assert "F English Channel C A London - Belgium" in listed
    assert "A London - Belgium via Convoy" in listed
    assert "F Irish Sea C A London - Belgium" not in listed
    assert "F Irish Sea C A London - Liverpool" in listed  # that chain has it
    reply = _check_one(request, "England", "F Irish Sea C A London - Belgium")
    assert reply["result"] == "invalid"
    assert reply["reason"] == (
        "no chain of fleets standing at sea joins London to Belgium through Irish Sea"
    )
    assert _check_one(request, "England", "F Irish Sea C A London - Wales")["result"] == "valid"


def test_supports_only_of_moves_the_unit_could_make_this_turn():
    """A Madras is not offered support of A Kyoto into Hyderabad (only a convoy could take it
    there, and no fleets are on the way); typed, the support is legal (DATC 6.D.31)."""
    request = _colonial_start({"Hong Kong": "South China Sea"})
    listed = {o["order"] for o in options(request, "Britain")["orders"]}
    assert "F Bombay S A Madras - Mysore" in listed
    assert not any(" S A Kyoto" in text or " S A Vladivostok" in text for text in listed)
    assert _check_one(request, "Britain", "A Madras S A Kyoto - Hyderabad")["result"] == "valid"


def test_a_fleet_is_not_offered_support_of_a_move_only_it_could_convoy():
    """DATC 6.D.31: F Black Sea S A Rumania - Armenia is legal, but the move could only be
    made by the Black Sea's own convoy, so the menu leaves it out."""
    request = _request(
        "standard",
        [
            {"power": "Austria", "unit": "A", "location": "Rumania"},
            {"power": "Turkey", "unit": "F", "location": "Black Sea"},
        ],
    )
    turkey = {o["order"] for o in options(request, "Turkey")["orders"]}
    assert "F Black Sea S A Rumania - Armenia" not in turkey
    assert "F Black Sea C A Rumania - Armenia" in turkey
    reply = _check_one(request, "Turkey", "F Black Sea S A Rumania - Armenia")
    assert reply["result"] == "valid"


def _simple_chains(reach: dict, fleets: frozenset[str], origin: str, dest: str) -> set[str]:
    """The seas of every chain of fleets from origin to dest visiting no sea twice, walked."""
    found: set[str] = set()
    paths = [[sea] for sea in sorted(reach[origin] & fleets)]
    while paths:
        path = paths.pop()
        if dest in reach[path[-1]]:
            found.update(path)
        paths += [[*path, s] for s in sorted(reach[path[-1]] & fleets) if s not in path]
    return found


@pytest.mark.parametrize("variant_id", ["standard", "colonial", "far-east"])
def test_chain_fleets_are_the_seas_of_every_chain_visiting_no_sea_twice(variant_id):
    """``chain_fleets`` (blocks of the fleets' graph) against a walk of every simple chain."""
    from adjudication.movement import chain_fleets

    variant = adjudication.load(variant_id)
    seas = sorted(p for p, pr in variant.provinces.items() if pr.is_sea)
    coasts = sorted(p for p, pr in variant.provinces.items() if pr.type == "coast")
    rng = random.Random(5)
    joined = 0
    for _ in range(400):
        fleets = frozenset(rng.sample(seas, rng.randint(1, min(12, len(seas)))))
        origin, dest = rng.sample(coasts, 2)
        walked = _simple_chains(variant.fleet_reach, fleets, origin, dest)
        joined += bool(walked)
        assert chain_fleets(variant, fleets, origin, dest) == walked, (origin, dest, fleets)
    assert joined >= 10  # the positions do hold chains


def test_a_refused_convoy_does_not_take_its_powers_army_by_sea():
    """F Norwegian Sea C A Yorkshire - Edinburgh has no chain (the North Sea is empty): it is
    refused, so the army's move to the adjacent Edinburgh goes over land and succeeds."""
    request = _request(
        "standard",
        [
            {"power": "England", "unit": "A", "location": "Yorkshire"},
            {"power": "England", "unit": "F", "location": "Norwegian Sea"},
        ],
    )
    orders = [
        {"power": "England", "order": "A Yorkshire - Edinburgh"},
        {"power": "England", "order": "F Norwegian Sea C A Yorkshire - Edinburgh"},
    ]
    answer = adjudication.adjudicate({**request, "orders": orders})
    assert [o["result"] for o in answer["orders"]] == ["succeeds", "invalid"]
    assert {"power": "England", "unit": "A", "location": "Edinburgh"} in answer["units"]
