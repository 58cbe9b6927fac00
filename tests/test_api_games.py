"""The REST API end to end: sign-up, a game from creation to processed phases, visibility."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from games import engine
from games.models import Game, Order

pytestmark = pytest.mark.django_db


def signup(name: str) -> APIClient:
    client = APIClient()
    response = client.post(
        "/api/auth/signup/",
        {"username": name, "password": "a long pass phrase", "email": f"{name}@example.com"},
    )
    assert response.status_code == 201, response.data
    token = client.post(
        "/api/auth/token/", {"username": name, "password": "a long pass phrase"}
    ).data["token"]
    assert token == response.data["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def test_signup_rejects_weak_passwords_and_taken_names() -> None:
    client = APIClient()
    response = client.post("/api/auth/signup/", {"username": "bob", "password": "123"})
    assert response.status_code == 400
    assert "password" in response.data or "non_field_errors" in response.data
    signup("bob")
    response = client.post("/api/auth/signup/", {"username": "bob", "password": "x" * 20})
    assert response.status_code == 400 and "username" in response.data


def test_a_game_through_the_api() -> None:
    moderator = signup("moderator")
    response = moderator.post(
        "/api/games/",
        {"name": "Far East", "variant": "colonial", "movement_minutes": 60, "press": "full"},
        format="json",
    )
    assert response.status_code == 201, response.data
    game_id = response.data["id"]
    assert response.data["status"] == "forming" and response.data["is_moderator"]

    powers = engine.powers(Game.objects.get(pk=game_id))
    players = {}
    for power in powers:
        client = signup(f"player_{power.lower()}")
        response = client.post(f"/api/games/{game_id}/join/", {"preferences": [power]})
        assert response.status_code == 200, response.data
        players[power] = client

    game = players["Japan"].get(f"/api/games/{game_id}/").data
    assert game["status"] == "active"
    assert game["my_power"] == "Japan"
    assert game["current_phase"]["year"] == 1870
    assert game["current_phase"]["deadline"]
    assert {p["power"] for p in game["powers"]} == set(powers)
    assert next(p for p in game["powers"] if p["power"] == "Japan")["supply_centers"] == 4

    response = players["Japan"].put(
        f"/api/games/{game_id}/orders/",
        {"orders": ["A Kyoto - Akita", "A Moscow - Peking", "F Tokyo H"]},
        format="json",
    )
    assert response.status_code == 200, response.data
    assert [o["valid"] for o in response.data] == [True, False, True]
    assert response.data[0]["canonical"] == "A Kyoto - Akita"
    assert response.data[1]["reason"]

    # Orders are private until the phase is processed.
    assert players["Russia"].get(f"/api/games/{game_id}/orders/").data == []
    assert len(players["Japan"].get(f"/api/games/{game_id}/orders/").data) == 3
    assert len(moderator.get(f"/api/games/{game_id}/orders/").data) == 3
    phase0 = players["Russia"].get(f"/api/games/{game_id}/phases/0/").data
    assert phase0["orders"] == [] and phase0["results"] is None

    ready = players["Japan"].post(
        f"/api/games/{game_id}/ready/", {"ready": True, "phase": 0}, format="json"
    )
    assert ready.data == {"ready": True, "phase": 0}

    response = moderator.post(
        f"/api/games/{game_id}/moderation/process/", {"phase": 0}, format="json"
    )
    assert response.status_code == 200, response.data
    assert response.data["current_phase"]["index"] == 1
    assert response.data["current_phase"]["season"] == "fall"

    phase0 = players["Russia"].get(f"/api/games/{game_id}/phases/0/").data
    assert [o["canonical"] for o in phase0["orders"]] == [
        "A Kyoto - Akita",
        "A Moscow - Peking",
        "F Tokyo H",
    ]
    assert phase0["orders"][0]["result"] == "succeeds"
    assert phase0["results"]["next_phase"]["season"] == "fall"
    phases = players["Russia"].get(f"/api/games/{game_id}/phases/").data["results"]
    assert [p["index"] for p in phases] == [0, 1]
    assert players["Russia"].get(f"/api/games/{game_id}/phases/7/").status_code == 404


def test_bad_input_gets_field_errors(api, game, seat) -> None:
    client = api(seat(game, "France").user)
    url = f"/api/games/{game.pk}"
    cases = [
        ("post", "/api/games/", {"name": "", "variant": "atlantis", "movement_minutes": 0}),
        ("post", "/api/games/", {"name": "x", "variant": "standard", "options": [1]}),
        ("put", f"{url}/orders/", {"orders": "A Paris H"}),
        ("put", f"{url}/orders/", {"orders": ["x" * 300]}),
        ("put", f"{url}/orders/", {}),
        ("post", f"{url}/messages/", {"body": ""}),
        ("post", f"{url}/messages/", {"body": "hi", "recipients": ["Atlantis"]}),
        ("post", f"{url}/draw/", {"draw": "perhaps"}),
        ("post", f"{url}/draw/", {"concede_to": "Atlantis"}),
        ("post", f"{url}/join/", {"preferences": "France"}),
        ("post", f"{url}/join/", {}),
    ]
    for method, path, data in cases:
        response = getattr(client, method)(path, data, format="json")
        assert response.status_code == 400, (path, data, response.data)
        assert response.data, (path, data)
    response = client.post("/api/games/", {"name": "", "variant": "atlantis"}, format="json")
    assert set(response.data) >= {"name", "variant"}


def test_moderation_input_is_checked(api, game, moderator) -> None:
    client = api(moderator)
    url = f"/api/games/{game.pk}/moderation"
    assert client.post(f"{url}/rollback/", {}).status_code == 400
    assert client.post(f"{url}/rollback/", {"phase": 5}).status_code == 400
    assert client.post(f"{url}/replace/", {"power": "France", "username": "nobody"}).status_code
    assert client.post(f"{url}/deadline/", {}).status_code == 400
    assert client.post(f"{url}/resume/").status_code == 400  # not paused
    assert client.post(f"{url}/explode/").status_code == 404
    response = client.post(f"{url}/deadline/", {"minutes": 30})
    assert response.status_code == 200
    assert client.post(f"{url}/pause/").data["status"] == "paused"
    assert client.post(f"{url}/resume/").data["status"] == "active"
    assert client.post(f"{url}/end/", {"winner": "France"}).data["result"]["powers"] == ["France"]


def test_private_press_reaches_only_sender_and_recipients(api, game, seat, moderator) -> None:
    france, england, germany = (api(seat(game, p).user) for p in ("France", "England", "Germany"))
    url = f"/api/games/{game.pk}/messages/"
    response = france.post(url, {"body": "Channel?", "recipients": ["England"]}, format="json")
    assert response.status_code == 201, response.data
    assert france.post(url, {"body": "Hello all"}, format="json").status_code == 201
    assert [m["body"] for m in england.get(url).data["results"]] == ["Channel?", "Hello all"]
    assert [m["body"] for m in france.get(url).data["results"]] == ["Channel?", "Hello all"]
    assert [m["body"] for m in germany.get(url).data["results"]] == ["Hello all"]
    assert api(moderator).get(url).data["count"] == 2
    assert england.get(url).data["results"][0]["sender_power"] == "France"


def test_press_modes(api, make_game, seat) -> None:
    game = make_game(press="public")
    client = api(seat(game, "France").user)
    url = f"/api/games/{game.pk}/messages/"
    assert (
        client.post(url, {"body": "psst", "recipients": ["Italy"]}, format="json").status_code
        == 400
    )
    assert client.post(url, {"body": "all"}, format="json").status_code == 201
    game = make_game(press="none")
    client = api(seat(game, "France").user)
    assert client.post(f"/api/games/{game.pk}/messages/", {"body": "x"}).status_code == 400


def test_anonymous_games_hide_players_until_the_end(api, make_game, seat, moderator) -> None:
    game = make_game(anonymous=True)
    france = api(seat(game, "France").user)
    url = f"/api/games/{game.pk}/"
    names = {p["power"]: p["player"] for p in france.get(url).data["powers"]}
    assert names["France"] == seat(game, "France").user.username
    assert names["England"] is None
    france.post(f"{url}messages/", {"body": "hi"}, format="json")
    italy = api(seat(game, "Italy").user)
    assert italy.get(f"{url}messages/").data["results"][0]["sender"] is None
    assert all(p["player"] for p in api(moderator).get(url).data["powers"])
    api(moderator).post(f"{url}moderation/draw/")
    assert all(p["player"] for p in france.get(url).data["powers"])


def test_draw_votes_through_the_api(api, game, seat) -> None:
    powers = engine.powers(game)
    for power in powers:
        response = api(seat(game, power).user).post(
            f"/api/games/{game.pk}/draw/", {"draw": True}, format="json"
        )
        assert response.status_code == 200
    assert response.data == {"game_over": True}
    data = api(seat(game, "France").user).get(f"/api/games/{game.pk}/").data
    assert data["status"] == "finished" and data["result"]["kind"] == "draw"


def test_take_over_through_join(api, game, moderator, make_user) -> None:
    api(moderator).post(f"/api/games/{game.pk}/moderation/remove/", {"power": "Turkey"})
    newcomer = api(make_user("newcomer"))
    response = newcomer.post(f"/api/games/{game.pk}/join/", {"power": "Turkey"})
    assert response.status_code == 200, response.data
    assert response.data["my_power"] == "Turkey"


@pytest.mark.parametrize("status", ["cancelled", "finished"])
def test_joining_a_game_over_says_it_is_over(api, game, make_user, status) -> None:
    """Found by an adversary: joining a cancelled game said to take over a power in civil
    disorder, which a game over has none to offer."""
    game.status = status
    game.save(update_fields=["status"])
    response = api(make_user("late")).post(f"/api/games/{game.pk}/join/", {})
    assert response.status_code == 400
    assert response.data["detail"] == "the game is over: no seat is open to join or to take over"


def test_variants_and_schema(api, make_user) -> None:
    client = api()
    variants = client.get("/api/variants/").data
    assert {v["id"] for v in variants} >= {"standard", "colonial"}
    colonial = client.get("/api/variants/colonial/").data
    assert colonial["victory_centers"] == 30 or colonial["victory_centers"] > 0
    assert client.get("/api/variants/atlantis/").status_code == 404
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert schema.status_code == 200
    assert "/api/games/{id}/orders/" in schema.json()["paths"]
    assert client.get("/api/docs/").status_code == 200


def test_notification_settings(api, make_user) -> None:
    client = api(make_user("u"))
    assert client.get("/api/auth/notifications/").data["press_digest"] is True
    response = client.put("/api/auth/notifications/", {"press_digest": False}, format="json")
    assert response.status_code == 200 and response.data["press_digest"] is False
    assert (response.data["time_zone"], response.data["palette"]) == ("UTC", "default")
    response = client.put(
        "/api/auth/notifications/",
        {"time_zone": "Asia/Tokyo", "palette": "colour-blind"},
        format="json",
    )
    assert response.status_code == 200 and response.data["time_zone"] == "Asia/Tokyo"
    bad = client.put("/api/auth/notifications/", {"time_zone": "Mars/Olympus"}, format="json")
    assert bad.status_code == 400 and "time_zone" in bad.data


def test_the_email_address_is_set_changed_and_cleared_through_the_settings(api, make_user):
    """No way to add or change one's address after sign-up: ``{"email": ...}`` was a 400. It is
    read and written as the account's address, checked as an e-mail address, may be cleared,
    and an unknown field is still refused."""
    user = make_user("u")
    client = api(user)
    url = "/api/auth/notifications/"
    assert client.get(url).data["email"] == user.email
    changed = client.patch(url, {"email": "new@Example.COM"}, format="json")
    assert changed.status_code == 200 and changed.data["email"] == "new@example.com"
    user.refresh_from_db()
    assert user.email == "new@example.com"  # the domain in lower case, as at sign-up
    assert client.put(url, {"press_digest": False}, format="json").data["email"] == user.email
    for bad in ("not an address", "a@", 5, None, "x" * 250 + "@e.co"):
        refused = client.put(url, {"email": bad}, format="json")
        assert refused.status_code == 400 and "email" in refused.json(), bad
    user.refresh_from_db()
    assert user.email == "new@example.com"
    cleared = client.put(url, {"email": ""}, format="json")
    assert cleared.status_code == 200 and cleared.data["email"] == ""
    user.refresh_from_db()
    assert user.email == ""
    unknown = client.put(url, {"emial": "a@example.com"}, format="json")
    assert unknown.status_code == 400 and "emial" in unknown.json()
    body = client.get("/api/schema/?format=json").json()["components"]["schemas"]
    assert "email" in body["PatchedNotificationSettingsRequest"]["properties"]


def test_game_list_filters_by_status(api, game, moderator) -> None:
    client = api(moderator)
    assert [g["id"] for g in client.get("/api/games/?status=active").data["results"]] == [game.pk]
    assert client.get("/api/games/?status=forming").data["results"] == []


def test_odd_order_text_is_answered_not_crashed_on(api, game, seat) -> None:
    client = api(seat(game, "France").user)
    odd = [
        "",
        "   ",
        "A",
        "F Brest - - -",
        "Build A Paris",
        "A Paris S",
        "ñ∑ Pàris → Bür",
        "A " * 90,
    ]
    response = client.put(f"/api/games/{game.pk}/orders/", {"orders": odd})
    assert response.status_code in (200, 400), response.content
    response = client.put(f"/api/games/{game.pk}/orders/", {"orders": odd[2:]})
    assert response.status_code == 200
    assert not any(o["valid"] for o in response.data)


def test_schema_has_no_warnings(tmp_path) -> None:
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "s.yml"))


def test_anonymous_games_hide_their_moderator_until_the_end(
    api, client, make_game, seat, moderator, make_user
) -> None:
    """A creator who also plays would be named as one of the players; so the moderator's name
    stays hidden from everyone else in the API, the game page, the lobby and the Find page."""
    from games import services

    game = make_game(anonymous=True)
    url = f"/api/games/{game.pk}/"
    france = seat(game, "France").user
    assert api(france).get(url).data["creator"] is None
    assert api(moderator).get(url).data["creator"] == moderator.username
    assert api(make_user("stranger")).get(url).data["creator"] is None

    creator = make_user("creator_zq")
    forming = services.create_game(creator, name="Hidden", variant="standard", anonymous=True)
    client.force_login(france)
    game_page = client.get(f"/games/{game.pk}/").content.decode()
    assert "hidden until the game ends" in game_page
    for page in ("/", "/games/?anonymous=true"):  # the lobby and Find list the forming game
        html = client.get(page).content.decode()
        assert "Hidden" in html and "creator_zq" not in html, page
    assert "creator_zq" not in str(api(france).get("/api/games/").data)
    assert api(creator).get(f"/api/games/{forming.pk}/").data["creator"] == "creator_zq"

    # Nor as the sender of the moderator's press (the page says "Moderator" already).
    services.send_message(game, moderator, "Notice to all", [])
    senders = {m["body"]: m["sender"] for m in api(france).get(f"{url}messages/").data["results"]}
    assert senders["Notice to all"] is None
    mine = api(moderator).get(f"{url}messages/").data["results"]
    assert {m["sender"] for m in mine if m["body"] == "Notice to all"} == {moderator.username}

    api(moderator).post(f"{url}moderation/draw/")
    assert api(france).get(url).data["creator"] == moderator.username
    senders = {m["body"]: m["sender"] for m in api(france).get(f"{url}messages/").data["results"]}
    assert senders["Notice to all"] == moderator.username


def test_a_token_signs_in_as_drf_does_with_the_seat_in_the_same_query(
    game: Game, seat, django_assert_max_num_queries
) -> None:
    """Orders read the token, its user and the seat in one query (games.seats); the answers
    stay DRF's: an unknown token or an inactive user is a 401, a token without a seat here a
    403, and a seat in another game is not this one."""
    from rest_framework.authtoken.models import Token

    from games.seats import TokenAuthentication

    france = seat(game, "France").user
    token = Token.objects.create(user=france).key
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    put = f"/api/games/{game.pk}/orders/"
    body = {"orders": ["A Paris - Burgundy"]}
    with django_assert_max_num_queries(7):  # token+seat, BEGIN, lock, seat, delete, insert, COMMIT
        response = client.put(put, body, format="json")
    assert response.status_code == 200 and response.data[0]["valid"] is True
    assert client.post(put + "check/", body, format="json").status_code == 200
    assert client.get("/api/games/").status_code == 200

    other = Token.objects.create(user=seat(game, "England").user).key
    stranger = APIClient()
    stranger.credentials(HTTP_AUTHORIZATION=f"Token {other}")
    assert stranger.put(put, {"orders": ["A Paris H"]}, format="json").data[0]["valid"] is False

    assert Order.objects.get(power="France").text == "A Paris - Burgundy"

    wrong = APIClient()
    wrong.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    for answer in (wrong.put(put, body, format="json"), wrong.get("/api/games/")):
        assert answer.status_code == 401 and str(answer.data["detail"]) == "Invalid token."

    type(france).objects.filter(pk=france.pk).update(is_active=False)
    for answer in (client.put(put, body, format="json"), client.get("/api/games/")):
        assert answer.status_code == 401
        assert str(answer.data["detail"]) == "User inactive or deleted."
    assert TokenAuthentication.keyword == "Token"


def test_a_token_without_a_seat_in_the_game_is_refused(game: Game, make_user) -> None:
    from rest_framework.authtoken.models import Token

    outsider = make_user("outsider")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=outsider).key}")
    response = client.put(f"/api/games/{game.pk}/orders/", {"orders": []}, format="json")
    assert response.status_code == 403
    assert client.put("/api/games/999999/orders/", {"orders": []}, format="json").status_code == 404


def test_a_token_signs_in_on_routes_whose_game_id_is_an_int(game: Game, seat) -> None:
    """Plain views get the game's id as an int from ``<int:pk>``, viewsets as text."""
    from rest_framework.authtoken.models import Token

    client = APIClient()
    player = seat(game, "France").user
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=player).key}")
    for url in ("requirements/", "webhooks/", "orders/", ""):
        assert client.get(f"/api/games/{game.pk}/{url}").status_code in (200, 403), url


