"""The bounds every way in (API, pages, admin, services) holds input to, in one place.

Each bound keeps a request from holding a game's row lock for long, from filling the database
or a page, or from reaching the database or ``datetime`` as a value they cannot store.
"""

from __future__ import annotations

# Orders: a power has at most a few dozen units; a line is one order.
MAX_ORDERS = 100
MAX_ORDER_LENGTH = 200

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
