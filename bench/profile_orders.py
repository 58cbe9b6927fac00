"""CPU of the busiest requests, measured in process: no server, no load, no other process.

    python -m bench.profile_orders --count 200 --rounds 3 --profile put

Sets up ``--games`` started standard games in the bench database (PostgreSQL, as
``bench.api_load`` does; ``BENCH_DATABASE_URL`` / ``BENCH_REDIS_URL`` to use others), with the
production settings the load bench gives gunicorn (``DEBUG=0``, Redis cache and throttles,
HTTPS from a trusted proxy, access log on). Then it calls Django's WSGI handler directly, as
gunicorn's worker would, and times with ``time.process_time`` (this process's CPU only; the
database's own CPU is not in it):

- ``put``: ``PUT /api/games/{id}/orders/`` with a token, a player's whole opening (each player
  alternates between two, so every PUT replaces the stored orders);
- ``check``: ``POST /api/games/{id}/orders/check/``, the same orders, nothing stored;
- ``page``: ``GET /games/{id}/``, the game page of a signed-in player (session cookie).

Each request kind runs ``--count`` times a round, over ``--rounds`` rounds (the first request
of each kind is a warm-up, not counted); it prints CPU ms per request of every round and their
median. ``--profile KIND`` then runs ``--count`` more of that kind under cProfile and prints
the top of the profile by own time and by cumulative time.

The requests go round every player of every game, so that the throttles (60 saves and 120
checks a minute per user) never answer 429 with the defaults (70 players, 200 a round); every
answer must be a 200, or the bench stops.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import itertools
import json
import logging
import os
import pstats
import statistics
import sys
import time
from collections.abc import Callable, Iterator

from bench import api_load, common

KINDS = ("put", "check", "page")


def environ(
    method: str, path: str, *, token: str = "", cookie: str = "", body: bytes = b""
) -> dict:
    """A WSGI environ as gunicorn builds it behind the TLS proxy (X-Forwarded-Proto: https
    from 127.0.0.1, a trusted proxy in the bench's settings)."""
    env = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SCRIPT_NAME": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "127.0.0.1",
        "HTTP_X_FORWARDED_PROTO": "https",
        "HTTP_ACCEPT": "*/*",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        "wsgi.version": (1, 0),
    }
    if body:
        env["CONTENT_TYPE"] = "application/json"
        env["CONTENT_LENGTH"] = str(len(body))
    if token:
        env["HTTP_AUTHORIZATION"] = f"Token {token}"
    if cookie:
        env["HTTP_COOKIE"] = cookie
    return env


def call(application: Callable, env: dict) -> tuple[int, bytes]:
    """One request through the WSGI application: its status and its whole body."""
    answer = {}

    def start_response(status: str, headers: list, exc_info=None) -> None:
        answer["status"] = int(status.split(" ", 1)[0])

    chunks = application(env, start_response)
    try:
        body = b"".join(chunks)
    finally:
        if hasattr(chunks, "close"):
            chunks.close()
    return answer["status"], body


def requests(kind: str, games: list[dict], cookies: dict[int, str]) -> Iterator[dict]:
    """Endless environs of one kind, going round every seat of every game; each seat
    alternates between its two openings."""
    seats = [(g["id"], power, s) for g in games for power, s in g["powers"].items()]
    for n in itertools.count():
        game, power, seat = seats[n % len(seats)]
        orders = common.OPENINGS[power][(n // len(seats)) % 2]
        if kind == "page":
            yield environ("GET", f"/games/{game}/", cookie=cookies[seat["user"]])
            continue
        body = json.dumps({"orders": orders}).encode()
        path = f"/api/games/{game}/orders/" + ("check/" if kind == "check" else "")
        method = "PUT" if kind == "put" else "POST"
        yield environ(method, path, token=seat["token"], body=body)


def run(application: Callable, source: Iterator[dict], count: int) -> float:
    """CPU milliseconds per request over ``count`` requests; any answer but 200 is an error."""
    return run_with_database(application, source, count)[0]


def run_with_database(
    application: Callable, source: Iterator[dict], count: int
) -> tuple[float, float | None]:
    """``run``, and the database server's own CPU milliseconds per request (PostgreSQL: its
    backend process for this connection, from /proc, in clock ticks; None elsewhere)."""
    envs = [next(source) for _ in range(count)]
    backend = database_backend()
    before = api_load.cpu_seconds([backend]) if backend else 0.0
    started = time.process_time()
    for env in envs:
        status, body = call(application, env)
        if status != 200:
            raise RuntimeError(f"{env['REQUEST_METHOD']} {env['PATH_INFO']}: {status} {body!r}")
    python = 1000 * (time.process_time() - started) / count
    if not backend:
        return python, None
    return python, 1000 * (api_load.cpu_seconds([backend]) - before) / count


def database_backend() -> int | None:
    """The pid of this process's PostgreSQL backend, if it is on this machine."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    return pid if os.path.exists(f"/proc/{pid}/stat") else None


def profile_top(application: Callable, source: Iterator[dict], count: int, lines: int) -> str:
    profiler = cProfile.Profile(time.process_time)  # CPU, not waiting for the database
    profiler.enable()
    run(application, source, count)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.strip_dirs().sort_stats("tottime").print_stats(lines)
    stats.sort_stats("cumulative").print_stats(lines)
    return out.getvalue()


def quiet_logs() -> None:
    """The access log is still formatted and written (its cost is part of a request), to
    /dev/null rather than over the figures."""
    sink = open(os.devnull, "w")  # noqa: SIM115 - kept open for the process
    for handler in logging.getLogger().handlers:
        if isinstance(handler, logging.StreamHandler):
            handler.setStream(sink)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--count", type=int, default=200, help="requests of a kind per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--kinds", default=",".join(KINDS), help="which of put,check,page")
    parser.add_argument("--profile", choices=KINDS, help="profile this kind after timing")
    parser.add_argument("--lines", type=int, default=25, help="rows of each profile table")
    args = parser.parse_args(argv)
    kinds = [k for k in args.kinds.split(",") if k]
    if not set(kinds) <= set(KINDS):
        parser.error(f"--kinds: one or more of {','.join(KINDS)}")

    common.configure()
    common.migrate()
    from django.conf import settings
    from django.core.handlers.wsgi import WSGIHandler

    common.collect_static()
    games = common.make_games(args.games, f"prof{int(time.time())}")
    cookies = common.session_cookies(games) if "page" in kinds else {}
    application = WSGIHandler()
    quiet_logs()
    sources = {kind: requests(kind, games, cookies) for kind in KINDS}

    print(f"profile: {len(games)} games, {common.machine()}, DEBUG={int(settings.DEBUG)}")
    print(f"database: {settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]}")
    for kind in kinds:
        run(application, sources[kind], 1)  # warm-up: imports, first queries, caches
    for kind in kinds:
        measured = [
            run_with_database(application, sources[kind], args.count) for _ in range(args.rounds)
        ]
        figures = [python for python, _ in measured]
        rounds = " ".join(f"{f:.2f}" for f in figures)
        line = f"{kind:<6} CPU ms per request: median {statistics.median(figures):.2f}  ({rounds})"
        database = [db for _, db in measured if db is not None]
        if database:
            line += f"; PostgreSQL {statistics.median(database):.2f}"
        print(line)
    if args.profile:
        print(f"\n--- cProfile of {args.count} x {args.profile} ---")
        print(profile_top(application, sources[args.profile], args.count, args.lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
