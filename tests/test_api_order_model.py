"""Issue #14 items 1, 3 and 4 through the API: one order model from the engine to the page.

The engine answers every order with its data beside its canonical text, the server stores that
data, ``options`` lists a power's legal orders as the engine does, and ``orders/check`` answers
exactly as the PUT would while storing nothing.
"""

from __future__ import annotations

import pytest
from test_api_rules_in_context import place
from test_api_variants_play import new_game, signup

from games.models import Game, Order

pytestmark = pytest.mark.django_db


def check(client, game_id: int, orders) -> object:
    return client.post(f"/api/games/{game_id}/orders/check/", {"orders": orders}, format="json")


def test_stored_orders_carry_the_engines_data():
    game_id, _, players = new_game("colonial")
    place(game_id, [("Russia", "A", "Moscow"), ("Britain", "A", "Egypt")])
    players["Russia"].put(
        f"/api/games/{game_id}/orders/", {"orders": ["a mos - oms via tsr"]}, format="json"
    )
    players["Britain"].put(
        f"/api/games/{game_id}/orders/", {"orders": ["suez permit f med"]}, format="json"
    )
    russia = Order.objects.get(power="Russia")
    assert russia.data == {
        "kind": "move",
        "order": "A Moscow - Omsk via TSR",
        "unit": "A",
        "location": "Moscow",
        "destination": "Omsk",
        "via": "TSR",
    }
    assert russia.location == "Moscow"
    britain = Order.objects.get(power="Britain")
    assert britain.data["kind"] == "special" and britain.data["rule"] == "suez_canal"
    assert britain.data["location"] == "Mediterranean Sea"
    # A rule's own order names another power's fleet: it is not that unit's one order.
    assert britain.location is None
    answer = players["Russia"].get(f"/api/games/{game_id}/orders/").data
    assert answer[0]["data"]["destination"] == "Omsk"


def test_an_order_that_does_not_parse_has_no_data():
    game_id, _, players = new_game("colonial")
    response = players["Russia"].put(
        f"/api/games/{game_id}/orders/", {"orders": ["march on Paris"]}, format="json"
    )
    assert response.status_code == 200
    assert response.data[0]["valid"] is False and response.data[0]["data"] is None


def test_check_answers_like_the_put_and_stores_nothing():
    game_id, _, players = new_game("colonial")
    russia = players["Russia"]
    orders = ["A mos h", "F Vladivostok - Moscow", "A Omsk H"]
    before = russia.get(f"/api/games/{game_id}/orders/")
    checked = check(russia, game_id, orders)
    assert checked.status_code == 200, checked.data
    assert Order.objects.count() == 0
    assert russia.get(f"/api/games/{game_id}/orders/")["ETag"] == before["ETag"]
    saved = russia.put(f"/api/games/{game_id}/orders/", {"orders": orders}, format="json")
    assert [dict(o) for o in checked.data] == [dict(o) for o in saved.data]
    assert [o["valid"] for o in checked.data] == [True, False, True]
    assert checked.data[1]["reason"]
    # Checking again changes nothing that was saved.
    check(russia, game_id, ["A Moscow H"])
    assert list(Order.objects.values_list("text", flat=True)) == orders


@pytest.mark.parametrize(
    "body, status",
    [
        ({"orders": ["A Moscow H"] * 101}, 400),
        ({"orders": ["A" * 201]}, 400),
        ({"orders": "A Moscow H"}, 400),
        ({"orders": [5]}, 400),
        ({}, 400),
    ],
)
def test_check_refuses_bad_input_as_the_put_does(body, status):
    game_id, _, players = new_game("colonial")
    checked = players["Russia"].post(f"/api/games/{game_id}/orders/check/", body, format="json")
    saved = players["Russia"].put(f"/api/games/{game_id}/orders/", body, format="json")
    assert checked.status_code == saved.status_code == status
    assert isinstance(checked.json(), dict)
    assert Order.objects.count() == 0


def test_check_is_for_players_only():
    game_id, moderator, _ = new_game("colonial")
    stranger = signup("stranger")
    assert check(stranger, game_id, ["A Moscow H"]).status_code == 403
    assert check(moderator, game_id, ["A Moscow H"]).status_code == 403


def test_options_are_the_callers_own():
    game_id, _, players = new_game("colonial")
    place(game_id, [("Russia", "A", "Moscow"), ("Britain", "A", "Egypt")])
    answer = players["Russia"].get(f"/api/games/{game_id}/options/")
    assert answer.status_code == 200, answer.data
    assert answer.data["power"] == "Russia"
    orders = {o["order"]: o for o in answer.data["orders"]}
    assert "A Moscow H" in orders
    assert orders["A Moscow - Omsk via TSR"]["via"] == "TSR"
    assert all(o["location"] == "Moscow" for o in answer.data["orders"])
    # Each option is accepted by the order PUT as it stands.
    sample = ["A Moscow - Omsk via TSR"]
    saved = players["Russia"].put(
        f"/api/games/{game_id}/orders/", {"orders": sample}, format="json"
    )
    assert saved.data[0]["valid"] is True
    britain = players["Britain"].get(f"/api/games/{game_id}/options/").data
    assert "Suez permit F Mediterranean Sea" not in {o["order"] for o in britain["orders"]}
    assert {o["location"] for o in britain["orders"]} == {"Egypt"}


def test_a_player_may_not_ask_for_another_power():
    game_id, _, players = new_game("colonial")
    response = players["Russia"].get(f"/api/games/{game_id}/options/?power=Britain")
    assert response.status_code == 403
    assert players["Russia"].get(f"/api/games/{game_id}/options/?power=Russia").status_code == 200


