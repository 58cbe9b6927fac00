"""The seed of a game's chance is nobody's to see or choose while the game is on.

Chinese Diplomacy's factions move by the seed's dice (seed 003, rule 5): with the seed,
``adjudication.opening`` and the plan functions give every hidden Imperial, Communist and
Kuomintang order. A creator who saw it (the API answered it to the moderator) and then took a
seat knew them all; a creator could also pick it. Now the server draws it, nobody picks it,
and it shows nowhere (API, pages, replay, audit log, admin) before the game is over.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games import engine, services
from games.models import Game, ModeratorAction

pytestmark = pytest.mark.django_db


def api_of(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def page_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def created(client, **body) -> dict:
    response = client.post(
        "/api/games/", {"name": "x", "variant": "chinese", **body}, format="json"
    )
    assert response.status_code == 201, response.content
    return response.json()


def test_the_creator_never_sees_the_seed_then_plays(make_user) -> None:
    creator = make_user("creator")
    client = api_of(creator)
    game = created(client, bots_fill_empty=True)
    assert "seed" not in game["options"]
    stored = Game.objects.get(pk=game["id"])
    assert isinstance(stored.options["seed"], int)  # drawn all the same
    detail = client.get(f"/api/games/{game['id']}/")
    assert "seed" not in detail.json()["options"]
    listed = client.get("/api/games/").json()["results"]
    assert all("seed" not in g["options"] for g in listed)
    # Joins, starts the game (bots fill the rest) and plays: still no seed anywhere.
    assert client.post(f"/api/games/{game['id']}/join/", {}, format="json").status_code < 300
    services.start_game(stored, creator)
    stored.refresh_from_db()
    assert stored.status == Game.Status.ACTIVE
    assert "seed" not in client.get(f"/api/games/{game['id']}/").json()["options"]
    assert (
        str(stored.options["seed"])
        not in page_of(creator).get(f"/games/{stored.pk}/").content.decode()
    )


def test_a_moderator_who_does_not_play_sees_no_seed_until_the_end(make_game, moderator) -> None:
    game = make_game("chinese")
    seed = str(game.options["seed"])
    services.process_phase(game.pk, game.current_phase_id, force=True)
    client = api_of(moderator)
    assert "seed" not in client.get(f"/api/games/{game.pk}/").json()["options"]
    replay = page_of(moderator).get(f"/games/{game.pk}/replay.json")
    assert all("seed" not in p["request"]["options"] for p in json.loads(replay.content)["phases"])
    for path in (f"/games/{game.pk}/", f"/games/{game.pk}/moderate/"):
        response = page_of(moderator).get(path)
        assert seed not in response.content.decode(), path
    services.end_game(game, moderator, "")
    assert client.get(f"/api/games/{game.pk}/").json()["options"]["seed"] == int(seed)


@pytest.mark.parametrize("fmt", ["json", "multipart"])
def test_nobody_chooses_the_seed(make_user, fmt) -> None:
    options = {"seed": 944732455}
    body = {"name": "x", "variant": "chinese"}
    body["options"] = options if fmt == "json" else json.dumps(options)
    response = api_of(make_user("u")).post("/api/games/", body, format=fmt)
    assert response.status_code == 400, response.content
    assert "seed" in " ".join(response.json()["options"])
    assert not Game.objects.exists()
    with pytest.raises(services.GameError, match="seed"):
        services.create_game(make_user("v"), name="x", variant="chinese", options=options)


def test_the_variants_options_do_not_offer_the_seed(client) -> None:
    for variant_id in engine.variant_ids():
        assert "seed" not in engine.option_schema(variant_id)["properties"]
    schema = client.get("/api/schema/?format=json").content.decode()
    assert '"seed"' not in schema


def test_a_change_of_options_keeps_the_seed_out_of_the_log(make_user) -> None:
    creator = make_user("creator")
    game = services.create_game(creator, name="x", variant="standard")
    seed = game.options["seed"]
    services.change_settings(game, creator, options={"victory_centers": 17})
    game.refresh_from_db()
    assert game.options == {"victory_centers": 17, "seed": seed}
    entry = ModeratorAction.objects.get(game=game, action="settings")
    assert "seed" not in json.dumps(entry.details)
    with pytest.raises(services.GameError, match="seed"):
        services.change_settings(game, creator, options={"seed": seed + 1})


def test_the_admin_does_not_show_the_seed(make_user) -> None:
    staff = make_user("staff", is_staff=True, is_superuser=True)
    game = services.create_game(make_user("creator"), name="x", variant="chinese")
    seed = str(game.options["seed"])
    page = page_of(staff).get(f"/admin/games/game/{game.pk}/change/")
    assert page.status_code == 200
    assert seed not in page.content.decode()
    assert page.context["adminform"].form.initial["options"] == {}