def test_a_vote_is_for_a_draw_or_a_concession_not_both(api, game: Game, seat) -> None:
    url = f"/api/games/{game.pk}/draw/"
    both = api(seat(game, "France").user).post(url, {"draw": True, "concede_to": "England"})
    assert both.status_code == 400 and "not both" in str(both.json())
    assert not game.votes.exists()


def test_a_moderator_who_plays_an_anonymous_game_reads_no_names_in_its_log(
    api, client, make_user
) -> None:
    """Found by an adversary: the log said who was handed which seat ("Handed China from
    demo2 to watcherc") to a moderator who also plays, through the API and the console."""
    from games import services

    creator = make_user("creator_anon")
    game = services.create_game(creator, name="Masked", variant="standard", anonymous=True)
    players = {p: make_user(f"masked_{p.lower()}") for p in engine.powers(game)}
    players["England"] = creator  # the moderator plays England
    for power, user in players.items():
        services.join_game(game, user, [power])
    game.refresh_from_db()
    if game.status == Game.Status.FORMING:
        services.start_game(game, creator)
    services.replace_player(game, creator, "France", make_user("newcomer_anon"))
    services.remove_player(game, creator, "Italy")
    log = api(creator).get(f"/api/games/{game.pk}/log/").json()["results"]
    text = str(log)
    for secret in ("masked_france", "newcomer_anon", "masked_italy"):
        assert secret not in text
    assert any(e["action"] == "replace" and e["details"]["new"] is None for e in log)
    client.force_login(creator)
    console = client.get(f"/games/{game.pk}/moderate/").content.decode()
    assert "masked_france" not in console and "newcomer_anon" not in console
    assert "an anonymous player" in console
    # A moderator who does not play sees them, and everyone does once the game is over.
    services.declare_draw(game, creator)
    assert "newcomer_anon" in str(api(creator).get(f"/api/games/{game.pk}/log/").json())


