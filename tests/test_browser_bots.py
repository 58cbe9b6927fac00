"""The demo in Chromium, one human against bots for a whole year (issue 18): demo3 signs in,
opens their Colonial demo game (Russia; bots on the six other seats) and plays Spring, Fall and
the Winter adjustments of 1870 through the page, typing orders and pressing Ready. Each phase
the bots' orders are in before the human is ready, and the phase is processed with them.

With PostgreSQL and Redis configured (always in CI) a real Celery worker plays the bots and
processes the phases, as in production; without them the recorded tasks of this game are run
here, synchronously, as tests/test_bot_seats.py does. Screenshots go to var/screenshots/.
"""

from __future__ import annotations

import re

import pytest
import test_browser  # skips this module too without Chromium
import test_browser_demo
from conftest import LIVE_WORKER, wait_for

from adjudication import options
from games import engine, services, tasks
from games.models import Game, Order, Phase

chromium = test_browser.browser
seeded = test_browser_demo.demo  # the demo as `make run` seeds it
worker_or_none = test_browser.worker_or_none
pytestmark = [pytest.mark.broker] if LIVE_WORKER else []
HUMAN = "Russia"
# What the human types in each season (the rest of Russia's units hold): three neutral centres
# tried in Spring and held in Fall, so Russia has builds to make in the Winter.
TYPED = {
    "spring": ["A Vladivostok - Manchuria", "F Port Arthur - Seoul/wc", "F Odessa - Rumania"],
    "fall": ["A Omsk H"],
}


def run_game_tasks(enqueued: list, game: Game) -> None:
    """Without a worker: run the recorded bot and processing tasks of this game (the demo
    seeds twenty others whose tasks are left alone)."""
    while True:
        mine = [e for e in enqueued if e[0].endswith(("play_bots", "process_phase"))]
        mine = [e for e in mine if e[1][0] == game.pk and not e[2].get("eta")]
        if not mine:
            return
        for entry in mine:
            enqueued.remove(entry)
            getattr(tasks, entry[0].rsplit(".", 1)[-1])(*entry[1])


def bots_in(game: Game, phase: Phase) -> tuple[dict[str, list[str]]] | None:
    """The bot seats that act in the phase, each with the orders it has stored, once every
    one of them is ready (else None)."""
    bots = game.memberships.filter(bot=True, status="active")
    acting = engine.powers_to_act(phase) & set(bots.values_list("power", flat=True))
    if not all(bots.get(power=p).ready for p in acting):
        return None
    stored = Order.objects.filter(phase=phase)
    return ({p: list(stored.filter(power=p).values_list("text", flat=True)) for p in acting},)


@pytest.mark.django_db(transaction=True)
def test_one_human_plays_a_whole_demo_year_against_bots(  # the worker first: it purges its queue
    chromium, live_server, worker_or_none, seeded, enqueued
):
    game = Game.objects.get(variant="colonial", memberships__user__username="demo3")
    assert game.memberships.get(user__username="demo3").power == HUMAN
    assert game.memberships.filter(bot=True).count() == 6
    page = test_browser_demo.sign_in(chromium, live_server.url, "desktop")
    url = f"{live_server.url}/games/{game.pk}/"
    played = []
    while True:
        game.refresh_from_db()
        phase = game.current_phase
        if phase.year > 1870:
            break
        if worker_or_none is None:
            run_game_tasks(enqueued, game)
        log = worker_or_none.read_text if worker_or_none else lambda: ""
        (orders,) = wait_for(lambda p=phase: bots_in(game, p), 90, f"bots in {phase.name}\n{log()}")
        # Every bot that acts has sent its orders before the human is ready.
        assert all(orders.values()), orders
        if phase.type == Phase.Type.MOVEMENT:
            assert len(orders) == 6, orders
        if HUMAN in engine.powers_to_act(phase):
            test_browser.open_game(page, url)
            title = page.locator("#board-title").inner_text()
            assert phase.name in title, title  # the page shows the phase being played
            if phase.type == Phase.Type.MOVEMENT:
                for text in TYPED[phase.season]:
                    test_browser.type_order(page, text)
                saved = Order.objects.filter(phase=phase, power=HUMAN, valid=True)
                assert set(saved.values_list("canonical", flat=True)) >= set(TYPED[phase.season])
            else:  # a build, a removal or a retreat: the first the engine lists
                listed = options(engine.request(game, phase, []), HUMAN)["orders"]
                if listed:
                    test_browser.type_order(page, listed[0]["order"])
            test_browser.press_ready(page)
        # Every power is ready: the phase is processed at once (the worker, or here).
        if worker_or_none is None:
            run_game_tasks(enqueued, game)

        def processed(phase=phase):
            return Phase.objects.filter(pk=phase.pk, processed_at__isnull=False).exists()

        wait_for(processed, 90, f"{phase.name} processed\n{log()}")
        results = Order.objects.filter(phase=phase, power__in=list(orders))
        assert results.count() == sum(len(v) for v in orders.values())
        assert all(o.result for o in results if o.valid), [(o.text, o.result) for o in results]
        assert not results.filter(valid=False).exists()  # bots never send an invalid order
        played.append((phase.season, phase.type, HUMAN in engine.powers_to_act(phase)))
    assert ("spring", "movement", True) in played and ("fall", "movement", True) in played
    # Every phase of the year, the Winter adjustments too (processed at once when the human
    # has nothing to build), went through with every acting bot's orders in it.
    year = list(Phase.objects.filter(game=game, year=1870).order_by("index"))
    assert [p.type for p in year if p.type != "retreats"] == ["movement", "movement", "adjustments"]
    for past in year:
        assert past.processed_at is not None
        acting = engine.powers_to_act(past) - {HUMAN}
        stored = Order.objects.filter(phase=past, power__in=acting)
        assert set(stored.values_list("power", flat=True)) == acting, past.name
        assert all(o.valid and o.result for o in stored), past.name
    print("phases the human played:", played, "| the year:", [p.name for p in year])
    test_browser.open_game(page, url)
    assert "1871" in page.locator("#board-title").inner_text()
    assert re.search(r"Spring 1871", page.locator("#board-title").inner_text())
    test_browser.shot(page, "demo-year-against-bots")
    assert not services.is_bot_account(game.memberships.get(power=HUMAN).user)
