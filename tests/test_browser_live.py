"""Live updates in Chromium (issue #16 item 3): two players on one Colonial game; Russia's
Ready and a new press message appear on China's page without a reload, Ready itself does
not reload Russia's page, and the board arrives as its own resource with its order marks."""

from __future__ import annotations

import time

import pytest
from django.test import Client
from test_browser import ARGS, CHROMIUM, browser, shot  # noqa: F401 (fixture)

from games import services


@pytest.fixture
def live_settings(settings):
    settings.LIVE_MAX_SECONDS = 60
    settings.LIVE_POLL_SECONDS = 0.2
    # Often, so that a stream whose page has closed finds out soon (by writing to it).
    settings.LIVE_HEARTBEAT_SECONDS = 0.5


def page_for(browser, live_server, user, locale: str = "en-GB"):  # noqa: F811
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport={"width": 1440, "height": 900}, locale=locale)
    cookie = client.cookies["sessionid"]
    context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(10_000)
    navigations = []
    page.on(
        "framenavigated",
        lambda frame: navigations.append(frame.url) if frame is page.main_frame else None,
    )
    return page, navigations


@pytest.mark.django_db(transaction=True)
def test_ready_and_press_appear_on_the_other_page_without_reload(
    browser,  # noqa: F811
    live_server,
    make_game,
    seat,
    live_settings,
):
    game = make_game("colonial", process_when_ready=False)
    russia, china = seat(game, "Russia"), seat(game, "China")
    url = f"{live_server.url}/games/{game.pk}/"
    ru, ru_navigations = page_for(browser, live_server, russia.user)
    cn, cn_navigations = page_for(browser, live_server, china.user)
    for page in (ru, cn):
        page.goto(url)
        # The board is fetched on its own and put in place; the stream is connected.
        page.wait_for_selector('#board svg#board-svg g.unit[data-location="Moscow"]')
        page.wait_for_selector("#live[data-connected='1']", state="attached")
    assert len(ru_navigations) == len(cn_navigations) == 1

    china_row = cn.locator('tr[data-power="Russia"]')
    assert china_row.locator("td.ready").inner_text() == ""
    # Russia presses Ready (twice: the first says the units have no orders yet): its own
    # page answers in place...
    ru.click("#ready-button")
    ru.wait_for_selector("#ready-warning")
    ru.click("#ready-button")
    ru.wait_for_selector("form.ready >> text=You are ready.")
    # ...and China's page shows it, as it shows Russia's orders coming in.
    cn.wait_for_selector('tr[data-power="Russia"] td.ready:text-is("yes")')
    services.submit_orders(russia, ["A Moscow - Perm"])
    cn.wait_for_selector('tr[data-power="Russia"] td.orders-in:text-is("in")')

    # Russia writes to China alone, then to everyone; China's page shows both threads' news.
    services.send_message(game, russia.user, "A zebra pact, just us?", ["China"])
    services.send_message(game, russia.user, "Peace to all nations")
    # China had no press when the page opened: both threads appear, each with one unread.
    cn.wait_for_selector('#threads li[data-thread="public"] .unread:text-is("1")')
    cn.wait_for_selector('#threads li[data-thread="China|Russia"] .unread:text-is("1")')
    assert cn.locator("#no-press").count() == 0
    shot(cn, "live-press-and-ready")

    # A moderator moves the deadline: the countdown follows.
    cn.wait_for_selector("#live[data-seen-clock]", state="attached")  # the stream's clock is in
    before = cn.locator("#deadline").get_attribute("datetime")
    services.change_deadline(game, game.creator, minutes=90)
    cn.locator(f'#deadline:not([datetime="{before}"])').wait_for(state="attached")

    # Britain, who may not read the private message, never gets it on its page.
    br, _ = page_for(browser, live_server, seat(game, "Britain").user)
    br.goto(url)
    br.wait_for_selector("#live[data-connected='1']", state="attached")
    services.send_message(game, russia.user, "A second secret", ["China"])
    services.send_message(game, china.user, "Public again")
    br.wait_for_selector("ol.messages-list >> text=Public again")
    html = br.content()
    assert "zebra pact" not in html and "A second secret" not in html

    # The moderator processes the phase: China's page gets the new phase's board and name,
    # and its orders box points to the results and to the new phase.
    services.process_now(game, game.creator)
    cn.wait_for_selector("#new-phase")
    cn.wait_for_selector('#board .board-inner[data-src*="phase=1&"] svg#board-svg')
    assert cn.inner_text("#board-title") == "Autumn 1870 movement"  # Colonial's own word
    assert cn.locator('#new-phase a[href$="?phase=0"]').count() == 1
    shot(cn, "live-processed")

    assert len(ru_navigations) == len(cn_navigations) == 1  # nothing reloaded
    for page in (ru, cn, br):
        page.context.close()
    time.sleep(1.5)  # the streams notice at their next heartbeat and end before the test does


