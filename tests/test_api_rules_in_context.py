"""Issue #14, first "Done when": the variants' signature rules through the API.

Each power's orders are checked alone when sent, refused only for what the map and the position
decide; at the deadline the engine judges every stored order together. So Turkey's fleet passes
the canal on Britain's permit, and a British support counts for a Russian railroad move, in
whichever sequence the orders are sent. And a Chinese great power that stayed off the board in
1900 is still playing and enters in 1901.
"""

from __future__ import annotations

import pytest
from test_api_variants_play import new_game, order, process

from games.models import Game, Phase

pytestmark = pytest.mark.django_db


def place(game_id: int, units: list[tuple[str, str, str]]) -> None:
    """Only these units on the board of the game's current phase."""
    phase = Game.objects.get(pk=game_id).current_phase
    phase.units = [{"power": p, "unit": u, "location": loc} for p, u, loc in units]
    phase.save(update_fields=["units"])


def judged(moderator, game_id: int, index: int) -> dict[str, tuple[str, str]]:
    """Each order of a processed phase: its result and the reason."""
    data = moderator.get(f"/api/games/{game_id}/phases/{index}/").data
    return {o["order"]: (o["result"], o.get("reason") or "") for o in data["results"]["orders"]}


def units_of(phase: dict) -> set[tuple[str, str, str]]:
    return {(u["power"], u["unit"], u["location"]) for u in phase["units"]}


@pytest.mark.parametrize("turkey_first", [True, False])
def test_turkeys_fleet_passes_the_canal_on_britains_permit(turkey_first):
    game_id, moderator, players = new_game("colonial")
    place(game_id, [("Britain", "A", "Egypt"), ("Turkey", "F", "Mediterranean Sea")])
    sends = [
        ("Turkey", ["F Mediterranean Sea - Red Sea"]),
        ("Britain", ["Suez permit F Mediterranean Sea"]),
    ]
    for power, orders in sends if turkey_first else sends[::-1]:
        answer = order(players[power], game_id, orders)  # valid when sent, either way
        assert answer[0]["reason"] == ""
    phase = process(moderator, game_id)
    assert ("Turkey", "F", "Red Sea") in units_of(phase)
    results = judged(moderator, game_id, 0)
    assert results["F Mediterranean Sea - Red Sea"] == ("succeeds", "")
    assert results["Suez permit F Mediterranean Sea"][0] == "succeeds"


def test_without_the_permit_the_fleet_is_stopped_at_the_deadline_with_the_reason():
    game_id, moderator, players = new_game("colonial")
    place(game_id, [("Britain", "A", "Egypt"), ("Turkey", "F", "Mediterranean Sea")])
    order(players["Turkey"], game_id, ["F Mediterranean Sea - Red Sea"])
    order(players["Britain"], game_id, ["A Egypt H"])
    phase = process(moderator, game_id)
    assert ("Turkey", "F", "Mediterranean Sea") in units_of(phase)
    result, reason = judged(moderator, game_id, 0)["F Mediterranean Sea - Red Sea"]
    assert result == "fails" and "permit" in reason


def test_an_order_that_waits_on_another_powers_says_what_it_needs_when_sent():
    """Found by an adversary: "F Mediterranean Sea - Red Sea" was answered valid and nothing
    more, though it needs Britain's permit; the engine says so, and now so do the answers to
    saving and checking, the stored orders and the page, in the reader's language."""
    from django.test import Client

    from games.models import Membership

    game_id, moderator, players = new_game("colonial")
    place(game_id, [("Britain", "A", "Egypt"), ("Turkey", "F", "Mediterranean Sea")])
    needs = "a Suez permit for F Mediterranean Sea from Britain, whose unit is in Egypt"
    turkey = players["Turkey"]
    saved = order(turkey, game_id, ["F Med - Red Sea"])
    assert saved[0]["needs"] == needs and saved[0]["needs_words"]["template"].startswith("a Suez")
    url = f"/api/games/{game_id}/orders/"
    assert turkey.get(url).data[0]["needs"] == needs
    checked = turkey.post(url + "check/", {"orders": ["F Med - Red Sea"]}, format="json")
    assert checked.data[0]["needs"] == needs
    said = turkey.get(url, HTTP_ACCEPT_LANGUAGE="ja").data[0]["needs"]
    assert said != needs and "Egypt" in said
    held = order(turkey, game_id, ["F Med H"])
    assert held[0]["needs"] == ""
    order(turkey, game_id, ["F Med - Red Sea"])
    page = Client()
    seat = Membership.objects.get(game_id=game_id, power="Turkey")
    page.force_login(seat.user)
    html = page.get(f"/games/{game_id}/").content.decode()
    assert f"needs {needs} (judged at the deadline)" in html


