"""A Far East I-R game played in two browsers through a whole year, to Winter builds.

Japan and Viet Nam sign up and join; the moderator starts the game with two players. Viet Nam
sails from Saigon to Cambodia (clicked on the map) and Japan from Tokyo into the North Pacific
Ocean and on to Guam (typed); both press Ready each phase; each phase is processed as in
test_browser.py (a real Celery worker with PostgreSQL and Redis, else `services.process_phase`
once the task is seen queued). In Winter 1991 both build a fleet at the home centre they left
empty, and both boards then show Spring 1992 with the new fleets, and Winter's results in the
history. Screenshots go to var/screenshots/far-east-*.png.
"""

from __future__ import annotations

import os
import re

import pytest
from conftest import LIVE_WORKER, wait_for
from django.contrib.auth import get_user_model
from test_browser import (
    CHROMIUM,
    browser,  # noqa: F401 - a fixture
    click_centre,
    click_unit,
    open_game,
    press_ready,
    settle,
    shot,
    sign_up,
    type_order,
    worker_or_none,  # noqa: F401 - a fixture
)

from games import services
from games.models import Game, Membership, Order, Phase

if not os.path.exists(CHROMIUM) and not os.environ.get("CI"):
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)

# With a real worker, tasks must reach Redis rather than the `enqueued` recorder.
pytestmark = [pytest.mark.broker] if LIVE_WORKER else []


def ready_and_process(game, index, pages, worker, enqueued, next_label):
    """Both players press Ready on phase ``index``; wait until it is processed."""
    phase = game.phases.get(index=index)
    for page in pages:
        page.goto(game.url)
        press_ready(page)
    if worker is None:
        for page in pages:
            assert "You are ready." in page.content() or next_label in page.content()
        queued = [e[:2] for e in enqueued]
        assert ("games.tasks.process_phase", (game.pk, phase.pk)) in queued
        assert services.process_phase(game.pk, phase.pk)
    else:

        def processed():
            done = Phase.objects.filter(pk=phase.pk, processed_at__isnull=False).exists()
            return done and game.phases.filter(index=index + 1).exists()

        wait_for(processed, 60, f"the worker to process phase {index}\n{worker.read_text()}")
        assert "process_phase" in worker.read_text()
    for page in pages:
        open_game(page, game.url)
        assert next_label in page.locator("#board-title").inner_text()


def power_at(page, location: str) -> str | None:
    unit = page.locator(f'#board g.unit[data-location="{location}"]')
    return unit.get_attribute("data-power") if unit.count() == 1 else None


