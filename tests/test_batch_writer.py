"""The batch writes each answer's shared parts (replies' data, units) from JSON made once and
spliced into the rest; the text must be exactly what encoding the whole answer gives, whatever
the request's own text holds."""

from __future__ import annotations

import json

import pytest

from adjudication import adjudicate, available
from adjudication.answer_json import answer_json
from adjudication.bench import generate

_plain = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode
# The number the writer once put in place of each part it wrote itself, to split the rest's
# JSON at: a request that carries it must still get its own text back.
_MARK = -7346029158
_MARK_TEXT = str(_MARK)


def _same_text(response: dict) -> None:
    expected = _plain(response)
    assert answer_json(response) == expected
    assert answer_json(response) == expected  # again, from the JSON already made
    assert _plain(response) == expected  # the answer itself is left as it was


def test_generated_phases_are_written_exactly_as_encoded_whole():
    for request in generate(60, seed=11):
        _same_text(adjudicate(request))


@pytest.mark.parametrize("variant_id", sorted(available()))
def test_every_variants_first_phase_is_written_exactly(variant_id):
    from adjudication import load

    units = [dict(u) for u in load(variant_id).starting_units]
    orders = [{"power": u["power"], "order": f"{u['unit']} {u['location']} H"} for u in units]
    _same_text(adjudicate({"variant": variant_id, "units": units, "orders": orders}))


@pytest.mark.parametrize(
    "text",
    [
        f"A Paris {_MARK}",  # the mark itself, inside a string
        f'A Paris "data": {_MARK}',
        "A Paris - Burgundy",
        "A Paris \u2192 Burgundy \u00e9\u4e2d",
    ],
)
def test_a_request_that_writes_the_mark_gets_the_same_text(text):
    request = {
        "variant": "standard",
        "units": [{"power": "France", "unit": "A", "location": "Paris"}],
        "orders": [
            {"power": "France", "order": text},
            {"power": "France", "order": "A Paris H"},
        ],
    }
    _same_text(adjudicate(request))


def test_checks_errors_and_odd_answers_are_written_exactly():
    request = generate(1, seed=2)[0]
    _same_text(adjudicate(dict(request, mode="check")))
    _same_text(adjudicate({"variant": "nowhere"}))
    for odd in ({}, {"orders": None}, {"orders": [1, "x"]}, {"units": [], "orders": []}):
        _same_text(odd)


@pytest.mark.parametrize(
    "value",
    [
        {"a": [1, 2.5, -0.0, None, True, False, "x"], "b": {"c": 'é\u2028"\\\n', "d": []}},
        {"nested": [[[]], [{}], {"k": [{"j": (1, "two")}]}], "n": 10**30, "s": "x" * 200},
        {3: "a number as a key", "b": 1},
        {"inner": {None: 1, True: 2, 2.5: 3}},
        {"nan": float("nan"), "inf": [float("inf")]},
        {"": "", "\x00": "\x1f\x7f\ud7ff\U0001f600"},
    ],
)
def test_any_answer_is_written_as_the_encoder_writes_it(value):
    from adjudication.readonly import ReplyData
    from adjudication.reasons import why

    _same_text(value)
    _same_text({"orders": [], "units": [ReplyData({"power": "France"})], "more": value})
    _same_text({"orders": [{"power": "France", "order": why("a reason")}], "x": [why("w")]})


def test_shared_parts_are_written_as_the_encoder_writes_them():
    from adjudication.answer_json import _flat_json
    from adjudication.readonly import ReplyData

    for flat in ({}, {"a": "b"}, {"a": 'é"\\\n\u2028\x00', "n": -12, "z": None}, {"k": 0}):
        assert _flat_json(ReplyData(flat)) == _plain(flat)
    for odd in ({"a": True}, {"a": 1.5}, {"a": ["x"]}, {1: "x"}, {"a": {"b": "c"}}):
        assert _flat_json(ReplyData(odd)) is None  # left to the encoder


def _written_alike(request: dict) -> dict:
    """The batch's answer (replies written as they are made) is the whole answer's text."""
    from adjudication.api import adjudicate_to_write

    written = adjudicate_to_write(request)
    assert answer_json(written) == _plain(adjudicate(request))
    return written


