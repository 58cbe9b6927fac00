"""The bounds every way in (API, pages, admin, services) holds input to, in one place.

Each bound keeps a request from holding a game's row lock for long, from filling the database
or a page, or from reaching the database or ``datetime`` as a value they cannot store.
"""

from __future__ import annotations

from django.utils.translation import gettext

# Orders: a power has at most a few dozen units; a line is one order.
MAX_ORDERS = 100
MAX_ORDER_LENGTH = 200


def too_many_orders(count: int, most: int = MAX_ORDERS) -> str:
    """The refusal of ``count`` order lines, the same in the order form and the API."""
    return gettext("At most %(max)d orders; this has %(count)d.") % {"max": most, "count": count}


def order_too_long(number: int) -> str:
    """The refusal of order line ``number``, too long, the same in the order form and the API."""
    return gettext("Order %(n)d is longer than %(max)d characters.") % {
        "n": number,
        "max": MAX_ORDER_LENGTH,
    }


# The largest value an integer column holds on every database (PostgreSQL's ``integer``).
MAX_INTEGER = 2**31 - 1

# A phase lasts at most 30 days; a moderator moves a deadline by at most a year either way,
# and never sets one more than a year ahead.
MAX_PHASE_MINUTES = 30 * 24 * 60
MAX_DEADLINE_SHIFT_MINUTES = 366 * 24 * 60
MAX_DEADLINE_DAYS_AHEAD = 366

# Movement phases a power may miss before civil disorder (0 never): more is the same as never.
MAX_MISSED_PHASES = 100

# Supply centres to win: more than any map has.
MAX_VICTORY_CENTERS = 1000

# A JSON body nests no deeper than this; the deepest honest body (game options) has 3 levels.
MAX_JSON_DEPTH = 20


def ascii_index(text: str | None) -> int | None:
    """``text`` as a non-negative integer that a database column holds, or None.

    Only ASCII digits count: ``"²".isdigit()`` and ``int("١")`` accept other scripts' digits,
    and ``int(" 1")`` spaces, none of which belong in an id or a phase index.
    """
    if not text or len(text) > 10 or not (text.isascii() and text.isdigit()):
        return None
    value = int(text)
    return value if value <= MAX_INTEGER else None


# Gold (Chinese Diplomacy): one payment moves at most this much (a leader is deposed at 1,000
# k oz in debt, so more is never honest), and a power makes at most so many payments a phase.
MAX_PAYMENT = 100_000
MAX_PAYMENTS_PER_PHASE = 20

# Movement phases in a row with no order from any person before a game nobody plays any more
# (every seat empty, in civil disorder or a bot's) is abandoned (cancelled, not rated).
ABANDONED_AFTER = 3


# How much of a name the client sent an error repeats (a power named in a URL has no length
# limit): this many characters, then an ellipsis.
ECHO_LENGTH = 40


def echoed(text: str) -> str:
    """A name the client sent, quoted for an error message as ``repr`` quotes it, its first
    ``ECHO_LENGTH`` characters only (``'Franceeee…'``): a refusal never repeats a whole essay."""
    if len(text) <= ECHO_LENGTH:
        return repr(text)
    quoted = repr(text[:ECHO_LENGTH])
    return quoted[:-1] + "…" + quoted[-1]


def clip(text: str, length: int) -> str:
    """``text`` cut to fit a column of ``length`` characters, an ellipsis saying it was cut:
    the engine's words (a reason that quotes a long order) are not bounded by it."""
    return text if len(text) <= length else text[: length - 1] + "…"