# -- If-Match on PUT .../orders/ (RFC 9110 §13.1.1) ------------------------------------------

CHANGED = "your orders were changed elsewhere; reload them and try again"


def _austria(game: Game, seat, api) -> tuple[APIClient, str]:
    """Austria's player, signed in, after an order saved: the orders' URL."""
    player = api(seat(game, "Austria").user)
    url = f"/api/games/{game.pk}/orders/"
    assert player.put(url, {"orders": ["A Vienna - Galicia"]}).status_code == 200
    return player, url


def _saved(game: Game, seat) -> list[str]:
    rows = seat(game, "Austria").orders.filter(phase_id=game.current_phase_id)
    return list(rows.order_by("position").values_list("text", flat=True))


def test_if_match_star_is_any_version(api, game, seat) -> None:
    player, url = _austria(game, seat, api)
    for star in ("*", " * "):
        sent = player.put(url, {"orders": ["A Vienna - Tyrolia"]}, HTTP_IF_MATCH=star)
        assert sent.status_code == 200, sent.data
    assert _saved(game, seat) == ["A Vienna - Tyrolia"]


@pytest.mark.parametrize(
    "tags",
    [
        '""',  # an empty tag: no version is empty
        'W/""',
        '"*"',  # quoted, an ordinary tag whose value is *, not the wildcard
        '"0.0.0"',
        '"0.0.0", W/"1.2.3",, "a,b"',
    ],
)
def test_if_match_naming_no_current_version_is_412(api, game, seat, tags: str) -> None:
    player, url = _austria(game, seat, api)
    refused = player.put(url, {"orders": ["A Vienna - Tyrolia"]}, HTTP_IF_MATCH=tags)
    assert refused.status_code == 412
    assert refused.json() == {"detail": CHANGED}
    assert _saved(game, seat) == ["A Vienna - Galicia"]