def test_replies_written_as_made_give_the_whole_answers_text():
    """Every adjudication of the compiled engine's test calls (DATC cases, generated and garbled
    phases and a game on every variant, malformed requests)."""
    try:
        from tests import engine_answers
    except ImportError:  # tests/ is not a package: pytest put tests/ on sys.path
        import engine_answers

    judged = 0
    for call in engine_answers.calls():
        if call["call"] == "adjudicate":
            _written_alike(call["request"])
            judged += 1
    assert judged > 1000


def test_the_batch_writes_a_movement_reply_at_once_unless_a_rule_finishes_the_answer():
    standard = generate(1, seed=3)[0]
    replies = _written_alike(standard)["orders"]
    assert replies and all(type(r) is tuple for r in replies if '"invalid"' not in str(r))
    assert any('"reason": ' in "".join(r) for r in replies if type(r) is tuple)  # written too
    chinese = {"variant": "chinese", "orders": []}
    from adjudication import load

    chinese["units"] = [dict(u) for u in load("chinese").starting_units]
    assert all(type(r) is dict for r in _written_alike(chinese)["orders"])


@pytest.mark.parametrize(
    "value",
    [
        {"a": [1, 2.5, -0.0, 1e300, None, True, False], "b": {"c": 'é\u2028"\\\n'}},
        [float("nan"), float("inf"), -float("inf")],  # as the encoder writes them (allow_nan)
        "plain text",
        {3: "x", 2.5: "y", None: "z", True: "w"},  # keys the encoder turns into text
        (1, 2),
        [],
        {},
        12345678901234567890,
    ],
)
def test_the_writers_encoder_writes_as_the_json_encoder(value):
    from adjudication.answer_json import encode
    from adjudication.reasons import why

    assert encode(value) == _plain(value)
    assert encode([value, why("a reason")]) == _plain([value, "a reason"])


def test_the_writers_encoder_refuses_what_the_json_encoder_refuses():
    from adjudication.answer_json import encode

    for odd in ({"a": object()}, [{1, 2}], {(1, 2): "x"}):
        with pytest.raises(TypeError) as ours:
            encode(odd)
        with pytest.raises(TypeError) as theirs:
            _plain(odd)
        assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize("variant_id", ["standard", "far-east"])
def test_a_year_that_writes_the_mark_gets_the_same_text(variant_id):
    """The mark's number can reach the answer's own values only as a year: the answer is then
    encoded whole, its written replies read back as the objects they are."""
    from adjudication import load

    units = [dict(u) for u in load(variant_id).starting_units]
    orders = [{"power": u["power"], "order": f"{u['unit']} {u['location']} H"} for u in units]
    for year in (_MARK, _MARK * 10 - 1):
        request = {
            "variant": variant_id,
            "phase": {"season": load(variant_id).seasons[0], "year": year, "type": "movement"},
            "units": units,
            "orders": orders,
        }
        assert _MARK_TEXT in _plain(adjudicate(request))
        _written_alike(request)


def test_a_deeply_nested_value_in_an_error_is_written_as_the_encoder_writes_it():
    """An error's details echo the request's own values; nested deeper than the writer goes
    (two calls a level, pure Python), the answer is left to the encoder, never lost."""
    from adjudication.api import adjudicate_to_write

    deep: object = "x"
    for _ in range(700):
        deep = [deep]
    request = {"variant": "standard", "units": [{"power": deep, "unit": "A", "location": "Paris"}]}
    answer = adjudicate_to_write(request)
    assert "error" in answer
    assert answer_json(answer) == _plain(answer)


def test_tuples_and_null_reasons_in_a_plain_list_of_replies_are_written_as_encoded():
    from adjudication.readonly import ReplyData

    _same_text({"orders": [("a", "b"), (1, None)]})
    reply = {"power": "France", "order": "A Paris H", "canonical": "A Paris H"}
    reply |= {"result": "succeeds", "reason": None, "data": ReplyData({"kind": "hold"})}
    _same_text({"orders": [reply]})
