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
    # An order picked on the board is saved at once, and the page says so in Japanese too
    # (it said "A Moscow H — saved." in English).
    ada.click("#order-choices >> text=キャンセル")
    click_unit(ada, "Moscow")
    ada.click("#order-choices >> text=維持")
    settle(ada)
    prompt = ada.locator("#order-prompt").inner_text()
    assert "A Moscow H — 保存しました。" in prompt and "saved" not in prompt, prompt


def menu_buttons(page) -> list[str]:
    return page.locator("#order-choices button").all_inner_texts()


@pytest.mark.django_db(transaction=True)
def test_the_menu_names_coasts_keeps_its_order_and_offers_real_convoys(browser, live_server):  # noqa: F811
    """A coast reads "Arabia (south coast)" in the menu (the order keeps "Arabia/sc"); the
    kinds of order come in one order for every unit; a fleet alone at sea convoys only armies
    next to it, and the support or convoy step names both units."""
    units = [
        ("Britain", "F", "Aden"),
        ("Britain", "F", "South China Sea"),
        ("Britain", "A", "Madras"),
        ("China", "A", "Canton"),
        ("Japan", "A", "Kyoto"),
        ("Russia", "A", "Moscow"),
        ("Russia", "A", "Omsk"),
    ]
    game, game_url, pages = seat_players(
        browser, live_server, "colonial", {"ada": "Russia", "bob": "Britain"}, units
    )
    ada, bob = pages["ada"], pages["bob"]

    # The railroad's button has its place after the plain moves, for Moscow as for Omsk.
    ada.goto(game_url)
    ada.wait_for_selector("#order-menu[data-options]")
    kinds = {}
    for place in ("Moscow", "Omsk"):
        click_unit(ada, place)
        kinds[place] = menu_buttons(ada)
        ada.click("#order-choices >> text=Cancel")
    for place, buttons in kinds.items():
        assert buttons[:3] == ["Hold", "Move…", "Move via TSR…"], (place, buttons)

    bob.goto(game_url)
    bob.wait_for_selector("#order-menu[data-options]")
    # A coast in words on the button; the order saved keeps the canonical text.
    click_unit(bob, "Aden")
    bob.click("#order-choices >> text=Move…")
    offered = menu_buttons(bob)
    assert "Arabia (south coast)" in offered and not any("/" in b for b in offered), offered
    bob.click("#order-choices >> text=Arabia (south coast)")
    settle(bob)
    assert "F Aden - Arabia/sc" in bob.locator("#id_orders").input_value()

    # No fleets on the way from Madras: the fleet alone convoys only armies next to it, and
    # A Madras is offered no support of a move only a convoy could make.
    click_unit(bob, "South China Sea")
    bob.click("#order-choices >> text=Convoy…")
    assert set(menu_buttons(bob)) == {"Canton", "Cancel"}
    bob.click("#order-choices >> text=Canton")
    prompt = bob.locator("#order-prompt").inner_text()
    assert prompt == "F South China Sea convoys A Canton: to where? Click a highlighted province."
    assert "Tongking" in menu_buttons(bob)
    bob.click("#order-choices >> text=Cancel")
    click_unit(bob, "South China Sea")
    bob.click("#order-choices >> text=Support…")
    bob.click("#order-choices >> text=Canton")
    prompt = bob.locator("#order-prompt").inner_text()
    assert prompt == (
        "F South China Sea supports A Canton: moving where? Click a highlighted province, "
        "or support it holding."
    )
    bob.click("#order-choices >> text=Cancel")
    click_unit(bob, "Madras")
    assert "Support…" not in menu_buttons(bob)
