"""`make run`'s demo in Chromium, as a newcomer meets it (issue 16, items 1, 5 and 6): sign in
with a printed demo login, find the three demo games in the lobby, open the Colonial one on a
desktop (1440×900) and a phone (390×844), and see a build phase that says what to build.

Screenshots go to var/screenshots/ (demo-*.png). Skips, as test_browser does, without
Debian's Chromium unless CI.
"""

from __future__ import annotations

import re
from io import StringIO

import pytest
import test_browser  # skips this module too without Chromium
from django.core.management import call_command
from playwright.sync_api import expect

from games.models import Game, Phase

chromium = test_browser.browser  # the same fixture: Chromium through Playwright
shot = test_browser.shot
SCREENS = {"desktop": (1440, 900), "phone": (390, 844)}


@pytest.fixture
def demo(live_server, settings) -> str:
    """The demo as `make run` seeds it; returns what it printed."""
    settings.DEBUG = True
    out = StringIO()
    call_command("seed_demo", url=live_server.url, stdout=out)
    return out.getvalue()


def sign_in(chromium, base: str, screen: str, username: str = "demo3"):
    width, height = SCREENS[screen]
    page = chromium.new_context(viewport={"width": width, "height": height}).new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "demo")
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/")
    return page


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_newcomer_signs_in_and_opens_the_colonial_demo(chromium, live_server, demo, screen):
    base = live_server.url
    # The printed sign-in is the first thing the demo tells, and it works as printed.
    assert demo.index(f"{base}/accounts/login/") < demo.index("/games/")
    page = sign_in(chromium, base, screen)
    lobby = page.locator("#my-games + .table-wrap").inner_text()
    for name in ("Demo: Colonial Diplomacy", "Demo: Far East I-R", "Demo: Chinese Diplomacy"):
        assert name in lobby
    # Every cell of the games table in the window, the deadline too (on a phone a row is a
    # card: the table had run past the right edge inside its scroller).
    rights = page.locator("#my-games + .table-wrap td").evaluate_all(
        "cells => cells.map(c => c.getBoundingClientRect().right)"
    )
    assert rights and max(rights) <= SCREENS[screen][0]
    page.click("text=Demo: Colonial Diplomacy")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    page.wait_for_selector("#board-svg")  # the board arrives as a resource of its own
    assert "Spring 1870 movement" in page.locator("#board-title").inner_text()
    assert "you play Russia" in page.locator(".game-head").inner_text()
    help_text = page.locator("#orders-form .help").inner_text()
    assert "A Moscow - Vladivostok via TSR" in help_text
    assert page.locator('link[rel="icon"]').get_attribute("href").endswith("favicon.svg")
    shot(page, f"demo-colonial-{screen}")


def _russia_builds_two(chromium, live_server):
    """The demo's Colonial game in a winter where Russia (demo3) has lost Moscow and Odessa's
    units, so it builds two; demo3's game page at a desktop's size."""
    game = Game.objects.get(variant="colonial", memberships__user__username="demo3")
    phase = game.current_phase
    phase.type, phase.season = Phase.Type.ADJUSTMENTS, "winter"
    phase.units = [u for u in phase.units if u["location"] not in ("Moscow", "Odessa")]
    phase.save()
    page = sign_in(chromium, live_server.url, "desktop")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    return game, page


@pytest.mark.django_db(transaction=True)
def test_a_build_phase_says_how_many_and_offers_only_builds(chromium, live_server, demo):
    game, page = _russia_builds_two(chromium, live_server)
    page.wait_for_selector("#order-menu[data-options]")  # the engine's list has come
    assert "Winter 1870 adjustments" in page.locator("#board-title").inner_text()
    prompt = page.locator("#order-prompt").inner_text()
    assert "You may build 2" in prompt and "Click one of your units" not in prompt
    assert page.locator("#unordered").count() == 0  # no "Without orders: ..." in a build phase
    choices = page.locator("#order-choices").inner_text()
    assert "Build A Moscow" in choices and "Build F Odessa" in choices
    assert "Build A Omsk" not in choices  # occupied
    # Found by an adversary: Waive stood among the builds, where the engine's list put it.
    buttons = page.locator("#order-choices button").all_inner_texts()
    waive = buttons.index("Waive")
    assert all(b.startswith("Build ") for b in buttons[:waive]), buttons
    assert not any(b.startswith("Build ") for b in buttons[waive:]), buttons
    shot(page, "demo-build-phase")