def test_if_match_passes_when_any_tag_of_a_list_is_current(api, game, seat) -> None:
    player, url = _austria(game, seat, api)
    current = player.get(url)["ETag"].removeprefix("W/")  # "<version>"
    for template in (
        '"0.0.0", {current}',
        ' ,W/"0.0.0" ,  W/{current} ,',
        "{current},{current}",
        'W/{current}\t,\t"*"',
    ):
        header = template.format(current=current)
        sent = player.put(url, {"orders": ["A Vienna - Tyrolia"]}, HTTP_IF_MATCH=header)
        assert sent.status_code == 200, (header, sent.data)
        current = sent["ETag"].removeprefix("W/")  # each PUT makes a new version
    assert _saved(game, seat) == ["A Vienna - Tyrolia"]


def test_the_same_orders_saved_again_keep_their_etag(api, game, seat) -> None:
    """Two tabs: the second saves the orders unchanged; the first's ETag is still current, so
    its next save is not refused as stale (nothing it had not seen was overwritten)."""
    first, url = _austria(game, seat, api)
    second = api(seat(game, "Austria").user)
    held = first.get(url)["ETag"]
    again = second.put(url, {"orders": ["A Vienna - Galicia"]}, HTTP_IF_MATCH=held)
    assert again.status_code == 200 and again["ETag"] == held
    assert second.get(url)["ETag"] == held
    mended = first.put(url, {"orders": ["A Vienna - Tyrolia"]}, HTTP_IF_MATCH=held)
    assert mended.status_code == 200 and mended["ETag"] != held
    late = second.put(url, {"orders": ["A Vienna - Bohemia"]}, HTTP_IF_MATCH=held)
    assert late.status_code == 412
    assert _saved(game, seat) == ["A Vienna - Tyrolia"]


