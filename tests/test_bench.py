"""The benchmark's phase generator: fixed by its seed, full boards, legal and varied orders.

Timing is not tested here; only that the bench always times the same, realistic work.
"""

from collections import Counter

import pytest

from adjudication import adjudicate, load
from adjudication.bench import UNITS_PER_PHASE, generate, order_kind, order_mix
from adjudication.orders import parse
from adjudication.variant import province_of

COUNT = 30


@pytest.fixture(scope="module")
def requests() -> list[dict]:
    return generate(COUNT, seed=7)


def test_same_seed_gives_identical_requests(requests: list[dict]) -> None:
    assert generate(COUNT, seed=7) == requests


def test_different_seed_gives_different_requests(requests: list[dict]) -> None:
    assert generate(COUNT, seed=8) != requests


def test_every_phase_is_a_full_board_with_one_order_per_unit(requests: list[dict]) -> None:
    variant = load("standard")
    assert len(requests) == COUNT
    for request in requests:
        units = request["units"]
        assert len(units) == UNITS_PER_PHASE
        provinces = [province_of(u["location"]) for u in units]
        assert len(set(provinces)) == UNITS_PER_PHASE
        assert {u["power"] for u in units} == set(variant.powers)
        for u in units:
            assert variant.can_stand(u["unit"], u["location"]), u
        ordered = Counter(
            province_of(parse(variant, o["order"]).location) for o in request["orders"]
        )
        assert len(request["orders"]) == UNITS_PER_PHASE
        assert set(ordered) == set(provinces)
        assert set(ordered.values()) == {1}


def test_few_orders_are_invalid(requests: list[dict]) -> None:
    results: Counter = Counter()
    for request in requests:
        response = adjudicate(request)
        assert "error" not in response, response
        results.update(o["result"] for o in response["orders"])
    assert results["invalid"] < 0.05 * COUNT * UNITS_PER_PHASE, results
    assert results["succeeds"] and results["fails"]


def test_mix_has_moves_supports_convoys_and_holds(requests: list[dict]) -> None:
    mix = order_mix(requests)
    total = COUNT * UNITS_PER_PHASE
    assert mix["move"] + mix["support"] + mix["convoy"] + mix["hold"] == total
    assert 0.35 < mix["move"] / total < 0.55
    assert 0.2 < mix["support"] / total < 0.4
    assert 0.02 < mix["convoy"] / total < 0.12
    assert mix["hold"] > 0
    assert mix["convoyed move"] > 0


def test_order_kind_reads_the_notation() -> None:
    assert order_kind("A Munich - Burgundy") == "move"
    assert order_kind("A London - Belgium via Convoy") == "move"
    assert order_kind("F North Sea C A London - Belgium") == "convoy"
    assert order_kind("A Ruhr S A Munich - Burgundy") == "support"
    assert order_kind("F English Channel S F London") == "support"
    assert order_kind("A Paris H") == "hold"
