"""Error pages come in the site's frame (header, navigation, a way back), never as bare text:
a non-moderator opening the moderator console got "Only the moderator may do this." in black
on a blank page."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def framed(response, status: int) -> str:
    assert response.status_code == status
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert '<header class="top">' in html and "error-page" in html, html[:300]
    return html


def test_the_moderator_console_refuses_a_player_in_the_sites_frame(make_game, seat) -> None:
    game = make_game("colonial")
    player = Client()
    player.force_login(seat(game, "Russia").user)
    html = framed(player.get(f"/games/{game.pk}/moderate/"), 403)
    assert "Only the moderator may do this." in html
    assert 'href="/"' in html  # back to the lobby


def test_a_refusal_is_in_the_page_language(make_game, seat) -> None:
    game = make_game("colonial")
    player = Client()
    player.force_login(seat(game, "Russia").user)
    player.cookies["django_language"] = "ja"
    html = framed(player.get(f"/games/{game.pk}/moderate/"), 403)
    assert "Only the moderator may do this." not in html


def test_a_get_to_a_form_address_is_framed_and_keeps_allow(make_game) -> None:
    game = make_game("colonial")
    client = Client()
    client.force_login(game.creator)
    response = client.get(f"/games/{game.pk}/webhooks/")
    framed(response, 405)
    assert "POST" in response["Allow"]


def test_an_unknown_address_is_framed_but_the_api_answers_json(client, make_user) -> None:
    client.force_login(make_user("reader"))
    framed(client.get("/no/such/page/"), 404)
    response = client.get("/api/no/such/thing/")
    assert response.status_code == 404 and response["Content-Type"] == "application/json"
