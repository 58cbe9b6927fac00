"""Chromium on the ratings and replay pages: the rating chart draws (inline SVG, nothing the
page's CSP refuses), the leaderboard links the player, and the game page's replay links open
real pictures."""

from __future__ import annotations

import pytest
import test_browser  # skips this module too without Chromium

from games import engine, services

chromium = test_browser.browser
shot = test_browser.shot


@pytest.mark.django_db(transaction=True)
def test_player_page_leaderboard_and_replay_links(
    chromium, live_server, make_game, moderator, seat
) -> None:
    first = make_game("colonial")
    services.process_now(first, moderator)
    services.process_now(first, moderator)  # the first year played out: the game is rated
    for power in engine.powers(first):
        if power != "Japan":
            services.vote(seat(first, power), concede_to="Japan")
    japan = seat(first, "Japan").user
    japan.set_password("pw")
    japan.save()
    context = chromium.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    refused = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security" in m.text else None)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", japan.username)
    page.fill("#id_password", "pw")
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    page.click("nav >> text=Leaderboard")
    page.click(f"table a >> text={japan.username}")
    chart = page.locator("svg.rating-chart")
    assert chart.is_visible() and chart.bounding_box()["width"] > 100
    assert page.locator("svg.rating-chart circle").count() == 2  # before and after the game
    shot(page, "community-player")
    page.goto(f"{live_server.url}/games/{first.pk}/?phase=0")
    page.click("text=picture (PNG)")
    width = page.evaluate("() => document.images[0].naturalWidth")
    assert width == 1000
    assert refused == []
