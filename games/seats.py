"""The caller's seat, read fast: order submissions and checks are the busiest requests.

The seat, its game and the game's current phase come in one query, and with an API token the
token and its user come in the same query (``TokenAuthentication``, for the actions a view
names in ``seat_actions``). The queries are compiled once per process (``games.prepared``).
"""

from __future__ import annotations

import re

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


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token authentication (the same answers: 401 for an unknown token or an inactive
    user), with its query compiled once per process; where the view reads the caller's seat
    (orders, ``seat_actions``), the token, the user and the seat come in one query."""

    def authenticate(self, request: Request):
        self.request = request
        return super().authenticate(request)

    def authenticate_credentials(self, key: str):
        if not TOKEN_KEY.fullmatch(key):  # a NUL would reach PostgreSQL, which refuses it
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        context = getattr(self.request, "parser_context", None) or {}
        view = context.get("view")
        seat_view = getattr(view, "action", None) in getattr(view, "seat_actions", ())
        pk = context.get("kwargs", {}).get("pk") if seat_view else None
        game = None if pk is None else ascii_index(str(pk))  # a route's int or a viewset's text
        if game is not None:
            rows = SEAT_OF_TOKEN.run(key, game)
            if rows:
                seat = seat_from_row(rows[0])
                user = instance(get_user_model(), USER_COLUMNS, rows[0][len(SEAT_LOOKUPS) :])
                if not user.is_active:
                    raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
                seat.user = user
                view.seat = seat
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
