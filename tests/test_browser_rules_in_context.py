"""Issue #14 in Chromium: Turkey's fleet passes the Suez Canal on Britain's permit.

Two browser contexts, two players of one Colonial game. Turkey types its fleet's move first,
and the page calls it valid although no permit exists yet (what only other powers' orders
decide never refuses an order). Britain then grants the permit by clicking: "Suez permit…" in
the board's menu, then the Turkish fleet. Both press Ready; the phase is processed (by a real
Celery worker with PostgreSQL and Redis, else here once the task is seen queued), and both
boards show the Turkish fleet in the Red Sea. Screenshots go to var/screenshots/suez-*.png.
"""

from __future__ import annotations

import os

import pytest
from conftest import LIVE_WORKER, wait_for
from django.contrib.auth import get_user_model
from test_browser import (
    CHROMIUM,
    browser,  # noqa: F401 - a fixture
    click_unit,
    open_game,
    press_ready,
    settle,
    shot,
    type_order,
    worker_or_none,  # noqa: F401 - a fixture
)

from games import services
from games.models import Phase

if not os.path.exists(CHROMIUM) and not os.environ.get("CI"):
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)

pytestmark = [pytest.mark.broker] if LIVE_WORKER else []

PASSWORD = "a long passphrase"


def sign_in(page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/")


def seat_players(chromium, live_server, variant: str, seats: dict[str, str], units=None):
    """A started game of ``variant`` with a signed-in page per player (user name -> power)
    and, when given, only ``units`` (power, unit, location) on its board."""
    users = {name: get_user_model().objects.create_user(name, password=PASSWORD) for name in seats}
    first = next(iter(users.values()))
    game = services.create_game(first, name=f"In context {variant}", variant=variant)
    for name, power in seats.items():
        services.join_game(game, users[name], [power])
    phase = services.start_game(game, first)
    if units is not None:
        phase.units = [{"power": p, "unit": u, "location": loc} for p, u, loc in units]
        phase.save(update_fields=["units"])
    game_url = f"{live_server.url}/games/{game.pk}/"
    pages = {}
    for name in users:
        # bypass_csp: the helpers wait with page functions, which a strict CSP refuses to eval.
        context = chromium.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
        page = context.new_page()
        page.set_default_timeout(10_000)
        sign_in(page, live_server.url, name)
        page.goto(game_url)
        pages[name] = page
    return game, game_url, pages


def all_ready(pages: dict, game_url: str, game, worker, enqueued) -> None:
    """Every player presses Ready; the phase is processed as test_browser.py does it."""
    phase = Phase.objects.get(pk=type(game).objects.get(pk=game.pk).current_phase_id)
    for page in pages.values():
        page.goto(game_url)
        press_ready(page)
    if worker is None:
        assert ("games.tasks.process_phase", (game.pk, phase.pk)) in [e[:2] for e in enqueued]
        assert services.process_phase(game.pk, phase.pk)
    else:

        def processed():
            return Phase.objects.filter(pk=phase.pk, processed_at__isnull=False).exists()

        wait_for(processed, 60, f"the worker to process the phase\n{worker.read_text()}")


def every_board_shows(
    pages: dict, game_url: str, succeeded: list[str], units: dict[str, str | None], shots: str
) -> None:
    """Each player sees the first phase's orders succeed and the board after it: the power
    standing in each location (None: nobody)."""
    for name, page in pages.items():
        page.goto(game_url + "?phase=0")
        text = page.locator("#order-status").inner_text()
        for order in succeeded:
            assert f"{order} — succeeds" in text
        open_game(page, game_url)
        for location, power in units.items():
            unit = page.locator(f'#board g.unit[data-location="{location}"]')
            assert unit.count() == (power is not None), location
            if power is not None:
                assert unit.get_attribute("data-power") == power
        shot(page, f"{shots}-{name}")


@pytest.fixture
def play(browser, live_server, worker_or_none, enqueued):  # noqa: F811 - fixtures imported above
    """``play(variant, seats, units)`` seats the players in their browsers; ``play.ready()``
    has them all press Ready and sees the phase processed."""
    table: dict = {}

    def start(variant: str, seats: dict[str, str], units=None):
        table["game"], table["url"], table["pages"] = seat_players(
            browser, live_server, variant, seats, units
        )
        return table["game"], table["url"], table["pages"]

    start.ready = lambda: all_ready(  # type: ignore[attr-defined]
        table["pages"], table["url"], table["game"], worker_or_none, enqueued
    )
    return start


@pytest.mark.django_db(transaction=True)
def test_turkey_passes_the_canal_on_britains_permit(play):
    units = [("Britain", "A", "Egypt"), ("Turkey", "F", "Mediterranean Sea")]
    game, game_url, pages = play("colonial", {"brit": "Britain", "turk": "Turkey"}, units)
    brit, turk = pages["brit"], pages["turk"]

    # Turkey first: no permit yet, and the move is valid all the same.
    type_order(turk, "F Mediterranean Sea - Red Sea")
    status = turk.locator("#order-status")
    assert "F Mediterranean Sea - Red Sea — valid" in status.inner_text()
    shot(turk, "suez-1-turkey-orders")

    # Britain grants the passage by clicking the permit the engine lists in the menu. The
    # page lists it among the game's own orders too, as a button (without JavaScript).
    assert brit.locator("#rule-orders >> text=Suez permit F Mediterranean Sea").count() == 1
    brit.click("#order-choices >> text=Suez permit F Mediterranean Sea")  # saved at once
    settle(brit)
    brit.goto(game_url)
    assert "Suez permit F Mediterranean Sea — valid" in brit.locator("#order-status").inner_text()
    shot(brit, "suez-2-britain-permit")

    turk.goto(game_url)
    assert "F Mediterranean Sea - Red Sea — valid" in turk.locator("#order-status").inner_text()
    play.ready()

    every_board_shows(
        pages,
        game_url,
        ["F Mediterranean Sea - Red Sea", "Suez permit F Mediterranean Sea"],
        {"Red Sea": "Turkey", "Mediterranean Sea": None},
        "suez-3-after",
    )


@pytest.mark.django_db(transaction=True)
def test_a_british_support_counts_for_a_russian_railroad_move(play):
    units = [("Russia", "A", "Moscow"), ("Britain", "A", "Orenburg"), ("China", "A", "Akmolinsk")]
    seats = {"brit": "Britain", "russ": "Russia", "chin": "China"}
    game, game_url, pages = play("colonial", seats, units)
    # Britain first, supporting a railroad move Russia has not ordered yet: valid.
    type_order(pages["brit"], "A Orenburg S A Moscow - Omsk")
    assert (
        "A Orenburg S A Moscow - Omsk — valid"
        in pages["brit"].locator("#order-status").inner_text()
    )
    # Russia rides the railroad by clicking; China attacks Omsk by typing.
    russ = pages["russ"]
    click_unit(russ, "Moscow")
    russ.click("#order-choices >> text=Move via TSR…")
    russ.click("#order-choices >> text=Omsk")
    settle(russ)
    assert "A Moscow - Omsk via TSR — valid" in russ.locator("#order-status").inner_text()
    type_order(pages["chin"], "A Akmolinsk - Omsk")
    play.ready()
    every_board_shows(  # Russia takes Omsk 2 to 1
        pages,
        game_url,
        ["A Orenburg S A Moscow - Omsk", "A Moscow - Omsk via TSR"],
        {"Omsk": "Russia", "Akmolinsk": "China", "Moscow": None},
        "railroad-support-after",
    )


@pytest.mark.django_db(transaction=True)
def test_a_chinese_power_that_did_not_enter_in_1900_enters_in_1901(play):
    seats = {"eng": "England", "fra": "France"}
    game, game_url, pages = play("chinese", seats)
    eng, fra = pages["eng"], pages["fra"]
    eng.click("#rule-orders >> text=Enter A Pacific Ocean")
    assert "Enter A Pacific Ocean — valid" in eng.locator("#order-status").inner_text()
    play.ready()  # France stays off in 1900

    fra.goto(game_url)
    assert "Year 1901" in fra.locator("#board-title").inner_text()
    assert "France has no army on the board" in fra.locator("#unordered").inner_text()
    shot(fra, "chinese-france-1901")
    fra.click("#rule-orders >> text=Enter A Indo-China")
    assert "Enter A Indo-China — valid" in fra.locator("#order-status").inner_text()
    play.ready()
    for page in pages.values():
        open_game(page, game_url)
        assert "Year 1902" in page.locator("#board-title").inner_text()
        army = page.locator('#board g.unit[data-location="Indo-China"]')
        assert army.get_attribute("data-power") == "France"
    shot(eng, "chinese-england-1902")


@pytest.mark.django_db(transaction=True)
def test_each_chinese_army_in_an_entry_space_is_ordered_by_clicking(play):
    """Three French armies in Indo-China, ordered from the board's menu: a click on the space
    takes the first army still without an order, and each order the menu makes is that
    army's own. The menu kept one order for the whole space (the second army's replaced the
    first's), said every army had one once one had, and gave one Enter or Leave however often
    it was clicked."""
    units = [("France", "A", "Indo-China")] * 3 + [("France", "A", "Pacific Ocean")]
    game, game_url, pages = play("chinese", {"fra": "France"}, units)
    fra = pages["fra"]
    open_game(fra, game_url)
    note = fra.locator("#unordered")
    choices = fra.locator("#order-choices")
    box = fra.locator("#id_orders")
    choices.locator("button", has_text="Enter A Indo-China").wait_for()  # the menu is loaded

    def order(button: str, then: str | None = None) -> None:
        click_unit(fra, "Indo-China")
        choices.locator("button", has_text=button).first.click()
        if then:
            choices.locator("button", has_text=then).first.click()
        settle(fra)

    order("Hold")
    assert note.inner_text() == "Without orders: A Indo-China, A Indo-China, A Pacific Ocean."
    order("Move", "Kwangsi")
    order("Move", "Yunan")
    assert box.input_value().splitlines() == [
        "A Indo-China H",
        "A Indo-China - Kwangsi",
        "A Indo-China - Yunan",
    ]
    assert note.inner_text() == "Without orders: A Pacific Ocean."
    for _ in range(2):
        choices.locator("button", has_text="Enter A Indo-China").click()
        settle(fra)
    choices.locator("button", has_text="A Pacific Ocean Leave").click()
    settle(fra)
    assert box.input_value().splitlines()[3:] == ["Enter A Indo-China"] * 2 + [
        "A Pacific Ocean Leave"
    ]
    assert note.inner_text() == "Every unit has an order."
    phase = type(game).objects.get(pk=game.pk).current_phase
    saved = [o.text for o in phase.orders.order_by("position")]
    assert saved == box.input_value().splitlines()


# A point of the page where a click lands in the named space, off its name and off any unit
# (the first found on a grid over the space's drawing), or None.
_SPOT_IN_SPACE = """(name) => {
  const region = document.querySelector(`#board path[data-province="${name}"]`);
  const r = region.getBoundingClientRect();
  for (let fy = 0.05; fy < 1; fy += 0.05) {
    for (let fx = 0.05; fx < 1; fx += 0.05) {
      const x = r.left + fx * r.width, y = r.top + fy * r.height;
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
      const hit = document.elementsFromPoint(x, y);
      if (!hit.includes(region)) continue;
      if (hit[0].closest("g.label, g.unit, .zoom, #legend")) continue;
      return {x, y, top: hit[0].getAttribute("class") || hit[0].tagName};
    }
  }
  return null;
}"""


@pytest.mark.django_db(transaction=True)
def test_a_click_anywhere_in_an_entry_space_offers_its_entry(play):
    """Found by an adversary: the hatching drawn over Chinese Diplomacy's entry spaces took
    every click inside them, so only a click on the space's small name offered "Enter A
    Pacific Ocean"; a click in the hatched strip did nothing. The hatching (and the board's
    notes) let clicks through to the space."""
    game, game_url, pages = play("chinese", {"eng": "England"})
    eng = pages["eng"]
    open_game(eng, game_url)
    choices = eng.locator("#order-choices")
    choices.locator("button", has_text="Enter A Pacific Ocean").wait_for()  # the menu is in
    eng.wait_for_selector("#board[data-scale]")  # and the board, fitted
    spot = eng.evaluate(_SPOT_IN_SPACE, "Pacific Ocean")
    assert spot is not None, "no point of the Pacific Ocean in view takes a click"
    eng.mouse.click(spot["x"], spot["y"])
    eng.locator("#order-prompt", has_text="Pacific Ocean:").wait_for()
    choices.locator("button", has_text="Enter A Pacific Ocean").first.click()
    settle(eng)
    assert "Enter A Pacific Ocean — valid" in eng.locator("#order-status").inner_text()
