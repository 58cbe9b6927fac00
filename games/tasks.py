"""Celery tasks: processing at deadlines, the overdue sweep, and mail.

A phase's processing is scheduled with ``eta=deadline`` when the phase opens. Messages can be
lost or a worker restarted, so beat also runs ``sweep`` every minute; ``process_phase`` is
safe to run any number of times.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.core.cache import cache
from django.db.models import F
from django.utils import timezone

from . import engine, health, notifications, reach, services
from .models import Game, Message, Phase, Webhook

logger = logging.getLogger(__name__)


def _process(game_id: int, phase_id: int) -> bool:
    """Process a phase; one the engine refuses (a game whose stored options are bad, say) would
    fail at every sweep forever, so its game is paused instead, with the reason in its log."""
    try:
        return services.process_phase(game_id, phase_id)
    except engine.EngineError as error:
        logger.exception("the engine refused game %s phase %s; pausing it", game_id, phase_id)
        services.hold(game_id, phase_id, f"the engine refused to process: {error}")
        return False


@shared_task(ignore_result=True)
def process_phase(game_id: int, phase_id: int) -> bool:
    """Process the phase if it is due and still current; otherwise do nothing.

    A phase already processed is seen without a transaction or a lock (in a deadline storm
    most late copies of this task find their game done by a batch). When many other phases
    are overdue too, this is the first sign of a storm: it hands them out in batches (at most
    once every ``FAN_OUT_SECONDS``) instead of leaving every one to this worker's timers.
    """
    if not Phase.objects.filter(
        pk=phase_id, game_id=game_id, game__current_phase=F("pk"), processed_at__isnull=True
    ).exists():
        return False
    done = _process(game_id, phase_id)
    if done and cache.add("games.tasks.fan_out", 1, timeout=FAN_OUT_SECONDS):
        _fan_out(_overdue(), keep=0)
    return done


# A storm's overdue phases go out in batches of this many, one task each.
BATCH = 50
FAN_OUT_SECONDS = 15


def _overdue() -> list[tuple[int, int]]:
    """(game, phase) of every overdue phase of a running game, the earliest deadline first."""
    return list(
        Phase.objects.filter(
            game__status=Game.Status.ACTIVE,
            game__current_phase=F("pk"),
            processed_at__isnull=True,
            deadline__lte=timezone.now(),
        )
        .order_by("deadline", "pk")
        .values_list("game_id", "pk")
    )


def _fan_out(overdue: list[tuple[int, int]], keep: int) -> list[tuple[int, int]]:
    """Send all but the first ``keep`` overdue phases to ``process_batch`` in batches, so that
    every free worker takes a share; returns the ones kept. A broker outage is logged: the
    next sweep finds them again."""
    if len(overdue) <= max(keep, BATCH):
        return overdue
    for start in range(keep, len(overdue), BATCH):
        try:
            process_batch.delay(overdue[start : start + BATCH])
        except Exception:
            logger.exception("could not hand out %s overdue phases", len(overdue) - start)
            break
    return overdue[:keep]


def _process_all(pairs: list[tuple[int, int]], skip_locked: bool) -> int:
    done = 0
    for game_id, phase_id in pairs:
        try:
            if skip_locked:
                done += services.process_phase(game_id, phase_id, skip_locked=True)
            else:
                done += _process(game_id, phase_id)
        except engine.EngineError as error:
            logger.exception("the engine refused game %s phase %s; pausing it", game_id, phase_id)
            services.hold(game_id, phase_id, f"the engine refused to process: {error}")
        except Exception:
            # One broken game must not hold up the others.
            logger.exception("processing game %s phase %s failed", game_id, phase_id)
    return done


@shared_task(ignore_result=True)
def process_batch(pairs: list[tuple[int, int]]) -> int:
    """Process a batch of overdue phases, each game in its own transaction. A game another
    worker holds is skipped (``skip_locked``): it is being processed, or the next sweep will.
    Returns how many this task processed."""
    return _process_all([(g, p) for g, p in pairs], skip_locked=True)


@shared_task(ignore_result=True)
def sweep() -> int:
    """Process every overdue phase of a running game; in a storm (more than a batch), hand
    all but the first batch out to ``process_batch`` tasks so that every worker takes a share.
    Returns how many this sweep processed itself. Writes the heartbeat ``/healthz`` reads
    first: beat sent this and a worker runs it (``games.health``)."""
    health.beat()
    done = _process_all(_fan_out(_overdue(), keep=BATCH), skip_locked=False)
    remind()
    return done


# Deadline reminders are sent this many seconds at a time (``remind``).
REMINDER_SECONDS = 2.0


@shared_task(ignore_result=True)
def remind() -> int:
    """Send the deadline reminders due, ``REMINDER_SECONDS`` at a time; the rest go back in
    the queue, behind what is already there. A burst of them (10,000 games given deadlines in
    the same minute: 80 s of mail) then never keeps a worker from processing the phases
    falling due meanwhile, and a reminder whose deadline passes while it waits is dropped."""
    sent, done = notifications.send_reminders(REMINDER_SECONDS)
    if not done:
        try:
            remind.delay()
        except Exception:
            logger.exception("could not queue the rest of the deadline reminders")
    return sent


@shared_task(ignore_result=True)
def notify_phase_processed(phase_id: int) -> None:
    phase = Phase.objects.filter(pk=phase_id).select_related("game").first()
    if phase is not None:
        notifications.phase_processed(phase)


@shared_task(ignore_result=True)
def notify_game_over(game_id: int) -> None:
    """A game ended otherwise than by a processing (the moderator's end or draw, the players'
    votes): its players, webhooks and pushes are told, as a processing that ends it tells."""
    game = Game.objects.filter(pk=game_id).first()
    if game is not None and game.is_over and game.result:
        notifications.game_over(game)


@shared_task(ignore_result=True)
def press_digest() -> int:
    return notifications.press_digest()


@shared_task(ignore_result=True)
def play_bots(game_id: int, phase_id: int) -> list[str]:
    """The bots' orders and ready for a phase that has just opened (``services.play_bots``)."""
    return services.play_bots(game_id, phase_id)


