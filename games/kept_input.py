"""What a refused form held, kept in the session for the page it goes back to.

Orders, press, a payment: whatever a player typed and the server refused (or a sign-out
interrupted) comes back in its box rather than being lost. Each is kept under its own key a
game (``unsent-press-12``) and taken once, by the page that shows it again; it is given back
only if it is still the kind of value it was kept as (a session outlives the code that wrote
it, and a forged cookie is not trusted).
"""

from __future__ import annotations

from typing import TypeVar

from django.http import HttpRequest

T = TypeVar("T")


def key(what: str, game: int | str) -> str:
    """The session key of one game's kept ``what`` (``unsaved-orders``, ``unpaid``, ...)."""
    return f"{what}-{game}"


def keep(request: HttpRequest, what: str, game: int | str, value: object) -> None:
    """Keep ``value`` for the next page of this game that shows ``what``."""
    request.session[key(what, game)] = value


def take(request: HttpRequest, what: str, game: int | str, kind: type[T]) -> T | None:
    """The kept ``what`` of this game, once (it is gone after), if it is a ``kind``."""
    value = request.session.pop(key(what, game), None)
    return value if isinstance(value, kind) else None