@pytest.mark.django_db(transaction=True)
def test_a_second_build_in_one_place_replaces_the_first_and_the_prompt_counts_down(
    chromium, live_server, demo
):
    """Found by a UI tester: a fleet built where an army had just been built was added (and
    refused, "Odessa already has a build this phase"), the prompt still said "You may build
    2" and offered the builds used, and every unit had the red "no order" ring, though units
    take no orders in winter."""
    game, page = _russia_builds_two(chromium, live_server)
    page.wait_for_selector("#order-menu[data-options]")
    assert page.inner_text("#adjustment-left") == "Builds left: 2 of 2."

    def build(where: str, order: str) -> None:
        test_browser.click_centre(page, where)
        page.locator("#order-menu.popup").wait_for()
        page.locator("#order-choices button", has_text=order).first.click()
        page.wait_for_selector(f'#order-prompt:has-text("{order} — saved.")')
        test_browser.settle(page)

    build("Odessa", "Build A Odessa")
    page.wait_for_selector("#order-prompt:has-text('Builds left: 1 of 2.')")
    assert "You may build" not in page.inner_text("#order-prompt")
    assert page.locator("#board g.unit.unordered").count() == 0  # no rings in winter
    build("Odessa", "Build F Odessa")  # the army becomes a fleet
    assert page.input_value("#id_orders").splitlines() == ["Build F Odessa"]
    assert page.locator("#order-status li.invalid").count() == 0
    assert page.inner_text("#adjustment-left") == "Builds left: 1 of 2."
    choices = page.locator("#order-choices").inner_text()
    assert "Build A Moscow" in choices and "Build A Odessa" not in choices
    shot(page, "demo-build-replaced")
    build("Moscow", "Build A Moscow")
    page.wait_for_selector("#order-prompt:has-text('Builds left: 0 of 2.')")
    buttons = page.locator("#order-choices button").all_inner_texts()
    assert not [b for b in buttons if b.startswith("Build")]  # none left to offer
    assert "Take back: Build A Moscow" in buttons
    assert page.locator("#board g.unit.unordered").count() == 0
    # The page shown again says the same, without JavaScript's help.
    page.reload()
    page.wait_for_selector("#order-menu[data-options]")
    assert page.inner_text("#adjustment-left") == "Builds left: 0 of 2."
    assert page.locator("#board g.unit.unordered").count() == 0
    # Taking one back frees a build.
    page.locator("#order-choices button", has_text="Take back: Build A Moscow").click()
    page.wait_for_selector("#order-prompt:has-text('Builds left: 1 of 2.')")
    test_browser.settle(page)
    assert page.input_value("#id_orders").splitlines() == ["Build F Odessa"]
    shot(page, "demo-build-taken-back")


@pytest.mark.django_db(transaction=True)
def test_every_adjustment_typed_may_be_taken_back_in_its_standard_spelling(
    chromium, live_server, demo
):
    """Found by an adversary: three "waive" typed for two builds gave two "Take back: waive"
    buttons, as typed, and none for the third, which the engine refused: it could not be
    taken back from the menu. Each has its button, spelt "Waive"."""
    game, page = _russia_builds_two(chromium, live_server)
    page.wait_for_selector("#order-menu[data-options]")
    page.fill("#id_orders", "waive\nwaive\nwaive")
    page.click("#save-orders")
    test_browser.settle(page)
    # Playwright's expectations wait for the page to get there: the save's answer, and each
    # take-back's, may come after the prompt already read "Taken back" from the one before
    # (CI's loaded machine read the box between two of them).
    expect(page.locator("#order-status li.invalid")).to_have_count(1)  # the third
    back = page.locator("#order-choices button.take-back")
    expect(back).to_have_text(["Take back: Waive"] * 3)
    for left in (2, 1, 0):
        back.first.click()
        expect(back).to_have_count(left)
        expect(page.locator("#id_orders")).to_have_value("\n".join(["waive"] * left))
        test_browser.settle(page)
    expect(page.locator("#order-status li.invalid")).to_have_count(0)