@pytest.mark.django_db(transaction=True)
def test_a_far_east_year_to_winter_builds(browser, live_server, worker_or_none, enqueued):  # noqa: F811
    base = live_server.url
    pages = []
    for _ in range(2):
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        page.set_default_timeout(10_000)
        pages.append(page)
    kenji, lan = pages
    sign_up(kenji, base, "kenji")
    sign_up(lan, base, "lan")

    # Kenji creates the game and asks for Japan; Lan joins asking for Viet Nam.
    kenji.click("text=New game")
    kenji.fill("#id_name", "Pacific Rim")
    kenji.select_option("#id_variant", "far-east")
    kenji.click("button >> text=Create game")
    kenji.wait_for_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.get(name="Pacific Rim")
    game.url = kenji.url
    kenji.select_option("#id_first", "Japan")
    kenji.click("button >> text=Join")
    lan.goto(f"{base}/")
    lan.click("text=Pacific Rim")
    lan.select_option("#id_first", "Viet Nam")
    lan.click("button >> text=Join")

    kenji.goto(f"{game.url}moderate/")
    kenji.click("form[action$='/moderate/start/'] button")
    kenji.click("text=Yes, start")
    assert "Done: start" in kenji.content()
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert {m.user.username: m.power for m in game.memberships.all()} == {
        "kenji": "Japan",
        "lan": "Viet Nam",
    }

    # Spring 1991. Lan (Viet Nam) clicks F Saigon, Move…, then Cambodia's centre.
    open_game(lan, game.url)
    assert "Spring 1991 movement" in lan.locator("#board-title").inner_text()
    assert "you play Viet Nam" in lan.locator(".game-head .meta").inner_text()
    lan.locator("#board g.unit.unordered").first.wait_for()  # flagged once the page has its data
    assert lan.locator("#board g.unit.unordered").count() == 3
    click_unit(lan, "Saigon")
    lan.click("#order-choices >> text=Move…")
    click_centre(lan, "Cambodia")
    settle(lan)
    assert "F Saigon - Cambodia" in lan.locator("#id_orders").input_value()
    assert "F Saigon - Cambodia — valid" in lan.locator("#order-status").inner_text()
    shot(lan, "far-east-01-viet-nam-spring")
    # Kenji (Japan) types his order, abbreviating the ocean's name.
    kenji.goto(game.url)
    type_order(kenji, "F Tokyo - North Pacific")
    assert "F Tokyo - North Pacific Ocean — valid" in kenji.locator("#order-status").inner_text()
    shot(kenji, "far-east-02-japan-spring")
    # Neither sees the other's orders before processing.
    assert "F Saigon - Cambodia" not in kenji.content()
    assert "F Tokyo - North Pacific" not in lan.content()

    ready_and_process(game, 0, pages, worker_or_none, enqueued, "Fall 1991 movement")
    for page in pages:
        assert power_at(page, "Cambodia") == "Viet Nam"
        assert power_at(page, "North Pacific Ocean") == "Japan"
        assert power_at(page, "Saigon") is None and power_at(page, "Tokyo") is None

    # Fall 1991, both typed.
    type_order(lan, "F Cambodia H")
    assert "F Cambodia H — valid" in lan.locator("#order-status").inner_text()
    type_order(kenji, "F North Pacific - Guam")
    assert "F North Pacific Ocean - Guam — valid" in kenji.locator("#order-status").inner_text()
    shot(kenji, "far-east-03-japan-fall")

    ready_and_process(game, 1, pages, worker_or_none, enqueued, "Winter 1991 adjustments")
    for page in pages:
        assert power_at(page, "Guam") == "Japan"
        assert power_at(page, "Cambodia") == "Viet Nam"

    # Winter 1991: each has four centres and three units, so each builds one fleet.
    for page, order in ((lan, "Build F Saigon"), (kenji, "Build F Tokyo")):
        assert f"{order}" in page.locator("#order-choices").inner_text()  # the menu offers it
        type_order(page, order)
        assert f"{order} — valid" in page.locator("#order-status").inner_text()
    shot(lan, "far-east-04-viet-nam-winter")

    ready_and_process(game, 2, pages, worker_or_none, enqueued, "Spring 1992 movement")
    winter = game.phases.get(index=2)
    assert (winter.season, winter.year, winter.type) == ("winter", 1991, "adjustments")
    spring = game.phases.get(index=3)
    assert (spring.season, spring.year, spring.type) == ("spring", 1992, "movement")

    for page, name in ((kenji, "japan"), (lan, "viet-nam")):
        open_game(page, game.url)
        assert "Spring 1992 movement" in page.locator("#board-title").inner_text()
        assert power_at(page, "Saigon") == "Viet Nam"
        assert power_at(page, "Tokyo") == "Japan"
        assert power_at(page, "Guam") == "Japan"
        assert power_at(page, "Cambodia") == "Viet Nam"
        assert page.locator("#board g.unit").count() == 17
        shot(page, f"far-east-05-{name}-spring-1992")
        # The Winter phase's results, in the history.
        page.goto(game.url + "?phase=2")
        title = page.locator("#board-title").inner_text()
        assert "Winter 1991 adjustments" in title and "(history)" in title
        text = page.locator("#order-status").inner_text()
        assert "Build F Saigon — succeeds" in text
        assert "Build F Tokyo — succeeds" in text
        shot(page, f"far-east-06-{name}-winter-results")


