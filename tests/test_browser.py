"""A whole Colonial turn in a real browser: two players sign up, one creates a game and the
other joins, both order by clicking the map and by typing (a Russian railroad ride among them),
both press Ready, the phase is processed, both boards show it, and press goes both ways.

With PostgreSQL and Redis configured (always in CI) the early processing after both Readys is
done by a real Celery worker, as in production: the task goes through Redis and the test waits
for the phase to be processed in the database. Without them (local SQLite runs) the task is
only recorded and the test processes the phase itself.

Runs Debian's Chromium through Playwright. It skips only when Chromium is missing and CI is
unset; in CI `.ci/run` installs Chromium and the test must run. Screenshots go to
var/screenshots/.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from conftest import LIVE_WORKER, wait_for
from django.contrib.auth import get_user_model
from django.db import connections
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

from games import services
from games.models import Game, Order, Phase
from games.sandbox import create_sandbox

CHROMIUM = "/usr/bin/chromium"
SHOTS = Path(__file__).resolve().parent.parent / "var" / "screenshots"

if not os.path.exists(CHROMIUM) and not os.environ.get("CI"):
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)

# With a real worker, tasks must reach Redis rather than the `enqueued` recorder.
pytestmark = [pytest.mark.broker] if LIVE_WORKER else []

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture
def browser(monkeypatch):
    # Playwright's sync API keeps an event loop in this thread; the test's own database
    # calls are still plain synchronous ones, but they get a connection of their own (the
    # loop runs in another context), which is closed here so the test database can go.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()
        connections.close_all()


def shot(page, name: str) -> None:
    """A picture of the page once it has loaded. Taken while a click's navigation was still
    under way, Chromium answered "Unable to capture screenshot" (seen once in CI, 2026-11-30):
    the page is waited for, and the picture tried again once."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_load_state()
    try:
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)
    except PlaywrightError as error:
        if "Unable to capture screenshot" not in str(error):
            raise
        page.wait_for_load_state()
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def sign_up(page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_password1", "a long passphrase")
    page.fill("#id_password2", "a long passphrase")
    page.click("button[type=submit] >> text=Create account")
    page.wait_for_url(f"{base}/")


def settle(page) -> None:
    """Wait until the orders box has been checked through the API and the board redrawn."""
    # A selector, not a JavaScript predicate: the page's CSP forbids evaluating strings.
    page.wait_for_selector("#orders-form[data-checking='']", state="attached")


def open_game(page, url: str) -> None:
    """Open a game page and wait for its board, which arrives as a resource of its own."""
    page.goto(url)
    page.wait_for_selector("#board svg", state="attached")


def press_ready(page) -> None:
    """Ready is sent without leaving the page: wait until the page says so (or, when that
    made everyone ready, until the live update says the phase was processed)."""
    page.click("#ready-button")
    # A Ready that makes everyone ready has the phase processed and the next put in place
    # first: on a loaded machine that takes longer than a click's answer.
    page.wait_for_selector("form.ready p.ok, #new-phase, #ready-warning", timeout=30_000)
    if page.locator("#ready-warning").count():  # units without orders, say: ready anyway
        page.click("#ready-button")
        page.wait_for_selector("form.ready p.ok, #new-phase", timeout=30_000)


def click_unit(page, location: str) -> None:
    page.locator(f'#board g.unit[data-location="{location}"]').first.click()


def click_centre(page, province: str) -> None:
    page.locator(f'#board circle.sc[data-province="{province}"]').click()


def type_order(page, text: str, save: bool = True) -> None:
    """Type an order at the end of the box; it is checked as typed, and saved with the Save
    button unless ``save`` is false."""
    box = page.locator("#id_orders")
    box.press("Control+End")
    box.press_sequentially("\n" + text)
    page.wait_for_timeout(1000)  # the box is checked 0.6 s after typing stops
    settle(page)
    if save:
        page.click("#save-orders")
        settle(page)


@pytest.fixture
def worker_or_none(request):
    """The real Celery worker when PostgreSQL and Redis are configured, else None."""
    return request.getfixturevalue("worker") if LIVE_WORKER else None


@pytest.mark.django_db(transaction=True)
def test_a_colonial_turn_in_two_browsers(browser, live_server, worker_or_none, enqueued):
    base = live_server.url
    ada_context = browser.new_context(viewport={"width": 1280, "height": 900})
    bob_context = browser.new_context(viewport={"width": 1280, "height": 900})
    ada, bob = ada_context.new_page(), bob_context.new_page()
    for page in (ada, bob):
        page.set_default_timeout(10_000)
    sign_up(ada, base, "ada")
    sign_up(bob, base, "bob")

    # Ada creates a Colonial game and asks for Russia; Bob joins asking for China.
    ada.click("text=New game")
    shot(ada, "00-create-game")
    ada.fill("#id_name", "Railways of Asia")
    ada.select_option("#id_variant", "colonial")
    ada.click("button >> text=Create game")
    ada.wait_for_url(re.compile(r"/games/\d+/$"))
    game_url = ada.url
    game = Game.objects.get(name="Railways of Asia")
    ada.select_option("#id_first", "Russia")
    ada.click("button >> text=Join")
    bob.goto(f"{base}/")
    bob.click("text=Railways of Asia")
    bob.select_option("#id_first", "China")
    bob.click("button >> text=Join")
    shot(bob, "01-forming")

    # The moderator starts the game before it is full, after confirming.
    ada.goto(f"{game_url}moderate/")
    ada.click("form[action$='/moderate/start/'] button")
    ada.click("text=Yes, start")
    assert "Done: start" in ada.content()
    assert "start" in ada.locator("#audit + .table-wrap").inner_text()
    shot(ada, "01-moderator-console")
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert {m.user.username: m.power for m in game.memberships.all()} == {
        "ada": "Russia",
        "bob": "China",
    }

    # Ada (Russia): the army in Moscow rides the railroad, entered by clicking the map.
    open_game(ada, game_url)
    ada.locator("#board g.unit.unordered").first.wait_for()  # flagged once the page has its data
    assert ada.locator("#board g.unit.unordered").count() == 5
    click_unit(ada, "Moscow")
    ada.click("#order-choices >> text=Move via TSR…")
    click_unit(ada, "Vladivostok")
    settle(ada)
    click_unit(ada, "Omsk")
    ada.click("#order-choices >> text=Hold")
    settle(ada)
    # ... and the rest typed, in the forgiving notation, checked as typed.
    type_order(ada, "A vla - seo")
    type_order(ada, "F Odessa H")
    type_order(ada, "F Port Arthur - Vladivostok")  # not adjacent: the API says why
    status = ada.locator("#order-status")
    assert "A Moscow - Vladivostok via TSR — valid" in status.inner_text()
    assert "A Vladivostok - Seoul — valid" in status.inner_text()
    assert "invalid" in status.inner_text()
    assert ada.locator('#board g.order.tsr[data-power="Russia"]').count() == 1
    shot(ada, "02-russia-orders")
    box = ada.locator("#id_orders")
    box.fill(box.input_value().replace("F Port Arthur - Vladivostok", "F Port Arthur H"))
    ada.wait_for_timeout(1000)
    settle(ada)
    ada.click("#save-orders")
    settle(ada)
    assert "invalid" not in status.inner_text()
    assert ada.locator("#board g.unit.unordered").count() == 0

    # Bob (China): a move by clicking the unit, then the destination's centre; one typed.
    bob.goto(game_url)
    click_unit(bob, "Peking")
    bob.click("#order-choices >> text=Move…")
    click_centre(bob, "Mongolia")
    settle(bob)
    click_unit(bob, "Canton")
    bob.click("#order-choices >> text=Support…")
    click_unit(bob, "Shanghai")  # not a unit Canton can reach: nothing happens
    bob.click("#order-choices >> text=Cancel")
    type_order(bob, "A Sinkiang - Kashgar")
    # The keyboard alone: choose the unit from the menu, then the order.
    bob.focus("#order-choices >> text=A Shanghai")
    bob.keyboard.press("Enter")
    bob.focus("#order-choices >> text=Hold")
    bob.keyboard.press("Enter")
    settle(bob)
    assert "A Shanghai H — valid" in bob.locator("#order-status").inner_text()
    assert "A Peking - Mongolia — valid" in bob.locator("#order-status").inner_text()
    # Bob cannot see Russia's orders before the phase is processed.
    assert "A Vladivostok - Seoul" not in bob.content()
    assert bob.locator('#board g.order[data-power="Russia"]').count() == 0

    # Press goes both ways.
    ada.check("input[name=recipients][value=China]")
    ada.fill("#id_body", "Shall we share Manchuria?")
    ada.click("#press button >> text=Send")
    bob.goto(game_url)
    assert bob.locator("#press .unread").first.inner_text() == "1"
    bob.click("#press .threads >> text=China, Russia")
    assert "Shall we share Manchuria?" in bob.locator("#press").inner_text()
    bob.fill("#id_body", "Only if you stay north.")
    bob.click("#press button >> text=Send")
    ada.goto(game_url + "?thread=China|Russia")
    assert "Only if you stay north." in ada.locator("#press").inner_text()

    # Both press Ready; with every power ready the phase processes early.
    phase = game.phases.get(index=0)
    ada.goto(game_url)
    press_ready(ada)
    assert "You are ready." in ada.content()
    bob.goto(game_url)
    press_ready(bob)
    if worker_or_none is None:
        assert "You are ready." in bob.content()
        # No broker to send it through: the task was recorded; run what it would run.
        assert ("games.tasks.process_phase", (game.pk, phase.pk)) in [e[:2] for e in enqueued]
        assert services.process_phase(game.pk, phase.pk)
    else:
        # The worker may already have processed the phase by the time the page loads.
        assert "You are ready." in bob.content() or "Autumn 1870" in bob.content()

        def processed():
            done = Phase.objects.filter(pk=phase.pk, processed_at__isnull=False).exists()
            return done and game.phases.filter(index=1).exists()

        log = worker_or_none
        wait_for(processed, 60, f"the worker to process the phase\n{log.read_text()}")
        assert "process_phase" in log.read_text()

    for page, name in ((ada, "03-russia-after"), (bob, "04-china-after")):
        open_game(page, game_url + "?phase=0")
        text = page.locator("#order-status").inner_text()
        assert "A Moscow - Vladivostok via TSR — succeeds" in text
        assert "A Peking - Mongolia — succeeds" in text
        tsr = page.locator('#board g.order.tsr[data-result="succeeds"]')
        assert tsr.count() == 1 and tsr.get_attribute("data-colour") == "#ff8c00"
        shot(page, name)
        open_game(page, game_url)
        vladivostok = page.locator('#board g.unit[data-location="Vladivostok"]')
        assert vladivostok.get_attribute("data-power") == "Russia"
        assert page.locator('#board g.unit[data-location="Seoul"]').count() == 1
        assert page.locator('#board g.unit[data-location="Mongolia"]').count() == 1
        assert page.locator('#board g.unit[data-location="Moscow"]').count() == 0
        assert "Autumn 1870 movement" in page.locator("#board-title").inner_text()

    # A phone: no sideways page scroll, and the board pans and zooms.
    phone = browser.new_context(
        viewport={"width": 390, "height": 844},
        storage_state=ada_context.storage_state(),
        has_touch=True,
        is_mobile=True,
    ).new_page()
    phone.goto(game_url)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    board = phone.locator("#board")
    inner = phone.locator("#board .board-inner")
    phone.wait_for_selector("#board[data-scale]", state="attached")  # the board is in, fitted
    fitted = float(board.get_attribute("data-scale"))  # screen px per board unit, at the fit
    # The zoom buttons sit under the board, covering none of it (over its corner they hid a
    # unit a phone player had to tap).
    bar = phone.locator(".zoom").bounding_box()
    view = board.bounding_box()
    assert bar["y"] >= view["y"] + view["height"] - 1, (bar, view)
    phone.click("button[data-zoom=in]")
    assert float(board.get_attribute("data-scale")) > fitted
    before = inner.evaluate("e => e.style.transform")
    box = board.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    phone.mouse.move(x, y)
    phone.mouse.down()
    phone.mouse.move(x - 80, y - 40, steps=5)
    phone.mouse.up()
    assert inner.evaluate("e => e.style.transform") != before
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, "05-phone")
    phone.goto(f"{base}/")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, "06-phone-lobby")
    phone.goto(f"{base}/variants/colonial/")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, "07-phone-variant")
    # A sandbox: its board is an image, which had run 1,600 px past the window.
    sandbox = create_sandbox(get_user_model().objects.get(username="ada"), "chinese")
    phone.goto(f"{base}/games/{sandbox.pk}/sandbox/")
    phone.wait_for_load_state("load")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, "08-phone-sandbox")
    # A name without a space wraps: it had widened the lobby and its game's page.
    ada = get_user_model().objects.get(username="ada")
    long = services.create_game(ada, name="9" * 100, variant="colonial")
    for path in ("/", f"/games/{long.pk}/", "/games/"):
        phone.goto(base + path)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390, path
    # In the list of games too: the name's cell had grown 1,400 px wide, every other column
    # out of sight beyond it.
    name = phone.locator("td:first-child", has_text="9" * 20).first.bounding_box()
    assert name["width"] < 390, name
    # Nor squeezed: beside the five other columns a name had 50 px, broken mid-word. On a
    # phone each game's row is stacked, its name on a line of its own.
    assert name["width"] > 300, name


