"""Bots: legal orders only, replayable by seed, and better than random players."""

from __future__ import annotations

import pytest

import adjudication
from bots.arena import run
from bots.game import opening_request, play
from bots.heuristic import HeuristicBot


@pytest.mark.parametrize("variant_id", ["standard", "colonial", "far-east", "chinese"])
def test_bots_send_no_invalid_order(variant_id):
    powers = adjudication.load(variant_id).playable_powers
    players = {p: HeuristicBot(n) for n, p in enumerate(powers)}
    record = play(opening_request(variant_id, 3), players, years=3)
    assert record.phases["bot"] > 0
    assert record.invalid.get("bot", 0) == 0


def test_same_seed_same_orders():
    request = opening_request("colonial")
    first = HeuristicBot(7).decide(request, "Russia")
    assert first == HeuristicBot(7).decide(request, "Russia")
    assert len(first) == sum(1 for u in request["units"] if u["power"] == "Russia")


def test_a_lone_army_moves_towards_centres():
    request = opening_request("colonial")
    request["units"] = [{"power": "Russia", "unit": "A", "location": "Moscow"}]
    request["supply_centers"] = {"Russia": ["Moscow"]}
    orders = HeuristicBot(1).decide(request, "Russia")
    assert orders and orders[0].startswith("A Moscow - ")


def test_bots_beat_random_players_on_colonial():
    result = run("colonial", games=2, years=4, seed=2)
    assert result["invalid"]["bot"] == 0
    assert result["bots_ahead"], result
