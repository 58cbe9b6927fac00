"""What the engine keeps from one request to the next (units read by location, an order's last
check, a reply's parts) never answers a request with what an earlier one held."""

from __future__ import annotations

import json

from adjudication import adjudicate
from adjudication.answer_json import answer_json
from adjudication.api import adjudicate_to_write


def _phase(units: list[tuple[str, str, str]], orders: list[tuple[str, str]]) -> dict:
    return {
        "variant": "standard",
        "phase": {"season": "spring", "year": 1901, "type": "movement"},
        "units": [{"power": p, "unit": u, "location": loc} for p, u, loc in units],
        "orders": [{"power": p, "order": text} for p, text in orders],
    }


def _results(request: dict) -> list[tuple[str, str, str | None]]:
    """Each reply's result, canonical text and reason, as the batch writes them."""
    answer = json.loads(answer_json(adjudicate_to_write(request)))
    assert answer == json.loads(json.dumps(adjudicate(request)))
    return [(r["result"], r["canonical"], r.get("reason")) for r in answer["orders"]]


def test_an_order_without_its_unit_word_is_checked_for_the_unit_standing_there_each_time():
    army = _phase([("France", "A", "Brest")], [("France", "Brest - Paris")])
    fleet = _phase([("France", "F", "Brest")], [("France", "Brest - Paris")])
    for _ in range(2):  # army, fleet, army, fleet: the same order text each time
        assert _results(army)[0][:2] == ("succeeds", "A Brest - Paris")
        result, _, reason = _results(fleet)[0]
        assert result == "invalid" and "Paris" in reason


def test_a_support_is_checked_against_the_unit_it_supports_each_time():
    text = "A Paris S A Picardy - Brest"
    with_target = _phase(
        [("France", "A", "Paris"), ("France", "A", "Picardy")],
        [("France", text), ("France", "A Picardy - Brest")],
    )
    without = _phase([("France", "A", "Paris")], [("France", text)])
    fleet_target = _phase(
        [("France", "A", "Paris"), ("France", "F", "Picardy")],
        [("France", text), ("France", "F Picardy - Brest")],
    )
    for _ in range(2):
        assert _results(with_target)[0][:2] == ("succeeds", text)
        assert _results(without)[0][0] == "invalid"
        assert _results(fleet_target)[0][0] == "invalid"  # an army named, a fleet there


def test_units_at_one_location_are_read_for_whoever_stands_there_each_time():
    seen = set()
    for power, kind in [("France", "A"), ("Germany", "A"), ("France", "F"), ("Germany", "A")]:
        request = _phase([(power, kind, "Brest")], [(power, f"{kind} Brest H")])
        answer = adjudicate(request)
        assert answer["units"] == [{"power": power, "unit": kind, "location": "Brest"}]
        assert answer["orders"][0]["result"] == "succeeds"
        seen.add((power, kind))
    # Written otherwise (lower case), the same unit, read the long way.
    request = _phase([("france", "a", "brest")], [("France", "A Brest H")])
    assert adjudicate(request)["units"] == [{"power": "France", "unit": "A", "location": "Brest"}]
    assert seen == {("France", "A"), ("Germany", "A"), ("France", "F")}


def test_one_order_text_from_different_powers_is_written_with_each_power():
    for power in ("England", "Russia", "England"):
        request = _phase([(power, "F", "North Sea")], [(power, "F North Sea H")])
        answer = json.loads(answer_json(adjudicate_to_write(request)))
        assert answer["orders"][0]["power"] == power
        assert answer["orders"][0]["order"] == "F North Sea H"