@pytest.mark.django_db(transaction=True)
def test_live_cells_keep_the_pages_language(browser, live_server, make_game, seat, live_settings):  # noqa: F811
    """A Japanese page: the powers table's "orders in" and "ready" as the page wrote them,
    not the English words the script put there."""
    game = make_game("colonial", process_when_ready=False)
    russia, china = seat(game, "Russia"), seat(game, "China")
    cn, _ = page_for(browser, live_server, china.user, locale="ja-JP")
    cn.goto(f"{live_server.url}/games/{game.pk}/")
    cn.wait_for_selector("#live[data-connected='1']", state="attached")
    services.set_ready(russia, True)
    services.submit_orders(russia, ["A Moscow - Perm"])
    cn.wait_for_selector('tr[data-power="Russia"] td.ready:text-is("はい")')
    cn.wait_for_selector('tr[data-power="Russia"] td.orders-in:not(:empty)')
    assert cn.locator('tr[data-power="Russia"] td.orders-in').inner_text() not in ("", "in")


@pytest.mark.django_db(transaction=True)
def test_text_typed_before_the_phase_is_processed_stays_on_the_page(
    browser,  # noqa: F811
    live_server,
    make_game,
    seat,
    live_settings,
):
    """Found by an adversary: the stream's new phase replaced the orders box, and the text typed
    in it (not saved) was gone. It stays on the page, read-only, beside the new phase's links."""
    game = make_game("colonial", process_when_ready=False)
    china = seat(game, "China")
    page, _ = page_for(browser, live_server, china.user)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#live[data-connected='1']", state="attached")
    page.fill("#id_orders", "A Peking H\nTYPED BEFORE PROCESS")
    services.process_now(game, game.creator)
    page.wait_for_selector("#new-phase")
    assert page.input_value("#typed-before") == "A Peking H\nTYPED BEFORE PROCESS"
    page.context.close()
    time.sleep(1.5)


@pytest.mark.django_db(transaction=True)
def test_a_forming_games_page_follows_the_start(browser, live_server, make_user, live_settings):  # noqa: F811
    """Found by an adversary: a page shown while the game was forming never changed when the
    moderator started it. It listens too, and shows the started game."""
    host, ada = make_user("host"), make_user("ada")
    game = services.create_game(host, name="Forming", variant="colonial")
    services.join_game(game, ada, ["Russia"])
    page, navigations = page_for(browser, live_server, ada)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#live[data-connected='1']", state="attached")
    assert page.locator("#orders-form").count() == 0
    services.start_game(game, host)
    page.wait_for_selector("#orders-form", timeout=15_000)
    assert len(navigations) == 2  # the page, then the started game's
    page.context.close()
    time.sleep(1.5)


@pytest.mark.django_db(transaction=True)
def test_orders_saved_before_the_phase_is_processed_are_not_copied_as_unsaved(
    browser,  # noqa: F811
    live_server,
    make_game,
    seat,
    live_settings,
):
    """Found by an adversary: orders saved with the Save button were shown after processing
    as "your orders box, as it was" to copy, as if they had never been saved."""
    from games.models import Order

    game = make_game("colonial", process_when_ready=False)
    china = seat(game, "China")
    page, _ = page_for(browser, live_server, china.user)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#live[data-connected='1']", state="attached")
    page.fill("#id_orders", "A Peking H")
    page.click("#save-orders")
    for _ in range(100):  # the save, by the page's script
        if Order.objects.filter(phase=game.current_phase, power="China").exists():
            break
        time.sleep(0.1)
    page.wait_for_selector("#orders-form:not([data-checking='1'])", state="attached")
    services.process_now(game, game.creator)
    page.wait_for_selector("#new-phase")
    assert page.locator("#typed-before").count() == 0
    page.context.close()
    time.sleep(1.5)


