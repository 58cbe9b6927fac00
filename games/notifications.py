"""E-mail to players: phase results, deadline reminders and a press digest.

Each kind can be turned off per user (``NotificationSettings``), and each mail is written in
the user's chosen language. Sending never changes game state; the only thing written is which
reminders and digests have gone out.
"""

from __future__ import annotations

import contextlib
import logging
import re
import threading
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from functools import partial

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.mail import send_mass_mail
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone, translation
from django.utils.translation import gettext

from . import engine, reach, visibility
from .limits import clip
from .models import Game, Membership, Message, NotificationSettings, Phase

logger = logging.getLogger(__name__)

REMINDER_HOURS = (24, 1)


def address_problem(address: str, user: AbstractBaseUser | None = None) -> str | None:
    """Why ``address`` may not be the account's: another account has the same mailbox already
    (the mail of one player would go to another's inbox). None when it may, and always for
    the account's own address as it stands (two accounts that shared one before keep it)."""
    wanted = mailbox(address)
    if not address or (user is not None and wanted == mailbox(user.email or "")):
        return None
    domain = wanted.rpartition("@")[2]
    near = Q()
    for spelling in {domain, _unicode_domain(domain)}:
        near |= Q(email__iendswith="@" + spelling)
    others = get_user_model().objects.filter(near).exclude(email="")
    if user is not None and user.pk is not None:
        others = others.exclude(pk=user.pk)
    taken = any(mailbox(email) == wanted for email in others.values_list("email", flat=True))
    return gettext("Another account already uses this address.") if taken else None


_addresses_in_process = threading.Lock()


@contextlib.contextmanager
def one_address_at_a_time(address: str) -> Iterator[None]:
    """A transaction in which an address is checked free (``address_problem``) and saved, one
    after another for one mailbox: two sign-ups at once each checked it before the other saved
    it, and both accounts got it. PostgreSQL locks the mailbox for the transaction (any
    process); SQLite, written by one server process, takes a lock of the process."""
    wanted = mailbox(address) if address else ""
    if not wanted:
        with transaction.atomic():
            yield
        return
    with _addresses_in_process, transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [f"mail:{wanted}"])
        yield


def mailbox(address: str) -> str:
    """An address as the mailbox it reaches, to compare two: the local part unquoted and in
    one case, the domain in its ASCII form (IDNA) and lower case."""
    local, _, domain = address.strip().rpartition("@")
    if len(local) >= 2 and local.startswith('"') and local.endswith('"'):
        local = local[1:-1]
    domain = domain.strip()
    with contextlib.suppress(UnicodeError):  # not a name IDNA can write: compared as it is
        domain = domain.encode("idna").decode("ascii")
    return f"{local.casefold()}@{domain.lower()}"


def _unicode_domain(domain: str) -> str:
    try:
        return domain.encode("ascii").decode("idna")
    except UnicodeError:
        return domain


class AddressTaken(ValueError):
    """Another account took the address between its check and its saving."""


def set_address(user: AbstractBaseUser, address: str) -> None:
    """The address every mail to the player goes to (the settings page and the API's
    notification settings both change it); empty: no mail. Checked again as it is saved
    (``one_address_at_a_time``): ``AddressTaken`` if another account took it meanwhile."""
    with one_address_at_a_time(address):
        refused = address_problem(address, user)
        if refused:
            raise AddressTaken(refused)
        user.email = get_user_model().objects.normalize_email(address)
        user.save(update_fields=["email"])


def _recipients(memberships, preference: str) -> list[tuple]:
    """The users who want this kind of mail, each with the language they read it in."""
    users = []
    for m in memberships:
        user = m.user
        prefs = NotificationSettings.of(user)
        if user.email and getattr(prefs, preference):
            users.append((user, prefs.language or settings.LANGUAGE_CODE))
    return users


Words = Callable[[], tuple[str, str]]

# Control characters (C0, DEL, C1) and the line and paragraph separators.
_LINE_BREAKING = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


def one_line(subject: str) -> str:
    """A mail subject with each run of control characters made one space: a subject is a
    header, and a game name stored before names were checked may hold a line break, which
    made sending fail (BadHeaderError) for every mail about that game."""
    return _LINE_BREAKING.sub(" ", subject).strip()


