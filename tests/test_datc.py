"""Run the DATC cases against the rules engine, through ``adjudication.adjudicate`` only.

The cases come from tests/datc.py (teddriggs DATC 3.0 and godip DATC 2.4 transcriptions).
A case we deliberately judge differently from its source goes in DEVIATIONS with the reason;
it is then expected to fail (strict xfail), so a fix or a regression shows up either way.
"""

from __future__ import annotations

import json

import pytest

try:
    from tests import datc
except ImportError:  # tests/ is not importable as a package: pytest put tests/ on sys.path
    import datc

# case id -> why our engine deliberately disagrees with the source's expectation.
DEVIATIONS: dict[str, str] = {
    "teddriggs:6.G.19": (
        "an army ordered to an adjacent province is convoyed when a fleet of its own power "
        "convoys it; DATC 3.0 makes an 'unnecessary' own convoy not count, which no other "
        "case needs (the transcription marks this case ignored for the same reason)"
    ),
    "teddriggs:6.J.9-2": (
        "the transcription expects F Skagerrak removed, but it is two moves from St Petersburg "
        "(via Norway) while A Albania is three from Sevastopol; godip's 6.J.9 part 2 removes "
        "the farther unit, as we do"
    ),
    "godip:6.G.8": (
        "DATC 2.4 moves the army over land when its explicit convoy is missing; the 2023 rules "
        "(teddriggs 6.G.8) keep it in place, as we do"
    ),
    "godip:6.G.11": (
        "DATC 2.4 applies the Szykman rule to an intended convoy to an adjacent province; the "
        "2023 rules (teddriggs 6.G.11) let the army move over land instead, as we do"
    ),
}

CASES = datc.teddriggs_cases() + datc.godip_cases()

ORDER_WORDS = {"A", "F", "H", "S", "C", "R", "D", "-", "via", "Convoy", "Build", "Remove", "Waive"}


def _params() -> list:
    params = []
    for case in CASES:
        marks = []
        if case.id in DEVIATIONS:
            marks.append(pytest.mark.xfail(strict=True, reason=DEVIATIONS[case.id]))
        params.append(pytest.param(case, id=case.id, marks=marks))
    return params


def _order_met(expected: str, result: str | None) -> bool:
    """ "Succeeds" needs success; "Fails" accepts an invalid order too (the unit holds)."""
    if expected == "Succeeds":
        return result == "succeeds"
    return result in ("fails", "invalid")


def _set_problems(label: str, expected, got) -> list[str]:
    want, have = datc.canonical_units(expected), datc.canonical_units(got)
    if want == have:
        return []
    return [
        f"{label}: missing {sorted(want - have)}, unexpected {sorted(have - want)}",
    ]


def check_step(step: datc.Step, request: dict, response: dict) -> list[str]:
    """Every way the response misses the step's expectations, one line each."""
    if "error" in response:
        return [f"request rejected: {response['error']} {response.get('details', '')}"]
    problems = []
    sent, answered = request["orders"], response.get("orders", [])
    if len(answered) != len(sent):
        problems.append(f"sent {len(sent)} orders, got {len(answered)} back")
    for index, expected in enumerate(step.expect):
        if expected is None:
            continue
        got = answered[index] if index < len(answered) else {}
        if not _order_met(expected, got.get("result")):
            problems.append(
                f"{sent[index]['power']}: {sent[index]['order']!r}: expected {expected}, "
                f"got {got.get('result')} ({got.get('reason', '')})"
            )
    if step.units is not None:
        problems += _set_problems("units", step.units, response.get("units"))
    if step.dislodged is not None:
        problems += _set_problems("dislodged", step.dislodged, response.get("dislodged"))
    if step.civil_disorder is not None:
        problems += _set_problems(
            "civil disorder", step.civil_disorder, response.get("civil_disorder")
        )
    return problems


