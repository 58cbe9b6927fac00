"""``If-Match`` and ``If-None-Match`` read as RFC 9110 §13.1.1 and §13.1.2 write them, for the
orders' versions (their ETag).

``*`` means any current version: no check. Otherwise the header is a comma-separated list of
entity-tags (``"abc"`` or ``W/"abc"``; empty list elements are ignored, as §5.6.1 asks), and
it passes if any of them is the current version. A quoted ``"*"`` is an ordinary tag whose
value is ``*``, which no version is.

The RFC compares If-Match tags strongly, so that a weak tag never matches. The orders' ETag
is weak (``weak_etag``): the answer's bytes vary (gzip, the reasons' language) while the
version they show does not. So here the tags are compared by their opaque part, ``W/`` or
not: a client may echo the ETag as received, or without its ``W/`` as the board's script does.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext
from rest_framework import exceptions

# entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE; etagc = %x21 / %x23-7E / obs-text. A header is
# read as Latin-1, so obs-text (%x80-FF) is \x80-\xff here. Commas may stand inside a tag.
_TAG = r'(?:W/)?"[\x21\x23-\x7e\x80-\xff]*"'
_LIST = re.compile(rf"[ \t,]*{_TAG}(?:[ \t]*,[ \t,]*{_TAG})*[ \t,]*")
_OPAQUE = re.compile(r'"([^"]*)"')


def weak_etag(version: str) -> str:
    """The ETag of a version of the orders: weak from the start, since gzip would weaken a
    strong one, and only in answers long enough to be gzipped; the ETag then changed with the
    encoding and the answer's length."""
    return f'W/"{version}"'


def if_match(value: str | None) -> frozenset[str] | None:
    """The versions an ``If-Match`` value accepts; None when it sets no condition (absent or
    ``*``). A value that is not ``*`` or a list of entity-tags (a blank one included: it names
    nothing to compare with) is the client's mistake, a 400, never read as no header at all."""
    if value is None or value.strip(" \t") == "*":
        return None
    return _tags("If-Match", value)


# What ``if_none_match`` gives for a bare ``*``: any version at all (a quoted "*" is a tag).
ANY = "*"


def if_none_match(value: str | None) -> frozenset[str] | str | None:
    """The versions an ``If-None-Match`` value refuses: a set of them, ``ANY`` for ``*`` (any
    orders saved at all), or None when it sets no condition (absent). As for ``If-Match``, a
    value that is neither is a 400."""
    if value is None:
        return None
    if value.strip(" \t") == "*":
        return ANY
    return _tags("If-None-Match", value)


def _tags(header: str, value: str) -> frozenset[str]:
    """The opaque parts of a list of entity-tags, W/ or not; a 400 naming ``header`` if the
    value is not such a list."""
    if not _LIST.fullmatch(value):
        raise exceptions.ValidationError(
            {
                header: [
                    gettext(
                        "Must be * or entity-tags separated by commas, each in double quotes "
                        'and written as the ETag was sent, such as W/"12.3.45".'
                    )
                ]
            }
        )
    return frozenset(_OPAQUE.findall(value))


def none_match(refused: frozenset[str] | str | None, version: str, saved: bool) -> bool:
    """Whether ``If-None-Match`` (as ``if_none_match`` read it) fails for the orders now at
    ``version``: ``*`` when any are ``saved``, a list when it names their version."""
    if refused is None:
        return False
    return saved if refused == ANY else version in refused
