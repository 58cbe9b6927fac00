"""Fault trials: a worker killed mid-processing, Redis restarted, PostgreSQL restarted.

    python -m bench.faults --kill-trials 100      # worker kill -9 while processing a phase
    python -m bench.faults --redis                # Redis restarted before the deadlines
    python -m bench.faults --postgres             # PostgreSQL restarted under API load
    python -m bench.faults --all                  # all three, as `make proof` runs them

Everything runs against the bench database and Redis database (``bench.common``). Restarting
Redis or PostgreSQL interrupts everyone using them on this machine; each outage is a few
seconds and both are always started again.

**kill -9.** Each trial starts a worker (``bench.slow_worker``: solo pool, the processing
transaction slowed by ``--slow`` seconds, half before the engine runs and half after every row
is written), moves one game's deadline to now (the real path: ``process_phase`` is sent with
``eta=deadline``), waits until the worker has the task and kills it with SIGKILL at a random
moment in the next 1.5 x ``--slow`` seconds. The next trial's fresh worker runs the sweep
first, as beat would, and that game must then be processed exactly once: phases 0 and 1 only,
phase 0 judged, one commit recorded.

**Redis.** A worker and beat run; games get deadlines 15 s ahead, so their ``process_phase``
messages sit in Redis, then Redis is restarted without saving (all messages lost), and more
deadlines are set while it is down (sending fails and is logged). Every phase must still be
processed exactly once, by the sweep.

**PostgreSQL.** gunicorn serves players PUTting orders and reading their game while PostgreSQL
is stopped for a few seconds and started again. Every answer must be 200 or a JSON 503 with
Retry-After (never a 500 or a dropped connection), and 200s must come back once it is up.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import re
import signal
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from datetime import timedelta
from pathlib import Path

from bench import common
from bench.deadline_storm import check_games, processings


def received(log: Path, task: str) -> int:
    """How many ``task`` messages the worker logging to ``log`` has received."""
    return len(re.findall(rf"Task games\.tasks\.{task}\[[^\]]+\] received", log.read_text()))


def kill_trials(trials: int, slow: float, seed: int) -> bool:
    """Worker killed with SIGKILL mid-processing, ``trials`` times; the sweep recovers."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games import services, tasks
    from games.models import Game, Phase

    rng = random.Random(seed)
    common.purge_queue()
    common.retire_old_games()
    tag = f"kill{int(time.time())}"
    games = common.make_games(trials, tag)
    ids = [g["id"] for g in games]
    common.submit_openings(ids)
    common.purge_queue()  # their 24-hour deadline messages; only the trials' matter here
    moderator = get_user_model().objects.get(username=f"{tag}-moderator")
    work = Path(tempfile.mkdtemp(prefix="gg-kill-"))
    record = work / "commits.txt"
    record.touch()
    env = common.child_env(
        GG_SLOW_BEFORE=str(slow / 2), GG_SLOW_AFTER=str(slow / 2), GG_RECORD=str(record)
    )
    window = 1.5 * slow
    committed_at_kill = 0
    recovered_by_sweep = 0
    recovery_seconds: list[float] = []
    failures: list[str] = []
    started = time.monotonic()
    previous: int | None = None
    for n in range(trials + 1):
        log = work / f"worker{n}.log"
        worker = common.start_worker(log, name=f"kill{n}", module="bench.slow_worker", env=env)
        try:
            if previous is not None:
                # Recovery, as beat would do it within a minute: the sweep on a fresh worker.
                t0 = time.monotonic()
                tasks.sweep.delay()
                first = Phase.objects.filter(game_id=previous, index=0)
                try:
                    common.wait_for(
                        lambda first=first: first.filter(processed_at__isnull=False).exists(),
                        60,
                        f"game {previous} recovered",
                    )
                    recovery_seconds.append(time.monotonic() - t0)
                except TimeoutError as exc:
                    failures.append(str(exc))
                problems = check_games([previous])
                failures += problems
            if n == trials:
                break
            game = Game.objects.get(pk=ids[n])
            before = received(log, "process_phase")
            services.change_deadline(game, moderator, deadline=timezone.now())
            common.wait_for(
                lambda log=log, before=before: received(log, "process_phase") > before,
                30,
                f"worker {n} to receive game {game.pk}",
                every=0.01,
            )
            time.sleep(rng.uniform(0, window))
            worker.send_signal(signal.SIGKILL)
            worker.wait(timeout=10)
            done = Phase.objects.filter(game=game, index=0, processed_at__isnull=False).exists()
            committed_at_kill += done
            recovered_by_sweep += not done
            previous = game.pk
        finally:
            common.stop(worker, signal.SIGKILL)
    elapsed = time.monotonic() - started

    commits = Counter(tuple(line.split()[:2]) for line in record.read_text().splitlines())
    twice = {k: v for k, v in commits.items() if v > 1}
    problems = check_games(ids)
    first_phases = set(Phase.objects.filter(game_id__in=ids, index=0).values_list("pk", flat=True))
    recorded = {int(p) for _, p in commits} & first_phases
    ok = not failures and not problems and not twice and len(recovery_seconds) == trials
    print(f"kill -9 trials: {tag}, {common.machine()}")
    print(
        f"trials:            {trials}, seed {seed}; processing slowed by {slow:g} s "
        f"({slow / 2:g} s before the engine, {slow / 2:g} s after the writes, both inside the "
        f"transaction); SIGKILL at uniform(0, {window:g}) s after the worker received the task"
    )
    print(
        f"at the kill:       {recovered_by_sweep} phases not yet committed (rolled back), "
        f"{committed_at_kill} already committed"
    )
    if recovery_seconds:
        print(
            f"recovery:          a fresh worker's sweep; every game processed within "
            f"{max(recovery_seconds):.1f} s of it (median {sorted(recovery_seconds)[trials // 2]:.2f} s)"  # noqa: E501
        )
    print(
        f"commits recorded:  {sum(commits.values())} for {len(recorded)} of {trials} phases, "
        f"{len(twice)} phases committed twice"
    )
    print(f"games consistent:  {trials - len(problems)} of {trials} (phases 0 and 1 only, judged)")
    for failure in (failures + problems)[:10]:
        print(f"  {failure}")
    print(f"took:              {elapsed:.0f} s; logs in {work}")
    print(f"kill -9: {'passed' if ok else 'FAILED'}")
    return ok