def test_a_moderator_who_does_not_play_asks_for_any_power():
    game_id, moderator, _ = new_game("colonial")
    place(game_id, [("Turkey", "F", "Mediterranean Sea"), ("Britain", "A", "Egypt")])
    response = moderator.get(f"/api/games/{game_id}/options/?power=Turkey")
    assert response.status_code == 200, response.data
    turkey = {o["order"]: o for o in response.data["orders"]}
    canal = turkey["F Mediterranean Sea - Red Sea"]
    assert canal["destination"] == "Red Sea" and "permit" in canal["needs"]
    assert canal["needs_words"]["template"].startswith("a Suez permit for {unit}")
    japanese = moderator.get(
        f"/api/games/{game_id}/options/?power=Turkey", HTTP_ACCEPT_LANGUAGE="ja"
    ).data["orders"]
    said = next(o for o in japanese if o["order"] == "F Mediterranean Sea - Red Sea")["needs"]
    assert "スエズ通航許可" in said
    again = moderator.get(f"/api/games/{game_id}/options/?power=Turkey").data["orders"]
    assert next(o for o in again if o["order"] == canal["order"])["needs"] == canal["needs"]
    britain = moderator.get(f"/api/games/{game_id}/options/?power=Britain").data["orders"]
    permit = next(o for o in britain if o["kind"] == "special")
    assert permit["rule"] == "suez_canal" and permit["location"] == "Mediterranean Sea"
    assert moderator.get(f"/api/games/{game_id}/options/").status_code == 400
    assert moderator.get(f"/api/games/{game_id}/options/?power=Narnia").status_code == 400


def test_options_are_closed_to_strangers_and_before_the_start():
    game_id, _, _ = new_game("colonial")
    stranger = signup("stranger")
    assert stranger.get(f"/api/games/{game_id}/options/").status_code == 403
    forming = stranger.post(
        "/api/games/", {"name": "f", "variant": "standard", "movement_minutes": 60}, format="json"
    ).data["id"]
    assert Game.objects.get(pk=forming).current_phase is None
    answer = stranger.get(f"/api/games/{forming}/options/?power=France")
    assert answer.status_code == 400 and "detail" in answer.json()


def test_adjustment_options_say_how_many():
    game_id, moderator, players = new_game("colonial")
    phase = Game.objects.get(pk=game_id).current_phase
    phase.type, phase.season = "adjustments", "winter"
    phase.units = [{"power": "Russia", "unit": "A", "location": "Omsk"}]
    phase.supply_centers = {"Russia": ["Moscow", "Omsk", "Vladivostok"]}
    phase.save()
    answer = players["Russia"].get(f"/api/games/{game_id}/options/").data
    assert answer["adjustment"] == 2
    kinds = {o["kind"] for o in answer["orders"]}
    assert kinds == {"build", "waive"}
    assert {"Build A Moscow", "Build F Vladivostok", "Waive"} <= {
        o["order"] for o in answer["orders"]
    }


def test_both_endpoints_are_in_the_schema(api, make_user):
    schema = api(make_user("reader")).get("/api/schema/", HTTP_ACCEPT="application/json").json()
    options = schema["paths"]["/api/games/{id}/options/"]["get"]
    check_ = schema["paths"]["/api/games/{id}/orders/check/"]["post"]
    assert any(p["name"] == "power" for p in options["parameters"])
    assert "OrdersInput" in str(check_["requestBody"])
    order = schema["components"]["schemas"]["Order"]["properties"]
    assert {"kind", "location", "destination", "via", "rule", "form"} <= set(
        order["data"]["properties"]
    )


def test_order_answers_are_what_the_order_serializer_gives():
    """The PUT, the check and the GET answer with ``order_answers``, made without the
    serializer; it must give exactly the serializer's answer, judged, refused and translated."""
    from django.utils import translation

    from games.serializers import OrderSerializer, order_answers

    game_id, _, players = new_game("colonial")
    players["Russia"].put(
        f"/api/games/{game_id}/orders/",
        {"orders": ["a mos - oms via tsr", "march on Paris", "A Vladivostok H"]},
        format="json",
    )
    orders = list(Order.objects.filter(power="Russia").order_by("position"))
    assert len(orders) == 3 and not orders[1].valid and orders[1].reason
    orders[0].result, orders[0].result_reason = "fails", "bounced"
    orders[0].result_reason_words = {"template": "bounced", "args": {}}
    for language in ("en", "zh-hans", "ja"):
        with translation.override(language):
            assert order_answers(orders) == OrderSerializer(orders, many=True).data


def test_options_are_refused_once_the_game_is_over():
    """A game ended by a draw keeps its last phase unprocessed: the check and the PUT refused
    orders for it, while the options still listed them."""
    game_id, moderator, players = new_game("colonial")
    russia = players["Russia"]
    assert russia.get(f"/api/games/{game_id}/options/").status_code == 200
    assert (
        moderator.post(f"/api/games/{game_id}/moderation/draw/", {}, format="json").status_code
        == 200
    )
    assert Game.objects.get(pk=game_id).status == Game.Status.FINISHED
    for answer in (
        russia.get(f"/api/games/{game_id}/options/"),
        moderator.get(f"/api/games/{game_id}/options/?power=Russia"),
        check(russia, game_id, ["A Moscow H"]),
    ):
        assert answer.status_code == 400
        assert answer.json() == {"detail": "the game is not running"}
