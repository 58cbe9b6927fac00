"""Every endpoint against every kind of caller: who gets in, and that nobody gets a 500.

Roles: nobody signed in; another player in the same game (France's rival, England); a player of
another game; the game's moderator, who does not play; and a site admin (a staff superuser) who
neither created nor plays the game. ``Game.is_moderator`` makes staff moderators of every game,
so an admin may do and see everything a non-playing moderator may. France has orders in and has
sent Italy private press before each request.
"""

from __future__ import annotations

import pytest

from games import services
from games.api import MODERATOR_ACTIONS

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "other_player", "other_game_player", "moderator", "admin")
# Who may see France's orders and private press before the phase is processed.
SEES_ALL = ("moderator", "admin")

# (method, path, data, {role: status}); {game} is the game's id.
OPEN = {"anonymous": 401, "other_player": 200, "other_game_player": 200, "moderator": 200}
PLAYERS = {"anonymous": 401, "other_player": 200, "other_game_player": 403, "moderator": 200}
PLAYING = {"anonymous": 401, "other_player": 200, "other_game_player": 403, "moderator": 403}
# Admins fare as the moderator does.
for _expected in (OPEN, PLAYERS, PLAYING):
    _expected["admin"] = _expected["moderator"]
PUBLIC = dict.fromkeys(ROLES, 200)
# Signed out, a visitor may read public games only: this (private) game is a 404 to them, and
# the list of games answers, without it.
WATCH_OPEN, WATCH_PLAYERS = {**OPEN, "anonymous": 404}, {**PLAYERS, "anonymous": 404}

ENDPOINTS = [
    ("get", "/api/games/", None, {**OPEN, "anonymous": 200}),
    (
        "post",
        "/api/games/",
        {"name": "n", "variant": "standard"},
        {**OPEN, "other_player": 201, "other_game_player": 201, "moderator": 201, "admin": 201},
    ),
    ("get", "/api/games/{game}/", None, WATCH_OPEN),
    (
        "post",
        "/api/games/{game}/join/",
        {},
        {**OPEN, "other_player": 400, "other_game_player": 400, "moderator": 400, "admin": 400},
    ),
    ("get", "/api/games/{game}/orders/", None, WATCH_PLAYERS),
    ("put", "/api/games/{game}/orders/", {"orders": ["F London H"]}, PLAYING),
    ("post", "/api/games/{game}/ready/", {"ready": True, "phase": 0}, PLAYING),
    ("get", "/api/games/{game}/phases/", None, WATCH_OPEN),
    ("get", "/api/games/{game}/phases/0/", None, WATCH_OPEN),
    ("get", "/api/games/{game}/messages/", None, WATCH_PLAYERS),
    (
        "post",
        "/api/games/{game}/messages/",
        {"body": "hi"},
        {**PLAYERS, "other_player": 201, "moderator": 201, "admin": 201},
    ),
    ("post", "/api/games/{game}/draw/", {"draw": True}, PLAYING),
    ("get", "/api/games/{game}/payments/", None, WATCH_OPEN),
    # The standard map has no gold: a player's payment is refused (400), never a 500.
    (
        "post",
        "/api/games/{game}/payments/",
        {"to": "France", "amount": 5},
        {**PLAYING, "other_player": 400},
    ),
    ("get", "/api/variants/", None, PUBLIC),
    ("get", "/api/variants/standard/", None, PUBLIC),
    ("get", "/api/auth/notifications/", None, OPEN),
    ("put", "/api/auth/notifications/", {"press_digest": False}, OPEN),
    ("get", "/api/schema/", None, PUBLIC),
] + [
    (
        "post",
        f"/api/games/{{game}}/moderation/{name}/",
        {"minutes": 10, "phase": 0, "power": "Italy", "username": "spare"},
        {
            "anonymous": 401,
            "other_player": 403,
            "other_game_player": 403,
            "moderator": None,
            "admin": None,
        },
    )
    for name in MODERATOR_ACTIONS
]


