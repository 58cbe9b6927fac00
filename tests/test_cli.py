"""``python -m adjudication``: one request, JSON Lines batches, the variant list, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from adjudication.__main__ import YOUNG_LIMIT

ROOT = Path(__file__).resolve().parents[1]


def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "adjudication", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def adjudicate(request: dict) -> dict:
    done = cli("adjudicate", stdin=json.dumps(request))
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    return json.loads(done.stdout)


def assert_error_object(response: dict) -> None:
    assert set(response) == {"error", "details"}, response
    assert isinstance(response["error"], str)
    message = response["error"].strip()
    assert message and "\n" not in message
    assert "Traceback" not in message
    assert isinstance(response["details"], list)


START = {
    "variant": "standard",
    "phase": {"season": "spring", "year": 1901, "type": "movement"},
    "units": [
        {"power": "Germany", "unit": "F", "location": "Kiel"},
        {"power": "Germany", "unit": "A", "location": "Munich"},
        {"power": "Germany", "unit": "A", "location": "Berlin"},
    ],
    "orders": [
        {"power": "Germany", "order": "F Kiel - Denmark"},
        {"power": "Germany", "order": "A mun - ruh"},
        {"power": "Germany", "order": "A Berlin H"},
    ],
}


def test_adjudicate_one_request():
    done = cli("adjudicate", stdin=json.dumps(START))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert len(lines) == 1
    response = json.loads(lines[0])
    assert [o["result"] for o in response["orders"]] == ["succeeds", "succeeds", "succeeds"]
    assert [o["canonical"] for o in response["orders"]] == [
        "F Kiel - Denmark",
        "A Munich - Ruhr",
        "A Berlin H",
    ]
    assert {u["location"] for u in response["units"]} == {"Denmark", "Ruhr", "Berlin"}
    assert response["next_phase"] == {"season": "fall", "year": 1901, "type": "movement"}
    assert response["winner"] is None


def test_invalid_orders_are_normal_answers():
    request = dict(START, orders=[{"power": "Germany", "order": "A Munich - Moscow"}])
    response = adjudicate(request)
    assert response["orders"][0]["result"] == "invalid"
    assert "Munich is not adjacent to Moscow" in response["orders"][0]["reason"]


def test_unicode_survives_the_round_trip():
    request = dict(START, orders=[{"power": "Germany", "order": "A München → Ruhr ✓"}])
    response = adjudicate(request)
    assert response["orders"][0]["order"] == "A München → Ruhr ✓"
    assert response["orders"][0]["result"] == "invalid"


MALFORMED = [
    pytest.param("{not json", "JSON", id="bad-json"),
    pytest.param("", "JSON", id="empty-input"),
    pytest.param("[1, 2, 3]", "object", id="not-an-object"),
    pytest.param(json.dumps({"variant": "atlantis"}), "atlantis", id="unknown-variant"),
    pytest.param(
        json.dumps(
            {"variant": "standard", "units": [{"power": "France", "unit": "A", "location": "Oz"}]}
        ),
        "Oz",
        id="unknown-province",
    ),
    pytest.param(
        json.dumps(
            {
                "variant": "standard",
                "units": [{"power": "England", "unit": "A", "location": "North Sea"}],
            }
        ),
        "North Sea",
        id="army-at-sea",
    ),
    pytest.param(
        json.dumps(
            {
                "variant": "standard",
                "units": [{"power": "France", "unit": "F", "location": "Paris"}],
            }
        ),
        "Paris",
        id="fleet-inland",
    ),
    pytest.param(
        json.dumps(
            {
                "variant": "standard",
                "units": [{"power": "France", "unit": "F", "location": "Spain"}],
            }
        ),
        "coast",
        id="fleet-without-coast",
    ),
    pytest.param(
        json.dumps(
            {
                "variant": "colonial",
                "units": [
                    {"power": "Russia", "unit": "A", "location": "Omsk"},
                    {"power": "China", "unit": "A", "location": "OMS"},
                ],
            }
        ),
        "Omsk",
        id="two-units-one-province",
    ),
    pytest.param(
        json.dumps({"variant": "standard", "units": [{"power": "Narnia", "unit": "A"}]}),
        "Narnia",
        id="unknown-power",
    ),
    # Chinese Diplomacy has no winter: its list of seasons said it had.
    pytest.param(
        json.dumps({"variant": "chinese", "phase": {"season": "spring"}}),
        "this variant has year",
        id="chinese-seasons",
    ),
    # Python reads NaN and Infinity as JSON; echoed back, the answer would not be JSON.
    pytest.param('{"variant": "standard", "units": [{"power": NaN}]}', "NaN", id="nan"),
    pytest.param('{"variant": "standard", "year": -Infinity}', "Infinity", id="infinity"),
    # Options are checked as a server checks them: true is no number of centres.
    pytest.param(
        json.dumps({"variant": "colonial", "options": {"victory_centers": True}}),
        "victory_centers: must be a whole number",
        id="option-of-the-wrong-type",
    ),
    pytest.param(
        json.dumps({"variant": "colonial", "options": {"tsr_captured_centres_cut": 0}}),
        "must be true or false",
        id="option-0-for-false",
    ),
]


@pytest.mark.parametrize(("stdin", "mentions"), MALFORMED)
def test_malformed_request_exits_2(stdin, mentions):
    done = cli("adjudicate", stdin=stdin)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1
    response = json.loads(lines[0])
    assert_error_object(response)
    assert mentions in response["error"]


def test_error_details_name_the_offending_units():
    request = {
        "variant": "standard",
        "units": [
            {"power": "France", "unit": "A", "location": "Paris"},
            {"power": "Germany", "unit": "A", "location": "par"},
        ],
    }
    done = cli("adjudicate", stdin=json.dumps(request))
    assert done.returncode == 2
    response = json.loads(done.stdout)
    assert_error_object(response)
    assert {d["power"] for d in response["details"]} == {"France", "Germany"}


def test_batch_answers_every_line_in_order():
    good_1 = START
    bad = {"variant": "standard", "units": [{"power": "England", "unit": "A", "location": "NTH"}]}
    good_2 = {
        "variant": "colonial",
        "units": [{"power": "Russia", "unit": "A", "location": "Moscow"}],
        "orders": [{"power": "Russia", "order": "A Moscow - Perm"}],
    }
    lines = [
        json.dumps(good_1),
        "{this is not json",
        json.dumps(bad),
        "",
        json.dumps(good_2),
    ]
    done = cli("adjudicate", "--batch", stdin="\n".join(lines) + "\n")
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(out) == 4  # the blank line is skipped
    assert [o["result"] for o in out[0]["orders"]] == ["succeeds", "succeeds", "succeeds"]
    assert_error_object(out[1])
    assert "JSON" in out[1]["error"]
    assert_error_object(out[2])
    assert "North Sea" in out[2]["error"]
    assert out[3]["units"] == [{"power": "Russia", "unit": "A", "location": "Perm"}]


def test_a_lone_surrogate_echoed_in_an_answer_is_refused_and_the_batch_goes_on():
    """``\\ud800`` is valid JSON but no Unicode text: echoed in an error, its answer cannot be
    written in UTF-8, so the answer says what is wrong and the next line is answered."""
    unit = '{"power": "\\ud800", "unit": "A", "location": "Paris"}'
    lone = f'{{"variant": "standard", "units": [{unit}]}}'
    done = cli("adjudicate", "--batch", stdin=f"{lone}\n{json.dumps(START)}\n")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(out) == 2
    assert_error_object(out[0])
    assert "lone surrogate" in out[0]["error"]
    assert len(out[1]["orders"]) == len(START["orders"])
    one = cli("adjudicate", stdin=lone)
    assert one.returncode == 2 and "Traceback" not in one.stderr, one.stderr
    assert "lone surrogate" in json.loads(one.stdout)["error"]


def test_batch_of_good_requests_exits_0():
    lines = [json.dumps(START), json.dumps(dict(START, orders=[]))]
    done = cli("adjudicate", "--batch", stdin="\n".join(lines))
    assert done.returncode == 0, done.stderr
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(out) == 2
    assert {u["location"] for u in out[0]["units"]} == {"Denmark", "Ruhr", "Berlin"}
    assert {u["location"] for u in out[1]["units"]} == {"Kiel", "Munich", "Berlin"}


def test_variants_lists_one_id_per_line():
    done = cli("variants")
    assert done.returncode == 0
    assert done.stderr == ""
    ids = done.stdout.splitlines()
    assert "standard" in ids
    assert "colonial" in ids
    assert all(i and i == i.strip() and " " not in i for i in ids)
    assert len(ids) == len(set(ids))


def test_no_command_is_a_usage_error():
    done = cli()
    assert done.returncode == 2
    assert "usage" in done.stderr.lower()
    assert "Traceback" not in done.stderr


# -- a full game year through the command line ------------------------------------------------

STANDARD_UNITS = [
    ("Austria", "A", "Vienna"),
    ("Austria", "A", "Budapest"),
    ("Austria", "F", "Trieste"),
    ("England", "F", "London"),
    ("England", "F", "Edinburgh"),
    ("England", "A", "Liverpool"),
    ("France", "F", "Brest"),
    ("France", "A", "Paris"),
    ("France", "A", "Marseilles"),
    ("Germany", "F", "Kiel"),
    ("Germany", "A", "Berlin"),
    ("Germany", "A", "Munich"),
    ("Italy", "F", "Naples"),
    ("Italy", "A", "Rome"),
    ("Italy", "A", "Venice"),
    ("Russia", "A", "Warsaw"),
    ("Russia", "A", "Moscow"),
    ("Russia", "F", "Sevastopol"),
    ("Russia", "F", "St Petersburg/sc"),
    ("Turkey", "F", "Ankara"),
    ("Turkey", "A", "Constantinople"),
    ("Turkey", "A", "Smyrna"),
]

HOME = {
    "Austria": ["Budapest", "Trieste", "Vienna"],
    "England": ["Edinburgh", "Liverpool", "London"],
    "France": ["Brest", "Marseilles", "Paris"],
    "Germany": ["Berlin", "Kiel", "Munich"],
    "Italy": ["Naples", "Rome", "Venice"],
    "Russia": ["Moscow", "Sevastopol", "St Petersburg", "Warsaw"],
    "Turkey": ["Ankara", "Constantinople", "Smyrna"],
}


def test_a_full_year_following_next_phase():
    request = {
        "variant": "standard",
        "phase": {"season": "spring", "year": 1901, "type": "movement"},
        "units": [{"power": p, "unit": k, "location": loc} for p, k, loc in STANDARD_UNITS],
        "orders": [
            {"power": "Germany", "order": "F Kiel - Denmark"},
            {"power": "Germany", "order": "A Munich - Ruhr"},
            {"power": "Russia", "order": "A Warsaw - Galicia"},
            {"power": "Austria", "order": "A Vienna - Galicia"},  # standoff: no retreats
            {"power": "Turkey", "order": "A Constantinople - Bulgaria"},
            {"power": "Italy", "order": "A Venice - Piedmont"},
        ],
    }
    spring = adjudicate(request)
    assert [o["result"] for o in spring["orders"]] == [
        "succeeds",
        "succeeds",
        "fails",
        "fails",
        "succeeds",
        "succeeds",
    ]
    assert spring["contested"] == ["Galicia"]
    assert spring["dislodged"] == []
    # No retreat phase: the standoff dislodged nobody.
    assert spring["next_phase"] == {"season": "fall", "year": 1901, "type": "movement"}
    assert spring["supply_centers"] == HOME  # nothing changes in spring

    fall_request = {
        "variant": "standard",
        "phase": spring["next_phase"],
        "units": spring["units"],
        "supply_centers": spring["supply_centers"],
        "orders": [
            {"power": "Germany", "order": "A Ruhr - Holland"},
            {"power": "Germany", "order": "F Denmark H"},
            {"power": "Turkey", "order": "A Bulgaria H"},
            {"power": "Russia", "order": "A Warsaw - Galicia"},
        ],
    }
    fall = adjudicate(fall_request)
    assert [o["result"] for o in fall["orders"]] == ["succeeds", "succeeds", "succeeds", "succeeds"]
    assert fall["dislodged"] == []
    assert fall["next_phase"] == {"season": "winter", "year": 1901, "type": "adjustments"}
    expected = {p: list(v) for p, v in HOME.items()}
    expected["Germany"] = sorted([*HOME["Germany"], "Denmark", "Holland"])
    expected["Turkey"] = sorted([*HOME["Turkey"], "Bulgaria"])
    assert fall["supply_centers"] == expected
    assert fall["winner"] is None

    winter_request = {
        "variant": "standard",
        "phase": fall["next_phase"],
        "units": fall["units"],
        "supply_centers": fall["supply_centers"],
        "orders": [
            {"power": "Germany", "order": "Build A Munich"},
            {"power": "Germany", "order": "Build F Kiel"},
            {"power": "Turkey", "order": "Waive"},
        ],
    }
    winter = adjudicate(winter_request)
    assert [o["result"] for o in winter["orders"]] == ["succeeds", "succeeds", "succeeds"]
    assert [o["canonical"] for o in winter["orders"]] == ["Build A Munich", "Build F Kiel", "Waive"]
    assert winter["next_phase"] == {"season": "spring", "year": 1902, "type": "movement"}
    assert winter["supply_centers"] == expected
    assert winter["civil_disorder"] == []
    german = sorted(u["location"] for u in winter["units"] if u["power"] == "Germany")
    assert german == ["Berlin", "Denmark", "Holland", "Kiel", "Munich"]
    assert len(winter["units"]) == 24


def test_batch_answers_each_line_before_the_next_is_sent():
    """Fed a line at a time through pipes, as a program driving the engine feeds it, with
    Python's default buffering (no PYTHONUNBUFFERED)."""
    import os
    import select

    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    with subprocess.Popen(
        [sys.executable, "-m", "adjudication", "adjudicate", "--batch"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=ROOT,
        env=env,
    ) as engine:
        try:
            for _ in range(2):
                engine.stdin.write(json.dumps(START).encode() + b"\n")
                engine.stdin.flush()
                ready, _, _ = select.select([engine.stdout], [], [], 30)
                assert ready, "no answer while the batch waits for more input"
                answer = json.loads(engine.stdout.readline())
                assert [o["result"] for o in answer["orders"]] == ["succeeds"] * 3
        finally:
            engine.stdin.close()
            engine.wait(timeout=30)


def test_batch_reads_lines_longer_than_one_read_crlf_and_no_last_newline():
    long = dict(START, note="x" * 200_000)  # an unknown key, ignored: three reads' worth
    stdin = json.dumps(long) + "\r\n" + json.dumps(START) + "\n\n" + json.dumps(long)
    done = cli("adjudicate", "--batch", stdin=stdin)
    assert done.returncode == 0, done.stderr
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(out) == 3
    assert out[0] == out[1] == out[2] == adjudicate(START)


# Runs the batch with the collector's passes recorded from its first answer on: each pass's
# generation and what it freed. With ``cycles`` set, every answer leaves that many lists in
# reference cycles behind, as an unusual request might.
_COLLECTIONS = """
import gc, json, sys
import adjudication.__main__ as cli
cycles, cli.FULL_EVERY = int(sys.argv[1]), int(sys.argv[2])
passes = None
def settle():
    global passes
    passes = []
    settle_memory()
settle_memory, cli._settle_memory = cli._settle_memory, settle
answer = cli._answer
def leaving_cycles(line):
    for _ in range(cycles):
        loop = []
        loop.append(loop)
    return answer(line)
cli._answer = leaving_cycles
def record(phase, info):
    if passes is not None and phase == "stop":
        passes.append([info["generation"], info["collected"]])
gc.callbacks.append(record)
code = cli.main(["adjudicate", "--batch"])
young = gc.get_count()[0]
automatic = gc.isenabled()
gc.callbacks.remove(record)
escaped = gc.collect()  # what the young passes left for a full one
report = {"passes": passes, "automatic": automatic, "young": young, "escaped": escaped}
print(json.dumps(report), file=sys.stderr)
sys.exit(code)
"""


def _collections(stdin: str, cycles: int = 0, full_every: int = 65536, status: int = 0) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", _COLLECTIONS, str(cycles), str(full_every)],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert done.returncode == status, done.stderr  # 2: a request was malformed
    assert len(done.stdout.splitlines()) == stdin.count("\n")
    return json.loads(done.stderr.strip().splitlines()[-1])


def test_batch_collects_garbage_itself_between_answers_only_when_it_builds_up():
    """The collector's automatic passes came in the middle of phases and looked through every
    phase's objects, which hold no cycles: the batch turns them off. A batch that leaves nothing
    behind is never collected; one that leaves cycles has them freed between answers, a little
    at a time, and never holds more than a pass's worth."""
    stdin = (json.dumps(START) + "\n") * 300 + "{}\n" * 300
    quiet = _collections(stdin, status=2)
    assert quiet["automatic"] is False
    assert quiet["passes"] == []

    leaky = _collections(stdin, cycles=20, status=2)
    assert leaky["automatic"] is False
    passes = leaky["passes"]
    # 599 answers after the first leave 20 lists each: a young pass every dozen answers or so,
    # each freeing what the answers since the last one left.
    left, limit = 599 * 20, YOUNG_LIMIT
    assert {generation for generation, _ in passes} == {0}
    assert left // (2 * limit) <= len(passes) <= left // limit
    assert sum(collected for _, collected in passes) >= left - 2 * limit
    assert leaky["young"] < limit + 20


def test_the_engines_answers_leave_no_cycle_past_a_young_pass():
    """The batch's young passes leave what survives them to the full pass, every 16,384 answers:
    so no answer may leave a cycle that outlives it. Every request of the compiled engine's test
    calls (the DATC cases, generated, garbled and played phases on every variant, malformed
    requests) goes through the batch; a full collection afterwards finds nothing to free."""
    try:
        from tests import engine_answers
    except ImportError:  # run from tests/ itself
        import engine_answers  # type: ignore[no-redef]

    requests = [c["request"] for c in engine_answers.calls() if c["call"] == "adjudicate"]
    assert len(requests) > 1000
    report = _collections("".join(json.dumps(r) + "\n" for r in requests), status=2)
    assert report["automatic"] is False
    assert len(report["passes"]) > 10  # the caches fill: passes come
    assert report["escaped"] == 0


def test_batch_collects_everything_now_and_then():
    stdin = (json.dumps(START) + "\n") * 100
    report = _collections(stdin, full_every=64)
    assert [generation for generation, _ in report["passes"]] == [2]


@pytest.mark.parametrize("batch", [False, True])
def test_an_echoed_unicode_line_break_is_escaped_so_each_answer_stays_one_line(batch):
    # JSON lets U+2028, U+2029 and U+0085 stand raw in a string, but Python's str.splitlines
    # (and many log tools) end a line there: a stranger reading the batch's answers line by
    # line would get pieces that are not JSON. Escaped, they mean the same to a JSON reader.
    texts = ["A Moscow\u2028H", "A Moscow\u2029H", "A Moscow\x85H", "A mos H \\u2028"]
    requests = [{**START, "orders": [{"power": "Germany", "order": text}]} for text in texts]
    if batch:
        done = cli("adjudicate", "--batch", stdin="".join(json.dumps(r) + "\n" for r in requests))
        lines = done.stdout.splitlines()
        assert len(lines) == len(requests), lines
    else:
        lines = []
        for request in requests:
            done = cli("adjudicate", stdin=json.dumps(request))
            assert len(done.stdout.splitlines()) == 1, done.stdout
            lines.append(done.stdout.strip())
    assert done.returncode == 0, done.stderr
    for text, line in zip(texts, lines, strict=True):
        assert json.loads(line)["orders"][0]["order"] == text


def test_a_retreat_request_needs_via_convoy_to_retreat_where_a_convoyed_attacker_came_from():
    # DATC 6.H.11, chained as a stranger does: the movement answer's dislodged entry, sent back.
    move = adjudicate(
        {
            "variant": "standard",
            "phase": {"season": "spring", "year": 1901, "type": "movement"},
            "units": [
                {"power": "France", "unit": "A", "location": "Gascony"},
                {"power": "France", "unit": "A", "location": "Burgundy"},
                {"power": "France", "unit": "F", "location": "Mid-Atlantic Ocean"},
                {"power": "France", "unit": "F", "location": "Western Mediterranean"},
                {"power": "France", "unit": "F", "location": "Gulf of Lyon"},
                {"power": "Italy", "unit": "A", "location": "Marseilles"},
            ],
            "orders": [
                {"power": "France", "order": "A gas - mar via Convoy"},
                {"power": "France", "order": "A bur S A gas - mar"},
                {"power": "France", "order": "F mao C A gas - mar"},
                {"power": "France", "order": "F wes C A gas - mar"},
                {"power": "France", "order": "F lyo C A gas - mar"},
            ],
        }
    )
    (dislodged,) = move["dislodged"]
    assert dislodged["via_convoy"] is True
    assert "Gascony" in dislodged["retreats"]
    retreat = {
        "variant": "standard",
        "phase": move["next_phase"],
        "units": move["units"],
        "orders": [{"power": "Italy", "order": "A mar R gas"}],
    }
    sent_back = adjudicate({**retreat, "dislodged": move["dislodged"]})
    assert sent_back["orders"][0]["result"] == "succeeds"
    contract_fields = {k: dislodged[k] for k in ("power", "unit", "location", "attacker_from")}
    without = adjudicate({**retreat, "dislodged": [contract_fields]})
    assert without["orders"][0]["result"] == "invalid"
