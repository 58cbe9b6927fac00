"""`make run`'s supervisor: start the web server, the Celery worker and beat together, and stop
them all, cleanly, on Ctrl-C, a SIGTERM, or when any one of them stops.

    python -m greatgame.runall [--announce URL TEXT] -- CMD ARGS... -- CMD ARGS... [-- ...]

``--announce``: print TEXT again once URL answers. The lobby's address and the demo's
sign-ins are printed before the three start, and the worker's and the server's start-up lines
then push them off the screen; printed again when the server is up, they are the last thing
a newcomer reads before the requests' lines.

Each command runs in a process group of its own (a Ctrl-C at the terminal reaches only this
supervisor, which then stops them in order). To stop, each group gets SIGINT, as a terminal
would send: the worker's pool processes ignore it and are stopped by the worker itself, which
first puts back the messages it holds. A SIGTERM to the worker's group instead kills its pool
processes at once; one killed while reading a task keeps the pool's queue lock, and the worker
then waits for that lock forever once it has restored its messages, deaf to any further
signal ("Restoring 33 unacknowledged message(s)", then nothing until kill -9). A group still
running after ``GRACE`` seconds is killed.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

GRACE = float(os.environ.get("RUNALL_GRACE", "20"))


USAGE = "usage: python -m greatgame.runall [--announce URL TEXT] -- CMD ARGS... [-- CMD ARGS...]"


def options(argv: list[str]) -> tuple[tuple[str, str] | None, list[str]]:
    """``--announce URL TEXT`` if given first, and the rest of ``argv``."""
    if argv[:1] != ["--announce"]:
        return None, argv
    if len(argv) < 3 or "--" in argv[1:3]:
        raise SystemExit(USAGE)
    return (argv[1], argv[2]), argv[3:]


def split(argv: list[str]) -> list[list[str]]:
    """The commands in ``argv``, each after a ``--``."""
    commands: list[list[str]] = []
    for arg in argv:
        if arg == "--":
            commands.append([])
        elif commands:
            commands[-1].append(arg)
        else:
            raise SystemExit(USAGE)
    return [command for command in commands if command]


def _signal_group(process: subprocess.Popen, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signum)


def announce(url: str, text: str, stop: threading.Event, wait: float = 120.0) -> bool:
    """Print ``text`` once ``url`` answers (any HTTP status), unless ``stop`` is set first or
    ``wait`` seconds pass. Whether it was printed."""
    deadline = time.monotonic() + wait
    while not stop.is_set() and time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2):
                pass
        except urllib.error.HTTPError:
            pass  # an answer all the same: the server is up
        except (OSError, ValueError):
            stop.wait(0.5)
            continue
        print(f"\n{text}\n", file=sys.stderr, flush=True)
        return True
    return False


def run(
    commands: list[list[str]], grace: float = GRACE, announced: tuple[str, str] | None = None
) -> int:
    asked: list[int] = []

    def ask_to_stop(signum: int, _frame: object) -> None:
        asked.append(signum)

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, ask_to_stop)
    processes = [subprocess.Popen(command, process_group=0) for command in commands]
    stop = threading.Event()
    if announced is not None:
        threading.Thread(target=announce, args=(*announced, stop), daemon=True).start()
    status = 0
    while not asked:
        ended = [p for p in processes if p.poll() is not None]
        if ended:
            status = ended[0].returncode or 1
            print(
                f"Great Game: {' '.join(ended[0].args[:3])} stopped; stopping the others.",
                file=sys.stderr,
                flush=True,
            )
            break
        time.sleep(0.2)
    stop.set()
    for process in processes:
        if process.poll() is None:
            _signal_group(process, signal.SIGINT)
    deadline = time.monotonic() + grace
    for process in processes:
        try:
            process.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            print(
                f"Great Game: {' '.join(process.args[:3])} did not stop in {grace:g} s; killed.",
                file=sys.stderr,
                flush=True,
            )
            _signal_group(process, signal.SIGKILL)
            process.wait()
            status = status or 1
    return status


def main(argv: list[str] | None = None) -> int:
    announced, rest = options(sys.argv[1:] if argv is None else argv)
    return run(split(rest), announced=announced)


if __name__ == "__main__":
    sys.exit(main())
