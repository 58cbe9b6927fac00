"""A Celery worker whose phase processing is slowed down, for the kill -9 trials of bench.faults.

    python -m bench.slow_worker worker --pool=solo ...      (any ``celery worker`` arguments)

Nothing in the server changes; this process patches itself before starting the worker:

- ``GG_SLOW_BEFORE`` seconds of sleep inside the processing transaction, with the game row
  locked, before the engine runs (nothing written yet);
- ``GG_SLOW_AFTER`` seconds after every result and the next phase are written, still inside
  the transaction (everything written, nothing committed);
- ``GG_RECORD``: a file that gets one line ``game phase pid`` per committed processing
  (``transaction.on_commit``), to count processings across workers.
"""

from __future__ import annotations

import os
import sys
import time


def patch() -> None:
    from django.db import transaction

    from games import engine, services

    before = float(os.environ.get("GG_SLOW_BEFORE", "0"))
    after = float(os.environ.get("GG_SLOW_AFTER", "0"))
    record = os.environ.get("GG_RECORD", "")
    adjudicate = engine.adjudicate
    write = services._adjudicate

    def slow_adjudicate(payload: dict) -> dict:
        time.sleep(before)
        return adjudicate(payload)

    def slow_write(game, phase, now):
        next_phase = write(game, phase, now)
        if record:

            def committed() -> None:
                with open(record, "a") as out:
                    out.write(f"{game.pk} {phase.pk} {os.getpid()}\n")

            transaction.on_commit(committed)
        time.sleep(after)
        return next_phase

    engine.adjudicate = slow_adjudicate
    services._adjudicate = slow_write


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "greatgame.settings")
    import django

    django.setup()
    patch()
    from greatgame.celery import app

    app.worker_main(argv=sys.argv[1:])


if __name__ == "__main__":
    main()