@pytest.fixture
def world(make_game, seat, make_user, moderator):
    game = make_game()
    other_game = make_game()
    make_user("spare")
    services.submit_orders(seat(game, "France"), ["A Paris - Burgundy"])
    services.send_message(game, seat(game, "France").user, "Psst, Italy", ["Italy"])
    return {
        "game": game,
        "anonymous": None,
        "other_player": seat(game, "England").user,
        "other_game_player": seat(other_game, "England").user,
        "moderator": moderator,
        "admin": make_user("admin", is_staff=True, is_superuser=True),
    }


def _id(endpoint) -> str:
    return f"{endpoint[0].upper()} {endpoint[1]}"


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=_id)
def test_permissions(api, world, endpoint, role) -> None:
    method, path, data, expected = endpoint
    client = api(world[role])
    response = getattr(client, method)(path.format(game=world["game"].pk), data, format="json")
    status = expected[role]
    if status is None:  # moderators may use the tool; the rules may still refuse it
        assert response.status_code in (200, 400), response.content
    else:
        assert response.status_code == status, response.content
    if method == "get" and response.status_code == 200 and role not in SEES_ALL:
        # Nobody but France, Italy, the moderator and admins sees France's orders or press.
        body = response.content.decode()
        assert "A Paris - Burgundy" not in body
        assert "Psst, Italy" not in body


@pytest.mark.parametrize("role", SEES_ALL)
def test_moderator_and_admin_see_everything(api, world, role) -> None:
    """A non-playing moderator, and so an admin, sees orders and private press at once."""
    client = api(world[role])
    game = world["game"].pk
    assert "A Paris - Burgundy" in client.get(f"/api/games/{game}/orders/").content.decode()
    assert "Psst, Italy" in client.get(f"/api/games/{game}/messages/").content.decode()
    detail = client.get(f"/api/games/{game}/").json()
    assert detail["is_moderator"] is True
    assert detail["my_power"] is None


def test_a_playing_admin_sees_only_their_own(api, make_game, seat, make_user) -> None:
    """Staff who play are players first: no peeking at the other powers' orders or press.
    (They take their seat while the game forms: a running game's seat is refused to staff who
    do not play it, who may have read every power's orders.)"""
    admin = make_user("admin", is_staff=True, is_superuser=True)
    game = services.create_game(make_user("host"), name="Staff plays", variant="standard")
    services.join_game(game, admin, ["Turkey"])
    for power in ("England", "France", "Germany", "Italy", "Austria", "Russia"):
        services.join_game(game, make_user(f"p_{power.lower()}_{game.pk}"), [power])
    game.refresh_from_db()
    assert game.status == "active" and game.membership_of(admin).power == "Turkey"
    services.submit_orders(seat(game, "France"), ["A Paris - Burgundy"])
    services.send_message(game, seat(game, "France").user, "Psst, Italy", ["Italy"])
    client = api(admin)
    assert (
        client.put(f"/api/games/{game.pk}/orders/", {"orders": ["F Ankara H"]}).status_code == 200
    )
    orders = client.get(f"/api/games/{game.pk}/orders/").json()
    assert [o["power"] for o in orders] == ["Turkey"]
    assert "Psst" not in client.get(f"/api/games/{game.pk}/messages/").content.decode()
    phase = client.get(f"/api/games/{game.pk}/phases/0/").content.decode()
    assert "A Paris - Burgundy" not in phase


def test_a_format_suffix_is_a_404_not_a_500(api, make_user) -> None:
    """Found while checking every route of a game: ``POST /api/games/1/orders/check.json/``
    was a 500 (DRF's ".json" routes pass a ``format`` the actions do not take)."""
    client = api(make_user("ada"))
    for url in ("/api/games/1/orders/check.json/", "/api/games/1/draw.json/", "/api/games.json"):
        assert client.post(url, {}, format="json").status_code == 404, url
