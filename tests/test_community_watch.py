"""Public games and spectators (issue #19 item 2): anyone, signed in or not, watches a public
game's board, history and public press; never unprocessed orders, private press, or names in
an anonymous game. A private game is a 404 to a signed-out visitor."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from django.urls import reverse

from games import services
from games.models import Game

SECRET_ORDER = "A Paris - Burgundy"
PUBLIC_PRESS = "Greetings to all the courts of Europe"
PRIVATE_PRESS = "Secretly, I will move to Burgundy"


@pytest.fixture
def watched(make_game, seat):
    """A public, anonymous standard game: France has orders in and press of both kinds."""
    game = make_game("standard", public=True, anonymous=True)
    france = seat(game, "France")
    services.submit_orders(france, [SECRET_ORDER])
    services.send_message(game, france.user, PUBLIC_PRESS)
    services.send_message(game, france.user, PRIVATE_PRESS, ["Germany"])
    return game


@pytest.fixture
def private(make_game):
    return make_game("standard")


def test_anonymous_api_lists_and_opens_only_public_games(api, watched, private) -> None:
    anyone = api()
    listed = anyone.get("/api/games/")
    assert listed.status_code == 200
    assert [g["id"] for g in listed.json()["results"]] == [watched.pk]
    detail = anyone.get(f"/api/games/{watched.pk}/")
    assert detail.status_code == 200
    body = detail.json()
    assert body["public"] is True and body["my_power"] is None
    # An anonymous game hides who plays which power from spectators.
    assert {p["player"] for p in body["powers"]} == {None}
    for path in ["", "orders/", "messages/", "phases/", "phases/0/", "events/"]:
        assert anyone.get(f"/api/games/{private.pk}/{path}").status_code == 404, path


def test_spectators_see_no_secret_until_processed(api, watched, make_user, moderator) -> None:
    for viewer in [api(), api(make_user("onlooker"))]:
        assert viewer.get(f"/api/games/{watched.pk}/orders/").json() == []
        phase = viewer.get(f"/api/games/{watched.pk}/phases/0/").json()
        assert phase["orders"] == []
        press = viewer.get(f"/api/games/{watched.pk}/messages/").json()["results"]
        assert [m["body"] for m in press] == [PUBLIC_PRESS]
        assert press[0]["sender"] is None  # anonymous game: no name
    services.process_now(watched, moderator)
    seen = api().get(f"/api/games/{watched.pk}/phases/0/").json()["orders"]
    assert [o["canonical"] for o in seen] == [SECRET_ORDER]


def test_signed_out_visitor_cannot_write(api, watched) -> None:
    anyone = api()
    put = anyone.put(f"/api/games/{watched.pk}/orders/", {"orders": ["A Paris H"]}, format="json")
    assert put.status_code == 401
    post = anyone.post(f"/api/games/{watched.pk}/messages/", {"body": "hi"}, format="json")
    assert post.status_code == 401
    assert anyone.post("/api/games/", {"name": "x", "variant": "standard"}).status_code == 401


def test_live_stream_gives_spectators_public_press_only(api, watched) -> None:
    answer = api().get(f"/api/games/{watched.pk}/events/?since=0-0")
    assert answer.status_code == 200
    text = b"".join(answer.streaming_content).decode()
    assert PUBLIC_PRESS in text and PRIVATE_PRESS not in text
    assert SECRET_ORDER not in text and "A PAR" not in text


def test_anonymous_page_shows_the_game_and_nothing_secret(client, watched) -> None:
    page = client.get(reverse("game", args=[watched.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert watched.name in html and PUBLIC_PRESS in html
    assert PRIVATE_PRESS not in html and "Burgundy" not in html
    for seat in watched.memberships.all():
        assert seat.user.username not in html
    assert client.get(reverse("replay-json", args=[watched.pk])).status_code == 200


def test_anonymous_sees_a_public_board_only(client, make_game) -> None:
    shown, hidden = make_game("colonial", public=True), make_game("colonial")
    board = client.get(reverse("board", args=[shown.pk]) + "?phase=0")
    assert board.status_code == 200 and b"<svg" in board.content
    assert client.get(reverse("board", args=[hidden.pk]) + "?phase=0").status_code == 404


def test_private_game_page_tells_a_stranger_nothing(client, private, watched) -> None:
    """Signed out, a private game's page is a 404, exactly as a number with no game is, and
    offers to sign in and come back."""
    missing = Game.objects.order_by("-pk").first().pk + 100
    answers: list = []
    for pk in (private.pk, missing):
        for url in (reverse("game", args=[pk]), reverse("replay-json", args=[pk])):
            answer = client.get(url)
            assert answer.status_code == 404
            sign_in = reverse("login") + "?" + urlencode({"next": url})
            assert sign_in.replace("&", "&amp;") in answer.content.decode()
            answers.append(answer.templates[0].name if answer.templates else None)
    assert answers == ["games/not_found.html"] * 4


def test_lobby_lists_games_to_watch(client, watched, private, make_user) -> None:
    client.force_login(make_user("onlooker"))
    html = client.get(reverse("lobby")).content.decode()
    watch = html[html.index('id="watch"') :]
    assert reverse("game", args=[watched.pk]) in watch
    assert reverse("game", args=[private.pk]) not in watch


def test_a_game_made_public_on_the_page(client, make_user) -> None:
    client.force_login(make_user("host"))
    form = {
        "name": "Open table",
        "variant": "colonial",
        "movement_minutes": 1440,
        "retreats_minutes": 720,
        "adjustments_minutes": 720,
        "press": "full",
        "civil_disorder_after": 2,
        "public": "on",
    }
    assert client.post(reverse("create-game"), form).status_code == 302
    game = Game.objects.get(name="Open table")
    assert game.public
    client.logout()
    assert client.get(reverse("game", args=[game.pk])).status_code == 200


def test_another_users_sandbox_is_not_found(client, make_user) -> None:
    from games.sandbox import create_sandbox

    game = create_sandbox(make_user("ada"), "colonial")
    client.force_login(make_user("bob"))
    assert client.get(reverse("game", args=[game.pk])).status_code == 404
    assert client.get(reverse("sandbox", args=[game.pk])).status_code == 404