@pytest.mark.parametrize(
    "header",
    [
        "",
        " , ",
        "abc",
        "W/abc",
        '"abc',
        'w/"abc"',  # W/ is case-sensitive
        'W/ "abc"',
        '"a" "b"',
        '*, "abc"',
        "**",
        '"a"b"',
        '"tab\there"',
    ],
)
def test_an_if_match_that_is_no_entity_tag_list_is_400(api, game, seat, header: str) -> None:
    player, url = _austria(game, seat, api)
    refused = player.put(url, {"orders": ["A Vienna - Tyrolia"]}, HTTP_IF_MATCH=header)
    assert refused.status_code == 400
    assert "entity-tags" in refused.json()["If-Match"][0]
    assert _saved(game, seat) == ["A Vienna - Galicia"]


def test_if_none_match_star_saves_only_where_no_orders_are(api, game, seat) -> None:
    """Found by an adversary: If-None-Match was not read, so a client asking to save only
    where nothing was saved yet overwrote saved orders. With ``*`` the PUT is refused (412)
    once orders are saved, and passes while none are."""
    player = api(seat(game, "Austria").user)
    url = f"/api/games/{game.pk}/orders/"
    first = player.put(url, {"orders": ["A Vienna - Galicia"]}, HTTP_IF_NONE_MATCH="*")
    assert first.status_code == 200, first.data
    again = player.put(url, {"orders": ["A Vienna - Tyrolia"]}, HTTP_IF_NONE_MATCH=" * ")
    assert again.status_code == 412
    assert "If-None-Match: *" in again.json()["detail"]
    assert _saved(game, seat) == ["A Vienna - Galicia"]
    # Emptied (nothing saved), it passes again.
    assert player.put(url, {"orders": []}).status_code == 200
    assert (
        player.put(url, {"orders": ["A Vienna - Bohemia"]}, HTTP_IF_NONE_MATCH="*").status_code
        == 200
    )