@pytest.mark.django_db(transaction=True)
def test_two_fleets_in_one_ocean_each_get_an_order_by_clicking(browser, live_server):  # noqa: F811
    """Seed 002, rule 6.1: an ocean holds any number of fleets, each ordered on its own. The
    board draws a power's fleets there as one icon with a count; clicking it and choosing an
    order for the second fleet keeps the first one's order beside it (it replaced it, leaving
    one fleet without an order while the page said every unit had one); once both have one,
    a click opens the first fleet's, whose order the next choice replaces. The page counts a
    fleet without an order there as one."""
    from test_browser_board import choose, click_province, saved

    base = live_server.url
    page = browser.new_context(viewport={"width": 1440, "height": 900}).new_page()
    page.set_default_timeout(10_000)
    sign_up(page, base, "ada")
    ada = get_user_model().objects.get(username="ada")
    game = services.create_game(ada, name="Two fleets", variant="far-east")
    services.join_game(game, ada, ["Australia"])
    phase = services.start_game(game, ada)
    mpo = "Mid-Pacific Ocean"
    phase.units = [{"power": "Australia", "unit": "F", "location": mpo}] * 2
    phase.save(update_fields=["units"])
    open_game(page, f"{base}/games/{game.pk}/")
    page.wait_for_selector("#order-menu[data-options]")
    assert "Without orders: F Mid-Pacific Ocean, F Mid-Pacific Ocean." in page.inner_text(
        "#unordered"
    )
    # The menu's list of units tells the two apart by their turn in the ocean.
    assert page.locator("#order-choices button").all_inner_texts()[:2] == [
        "F Mid-Pacific Ocean (1 of 2)",
        "F Mid-Pacific Ocean (2 of 2)",
    ]
    click_unit(page, mpo)
    assert page.inner_text("#order-prompt") == "F Mid-Pacific Ocean (1 of 2): what should it do?"
    choose(page, "Move…")
    click_province(page, "Guam")
    saved(page, "F Mid-Pacific Ocean - Guam")
    assert page.inner_text("#unordered") == "Without orders: F Mid-Pacific Ocean."
    click_unit(page, mpo)
    assert page.inner_text("#order-prompt") == "F Mid-Pacific Ocean (2 of 2): what should it do?"
    choose(page, "Move…")
    click_province(page, "New Guinea")
    saved(page, "F Mid-Pacific Ocean - New Guinea")
    box = page.locator("#id_orders")
    assert box.input_value().splitlines() == [
        "F Mid-Pacific Ocean - Guam",
        "F Mid-Pacific Ocean - New Guinea",
    ]
    assert page.inner_text("#unordered") == "Every unit has an order."
    click_unit(page, mpo)
    choose(page, "Hold")
    saved(page, "F Mid-Pacific Ocean H")
    assert box.input_value().splitlines() == [
        "F Mid-Pacific Ocean H",
        "F Mid-Pacific Ocean - New Guinea",
    ]
    saved_orders = Order.objects.filter(phase=phase).order_by("position")
    assert [o.text for o in saved_orders] == box.input_value().splitlines()
    assert all(o.valid for o in saved_orders)
    # The page itself, without JavaScript's count, also says one of two fleets lacks an order.
    services.submit_orders(Membership.objects.get(game=game, user=ada), ["F Mid-Pacific H"])
    open_game(page, f"{base}/games/{game.pk}/")
    assert "Without orders: F Mid-Pacific Ocean." in page.inner_text("#unordered")


@pytest.mark.django_db(transaction=True)
def test_two_fleets_in_one_ocean_may_both_be_removed_by_clicking(browser, live_server):  # noqa: F811
    """Removals, one a fleet: with two fleets in the Mid-Pacific and two removals due, the
    ocean's icon offers a removal again after the first (it was offered once only), and a
    click on the icon finds it under the first removal's mark."""
    from test_browser_board import box, click_on_board

    base = live_server.url
    page = browser.new_context(viewport={"width": 1440, "height": 900}).new_page()
    page.set_default_timeout(10_000)
    sign_up(page, base, "ada")
    ada = get_user_model().objects.get(username="ada")
    game = services.create_game(ada, name="Two removals", variant="far-east")
    services.join_game(game, ada, ["Australia"])
    phase = services.start_game(game, ada)
    mpo = "Mid-Pacific Ocean"
    phase.season, phase.type = "winter", Phase.Type.ADJUSTMENTS
    phase.units = [{"power": "Australia", "unit": "F", "location": loc} for loc in (mpo, mpo)]
    phase.units += [{"power": "Australia", "unit": "F", "location": "Perth"}]
    phase.supply_centers = {"Australia": ["Perth"]}
    phase.save(update_fields=["season", "type", "units", "supply_centers"])
    open_game(page, f"{base}/games/{game.pk}/")
    page.wait_for_selector("#order-menu[data-options]")
    removal = page.locator("#order-choices button:not(.take-back)", has_text="Remove F Mid-Pacific")
    click_on_board(page, page.locator(f'#board g.unit[data-location="{mpo}"]'))
    removal.click()
    page.wait_for_selector('#order-prompt:has-text("Removals left: 1 of 2.")')
    settle(page)
    # The first removal's mark stands beside the ocean's icon, not over it: a click on the
    # icon (the second fleet's) offers the second removal (the mark covered the whole icon,
    # and the click found the mark, not the fleet).
    page.keyboard.press("Escape")
    mark = page.locator("#board g.order.remove")
    assert mark.count() == 1
    icon = page.locator(f'#board g.unit[data-location="{mpo}"][data-power="Australia"]')
    click_on_board(page, icon)
    removal.click()
    page.wait_for_selector('#order-prompt:has-text("Removals left: 0 of 2.")')
    settle(page)
    marks = [box(m) for m in page.locator("#board g.order.remove").all()]
    assert len(marks) == 2 and marks[0] != marks[1]  # one mark a fleet, side by side
    click_on_board(page, icon)  # still in sight and clickable, both removals made
    settle(page)
    box = page.locator("#id_orders")
    assert box.input_value().splitlines() == ["Remove F Mid-Pacific Ocean"] * 2
    assert [o.valid for o in Order.objects.filter(phase=phase)] == [True, True]
