"""The game page's powers table: every column in sight in its panel, so a player sees at a
glance who has ordered and who is ready (the Orders and Ready columns had scrolled out of the
side column, at 1440 wide as on a phone); the live stream still fills its cells."""

from __future__ import annotations

import pytest
import test_browser  # skips this module too without Chromium
from test_browser_header import DESKTOP, PHONE, sign_in

from games import services

chromium = test_browser.browser
shot = test_browser.shot


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("variant", ["chinese", "colonial"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_every_column_of_the_powers_table_is_in_sight(
    chromium, live_server, make_game, seat, variant, viewport
) -> None:
    game = make_game(variant)
    player = seat(game, services.engine.powers(game)[0]).user
    # Long names are what a real table has to hold (a username may have 150 characters).
    other = seat(game, services.engine.powers(game)[1]).user
    other.username = "a_player_with_a_rather_long_name_" + "x" * 40
    other.save()
    context = chromium.new_context(viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(10_000)
    sign_in(page, live_server.url, player.username)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    panel = page.locator("table.powers").locator("xpath=ancestor::section[1]")
    panel.scroll_into_view_if_needed()
    edge = panel.bounding_box()
    headers = page.locator("table.powers thead th")
    assert headers.count() == 4  # power and player, centres / units, orders, ready
    for n in range(headers.count()):
        box = headers.nth(n).bounding_box()
        text = headers.nth(n).inner_text()
        inside = (
            box["x"] >= edge["x"] - 1 and box["x"] + box["width"] <= edge["x"] + edge["width"] + 1
        )
        assert inside, (
            text,
            box,
            edge,
        )
    wrap = page.locator("table.powers").locator("xpath=..")
    assert wrap.evaluate("el => el.scrollWidth <= el.clientWidth"), "the table scrolls sideways"
    shot(page, f"powers-{variant}-{viewport['width']}")
    context.close()
