"""The words the pages use follow the game's variant (issue 16, items 5 and 6): victory
conditions, season names, example orders, the rules link, and what a retreat or an adjustment
phase asks of a power."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import deadline_passes
from django.conf import settings
from django.test import Client
from django.urls import reverse

import adjudication
from adjudication.orders import OrderError, parse
from games import engine, variant_words
from games.models import Phase
from variants.render import render_board

pytestmark = pytest.mark.django_db

STATIC = Path(settings.BASE_DIR) / "static"


def client_for(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def page(game, user) -> str:
    response = client_for(user).get(reverse("game", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def help_line(html: str) -> str:
    """The hint under the order box."""
    return re.search(r'<small class="help">One order a line(.*?)</small>', html, re.S).group(1)


# -- item 6: the lobby, seasons, examples, the rules link, the favicon ----------------------


def test_lobby_states_chinese_great_powers_and_how_it_is_won(make_user):
    html = client_for(make_user("newcomer")).get(reverse("lobby")).content.decode()
    assert "9 powers" not in html and "victory at 0 centres" not in html
    line = re.search(r"Chinese Diplomacy</a>([^<]*)</li>", html).group(1)
    assert "6 great powers" in line
    assert "1950" in line and "Communists hold every supply centre" in line
    colonial = re.search(r"Colonial Diplomacy</a>([^<]*)</li>", html).group(1)
    assert "7 powers" in colonial and "29 of 58 supply centres" in colonial


def test_colonial_says_autumn_everywhere_the_variant_names_seasons(make_game, seat):
    game = make_game("colonial")
    phase = game.current_phase
    phase.season = "fall"
    phase.save()
    assert phase.name == "Autumn 1870 movement"  # the mails' phase name
    html = page(game, seat(game, "Russia").user)
    assert "Autumn 1870 movement" in html and "Fall 1870" not in html


def test_far_east_keeps_fall(make_game, seat):
    game = make_game("far-east")
    phase = game.current_phase
    phase.season = "fall"
    phase.save()
    assert phase.name == "Fall 1991 movement"


@pytest.mark.parametrize(
    ("variant", "power", "own", "foreign"),
    [
        ("colonial", "Russia", "A Moscow - Vladivostok via TSR", None),
        ("far-east", "China", "A Peking - Shensi", "via TSR"),
        ("chinese", "England", "Enter A Pacific Ocean", "via TSR"),
    ],
)
def test_order_box_examples_come_from_the_variant(make_game, seat, variant, power, own, foreign):
    game = make_game(variant)
    hint = help_line(page(game, seat(game, power).user))
    assert own in hint
    if foreign:
        assert foreign not in hint and "Moscow" not in hint


def test_build_phase_hint_shows_build_examples(make_game, seat):
    game = make_game("far-east")
    phase = game.current_phase
    phase.type = Phase.Type.ADJUSTMENTS
    phase.season = "winter"
    phase.units = [u for u in phase.units if u["location"] != "Peking"]
    phase.save()
    hint = help_line(page(game, seat(game, "China").user))
    assert "Build A Peking" in hint and "Omsk" not in hint and "Moscow" not in hint


@pytest.mark.parametrize("variant", engine.variant_ids())
def test_every_example_is_an_order_the_engine_reads(variant):
    loaded = adjudication.load(variant)
    kinds = {"movement", "retreats", "adjustments"}
    assert variant_words.examples(variant, "movement"), f"{variant} has no example orders"
    for kind in kinds:
        for text in variant_words.examples(variant, kind):
            parse(loaded, text, kind)  # raises OrderError on a bad example


def test_examples_of_movement_are_legal_at_the_start(make_game):
    """Examples about starting units pass the engine's check on the opening board."""
    checked_any = set()
    for variant in ("colonial", "far-east", "standard"):
        game = make_game(variant)
        starting = {u["location"] for u in game.current_phase.units}
        for text in variant_words.examples(variant, "movement"):
            unit = parse(adjudication.load(variant), text, "movement").location
            if unit not in starting:
                continue
            owner = next(u["power"] for u in game.current_phase.units if u["location"] == unit)
            (checked,) = engine.check_orders(game, game.current_phase, owner, [text])
            assert checked.valid, (variant, text, checked.reason)
            checked_any.add(variant)
    assert checked_any == {"colonial", "far-east", "standard"}


