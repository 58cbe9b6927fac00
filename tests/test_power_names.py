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


def test_chinese_payments_and_press_refuse_an_abbreviation_naming_the_power_to_write(
    make_game, seat, api
) -> None:
    """Seed 003, rule 8: no abbreviations in Chinese Diplomacy. A payment or press to ``JAP``
    was refused as "'JAP' is not another great power of this game", as if Japan were not
    one; it is refused as the abbreviation it is, naming the name to write, as orders are."""
    game = make_game("chinese", players=6)
    client = api(seat(game, "France").user)
    for written in ("JAP", "jap", "J.A.P.", "USA"):
        paid = client.post(
            f"/api/games/{game.pk}/payments/", {"to": written, "amount": 5}, format="json"
        )
        assert paid.status_code == 400, paid.content
        full = "United States" if written == "USA" else "Japan"
        assert paid.json()["detail"] == (
            f"power names are written in full here: write {full}, not {written!r}"
        )
        sent = client.post(
            f"/api/games/{game.pk}/messages/",
            {"body": "hello", "recipients": [written]},
            format="json",
        )
        assert sent.status_code == 400, sent.content
        assert f"write {full}, not {written!r}" in sent.json()["detail"]
    assert not Payment.objects.filter(game=game).exists()
    assert not Message.objects.filter(game=game).exists()
    wrong = client.post(f"/api/games/{game.pk}/payments/", {"to": "Jupiter", "amount": 5})
    assert wrong.json()["detail"] == "'Jupiter' is not another great power of this game"


def test_a_concession_names_the_power_in_any_form(make_game, seat, api) -> None:
    """A vote to concede names the power as the rest of the API does (any case, ``RUS``
    where the variant takes it); ``{"concede_to": "russia"}`` was "russia is not a surviving
    power". Chinese Diplomacy refuses ``JAP`` as the abbreviation it is."""
    from games.models import DrawVote

    game = make_game("colonial")
    britain = api(seat(game, "Britain").user)
    for written in ("russia", "RUS"):
        voted = britain.post(f"/api/games/{game.pk}/draw/", {"concede_to": written}, format="json")
        assert voted.status_code == 200, voted.content
        assert DrawVote.objects.get(game=game, power="Britain").concede_to == "Russia"
    chinese = make_game("chinese", players=6)
    france = api(seat(chinese, "France").user)
    voted = france.post(f"/api/games/{chinese.pk}/draw/", {"concede_to": "JAP"}, format="json")
    assert voted.status_code == 400
    assert voted.json()["detail"] == "power names are written in full here: write Japan, not 'JAP'"
    voted = france.post(f"/api/games/{chinese.pk}/draw/", {"concede_to": "japan"}, format="json")
    assert voted.status_code == 200, voted.content
    assert DrawVote.objects.get(game=chinese, power="France").concede_to == "Japan"


def test_a_power_in_full_width_letters_is_that_power(make_game, seat, api) -> None:
    """Found by an adversary: an order reads ``Ｆ　ＴＯＫ`` as F Tokyo (full-width letters, as
    Chinese and Japanese keyboards type them), but a payee or a recipient written so was no
    power at all."""
    game = make_game("chinese", players=6)
    client = api(seat(game, "France").user)
    paid = client.post(
        f"/api/games/{game.pk}/payments/", {"to": "Ｊａｐａｎ", "amount": 5}, format="json"
    )
    assert paid.status_code == 201, paid.content
    assert paid.json()["to"] == "Japan"
    sent = client.post(
        f"/api/games/{game.pk}/messages/",
        {"body": "hello", "recipients": ["ＥＮＧＬＡＮＤ"]},
        format="json",
    )
    assert sent.status_code == 201, sent.content
    assert Message.objects.get(game=game).recipients == ["England"]
