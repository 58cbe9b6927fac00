"""Shared set-up for the server benchmarks and fault trials: a separate database and Redis
database, games made through ``games.services``, and Celery workers as child processes.

Defaults keep clear of other people's work: PostgreSQL database ``greatgame_bench`` and Redis
database 7. Override with ``BENCH_DATABASE_URL`` / ``BENCH_REDIS_URL``.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATABASE_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/greatgame_bench"
)
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/7")
MAX_PARAMETERS = 65_535  # PostgreSQL's limit of parameters a statement
PG_VERSION = os.environ.get("BENCH_PG_VERSION") or (
    sorted(os.listdir("/etc/postgresql"))[0] if Path("/etc/postgresql").is_dir() else "15"
)

# Production-like settings: DEBUG off (no query log), a throwaway key, loopback hosts only.
SERVER_ENV = {
    "DATABASE_URL": DATABASE_URL,
    "REDIS_URL": REDIS_URL,
    "DEBUG": "0",
    "SECRET_KEY": "bench-only-" + "x" * 40,
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "DJANGO_SETTINGS_MODULE": "greatgame.settings",
    "EMAIL_URL": "dummymail://",
    # The load clients play the TLS-terminating proxy (X-Forwarded-Proto: https) from here.
    "TRUSTED_PROXIES": "127.0.0.1",
}

# Realistic spring 1901 orders for every power of the standard map, two sets each; clients
# alternate between them so that every PUT really changes the stored orders.
OPENINGS: dict[str, list[list[str]]] = {
    "Austria": [
        ["A Vienna - Galicia", "A Budapest - Serbia", "F Trieste - Albania"],
        ["A Vienna - Trieste", "A Budapest - Serbia", "F Trieste - Albania"],
    ],
    "England": [
        ["F London - North Sea", "F Edinburgh - Norwegian Sea", "A Liverpool - Yorkshire"],
        ["F London - English Channel", "F Edinburgh - North Sea", "A Liverpool - Yorkshire"],
    ],
    "France": [
        ["A Paris - Burgundy", "A Marseilles S A Paris - Burgundy", "F Brest - Mid-Atlantic Ocean"],
        ["A Paris - Picardy", "A Marseilles - Spain", "F Brest - Mid-Atlantic Ocean"],
    ],
    "Germany": [
        ["A Berlin - Kiel", "F Kiel - Denmark", "A Munich - Ruhr"],
        ["A Berlin - Kiel", "F Kiel - Holland", "A Munich - Burgundy"],
    ],
    "Italy": [
        ["A Venice H", "A Rome - Apulia", "F Naples - Ionian Sea"],
        ["A Venice - Tyrolia", "A Rome - Venice", "F Naples - Ionian Sea"],
    ],
    "Russia": [
        [
            "A Moscow - Ukraine",
            "A Warsaw - Galicia",
            "F Sevastopol - Black Sea",
            "F St Petersburg/sc - Gulf of Bothnia",
        ],
        [
            "A Moscow - St Petersburg",
            "A Warsaw - Ukraine",
            "F Sevastopol - Rumania",
            "F St Petersburg/sc - Gulf of Bothnia",
        ],
    ],
    "Turkey": [
        ["A Constantinople - Bulgaria", "A Smyrna - Armenia", "F Ankara - Black Sea"],
        ["A Constantinople - Bulgaria", "A Smyrna - Constantinople", "F Ankara - Black Sea"],
    ],
}


def ensure_database() -> None:
    """Create the bench database if it is missing (PostgreSQL only)."""
    from urllib.parse import urlsplit, urlunsplit

    import psycopg

    url = urlsplit(os.environ["DATABASE_URL"])
    if not url.scheme.startswith("postgres"):
        return
    name = url.path.lstrip("/")
    admin = urlunsplit(url._replace(scheme="postgresql", path="/postgres", query=""))
    with psycopg.connect(admin, autocommit=True) as connection:
        found = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        if found.fetchone() is None:
            connection.execute(f'CREATE DATABASE "{name}"')


def configure() -> None:
    """Point Django at the bench database (unless already set) and set it up."""
    for key, value in SERVER_ENV.items():
        os.environ.setdefault(key, value)
    ensure_database()
    import django

    django.setup()


def migrate() -> None:
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def vacuum() -> str:
    """Clear the dead rows earlier runs left (PostgreSQL only) and say whether the server does
    it by itself. Every saved set of orders replaces the rows of the last, so each run leaves
    some 100,000 dead ones. Production's autovacuum clears them within a minute; a server run
    without it (as this machine's is, for CI) kept them all, 312,690 after six runs, for the
    next run's statements to step over."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return "not PostgreSQL: nothing to vacuum"
    with connection.cursor() as cursor:
        cursor.execute("SHOW autovacuum")
        automatic = cursor.fetchone()[0]
        cursor.execute("VACUUM (ANALYZE)")
    return f"vacuumed before the load (the server's autovacuum is {automatic})"


def make_games(count: int, tag: str, **settings: Any) -> list[dict]:
    """``count`` started standard games, every seat filled by a player with an API token.

    Users and tokens are bulk-created (no password hashing); games are created, joined and
    started through ``games.services`` exactly as the API would. Returns, per game, its id and
    ``{power: {"user": id, "membership": id, "token": key}}``.
    """
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from rest_framework.authtoken.models import Token

    from games import engine, services
    from games.models import Game

    user_model = get_user_model()
    moderator, _ = user_model.objects.get_or_create(username=f"{tag}-moderator")
    powers = list(OPENINGS)
    unusable = make_password(None)
    users = user_model.objects.bulk_create(
        user_model(username=f"{tag}-{n}-{power.lower()}", password=unusable)
        for n in range(count)
        for power in powers
    )
    Token.objects.bulk_create(Token(user=u, key=secrets.token_hex(20)) for u in users)
    tokens = dict(Token.objects.filter(user__in=users).values_list("user_id", "key"))
    games = []
    for n in range(count):
        game = services.create_game(moderator, name=f"{tag} {n}", variant="standard", **settings)
        assert engine.powers(game) == powers, engine.powers(game)
        seats = users[n * len(powers) : (n + 1) * len(powers)]
        for user, power in zip(seats, powers, strict=True):
            services.join_game(game, user, [power])
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE
        members = {m.power: m for m in game.memberships.all()}
        games.append(
            {
                "id": game.pk,
                "phase": game.current_phase_id,
                "powers": {
                    power: {
                        "user": user.pk,
                        "membership": members[power].pk,
                        "token": tokens[user.pk],
                    }
                    for user, power in zip(seats, powers, strict=True)
                },
            }
        )
    return games


def collect_static() -> None:
    """The static files with their manifest, which pages need when ``DEBUG`` is off."""
    from django.conf import settings
    from django.contrib.staticfiles.storage import staticfiles_storage
    from django.core.management import call_command

    if not settings.DEBUG and not staticfiles_storage.exists("staticfiles.json"):
        call_command("collectstatic", interactive=False, verbosity=0)


def session_cookies(games: list[dict]) -> dict[int, str]:
    """A signed-in session for every player of ``games``, as a browser's Cookie header."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    cookies = {}
    name = settings.SESSION_COOKIE_NAME
    ids = [seat["user"] for game in games for seat in game["powers"].values()]
    for pk, user in get_user_model().objects.in_bulk(ids).items():
        client = Client()
        client.force_login(user)
        cookies[pk] = f"{name}={client.cookies[name].value}"
    return cookies


def retire_old_games() -> int:
    """End every running game left in the bench database by earlier runs, so that the sweep
    (which takes every overdue game) only finds this run's games."""
    from games.models import Game

    return Game.objects.filter(status=Game.Status.ACTIVE).update(status=Game.Status.FINISHED)


def submit_openings(game_ids: list[int], which: int = 0) -> None:
    """Every power of each game sends its opening, through ``services.submit_orders``."""
    from games import services
    from games.models import Membership

    seats = Membership.objects.filter(game_id__in=game_ids).select_related("game")
    for membership in seats:
        services.submit_orders(membership, OPENINGS[membership.power][which])


def wait_for(check: Callable[[], Any], seconds: float, what: str, every: float = 0.1) -> Any:
    """Poll ``check`` until it returns something true; raise after ``seconds``."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        result = check()
        if result:
            return result
        time.sleep(every)
    raise TimeoutError(f"timed out after {seconds} s waiting for {what}")


def child_env(**extra: str) -> dict[str, str]:
    return {**os.environ, **SERVER_ENV, **extra}


def start_worker(
    log: Path,
    *,
    name: str,
    module: str = "celery",
    pool: str = "solo",
    concurrency: int = 1,
    purge: bool = False,
    env: dict[str, str] | None = None,
    wait: bool = True,
) -> subprocess.Popen:
    """A ``celery worker`` child process logging to ``log``; waits until it is ready."""
    args = [sys.executable, "-m", module]
    if module == "celery":
        args += ["-A", "greatgame"]
    args += ["worker", f"--pool={pool}", f"--concurrency={concurrency}", "--loglevel=info"]
    args += ["-n", f"{name}@%h", "--without-heartbeat", "--without-gossip", "--without-mingle"]
    if purge:
        args.append("--purge")
    out = log.open("w")
    process = subprocess.Popen(
        args,
        cwd=ROOT,
        env=env or child_env(),
        stdout=out,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    out.close()
    if wait:
        wait_for(
            lambda: " ready." in log.read_text() or process.poll() is not None, 60, f"{name} ready"
        )
        if process.poll() is not None:
            raise RuntimeError(f"worker {name} exited:\n{log.read_text()[-3000:]}")
    return process


def stop(process: subprocess.Popen | None, sig: int = signal.SIGTERM, timeout: float = 30) -> None:
    """Stop a child we started (its own session: the whole group), killing it if it lingers."""
    if process is None or process.poll() is not None:
        return
    try:
        os.killpg(process.pid, sig)
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    except ProcessLookupError:
        pass


def purge_queue() -> None:
    """Drop every message waiting in the bench's Redis database (only that database)."""
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()


def pg_ctl(action: str) -> None:
    subprocess.run(
        ["pg_ctlcluster", "--skip-systemctl-redirect", PG_VERSION, "main", action], check=True
    )


def pg_ready() -> bool:
    return subprocess.run(["pg_isready", "-h", "127.0.0.1", "-q"]).returncode == 0


def redis_up() -> bool:
    answer = subprocess.run(["redis-cli", "-h", "127.0.0.1", "ping"], capture_output=True)
    return answer.stdout.strip() == b"PONG"


def redis_stop() -> None:
    """Stop Redis without saving: every queued message is lost, as in a crash."""
    subprocess.run(["redis-cli", "-h", "127.0.0.1", "shutdown", "nosave"], capture_output=True)
    wait_for(lambda: not redis_up(), 30, "redis to stop")


def redis_start() -> None:
    subprocess.run(
        ["redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "--port", "6379"]
        + ["--save", "", "--appendonly", "no"],
        check=True,
        capture_output=True,
    )
    wait_for(redis_up, 30, "redis to start")


def machine() -> str:
    load = os.getloadavg()
    return f"{os.cpu_count()} cpus, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"


def clone_games(count: int, tag: str) -> list[int]:
    """``count`` started standard games with every power's opening in, made fast.

    One game is made, started and given its orders through ``games.services`` (``make_games``
    and ``submit_openings``); the rest are row-for-row copies of it written with
    ``bulk_create`` (games, players, seats, phase 0 and its checked orders), about 100 times
    faster than the services for the 10,000-game storm. The copies are what the services
    would have written: same board, same stored orders, ``valid`` and ``canonical`` as checked.
    Returns the game ids, the template's first.
    """
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.db import transaction

    from games.models import Game, Membership, Order, Phase

    template_id = make_games(1, f"{tag}-t")[0]["id"]
    submit_openings([template_id])
    template = Game.objects.get(pk=template_id)
    phase = Phase.objects.get(pk=template.current_phase_id)
    seats = list(template.memberships.order_by("pk"))
    orders = list(phase.orders.order_by("pk"))
    user_model = get_user_model()
    unusable = make_password(None)
    ids = [template_id]
    batch = 500
    for start in range(1, count, batch):
        size = min(batch, count - start)
        with transaction.atomic():
            games = Game.objects.bulk_create(
                Game(
                    name=f"{tag} {start + n}",
                    variant=template.variant,
                    status=template.status,
                    creator_id=template.creator_id,
                    options=template.options,
                )
                for n in range(size)
            )
            users = user_model.objects.bulk_create(
                user_model(username=f"{tag}-{start + n}-{s.power.lower()}", password=unusable)
                for n in range(size)
                for s in seats
            )
            members = Membership.objects.bulk_create(
                Membership(game=game, user=users[n * len(seats) + k], power=s.power)
                for n, game in enumerate(games)
                for k, s in enumerate(seats)
            )
            phases = Phase.objects.bulk_create(
                Phase(
                    game=game,
                    index=0,
                    season=phase.season,
                    year=phase.year,
                    type=phase.type,
                    units=phase.units,
                    supply_centers=phase.supply_centers,
                    dislodged=phase.dislodged,
                    contested=phase.contested,
                    carried=phase.carried,
                    deadline=phase.deadline,
                )
                for game in games
            )
            seat_of = {(m.game_id, m.power): m for m in members}
            new_orders = [
                Order(
                    phase=p,
                    power=o.power,
                    membership=seat_of[(p.game_id, o.power)],
                    text=o.text,
                    canonical=o.canonical,
                    location=o.location,
                    valid=o.valid,
                    reason=o.reason,
                    position=o.position,
                )
                for p in phases
                for o in orders
            ]
            # Orders go as VALUES (games.models.OrderPosition), a parameter a value: in
            # batches, under PostgreSQL's 65,535 parameters a statement, however many
            # columns an order has (a fixed 4,000 broke when it reached 17).
            columns = len(Order._meta.concrete_fields)
            Order.objects.bulk_create(new_orders, batch_size=MAX_PARAMETERS // columns)
            for game, p in zip(games, phases, strict=True):
                game.current_phase = p
            Game.objects.bulk_update(games, ["current_phase"])
        ids.extend(g.pk for g in games)
    return ids