def _send(users: list[tuple], words: Words, *, strict: bool = False) -> int:
    """Mail each (user, language): ``words`` gives the subject and body, called once per
    language with that language active. ``strict``: a failure raises (the digest then skips
    that user and keeps their press for the next one) rather than being ignored."""
    said: dict[str, tuple[str, str]] = {}
    mails = []
    for user, language in users:
        if language not in said:
            with translation.override(language):
                said[language] = words()
        subject, body = said[language]
        mails.append((one_line(subject), body, settings.DEFAULT_FROM_EMAIL, [user.email]))
    return send_mass_mail(mails, fail_silently=not strict)


def _seats(game: Game):
    return game.memberships.in_play().select_related("user")


def phase_processed(phase: Phase) -> int:
    game = phase.game
    current = game.current_phase

    def words() -> tuple[str, str]:
        names = {"phase": phase.name, "game": game.name}
        lines = [gettext("%(phase)s has been processed in %(game)s.") % names]
        if game.is_over:
            lines.append(gettext("The game is over: %(result)s.") % {"result": ending(game)})
        elif current is not None and current.deadline:
            when = f"{current.deadline:%Y-%m-%d %H:%M} UTC"
            lines.append(
                gettext("Next: %(phase)s, deadline %(when)s.")
                % {"phase": current.name, "when": when}
            )
        return gettext("[%(game)s] %(phase)s processed") % names, "\n".join(lines)

    users = _recipients(_seats(game), "phase_processed")
    reach.phase_processed(phase)  # webhooks and web push, queued
    return _send(users, words)


def game_over(game: Game) -> int:
    """A game ended by the moderator or by the players' votes: mail to those who want to hear
    of processed phases, and the webhooks' and pushes' ``over``."""

    def words() -> tuple[str, str]:
        result = {"game": game.name, "result": ending(game)}
        return (
            gettext("%(game)s is over: %(result)s.") % result,
            gettext("The game is over: %(result)s.") % result,
        )

    users = _recipients(_seats(game), "phase_processed")
    reach.game_over(game)
    return _send(users, words)


def ending(game: Game) -> str:
    """How the game ended, in the active language: the kind, and the powers it names."""
    from .templatetags.game_words import result_kind

    result = game.result or {}
    powers = ", ".join(result.get("powers") or [])
    kind = result_kind(result.get("kind", "ended"))
    return f"{kind} ({powers})" if powers else kind


def deadline_reminders() -> int:
    """Remind players who have no orders in, 24 hours and 1 hour before the deadline."""
    return send_reminders(None)[0]


def send_reminders(seconds: float | None) -> tuple[int, bool]:
    """The reminders due, the nearest deadline first, for at most ``seconds`` (None: all).
    Returns how many were sent and whether none is left.

    Each deadline's reminder is claimed before it is sent, by a write that succeeds only if
    nobody claimed it since this read: two sweeps at it together (one slow, one on time) remind
    nobody twice, and a deadline moved or a phase processed since the read is not reminded of
    as it was. A reminder not sent before its deadline passes is not sent at all."""
    started = time.monotonic()
    now = timezone.now()
    sent = 0
    phases = (
        Phase.objects.filter(
            game__status=Game.Status.ACTIVE,
            game__current_phase=F("pk"),
            processed_at__isnull=True,
            deadline__gt=now,
            deadline__lte=now + timedelta(hours=REMINDER_HOURS[0]),
        )
        .select_related("game")
        .order_by("deadline", "pk")
    )
    tried = 0
    for phase in phases.iterator(chunk_size=200):
        # At least one reminder a call: a read slower than ``seconds`` (a loaded database)
        # would otherwise queue the rest again and again, sending nothing.
        if tried and seconds is not None and time.monotonic() - started >= seconds:
            return sent, False
        due = [h for h in REMINDER_HOURS if phase.deadline - now <= timedelta(hours=h)]
        length = timedelta(minutes=phase.game.minutes_for(phase.type))
        hours = min(due)
        if hours in phase.reminders_sent or length <= timedelta(hours=hours):
            continue
        # Claimed only as read: the same reminders sent, the same deadline (a moderator who
        # moved it meanwhile reset what is due of it: a "1 h" for a deadline now 20 h away
        # would be wrong, and would take the real one's place), the phase not processed since.
        claimed = Phase.objects.filter(
            pk=phase.pk,
            reminders_sent=phase.reminders_sent,
            deadline=phase.deadline,
            processed_at__isnull=True,
        ).update(reminders_sent=sorted(set(phase.reminders_sent) | set(due)))
        if not claimed:
            continue
        tried += 1
        try:
            sent += _remind(phase, hours)
        except Exception:
            # One broken phase (a board the engine refuses) stops none of the others; its
            # reminder stays claimed, not tried again every minute.
            logger.exception("the deadline reminder of phase %s failed", phase.pk)
    return sent, True


