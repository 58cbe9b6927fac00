"""Error pages come in the site's frame (header, navigation, a way back), never as bare text:
a non-moderator opening the moderator console got "Only the moderator may do this." in black
on a blank page."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token

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


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH", "FROB"])
@pytest.mark.parametrize("path", ["/", "/games/{pk}/", "/leaderboard/", "/games/{pk}/board.svg"])
def test_a_page_sent_another_method_than_get_or_post_is_a_405(make_game, method, path) -> None:
    """Found by an adversary: a PUT, a DELETE or a made-up method rendered the page."""
    game = make_game("colonial")
    client = Client()
    client.force_login(game.creator)
    response = client.generic(method, path.format(pk=game.pk))
    framed(response, 405)
    assert response["Allow"] == "GET, HEAD, POST, OPTIONS"
    options = client.options(path.format(pk=game.pk))
    assert options.status_code == 200 and options["Allow"] == "GET, HEAD, POST, OPTIONS"
    assert options.content == b""


def test_the_api_answers_its_own_methods(api, make_user) -> None:
    response = api(make_user("reader")).delete("/api/games/")
    assert response.status_code == 405
    assert response["Content-Type"].startswith("application/json")


def test_an_unknown_address_is_framed_but_the_api_answers_json(client, make_user) -> None:
    client.force_login(make_user("reader"))
    framed(client.get("/no/such/page/"), 404)
    response = client.get("/api/no/such/thing/")
    assert response.status_code == 404 and response["Content-Type"] == "application/json"


def test_a_nul_in_the_url_gets_the_sites_error_page(client) -> None:
    """Refused before the request is read, it was bare text; the API still answers JSON."""
    html = framed(client.get("/games/%00/"), 400)
    assert "A NUL character is not allowed in a URL." in html
    assert 'rel="stylesheet"' in html
    client.cookies["django_language"] = "ja"
    assert "A NUL character" not in framed(client.get("/games/1/?x=%00"), 400)
    response = client.get("/api/games/?page=%00")
    assert response.status_code == 400 and response["Content-Type"] == "application/json"


def test_the_500_page_is_the_sites_and_needs_no_database(rf, django_assert_num_queries) -> None:
    """Django's bare "Server Error (500)" before; drawn now without the database, the session
    or the user (any of them may be what failed), with the request id to quote."""
    from django.conf import settings
    from django.urls import get_resolver

    from games import views

    assert get_resolver(settings.ROOT_URLCONF).urlconf_module.handler500 == (
        "games.views.server_error"
    )
    request = rf.get("/games/1/")  # no session, no user
    request.request_id = "abc123"
    with django_assert_num_queries(0):
        response = views.server_error(request)
    html = framed(response, 500)
    assert "it has been logged" in html and "abc123" in html and 'rel="stylesheet"' in html
    api = views.server_error(rf.get("/api/games/"))
    assert api.status_code == 500 and api["Content-Type"] == "application/json"


def test_a_500_page_that_cannot_be_drawn_is_still_a_page(rf, monkeypatch) -> None:
    from games import errors, views

    def broken(*args, **kwargs):
        raise RuntimeError("no templates today")

    monkeypatch.setattr(errors, "render_to_string", broken)
    response = views.server_error(rf.get("/games/1/"))
    assert response.status_code == 500 and "<h1>Server error</h1>" in response.content.decode()


@pytest.mark.parametrize("path", ["/api/no/such/thing/", "/api/no", "/api/games/1/nope/", "/api/x"])
def test_an_unknown_api_address_is_json_with_debug_on_too(api, make_user, path: str) -> None:
    """``make run`` serves with DEBUG on, and Django then answered its HTML debug page."""
    from django.test import override_settings

    signed_in = api(make_user("reader"))
    token = Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=make_user('bot')).key}")
    with override_settings(DEBUG=True):
        for client in (Client(), signed_in, token):
            for method in (client.get, client.post, client.put, client.delete):
                response = method(path)
                assert response.status_code == 404, (path, method)
                assert response["Content-Type"] == "application/json", (path, method)
                assert response.json() == {"detail": "Not found."}
        # Outside the API the debug page stays, as a developer wants it.
        page = Client().get("/no/such/page/")
        assert page.status_code == 404 and b"Page not found" in page.content