def test_if_none_match_naming_the_saved_version_is_412(api, game, seat) -> None:
    player, url = _austria(game, seat, api)
    current = player.get(url)["ETag"]
    for header in (current, current.removeprefix("W/"), f'"0.0.0", {current}'):
        refused = player.put(url, {"orders": ["A Vienna - Tyrolia"]}, HTTP_IF_NONE_MATCH=header)
        assert refused.status_code == 412, header
        assert "If-None-Match" in refused.json()["detail"]
    assert _saved(game, seat) == ["A Vienna - Galicia"]
    other = player.put(url, {"orders": ["A Vienna - Tyrolia"]}, HTTP_IF_NONE_MATCH='"0.0.0"')
    assert other.status_code == 200 and _saved(game, seat) == ["A Vienna - Tyrolia"]
    bad = player.put(url, {"orders": []}, HTTP_IF_NONE_MATCH="abc")
    assert bad.status_code == 400 and "entity-tags" in bad.json()["If-None-Match"][0]
    assert _saved(game, seat) == ["A Vienna - Tyrolia"]


def test_a_get_of_the_version_held_is_304(api, game, seat) -> None:
    player, url = _austria(game, seat, api)
    held = player.get(url)["ETag"]
    for header in (held, held.removeprefix("W/"), f'"x", {held}', "*"):
        unchanged = player.get(url, HTTP_IF_NONE_MATCH=header)
        assert unchanged.status_code == 304 and unchanged["ETag"] == held, header
        assert unchanged.content == b""
    assert player.put(url, {"orders": ["A Vienna - Tyrolia"]}).status_code == 200
    changed = player.get(url, HTTP_IF_NONE_MATCH=held)
    assert changed.status_code == 200 and changed["ETag"] != held
    assert [o["text"] for o in changed.json()] == ["A Vienna - Tyrolia"]
    assert player.get(url, HTTP_IF_NONE_MATCH="abc").status_code == 200  # unread on a GET


