"""A map without a board drawing (the standard map) is played from the orders box: its pages
offer no picture, replay GIF or zoom of a drawing that does not exist (an adversary found
links answering 404, and an empty sea to pan with its note cut off on a phone)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games import services

pytestmark = pytest.mark.django_db


def _first_phase(game, user) -> str:
    client = Client()
    client.force_login(user)
    return client.get(reverse("game", args=[game.pk]) + "?phase=0").content.decode()


@pytest.mark.parametrize(("variant", "drawn"), [("standard", False), ("colonial", True)])
def test_pictures_and_zoom_only_for_a_drawn_board(make_game, seat, moderator, variant, drawn):
    game = make_game(variant)
    services.process_now(game, moderator)
    first = game.memberships.exclude(power="").order_by("power").first()
    html = _first_phase(game, first.user)  # processed
    picture = reverse("phase-png", args=[game.pk, 0])
    assert (picture in html) is drawn
    assert (reverse("replay-gif", args=[game.pk]) in html) is drawn
    assert reverse("replay-json", args=[game.pk]) in html  # the record, drawn or not
    assert ('data-zoom="in"' in html) is drawn
    assert ("no-drawing" in html) is not drawn
    assert ("This map has no board drawing; use the orders box." in html) is not drawn
    client = Client()
    client.force_login(first.user)
    assert client.get(picture).status_code == (200 if drawn else 404)


def test_a_sandbox_of_the_standard_map_lists_its_units(api, make_user) -> None:
    user = make_user("practiser")
    made = api(user).post("/api/sandbox/", {"variant": "standard"}, format="json").json()
    client = Client()
    client.force_login(user)
    html = client.get(reverse("sandbox", args=[made["id"]])).content.decode()
    assert "This map has no board drawing; use the orders box." in html
    assert "France: A Paris" in html and "Russia: F Sevastopol" in html
    assert 'data-zoom="in"' not in html
