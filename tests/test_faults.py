"""Faults the server must survive cleanly (the long trials are in bench/faults.py).

- The database unreachable: a JSON 503 with Retry-After, never a 500.
- Two tabs (two API clients) of one player: PUT replaces all of the power's orders, so a tab
  that sends ``If-Match`` with the ETag it loaded is refused (412) when the other tab changed
  the orders meanwhile, instead of silently overwriting them. Without ``If-Match`` the last
  PUT wins, as before.
"""

from __future__ import annotations

import json

import pytest
from django.db import InterfaceError, OperationalError
from django.test import RequestFactory

from games import services
from games.middleware import DatabaseUnavailableMiddleware
from games.seats import TokenAuthentication  # the one settings name


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_database_errors_become_a_json_503_with_retry_after(error: type[Exception]) -> None:
    middleware = DatabaseUnavailableMiddleware(lambda request: None)
    request = RequestFactory().get("/api/games/")
    response = middleware.process_exception(request, error("connection refused"))
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
    assert "unavailable" in json.loads(response.content)["detail"]


def test_other_errors_are_left_to_django() -> None:
    middleware = DatabaseUnavailableMiddleware(lambda request: None)
    request = RequestFactory().get("/api/games/")
    assert middleware.process_exception(request, ValueError("a bug")) is None


@pytest.mark.django_db
def test_the_api_answers_503_while_the_database_is_down(monkeypatch, client) -> None:
    def down(self, key):
        raise OperationalError('connection to server at "127.0.0.1" failed: Connection refused')

    monkeypatch.setattr(TokenAuthentication, "authenticate_credentials", down)
    response = client.get("/api/games/", HTTP_AUTHORIZATION="Token abc")
    assert response.status_code == 503
    assert response["Content-Type"] == "application/json"
    assert response["Retry-After"] == "5"
    assert response.json()["detail"]


def texts(game, seat, power: str) -> list[str]:
    return list(
        seat(game, power)
        .orders.filter(phase_id=game.current_phase_id)
        .order_by("position")
        .values_list("text", flat=True)
    )


def test_two_tabs_editing_different_units_keep_both_orders(game, seat, api) -> None:
    user = seat(game, "Austria").user
    tab_a, tab_b = api(user), api(user)
    url = f"/api/games/{game.pk}/orders/"
    seen_a, seen_b = tab_a.get(url), tab_b.get(url)
    assert seen_a["ETag"] == seen_b["ETag"]

    sent = tab_a.put(url, {"orders": ["A Vienna - Galicia"]}, HTTP_IF_MATCH=seen_a["ETag"])
    assert sent.status_code == 200
    assert sent["ETag"] != seen_a["ETag"]

    # Tab B still shows the old (empty) orders: its PUT would drop Vienna's, so it is refused.
    stale = tab_b.put(url, {"orders": ["A Budapest - Serbia"]}, HTTP_IF_MATCH=seen_b["ETag"])
    assert stale.status_code == 412
    assert texts(game, seat, "Austria") == ["A Vienna - Galicia"]

    # Tab B reloads, sees tab A's order and sends the full list with its own added.
    seen_b = tab_b.get(url)
    orders = [o["text"] for o in seen_b.data] + ["A Budapest - Serbia"]
    sent = tab_b.put(url, {"orders": orders}, HTTP_IF_MATCH=seen_b["ETag"])
    assert sent.status_code == 200
    assert texts(game, seat, "Austria") == ["A Vienna - Galicia", "A Budapest - Serbia"]

    # Now tab A is the stale one.
    stale = sent["ETag"].removesuffix('"') + 'x"'  # another version's tag
    late = tab_a.put(url, {"orders": ["F Trieste - Albania"]}, HTTP_IF_MATCH=stale)
    assert late.status_code == 412
    assert tab_a.get(url)["ETag"] == sent["ETag"]


def test_without_if_match_the_last_put_wins(game, seat, api) -> None:
    user = seat(game, "Austria").user
    url = f"/api/games/{game.pk}/orders/"
    assert api(user).put(url, {"orders": ["A Vienna - Galicia"]}).status_code == 200
    assert api(user).put(url, {"orders": ["A Budapest - Serbia"]}).status_code == 200
    assert texts(game, seat, "Austria") == ["A Budapest - Serbia"]
    assert api(user).put(url, {"orders": []}, HTTP_IF_MATCH="*").status_code == 200


def test_a_stale_version_changes_nothing(game, seat) -> None:
    austria = seat(game, "Austria")
    before = services.orders_version(game.current_phase_id, "Austria")
    services.submit_orders(austria, ["A Vienna - Galicia"], version=before)
    after = services.orders_version(game.current_phase_id, "Austria")
    assert after != before
    with pytest.raises(services.OrdersChanged):
        services.submit_orders(austria, ["A Vienna - Tyrolia"], version=before)
    assert texts(game, seat, "Austria") == ["A Vienna - Galicia"]
    # The same orders sent again keep their version: a second tab that saved them unchanged
    # leaves the first one's version current (an adversary found both refused as stale).
    services.submit_orders(austria, ["A Vienna - Galicia"], version=after)
    assert services.orders_version(game.current_phase_id, "Austria") == after
    services.submit_orders(austria, ["A Vienna - Galicia"], version=after)
    # Other orders, or the same ones in another order or spelling, are another version.
    services.submit_orders(austria, ["A Vienna - Galicia", "A Budapest H"], version=after)
    two = services.orders_version(game.current_phase_id, "Austria")
    assert two != after
    services.submit_orders(austria, ["A Budapest H", "A Vienna - Galicia"], version=two)
    assert services.orders_version(game.current_phase_id, "Austria") != two
    with pytest.raises(services.OrdersChanged):
        services.submit_orders(austria, ["A Vienna - Bohemia"], version=two)


def test_a_version_tells_nothing_of_other_players_saves(game, seat) -> None:
    """The version ended in the newest order's id, a count of every order saved on the site:
    read before and after, it told a player how busy everyone else had been. It is signed now;
    the same rows still give the same version, and new rows a new one."""
    austria, england = seat(game, "Austria"), seat(game, "England")
    saved = services.submit_orders(austria, ["A Vienna - Galicia"])
    version = services.orders_version(game.current_phase_id, "Austria")
    assert version == services.orders_version(game.current_phase_id, "Austria", saved)
    assert str(saved[0].pk) not in version.split(".")[2:]
    for _ in range(3):  # others save; this power's version does not move
        services.submit_orders(england, ["F London - North Sea"])
    assert services.orders_version(game.current_phase_id, "Austria") == version
    assert services.orders_version(game.current_phase_id, "England") != version