def test_another_players_if_match_is_read_against_their_own_orders(api, game, seat) -> None:
    """Two players, each with the other's ETag: neither passes; each with their own does."""
    austria, url = _austria(game, seat, api)
    italy = api(seat(game, "Italy").user)
    assert italy.put(url, {"orders": ["A Rome - Apulia"]}).status_code == 200
    austrias, italys = austria.get(url)["ETag"], italy.get(url)["ETag"]
    assert austrias != italys
    assert austria.put(url, {"orders": []}, HTTP_IF_MATCH=italys).status_code == 412
    assert italy.put(url, {"orders": []}, HTTP_IF_MATCH=austrias).status_code == 412
    assert austria.put(url, {"orders": []}, HTTP_IF_MATCH=austrias).status_code == 200
    assert italy.put(url, {"orders": []}, HTTP_IF_MATCH=italys).status_code == 200


def test_the_if_match_refusal_is_said_in_the_language_asked(api, game, seat) -> None:
    player, url = _austria(game, seat, api)
    refused = player.put(url, {"orders": []}, HTTP_IF_MATCH="abc", HTTP_ACCEPT_LANGUAGE="ja")
    assert refused.status_code == 400 and "エンティティタグ" in refused.json()["If-Match"][0]


def test_an_if_match_from_a_phase_since_processed_says_so(api, game, seat) -> None:
    """Found by an adversary: the ETag of the orders of a phase since processed was refused as
    orders "changed elsewhere", which sent the player looking for another tab."""
    from games import services

    player, url = _austria(game, seat, api)
    old = player.get(url)["ETag"]
    assert services.process_phase(game.pk, game.current_phase_id, force=True)
    refused = player.put(url, {"orders": ["A Galicia H"]}, HTTP_IF_MATCH=old)
    assert refused.status_code == 412
    detail = refused.json()["detail"]
    assert "read in an earlier phase" in detail and "current phase is 1" in detail, detail
    game.refresh_from_db()
    assert not Order.objects.filter(phase_id=game.current_phase_id).exists()


# -- the orders' ETag, gzipped or not --------------------------------------------------------

ORDERS = ["A Vienna - Galicia", "A Budapest - Serbia", "F Trieste - Albania", "A Vienna - Moon"]


def test_the_orders_etag_is_the_same_weak_one_gzipped_or_not(api, game, seat) -> None:
    """Gzip weakens a strong ETag, and only answers long enough to be worth it are gzipped:
    the orders' ETag is weak from the start, so that it never changes with the encoding."""
    player = api(seat(game, "Austria").user)
    url = f"/api/games/{game.pk}/orders/"
    for orders in ([], ORDERS):  # the empty list is too short to be gzipped
        sent = player.put(url, {"orders": orders}, HTTP_ACCEPT_ENCODING="gzip")
        plain, zipped = player.get(url), player.get(url, HTTP_ACCEPT_ENCODING="gzip")
        assert zipped.get("Content-Encoding") == ("gzip" if orders else None)
        assert sent["ETag"] == plain["ETag"] == zipped["ETag"]
        assert plain["ETag"].startswith('W/"')