# -- webhooks and web push (games.reach) ---------------------------------------------------------

DELIVERY_RETRIES = 5


def _backoff(retries: int) -> int:
    """Seconds before the next try: 10 s, 20 s, 40 s, ... up to ten minutes."""
    return min(10 * 2**retries, 600)


@shared_task(bind=True, ignore_result=True, max_retries=DELIVERY_RETRIES)
def deliver_webhook(self, hook_id: int, event: str, body: dict) -> int | None:
    """Post one event to a game's webhook; retried with backoff, then counted as failed."""
    try:
        return reach.deliver_webhook(hook_id, event, body)
    except reach.UnsafeAddress as error:  # retrying cannot make it safe
        reach.record_failure(hook_id, error)
        Webhook.objects.filter(pk=hook_id).update(failures=F("failures") + 1)
        return None
    except Exception as error:
        reach.record_failure(hook_id, error)
        if self.request.retries >= self.max_retries:
            Webhook.objects.filter(pk=hook_id).update(failures=F("failures") + 1)
            logger.warning(
                "webhook %s gave up after %s tries: %s", hook_id, self.max_retries, error
            )
            return None
        raise self.retry(exc=error, countdown=_backoff(self.request.retries)) from error


@shared_task(bind=True, ignore_result=True, max_retries=DELIVERY_RETRIES)
def deliver_push(self, subscription_id: int, data: dict) -> int | None:
    """Send one web push; retried with backoff."""
    try:
        return reach.deliver_push(subscription_id, data)
    except reach.UnsafeAddress:
        logger.warning("push subscription %s has an unsafe endpoint", subscription_id)
        return None
    except Exception as error:
        if self.request.retries >= self.max_retries:
            logger.warning("push %s gave up: %s", subscription_id, error)
            return None
        raise self.retry(exc=error, countdown=_backoff(self.request.retries)) from error


@shared_task(ignore_result=True)
def push_press(message_id: int) -> None:
    message = Message.objects.filter(pk=message_id).select_related("game").first()
    if message is not None:
        reach.press_sent(message)