def start_beat(work: Path) -> object:
    import subprocess

    out = (work / "beat.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "greatgame", "beat", "--loglevel=info"]
        + ["-s", str(work / "celerybeat-schedule")],
        cwd=common.ROOT,
        env=common.child_env(),
        stdout=out,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    out.close()
    return process


def quiet_enqueue_errors() -> list[logging.LogRecord]:
    """Collect, instead of printing, services' "could not enqueue" errors (Redis down)."""
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append
    logger = logging.getLogger("games.services")
    logger.addHandler(handler)
    logger.propagate = False
    return records


def redis_trial(games: int, late: int) -> bool:
    """Redis restarted (messages lost) with deadlines pending; the sweep must process them."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games import services
    from games.models import Game, Phase

    common.purge_queue()
    common.retire_old_games()
    tag = f"redis{int(time.time())}"
    made = common.make_games(games + late, tag)
    ids = [g["id"] for g in made]
    common.submit_openings(ids)
    common.purge_queue()
    moderator = get_user_model().objects.get(username=f"{tag}-moderator")
    work = Path(tempfile.mkdtemp(prefix="gg-redis-"))
    logs = [work / "worker0.log"]
    workers = [common.start_worker(logs[0], name="redis0")]
    beat = start_beat(work)
    failures: list[str] = []
    enqueue_errors = quiet_enqueue_errors()

    def supervise() -> None:
        """Start the worker again if it died, as docker-compose's restart policy does."""
        if workers[-1].poll() is not None and len(workers) < 5:
            logs.append(work / f"worker{len(workers)}.log")
            workers.append(common.start_worker(logs[-1], name=f"redis{len(workers)}"))

    try:
        deadline = timezone.now() + timedelta(seconds=15)
        for game in Game.objects.filter(pk__in=ids[:games]):
            services.change_deadline(game, moderator, deadline=deadline)
        common.wait_for(
            lambda: received(logs[0], "process_phase") >= games, 30, "eta tasks at the worker"
        )
        print(f"redis trial: {tag}, {common.machine()}", flush=True)
        print(f"before:            {games} deadlines at +15 s, their messages at the worker")
        down = time.monotonic()
        common.redis_stop()
        t0 = time.monotonic()
        for game in Game.objects.filter(pk__in=ids[games:]):
            services.change_deadline(game, moderator, deadline=timezone.now())
        sent_s = time.monotonic() - t0
        common.redis_start()
        outage = time.monotonic() - down
        print(
            f"fault:             Redis stopped without saving (every queued message lost); "
            f"while it was down {late} more deadlines were set to now ({sent_s:.1f} s for the "
            f"{late} changes, none raised, {len(enqueue_errors)} sends logged as failed); "
            f"started again after {outage:.1f} s"
        )
        first = Phase.objects.filter(game_id__in=ids, index=0)
        t0 = time.monotonic()
        try:
            common.wait_for(
                lambda: supervise() or not first.filter(processed_at__isnull=True).exists(),
                150,
                "every phase processed",
                every=0.5,
            )
        except TimeoutError as exc:
            failures.append(str(exc))
        waited = time.monotonic() - t0
        time.sleep(2)
    finally:
        common.stop(beat)
        for worker in workers:
            common.stop(worker)
    by_task, by_sweep, noop = processings(logs)
    crashes = [
        line.split("] ", 1)[-1]
        for log in logs
        for line in log.read_text().splitlines()
        if "Unrecoverable error" in line
    ]
    problems = check_games(ids)
    lags = [
        (p - d).total_seconds()
        for d, p in Phase.objects.filter(game_id__in=ids, index=0).values_list(
            "deadline", "processed_at"
        )
        if p is not None
    ]
    total = games + late
    ok = not failures and not problems and by_task + by_sweep == total
    print(
        f"processed:         {len(lags)} of {total} within {waited:.0f} s of Redis coming back; "
        f"{by_task} by eta tasks, {by_sweep} by the sweep, {noop} no-op calls"
    )
    print(
        f"worker:            {len(crashes)} crash(es) on losing Redis"
        f"{': ' + crashes[0] if crashes else ''}; restarted {len(workers) - 1} time(s) "
        f"(as docker-compose's restart: unless-stopped would)"
    )
    if lags:
        print(f"lag:               max {max(lags):.0f} s after the deadline (sweep every 60 s)")
    print(f"games consistent:  {total - len(problems)} of {total}")
    for failure in (failures + problems)[:10]:
        print(f"  {failure}")
    print(f"logs in {work}")
    print(f"redis: {'passed' if ok else 'FAILED'}")
    return ok


def postgres_trial(games: int, clients: int, down: float, persistent: int) -> bool:
    """API under load while PostgreSQL is stopped and started: 200s and JSON 503s only."""
    from bench.api_load import start_gunicorn

    tag = f"pg{int(time.time())}"
    made = common.make_games(games, tag)
    work = Path(tempfile.mkdtemp(prefix="gg-pg-"))
    database_url = f"{common.DATABASE_URL}?conn_max_age={persistent}"
    port = 8766
    server = start_gunicorn(2, port, database_url, work / "gunicorn.log", worker_class="sync")
    seats = [(g["id"], power, s["token"]) for g in made for power, s in g["powers"].items()]
    results: list[tuple[float, str, int, str]] = []
    lock = threading.Lock()
    stop_at = [time.monotonic() + 120.0]  # hard bound; lowered once PostgreSQL is back

    def client(n: int) -> None:
        rng = random.Random(n)
        count = 0
        while time.monotonic() < stop_at[0] and count < 20_000:
            count += 1
            game, power, token = rng.choice(seats)
            headers = {
                "Authorization": f"Token {token}",
                "X-Forwarded-Proto": "https",
                "Content-Type": "application/json",
            }
            if rng.random() < 0.5:
                body = json.dumps({"orders": common.OPENINGS[power][rng.randrange(2)]}).encode()
                request = urllib.request.Request(
                    f"http://127.0.0.1:{port}/api/games/{game}/orders/", body, headers, method="PUT"
                )
            else:
                request = urllib.request.Request(
                    f"http://127.0.0.1:{port}/api/games/{game}/", headers=headers
                )
            kind = "ok"
            try:
                with urllib.request.urlopen(request, timeout=15) as response:
                    status = response.status
            except urllib.error.HTTPError as error:
                status = error.code
                body = error.read()
                if status == 503:
                    good = error.headers.get("Retry-After") and json.loads(body).get("detail")
                    kind = "json503" if good else "bare503"
            except OSError as error:
                status, kind = 0, f"connection: {error}"
            with lock:
                results.append((time.monotonic(), request.get_method(), status, kind))
            time.sleep(0.01)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    try:
        time.sleep(5)
        stopped = time.monotonic()
        common.pg_ctl("stop")
        time.sleep(down)
        common.pg_ctl("start")
        common.wait_for(common.pg_ready, 60, "PostgreSQL")
        ready = time.monotonic()
        stop_at[0] = ready + 10
        for thread in threads:
            thread.join(timeout=150)
    finally:
        common.stop(server)
        if not common.pg_ready():
            common.pg_ctl("start")
    phases = {"before": Counter(), "down": Counter(), "after": Counter()}
    recovered = None
    for at, _, status, kind in results:
        phase = "before" if at < stopped else "down" if at < ready else "after"
        phases[phase][status if kind in ("ok", "json503") else f"{status} {kind}"] += 1
        if at >= ready and status == 200 and recovered is None:
            recovered = at - ready
    statuses = Counter(status for _, _, status, _ in results)
    bad = [r for r in results if r[2] not in (200, 503) or r[3] not in ("ok", "json503")]
    last_bad = max((r[0] for r in results if r[2] != 200), default=ready) - ready
    ok = not bad and statuses[503] > 0 and recovered is not None and phases["after"][200] > 0
    print(f"postgres trial: {tag}, {common.machine()}")
    print(
        f"set-up:            gunicorn 2 sync workers, "
        f"{'persistent connections' if persistent else 'a connection per request'}, "
        f"{clients} clients PUTting orders or GETting their game, 10 ms apart"
    )
    print(f"fault:             PostgreSQL stopped (fast) for {down:g} s, then started")
    for name, counter in phases.items():
        print(f"  {name:7}          {dict(sorted(counter.items(), key=str))}")
    print(
        f"answers:           {len(results)}: {dict(statuses)}; not 200 and not a JSON 503 with "
        f"Retry-After: {len(bad)}"
    )
    if recovered is not None:
        print(
            f"recovery:          first 200 {recovered:.2f} s after pg_isready answered again; "
            f"last 503 at {last_bad:+.2f} s from then"
        )
    for r in bad[:5]:
        print(f"  {r}")
    print(f"logs in {work}")
    print(f"postgres: {'passed' if ok else 'FAILED'}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kill-trials", type=int, default=0, metavar="N")
    parser.add_argument("--slow", type=float, default=0.5, help="seconds added to processing")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--redis", action="store_true")
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument(
        "--conn-max-age",
        type=int,
        default=60,
        help="CONN_MAX_AGE for --postgres (0: a new connection per request)",
    )
    parser.add_argument("--all", action="store_true", help="100 kill trials, Redis, PostgreSQL")
    args = parser.parse_args()
    if args.all:
        args.kill_trials = args.kill_trials or 100
        args.redis = args.postgres = True

    common.configure()
    common.migrate()
    ok = True
    try:
        if args.kill_trials:
            ok &= kill_trials(args.kill_trials, args.slow, args.seed)
        if args.redis:
            ok &= redis_trial(games=20, late=10)
        if args.postgres:
            ok &= postgres_trial(games=30, clients=4, down=5, persistent=args.conn_max_age)
    finally:
        # Whatever happened, leave both services running.
        if not common.pg_ready():
            common.pg_ctl("start")
        if not common.redis_up():
            common.redis_start()
    print(f"faults: {'all passed' if ok else 'FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