@pytest.mark.django_db(transaction=True)
def test_a_replaced_players_open_page_reads_itself_again(
    browser,  # noqa: F811
    live_server,
    make_game,
    make_user,
    seat,
    live_settings,
):
    """Found by an adversary: a player the moderator replaced kept an open page that still
    said they played their power, its orders box refused with a 403 at every save."""
    game = make_game("colonial", process_when_ready=False)
    china = seat(game, "China")
    page, navigations = page_for(browser, live_server, china.user)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#live[data-connected='1']", state="attached")
    assert page.locator("#orders-form").count() == 1
    services.replace_player(game, game.creator, "China", make_user("newcomer"))
    # The page reads itself again; or, should its orders box hold text not saved (the page's
    # script may have written in it), it says the seat has changed and waits for a reload.
    for _ in range(300):
        if len(navigations) == 2 or page.locator("#seat-changed").count():
            break
        time.sleep(0.1)
    if len(navigations) == 2:
        page.wait_for_load_state()
        assert page.locator("#orders-form").count() == 0
    else:
        note = page.inner_text("#seat-changed")
        assert note.startswith("Your seat in this game has changed"), note
    page.context.close()
    time.sleep(1.5)


@pytest.mark.django_db(transaction=True)
def test_a_forming_games_page_counts_the_seats_as_players_join(
    browser,  # noqa: F811
    live_server,
    make_user,
    live_settings,
):
    """Found by an adversary: a forming game's open page said "0 of 7 seats taken" however
    many joined meanwhile. It reads itself again as seats are taken or given up."""
    host, ada, bea = make_user("host"), make_user("ada"), make_user("bea")
    game = services.create_game(host, name="Forming", variant="colonial")
    page, navigations = page_for(browser, live_server, host)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#live[data-connected='1']", state="attached")
    assert "0 of 7 seats taken" in page.inner_text("main")
    services.join_game(game, ada, ["Russia"])
    page.wait_for_selector("text=1 of 7 seats taken", timeout=15_000)
    services.join_game(game, bea, ["China"])
    page.wait_for_selector("text=2 of 7 seats taken", timeout=15_000)
    services.leave_game(game.memberships.get(user=bea))
    page.wait_for_selector("text=1 of 7 seats taken", timeout=15_000)
    assert len(navigations) == 4
    page.context.close()
    time.sleep(1.5)


@pytest.mark.django_db(transaction=True)
def test_the_header_says_paused_when_the_game_is_paused(
    browser,  # noqa: F811
    live_server,
    make_game,
    seat,
    live_settings,
):
    """Found by a UI tester: a game paused while the page was open said "Active" in the
    header next to "The game is paused."; it says Paused, and Active again on resuming."""
    game = make_game("colonial", process_when_ready=False)
    china = seat(game, "China")
    page, _ = page_for(browser, live_server, china.user)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#live[data-connected='1']", state="attached")
    assert page.inner_text("#game-status") == "Active"
    services.pause(game, game.creator)
    page.wait_for_selector("#clock-words:text-is('The game is paused.')")
    page.wait_for_selector("#game-status:text-is('Paused')")
    services.resume(game, game.creator)
    page.wait_for_selector("#game-status:text-is('Active')")
    page.context.close()
    time.sleep(1.5)