@pytest.mark.parametrize("encoding", ["", "gzip"])
def test_an_etag_echoed_as_received_passes_and_a_stale_one_does_not(
    api, game, seat, encoding: str
) -> None:
    player = api(seat(game, "Austria").user)
    url = f"/api/games/{game.pk}/orders/"
    headers = {"HTTP_ACCEPT_ENCODING": encoding}
    # Not [] first: no orders at all are one version, whatever was saved and cleared before.
    for orders in (ORDERS, ORDERS[:1], []):
        read = player.get(url, **headers)
        sent = player.put(url, {"orders": orders}, HTTP_IF_MATCH=read["ETag"], **headers)
        assert sent.status_code == 200, sent.content
        # The answer's ETag is the new version: sent back, it passes in turn.
        again = player.put(url, {"orders": orders}, HTTP_IF_MATCH=sent["ETag"], **headers)
        assert again.status_code == 200, again.content
        stale = player.put(url, {"orders": ORDERS}, HTTP_IF_MATCH=read["ETag"], **headers)
        assert stale.status_code == 412
    assert _saved(game, seat) == []


# -- leaving a game before it starts ----------------------------------------------------------


def test_two_players_leave_a_forming_game_through_the_api(api, moderator, make_user) -> None:
    from games import services

    forming = services.create_game(moderator, name="Forming", variant="standard")
    url = f"/api/games/{forming.pk}/"
    ada, bob, eve = (api(make_user(name)) for name in ("ada", "bob", "eve"))
    for player in (ada, bob):
        assert player.post(url + "join/").status_code == 200
    assert forming.memberships.count() == 2

    left = ada.post(url + "leave/")
    assert left.status_code == 200, left.data
    assert left.data["id"] == forming.pk and left.data["status"] == "forming"
    assert list(forming.memberships.values_list("user__username", flat=True)) == ["bob"]

    # Leaving again, or a game one never joined: a 400 that says why, nothing changed.
    for stranger in (ada, eve):
        refused = stranger.post(url + "leave/")
        assert refused.status_code == 400
        assert refused.json() == {"detail": "you are not in this game"}
    refused = eve.post(url + "leave/", HTTP_ACCEPT_LANGUAGE="ja")
    assert refused.json() == {"detail": "あなたはこのゲームに参加していません"}
    assert api().post(url + "leave/").status_code in (401, 403)
    assert forming.memberships.count() == 1

    # A body with keys (it takes none) is refused before anything is done (an adversary's
    # finding: the seat was given up on a body nobody read).
    refused = bob.post(url + "leave/", {"x": 1}, format="json")
    assert refused.status_code == 400 and "x" in refused.json(), refused.content
    assert forming.memberships.count() == 1
    assert bob.post(url + "leave/", {}, format="json").status_code == 200
    assert not forming.memberships.exists()
    assert ada.post(url + "join/").status_code == 200  # left, a player may join again


def test_a_started_game_cannot_be_left_through_the_api(api, game, seat) -> None:
    austria = seat(game, "Austria")
    refused = api(austria.user).post(f"/api/games/{game.pk}/leave/")
    assert refused.status_code == 400
    assert refused.json() == {"detail": "only a forming game can be left"}
    assert game.membership_of(austria.user) == austria
    assert api(austria.user).post("/api/games/999999/leave/").status_code == 404


def test_a_malformed_body_to_leave_is_a_400_and_the_seat_stays(api, moderator, make_user) -> None:
    """Leave takes no body, but one sent is read: ``{bad`` or a key given twice had given the
    seat up with a 200, where every other endpoint answers such a body with 400."""
    from games import services

    forming = services.create_game(moderator, name="Forming", variant="standard")
    url = f"/api/games/{forming.pk}/"
    ada = api(make_user("ada"))
    assert ada.post(url + "join/").status_code == 200
    for body in ("{bad", '{"a": 1, "a": 2}'):
        refused = ada.post(url + "leave/", body, content_type="application/json")
        assert refused.status_code == 400, (body, refused.data)
    assert forming.memberships.count() == 1
    assert ada.post(url + "leave/", "", content_type="application/json").status_code == 200
    assert not forming.memberships.exists()


def test_leave_is_in_the_schema(api, make_user) -> None:
    schema = api(make_user("ada")).get("/api/schema/?format=json").json()
    leave = schema["paths"]["/api/games/{id}/leave/"]["post"]
    assert "requestBody" not in leave
    assert {"200", "400", "401", "403", "404"} <= set(leave["responses"])
