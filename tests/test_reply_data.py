"""Two shortcuts the engine takes for speed, checked against the long way round: a reply's
``data`` is one read-only dict shared by the replies of an order text, and a failed order's
reason comes from the cause its decision kept while being settled rather than from judging it
again."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from adjudication import adjudicate, check, load
from adjudication.api import ReplyData, _add_orders, _order_entries, movement_class
from adjudication.bench import generate
from adjudication.board import read


def test_a_replys_data_is_shared_read_only_and_copies_are_plain_dicts():
    request = generate(1, seed=3)[0]
    first, second = adjudicate(request), adjudicate(request)
    data = first["orders"][0]["data"]
    assert data is second["orders"][0]["data"]  # one per order text
    assert isinstance(data, ReplyData) and data["order"] == first["orders"][0]["canonical"]
    for change in (
        lambda d: d.__setitem__("kind", "hold"),
        lambda d: d.pop("kind"),
        lambda d: d.update(kind="hold"),
        lambda d: d.setdefault("x", 1),
        lambda d: d.clear(),
        lambda d: d.__delitem__("kind"),
    ):
        with pytest.raises(TypeError):
            change(data)
    assert data["kind"] in ("hold", "move", "support", "convoy")
    for plain in (dict(data), data.copy(), copy.copy(data), copy.deepcopy(data)):
        assert type(plain) is dict and plain == data
        plain["kind"] = "changed"  # a copy is the caller's own
    again = pickle.loads(pickle.dumps(first))
    assert type(again["orders"][0]["data"]) is dict and again == first
    assert json.loads(json.dumps(first)) == first
    assert check(request)["orders"][0]["data"] is data


def _reasons(request: dict, judge_again: bool) -> list:
    board, entries = read(request)
    entries = _order_entries(board, entries)
    m = movement_class(board.variant)(board)
    _, unit_of = _add_orders(m, entries)
    m.run()
    if judge_again:
        m.causes.clear()  # every reason then judges its decision again, all being settled
    return [m.outcome(i) for i in unit_of if i is not None]


def test_the_reason_kept_while_settling_is_the_one_judging_again_finds():
    """Over a few hundred generated phases (bounces, cut supports, convoys, head-to-heads):
    each failed order's reason from its kept cause equals the reason found by running its
    decision again once every decision is settled, which is what the cause stands for."""
    failed = 0
    for request in generate(300, seed=11):
        kept, again = _reasons(request, False), _reasons(request, True)
        assert kept == again
        failed += sum(1 for result, _ in kept if result == "fails")
    assert failed > 1000  # the phases did test reasons


def test_the_kept_reasons_hold_on_the_railroad_map():
    """The Colonial resolver (railroad, canal) records its own causes the same way."""
    variant = load("colonial")
    units = [
        {"power": "Russia", "unit": "A", "location": "Moscow"},
        {"power": "China", "unit": "A", "location": "Mongolia"},
        {"power": "China", "unit": "A", "location": "Manchuria"},
    ]
    orders = [
        {"power": "Russia", "order": "A Moscow - Vladivostok via TSR"},
        {"power": "China", "order": "A Mongolia - Irkutsk"},
        {"power": "China", "order": "A Manchuria - Vladivostok"},
    ]
    request = {"variant": variant.id, "units": units, "orders": orders}
    assert "error" not in adjudicate(request)
    assert _reasons(request, False) == _reasons(request, True)


def test_data_taken_from_the_order_is_what_reading_its_text_gives():
    """A new canonical order's data comes from the order itself, not from parsing its text
    again; over generated phases both ways agree."""
    from adjudication.orders import OrderError, order_data, parse

    checked = 0
    for request in generate(200, seed=5):
        variant = load(request["variant"])
        for reply in adjudicate(request)["orders"]:
            canonical = reply["canonical"]
            try:
                read = order_data(parse(variant, canonical, "movement"), canonical)
            except OrderError:
                assert "data" not in reply
                continue
            assert reply["data"] == read
            checked += 1
    assert checked > 5000


@pytest.mark.parametrize(
    ("units", "orders"),
    [
        # numbered fleets: the canonical text keeps the number, which the checked order lacks
        (
            [("Australia", "F", "Mid-Pacific Ocean"), ("Australia", "F", "Mid-Pacific Ocean")],
            ["F1 MPO S F2 MPO - Guam", "F2 Mid-Pacific - Guam"],
        ),
        # a support in a shared ocean: its canonical text names the supported fleet's power
        (
            [("Australia", "F", "Mid-Pacific Ocean"), ("Japan", "F", "Mid-Pacific Ocean")],
            ["F MPO S F MPO - Guam", "F MPO - Guam"],
        ),
    ],
)
def test_an_order_rewritten_by_a_rule_carries_the_data_of_its_new_text(units, orders):
    """An order whose canonical text a rule rewrites (a fleet's number kept, a power named)
    answers with the data of that text, not of the order it was rewritten from."""
    from adjudication.orders import order_data, parse

    variant = load("far-east")
    powers = [units[0][0], units[-1][0]]
    request = {
        "variant": "far-east",
        "phase": {"season": "spring", "year": 1991, "type": "movement"},
        "units": [{"power": p, "unit": u, "location": loc} for p, u, loc in units],
        "orders": [{"power": p, "order": o} for p, o in zip(powers, orders, strict=True)],
    }
    replies = adjudicate(request)["orders"]
    rewritten = [r for r in replies if r["canonical"].count(" ") > 5]
    assert rewritten, replies
    for reply in replies:
        canonical = reply["canonical"]
        assert reply["data"] == order_data(parse(variant, canonical, "movement"), canonical)


@pytest.mark.parametrize("variant_id", ["standard", "colonial", "far-east", "chinese"])
def test_no_resolver_outlives_its_phase(variant_id):
    """A resolver's decisions are its own bound methods, a cycle that kept every phase's
    resolver (and all it holds) for the garbage collector; ``release`` breaks it once the
    phase is answered, so nothing of a judged or checked phase is left for the collector."""
    import gc
    import sys

    from adjudication.movement import Movement

    here = str(__import__("pathlib").Path(__file__).parent)
    if here not in sys.path:
        sys.path.insert(0, here)
    from engine_answers import _generated

    calls = [c for c in _generated(variant_id, 4) if c["call"] in ("adjudicate", "check")]
    assert calls
    gc.collect()
    gc.disable()
    try:
        for call in calls:
            (adjudicate if call["call"] == "adjudicate" else check)(call["request"])
        left = [o for o in gc.get_objects() if issubclass(type(o), Movement)]  # no lazy proxy
    finally:
        gc.enable()
    assert left == []


def test_an_answers_units_are_shared_read_only_and_read_back():
    request = generate(1, seed=5)[0]
    first, second = adjudicate(request), adjudicate(request)
    assert first["units"] and all(type(u) is ReplyData for u in first["units"])
    held = {u["location"]: u for u in first["units"]}
    # A unit that stayed where it was is the same object in both answers.
    assert any(held.get(u["location"]) is u for u in second["units"])
    with pytest.raises(TypeError):
        first["units"][0]["location"] = "Paris"
    # An answer's units are a request's units for the next phase, as they are.
    follow = dict(request, units=first["units"], orders=[])
    assert adjudicate(follow)["units"] == first["units"]
    assert json.loads(json.dumps(first))["units"] == first["units"]
