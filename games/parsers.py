"""The API's body parsers: DRF's, bounded.

DRF reads JSON and form bodies straight from the request stream, so Django's
``DATA_UPLOAD_MAX_MEMORY_SIZE`` never applies to them; and Python's JSON decoder answers a
body nested a thousand deep with ``RecursionError``, which DRF does not catch. Here a body
over the size cap is a 413, and one nested too deep, or with a NUL character in any string
(which PostgreSQL cannot store) or a lone surrogate escape such as ``"\\ud800"`` in any string
or key (no UTF-8 text holds one, so an answer echoing it could not be written), or an object
naming a key twice (one of the values would be dropped unseen), is a 400, before any view
sees it.
"""

from __future__ import annotations

import codecs
import json
import math
import re

from django.conf import settings
from django.http import Http404, QueryDict
from django.utils.translation import gettext
from rest_framework import exceptions, parsers, status
from rest_framework.negotiation import DefaultContentNegotiation

from .limits import MAX_JSON_DEPTH


class RequestTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The request body is too large."
    default_code = "too_large"


def too_large() -> RequestTooLarge:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return RequestTooLarge(f"The request body is too large: at most {limit} bytes.")


def check_size(parser_context: dict | None) -> None:
    """Refuse a body longer than ``DATA_UPLOAD_MAX_MEMORY_SIZE`` before reading any of it."""
    request = (parser_context or {}).get("request")
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    if request is None or limit is None:
        return
    meta = request.META
    try:
        length = int(meta.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > limit:
        raise too_large()


# Python's JSON decoder joins an escaped pair (``"\\ud83d\\ude00"``) into one character, so a
# surrogate left in a decoded string is a lone one.
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def check_shape(data: object) -> None:
    """Refuse JSON nested deeper than ``MAX_JSON_DEPTH`` or holding a NUL or a lone surrogate
    in any string, keys included."""
    pending: list[tuple[object, int]] = [(data, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, str):
            if "\x00" in value:
                raise exceptions.ParseError("Text may not contain NUL characters.")
            if LONE_SURROGATE.search(value):
                raise exceptions.ParseError(
                    "Text may not contain a lone surrogate (an unpaired \\ud800-\\udfff escape)."
                )
            continue
        if not isinstance(value, dict | list):
            continue
        if depth > MAX_JSON_DEPTH:
            raise exceptions.ParseError(f"JSON nested deeper than {MAX_JSON_DEPTH} levels.")
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            pending.append((key, depth))
            pending.append((item, depth + 1))


def unique_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """One JSON object of a body, refused if it names a key twice: Python's decoder would keep
    the last value and drop the other unseen (``{"orders": [...], "orders": [...]}``), and
    another reader of the same text may keep the first."""
    data = dict(pairs)
    if len(data) < len(pairs):
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                shown = key if len(key) <= 50 else key[:50] + "…"
                raise exceptions.ParseError(
                    gettext("The key %(key)s is given twice in one JSON object.")
                    % {"key": json.dumps(shown, ensure_ascii=False)}
                )
            seen.add(key)
    return data


def _no_constant(name: str) -> object:
    """NaN and the infinities are no JSON, though Python's decoder reads them."""
    raise ValueError(f"{name} is not valid JSON")


# Digits of a whole number a body may hold: none the API reads has more than 20, and past 4,300
# Python's own conversion refused it with advice for the server's code
# (``sys.set_int_max_str_digits``) as the client's error.
MAX_DIGITS = 100


def _whole_number(text: str) -> int:
    digits = len(text) - text.startswith("-")
    if digits > MAX_DIGITS:
        raise ValueError(f"a number of {digits} digits: at most {MAX_DIGITS} are read")
    return int(text)


def _real_number(text: str) -> float:
    """A fraction or exponent; one past what a float holds (``1e309``) is refused here, where
    it became infinity, which no JSON holds and a game's options refused as "not valid JSON"."""
    value = float(text)
    if math.isinf(value):
        shown = text if len(text) <= 20 else text[:20] + "…"
        raise ValueError(f"the number {shown} is too large to read")
    return value


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, bounded as the module says, and refusing a key given twice in one
    object (``unique_keys``) at any depth."""

    def parse(self, stream, media_type=None, parser_context=None):
        check_size(parser_context)
        # DRF's check of the charset: a text encoding only, never a decompressing codec (bz2)
        # that would grow a small body past the size cap.
        encoding = parsers.get_encoding(parser_context or {})
        try:
            text = codecs.getreader(encoding)(stream).read()
            data = json.loads(
                text,
                object_pairs_hook=unique_keys,
                parse_int=_whole_number,
                parse_float=_real_number,
                parse_constant=_no_constant if self.strict else None,
            )
        except RecursionError:
            raise exceptions.ParseError(
                f"JSON nested deeper than {MAX_JSON_DEPTH} levels."
            ) from None
        except ValueError as exc:  # as DRF words it
            raise exceptions.ParseError(f"JSON parse error - {exc}") from None
        check_shape(data)
        return data


class FormParser(parsers.FormParser):
    def parse(self, stream, media_type=None, parser_context=None):
        """A form's fields; a body that is JSON sent as a form (``curl -d`` says it is one)
        is refused saying so, rather than read as a form with no field the view wants."""
        check_size(parser_context)
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        body = stream.read() if stream is not None else b""
        if body.lstrip()[:1] in (b"{", b"["):
            raise exceptions.ParseError(
                "This body is JSON, but its Content-Type says it is a form "
                "(application/x-www-form-urlencoded, as curl -d sends it): send it with "
                "Content-Type: application/json."
            )
        return QueryDict(body, encoding=encoding)


class MultiPartParser(parsers.MultiPartParser):
    def parse(self, stream, media_type=None, parser_context=None):
        check_size(parser_context)
        return super().parse(stream, media_type, parser_context)


class JSONAnyway(DefaultContentNegotiation):
    """DRF's content negotiation, answering with the view's first renderer (JSON for every API
    view) rather than 406 when the client accepts none of them: a browser's
    ``Accept: text/html`` gets JSON, as every client under /api/ does. So does a ``?format=``
    no renderer has (``xml``), which DRF answered with a 404 "Not found." of a game that
    exists."""

    def select_renderer(self, request, renderers, format_suffix=None):
        try:
            return super().select_renderer(request, renderers, format_suffix)
        except (exceptions.NotAcceptable, Http404):
            return renderers[0], renderers[0].media_type