def ada_plays_russia(name: str) -> tuple[Game, Phase]:
    """A started Colonial game of the signed-up ada's, ada on Russia, bots nowhere."""
    ada = get_user_model().objects.get(username="ada")
    game = services.create_game(ada, name=name, variant="colonial")
    services.join_game(game, ada, ["Russia"])
    return game, services.start_game(game, ada)


@pytest.mark.django_db(transaction=True)
def test_a_refused_save_says_nothing_was_saved_and_which_line(browser, live_server):
    """A line over 200 characters: the API refuses the whole box (400). The page had said
    "Orders saved." and shown the raw JSON; now it names the line and says nothing was saved."""
    base = live_server.url
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.set_default_timeout(10_000)
    sign_up(page, base, "ada")
    game, phase = ada_plays_russia("Long line")
    page.goto(f"{base}/games/{game.pk}/")
    type_order(page, "A Moscow - Perm\n" + "A Omsk H " + "x" * 200)
    status = page.locator("#order-status").inner_text()
    assert "Order 2 is longer than 200 characters." in status  # as without JavaScript
    assert "{" not in status
    prompt = page.locator("#order-prompt").inner_text()
    assert "Nothing was saved." in prompt and "Orders saved." not in prompt
    assert not Order.objects.filter(phase=phase).exists()


