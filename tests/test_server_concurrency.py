"""Concurrent workers and players against a real database (PostgreSQL in CI).

Each thread has its own database connection, so the row locks are the database's own.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.db import connection

from games import services
from games.models import Order

pytestmark = [pytest.mark.usefixtures("require_postgres"), pytest.mark.django_db(transaction=True)]


def run_together(jobs: list[Callable[[], object]]) -> list[object]:
    """Start every job at the same moment, each in its own thread and connection."""
    barrier = threading.Barrier(len(jobs))
    results: list[object] = [None] * len(jobs)

    def run(n: int) -> None:
        try:
            barrier.wait()
            results[n] = jobs[n]()
        except Exception as e:  # reported by the test
            results[n] = e
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results


def test_two_workers_process_a_phase_exactly_once(game, seat) -> None:
    assert connection.vendor == "postgresql"
    services.submit_orders(seat(game, "France"), ["A Paris - Burgundy"])
    phase_id = game.current_phase_id

    def worker() -> bool:
        return services.process_phase(game.pk, phase_id, force=True)

    for _ in range(3):
        results = run_together([worker, worker])
        assert sorted(results) == [False, True], results
        game.refresh_from_db()
        phase_id = game.current_phase_id
    assert [p.index for p in game.phases.all()] == [0, 1, 2, 3]
    assert game.phases.get(index=0).orders.get().result == "succeeds"


def test_fifty_concurrent_submissions_lose_nothing(make_game, seat) -> None:
    games = [make_game() for _ in range(8)]
    units = {}  # one unit of each power, as order text
    for unit in games[0].current_phase.units:
        units.setdefault(unit["power"], f"{unit['unit']} {unit['location']}")
    seats = [(g, power) for g in games for power in units][:50]

    def submit(g, power: str) -> Callable[[], object]:
        membership = seat(g, power)
        return lambda: services.submit_orders(membership, [f"{units[power]} H"])

    results = run_together([submit(g, power) for g, power in seats])
    assert not [r for r in results if isinstance(r, Exception)], results
    stored = set(Order.objects.values_list("phase__game_id", "power", "valid"))
    assert stored == {(g.pk, power, True) for g, power in seats}
    assert Order.objects.count() == 50


def test_one_power_sending_from_many_tabs_at_once_keeps_one_whole_set(game, seat) -> None:
    """Each replacement is whole: never two sets mixed, never a unit ordered twice."""
    france = seat(game, "France")
    sets = [
        ["A Paris - Burgundy", "A Marseilles - Spain", "F Brest - Mid-Atlantic Ocean"],
        ["A Paris - Picardy", "A Marseilles H", "F Brest - English Channel"],
        ["A Paris H", "A Marseilles - Piedmont", "F Brest H"],
    ] * 4

    def submit(texts: list[str]) -> Callable[[], object]:
        return lambda: services.submit_orders(france, texts)

    results = run_together([submit(texts) for texts in sets])
    assert not [r for r in results if isinstance(r, Exception)], results
    stored = list(Order.objects.filter(power="France").order_by("position"))
    assert [o.text for o in stored] in sets
    assert all(o.valid for o in stored)


def test_a_sandboxs_process_and_undo_sent_at_once_never_both_happen(make_user) -> None:
    """Process and Undo of phase 1 sent at the same moment: one is done and the other refused
    (409), never both, which undid the processing just made without a word."""
    from games import sandbox

    user = make_user("practice")
    game = sandbox.create_sandbox(user, "standard")
    services.process_now(game, user, phase=0)
    for _ in range(3):
        game.refresh_from_db()
        index = game.current_phase.index

        def process(index: int = index) -> object:
            return services.process_now(game, user, phase=index)

        def undo(index: int = index) -> object:
            return sandbox.undo(game, user, phase=index)

        results = run_together([process, undo])
        refused = [r for r in results if isinstance(r, services.PhaseChanged)]
        assert len(refused) == 1, results
        game.refresh_from_db()
        done_by = "undo" if isinstance(results[0], services.PhaseChanged) else "process"
        assert game.current_phase.index == (index - 1 if done_by == "undo" else index + 1)
        if done_by == "undo":
            services.process_now(game, user, phase=index - 1)


def test_leaves_sent_at_once_through_the_api(moderator, make_user, api) -> None:
    """Two players leaving a forming game at once both leave; one player's leave sent twice
    at once (a double click) leaves once, and the other is refused with 400, never a 500."""
    forming = services.create_game(moderator, name="Forming", variant="standard")
    url = f"/api/games/{forming.pk}/leave/"
    ada, bob, eve = (make_user(name) for name in ("ada", "bob", "eve"))
    for user in (ada, bob, eve):
        services.join_game(forming, user)

    def leave(user) -> Callable[[], int]:
        return lambda: api(user).post(url).status_code

    assert run_together([leave(ada), leave(bob)]) == [200, 200]
    assert sorted(run_together([leave(eve), leave(eve)])) == [200, 400]
    assert not forming.memberships.exists()


def test_games_created_at_once_never_pass_the_creators_caps(make_user, settings) -> None:
    """The caps on a creator's games were counted, then the game made: requests sent at once
    all counted the same games and all made one (12 at once made 6 under a cap of 5)."""
    settings.MAX_FORMING_GAMES = 2
    creator = make_user("eager")

    def create() -> object:
        return services.create_game(creator, name="Eager", variant="standard", capped=True)

    results = run_together([create] * 8)
    made = [r for r in results if not isinstance(r, Exception)]
    assert all(isinstance(r, services.GameError) for r in results if r not in made), results
    assert len(made) == 2, results
    assert services.Game.objects.filter(creator=creator).count() == 2


def test_two_sign_ups_at_once_cannot_share_an_address(monkeypatch) -> None:
    """Each sign-up checks the address is free, then saves it: both checked before either
    saved, and two accounts got one mailbox (an adversary's finding). The check is slowed
    so that the two overlap; one account gets the address, the other is refused for it."""
    import time

    from django.contrib.auth import get_user_model

    from games import notifications, serializers

    checked = notifications.address_problem

    def slow_check(address, user=None):
        answer = checked(address, user)
        time.sleep(0.3)  # the other sign-up checks meanwhile
        return answer

    monkeypatch.setattr(notifications, "address_problem", slow_check)

    def sign_up(name: str) -> object:
        return serializers.create_account(
            username=name, email="Same@Example.org", password="a long pass phrase"
        )

    results = run_together([lambda: sign_up("first_one"), lambda: sign_up("second_one")])
    users = get_user_model().objects.filter(email__iexact="same@example.org")
    assert users.count() == 1, results
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(refused) == 1 and "Another account already uses this address" in str(refused[0])


def test_two_accounts_taking_one_address_at_once_cannot_both_have_it(
    make_user, monkeypatch
) -> None:
    """The settings' address change, as a sign-up: checked and saved one after the other."""
    import time

    from django.contrib.auth import get_user_model

    from games import notifications

    checked = notifications.address_problem

    def slow_check(address, user=None):
        answer = checked(address, user)
        time.sleep(0.3)
        return answer

    monkeypatch.setattr(notifications, "address_problem", slow_check)
    first, second = make_user("first_mover"), make_user("second_mover")
    results = run_together(
        [lambda u=u: notifications.set_address(u, "shared@example.org") for u in (first, second)]
    )
    assert get_user_model().objects.filter(email="shared@example.org").count() == 1, results
    assert sum(isinstance(r, notifications.AddressTaken) for r in results) == 1
