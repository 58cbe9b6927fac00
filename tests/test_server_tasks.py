"""Celery tasks and e-mail: the overdue sweep, scheduling, reminders and the press digest."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.conf import settings
from django.core import mail
from django.utils import timezone

from games import notifications, services, tasks
from games.models import Game, NotificationSettings, Phase

pytestmark = pytest.mark.django_db


def overdue(game: Game) -> Phase:
    game.refresh_from_db()
    phase = game.current_phase
    phase.deadline = timezone.now() - timedelta(seconds=1)
    phase.save()
    return phase


def test_beat_runs_the_sweep_every_minute() -> None:
    schedule = settings.CELERY_BEAT_SCHEDULE
    assert schedule["sweep-overdue-phases"] == {"task": "games.tasks.sweep", "schedule": 60.0}
    assert schedule["press-digest"]["task"] == "games.tasks.press_digest"


def test_sweep_processes_overdue_phases_only(make_game) -> None:
    late, on_time, paused = make_game(), make_game(), make_game()
    overdue(late)
    overdue(paused)
    services.pause(paused, paused.creator)
    assert tasks.sweep() == 1
    assert late.phases.count() == 2
    assert on_time.phases.count() == 1
    assert paused.phases.count() == 1
    assert tasks.sweep() == 0


def test_the_task_processes_a_due_phase_once(game: Game) -> None:
    phase = overdue(game)
    assert tasks.process_phase(game.pk, phase.pk) is True
    assert tasks.process_phase(game.pk, phase.pk) is False
    assert tasks.process_phase(0, phase.pk) is False


def test_the_task_waits_for_a_deadline_that_was_extended(game: Game) -> None:
    """A task queued for the old deadline arrives early after an extension: it does nothing."""
    assert tasks.process_phase(game.pk, game.current_phase_id) is False
    assert game.phases.count() == 1


def test_ready_players_queue_early_processing(
    game: Game, django_capture_on_commit_callbacks, enqueued
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        for membership in game.memberships.all():
            services.set_ready(membership)
    assert enqueued == [
        ("games.tasks.process_phase", (game.pk, game.current_phase_id), {"eta": None})
    ]


def test_processing_queues_the_mail(game: Game, django_capture_on_commit_callbacks, enqueued):
    with django_capture_on_commit_callbacks(execute=True):
        services.process_now(game, game.creator)
    names = [name for name, _, _ in enqueued]
    assert names == ["games.tasks.process_phase", "games.tasks.notify_phase_processed"]


def test_phase_processed_mail_respects_preferences(game: Game, seat) -> None:
    NotificationSettings.objects.create(user=seat(game, "France").user, phase_processed=False)
    services.process_now(game, game.creator)
    tasks.notify_phase_processed(game.phases.get(index=0).pk)
    assert len(mail.outbox) == 6
    assert "Spring 1901 movement" in mail.outbox[0].subject
    assert "Fall 1901 movement" in mail.outbox[0].body


def test_reminders_go_to_players_without_orders(make_game, seat) -> None:
    game = make_game(movement_minutes=48 * 60)
    services.submit_orders(seat(game, "France"), ["A Paris H"])
    phase = game.current_phase
    phase.deadline = timezone.now() + timedelta(hours=20)
    phase.save()
    assert notifications.deadline_reminders() == 6
    assert "France" not in {m.to[0] for m in mail.outbox}
    assert all("24 h" in m.subject for m in mail.outbox)
    assert notifications.deadline_reminders() == 0
    phase.deadline = timezone.now() + timedelta(minutes=30)
    phase.save()
    assert notifications.deadline_reminders() == 6
    assert notifications.deadline_reminders() == 0


def test_a_deadline_put_off_after_its_reminders_is_reminded_of_again(make_game, moderator):
    game = make_game(movement_minutes=48 * 60)
    phase = game.current_phase
    services.change_deadline(game, moderator, deadline=timezone.now() + timedelta(minutes=30))
    assert notifications.deadline_reminders() == 7  # the last hour's
    services.change_deadline(game, moderator, minutes=2 * 24 * 60)  # put off two days
    phase.refresh_from_db()
    assert phase.reminders_sent == []
    Phase.objects.filter(pk=phase.pk).update(deadline=timezone.now() + timedelta(minutes=30))
    assert notifications.deadline_reminders() == 7  # the new deadline's last hour, again
    assert notifications.deadline_reminders() == 0


def test_no_reminder_for_a_window_longer_than_the_phase(make_game) -> None:
    game = make_game(movement_minutes=90)
    assert notifications.deadline_reminders() == 0  # 90 minutes: no 24-hour reminder
    Phase.objects.filter(pk=game.current_phase_id).update(
        deadline=timezone.now() + timedelta(minutes=30)
    )
    assert notifications.deadline_reminders() == 7


def test_press_digest_holds_only_readable_press(game: Game, seat) -> None:
    france, italy = seat(game, "France").user, seat(game, "Italy").user
    services.send_message(game, france, "To Italy only", ["Italy"])
    services.send_message(game, france, "To all")
    NotificationSettings.objects.create(user=seat(game, "Russia").user, press_digest=False)
    assert notifications.press_digest() == 5  # France wrote them; Russia opted out
    by_user = {m.to[0]: m.body for m in mail.outbox}
    assert "To Italy only" in by_user[italy.email]
    assert "To Italy only" not in by_user[seat(game, "England").user.email]
    assert "To all" in by_user[seat(game, "England").user.email]
    assert notifications.press_digest() == 0


def test_the_press_digest_brings_a_moderator_the_press_written_to_them(game: Game, seat) -> None:
    """Seen by an adversary: press to "Moderator" reached the moderator's page and pushes,
    never their digest, which went only to accounts with a seat."""
    moderator = game.creator
    moderator.email = "moderator@example.com"
    moderator.save()
    france = seat(game, "France").user
    services.send_message(game, france, "A question for you", ["Moderator"])
    services.send_message(game, france, "To Italy only", ["Italy"])
    notifications.press_digest()
    by_user = {m.to[0]: m.body for m in mail.outbox}
    assert "A question for you" in by_user[moderator.email]
    assert "To Italy only" not in by_user[moderator.email]
    assert "A question for you" not in by_user[seat(game, "Italy").user.email]


def test_reminders_go_a_few_seconds_at_a_time_and_the_rest_wait_in_the_queue(
    make_game, monkeypatch, enqueued
) -> None:
    """A burst of reminders (a storm's games given deadlines in one minute) kept the sweep's
    worker from processing for 79 s: ``remind`` sends what it can in REMINDER_SECONDS and
    queues the rest behind what is queued, the nearest deadline first."""

    games = [make_game(movement_minutes=48 * 60) for _ in range(2)]
    for n, game in enumerate(games):
        Phase.objects.filter(pk=game.current_phase_id).update(
            deadline=timezone.now() + timedelta(minutes=30 - n)
        )
    # No time at all: still one deadline's reminder a call (the nearest), or a read slower
    # than the time given would queue the rest again and again, sending nothing.
    monkeypatch.setattr(tasks, "REMINDER_SECONDS", 0.0)
    assert tasks.remind() == 7
    assert [name for name, _, _ in enqueued] == ["games.tasks.remind"]
    monkeypatch.setattr(tasks, "REMINDER_SECONDS", 60.0)
    assert tasks.remind() == 7
    assert enqueued == [("games.tasks.remind", (), {})]  # nothing left: no more queued
    # The nearest deadline first: the second game's (29 minutes) before the first's.
    assert games[1].pk != games[0].pk and len(mail.outbox) == 14
    assert {m.to[0] for m in mail.outbox[:7]} == {
        m.user.email for m in games[1].memberships.select_related("user")
    }
    assert tasks.remind() == 0


def test_a_reminder_claimed_by_another_sweep_meanwhile_is_not_sent_twice(make_game) -> None:
    """Two sweeps at the reminders together (one slow, one on time): each deadline's reminder
    goes out once, the one that claims it first sending it."""
    games = [make_game(movement_minutes=48 * 60) for _ in range(2)]
    for n, game in enumerate(games):
        Phase.objects.filter(pk=game.current_phase_id).update(
            deadline=timezone.now() + timedelta(minutes=20 + n)
        )
    real = notifications._remind

    def remind_and_race(phase, hours):
        # While the first is being sent, another sweep claims and sends the second.
        Phase.objects.filter(pk=games[1].current_phase_id).update(reminders_sent=[1])
        return real(phase, hours)

    with mock.patch.object(notifications, "_remind", side_effect=remind_and_race) as remind:
        assert notifications.deadline_reminders() == 7
    assert remind.call_count == 1
    assert {m.subject for m in mail.outbox} == {f"[{games[0].name}] 1 h to the deadline"}


def _two_games_near_their_deadlines(make_game) -> list[Game]:
    games = [make_game(movement_minutes=48 * 60) for _ in range(2)]
    for n, game in enumerate(games):
        Game.objects.filter(pk=game.pk).update(name=f"Game {n}")
        Phase.objects.filter(pk=game.current_phase_id).update(
            deadline=timezone.now() + timedelta(minutes=20 + n)
        )
        game.refresh_from_db()
    return games


def test_a_deadline_moved_while_the_reminders_go_out_is_not_reminded_of_as_it_was(
    make_game,
) -> None:
    """The reminders read their phases first, then send for a while: a deadline the moderator
    put off meanwhile (20 h more) got the "1 h" reminder of the deadline it had, and that
    reminder's mark then took the place of the real one, an hour before the new deadline."""
    games = _two_games_near_their_deadlines(make_game)
    real = notifications._remind

    def remind_and_move(phase, hours):
        if phase.game_id == games[0].pk:
            services.change_deadline(games[1], games[1].creator, minutes=20 * 60, phase=0)
        return real(phase, hours)

    with mock.patch.object(notifications, "_remind", side_effect=remind_and_move):
        notifications.deadline_reminders()
    assert {m.subject for m in mail.outbox} == {"[Game 0] 1 h to the deadline"}
    assert Phase.objects.get(pk=games[1].current_phase_id).reminders_sent == []
    mail.outbox.clear()
    # An hour before the new deadline, its reminder goes.
    Phase.objects.filter(pk=games[1].current_phase_id).update(
        deadline=timezone.now() + timedelta(minutes=30), reminders_sent=[24]
    )
    assert notifications.deadline_reminders() > 0
    assert {m.subject for m in mail.outbox} == {"[Game 1] 1 h to the deadline"}


def test_a_phase_processed_while_the_reminders_go_out_is_not_reminded_of(make_game) -> None:
    """Every player ready: the phase processed while the reminders ran was reminded of all
    the same ("1 h to the deadline" of a phase already gone)."""
    games = _two_games_near_their_deadlines(make_game)
    real = notifications._remind

    def remind_and_process(phase, hours):
        if phase.game_id == games[0].pk:
            services.process_phase(games[1].pk, games[1].current_phase_id, force=True)
        return real(phase, hours)

    with mock.patch.object(notifications, "_remind", side_effect=remind_and_process):
        notifications.deadline_reminders()
    assert {m.subject for m in mail.outbox} == {"[Game 0] 1 h to the deadline"}


def test_a_reminder_that_fails_stops_none_of_the_others(make_game) -> None:
    """A phase whose reminder raised (a board the engine refuses) ended the call: every
    reminder behind it waited for the next sweep, and ``remind`` queued none of them."""
    games = _two_games_near_their_deadlines(make_game)
    real = notifications._remind

    def fail_first(phase, hours):
        if phase.game_id == games[0].pk:
            raise RuntimeError("a broken board")
        return real(phase, hours)

    with mock.patch.object(notifications, "_remind", side_effect=fail_first):
        assert tasks.remind() == 7
    assert {m.subject for m in mail.outbox} == {"[Game 1] 1 h to the deadline"}
