"""Order submission through the API under load: gunicorn, PostgreSQL, Redis, wrk on loopback.

    python -m bench.api_load --games 50 --workers 3 --connections 50 --seconds 30

Sets up ``--games`` started standard games (seven players each, token auth) in the bench
database with ``games.services``, starts gunicorn with ``--workers`` workers (one thread each,
connections kept open and spread evenly over them, as production's pool for pages and the API
runs), and runs wrk from a second process: ``--connections`` concurrent players, each PUTting a
full, realistic set of orders to ``/api/games/{id}/orders/`` (alternating between two openings,
so every PUT really replaces the stored orders). ``--think-ms`` adds an exponential think time
between a player's requests (0: closed loop, each connection sends its next PUT as soon as it
has the answer). Afterwards every power's stored orders are checked: exactly its latest
opening, each order valid, none duplicated.

Targets (issue 9): p95 < 100 ms and at least 300 submissions a second at 50 players. With
``--probe`` (issue 17), while the load runs one more client times an order check and a game
page of a signed-in player, again and again: their medians at the server (the ``app`` figure
of the answer's ``Server-Timing`` header: the time Django spent on the request) should be at
most 25 and 60 ms. The probe also prints what it saw as a client (request to last byte, which
includes the wait for a free worker behind the load's requests) and the CPU part of the
server's figure.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from pathlib import Path

from bench import common

TARGET_P95_MS = 100.0
TARGET_RATE = 300.0


def write_requests(games: list[dict], path: Path) -> int:
    """One line per player and opening: the first openings of all players, then the second."""
    lines = []
    for which in (0, 1):
        for game in games:
            for power, seat in game["powers"].items():
                body = json.dumps({"orders": common.OPENINGS[power][which]})
                lines.append(f"/api/games/{game['id']}/orders/\t{seat['token']}\t{body}")
    path.write_text("\n".join(lines) + "\n")
    return len(lines)


def start_gunicorn(
    workers: int,
    port: int,
    database_url: str,
    log: Path,
    threads: int = 1,
    worker_class: str = "gthread",
    connections_each: int = 0,
) -> subprocess.Popen:
    """gunicorn on loopback, as production's pool for pages and the API runs
    (``GUNICORN_THREADS=1``, README "Production"): gthread workers, which keep a connection
    open between requests as the proxy in front does (a sync worker closes every one, so each
    request paid for a new connection), each holding at most ``connections_each`` connections
    (0: gunicorn's 1,000). A worker takes whatever connection it accepts first, and one that
    took more than its share made its players wait longer. ``worker_class="sync"``: sync
    workers, as rounds before 33 measured.

    The worker class is always given: gunicorn also reads ``gunicorn.conf.py`` from the
    working directory, which would otherwise decide it."""
    env = common.child_env(DATABASE_URL=database_url)
    args = [sys.executable, "-m", "gunicorn", "greatgame.wsgi", f"--workers={workers}"]
    args += [f"--bind=127.0.0.1:{port}", "--backlog=2048", "--timeout=60"]
    if worker_class == "gthread":
        args += ["--worker-class=gthread", f"--threads={threads}", "--keep-alive=75"]
        if connections_each:
            args.append(f"--worker-connections={connections_each}")
    else:
        args += ["--worker-class=sync", "--threads=1"]
    with log.open("w") as out:
        process = subprocess.Popen(
            args,
            cwd=common.ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def up() -> bool:
        try:
            url = f"http://127.0.0.1:{port}/healthz?only=web"  # the web alone: no worker here
            with urllib.request.urlopen(url, timeout=2) as r:
                return r.status == 200
        except OSError:
            return process.poll() is not None

    common.wait_for(up, 30, "gunicorn")
    if process.poll() is not None:
        raise RuntimeError(log.read_text())
    return process


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time used so far by these processes (Linux /proc)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def machine_busy_seconds() -> float:
    """CPU time the whole machine has spent busy so far, all cores (Linux /proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return sum(fields[:3] + fields[5:7]) / os.sysconf("SC_CLK_TCK")  # user to softirq, no idle


def own_seconds() -> float:
    """CPU of this process (the probe, Python load threads) and of its waited children (wrk)."""
    import resource

    return sum(
        usage.ru_utime + usage.ru_stime
        for usage in (
            resource.getrusage(resource.RUSAGE_SELF),
            resource.getrusage(resource.RUSAGE_CHILDREN),
        )
    )


def server_pids(master: int) -> tuple[list[int], list[int]]:
    """gunicorn's master and workers; and the PostgreSQL backends serving the bench database."""
    from django.db import connection

    pids = [master]
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == master:
                pids.append(int(stat.parent.name))
        except (OSError, ValueError):
            continue
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid()"
        )
        backends = [row[0] for row in cursor.fetchall()]
    connection.close()
    return pids, backends


def run_wrk(
    port: int, data: Path, connections: int, seconds: int, think_ms: float, threads: int
) -> dict:
    script = Path(__file__).with_name("api_load.lua")
    args = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--timeout=10s"]
    args += ["-s", str(script), f"http://127.0.0.1:{port}", "--", str(data), str(think_ms)]
    out = subprocess.run(args, capture_output=True, text=True, timeout=seconds + 60)
    if out.returncode:
        raise RuntimeError(f"wrk failed: {out.stdout}{out.stderr}")
    line = next(x for x in out.stdout.splitlines() if x.startswith("RESULT "))
    return json.loads(line.removeprefix("RESULT "))


def run_threads(
    port: int, games: list[dict], connections: int, seconds: int, think_ms: float
) -> dict:
    """The same load from Python threads: one keep-alive connection per player, reopened when
    the server closes it, an exponential think time before each PUT. Answers like run_wrk."""
    seats = [(g["id"], power, s["token"]) for g in games for power, s in g["powers"].items()]
    latencies: list[float] = []
    codes: Counter = Counter()
    errors = Counter()
    lock = threading.Lock()
    started = time.monotonic()
    end = started + seconds

    def player(n: int) -> None:
        rng = random.Random(n)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for _ in range(100_000):
            if think_ms:
                time.sleep(rng.expovariate(1000 / think_ms))
            if time.monotonic() >= end:
                break
            game, power, token = rng.choice(seats)
            body = json.dumps({"orders": common.OPENINGS[power][rng.randrange(2)]})
            headers = {
                "Authorization": f"Token {token}",
                "Content-Type": "application/json",
                "X-Forwarded-Proto": "https",
            }
            t0 = time.perf_counter()
            try:
                conn.request("PUT", f"/api/games/{game}/orders/", body, headers)
                response = conn.getresponse()
                response.read()
                status = response.status
                if response.getheader("Connection", "").lower() == "close":
                    conn.close()
            except OSError as error:
                conn.close()
                with lock:
                    errors[type(error).__name__] += 1
                continue
            with lock:
                latencies.append(time.perf_counter() - t0)
                codes[str(status)] += 1
        conn.close()

    threads = [threading.Thread(target=player, args=(n,)) for n in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + 60)
    duration = time.monotonic() - started
    latencies.sort()

    def at(q: float) -> int:
        return int(1e6 * latencies[min(int(q * len(latencies)), len(latencies) - 1)])

    return {
        "requests": len(latencies),
        "duration_us": int(duration * 1e6),
        "codes": dict(codes),
        "errors": {
            "connect": sum(errors.values()),
            "read": 0,
            "write": 0,
            "status": 0,
            "timeout": 0,
        },
        "p50_us": at(0.5),
        "p90_us": at(0.9),
        "p95_us": at(0.95),
        "p99_us": at(0.99),
        "max_us": int(1e6 * latencies[-1]),
        "mean_us": 1e6 * sum(latencies) / len(latencies),
    }


PROBE_TARGETS_MS = {"check": 25.0, "page": 60.0}


def probe_requests(game: dict, cookies: dict[int, str]) -> list[tuple[str, str, str, dict]]:
    """What the probe asks, in turn: each player of ``game`` checks its opening
    (``POST .../orders/check/``, token) and opens the game page (``GET /games/{id}/``, its
    session). Several players, so the checks' throttle (per user) is never reached."""
    out = []
    for power, seat in game["powers"].items():
        body = json.dumps({"orders": common.OPENINGS[power][0]})
        headers = {"Authorization": f"Token {seat['token']}", "Content-Type": "application/json"}
        out.append(("check", "POST", f"/api/games/{game['id']}/orders/check/", headers, body))
        out.append(("page", "GET", f"/games/{game['id']}/", {"Cookie": cookies[seat["user"]]}, ""))
    return out


def server_timing(header: str | None) -> dict[str, float]:
    """``Server-Timing: app;dur=12.3, cpu;dur=4.5`` as ``{"app": 12.3, "cpu": 4.5}``."""
    out = {}
    for metric in (header or "").split(","):
        name, *params = (part.strip() for part in metric.split(";"))
        for param in params:
            key, _, value = param.partition("=")
            if key == "dur":
                out[name] = float(value)
    return out


def percentile(times: list[float], q: float) -> float:
    times = sorted(times)
    return times[min(int(q * len(times)), len(times) - 1)]


class Probe(threading.Thread):
    """While the load runs: an order check and a game page, one after the other, every
    ``every`` seconds. Each is timed twice: by this client, from sending the request to the
    last byte of the answer (so including the time it waited behind the load's requests for a
    worker), and by the server, the ``app`` figure of its ``Server-Timing`` header (the time
    Django spent on it, from the start of its middleware chain to the response). The targets
    are judged on the server's figure. Any answer but 200 is counted."""

    FIGURES = ("client", "server", "cpu")

    def __init__(self, port: int, requests: list, every: float = 0.1) -> None:
        super().__init__(daemon=True)
        self.port, self.requests, self.every = port, requests, every
        self.times = {kind: {f: [] for f in self.FIGURES} for kind in ("check", "page")}
        self.failures: Counter = Counter()
        self.done = threading.Event()

    def run(self) -> None:
        n = 0
        while not self.done.wait(self.every):
            kind, method, path, headers, body = self.requests[n % len(self.requests)]
            n += 1
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            started = time.perf_counter()
            try:
                conn.request(method, path, body or None, {**headers, "X-Forwarded-Proto": "https"})
                response = conn.getresponse()
                response.read()
                status = response.status
            except OSError as error:
                self.failures[f"{kind} {type(error).__name__}"] += 1
                continue
            finally:
                conn.close()
            client = 1000 * (time.perf_counter() - started)
            if status != 200:
                self.failures[f"{kind} {status}"] += 1
                continue
            server = server_timing(response.getheader("Server-Timing"))
            if "app" not in server:
                self.failures[f"{kind} no Server-Timing"] += 1
                continue
            times = self.times[kind]
            times["client"].append(client)
            times["server"].append(server["app"])
            times["cpu"].append(server.get("cpu", 0.0))

    def stop(self) -> None:
        self.done.set()
        self.join(timeout=60)

    def report(self) -> tuple[list[str], bool]:
        """Lines for the output, and whether both server medians met their targets."""
        lines, met = [], not self.failures
        for kind, label in (("check", "order check"), ("page", "game page")):
            times = self.times[kind]
            if not times["server"]:
                lines.append(f"{label}: no answers")
                met = False
                continue
            target = PROBE_TARGETS_MS[kind]
            server = statistics.median(times["server"])
            met = met and server <= target
            lines.append(
                f"{label + ', server:':<20} median {server:.1f} ms, "
                f"p95 {percentile(times['server'], 0.95):.1f} ms "
                f"(of it CPU: median {statistics.median(times['cpu']):.1f} ms), "
                f"{len(times['server'])} probes   (target median <= {target:.0f} ms)"
            )
            lines.append(
                f"{label + ', client:':<20} median {statistics.median(times['client']):.1f} ms, "
                f"p95 {percentile(times['client'], 0.95):.1f} ms"
            )
        if self.failures:
            lines.append(f"probe failures: {dict(self.failures)}")
        return lines, met


def check_orders(games: list[dict]) -> tuple[int, list[str]]:
    """Every power's stored orders: one of its openings exactly, all valid, one per unit."""
    from games.models import Order

    problems = []
    stored: dict[tuple[int, str], list[Order]] = {}
    ids = [g["id"] for g in games]
    phases = {g["id"]: g["phase"] for g in games}
    games_of = {phase: game for game, phase in phases.items()}
    for order in Order.objects.filter(phase__game_id__in=ids).order_by("position"):
        stored.setdefault((games_of.get(order.phase_id, 0), order.power), []).append(order)
    for game in games:
        for power in game["powers"]:
            orders = stored.get((game["id"], power), [])
            texts = [o.text for o in orders]
            if texts and texts not in common.OPENINGS[power]:
                problems.append(f"game {game['id']} {power}: {texts}")
            if any(not o.valid or o.phase_id != phases[game["id"]] for o in orders):
                problems.append(f"game {game['id']} {power}: invalid or wrong phase")
    return sum(len(v) for v in stored.values()), problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers")
    parser.add_argument(
        "--worker-class",
        choices=["gthread", "sync"],
        default="gthread",
        help="gunicorn's workers: gthread (connections kept open) or sync (one a request)",
    )
    parser.add_argument("--gthreads", type=int, default=1, help="threads per gthread worker")
    parser.add_argument(
        "--spread",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="(gthread) each worker holds at most its share of the connections "
        "(gunicorn's --worker-connections): none takes more than its share of the players",
    )
    parser.add_argument("--connections", type=int, default=50, help="concurrent players")
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=5, help="seconds of load not counted")
    parser.add_argument("--think-ms", type=float, default=0, help="mean think time per player")
    parser.add_argument("--threads", type=int, default=2, help="wrk threads")
    parser.add_argument(
        "--client",
        choices=["wrk", "python"],
        default="wrk",
        help="load generator: wrk, or Python threads. Use Python threads with a think time: "
        "wrk reconnects before it thinks, and a sync worker sits idle on that connection "
        "until the request comes (a buffering proxy in front would hide this)",
    )
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument(
        "--conn-max-age",
        type=int,
        default=60,
        metavar="SECONDS",
        help="how long gunicorn keeps a PostgreSQL connection (the settings' CONN_MAX_AGE; "
        "0: a new connection per request)",
    )
    parser.add_argument(
        "--probe",
        action="store_true",
        help="while the load runs, time an order check and a game page again and again "
        "(one every 0.1 s each in turn) and print their medians and p95, at the server "
        "(Server-Timing) and as the client saw them",
    )
    args = parser.parse_args()

    load_before = os.getloadavg()
    common.configure()
    common.migrate()
    if args.probe:
        common.collect_static()
    tag = f"api{int(time.time())}"
    started = time.monotonic()
    games = common.make_games(args.games, tag)
    vacuumed = common.vacuum()
    setup_s = time.monotonic() - started
    database_url = f"{common.DATABASE_URL}?conn_max_age={args.conn_max_age}"

    work = Path(tempfile.mkdtemp(prefix="gg-api-load-"))
    data = work / "requests.tsv"
    players = write_requests(games, data) // 2
    # The probe's own connection (one a request) needs room too. gunicorn closes a connection
    # after its answer once the worker's idle ones reach its cap less its threads: a cap of
    # exactly the share closed one whenever the worker's other players were thinking (a fifth
    # of the answers with a 50 ms think time), so each worker may hold its threads more.
    wanted = args.connections + (1 if args.probe else 0)
    each = -(-wanted // args.workers) + args.gthreads if args.spread else 0
    server = start_gunicorn(
        args.workers,
        args.port,
        database_url,
        work / "gunicorn.log",
        args.gthreads,
        args.worker_class,
        each,
    )
    try:

        def load(seconds: int) -> dict:
            if args.client == "python":
                return run_threads(args.port, games, args.connections, seconds, args.think_ms)
            return run_wrk(args.port, data, args.connections, seconds, args.think_ms, args.threads)

        if args.warmup:
            load(args.warmup)
        web, database = server_pids(server.pid)
        web_before, database_before = cpu_seconds(web), cpu_seconds(database)
        busy_before, own_before = machine_busy_seconds(), own_seconds()
        probe = None
        if args.probe:
            probe = Probe(args.port, probe_requests(games[0], common.session_cookies(games[:1])))
            probe.start()
        try:
            result = load(args.seconds)
        finally:
            if probe:
                probe.stop()
        web_cpu = cpu_seconds(web) - web_before
        database_cpu = cpu_seconds(database) - database_before
        own_cpu = own_seconds() - own_before
        # Whatever else kept the machine busy meanwhile: another job's benchmark is noise.
        other_cpu = machine_busy_seconds() - busy_before - web_cpu - database_cpu - own_cpu
    finally:
        common.stop(server)
    stored, problems = check_orders(games)

    seconds = result["duration_us"] / 1e6
    ok = result["codes"].get("200", 0)
    rate = ok / seconds
    p95 = result["p95_us"] / 1000
    errors = sum(result["errors"].values()) - result["errors"]["status"]
    bad = {k: v for k, v in result["codes"].items() if k != "200"}
    print(f"api load: {tag}, {common.machine()} (after the run, its own load included)")
    print(f"before:            load average {' '.join(f'{x:.2f}' for x in load_before)}")
    print(f"set-up:            {args.games} games, {players} players, {setup_s:.1f} s")
    print(f"database:          {vacuumed}")
    print(
        f"server:            gunicorn {args.workers} "
        + (
            f"gthread workers x {args.gthreads} thread{'s' if args.gthreads > 1 else ''}, "
            + (f"at most {each} connections each" if each else "connections not spread")
            if args.worker_class == "gthread"
            else "sync workers"
        )
        + ", DEBUG=0, PostgreSQL "
        + f"{'persistent connections ' + str(args.conn_max_age) + ' s' if args.conn_max_age else 'a connection per request'}"  # noqa: E501
    )
    print(
        f"load:              "
        f"{'wrk ' + str(args.threads) + ' threads' if args.client == 'wrk' else 'Python threads'}"
        f", {args.connections} connections, "
        f"{args.seconds} s after {args.warmup} s warm-up, think time {args.think_ms:g} ms"
    )
    print(f"requests:          {result['requests']}, 200: {ok}, other statuses: {bad or 'none'}")
    print(f"socket errors:     {errors}")
    print(f"submissions/s:     {rate:.0f}   (target >= {TARGET_RATE:.0f})")
    print(
        f"latency:           p50 {result['p50_us'] / 1000:.1f} ms, "
        f"p90 {result['p90_us'] / 1000:.1f} ms, p95 {p95:.1f} ms, "
        f"p99 {result['p99_us'] / 1000:.1f} ms, max {result['max_us'] / 1000:.1f} ms"
        f"   (target p95 < {TARGET_P95_MS:.0f} ms)"
    )
    per_request = 1000 / max(result["requests"], 1)
    cores = (web_cpu + database_cpu) / seconds
    database_part = (
        f" + PostgreSQL {per_request * database_cpu:.1f} ms"
        if args.conn_max_age
        else " (PostgreSQL not counted: its backends come and go)"
    )
    print(
        f"server CPU:        gunicorn {per_request * web_cpu:.1f} ms{database_part} "
        f"per request; {cores:.2f} of {os.cpu_count()} cores busy"
    )
    print(
        f"other CPU:         load client {own_cpu / seconds:.2f} cores, other processes "
        f"{max(other_cpu, 0) / seconds:.2f} cores (noise if well above 0.05)"
    )
    print(f"stored orders:     {stored}, problems: {len(problems)}")
    for problem in problems[:10]:
        print(f"  {problem}")
    met = rate >= TARGET_RATE and p95 < TARGET_P95_MS and not bad and not errors and not problems
    if probe:
        lines, probe_met = probe.report()
        print(
            "probe:             server = Server-Timing app (time in Django); client = request "
            "to last byte, waiting for a worker included"
        )
        for line in lines:
            print(f"probe:             {line}")
        print(f"probe targets:     {'met' if probe_met else 'NOT met'} (server medians)")
        met = met and probe_met
    print(f"targets: {'met' if met else 'NOT met'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