@pytest.mark.django_db(transaction=True)
def test_a_page_refused_a_stream_polls_and_says_so(
    browser,  # noqa: F811
    live_server,
    make_game,
    seat,
    live_settings,
    settings,
):
    """Found by a UI tester: a page past the account's streams was refused (429) and
    silently caught up late. It polls instead, says so, and streams again when it can."""
    settings.LIVE_STREAMS_PER_USER = 1
    game = make_game("colonial", process_when_ready=False)
    russia, china = seat(game, "Russia"), seat(game, "China")
    url = f"{live_server.url}/games/{game.pk}/"
    first, _ = page_for(browser, live_server, china.user)
    first.goto(url)
    first.wait_for_selector("#live[data-connected='1']", state="attached")
    second, navigations = page_for(browser, live_server, china.user)
    second.goto(url)
    second.wait_for_selector("#live[data-mode='polling']", state="attached")
    second.locator("#live-note").wait_for(state="visible")
    assert "checks for news every 10 seconds" in second.inner_text("#live-note")
    shot(second, "live-polling")
    # News still comes: Russia's Ready and a press message, within a poll or two.
    services.set_ready(russia, True)
    services.send_message(game, russia.user, "Polled news")
    second.wait_for_selector('tr[data-power="Russia"] td.ready:text-is("yes")', timeout=25_000)
    second.wait_for_selector('#threads li[data-thread="public"] .unread:text-is("1")')
    # The other page closes: this one gets the stream back and stops polling.
    first.context.close()
    second.wait_for_selector("#live[data-connected='1']", state="attached", timeout=40_000)
    second.locator("#live-note").wait_for(state="hidden")
    services.send_message(game, russia.user, "Streamed news")
    second.wait_for_selector('#threads li[data-thread="public"] .unread:text-is("2")')
    assert len(navigations) == 1
    second.context.close()
    time.sleep(1.5)


@pytest.mark.django_db(transaction=True)
def test_a_cursor_the_server_refuses_is_dropped_not_sent_again(
    browser,  # noqa: F811
    live_server,
    make_game,
    seat,
    live_settings,
    settings,
):
    """A page's cursor names a message the game no longer has (an admin deleted press): the
    server refuses it (400), and the page used to poll with it, refused, until reloaded. It
    now drops the cursor and streams from the game as it is."""
    from games.models import Message

    settings.LIVE_MAX_SECONDS = 2  # each stream ends soon, and the browser comes back
    game = make_game("colonial", process_when_ready=False)
    russia, china = seat(game, "Russia"), seat(game, "China")
    services.send_message(game, russia.user, "Kept")
    deleted = services.send_message(game, russia.user, "Soon deleted")
    page, _ = page_for(browser, live_server, china.user)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#live[data-connected='1']", state="attached")
    Message.objects.filter(pk=deleted.pk).delete()  # the cursor now names a message too far
    time.sleep(4)  # the stream has ended and its cursor been refused
    services.set_ready(russia, True)  # news that is no message (a new one would mend the cursor)
    page.wait_for_selector('tr[data-power="Russia"] td.ready:text-is("yes")', timeout=30_000)
    page.wait_for_selector("#live[data-mode='stream'][data-connected='1']", state="attached")
    page.context.close()
    time.sleep(1.5)