def _report(case: datc.Case, number: int, request: dict, response: dict, problems) -> str:
    lines = [
        f"{case.id} ({case.title}), step {number} of {len(case.steps)}, phase {request['phase']}:",
        *(f"  {problem}" for problem in problems),
        "request:",
        json.dumps(request, indent=1),
        "response:",
        json.dumps(response, indent=1),
    ]
    return "\n".join(lines)


@pytest.mark.parametrize("case", _params())
def test_datc(case: datc.Case) -> None:
    import adjudication  # imported here so the loader tests below run without the engine

    previous = None
    for number, step in enumerate(case.steps, start=1):
        request = step.build_request(previous)
        response = adjudication.adjudicate(request)
        problems = check_step(step, request, response)
        if problems:
            pytest.fail(_report(case, number, request, response, problems), pytrace=False)
        previous = response


def test_loaders_yield_all_cases() -> None:
    teddriggs = [c for c in CASES if c.id.startswith("teddriggs:")]
    godip = [c for c in CASES if c.id.startswith("godip:")]
    assert len(teddriggs) >= 160
    assert len(godip) >= 160
    assert len({c.id for c in CASES}) == len(CASES)
    assert all(case.steps for case in CASES)


def test_deviations_name_cases() -> None:
    assert set(DEVIATIONS) <= {c.id for c in CASES}


def test_orders_name_known_provinces() -> None:
    unknown = []
    for case in CASES:
        for step in case.steps:
            request = step.request
            places = [u["location"] for u in request.get("units", [])]
            places += [d["location"] for d in request.get("dislodged", [])]
            places += request.get("contested", [])
            places += [c for centers in request.get("supply_centers", {}).values() for c in centers]
            for order in request["orders"]:
                places += [w for w in order["order"].split() if w not in ORDER_WORDS]
            unknown += [(case.id, p) for p in places if not datc.known_province(p)]
    assert not unknown


def test_centers_match_variant() -> None:
    """The loader's built-in home and supply centres are those of variants/standard."""
    variant = json.loads(datc.VARIANT_FILE.read_text(encoding="utf-8"))
    by_name = {p["name"]: p["abbreviation"].lower() for p in variant["provinces"]}
    centers = {by_name[p["name"]] for p in variant["provinces"] if p["supply_center"]}
    homes = {p["name"]: sorted(by_name[c] for c in p["home_centers"]) for p in variant["powers"]}
    assert centers == datc.SUPPLY_CENTERS
    assert homes == {power: sorted(c) for power, c in datc.HOME_CENTERS.items()}


def test_order_notation() -> None:
    """Both sources' notations come out in the contract's notation."""
    samples = {
        ("A lvp -> edi", "movement"): "A lvp - edi",
        ("A gas -> mar via convoy", "movement"): "A gas - mar via Convoy",
        ("F nth convoys yor -> yor", "movement"): "F nth C A yor - yor",
        ("A lvp Supports A yor -> yor", "movement"): "A lvp S A yor - yor",
        ("F tri supports F tri", "movement"): "F tri S F tri",
        ("F kie hold", "movement"): "F kie H",
        ("F spa(nc) -> lyo", "movement"): "F spa/nc - lyo",
        ("F nth-pic", "movement"): "F nth - pic",
        ("F gol supports f wes-spa/sc", "movement"): "F lyo S F wes - spa/sc",
        ("A hol -> bel", "retreats"): "A hol R bel",
        ("A hol disband", "retreats"): "A hol D",
        ("F stp(nc) build", "adjustments"): "Build F stp/nc",
        ("A pic disband", "adjustments"): "Remove A pic",
        ("Remove par", "adjustments"): "Remove A par",
        ("Waive", "adjustments"): "Waive",
    }
    for (text, phase_type), wanted in samples.items():
        assert datc.write_order(datc.parse_order(text), phase_type, {}) == wanted, text
    assert datc.canonical_location("spa(nc)") == "Spain/nc"
    assert datc.canonical_location("Spain (North Coast)") == "Spain/nc"
    assert datc.canonical_location("stp/sc") == "St Petersburg/sc"
    assert datc.canonical_location("gol") == "Gulf of Lyon"
