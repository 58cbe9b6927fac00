"""The site's header on a phone: every link of the top navigation can be reached and clicked
at 390×844, on the lobby and on a game page (where the links had been a strip cut off at the
window's edge, "Find games" and everything after it out of reach), with JavaScript and
without; on a desktop the links stay in the bar, no menu needed."""

from __future__ import annotations

import pytest
import test_browser  # skips this module too without Chromium

chromium = test_browser.browser
shot = test_browser.shot

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}
LINKS = "header.top nav a, header.top nav button"


def sign_in(page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "pw")
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/")


def assert_reachable(page, width: int, height: int, where: str, tap: float = 0) -> list[str]:
    """Each link of the top navigation lies wholly inside the window and is the element a
    click at its middle lands on (nothing covers it, nothing clips it), at least ``tap`` pixels
    high. Returns their texts."""
    links = page.locator(LINKS)
    assert links.count() >= 7, where
    texts = []
    for n in range(links.count()):
        link = links.nth(n)
        text = link.inner_text().strip()
        assert link.is_visible(), (where, text)
        box = link.bounding_box()
        assert box is not None, (where, text)
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (where, text, box)
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (where, text, box)
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        hit = link.evaluate(
            "(el, [x, y]) => { const at = document.elementFromPoint(x, y);"
            " return !!at && (at === el || el.contains(at)); }",
            [x, y],
        )
        assert hit, (where, text, "covered or clipped")
        assert box["height"] >= tap, (where, text, "too small to tap")
        texts.append(text)
    return texts


def open_menu(page) -> None:
    """Unfold the links when they are folded behind the Menu button (a phone's header)."""
    menu = page.locator("header.top details.menu > summary")
    if menu.count() and menu.is_visible():
        assert not page.locator(LINKS).first.is_visible()  # folded until asked for
        menu.click()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_every_nav_link_is_reachable_and_clickable_on_a_phone(
    chromium, live_server, make_game, seat, javascript
) -> None:
    base = live_server.url
    game = make_game("colonial")
    player = seat(game, "Russia").user
    context = chromium.new_context(viewport=PHONE, java_script_enabled=javascript)
    page = context.new_page()
    page.set_default_timeout(10_000)
    sign_in(page, base, player.username)
    for where in ("/", f"/games/{game.pk}/"):
        page.goto(base + where)
        open_menu(page)
        texts = assert_reachable(page, PHONE["width"], PHONE["height"], where, tap=36)
        assert "Find games" in texts and texts[-1].startswith("Sign out")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        shot(page, f"header-phone-{'game' if 'games' in where else 'lobby'}-{javascript}")
    # The link that had been cut off works: it opens its page.
    page.goto(f"{base}/games/{game.pk}/")
    open_menu(page)
    page.click("header.top nav >> text=Find games")
    page.wait_for_url(f"{base}/games/")
    assert page.locator("main h1").inner_text()
    # Closed again, the menu gives the board its room back.
    page.goto(f"{base}/games/{game.pk}/")
    open_menu(page)
    page.locator("header.top details.menu > summary").click()
    assert not page.locator(LINKS).first.is_visible()
    assert page.locator("header.top").bounding_box()["height"] < 60
    context.close()


@pytest.mark.django_db(transaction=True)
def test_the_desktop_header_shows_every_link_without_a_menu(
    chromium, live_server, make_game, seat
) -> None:
    base = live_server.url
    game = make_game("colonial")
    player = seat(game, "Russia").user
    context = chromium.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.set_default_timeout(10_000)
    sign_in(page, base, player.username)
    for where in ("/", f"/games/{game.pk}/"):
        page.goto(base + where)
        assert not page.locator("header.top details.menu").is_visible()
        assert_reachable(page, DESKTOP["width"], DESKTOP["height"], where)
        header = page.locator("header.top").bounding_box()
        assert header["height"] < 60, where  # one bar
    context.close()
