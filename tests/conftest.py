"""Shared pytest fixtures. pytest-django reads its settings from pyproject.toml."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

DATABASE_URL = os.environ.get("DATABASE_URL", "")
REDIS_URL = os.environ.get("REDIS_URL", "")
CI = bool(os.environ.get("CI"))
# A real Celery worker can serve a test only with a database it can share (PostgreSQL; the
# test's SQLite database may be in memory) and a broker outside this process (Redis).
LIVE_WORKER = DATABASE_URL.startswith("postgres") and bool(REDIS_URL)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "broker: send Celery tasks to the real broker")


# Locally these skip without the service; in CI they run, and fail if it is missing.
@pytest.fixture
def require_postgres() -> None:
    if not DATABASE_URL.startswith("postgres") and not CI:
        pytest.skip("DATABASE_URL is not PostgreSQL")


@pytest.fixture
def require_redis() -> None:
    if not REDIS_URL and not CI:
        pytest.skip("REDIS_URL is not set")


@pytest.fixture(autouse=True)
def fast_passwords(settings) -> None:
    """Real password hashing costs a fifth of a second per user; tests make hundreds."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def no_rate_limits(settings) -> None:
    """Rate limits count across tests (one client address, one cache); tests of them set rates."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": dict.fromkeys(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]),
    }


@pytest.fixture(autouse=True)
def no_language_leaks():
    """Each test starts and ends in the site's language. Django's LocaleMiddleware switches a
    language on for the thread that serves a request and never off, so a test client's request
    in Japanese (or a bare ``translation.activate``) left Japanese on in the test thread for
    whichever test ran next: a phase's name read there no longer matched an English page."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def fresh_health() -> None:
    """/healthz keeps its answer a few seconds per process: every test asks afresh."""
    from games import health

    health.forget()


@pytest.fixture(autouse=True)
def short_live_streams(settings) -> None:
    """Live event streams (games.events) send the state and end at once, so that a test or
    schemathesis reading one to its end never waits minutes; tests of live updates set more."""
    settings.LIVE_MAX_SECONDS = 0


@pytest.fixture(autouse=True)
def enqueued(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> list:
    """Celery tasks the code under test sends, recorded as (name, args, options) instead.

    Tests marked ``broker`` send them for real.
    """
    sent: list = []
    if request.node.get_closest_marker("broker"):
        return sent
    from celery.app.task import Task

    def apply_async(task, args=None, kwargs=None, **options):
        sent.append((task.name, tuple(args or ()), options))

    monkeypatch.setattr(Task, "apply_async", apply_async)
    return sent


def wait_for(check, seconds: float, what: str):
    """Poll ``check`` until it returns something true, and return that."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        result = check()
        if result:
            return result
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def worker(transactional_db, tmp_path: Path):
    """A `celery worker` subprocess pointed at this test's database; yields its log file.

    Needs PostgreSQL and Redis, and tests that use it must be marked ``broker`` (so that
    tasks reach Redis) and ``django_db(transaction=True)`` (so that the worker sees the data).
    """
    from django.conf import settings as django_settings
    from django.db import connection

    url = urlsplit(os.environ["DATABASE_URL"])
    database_url = urlunsplit(url._replace(path="/" + connection.settings_dict["NAME"]))
    log = tmp_path / "worker.log"
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": django_settings.REDIS_URL}
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "greatgame", "worker"]
            + ["--pool=solo", "--loglevel=info", "--purge", "--without-heartbeat"]
            + ["--without-gossip", "--without-mingle"],
            cwd=django_settings.BASE_DIR,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_for(lambda: " ready." in log.read_text() or process.poll() is not None, 60, "worker")
        assert process.poll() is None, log.read_text()
        yield log
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture
def make_user(db):
    from django.contrib.auth import get_user_model

    def make(username: str, **extra):
        extra.setdefault("email", f"{username}@example.com")
        return get_user_model().objects.create_user(username=username, password="pw", **extra)

    return make


@pytest.fixture
def moderator(make_user):
    return make_user("mod")


@pytest.fixture
def make_game(make_user, moderator):
    """A started game whose players are named after their powers (``p_france``, ...).

    Each player asks for a different power first, so the assignment is known.
    """
    from games import engine, services
    from games.models import Game

    def make(variant: str = "standard", players: int | None = None, **settings) -> Game:
        game = services.create_game(moderator, name="Test game", variant=variant, **settings)
        powers = engine.powers(game)
        for power in powers[:players]:
            user = make_user(f"p_{power.lower()}_{game.pk}")
            services.join_game(game, user, [power])
        game.refresh_from_db()
        if game.status == Game.Status.FORMING:
            services.start_game(game, moderator)
            game.refresh_from_db()
        return game

    return make


@pytest.fixture
def game(make_game):
    return make_game()


@pytest.fixture
def seat():
    """The membership of the player of ``power`` in ``game``."""

    def find(game, power: str):
        return game.memberships.exclude(status="replaced").get(power=power)

    return find


@pytest.fixture
def api():
    """An API client signed in as ``user`` (anonymous when None)."""
    from rest_framework.test import APIClient

    def client(user=None) -> APIClient:
        c = APIClient()
        if user is not None:
            c.force_authenticate(user)
        return c

    return client


def deadline_passes(game) -> None:
    """The current phase's deadline passes and the phase is processed, as the sweep does
    (processed early by the moderator, a phase is missed by nobody)."""
    from datetime import timedelta

    from django.utils import timezone

    from games import services
    from games.models import Phase

    game.refresh_from_db()
    Phase.objects.filter(pk=game.current_phase_id).update(
        deadline=timezone.now() - timedelta(seconds=1)
    )
    game.refresh_from_db()
    assert services.process_phase(game.pk, game.current_phase_id)
    game.refresh_from_db()
