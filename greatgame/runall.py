"""`make run`'s supervisor: start the web server, the Celery worker and beat together, and stop
them all, cleanly, on Ctrl-C, a SIGTERM, or when any one of them stops.

    python -m greatgame.runall -- CMD ARGS... -- CMD ARGS... [-- ...]

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
import time

GRACE = float(os.environ.get("RUNALL_GRACE", "20"))


def split(argv: list[str]) -> list[list[str]]:
    """The commands in ``argv``, each after a ``--``."""
    commands: list[list[str]] = []
    for arg in argv:
        if arg == "--":
            commands.append([])
        elif commands:
            commands[-1].append(arg)
        else:
            raise SystemExit("usage: python -m greatgame.runall -- CMD ARGS... [-- CMD ARGS...]")
    return [command for command in commands if command]


def _signal_group(process: subprocess.Popen, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signum)


def run(commands: list[list[str]], grace: float = GRACE) -> int:
    asked: list[int] = []

    def ask_to_stop(signum: int, _frame: object) -> None:
        asked.append(signum)

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, ask_to_stop)
    processes = [subprocess.Popen(command, process_group=0) for command in commands]
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
    return run(split(sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    sys.exit(main())
