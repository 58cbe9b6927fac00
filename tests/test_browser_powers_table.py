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


# Each word (a run without spaces) of an element's text: on which lines it is laid out. A word
# broken inside itself starts a second line (a rect below the first one's foot).
BROKEN_WORDS = """els => els.flatMap(el => {
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT), out = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const m of node.data.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const rects = Array.from(range.getClientRects()).filter(r => r.width > 0);
      if (rects.some(r => r.top >= rects[0].bottom - 1)) out.push(m[0]);
    }
  }
  return out;
})"""


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["ja", "zh-hans"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_cjk_tags_and_headers_do_not_break_inside_a_word(
    chromium, live_server, make_game, seat, language, viewport
) -> None:
    """Found by a UI tester: in Japanese the bot tag broke inside its word ("ボッ/ト", its
    outline split in two) and so did the headers and cells ("準備完/了", "提出/済"). Each stays
    whole, and the table still fits its panel on a phone."""
    game = make_game("colonial", players=1, bots_fill_empty=True)
    player = seat(game, services.engine.powers(game)[0])
    services.submit_orders(player, ["A Delhi H"])
    context = chromium.new_context(viewport=viewport, locale=language)
    page = context.new_page()
    page.set_default_timeout(10_000)
    sign_in(page, live_server.url, player.user.username)
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/games/{game.pk}/")
    table = page.locator("table.powers")
    table.scroll_into_view_if_needed()
    assert table.locator(".badge.bot").count() == 6
    assert table.locator("td.orders-in:not(:empty)").count() == 1
    cells = "thead th, .badge, td.orders-in, td.ready"
    assert "Ready" not in table.locator("thead").inner_text()  # the page is in its language
    broken = table.locator(cells).evaluate_all(BROKEN_WORDS)
    assert broken == [], broken
    wrap = table.locator("xpath=..")
    assert wrap.evaluate("el => el.scrollWidth <= el.clientWidth"), "the table scrolls sideways"
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    shot(page, f"powers-{language}-{viewport['width']}")
    context.close()
