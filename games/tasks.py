"""Celery tasks: processing at deadlines, the overdue sweep, and mail.

A phase's processing is scheduled with ``eta=deadline`` when the phase opens. Messages can be
lost or a worker restarted, so beat also runs ``sweep`` every minute; ``process_phase`` is
safe to run any number of times.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db.models import F
from django.utils import timezone

from . import notifications, services
from .models import Game, Phase

logger = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def process_phase(game_id: int, phase_id: int) -> bool:
    """Process the phase if it is due and still current; otherwise do nothing."""
    return services.process_phase(game_id, phase_id)


@shared_task(ignore_result=True)
def sweep() -> int:
    """Process every overdue phase of a running game. Returns how many were processed."""
    overdue = Phase.objects.filter(
        game__status=Game.Status.ACTIVE,
        game__current_phase=F("pk"),
        processed_at__isnull=True,
        deadline__lte=timezone.now(),
    ).values_list("game_id", "pk")
    done = 0
    for game_id, phase_id in overdue:
        try:
            done += services.process_phase(game_id, phase_id)
        except Exception:
            # One broken game must not hold up the others.
            logger.exception("processing game %s phase %s failed", game_id, phase_id)
    notifications.deadline_reminders()
    return done


@shared_task(ignore_result=True)
def notify_phase_processed(phase_id: int) -> None:
    phase = Phase.objects.filter(pk=phase_id).select_related("game").first()
    if phase is not None:
        notifications.phase_processed(phase)


@shared_task(ignore_result=True)
def press_digest() -> int:
    return notifications.press_digest()