def test_rules_link_follows_the_game_and_variant_pages(make_game, seat, client):
    game = make_game("far-east")
    html = page(game, seat(game, "Japan").user)
    nav = re.search(r'<nav aria-label="Main">(.*?)</nav>', html, re.S).group(1)
    assert 'href="/variants/far-east/">Rules</a>' in nav
    html = client.get(reverse("variant", args=["chinese"])).content.decode()
    nav = re.search(r'<nav aria-label="Main">(.*?)</nav>', html, re.S).group(1)
    assert 'href="/variants/chinese/">Rules</a>' in nav


def test_variant_pages_use_their_own_examples_and_victory(client):
    html = client.get(reverse("variant", args=["far-east"])).content.decode()
    assert "via TSR" not in html and "F Bombay" not in html
    assert "A Peking - Shensi" in html and "victory at 15 of 28 supply centres" in html
    html = client.get(reverse("variant", args=["chinese"])).content.decode()
    assert "victory at 0" not in html and "1950" in html
    assert "Enter A Pacific Ocean" in html and "no abbreviations" in html
    html = client.get(reverse("variant", args=["colonial"])).content.decode()
    assert "Starts Spring 1870" in html and "A Moscow - Vladivostok via TSR" in html


def test_every_page_has_an_svg_favicon(client):
    html = client.get(reverse("login")).content.decode()
    link = re.search(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', html)
    assert link and link.group(1).endswith("favicon.svg")
    root = ET.parse(STATIC / "favicon.svg").getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg" and root.get("viewBox")


# -- item 5: retreats and adjustments say what to do ------------------------------------------


def adjustment_phase(game, units_without=(), centres_without=()):
    phase = game.current_phase
    phase.type = Phase.Type.ADJUSTMENTS
    phase.season = "winter"
    phase.units = [u for u in phase.units if u["location"] not in units_without]
    phase.supply_centers = {
        p: [c for c in cs if c not in centres_without] for p, cs in phase.supply_centers.items()
    }
    phase.save()
    return phase


def test_a_power_with_builds_is_told_how_many_and_where(make_game, seat):
    game = make_game("colonial")
    adjustment_phase(game, units_without=("Moscow", "Odessa"))
    html = page(game, seat(game, "Russia").user)
    guide = re.search(r'<p class="guide" id="adjustment-guide">(.*?)</p>', html).group(1)
    assert "You may build 2" in guide
    assert "Moscow (army)" in guide and "Odessa (army or fleet)" in guide
    assert "Omsk" not in guide  # occupied
    assert "Without orders" not in html and "Every unit has an order" not in html
    data = re.search(r'<script id="board-data" type="application/json">(.*?)</script>', html)
    assert "You may build 2" in data.group(1)


def test_a_power_with_too_many_units_is_told_what_to_remove(make_game, seat):
    game = make_game("colonial")
    adjustment_phase(game, centres_without=("Aden",))
    html = page(game, seat(game, "Britain").user)
    guide = re.search(r'<p class="guide" id="adjustment-guide">(.*?)</p>', html).group(1)
    assert "You must remove 1 unit" in guide
    for unit in ("A Madras", "A Delhi", "F Bombay", "F Aden", "F Hong Kong", "F Singapore"):
        assert unit in guide
    assert "Without orders" not in html


def test_a_retreat_phase_names_the_units_and_where_they_may_go(make_game, seat):
    game = make_game("colonial")
    phase = game.current_phase
    phase.type = Phase.Type.RETREATS
    phase.units = [u for u in phase.units if u["location"] != "Omsk"]
    phase.units.append({"power": "China", "unit": "A", "location": "Omsk"})
    phase.units = [u for u in phase.units if u["location"] != "Sinkiang"]
    phase.dislodged = [
        {"power": "Russia", "unit": "A", "location": "Omsk", "attacker_from": "Akmolinsk"}
    ]
    phase.save()
    html = page(game, seat(game, "Russia").user)
    guide = re.search(r'<ul class="guide" id="retreat-guide">(.*?)</ul>', html, re.S).group(1)
    assert "A Omsk must retreat to Krasnoyarsk, Orenburg or Perm, or disband." in guide
    assert "Akmolinsk" not in guide  # where the attack came from
    # The board's tooltip: attacked from Akmolinsk, not a unit that stood there (an
    # adversary read "dislodged from Akmolinsk" as that).
    board = render_board("colonial", {"units": phase.units, "dislodged": phase.dislodged})
    assert "Russia: A Omsk (dislodged by an attack from Akmolinsk)" in board


def test_a_unit_disbanded_for_want_of_a_retreat_order_is_named_in_the_results(make_game, seat, api):
    """Seen by an adversary: a dislodged unit left without a retreat order just vanished; the
    phase's results, on the page and in the API, now say it was disbanded by default."""
    game = make_game("colonial")
    phase = game.current_phase
    phase.type = Phase.Type.RETREATS
    phase.units = [u for u in phase.units if u["location"] not in ("Omsk", "Sinkiang")]
    phase.units.append({"power": "China", "unit": "A", "location": "Omsk"})
    phase.dislodged = [
        {"power": "Russia", "unit": "A", "location": "Omsk", "attacker_from": "Akmolinsk"}
    ]
    phase.save()
    deadline_passes(game)
    user = seat(game, "Russia").user
    past = client_for(user).get(reverse("game", args=[game.pk]), {"phase": phase.index})
    note = re.search(r'<p class="removed-by-default">(.*?)</p>', past.content.decode())
    assert note.group(1) == "Disbanded, no valid retreat ordered: Russia A Omsk."
    answer = api(user).get(f"/api/games/{game.pk}/phases/{phase.index}/")
    assert answer.status_code == 200
    assert answer.json()["results"]["civil_disorder"] == [
        {"power": "Russia", "unit": "A", "location": "Omsk"}
    ]


def test_a_unit_removed_for_too_few_removals_is_named_in_the_results(make_game, seat):
    game = make_game("colonial")
    phase = game.current_phase
    phase.type = Phase.Type.ADJUSTMENTS
    phase.season = "winter"
    phase.units.append({"power": "Russia", "unit": "A", "location": "Perm"})
    phase.save()
    deadline_passes(game)
    past = client_for(seat(game, "Russia").user).get(
        reverse("game", args=[game.pk]), {"phase": phase.index}
    )
    note = re.search(r'<p class="removed-by-default">(.*?)</p>', past.content.decode())
    assert note.group(1).startswith("Removed by default, too few valid removals ordered: Russia A ")


def test_a_coast_is_spelled_out_where_the_page_names_a_unit(make_game, seat):
    """Found by an adversary: "Without orders: F Seoul/wc" beside the menu's "F Seoul (west
    coast)": the page names a coast as the menu does, in the reader's language."""
    game = make_game("colonial")
    phase = game.current_phase
    phase.units = [u for u in phase.units if u["power"] != "Russia"]
    phase.units.append({"power": "Russia", "unit": "F", "location": "Seoul/wc"})
    phase.save()
    html = page(game, seat(game, "Russia").user)
    note = re.search(r'<p class="warn" id="unordered">(.*?)</p>', html, re.S).group(1)
    assert note == "Without orders: F Seoul (west coast)."
    client = client_for(seat(game, "Russia").user)
    japanese = client.get(reverse("game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="ja")
    assert "F Seoul/wc" not in japanese.content.decode()


@pytest.mark.parametrize(
    ("variant", "text"), [("far-east", "A Peking - Shensi"), ("standard", "A Paris - Burgundy")]
)
def test_a_bad_adjustment_order_is_explained_without_colonial_names(variant, text):
    with pytest.raises(OrderError) as error:
        parse(adjudication.load(variant), text, "adjustments")
    assert "Omsk" not in str(error.value) and "Moscow" not in str(error.value)
    assert "Build A <home centre>" in str(error.value)