@pytest.mark.django_db(transaction=True)
def test_a_processed_phase_comes_in_place_with_its_orders_tools(
    browser,  # noqa: F811
    live_server,
    make_game,
    seat,
    live_settings,
):
    """Found by a UI tester: when the phase was processed the title changed at once, the
    board seconds later, the Phase menu kept the old phase alone and the orders panel became
    a link that reloaded the page. The new phase's name, menu, board and order tools all come
    in place, without a reload; what was typed and not saved stays to copy from."""
    game = make_game("colonial", process_when_ready=False)
    china = seat(game, "China")
    page, navigations = page_for(browser, live_server, china.user)
    page.goto(f"{live_server.url}/games/{game.pk}/?phase=0")
    page.wait_for_selector("#order-menu[data-options]")
    page.wait_for_selector("#live[data-connected='1']", state="attached")
    page.fill("#id_orders", "A Peking H\nTYPED BEFORE PROCESS")
    services.process_now(game, game.creator)
    page.wait_for_selector("#new-phase")
    page.wait_for_selector('#board .board-inner[data-src*="phase=1&"] svg#board-svg')
    page.wait_for_selector("#board-loading", state="detached")
    assert page.inner_text("#board-title") == "Autumn 1870 movement"
    options = page.locator("#phase-select option").all_inner_texts()
    assert options == ["0. Spring 1870 movement", "1. Autumn 1870 movement"]
    assert page.locator("#phase-select option[selected]").inner_text().startswith("1.")
    assert page.input_value("#orders-form input[name=phase]") == "1"
    assert page.input_value("#id_orders") == ""
    assert page.input_value("#typed-before") == "A Peking H\nTYPED BEFORE PROCESS"
    assert page.locator('#new-phase a[href$="?phase=0"]').count() == 1
    assert "?phase=" not in page.url  # the address is the current phase's again
    # The order tools are the new phase's: a click on a unit opens its menu, and an order
    # picked there is saved for phase 1.
    page.wait_for_selector("#order-menu[data-options]")
    page.locator('#board g.unit[data-location="Peking"]').first.click()
    page.locator("#order-choices button", has_text="Hold").first.click()
    page.wait_for_selector('#order-prompt:has-text("A Peking H — saved.")')
    page.wait_for_selector("#orders-form[data-checking='']", state="attached")
    phase = game.phases.get(index=1)
    wait_until = time.monotonic() + 5
    while not phase.orders.filter(power="China").exists() and time.monotonic() < wait_until:
        time.sleep(0.1)
    assert [o.text for o in phase.orders.filter(power="China")] == ["A Peking H"]
    shot(page, "live-new-phase-in-place")
    # Ready is the new phase's too.
    page.click("#ready-button")
    page.wait_for_selector("#ready-warning")
    page.click("#ready-button")
    page.wait_for_selector("form.ready p.ok")
    china.refresh_from_db()
    assert china.ready
    # Nothing reloaded: the one change of address is the history's (?phase=0 dropped).
    url = f"{live_server.url}/games/{game.pk}/"
    assert navigations == [url + "?phase=0", url]
    page.context.close()
    time.sleep(1.5)


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_page_holding_typed_text_keeps_one_state_until_reloaded(
    browser,  # noqa: F811
    live_server,
    make_game,
    seat,
    live_settings,
):
    """Found by a UI tester: after a moderator's rollback, a page holding typed text said
    "rolled back… reload the page" and kept the old board, but the next events still came in:
    the title said the new phase ("Spring 1870 movement") over the old board and phase menu.
    The page keeps the old state whole (title, menu, table, clock) until the reload."""
    game = make_game("colonial", process_when_ready=False)
    russia, china = seat(game, "Russia"), seat(game, "China")
    services.process_now(game, game.creator)
    game.refresh_from_db()
    page, navigations = page_for(browser, live_server, china.user)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#live[data-connected='1']", state="attached")
    assert page.inner_text("#board-title") == "Autumn 1870 movement"
    page.fill("#id_orders", "A Peking H\nTYPED BEFORE THE ROLLBACK")
    deadline = page.locator("#deadline").get_attribute("datetime")
    services.rollback(game, game.creator, 0)
    page.wait_for_selector("#rolled-back")
    # News after the rollback, which a page still following the game would show at once.
    services.set_ready(russia, True)
    services.change_deadline(game, game.creator, minutes=90)
    page.wait_for_timeout(3000)
    assert page.inner_text("#board-title") == "Autumn 1870 movement"
    assert page.locator("#phase-select option[selected]").inner_text().startswith("1.")
    assert page.locator('tr[data-power="Russia"] td.ready').inner_text() == ""
    assert page.locator("#deadline").get_attribute("datetime") == deadline
    assert page.input_value("#id_orders") == "A Peking H\nTYPED BEFORE THE ROLLBACK"
    assert len(navigations) == 1  # not reloaded under the typed text
    # The reload the note offers shows the game as it is now.
    page.click("#rolled-back a")
    page.wait_for_selector("#live[data-connected='1']", state="attached")
    assert page.inner_text("#board-title") == "Spring 1870 movement"
    page.context.close()
    time.sleep(1.5)


