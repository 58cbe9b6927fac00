"""A power is named in the API as in an order: any case, and the variant's other forms
(``RUS``, ``Russian``) where it has them. ``{"to": "japan"}`` was a 400."""

from __future__ import annotations

from games.models import Message, Payment


def test_a_payment_names_its_payee_in_any_case(make_game, seat, api) -> None:
    game = make_game("chinese", players=6)
    client = api(seat(game, "France").user)
    paid = client.post(
        f"/api/games/{game.pk}/payments/", {"to": "jApAn", "amount": 5}, format="json"
    )
    assert paid.status_code == 201, paid.content
    assert paid.json()["to"] == "Japan"
    assert Payment.objects.get(game=game).payee == "Japan"
    wrong = client.post(f"/api/games/{game.pk}/payments/", {"to": "Jupiter", "amount": 5})
    assert wrong.status_code == 400


def test_press_options_and_moderation_name_powers_in_any_form(
    make_game, seat, api, moderator
) -> None:
    game = make_game("colonial")
    britain = api(seat(game, "Britain").user)
    sent = britain.post(
        f"/api/games/{game.pk}/messages/",
        {"body": "hello", "recipients": ["russia", "RUS", "chinese"]},
        format="json",
    )
    assert sent.status_code == 201, sent.content
    assert sorted(Message.objects.get(game=game).recipients) == ["China", "Russia"]
    mod = api(moderator)
    listed = mod.get(f"/api/games/{game.pk}/options/", {"power": "russian"})
    assert listed.status_code == 200, listed.content
    assert listed.json()["power"] == "Russia"
    assert britain.get(f"/api/games/{game.pk}/options/", {"power": "bri"}).status_code == 200
    assert britain.get(f"/api/games/{game.pk}/options/", {"power": "RUS"}).status_code == 403
