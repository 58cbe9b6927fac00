"""The floor under an order submission on this machine: what its two fixed parts alone allow.

    python -m bench.api_floor --connections 50 --seconds 20

Issue 17 asks for 300 submissions a second with a p95 under 100 ms from 50 players in a
closed loop on two cores. By Little's law a closed loop of 50 waits 50 / throughput on
average, so that p95 needs well over 500 a second. Two parts of every submission are fixed
by the stack, whatever the application does:

- **Django and gunicorn**: ``GET /healthz?only=web`` through every middleware, no database,
  from wrk with the load bench's ``--connections`` (gunicorn's 2 sync workers, production
  settings). Its rate is a ceiling for any request of the site.
- **PostgreSQL**: a submission's statements with pgbench, ``--connections`` clients, on the
  bench database's games (``bench/put_statements.sql``: the seat read with its token, then
  ``BEGIN``, the game's row lock, the seat's re-read, the old orders deleted, three new ones
  inserted, ``COMMIT``), once with each statement planned every time (``-M simple``, as
  Django sends them with client-side binding) and once prepared (``-M prepared``, as with
  ``DATABASE_PREPARED_STATEMENTS``).

The two share the same two cores, so together they allow at most ``1 / (1/a + 1/b)`` a
second, before any of the application's own work (reading the body, the engine's check of
the orders, the answer). The bench prints each rate, that ceiling, and what the target
needs.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import tempfile
import time
from pathlib import Path

from bench import api_load, common

NEEDED = 500.0  # a second: 50 connections / 0.1 s, Little's law for a mean under the p95
SCRIPT = Path(__file__).with_name("put_statements.sql")


def django_rate(port: int, connections: int, seconds: int) -> float:
    """Requests a second of the empty request, from wrk, after a 5 s warm-up."""
    url = f"http://127.0.0.1:{port}/healthz?only=web"
    headers = ["-H", "X-Forwarded-Proto: https", "-H", "X-Forwarded-For: 127.0.0.1"]
    for duration in (5, seconds):
        args = ["wrk", "-t2", f"-c{connections}", f"-d{duration}s", *headers, url]
        out = subprocess.run(args, capture_output=True, text=True, timeout=duration + 60)
    match = re.search(r"Requests/sec:\s+([\d.]+)", out.stdout)
    if out.returncode or not match:
        raise RuntimeError(f"wrk failed: {out.stdout}{out.stderr}")
    return float(match.group(1))


def database_rate(mode: str, seats: tuple[int, int], connections: int, seconds: int) -> float:
    """Transactions a second of a submission's statements from pgbench (``mode``: simple or
    prepared), each on a seat drawn from ``seats``."""
    url = common.DATABASE_URL
    args = ["pgbench", "-n", f"-c{connections}", "-j2", f"-T{seconds}", f"-M{mode}"]
    args += ["-D", f"first={seats[0]}", "-D", f"last={seats[1]}", "-f", str(SCRIPT), url]
    out = subprocess.run(args, capture_output=True, text=True, timeout=seconds + 60)
    match = re.search(r"tps = ([\d.]+)", out.stdout)
    if out.returncode or not match:
        raise RuntimeError(f"pgbench failed: {out.stdout}{out.stderr}")
    return float(match.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--port", type=int, default=8766)
    args = parser.parse_args()

    common.configure()
    common.migrate()
    games = common.make_games(args.games, f"floor{int(time.time())}")
    seat_ids = [seat["membership"] for game in games for seat in game["powers"].values()]
    seats = (min(seat_ids), max(seat_ids))

    work = Path(tempfile.mkdtemp(prefix="gg-api-floor-"))
    server = api_load.start_gunicorn(
        2, args.port, common.DATABASE_URL, work / "gunicorn.log", worker_class="sync"
    )
    try:
        web = django_rate(args.port, args.connections, args.seconds)
    finally:
        common.stop(server)
    simple = database_rate("simple", seats, args.connections, args.seconds)
    prepared = database_rate("prepared", seats, args.connections, args.seconds)

    def together(database: float) -> float:
        return 1 / (1 / web + 1 / database)

    print(f"api floor: {common.machine()}, {args.connections} connections, {args.seconds} s each")
    print(f"django alone:      {web:.0f} requests/s (GET /healthz?only=web, 2 sync workers)")
    print(f"postgresql alone:  {simple:.0f}/s planned each time, {prepared:.0f}/s prepared")
    print(
        f"both, no app code: at most {together(simple):.0f}/s planned, "
        f"{together(prepared):.0f}/s prepared"
    )
    print(f"the target needs:  over {NEEDED:.0f}/s (p95 < 100 ms, closed loop of 50)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
