"""Our engine against the ``diplomacy`` package 1.1.2 (bench/differential.py), and against itself.

The differential run needs a python with ``diplomacy`` installed: ``$DIPLOMACY_PYTHON`` or
/tmp/dipvenv (``$DIPLOMACY_VENV``). Without one it is skipped, except in CI (``$CI`` set), where
the venv is made here (``pip install diplomacy==1.1.2``, a few minutes at most) and the test
must run. The spelling checks need nothing outside the project and always run.
"""

from __future__ import annotations

import os
import re
from random import Random

import pytest

from adjudication import adjudicate, load
from adjudication.bench import generate
from bench import differential

CHAINS = 120  # about 330 phases of the three kinds, a few seconds
SEED = 13


@pytest.fixture(scope="module")
def diplomacy_python() -> str:
    python = differential.diplomacy_python(create=bool(os.environ.get("CI")))
    if python is None:
        if os.environ.get("CI"):
            pytest.fail("CI: could not make a venv with diplomacy==1.1.2 for the differential test")
        pytest.skip("no python with diplomacy 1.1.2 (set DIPLOMACY_PYTHON or make /tmp/dipvenv)")
    return python


def test_no_disagreement_outside_the_written_down_choices(diplomacy_python: str) -> None:
    tally, facts = differential.run(CHAINS, SEED, diplomacy_python)
    assert facts["version"] == differential.DIPLOMACY_VERSION
    assert all(tally.phases[kind] > 20 for kind in ("movement", "retreats", "adjustments"))
    report = differential.report(tally, facts, CHAINS, SEED, shown=3)
    assert not tally.disagreements, report
    known = differential.CHOICES.keys() | differential.THEIR_ERRORS.keys()
    assert {part for key in tally.choices for part in key.split(" + ")} <= known


# -- the checks themselves can fail --------------------------------------------------------------


def _bounce_in_burgundy() -> tuple[dict, dict]:
    request = {
        "variant": "standard",
        "phase": {"season": "spring", "year": 1901, "type": "movement"},
        "units": [
            {"power": "France", "unit": "A", "location": "Paris"},
            {"power": "Germany", "unit": "A", "location": "Munich"},
        ],
        "orders": [
            {"power": "France", "order": "A Paris - Burgundy"},
            {"power": "Germany", "order": "A Munich - Burgundy"},
        ],
    }
    return request, adjudicate(request)


def test_a_different_board_is_a_disagreement_no_choice_explains() -> None:
    table = {name: p.abbreviation.upper() for name, p in load("standard").provinces.items()}
    request, ours = _bounce_in_burgundy()
    theirs = {  # as if diplomacy had let France into Burgundy
        "phase": "F1901M",
        "units": ["FRANCE A BUR", "GERMANY A MUN"],
        "retreats": {},
        "centers": {},
        "results": {},
    }
    diff = differential.compare(ours, theirs, request["phase"], table)
    assert diff["units only ours"] == ["FRANCE A PAR"]
    assert diff["units only diplomacy"] == ["FRANCE A BUR"]
    assert differential.classify(load("standard"), request, ours, theirs, diff, table) is None
    same = {**theirs, "units": ["FRANCE A PAR", "GERMANY A MUN"]}
    assert differential.compare(ours, same, request["phase"], table) == {}


def test_their_notation() -> None:
    table = {name: p.abbreviation.upper() for name, p in load("standard").provinces.items()}
    table["St Petersburg/nc"] = "STP/NC"
    assert differential.their_order("Build F St Petersburg/nc", "adjustments", table) == (
        "F STP/NC B"
    )
    assert differential.their_order("Remove A Paris", "adjustments", table) == "A PAR D"
    assert differential.their_order("Waive", "adjustments", table) == "WAIVE"
    assert differential.their_order("A Paris R Burgundy", "retreats", table) == "A PAR R BUR"
    assert differential.their_order("F Brest D", "retreats", table) == "F BRE D"


# -- ours against ours: every spelling reads as the canonical order -----------------------------


def _same(spelled: dict, canonical: dict) -> None:
    a, b = adjudicate(spelled), adjudicate(canonical)
    for sent, x, y in zip(spelled["orders"], a["orders"], b["orders"], strict=True):
        assert (x["canonical"], x["result"]) == (y["canonical"], y["result"]), sent["order"]
    assert differential._same_answer(a, b)


def test_spellings_are_read_as_the_canonical_orders_in_all_three_phases() -> None:
    variant = load("standard")
    speller = differential.Speller(variant)
    rng = Random(5)
    spelled_forms = []
    for request in generate(40, seed=21):
        spelled = {**request, "orders": [dict(o) for o in request["orders"]]}
        for o in spelled["orders"]:
            o["order"] = speller.spell(rng, o["order"])
        spelled_forms += [o["order"] for o in spelled["orders"]]
        _same(spelled, request)
        response = adjudicate(request)
        if response["dislodged"]:
            retreat = {
                "variant": "standard",
                "phase": response["next_phase"],
                "units": response["units"],
                "dislodged": [
                    {k: v for k, v in d.items() if k != "retreats"} for d in response["dislodged"]
                ],
                "contested": response["contested"],
                "orders": [
                    {"power": p, "order": o}
                    for p, o in differential.retreat_orders(variant, rng, response)
                ],
            }
            _same(_spelled(speller, rng, retreat), retreat)
        units = [(u["power"], u["unit"], u["location"]) for u in response["units"]]
        state = {
            "units": response["units"],
            "supply_centers": differential.initial_centres(variant, rng, units),
        }
        adjustment = {
            "variant": "standard",
            "phase": {"season": "winter", "year": 1901, "type": "adjustments"},
            "units": state["units"],
            "supply_centers": state["supply_centers"],
            "orders": [
                {"power": p, "order": o}
                for p, o in differential.adjustment_orders(variant, rng, state)
            ],
        }
        _same(_spelled(speller, rng, adjustment), adjustment)
    # The forms that once hid a parser bug are among those tried (issue #13 item 1).
    assert any(re.search(r"\b[A-Za-z]{3}-[A-Za-z]{3}\b", t) for t in spelled_forms)
    assert any(t != t.strip() or "  " in t for t in spelled_forms)


def _spelled(speller: differential.Speller, rng: Random, request: dict) -> dict:
    out = {**request, "orders": [dict(o) for o in request["orders"]]}
    for o in out["orders"]:
        o["order"] = speller.spell(rng, o["order"])
    return out
