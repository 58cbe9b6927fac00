"""An answer as JSON text, for the batch: written into one list of pieces, joined once, its
replies and its shared parts (``ReplyData``: the units, the replies' data) from parts made once.

The same orders, results and units come back phase after phase, and encoding them again was
most of the time spent writing an answer. The text is exactly what encoding the whole answer gives
(tests/test_batch_writer.py).
"""

from __future__ import annotations

import json
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]

from ._mypyc import mypyc_attr
from .readonly import ReplyData

TYPE_CHECKING = False  # not typing's: importing typing costs start-up time
if TYPE_CHECKING:
    from typing import Final

# One encoder for every answer: ``json.dumps`` with options builds a new one per call. A
# response is a tree the engine has just built, never circular, so the check is skipped.
_encoder: Final = json.JSONEncoder(ensure_ascii=False, check_circular=False)
quote: Final = encode_basestring  # a string as that encoder writes it
# The C encoder that ``_encoder.encode`` makes afresh at every call (its arguments as that
# method passes them), made once; None where Python's json has no C part.
_chunks: Final = (
    None
    if c_make_encoder is None
    else c_make_encoder(None, _encoder.default, quote, None, ": ", ", ", False, False, True)
)


def encode(value: object) -> str:
    """``value`` as JSON text, exactly as ``_encoder.encode`` writes it."""
    if _chunks is None or isinstance(value, str):
        return _encoder.encode(value)
    return "".join(_chunks(value, 0))


# Each shared part's JSON, keyed by identity; the entry holds the part, so its id is never
# reused while the entry lives. Started afresh past _SIZE.
_made: Final[dict[int, tuple[ReplyData, str]]] = {}
_SIZE: Final = 65536
_WITH_REASON: Final = ("power", "order", "canonical", "result", "reason", "data")
_WITHOUT_REASON: Final = ("power", "order", "canonical", "result", "data")


def answer_json(response: dict) -> str:
    """``response`` as JSON text, exactly as the encoder writes it; the response is left as it
    was. Written into one list of pieces, joined once: the replies from their parts
    (``reply_parts``), the shared parts (units, replies' data) from the JSON made at their
    first sight, names from their JSON made once (``_text``), the rest by ``_write``. A value
    nested deeper than this writer goes (an error's details echo the request's own) is left to
    the encoder, which goes twice as deep as the decoder lets a request be."""
    out: list[str] = []
    try:
        _write_dict(response, out, True)
    except RecursionError:
        return encode(_unwritten(response))
    return "".join(out)


def _write_replies(replies: list, out: list[str], written: bool) -> None:
    """The replies as a JSON list: each written reply's parts (``reply_parts``; only in a
    ``Written`` list), each other reply's parts from its dict or its JSON."""
    if not replies:
        out.append("[]")
        return
    out.append("[")
    for item in replies:
        if written and type(item) is tuple:  # written as made
            out += item
        elif type(item) is dict:
            parts = _dict_parts(item)
            if parts is None:
                _write(item, out)
            else:
                out += parts
        else:
            _write(item, out)
        out.append(", ")
    out[-1] = "]"


