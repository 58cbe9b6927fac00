"""An order submission's seat kept from the last one (``games.seats.KEPT_SEATS``): the next
PUT with the same token skips the seat's query, and whatever changed since is found under the
game's lock, where the seat is read anew and the orders are judged and stored as without it."""

from __future__ import annotations

from unittest import mock

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import seats, services
from games.models import Game, Order


def _client(user) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def _put(client, game, orders, **extra):
    return client.put(f"/api/games/{game.pk}/orders/", {"orders": orders, **extra}, format="json")


def _stored(game, power: str, phase=None) -> list[str]:
    phase = phase or Game.objects.get(pk=game.pk).current_phase
    return list(
        Order.objects.filter(phase=phase, power=power)
        .order_by("position")
        .values_list("text", flat=True)
    )


@pytest.fixture
def reads():
    """How many times the seat's row is read from the database."""
    with mock.patch.object(seats.SEAT_OF_TOKEN, "fetch", wraps=seats.SEAT_OF_TOKEN.fetch) as fetch:
        yield fetch


def test_the_second_submission_takes_the_kept_seat(game, seat, reads) -> None:
    france = seat(game, "France")
    client = _client(france.user)
    assert _put(client, game, ["A Paris - Burgundy"]).status_code == 200
    answer = _put(client, game, ["A Paris H", "F Brest - Mid-Atlantic Ocean"])
    assert answer.status_code == 200, answer.content
    assert [o["canonical"] for o in answer.json()] == ["A Paris H", "F Brest - Mid-Atlantic Ocean"]
    assert reads.call_count == 1
    assert _stored(game, "France") == ["A Paris H", "F Brest - Mid-Atlantic Ocean"]


def test_only_submissions_keep_the_seat(game, seat, reads) -> None:
    client = _client(seat(game, "France").user)
    for _ in range(2):
        check = client.post(
            f"/api/games/{game.pk}/orders/check/", {"orders": ["A Paris H"]}, format="json"
        )
        assert check.status_code == 200
        assert client.get(f"/api/games/{game.pk}/orders/").status_code == 200
    assert reads.call_count == 4
    assert not seats.KEPT_SEATS._rows


def test_a_deleted_token_is_refused_though_its_seat_was_kept(game, seat) -> None:
    france = seat(game, "France")
    client = _client(france.user)
    assert _put(client, game, ["A Paris - Burgundy"]).status_code == 200
    Token.objects.filter(user=france.user).delete()
    answer = _put(client, game, ["A Paris H"])
    assert answer.status_code == 401, answer.content
    assert answer.json()["detail"] == "Invalid token."
    assert _stored(game, "France") == ["A Paris - Burgundy"]


def test_an_inactive_user_is_refused_though_the_seat_was_kept(game, seat) -> None:
    france = seat(game, "France")
    client = _client(france.user)
    assert _put(client, game, ["A Paris - Burgundy"]).status_code == 200
    type(france.user).objects.filter(pk=france.user.pk).update(is_active=False)
    answer = _put(client, game, ["A Paris H"])
    assert answer.status_code == 401, answer.content
    assert _stored(game, "France") == ["A Paris - Burgundy"]


def test_orders_after_the_phase_was_processed_go_to_the_new_phase(game, seat, moderator) -> None:
    france = seat(game, "France")
    client = _client(france.user)
    assert _put(client, game, ["A Paris - Burgundy"]).status_code == 200
    first = Game.objects.get(pk=game.pk).current_phase
    services.process_now(Game.objects.get(pk=game.pk), moderator)
    now = Game.objects.get(pk=game.pk).current_phase
    assert now.pk != first.pk
    answer = _put(client, game, ["A Burgundy H"], phase=now.index)
    assert answer.status_code == 200, answer.content
    assert answer.json()[0]["valid"] is True
    assert _stored(game, "France", now) == ["A Burgundy H"]
    assert _stored(game, "France", first) == ["A Paris - Burgundy"]
    # Named for the phase processed, the orders are a conflict, as without a kept seat.
    stale = _put(client, game, ["A Burgundy - Munich"], phase=first.index)
    assert stale.status_code == 409, stale.content


