"""Whether deadlines are being processed, for ``/healthz``: a heartbeat and its age.

The ``sweep`` task writes the heartbeat (``Heartbeat`` ``sweep``) each time it runs. Celery beat
sends it every minute and a worker runs it, so a fresh heartbeat says that both are alive and
that the worker reaches the database; a stale or missing one, that overdue phases wait. The
answer says only ages and booleans (no host, version or error text), as anyone may ask.
"""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.db import DatabaseError
from django.utils import timezone

from .models import Heartbeat

logger = logging.getLogger(__name__)

SWEEP = "sweep"
# A probe every second from several load balancers reads the database at most this often per
# web process: the answer is kept this many seconds.
KEPT_SECONDS = 5.0
_kept: tuple[float, dict] | None = None


def beat(name: str = SWEEP) -> None:
    """Record that ``name`` ran now. Never fails its caller: a heartbeat not written only
    makes ``/healthz`` report the worker late."""
    try:
        Heartbeat.objects.update_or_create(name=name, defaults={"at": timezone.now()})
    except DatabaseError:
        logger.exception("could not write the %s heartbeat", name)


def worker() -> dict:
    """``ok`` (the sweep ran within ``HEALTH_SWEEP_STALE_SECONDS``), the heartbeat's age in
    seconds (None: never, or the database did not answer) and the threshold."""
    global _kept
    now = time.monotonic()
    if _kept is not None and now - _kept[0] < KEPT_SECONDS:
        return _kept[1]
    stale = settings.HEALTH_SWEEP_STALE_SECONDS
    try:
        at = Heartbeat.objects.filter(name=SWEEP).values_list("at", flat=True).first()
        database = True
    except DatabaseError:
        at, database = None, False
    age = None if at is None else max(0, round((timezone.now() - at).total_seconds()))
    answer = {
        "ok": age is not None and age <= stale,
        "database": database,
        "last_sweep_seconds_ago": age,
        "stale_after_seconds": stale,
    }
    _kept = (now, answer)
    return answer


def forget() -> None:
    """Drop the kept answer (tests, and a heartbeat just written in this process)."""
    global _kept
    _kept = None
