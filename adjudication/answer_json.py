"""An answer as JSON text, for the batch: its shared parts (``ReplyData``: each reply's data,
each unit) written from JSON made once and spliced into the rest.

The same orders and units come back phase after phase, and encoding them again was half the
time spent writing an answer. The text is exactly what encoding the whole answer gives
(tests/test_batch_writer.py).
"""

from __future__ import annotations

import json
from collections import deque
from functools import partial
from itertools import repeat
from operator import itemgetter, setitem

from .readonly import ReplyData

# One encoder for every answer: ``json.dumps`` with options builds a new one per call. A
# response is a tree the engine has just built, never circular, so the check is skipped.
encode = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode

# Each shared part's JSON, keyed by identity; the entry holds the part, so its id is never
# reused while the entry lives. Started afresh past _SIZE.
_made: dict[int, tuple[ReplyData, str]] = {}
_SIZE = 65536
# Stands for each shared part while the rest is encoded. A request's own text cannot slip
# another one in unnoticed: the marks are counted, and if any other is found the answer is
# encoded whole.
_MARK = -7346029158
_MARK_TEXT = str(_MARK)
# Whole lists are looked up and marked with ``map``: a Python loop over every part of every
# answer cost as much as the encoding it spares.
_consume = partial(deque, maxlen=0)  # runs an iterator to its end
_second = itemgetter(1)


def answer_json(response: dict) -> str:
    """``response`` as JSON text; the response is left as it was."""
    pieces: list[str] = []
    replies = response.get("orders")
    datas: list | None = None
    # The replies come first in an answer (``api._judge``), so their data are the first marks.
    first = next(iter(response), None)
    if first == "orders" and type(replies) is list and set(map(type, replies)) == {dict}:
        datas = list(map(dict.get, replies, repeat("data")))
        jsons = _jsons(datas)
        if jsons is None:
            datas = None
        else:
            pieces += jsons
            _consume(map(setitem, replies, repeat("data"), repeat(_MARK)))
    units = [
        (key, value)
        for key, value in response.items()
        if type(value) is list and value and type(value[0]) is ReplyData
    ]
    for key, value in units:
        jsons = _jsons(value)
        if jsons is not None:
            pieces.append("[" + ", ".join(jsons) + "]")
            response[key] = _MARK
    if not pieces:
        return encode(response)
    try:
        parts = encode(response).split(_MARK_TEXT)
    finally:
        for key, value in units:
            response[key] = value
        if datas is not None:
            _consume(map(setitem, replies, repeat("data"), datas))
    if len(parts) != len(pieces) + 1:
        return encode(response)
    text = [""] * (2 * len(pieces) + 1)
    text[0::2] = parts
    text[1::2] = pieces
    return "".join(text)


def _jsons(shared: list) -> list[str] | None:
    """The JSON of each of these shared parts; None unless every one is a ``ReplyData``."""
    made = _made
    entries = list(map(made.get, map(id, shared)))
    if None in entries:  # first sight of some
        for i, entry in enumerate(entries):
            if entry is None:
                part = shared[i]
                if type(part) is not ReplyData:
                    return None
                if len(made) >= _SIZE:
                    made.clear()
                entries[i] = made[id(part)] = (part, encode(part))
    return list(map(_second, entries))