def test_a_player_replaced_meanwhile_no_longer_submits(game, seat, moderator, make_user) -> None:
    france = seat(game, "France")
    client = _client(france.user)
    assert _put(client, game, ["A Paris - Burgundy"]).status_code == 200
    services.replace_player(game, moderator, "France", make_user("newcomer"))
    answer = _put(client, game, ["A Paris H"])
    assert answer.status_code == 403, answer.content
    assert _stored(game, "France") == ["A Paris - Burgundy"]
    newcomer = _client(seat(game, "France").user)
    assert _put(newcomer, game, ["A Paris H"]).status_code == 200
    assert _stored(game, "France") == ["A Paris H"]


def test_a_seat_row_that_now_plays_another_power_is_read_anew(game, seat) -> None:
    """A kept row names the seat's power; the seat's row playing another since (a player
    seated again takes their old row) must not have its orders stored for the old power."""
    france = seat(game, "France")
    client = _client(france.user)
    assert _put(client, game, ["A Paris - Burgundy"]).status_code == 200
    key = Token.objects.get(user=france.user).key
    row = list(seats.KEPT_SEATS.get(key, game.pk))
    row[seats.SEAT_LOOKUPS.index("power")] = "Germany"
    seats.KEPT_SEATS.keep(key, game.pk, tuple(row))
    answer = _put(client, game, ["A Paris H"])
    assert answer.status_code == 200, answer.content
    assert answer.json()[0]["power"] == "France"
    assert _stored(game, "France") == ["A Paris H"]
    assert _stored(game, "Germany") == []


def test_the_games_options_changed_since_are_read_anew(game, seat, moderator) -> None:
    france = seat(game, "France")
    client = _client(france.user)
    assert _put(client, game, ["A Paris - Burgundy"]).status_code == 200
    key = Token.objects.get(user=france.user).key
    with mock.patch.object(seats.SEAT_OF_TOKEN, "fetch", wraps=seats.SEAT_OF_TOKEN.fetch) as f:
        Game.objects.filter(pk=game.pk).update(options={"victory_centers": 17})
        assert _put(client, game, ["A Paris H"]).status_code == 200
        assert f.call_count == 1  # read anew once the lock saw other options
    assert seats.KEPT_SEATS.get(key, game.pk) is not None


def test_a_game_that_ended_refuses_as_before(game, seat, moderator) -> None:
    france = seat(game, "France")
    client = _client(france.user)
    assert _put(client, game, ["A Paris - Burgundy"]).status_code == 200
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    answer = _put(client, game, ["A Paris H"])
    assert answer.status_code == 400, answer.content
    assert "not running" in str(answer.json())
    assert _stored(game, "France") == ["A Paris - Burgundy"]


def test_kept_seats_are_bounded() -> None:
    kept = seats.KeptSeats(size=3)
    for n in range(5):
        kept.keep("k", n, (n,))
    assert sorted(kept._rows) == [("k", 2), ("k", 3), ("k", 4)]
    kept.keep("k", 2, (20,))  # kept again: the newest
    kept.keep("k", 5, (5,))
    assert sorted(kept._rows) == [("k", 2), ("k", 4), ("k", 5)]


# -- found by a fresh-context adversary ----------------------------------------------------


def test_a_seat_kept_before_the_game_started_does_not_break_the_next_submission(
    make_user, moderator
) -> None:
    from games import engine

    game = services.create_game(moderator, name="Forming", variant="standard")
    users = []
    for power in engine.powers(game):
        users.append(make_user(f"early_{power.lower()}"))
        services.join_game(game, users[-1], [power])
    client = _client(users[0])
    game = Game.objects.get(pk=game.pk)
    if game.status == Game.Status.FORMING:
        assert _put(client, game, ["A Paris H"]).status_code == 400
        services.start_game(game, moderator)
    power = Game.objects.get(pk=game.pk).memberships.get(user=users[0]).power
    unit = {"France": "A Paris H", "Germany": "A Berlin H", "Austria": "A Vienna H"}
    orders = [unit.get(power, "F London H" if power == "England" else "A Rome H")]
    for _ in range(3):
        assert _put(client, game, orders).status_code == 200


@pytest.mark.parametrize(
    "body, headers",
    [
        ({"orders": "not a list"}, {}),
        ({"orders": 5}, {}),
        ({"orders": ["A Paris H"]}, {"HTTP_IF_MATCH": "garbage"}),
    ],
)
def test_a_deleted_token_is_a_401_whatever_the_body(game, seat, body, headers) -> None:
    france = seat(game, "France")
    client = _client(france.user)
    assert _put(client, game, ["A Paris - Burgundy"]).status_code == 200
    Token.objects.filter(user=france.user).delete()
    answer = client.put(f"/api/games/{game.pk}/orders/", body, format="json", **headers)
    assert answer.status_code == 401, answer.content
    assert answer.json()["detail"] == "Invalid token."
    assert "Cache-Control" not in answer


