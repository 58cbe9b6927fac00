"""Far East and Chinese Diplomacy played through the API, phase after phase."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games import engine
from games.models import Game, Phase

pytestmark = pytest.mark.django_db


def signup(name: str) -> APIClient:
    client = APIClient()
    response = client.post(
        "/api/auth/signup/", {"username": name, "password": "a long pass phrase"}
    )
    assert response.status_code == 201, response.data
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.data['token']}")
    return client


def new_game(variant: str) -> tuple[int, APIClient, dict[str, APIClient]]:
    """A started game with a player on every playable power."""
    moderator = signup(f"mod_{variant}")
    response = moderator.post(
        "/api/games/", {"name": variant, "variant": variant, "movement_minutes": 60}, format="json"
    )
    assert response.status_code == 201, response.data
    game_id = response.data["id"]
    players = {}
    for power in engine.powers(Game.objects.get(pk=game_id)):
        client = signup(f"{variant}_{power.lower().replace(' ', '_')}")
        joined = client.post(f"/api/games/{game_id}/join/", {"preferences": [power]}, format="json")
        assert joined.status_code == 200, joined.data
        players[power] = client
    assert Game.objects.get(pk=game_id).status == "active"
    return game_id, moderator, players


def order(client: APIClient, game_id: int, orders: list[str]) -> list[dict]:
    response = client.put(f"/api/games/{game_id}/orders/", {"orders": orders}, format="json")
    assert response.status_code == 200, response.data
    assert all(o["valid"] for o in response.data), response.data
    return response.data


def process(moderator: APIClient, game_id: int) -> dict:
    index = moderator.get(f"/api/games/{game_id}/").data["current_phase"]["index"]
    response = moderator.post(
        f"/api/games/{game_id}/moderation/process/", {"phase": index}, format="json"
    )
    assert response.status_code == 200, response.data
    return response.data["current_phase"]


def test_far_east_to_a_processed_winter():
    game_id, moderator, players = new_game("far-east")
    assert set(players) == {"Japan", "China", "Viet Nam", "Indonesia", "Australia"}
    order(players["Viet Nam"], game_id, ["F Saigon - Cambodia"])
    order(players["Japan"], game_id, ["F Tokyo - North Pacific"])
    phase = process(moderator, game_id)
    assert (phase["season"], phase["year"], phase["type"]) == ("fall", 1991, "movement")
    order(players["Viet Nam"], game_id, ["F Cambodia H"])
    order(players["Japan"], game_id, ["F North Pacific - Guam"])
    phase = process(moderator, game_id)
    assert (phase["season"], phase["type"]) == ("winter", "adjustments")
    assert "Cambodia" in phase["supply_centers"]["Viet Nam"]
    assert "Guam" in phase["supply_centers"]["Japan"]
    order(players["Viet Nam"], game_id, ["Build F Saigon"])
    order(players["Japan"], game_id, ["Build F Tokyo"])
    phase = process(moderator, game_id)
    assert (phase["season"], phase["year"], phase["type"]) == ("spring", 1992, "movement")
    units = {(u["power"], u["location"]) for u in phase["units"]}
    assert {("Viet Nam", "Saigon"), ("Japan", "Tokyo")} <= units
    winter = moderator.get(f"/api/games/{game_id}/phases/2/").data
    assert [o["result"] for o in winter["orders"]] == ["succeeds", "succeeds"]


def test_chinese_from_1900_to_a_processed_1901():
    game_id, moderator, players = new_game("chinese")
    assert "Imperials" not in players and len(players) == 6
    game = players["England"].get(f"/api/games/{game_id}/").data
    phase = game["current_phase"]
    assert (phase["season"], phase["year"]) == ("year", 1900)
    assert phase["balances"] == dict.fromkeys(players, 0)
    published = phase["faction_orders"]
    assert published and {o["power"] for o in published} == {"Imperials"}
    # Abbreviations are refused; full names work.
    bad = players["England"].put(
        f"/api/games/{game_id}/orders/", {"orders": ["Enter A PAC"]}, format="json"
    )
    assert bad.data[0]["valid"] is False
    order(players["England"], game_id, ["Enter A Pacific Ocean"])
    order(players["Russia"], game_id, ["Enter A Siberia"])
    paid = players["England"].post(
        f"/api/games/{game_id}/payments/", {"to": "Russia", "amount": 30}, format="json"
    )
    assert paid.status_code == 201, paid.data
    phase = process(moderator, game_id)
    assert (phase["season"], phase["year"], phase["type"]) == ("year", 1901, "movement")
    assert phase["balances"]["England"] == -15 - 30
    assert phase["balances"]["Russia"] == -15 + 30
    units = {(u["power"], u["location"]) for u in phase["units"]}
    assert {("England", "Pacific Ocean"), ("Russia", "Siberia")} <= units
    year = moderator.get(f"/api/games/{game_id}/phases/0/").data
    ledger = year["results"]["economy"]["ledger"]
    assert {"power": "England", "item": "entry", "amount": -5} in [
        {k: e[k] for k in ("power", "item", "amount")} for e in ledger
    ]
    # The Imperials' orders judged in 1900 were the ones published before the deadline.
    judged = [o["order"] for o in year["results"]["orders"] if o["power"] == "Imperials"]
    assert judged == [o["order"] for o in published]
    # The year is replayable: the same request gives the same answer.
    first = Phase.objects.get(game_id=game_id, index=0)
    mine = [
        {"power": o["power"], "order": o["order"]}
        for o in first.results["orders"]
        if o["power"] != "Imperials"
    ]
    assert engine.adjudicate(engine.request(first.game, first, mine)) == first.results
    payments = players["Russia"].get(f"/api/games/{game_id}/payments/").data["results"]
    assert payments[0]["amount"] == 30


def test_a_deposed_chinese_leader_opens_the_seat():
    game_id, moderator, players = new_game("chinese")
    phase = Game.objects.get(pk=game_id).current_phase
    phase.carried["economy"]["balances"]["Germany"] = -995
    phase.save(update_fields=["carried"])
    order(players["Germany"], game_id, ["Enter A Pacific Ocean"])
    after = process(moderator, game_id)
    assert after["balances"]["Germany"] == 0  # the new leader starts at net zero
    seat = Game.objects.get(pk=game_id).memberships.get(power="Germany")
    assert seat.status == "replaced"  # deposition ends the leader's seat
    refused = players["Germany"].put(
        f"/api/games/{game_id}/orders/", {"orders": ["A Pacific Ocean H"]}, format="json"
    )
    assert refused.status_code in (403, 404, 409), refused.data
    newcomer = signup("new_german_leader")
    taken = newcomer.post(f"/api/games/{game_id}/join/", {"power": "Germany"}, format="json")
    assert taken.status_code == 200, taken.data
    order(newcomer, game_id, ["A Pacific Ocean H"])