@pytest.mark.django_db(transaction=True)
def test_the_box_splits_lines_where_the_server_does(browser, live_server):
    """A pasted list broken by a line separator (U+2028) or a lone carriage return shows as
    several lines; the page had sent it as one item, which the server refuses as two orders
    in one ("an order is one line"). It sends each line, as the no-script form reads them."""
    base = live_server.url
    page = browser.new_context(viewport={"width": 1440, "height": 900}).new_page()
    page.set_default_timeout(10_000)
    sign_up(page, base, "ada")
    game, phase = ada_plays_russia("Pasted lines")
    page.goto(f"{base}/games/{game.pk}/")
    page.locator("#id_orders").fill("A Moscow - Perm\u2028A Omsk H\rF Odessa H")
    page.wait_for_timeout(1000)
    settle(page)
    page.click("#save-orders")
    settle(page)
    stored = sorted(Order.objects.filter(phase=phase).values_list("text", "valid"))
    assert stored == [
        ("A Moscow - Perm", True),
        ("A Omsk H", True),
        ("F Odessa H", True),
    ], stored


@pytest.mark.django_db(transaction=True)
def test_two_tabs_of_one_player_keep_each_others_orders(browser, live_server):
    """Both tabs loaded before either saves; each then orders a different unit by typing.
    Neither hears the other's saves live (a tab that does follows them while its box holds
    nothing unsaved: test_browser_live), so each save meets a 412 and merges."""
    base = live_server.url
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    first, second = context.new_page(), context.new_page()  # one session, two tabs
    for page in (first, second):
        page.set_default_timeout(10_000)
        page.route("**/events/**", lambda route: route.abort())
    sign_up(first, base, "ada")
    game, phase = ada_plays_russia("Two tabs")
    url = f"{base}/games/{game.pk}/"
    first.goto(url)
    second.goto(url)

    type_order(first, "A Moscow - Perm")
    type_order(second, "F Odessa H")  # its box does not hold Moscow's order
    box = second.locator("#id_orders").input_value()
    assert "A Moscow - Perm" in box and "F Odessa H" in box
    type_order(first, "A Omsk H")  # and the first tab, now stale in turn, keeps Odessa's

    saved = Order.objects.filter(phase=phase, power="Russia")
    assert sorted(o.text for o in saved) == ["A Moscow - Perm", "A Omsk H", "F Odessa H"]
    assert "both sets of changes" in first.locator("#order-prompt").inner_text()
    status = first.locator("#order-status").inner_text()
    assert "A Moscow - Perm — valid" in status and "F Odessa H — valid" in status
    # "Save orders" (the form without JavaScript) sends the version the checks last saw.
    first.click("#orders-form button[type=submit]")
    assert "Orders saved." in first.content()
    assert sorted(o.text for o in saved.all()) == ["A Moscow - Perm", "A Omsk H", "F Odessa H"]