def test_an_inactive_users_malformed_submission_is_a_401(game, seat) -> None:
    france = seat(game, "France")
    client = _client(france.user)
    assert _put(client, game, ["A Paris - Burgundy"]).status_code == 200
    type(france.user).objects.filter(pk=france.user.pk).update(is_active=False)
    answer = client.put(f"/api/games/{game.pk}/orders/", {"orders": 5}, format="json")
    assert answer.status_code == 401, answer.content
    assert answer.json()["detail"] == "User inactive or deleted."


def test_an_inactive_user_whose_seat_was_removed_is_a_401(game, seat, moderator) -> None:
    france = seat(game, "France")
    client = _client(france.user)
    assert _put(client, game, ["A Paris - Burgundy"]).status_code == 200
    services.remove_player(game, moderator, "France")
    type(france.user).objects.filter(pk=france.user.pk).update(is_active=False)
    assert _put(client, game, ["A Paris H"]).status_code == 401


def test_a_replaced_players_malformed_submission_is_a_403(game, seat, moderator, make_user):
    france = seat(game, "France")
    client = _client(france.user)
    assert _put(client, game, ["A Paris - Burgundy"]).status_code == 200
    services.replace_player(game, moderator, "France", make_user("newcomer2"))
    answer = client.put(f"/api/games/{game.pk}/orders/", {"orders": 5}, format="json")
    assert answer.status_code == 403, answer.content


def test_a_revoked_token_spends_nothing_of_its_owners_budget(game, seat, settings) -> None:
    from django.core.cache import cache

    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "orders": "3/min"},
    }
    cache.clear()
    france = seat(game, "France")
    leaked = _client(france.user)
    assert _put(leaked, game, ["A Paris H"]).status_code == 200  # one of three spent
    Token.objects.filter(user=france.user).delete()
    owner = _client(france.user)  # a new token
    for body in ({"orders": {}}, {"orders": ["A Paris H"]}, {"orders": {}}):
        answer = leaked.put(f"/api/games/{game.pk}/orders/", body, format="json")
        assert answer.status_code == 401, answer.content
    assert _put(owner, game, ["A Paris - Burgundy"]).status_code == 200
    assert _put(owner, game, ["A Paris H"]).status_code == 200
    assert _put(owner, game, ["A Paris H"]).status_code == 429  # the fourth in the minute


def test_a_throttled_request_on_a_revoked_token_is_a_401(game, seat, settings) -> None:
    from django.core.cache import cache

    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "orders": "1/min"},
    }
    cache.clear()
    france = seat(game, "France")
    client = _client(france.user)
    assert _put(client, game, ["A Paris H"]).status_code == 200
    assert _put(client, game, ["A Paris H"]).status_code == 429
    Token.objects.filter(user=france.user).delete()
    assert _put(client, game, ["A Paris H"]).status_code == 401


def _other_connection():
    import psycopg
    from django.db import connection

    params = connection.get_connection_params()
    for name in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(name, None)
    return psycopg.connect(**params)


@pytest.mark.django_db(transaction=True)  # two connections must see each other's commits
@pytest.mark.parametrize(
    "change",
    [
        "UPDATE games_membership SET removed = true, status = 'civil_disorder' WHERE id = %s",
        "UPDATE games_membership SET status = 'replaced' WHERE id = %s",
    ],
)
def test_a_seat_changed_while_the_submission_waits_for_the_lock_is_refused(
    game, seat, change, require_postgres
) -> None:
    """The seat is read after the game's lock is taken, in a statement of its own: one that
    waited for the lock would answer the seat as it was when it began."""
    import threading

    from games.models import Membership

    france = Membership.objects.select_related("game__current_phase").get(
        pk=seat(game, "France").pk
    )
    other = _other_connection()
    other.execute("SELECT id FROM games_game WHERE id = %s FOR UPDATE", (game.pk,))
    other.execute(change, (france.pk,))
    threading.Timer(0.5, other.commit).start()
    try:
        with pytest.raises(services.GameError, match="no longer play France"):
            services.submit_orders(france, ["A Paris H"], phase=france.game.current_phase)
    finally:
        other.close()
    assert _stored(game, "France") == []
