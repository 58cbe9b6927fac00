"""Game search (issue #19 item 3): the API's game list and the lobby's "Find games" page filter
by variant, status, phase length, open seats, press, bots and minimum rating, in pages."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from games.models import Game, JoinRequirement


@pytest.fixture
def games(make_game, make_user, moderator) -> dict[str, Game]:
    """A few games that differ in one setting each."""
    fast = services.create_game(
        moderator, name="Fast colonial", variant="colonial", movement_minutes=60, press="none"
    )
    services.join_game(fast, make_user("early"))
    full = make_game("standard")  # started with every seat taken
    botty = services.create_game(
        moderator, name="With bots", variant="far-east", bots_fill_empty=True
    )
    picky = services.create_game(moderator, name="Picky", variant="standard")
    JoinRequirement.objects.create(game=picky, min_rating=10)
    return {"fast": fast, "full": full, "botty": botty, "picky": picky}


def _ids(api, user, query: str) -> set[int]:
    answer = api(user).get(f"/api/games/?{query}")
    assert answer.status_code == 200, answer.content
    return {g["id"] for g in answer.json()["results"]}


def test_filters_in_the_api(api, games, moderator) -> None:
    g = {name: game.pk for name, game in games.items()}
    assert _ids(api, moderator, "variant=colonial") == {g["fast"]}
    assert _ids(api, moderator, "status=active") == {g["full"]}
    assert _ids(api, moderator, "press=none") == {g["fast"]}
    assert _ids(api, moderator, "max_phase_minutes=120") == {g["fast"]}
    assert g["fast"] not in _ids(api, moderator, "min_phase_minutes=120")
    assert _ids(api, moderator, "open_seats=true") == {g["fast"], g["botty"], g["picky"]}
    assert _ids(api, moderator, "open_seats=false") == {g["full"]}
    assert _ids(api, moderator, "bots=true") == {g["botty"]}
    assert g["picky"] not in _ids(api, moderator, "max_min_rating=5")
    assert g["picky"] in _ids(api, moderator, "max_min_rating=10")
    assert _ids(api, moderator, "name=fast&variant=colonial&open_seats=true") == {g["fast"]}


def test_a_running_game_with_a_seat_in_civil_disorder_has_an_open_seat(
    api, games, moderator
) -> None:
    full = games["full"]
    services.remove_player(full, moderator, "Italy")
    assert full.pk in _ids(api, moderator, "open_seats=true&status=active")


@pytest.mark.parametrize(
    "query",
    [
        "variant=nowhere",
        "status=sleeping",
        "max_phase_minutes=99999999999999",
        "min_phase_minutes=-1",
        "max_min_rating=1e400",
        "open_seats=perhaps",
    ],
)
def test_bad_filters_are_a_400(api, moderator, query) -> None:
    answer = api(moderator).get(f"/api/games/?{query}")
    assert answer.status_code == 400, answer.content


@pytest.mark.parametrize(
    "query, limit",
    [("max_min_rating=1e999", "100"), ("max_phase_minutes=" + "9" * 60, "43200")],
)
def test_a_number_past_every_bound_is_told_one_limit(api, moderator, query, limit) -> None:
    """``1e999`` was told two limits that disagree (at most 100; at most 1e+50)."""
    answer = api(moderator).get(f"/api/games/?{query}")
    name = query.split("=")[0]
    assert answer.json() == {name: [f"Ensure this value is less than or equal to {limit}."]}


def test_results_come_in_pages(api, moderator) -> None:
    for n in range(3):
        services.create_game(moderator, name=f"Game {n}", variant="standard")
    first = api(moderator).get("/api/games/?variant=standard&page_size=2").json()
    assert first["count"] == 3 and len(first["results"]) == 2 and first["next"]
    assert "variant=standard" in first["next"]


def test_the_schema_documents_the_filters(api) -> None:
    schema = api().get("/api/schema/?format=json").json()
    names = {p["name"] for p in schema["paths"]["/api/games/"]["get"]["parameters"]}
    assert {"variant", "status", "open_seats", "bots", "max_min_rating", "press"} <= names


def test_find_games_page(client, games, make_user) -> None:
    client.force_login(make_user("seeker"))
    page = client.get(reverse("find-games"), {"variant": "colonial", "open_seats": "true"})
    assert page.status_code == 200
    html = page.content.decode()
    assert "Fast colonial" in html and "With bots" not in html and "Picky" not in html
    bad = client.get(reverse("find-games"), {"max_phase_minutes": "lots"})
    assert bad.status_code == 200 and "Enter a whole number" in bad.content.decode()


def test_find_games_signed_out_shows_public_games_only(client, games, moderator) -> None:
    shown = services.create_game(moderator, name="Open to all", variant="standard", public=True)
    html = client.get(reverse("find-games")).content.decode()
    assert shown.name in html and "Fast colonial" not in html