def test_what_the_map_decides_is_still_refused_when_sent():
    game_id, moderator, players = new_game("colonial")
    place(game_id, [("Turkey", "F", "Mediterranean Sea")])
    response = players["Turkey"].put(
        f"/api/games/{game_id}/orders/",
        {"orders": ["F Mediterranean Sea - Moscow", "A Egypt H"]},
        format="json",
    )
    assert response.status_code == 200
    assert [o["valid"] for o in response.data] == [False, False]
    assert all(o["reason"] for o in response.data)
    process(moderator, game_id)
    # Stored invalid orders reach the adjudication too, and come back invalid with the reason.
    results = judged(moderator, game_id, 0)
    assert results["F Mediterranean Sea - Moscow"][0] == "invalid"


RAILROAD = [
    ("Britain", ["A Orenburg S A Moscow - Omsk"]),
    ("Russia", ["A Moscow - Omsk via TSR"]),
    ("China", ["A Akmolinsk - Omsk"]),
]


@pytest.mark.parametrize("sequence", [RAILROAD, RAILROAD[::-1], RAILROAD[1:] + RAILROAD[:1]])
def test_a_british_support_counts_for_a_russian_railroad_move(sequence):
    game_id, moderator, players = new_game("colonial")
    place(
        game_id,
        [("Russia", "A", "Moscow"), ("Britain", "A", "Orenburg"), ("China", "A", "Akmolinsk")],
    )
    for power, orders in sequence:
        order(players[power], game_id, orders)  # each valid when sent, whoever is first
    phase = process(moderator, game_id)
    assert ("Russia", "A", "Omsk") in units_of(phase)  # 2 to 1
    assert ("China", "A", "Akmolinsk") in units_of(phase)
    results = judged(moderator, game_id, 0)
    assert results["A Orenburg S A Moscow - Omsk"][0] == "succeeds"
    assert results["A Moscow - Omsk via TSR"][0] == "succeeds"
    assert results["A Akmolinsk - Omsk"][0] in ("fails", "bounces")


def test_a_chinese_power_that_did_not_enter_in_1900_enters_in_1901():
    game_id, moderator, players = new_game("chinese")
    order(players["England"], game_id, ["Enter A Pacific Ocean"])
    phase = process(moderator, game_id)
    assert (phase["year"], phase["type"]) == (1901, "movement")
    # France brought nothing on in 1900: no army, no centre, and still playing.
    assert not [u for u in phase["units"] if u["power"] == "France"]
    game = players["France"].get(f"/api/games/{game_id}/").data
    france = next(p for p in game["powers"] if p["power"] == "France")
    assert france["status"] == "active", france
    order(players["France"], game_id, ["Enter A Indo-China"])
    paid = players["France"].post(
        f"/api/games/{game_id}/payments/", {"to": "England", "amount": 10}, format="json"
    )
    assert paid.status_code == 201, paid.data
    phase = process(moderator, game_id)
    assert phase["year"] == 1902
    assert ("France", "A", "Indo-China") in units_of(phase)
    assert phase["balances"]["France"] == -15 - 10
    assert Phase.objects.get(game_id=game_id, index=1).orders.get(power="France").result == (
        "succeeds"
    )


def test_a_railroad_move_stopped_short_says_where_in_the_phases_orders():
    """The phase's stored orders carry ``stopped_at`` as the engine's reply does: where the
    army stopped, for a client that reads the orders rather than the raw results."""
    game_id, moderator, players = new_game("colonial")
    place(game_id, [("Russia", "A", "Moscow"), ("China", "A", "Irkutsk")])
    order(players["Russia"], game_id, ["A Moscow - Irkutsk via TSR"])
    order(players["China"], game_id, ["A Irkutsk H"])
    process(moderator, game_id)
    orders = moderator.get(f"/api/games/{game_id}/phases/0/").data["orders"]
    stopped = {o["canonical"]: (o["result"], o["stopped_at"]) for o in orders}
    assert stopped["A Moscow - Irkutsk via TSR"] == ("stopped", "Krasnoyarsk")
    assert stopped["A Irkutsk H"] == ("succeeds", "")
    # The player's own view of the orders says so too.
    mine = players["Russia"].get(f"/api/games/{game_id}/phases/0/").data["orders"]
    assert [o["stopped_at"] for o in mine if o["power"] == "Russia"] == ["Krasnoyarsk"]
    # A rollback to the phase makes its orders unjudged again: no result, nowhere stopped.
    rolled = moderator.post(
        f"/api/games/{game_id}/moderation/rollback/", {"phase": 0}, format="json"
    )
    assert rolled.status_code == 200, rolled.data
    stored = Phase.objects.get(game_id=game_id, index=0).orders.get(power="Russia")
    assert (stored.result, stored.stopped_at) == ("", "")
