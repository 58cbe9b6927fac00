"""The caller's seat, read fast: order submissions and checks are the busiest requests.

The seat, its game and the game's current phase come in one query, and with an API token the
token and its user come in the same query (``TokenAuthentication``, for the actions a view
names in ``seat_actions``). The queries are compiled once per process (``games.prepared``).

For an order submission (the actions and methods a view names in ``seat_kept_for``) the row
is kept in the process (``KEPT_SEATS``) and the next submission with the same token skips the
query: under the game's lock the submission reads the seat's state, and for a kept row also
whether the token still signs its user in (``services.submit_orders``'s ``token``).
Whatever the lock finds changed since (the token or the user gone, the seat, the power, the
phase or the game's options changed) raises ``KeptSeatStale``, and any request on a kept row
that does not succeed, for that or any other reason, is run again from its authentication
with the seat read anew (``GameViewSet._answer_anew``): a kept row never decides an answer.
"""

from __future__ import annotations

import re
import threading

from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token
from rest_framework.request import Request

from .limits import ascii_index
from .models import Game, Membership, Phase
from .prepared import Prepared, instance

# What sending or checking orders reads of the seat, its game and the current phase (the
# engine's request and the checks around it): a third of the columns. The query is compiled
# once per process (``games.prepared``): building it through the ORM on every request was a
# quarter of a submission's CPU.
SEAT_COLUMNS = {
    Membership: ("id", "game_id", "user_id", "power", "status", "missed_phases", "ready")
    + ("bot", "removed"),
    Game: ("id", "status", "variant", "options", "current_phase_id", "creator_id"),
    Phase: ("id", "game_id", "index", "season", "year", "type", "deadline", "units")
    + ("supply_centers", "dislodged", "contested", "carried", "processed_at"),
}
SEAT_PATHS = {Membership: "", Game: "game__", Phase: "game__current_phase__"}
USER_COLUMNS = tuple(f.attname for f in get_user_model()._meta.concrete_fields)
TOKEN_COLUMNS = ("key", "user_id", "created")


SEAT_LOOKUPS = tuple(
    SEAT_PATHS[model] + name for model, names in SEAT_COLUMNS.items() for name in names
)


def _seats() -> QuerySet:
    """Seats that still play (not replaced, the player not removed), the first first."""
    return Membership.objects.in_play().order_by("pk")


# The caller's seat in a game, with the game and its current phase: by the user (signed in by
# session), or by the API token together with the user it signs in (one query for both).
SEAT_OF_USER = Prepared(
    lambda user, game: _seats().filter(user_id=user, game_id=game).values_list(*SEAT_LOOKUPS),
    ("int", "int"),
)
SEAT_OF_TOKEN = Prepared(
    lambda key, game: (
        _seats()
        .filter(user__auth_token__key=key, game_id=game)
        .values_list(*SEAT_LOOKUPS, *(f"user__{name}" for name in USER_COLUMNS))
    ),
    ("str", "int"),
)
USER_OF_TOKEN = Prepared(
    lambda key: Token.objects.filter(key=key).values_list(
        *TOKEN_COLUMNS, *(f"user__{name}" for name in USER_COLUMNS)
    ),
    ("str",),
)


def seat_from_row(row: list) -> Membership:
    """The seat, its game and the current phase (None before the game starts) from a row of
    ``SEAT_OF_USER`` or ``SEAT_OF_TOKEN``, as ``select_related`` with ``only`` would make them."""
    made = {}
    at = 0
    for model, names in SEAT_COLUMNS.items():
        values = row[at : at + len(names)]
        at += len(names)
        made[model] = None if values[0] is None else instance(model, names, values)
    membership, game = made[Membership], made[Game]
    game.current_phase = made[Phase]
    membership.game = game
    return membership


# DRF's keys are 40 hex digits; any key an admin typed is letters and digits.
TOKEN_KEY = re.compile(r"[0-9A-Za-z]{1,40}")


class KeptSeats:
    """Rows of ``SEAT_OF_TOKEN`` kept per process, by token and game, as the database gave
    them (converted anew each time they are used, so no request shares another's objects).
    At most ``size``; the oldest kept goes first."""

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self._rows: dict[tuple[str, int], tuple] = {}
        self._lock = threading.Lock()

    def get(self, key: str, game: int) -> tuple | None:
        return self._rows.get((key, game))

    def keep(self, key: str, game: int, row: tuple) -> None:
        with self._lock:
            self._rows.pop((key, game), None)
            while len(self._rows) >= self.size:
                self._rows.pop(next(iter(self._rows)), None)
            self._rows[(key, game)] = row

    def forget(self, key: str, game: int) -> None:
        with self._lock:
            self._rows.pop((key, game), None)

    def clear(self) -> None:
        with self._lock:
            self._rows.clear()


KEPT_SEATS = KeptSeats()


def token_seat(
    key: str, game: int, *, kept: bool = False, keep: bool = False
) -> tuple[Membership, object, bool] | None:
    """The seat in ``game`` that the token's user plays, with the user (the seat's ``user``)
    and whether the row was a kept one; None when the token signs nobody in or its user plays
    no seat there. ``kept``: take the row kept for this token and game if there is one (the
    caller must then have the submission check the token under the game's lock). ``keep``:
    keep a row read from the database. Raises ``AuthenticationFailed`` for an inactive user,
    as DRF's authentication does."""
    row = KEPT_SEATS.get(key, game) if kept else None
    was_kept = row is not None
    if row is None:
        rows = SEAT_OF_TOKEN.fetch(key, game)
        if not rows:
            return None
        row = rows[0]
    (values,) = SEAT_OF_TOKEN.convert([row])
    seat = seat_from_row(values)
    user = instance(get_user_model(), USER_COLUMNS, values[len(SEAT_LOOKUPS) :])
    if not user.is_active:
        KEPT_SEATS.forget(key, game)
        raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
    if keep and not was_kept and seat.power and seat.game.current_phase_id:
        KEPT_SEATS.keep(key, game, row)  # only a seat that plays a power in a started game
    seat.user = user
    return seat, user, was_kept


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token authentication (the same answers: 401 for an unknown token or an inactive
    user), with its query compiled once per process; where the view reads the caller's seat
    (orders, ``seat_actions``), the token, the user and the seat come in one query, kept for
    the next order submission (``seat_kept_for``, ``KEPT_SEATS``)."""

    def authenticate(self, request: Request):
        self.request = request
        return super().authenticate(request)

    def authenticate_credentials(self, key: str):
        if not TOKEN_KEY.fullmatch(key):  # a NUL would reach PostgreSQL, which refuses it
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        context = getattr(self.request, "parser_context", None) or {}
        view = context.get("view")
        action = getattr(view, "action", None)
        seat_view = action in getattr(view, "seat_actions", ())
        pk = context.get("kwargs", {}).get("pk") if seat_view else None
        game = None if pk is None else ascii_index(str(pk))  # a route's int or a viewset's text
        if game is not None:
            kept = (action, self.request.method) in getattr(view, "seat_kept_for", ())
            found = token_seat(key, game, kept=kept, keep=kept)
            if found is not None:
                seat, user, was_kept = found
                view.seat = seat
                view.seat_token = key if was_kept else None
                return user, Token(key=key, user=user)
        rows = USER_OF_TOKEN.run(key)
        if not rows:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        token = instance(Token, TOKEN_COLUMNS, rows[0][: len(TOKEN_COLUMNS)])
        user = instance(get_user_model(), USER_COLUMNS, rows[0][len(TOKEN_COLUMNS) :])
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        token.user = user
        return user, token
