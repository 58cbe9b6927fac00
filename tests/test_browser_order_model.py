"""Issue #14 items 3 and 4 in Chromium: the click menu offers what the options endpoint lists,
and typing checks the orders without saving them (no PUT until the player saves)."""

from __future__ import annotations

import json
import os

import pytest
from test_browser import CHROMIUM, browser, click_unit, settle  # noqa: F401 - a fixture
from test_browser_rules_in_context import seat_players

from games.models import Order

if not os.path.exists(CHROMIUM) and not os.environ.get("CI"):
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)


def requests_of(page) -> list[tuple[str, str]]:
    """Every API request the page makes from now on: (method, path)."""
    seen: list[tuple[str, str]] = []
    page.on("request", lambda r: seen.append((r.method, r.url.split("//", 1)[1].split("/", 1)[1])))
    return seen


@pytest.mark.django_db(transaction=True)
def test_the_menu_comes_from_options_and_typing_does_not_save(browser, live_server):  # noqa: F811
    units = [("Russia", "A", "Moscow"), ("Russia", "A", "Omsk"), ("Britain", "A", "Egypt")]
    game, game_url, pages = seat_players(
        browser, live_server, "colonial", {"ada": "Russia", "bob": "Britain"}, units
    )
    ada = pages["ada"]
    seen = requests_of(ada)
    ada.goto(game_url)
    ada.wait_for_selector("#order-menu[data-options]")
    assert ("GET", f"api/games/{game.pk}/options/") in seen
    options = json.loads(
        ada.context.request.get(f"{live_server.url}/api/games/{game.pk}/options/").text()
    )["orders"]
    from_moscow = [o for o in options if o["location"] == "Moscow"]

    # The railroad's destinations in the menu are exactly the engine's, as listed.
    click_unit(ada, "Moscow")
    ada.click("#order-choices >> text=Move via TSR…")
    offered = set(ada.locator("#order-choices button").all_inner_texts()) - {"Cancel"}
    listed = {o["destination"] for o in from_moscow if o.get("via") == "TSR"}
    assert offered == listed and "Vladivostok" in offered
    # The ordinary moves likewise, and supports name only units the engine lists.
    ada.click("#order-choices >> text=Cancel")
    click_unit(ada, "Moscow")
    ada.click("#order-choices >> text=Move…")
    offered = set(ada.locator("#order-choices button").all_inner_texts()) - {"Cancel"}
    assert offered == {
        o["destination"] for o in from_moscow if o["kind"] == "move" and not o.get("via")
    }
    ada.click("#order-choices >> text=Cancel")
    click_unit(ada, "Moscow")
    ada.click("#order-choices >> text=Support…")
    offered = set(ada.locator("#order-choices button").all_inner_texts()) - {"Cancel"}
    assert offered == {o["target"] for o in from_moscow if o["kind"] == "support"}
    assert "Omsk" in offered
    ada.click("#order-choices >> text=Cancel")

    # Typing: checked through orders/check, never a PUT, nothing stored.
    seen.clear()
    box = ada.locator("#id_orders")
    for text in ("A mos - oms via tsr", "A Omsk H", "A Omsk - Egypt"):
        box.press("Control+End")
        box.press_sequentially("\n" + text, delay=20)
    ada.wait_for_timeout(1200)
    settle(ada)
    methods = [m for m, path in seen if path.startswith(f"api/games/{game.pk}/orders/")]
    assert "PUT" not in methods
    assert methods.count("POST") >= 1
    assert ("POST", f"api/games/{game.pk}/orders/check/") in seen
    status = ada.locator("#order-status").inner_text()
    assert "A Moscow - Omsk via TSR — valid" in status and "not saved yet" in status
    assert "A Omsk - Egypt — invalid" in status
    assert not Order.objects.filter(power="Russia").exists()

    # Saving is the player's act: one PUT, and the orders are stored with their data.
    ada.click("#save-orders")
    settle(ada)
    assert [m for m, _ in seen].count("PUT") == 1
    stored = {o.text: o for o in Order.objects.filter(power="Russia")}
    assert stored["A mos - oms via tsr"].data["via"] == "TSR"

    # A menu order is saved at once: one more PUT, replacing Omsk's two orders by one.
    click_unit(ada, "Omsk")
    ada.click("#order-choices >> text=Hold")
    settle(ada)
    assert [m for m, _ in seen].count("PUT") == 2
    texts = sorted(Order.objects.filter(power="Russia").values_list("text", flat=True))
    assert texts == ["A Omsk H", "A mos - oms via tsr"]


@pytest.mark.django_db(transaction=True)
def test_the_click_menu_speaks_the_readers_language(browser, live_server):  # noqa: F811
    """The words board.js writes come from the page, in Japanese for a Japanese reader."""
    # A Perm: a unit Moscow may support (A Egypt could reach Moscow's neighbours only by a
    # convoy, with no fleets at sea to make it, so the menu offers no support of it).
    units = [("Russia", "A", "Moscow"), ("Russia", "A", "Perm"), ("Britain", "A", "Egypt")]
    game, game_url, pages = seat_players(
        browser, live_server, "colonial", {"ada": "Russia", "bob": "Britain"}, units
    )
    ada = pages["ada"]
    ada.context.add_cookies([{"name": "django_language", "value": "ja", "url": live_server.url}])
    ada.goto(game_url)
    ada.wait_for_selector("#order-menu[data-options]")
    click_unit(ada, "Moscow")
    prompt = ada.locator("#order-prompt").inner_text()
    assert "A Moscow" in prompt and "何をさせますか" in prompt, prompt
    buttons = ada.locator("#order-choices button").all_inner_texts()
    assert "移動（TSR 経由）…" in buttons and "キャンセル" in buttons, buttons
    ada.click("#order-choices >> text=支援…")
    assert "どのユニットを支援しますか" in ada.locator("#order-prompt").inner_text()