def _remind(phase: Phase, hours: int) -> int:
    game = phase.game
    ordered = set(phase.orders.values_list("power", flat=True))
    to_act = engine.powers_to_act(phase) - ordered
    reach.deadline_soon(phase, hours, to_act)  # webhooks and web push, queued
    seats = _seats(game).filter(status=Membership.Status.ACTIVE, power__in=to_act)
    users = _recipients(seats, "deadline_reminders")

    def words() -> tuple[str, str]:
        names = {
            "phase": phase.name,
            "game": game.name,
            "when": f"{phase.deadline:%Y-%m-%d %H:%M} UTC",
            "hours": hours,
        }
        subject = gettext("[%(game)s] %(hours)s h to the deadline") % names
        body = gettext("%(phase)s in %(game)s closes at %(when)s and you have no orders in.")
        return subject, body % names

    return _send(users, words)


# A digest mail holds at most this many messages, each cut to this length; the rest are on
# the game pages. A day's flood of press cannot make a mail (or the task) unbounded.
DIGEST_MESSAGES = 100
DIGEST_BODY = 1000


def press_digest() -> int:
    """One mail per user with the press they could read and have not been sent yet. A user
    whose mail fails is logged and skipped (their press comes in the next digest); the others
    still get theirs."""
    now = timezone.now()
    sent = 0
    # Players, and moderators who do not play: press to "Moderator" is theirs to read.
    readers = Q(memberships__isnull=False) | Q(created_games__isnull=False)
    players = get_user_model().objects.filter(readers).distinct()
    for user in players.exclude(email="").order_by("pk").iterator():
        try:
            sent += _digest(user, now)
        except Exception:
            logger.exception("the press digest for user %s failed", user.pk)
    return sent


def _press_readers(user) -> Iterator[tuple[Game, Callable[[Message], bool]]]:
    """The games whose press the user reads in a digest, each with which of its messages:
    as a player, what the seat may read; as a moderator who does not play, the press written
    to "Moderator" (the rest is there on the game page; a digest of every power's press would
    drown the questions)."""
    seated = set()
    for membership in user.memberships.in_play().select_related("game"):
        seated.add(membership.game_id)
        yield membership.game, partial(visibility.can_read, power=membership.power)
    for game in Game.objects.filter(creator=user).exclude(pk__in=seated).order_by("pk"):
        yield game, _to_moderator  # no seat held: ``services.moderator_reads``


def _to_moderator(message: Message) -> bool:
    return Message.MODERATOR in (message.recipients or [])


def _digest(user, now) -> int:
    prefs = NotificationSettings.of(user)
    if not prefs.press_digest:
        return 0
    since = prefs.last_digest or now - timedelta(days=1)
    found, shown, more = [], 0, False
    for game, readable in _press_readers(user):
        window = game.messages.filter(created__gt=since, created__lte=now).exclude(sender=user)
        new = []
        for message in window.order_by("created", "pk").iterator():
            if not readable(message):
                continue
            if shown == DIGEST_MESSAGES:
                more = True
                break
            new.append(message)
            shown += 1
        if new:
            found.append((game, new))

    def words() -> tuple[str, str]:
        parts = []
        for game, new in found:
            parts.append(f"== {game.name} ==")
            parts += [
                f"{m.sender_power or gettext('Moderator')}: {clip(m.body, DIGEST_BODY)}"
                for m in new
            ]
        if more:
            parts.append(
                gettext("(Only the first %(n)d messages; read the rest in the games.)")
                % {"n": DIGEST_MESSAGES}
            )
        return gettext("[Great Game] press digest"), "\n".join(parts)

    language = prefs.language or settings.LANGUAGE_CODE
    sent = _send([(user, language)], words, strict=True) if found else 0
    prefs.last_digest = now
    prefs.save(update_fields=["last_digest"])
    return sent