@pytest.mark.django_db(transaction=True)
def test_a_second_tab_follows_orders_saved_in_the_first(
    browser,  # noqa: F811
    live_server,
    make_game,
    seat,
    live_settings,
):
    """Found by a UI tester: two tabs of one player; an order given in one (saved at once)
    never showed in the other, whose box, list, arrows and "Without orders" warnings (Ready's
    too) kept the old state. A tab whose box holds nothing unsaved now follows the saved
    orders as they change; one holding typed text keeps it and says the orders changed."""
    from test_browser import click_unit, settle

    game = make_game("colonial", process_when_ready=False)
    russia = seat(game, "Russia")
    url = f"{live_server.url}/games/{game.pk}/"
    first, _ = page_for(browser, live_server, russia.user)
    second = first.context.new_page()  # the same session: the same player in another tab
    second.set_default_timeout(10_000)
    for page in (first, second):
        page.goto(url)
        page.wait_for_selector("#order-menu[data-options]")
        page.wait_for_selector("#live[data-connected='1']", state="attached")
    changed = "#order-prompt:has-text('Your orders were changed in another tab or device')"

    # The first tab moves A Moscow from the board's menu (saved at once): the second shows it.
    click_unit(first, "Moscow")
    first.click("#order-choices >> text=Move…")
    first.click("#order-choices >> text=Perm")
    settle(first)
    second.wait_for_selector(changed)
    assert second.input_value("#id_orders") == "A Moscow - Perm"
    assert "A Moscow - Perm — valid" in second.inner_text("#order-status")
    assert "A Moscow" not in second.inner_text("#unordered")
    second.wait_for_selector("#board #order-marks > *", state="attached")  # its arrow
    settle(second)

    # The first tab is asked to confirm Ready (units without orders); the second saves typed
    # orders: the first's box, list and warnings follow, Ready's warning too.
    first.click("#ready-button")
    first.wait_for_selector("#ready-warning:has-text('A Omsk')")
    box = second.locator("#id_orders")
    box.press("Control+End")
    box.press_sequentially("\nA Omsk H")
    second.click("#save-orders")
    settle(second)
    first.wait_for_selector(changed)
    assert first.input_value("#id_orders") == "A Moscow - Perm\nA Omsk H"
    assert "A Omsk H — valid" in first.inner_text("#order-status")
    missing = "Without orders: A Vladivostok, F Odessa, F Port Arthur."
    assert first.inner_text("#unordered") == missing
    first.wait_for_selector(f"#ready-warning:has-text('{missing}')")
    settle(first)

    # Text typed in the first tab and not saved stays when the second saves again; the page
    # says so, and Save orders keeps both.
    box = first.locator("#id_orders")
    box.press("Control+End")
    box.press_sequentially("\nF Odessa H")
    first.wait_for_timeout(1000)
    settle(first)
    click_unit(second, "Vladivostok")
    second.click("#order-choices >> text=Hold")
    settle(second)
    first.wait_for_selector("#orders-elsewhere")
    assert "What you typed here is not saved" in first.inner_text("#orders-elsewhere")
    assert first.input_value("#id_orders") == "A Moscow - Perm\nA Omsk H\nF Odessa H"
    first.click("#save-orders")
    settle(first)
    first.wait_for_selector("#orders-elsewhere", state="detached")
    assert first.inner_text("#unordered") == "Without orders: F Port Arthur."
    warning = first.inner_text("#ready-warning")  # Ready's warning follows the save too
    assert "Without orders: F Port Arthur." in warning and "not saved" not in warning, warning
    saved = sorted(o.text for o in game.current_phase.orders.filter(power="Russia"))
    assert saved == ["A Moscow - Perm", "A Omsk H", "A Vladivostok H", "F Odessa H"]
    shot(first, "live-orders-saved-elsewhere")
    first.context.close()
    time.sleep(1.5)


@pytest.mark.django_db(transaction=True)
def test_an_order_picked_on_the_board_and_refused_says_so_where_the_player_looks(
    browser,  # noqa: F811
    live_server,
    make_game,
    seat,
    live_settings,
):
    """Found by an adversary: an order picked from the board's menu was announced "— saved."
    before the server answered, so a refusal (here the phase processed while the page, its
    live stream cut, had not heard) read as saved at the top, its reason far below."""
    game = make_game("colonial", process_when_ready=False)
    china = seat(game, "China")
    page, _ = page_for(browser, live_server, china.user)
    page.route("**/events/**", lambda route: route.abort())  # no live news of the processing
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#order-menu[data-options]")
    services.process_now(game, game.creator)
    page.locator('#board g.unit[data-location="Peking"]').first.click()
    page.locator("#order-choices button", has_text="Hold").first.click()
    page.wait_for_selector('#order-prompt:has-text("A Peking H — not saved:")')
    prompt = page.inner_text("#order-prompt")
    assert "meant for phase 0" in prompt and "— saved" not in prompt, prompt
    assert not game.phases.get(index=1).orders.filter(power="China").exists()
    shot(page, "board-menu-order-refused")
    page.context.close()