@pytest.mark.django_db(transaction=True)
def test_orders_typed_for_a_phase_processed_since_never_land_in_the_next(browser, live_server):
    """The page was loaded for spring; the phase is processed; the player, still on the old
    page, types and saves. The box sends its phase, so the save is refused (409) and says why,
    rather than merged into autumn's orders after the version no longer matches."""
    base = live_server.url
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.set_default_timeout(10_000)
    # No live stream: the page has not heard of the new phase yet (with one, the box is
    # replaced and the typed text kept beside it: test_browser_live).
    page.route("**/events/**", lambda route: route.abort())
    sign_up(page, base, "ada")
    game, spring = ada_plays_russia("Processed meanwhile")
    page.goto(f"{base}/games/{game.pk}/")
    services.process_now(game, get_user_model().objects.get(username="ada"))
    game.refresh_from_db()
    assert game.current_phase_id != spring.pk
    type_order(page, "A Moscow - Perm")
    assert not Order.objects.filter(phase=game.current_phase).exists()
    status = page.locator("#order-status").inner_text()
    assert "current phase is" in status, status


@pytest.mark.django_db(transaction=True)
def test_invalid_orders_are_counted_on_save_and_ready_asks_first(browser, live_server):
    """Found by a UI tester: saving a box with an invalid line said "Orders saved.", and Ready
    was taken without a word. The save says how many are invalid; the first Ready says what
    would be left undone and waits for a second press."""
    base = live_server.url
    page = browser.new_context(viewport={"width": 1440, "height": 900}).new_page()
    page.set_default_timeout(10_000)
    sign_up(page, base, "ada")
    game, phase = ada_plays_russia("Invalid lines")
    open_game(page, f"{base}/games/{game.pk}/")
    box = page.locator("#id_orders")
    box.fill("A Moscow - Perm\nA Omsk - Peking")
    page.click("#save-orders")
    settle(page)
    page.wait_for_selector(
        "#order-prompt:has-text('Orders saved, but 1 of 2 is invalid: it will not be carried out.')"
    )
    page.click("#ready-button")
    warning = page.locator("#ready-warning")
    warning.wait_for()
    said = warning.inner_text()
    assert "1 of your 2 saved orders is invalid and will not be carried out." in said
    assert "Without orders: A Vladivostok, A Omsk, F Odessa, F Port Arthur." in said
    assert page.inner_text("#ready-button") == "Ready anyway"
    shot(page, "ready-asks-first")
    game.refresh_from_db()
    assert not game.memberships.get(power="Russia").ready  # not yet
    # A change not saved is one more thing to say: the warning changes, and asks again.
    box.press("Control+End")
    box.press_sequentially("\nF Odessa H")
    page.click("#ready-button")
    page.wait_for_selector("#ready-warning:has-text('changes that are not saved')")
    assert not game.memberships.get(power="Russia").ready
    page.click("#ready-button")  # ready anyway
    page.wait_for_selector("form.ready p.ok")
    assert page.locator("#ready-warning").count() == 0
    assert game.memberships.get(power="Russia").ready


@pytest.mark.django_db(transaction=True)
def test_escape_closes_the_phone_menu_and_gives_the_keyboard_back(browser, live_server):
    """Found by an adversary: on a phone, Escape left the header's menu open."""
    base = live_server.url
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{base}/variants/colonial/")
    menu = page.locator("header details.menu")
    page.click("header details.menu > summary")
    assert menu.evaluate("m => m.open") is True
    assert page.locator("header nav").is_visible()
    page.keyboard.press("Escape")
    assert menu.evaluate("m => m.open") is False
    assert not page.locator("header nav").is_visible()
    assert page.evaluate("document.activeElement.matches('header details.menu > summary')")
