"""Chinese Diplomacy is won by the richest great power, not on supply centres (seed 003,
rule 7): its games have no victory threshold to set. ``victory_centers`` was offered (1..17)
and accepted for it, and did nothing."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

import adjudication
from games import engine, services
from games.models import Game

pytestmark = pytest.mark.django_db


def test_the_engine_does_not_offer_a_victory_threshold_for_chinese() -> None:
    assert "victory_centers" not in adjudication.option_schema("chinese")["properties"]
    assert adjudication.option_problems("chinese", {"victory_centers": 1}) == [
        "victory_centers: Chinese Diplomacy is not won on supply centres"
    ]
    assert "victory_centers" in adjudication.option_schema("colonial")["properties"]


def test_the_api_does_not_offer_it_and_refuses_it(api, make_user) -> None:
    client = api(make_user("creator"))
    schema = client.get("/api/variants/chinese/").json()["option_schema"]
    assert "victory_centers" not in schema["properties"]
    response = client.post(
        "/api/games/",
        {"name": "x", "variant": "chinese", "options": {"victory_centers": 1}},
        format="json",
    )
    assert response.status_code == 400, response.content
    assert response.json()["options"] == [
        "victory_centers: Chinese Diplomacy is not won on supply centres"
    ]
    assert not Game.objects.exists()
    made = client.post(
        "/api/games/",
        {"name": "x", "variant": "colonial", "options": {"victory_centers": 30}},
        format="json",
    )
    assert made.status_code == 201, made.content


def test_the_new_game_page_refuses_it(make_user) -> None:
    client = Client()
    client.force_login(make_user("creator"))
    response = client.post(
        reverse("create-game"),
        {
            "name": "x",
            "variant": "chinese",
            "movement_minutes": 60,
            "retreats_minutes": 60,
            "adjustments_minutes": 60,
            "press": "full",
            "civil_disorder_after": 2,
            "victory_centers": 1,
        },
    )
    assert response.status_code == 200  # the form again, with the reason
    html = response.content.decode()
    assert "Chinese Diplomacy is not won on supply centres: leave this empty." in html
    assert "victory_centers:" not in html  # under the field, not in the option's raw name
    assert not Game.objects.exists()
    # The help names each variant's own figure, not Colonial's alone.
    page = client.get(reverse("create-game")).content.decode()
    assert "Colonial Diplomacy 29" in page and "Far East I-R 15" in page


def test_a_game_stored_with_one_still_plays(make_game) -> None:
    """A Chinese game made while the option was offered: the engine is not sent it."""
    game = make_game("chinese")
    Game.objects.filter(pk=game.pk).update(options={**game.options, "victory_centers": 1})
    game.refresh_from_db()
    assert "victory_centers" not in engine.request(game, game.current_phase, [])["options"]
    assert services.process_phase(game.pk, game.current_phase_id, force=True)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.current_phase.index == 1


def test_alike_armies_in_an_entry_space_are_listed_once_not_once_each(monkeypatch) -> None:
    """A power may stack 100 armies in an entry space; their orders are the same, so the
    options check them once (each army's list checked the others': 100 armies took 10 s)."""
    import importlib

    module = importlib.import_module("adjudication.options")

    checked = []
    check = module._check
    monkeypatch.setattr(
        module,
        "_check",
        lambda board, power, texts: checked.append(len(texts)) or check(board, power, texts),
    )

    def listed(n: int) -> tuple[set, int]:
        checked.clear()
        units = [("England", "Pacific Ocean")] * n + [("England", "Shamtung")]
        body = {
            "variant": "chinese",
            "phase": {"season": "year", "year": 1901, "type": "movement"},
            "units": [{"power": p, "unit": "A", "location": loc} for p, loc in units],
            "orders": [],
            "random_seed": 1,
            "faction_orders": [],
        }
        answer = module.options(body, "England")
        return {o["order"] for o in answer["orders"]}, sum(checked)

    two, checks_for_two = listed(2)
    hundred, checks_for_hundred = listed(100)
    assert hundred == two and "A Pacific Ocean Leave" in two
    assert checks_for_hundred == checks_for_two