def _write(value: object, out: list[str]) -> None:
    """``value``'s JSON appended to ``out``, as the encoder writes it: text, whole numbers,
    null and the booleans, lists and dicts of them here, the shared parts from their JSON made
    once, anything else (a float, a tuple, a reason's text, a key not text) by the encoder."""
    if type(value) is str:
        out.append(_text(value))
    elif type(value) is list:
        _write_list(value, out)
    elif type(value) is dict:
        _write_dict(value, out)
    elif type(value) is ReplyData:
        out.append(_shared_json(value))
    elif type(value) is int:
        out.append(int.__repr__(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    else:
        out.append(encode(value))


def _write_list(value: list, out: list[str]) -> None:
    if not value:
        out.append("[]")
        return
    if type(value[0]) is ReplyData:  # the units: each from its JSON made once
        jsons = _jsons(value)
        if jsons is not None:
            out += ("[", ", ".join(jsons), "]")
            return
    out.append("[")
    for item in value:
        _write(item, out)
        out.append(", ")
    out[-1] = "]"


def _write_dict(value: dict, out: list[str], answer: bool = False) -> None:
    """A dict's JSON; ``answer``: the answer itself, whose ``orders`` are its replies."""
    if not value:
        out.append("{}")
        return
    start = len(out)
    out.append("{")
    for key, item in value.items():
        if type(key) is not str:  # the encoder's own way with a number or null as a key
            del out[start:]
            out.append(encode(_unwritten(value) if answer else value))
            return
        out.append(_key(key))
        if answer and key == "orders" and (type(item) is Written or type(item) is list):
            _write_replies(item, out, type(item) is Written)
        else:
            _write(item, out)
        out.append(", ")
    out[-1] = "}"


def _key(key: str) -> str:
    """A dict's key as JSON with its colon, made once (``_keys``)."""
    quoted = _keys.get(key)
    if quoted is None:
        if len(_keys) >= _SIZE:
            _keys.clear()
        quoted = _keys[key] = quote(key) + ": "
    return quoted


def _text(value: str) -> str:
    """A text as JSON, made once for a name's length (``_values``); a longer text (an order
    a player typed, an error's words) is quoted each time rather than kept."""
    if len(value) > 64:
        return quote(value)
    quoted = _values.get(value)
    if quoted is None:
        if len(_values) >= _SIZE:
            _values.clear()
        quoted = _values[value] = quote(value)
    return quoted


def _dict_parts(item: dict) -> tuple[str, ...] | None:
    """A reply's parts (``reply_parts``) from its dict, where it has a reply's keys in their
    order; None for any other (a check's reply, ``needs``; one without data)."""
    keys = tuple(item)
    if keys == _WITHOUT_REASON:
        power, order, canonical, result, data = item.values()
        reason = None
    elif keys == _WITH_REASON:
        power, order, canonical, result, reason, data = item.values()
        if reason is None:  # its key written too, as null: not a reply's parts
            return None
    else:
        return None
    if type(result) is not str:
        return None
    return reply_parts(power, order, canonical, result, reason, data)


def _unwritten(response: dict) -> dict:
    """The response to encode whole: replies already written (``Written``) read back as the
    dicts they were written from, which encode to the same text. Only where the writer leaves
    the whole answer to the encoder: a top-level key that is not text, or a value nested
    deeper than the writer goes."""
    replies = response.get("orders")
    if type(replies) is not Written:
        return response
    return {
        **response,
        "orders": [json.loads("".join(r)) if type(r) is tuple else r for r in replies],
    }


@mypyc_attr(native_class=False)  # a list: mypyc makes no native class of one
class Written(list):
    """A movement phase's replies as the batch has them made (``api.adjudicate_to_write``):
    each one's JSON in parts (``reply_parts``), or its dict where it was not written. Only the
    engine makes one, so a request's own values in a plain list are never taken for JSON."""


def reply_parts(
    power: object, order: object, canonical: object, result: str, reason: object, data: object
) -> tuple[str, str, str, str, str, str] | None:
    """A movement reply's JSON as it is made, for the batch (``api.adjudicate_to_write``): its
    parts, each made once and then looked up (its power's opening, its order text, its
    canonical text, its result and reason, its data), to be joined with all the others' at
    once. The reply is never built as a dict only to be taken apart again, nor written as a
    text of its own. None for anything but text and shared data: the caller makes its dict."""
    # A reason is text of its own kind (``reasons.Reason``), written as its words.
    if (
        type(data) is not ReplyData
        or type(power) is not str
        or type(order) is not str
        or type(canonical) is not str
        or not (reason is None or isinstance(reason, str))
    ):
        return None
    head = _heads.get(power)
    if head is None:
        if len(_heads) >= _SIZE:
            _heads.clear()
        head = _heads[power] = '{"power": ' + quote(power) + ', "order": '
    quoted = _orders.get(order)
    if quoted is None:
        if len(_orders) >= _SIZE:
            _orders.clear()
        quoted = _orders[order] = quote(order)
    middle = _canonicals.get(canonical)
    if middle is None:
        if len(_canonicals) >= _SIZE:
            _canonicals.clear()
        middle = _canonicals[canonical] = ', "canonical": ' + quote(canonical) + ', "result": '
    outcome = _results.get(result) if reason is None else _reasoned.get(reason)
    if outcome is None or outcome[0] != result:
        outcome = _outcome(result, reason)
    return (head, quoted, middle, outcome[1], _shared_json(data), "}")


def _outcome(result: str, reason: str | None) -> tuple[str, str]:
    """A reply's result and reason as JSON up to its data, kept by its reason (by its result
    where it has none)."""
    text = quote(result)
    if reason is not None:
        text += ', "reason": ' + quote(reason)
    outcome = (result, text + ', "data": ')
    if reason is None:
        _results[result] = outcome
    else:
        if len(_reasoned) >= _SIZE:
            _reasoned.clear()
        _reasoned[reason] = outcome
    return outcome


# The parts of replies made once (``reply_parts``): each power's opening, each order text
# quoted, each canonical text, each result without a reason and each reason with its result.
# Apart, not joined: an order's text comes from a different power from one phase to the next.
# Started afresh past _SIZE.
_heads: Final[dict[str, str]] = {}
_orders: Final[dict[str, str]] = {}
_canonicals: Final[dict[str, str]] = {}
_results: Final[dict[str, tuple[str, str]]] = {}
_reasoned: Final[dict[str, tuple[str, str]]] = {}


def _shared_json(part: ReplyData) -> str:
    """One shared part's JSON, made at its first sight (``_made``)."""
    entry = _made.get(id(part))
    if entry is None:
        if len(_made) >= _SIZE:
            _made.clear()
        entry = _made[id(part)] = (part, _flat_json(part) or encode(part))
    return entry[1]


# Each key as JSON with its colon (``"kind": ``), and each short text as JSON (``"move"``),
# made once: an answer's names are a few (kinds, provinces, powers) in ever new combinations, and
# the encoder escaped every one of them again, about a hundred instructions a byte. Started
# afresh past _SIZE.
_keys: Final[dict[str, str]] = {}
_values: Final[dict[str, str]] = {}


def _flat_json(part: ReplyData) -> str | None:
    """A shared part's JSON as the encoder writes it, from its keys' and values' JSON (``_key``,
    ``_text``), when every key is text and every value text, a whole number or null; else None
    (encoded)."""
    out: list[str] = ["{"]
    for key, value in part.items():
        if type(key) is not str:
            return None
        if type(value) is str:
            quoted = _text(value)
        elif type(value) is int:
            quoted = int.__repr__(value)
        elif value is None:
            quoted = "null"
        else:  # a list of words, a float, a bool: left to the encoder
            return None
        out.append(_key(key))
        out.append(quoted)
        out.append(", ")
    out[-1] = "}"  # the last separator, or "{" + "}" for no pairs at all
    return "{}" if len(out) == 1 else "".join(out)


def _jsons(shared: list) -> list[str] | None:
    """The JSON of each of these shared parts; None unless every one is a ``ReplyData``. (A
    plain loop: compiled, it costs a fifth of ``list(map(...))``'s calls through Python.)"""
    out: list[str] = []
    for part in shared:
        entry = _made.get(id(part))
        if entry is not None:
            out.append(entry[1])
        elif type(part) is ReplyData:  # first sight of it
            out.append(_shared_json(part))
        else:
            return None
    return out