@pytest.mark.django_db(transaction=True)
def test_a_long_thread_shows_its_newest_press_and_press_coming_in(
    browser,  # noqa: F811
    live_server,
    make_game,
    seat,
    live_settings,
):
    """Found by an adversary: a thread's box opened at its oldest message and press arriving
    live went in below what was shown (a box 2,645 px tall, 352 px of it shown, scrolled to
    the top)."""
    game = make_game("colonial", process_when_ready=False)
    russia, china = seat(game, "Russia"), seat(game, "China")
    for n in range(15):
        services.send_message(game, russia.user, f"Old news {n}\nsecond line\nthird line")
    cn, _ = page_for(browser, live_server, china.user)
    cn.goto(f"{live_server.url}/games/{game.pk}/?thread=public#press")
    cn.wait_for_selector("#live[data-connected='1']", state="attached")
    shown = "(l) => l.scrollTop + l.clientHeight >= l.scrollHeight - 2"
    box = cn.locator("ol.messages-list")
    assert box.evaluate("(l) => l.scrollHeight > l.clientHeight + 100")  # it does scroll
    assert box.evaluate(shown)
    services.send_message(game, russia.user, "Fresh news")
    cn.wait_for_selector("ol.messages-list >> text=Fresh news")
    assert box.evaluate(shown)
    # Scrolled back to read older press, the reader stays there as more comes in.
    box.evaluate("(l) => { l.scrollTop = 0; }")
    services.send_message(game, russia.user, "Later news")
    cn.wait_for_selector("ol.messages-list >> text=Later news")
    assert box.evaluate("(l) => l.scrollTop") == 0


@pytest.mark.django_db(transaction=True)
def test_press_coming_in_is_not_put_on_an_earlier_page_of_its_thread(
    browser,  # noqa: F811
    live_server,
    make_game,
    seat,
    live_settings,
):
    """Found by an adversary: on "Earlier messages", a new message went in below the oldest
    ones shown, the fifty between them missing."""
    game = make_game("colonial", process_when_ready=False)
    russia, china = seat(game, "Russia"), seat(game, "China")
    for n in range(60):
        services.send_message(game, russia.user, f"Old news {n}")
    cn, _ = page_for(browser, live_server, china.user)
    cn.goto(f"{live_server.url}/games/{game.pk}/?thread=public#press")
    cn.click("text=Earlier messages")
    cn.wait_for_selector("ol.messages-list[data-paged]")
    cn.wait_for_selector("#live[data-connected='1']", state="attached")
    services.send_message(game, russia.user, "Fresh news")
    cn.wait_for_timeout(1500)  # the stream's nudge, several polls' worth
    assert cn.locator("ol.messages-list >> text=Fresh news").count() == 0


@pytest.mark.django_db(transaction=True)
def test_the_other_players_pages_follow_a_seat_changing_hands(
    browser,  # noqa: F811
    live_server,
    make_game,
    make_user,
    seat,
    live_settings,
):
    """Found by an adversary: the moderator handed Japan to another player, and the other
    players' open pages named Japan's old player until reloaded. The powers event says who
    plays what as the viewer sees it, and a page showing other seats reads its rows again,
    without a reload."""
    game = make_game("colonial", process_when_ready=False)
    china, japan = seat(game, "China"), seat(game, "Japan")
    page, navigations = page_for(browser, live_server, china.user)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#live[data-connected='1']", state="attached")
    row = page.locator('tr[data-power="Japan"] .player')
    assert row.inner_text() == japan.user.username
    services.replace_player(game, game.creator, "Japan", make_user("newcomer"))
    for _ in range(100):
        if row.inner_text() == "newcomer":
            break
        time.sleep(0.1)
    assert row.inner_text() == "newcomer"
    services.set_bot(game, game.creator, "Japan", True)
    for _ in range(100):
        if "bot" in row.inner_text():
            break
        time.sleep(0.1)
    assert "bot" in row.inner_text(), row.inner_text()
    assert len(navigations) == 1  # no reload
    page.context.close()
    time.sleep(1.5)
