"""An answer as JSON text, for the batch: its replies and its shared parts (``ReplyData``: the
units) written from JSON made once and spliced into the rest.

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
# Stands for each shared part while the rest is encoded. A request's own text or number (a
# year) cannot slip another one in unnoticed: the marks are counted, and if any other is found
# the answer is encoded whole (``_unwritten``).
_MARK: Final = -7346029158
_MARK_TEXT: Final = str(_MARK)
_WITH_REASON: Final = ("power", "order", "canonical", "result", "reason", "data")
_WITHOUT_REASON: Final = ("power", "order", "canonical", "result", "data")


def answer_json(response: dict) -> str:
    """``response`` as JSON text; the response is left as it was."""
    pieces: list[str] = []  # the JSON of each part replaced by a mark, in the answer's order
    replaced: list[tuple[str, object]] = []
    replies = response.get("orders")
    # The replies come first in an answer (``api._judge``), so theirs is the first mark.
    if next(iter(response), None) == "orders" and (
        type(replies) is list or type(replies) is Written
    ):
        pieces.append(_replies_json(replies))
        replaced.append(("orders", replies))
    for key, value in response.items():
        if type(value) is list and value and type(value[0]) is ReplyData:
            jsons = _jsons(value)
            if jsons is not None:
                pieces.append("[" + ", ".join(jsons) + "]")
                replaced.append((key, value))
    if not pieces:
        return encode(_unwritten(response))
    for key, _ in replaced:
        response[key] = _MARK
    try:
        parts = encode(response).split(_MARK_TEXT)
    finally:
        for key, value in replaced:
            response[key] = value
    if len(parts) != len(pieces) + 1:
        return encode(_unwritten(response))
    text = [""] * (2 * len(pieces) + 1)
    text[0::2] = parts
    text[1::2] = pieces
    return "".join(text)


def _replies_json(replies: list) -> str:
    """The replies as a JSON list, written from parts made once: each power's opening, each
    order text quoted, and the rest of a reply (``_tails``). (Keeping each whole reply's text by
    what it says cost more than it saved: the table of them outgrew the processor's caches.)"""
    written = type(replies) is Written
    if written:
        try:  # every reply already written, as usual in the batch
            return "[" + ", ".join(replies) + "]"
        except TypeError:  # some of them dicts: an order refused
            pass
    out: list[str] = []
    for item in replies:
        if written and type(item) is str:
            out += (item, ", ")
            continue
        if type(item) is dict:
            keys = tuple(item)
            if keys == _WITHOUT_REASON:
                power, order, canonical, result, data = item.values()
                reason = None
            elif keys == _WITH_REASON:
                power, order, canonical, result, reason, data = item.values()
            else:  # a check's reply (``needs``), one without data: written whole
                out += (encode(item), ", ")
                continue
            try:  # values of any type: one that is not text raises TypeError
                text = _from_parts(power, order, canonical, result, reason, data)
            except TypeError:  # not text (or not even hashable): written whole
                text = None
            if text is not None:
                out += (text, ", ")
                continue
        out += (encode(item), ", ")
    if not out:
        return "[]"
    out[0] = "[" + out[0]
    out[-1] = "]"
    return "".join(out)


def _unwritten(response: dict) -> dict:
    """The response to encode whole: replies already written (``Written``) read back as the
    dicts they were written from, which encode to the same text. Only where a mark cannot be
    used: the mark's number among the answer's own values."""
    replies = response.get("orders")
    if type(replies) is not Written:
        return response
    return {**response, "orders": [json.loads(r) if type(r) is str else r for r in replies]}


@mypyc_attr(native_class=False)  # a list: mypyc makes no native class of one
class Written(list):
    """A movement phase's replies as the batch has them made (``api.adjudicate_to_write``):
    each one's JSON text (``reply_text``), or its dict where it was not written. Only the
    engine makes one, so a request's own text in a plain list is never taken for JSON."""


def reply_text(
    power: object, order: object, canonical: object, result: str, reason: object, data: object
) -> str | None:
    """A movement reply written as JSON at once, as ``_replies_json`` writes its dict, for the
    batch (``api.adjudicate_to_write``): the reply is never built as a dict only to be taken
    apart again. None for anything but text and shared data: the caller makes its dict."""
    # A reason is text of its own kind (``reasons.Reason``), written as its words.
    if (
        type(data) is ReplyData
        and type(power) is str
        and type(order) is str
        and type(canonical) is str
        and (reason is None or isinstance(reason, str))
    ):
        return _from_parts(power, order, canonical, result, reason, data)
    return None


def _from_parts(
    power: str, order: str, canonical: str, result: str, reason: str | None, data: object
) -> str | None:
    """A reply's JSON from parts made once: its power's opening, its order text quoted and the
    rest (``_tail``), each looked up as it is and made (its values checked) only when new. None
    unless its data is shared; raises TypeError for a value that is not text."""
    head = _heads.get(power)
    if head is None:
        head = _heads[power] = '{"power": ' + quote(power) + ', "order": '
    quoted = _quoted.get(order)
    if quoted is None:
        if len(_quoted) >= _SIZE:
            _quoted.clear()
        quoted = _quoted[order] = quote(order)
    entry = _tails.get((canonical, result, reason, id(data)))
    tail = entry[1] if entry is not None and entry[0] is data else None
    if tail is None:
        tail = _tail(canonical, result, reason, data)
    return None if tail is None else head + quoted + tail


# The parts of replies made once (``_replies_json``): each power's opening up to its order's
# text, each order text quoted, and the rest of a reply by what it says (its canonical text,
# result, reason and data), which comes back phase after phase. The texts and the rest are
# started afresh past _SIZE; the openings are one a power (the engine checks every power).
_heads: Final[dict[object, str]] = {}
_quoted: Final[dict[object, str]] = {}
_tails: Final[dict[tuple, tuple[ReplyData, str]]] = {}


def _tail(canonical: str, result: str, reason: str | None, data: object) -> str | None:
    """A reply's JSON from its canonical text on, kept in ``_tails``; its data's from the JSON
    made once (``_shared_json``). None unless each is what the engine gives: text (a refused
    order's canonical text may be null) and a shared data. Raises TypeError for other values."""
    if type(data) is not ReplyData:
        return None
    tail = ', "canonical": ' + quote(canonical) + ', "result": ' + quote(result)
    if reason is not None:
        tail += ', "reason": ' + quote(reason)
    tail += ', "data": ' + _shared_json(data) + "}"
    if len(_tails) >= _SIZE:
        _tails.clear()
    _tails[(canonical, result, reason, id(data))] = (data, tail)
    return tail


def _shared_json(part: ReplyData) -> str:
    """One shared part's JSON, made at its first sight (``_made``)."""
    entry = _made.get(id(part))
    if entry is None:
        if len(_made) >= _SIZE:
            _made.clear()
        entry = _made[id(part)] = (part, _flat_json(part) or encode(part))
    return entry[1]


# Each key and value of the shared parts as JSON (``"kind": "move"``), made once: the parts
# are a few names (kinds, provinces, powers) in ever new combinations, and the encoder escaped
# every one of them again, about a hundred instructions a byte. Started afresh past _SIZE.
_pairs: Final[dict[tuple[str, str], str]] = {}


def _flat_json(part: ReplyData) -> str | None:
    """A shared part's JSON as the encoder writes it, from its pairs' text (``_pairs``), when
    every key is text and every value text, a whole number or null; else None (encoded)."""
    out: list[str] = []
    for key, value in part.items():
        if type(key) is not str:
            return None
        if type(value) is str:
            pair = _pairs.get((key, value))
            if pair is None:
                if len(_pairs) >= _SIZE:
                    _pairs.clear()
                pair = _pairs[(key, value)] = quote(key) + ": " + quote(value)
            out.append(pair)
        elif type(value) is int:
            out.append(quote(key) + ": " + int.__repr__(value))
        elif value is None:
            out.append(quote(key) + ": null")
        else:  # a list of words, a float, a bool: left to the encoder
            return None
    return "{" + ", ".join(out) + "}"


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
