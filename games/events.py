"""Live updates: a game's pages hear that something changed without reloading (issue #16).

The services call :func:`changed` inside their transaction; once it commits, every web
process is nudged: through Redis publish/subscribe when ``REDIS_URL`` is set, else through a
condition in this process, which the streams back up by reading the database every few
seconds (the Celery worker that processes a phase is another process). A nudge carries
nothing but the game's id. Each stream then reads the game again as its own viewer
(``games.visibility``) and sends only what differs from what it sent before, so a stream
never carries another power's private press or anyone's unprocessed orders, and a nudge that
is lost only delays an update until the next read.

Streams are bounded so that they cannot take every worker: a comment line every
``LIVE_HEARTBEAT_SECONDS``, an end after ``LIVE_MAX_SECONDS`` (the browser reconnects by
itself, sending ``Last-Event-ID``), at most ``LIVE_STREAMS_PER_USER`` at once for a user
(counted in the cache, shared by every process when Redis is set),
``LIVE_STREAMS_PER_PROCESS`` in one process, and at most a quarter of those (at least one) for
one user in one process, so a single account cannot take a worker's every stream. A page
refused a stream polls instead (``?poll=1``: the events a stream would send first, at once,
holding nothing open).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from rest_framework.authtoken.models import Token

from . import engine, visibility
from .models import Game, Membership, Message, ModeratorAction, Order, Phase
from .query import repeated

logger = logging.getLogger(__name__)

CHANNEL = "gg:game:{}"
# The browser waits this long before reconnecting after a stream ends.
RETRY_MS = 2000
# Messages sent at once on a resume; older ones are on the page's press pages.
MAX_CATCH_UP = 50


def _setting(name: str, default: float) -> float:
    """A bound from the settings, else from the environment (gunicorn.conf.py sets the
    per-process one from its thread count), else the default."""
    value = getattr(settings, name, None)
    if value is None:
        value = os.environ.get(name)
    return float(value) if value not in (None, "") else default


# -- publishing ----------------------------------------------------------------------------


class _Local:
    """Nudges within this process: a counter per game and one condition to wait on."""

    def __init__(self) -> None:
        self.condition = threading.Condition()
        self.counts: dict[int, int] = {}

    def nudge(self, game_id: int) -> None:
        with self.condition:
            self.counts[game_id] = self.counts.get(game_id, 0) + 1
            self.condition.notify_all()

    def count(self, game_id: int) -> int:
        with self.condition:
            return self.counts.get(game_id, 0)

    def wait(self, game_id: int, seen: int, timeout: float) -> bool:
        with self.condition:
            return self.condition.wait_for(lambda: self.counts.get(game_id, 0) != seen, timeout)


_local = _Local()
_redis_client = None

# Set when this process is told to stop (gunicorn.conf.py: a worker's graceful stop, as a reload
# or a deploy asks): each stream ends at its next wake-up, a heartbeat at the latest, with a
# ``reconnect`` event, and the browser comes back to a worker that goes on. Streams left open
# held the stopping worker through gunicorn's graceful timeout and then its worker timeout, a
# minute, until it was killed ("WORKER TIMEOUT") with them still open.
_stopping = threading.Event()


def stop_streams() -> None:
    """End this process's streams soon: it is stopping."""
    _stopping.set()


def _redis():
    """One client (with its connection pool) per process, made on first use."""
    global _redis_client
    if _redis_client is None:
        import redis

        _redis_client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=5)
    return _redis_client


class _Nudger:
    """Publishes nudges on a Redis connection of its own that Redis answers nothing on
    (``CLIENT REPLY OFF``): a nudge is sent and not waited for. Waiting for Redis's count of
    listeners, which nobody reads, cost each order submission a wait and 39 µs of CPU against
    7 µs for sending alone (timed alone, 20,000 of each). A nudge lost with a broken
    connection is lost as any nudge may be (the streams read the database now and then); the
    next one connects afresh."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # one connection shared by a process's threads
        self._connection = None
        # What the connection was made for: the client (tests make another for new
        # settings) and the process (a forked child never writes on its parent's socket).
        self._made_for: tuple[object, int] | None = None

    def send(self, channel: str) -> None:
        client = _redis()
        with self._lock:
            connection = self._connection
            if connection is None or self._made_for != (client, os.getpid()):
                pool = client.connection_pool
                # Its own, outside the pool's count; never a health check, whose PING would
                # wait for a PONG that Redis, answering nothing here, never sends.
                connection = pool.connection_class(
                    **{**pool.connection_kwargs, "health_check_interval": 0}
                )
                connection.connect()
                connection.send_command("CLIENT", "REPLY", "OFF")
                self._connection, self._made_for = connection, (client, os.getpid())
            try:
                connection.send_command("PUBLISH", channel, b"1")
            except BaseException:
                self._connection = None
                connection.disconnect()
                raise


_nudger = _Nudger()


def publish(game_id: int) -> None:
    """Nudge every stream of the game, here and (with Redis) in every other process."""
    _local.nudge(game_id)
    if settings.REDIS_URL:
        try:
            _nudger.send(CHANNEL.format(game_id))
        except Exception:  # Redis down must not undo a committed move; streams poll too
            logger.warning("live update for game %s not published", game_id, exc_info=True)


def changed(game: Game | int) -> None:
    """Called by the services inside their transaction: nudge once it commits."""
    game_id = game if isinstance(game, int) else game.pk
    transaction.on_commit(lambda: publish(game_id))


# -- listening -----------------------------------------------------------------------------


class _Listener:
    """Waits for the next nudge of one game, or for a timeout."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        self.seen = _local.count(game_id)
        self.pubsub = None
        if settings.REDIS_URL:
            try:
                self.pubsub = _redis().pubsub(ignore_subscribe_messages=True)
                self.pubsub.subscribe(CHANNEL.format(game_id))
            except Exception:
                logger.warning("live updates fall back to polling", exc_info=True)
                self.pubsub = None

    def wait(self, timeout: float) -> bool:
        """True when nudged; with Redis down or absent the caller reads the database anyway."""
        if self.pubsub is not None:
            try:
                end = time.monotonic() + timeout
                while True:
                    # None also when what came was the subscription's own confirmation.
                    left = max(0.0, end - time.monotonic())
                    if self.pubsub.get_message(timeout=left) is not None:
                        while self.pubsub.get_message(timeout=0):
                            pass  # several nudges at once: one read answers them all
                        return True
                    if time.monotonic() >= end:
                        return False
            except Exception:
                logger.warning("live updates fall back to polling", exc_info=True)
                self.close()
        woke = _local.wait(self.game_id, self.seen, timeout)
        self.seen = _local.count(self.game_id)
        return woke

    def close(self) -> None:
        if self.pubsub is not None:
            with contextlib.suppress(Exception):
                self.pubsub.close()
            self.pubsub = None


# -- what a viewer may see -----------------------------------------------------------------


def thread_key(message: Message) -> str:
    """The press thread a message belongs to: public, or the sorted powers who can read it."""
    if message.is_public:
        return "public"
    return "|".join(sorted({message.sender_power or "Moderator", *message.recipients}))


# An event id: the phase index and the last message's id (its public id, random: see
# games.models.new_public_id), each a number as written by str().
CURSOR = r"(0|[1-9][0-9]{0,8})-(0|[1-9][0-9]{0,17})"


@dataclass
class Cursor:
    """Where a viewer is: the phase index and the last message they were sent. It is the
    event id, "phase-message", so that a reconnecting browser says where it was. A forming
    game, which has no phase yet, is at phase 0, the phase it starts in.

    ``message`` is the message's public id, random, which tells nothing of the press the
    viewer may not read; ``after`` the row it names, which orders the press and is never
    shown (row ids count every message on the site)."""

    phase: int = 0
    message: int = 0
    after: int = 0

    @classmethod
    def parse(cls, text: str | None) -> Cursor | None:
        """The cursor an event id names; None for anything no stream sends (a negative
        number, a leading zero), which would make the stream announce a phase never played.
        Its ``after`` is unknown until :meth:`Viewer.resume` finds its message."""
        match = re.fullmatch(CURSOR, text or "")
        return cls(int(match[1]), int(match[2])) if match else None

    def __str__(self) -> str:
        return f"{self.phase}-{self.message}"

    def reached(self, game: Game) -> bool:
        """Whether the game ever reached this cursor's phase.

        A moderator's rollback deletes the phases after the one it goes back to, so a cursor
        of a client that saw them is ahead of the game, legitimately (the stream then resets
        the client); the rollbacks' log entries say how far the game had gone."""
        furthest = game.phases.order_by("-index").values_list("index", flat=True).first() or 0
        if self.phase <= furthest:
            return True
        rollbacks = ModeratorAction.objects.filter(game=game, action="rollback")
        for details in rollbacks.values_list("details", flat=True):
            reached = details.get("furthest") if isinstance(details, dict) else None
            if not isinstance(reached, int):
                return True  # logged before rollbacks said how far the game had gone
            furthest = max(furthest, reached)
        return self.phase <= furthest


class SignedOut(Exception):
    """The stream's token was ended, or its session's password changed or signed out."""


class Viewer:
    """One stream's reader: reads the game as this user may see it."""

    def signed_in_still(self) -> bool:
        """Whether the token or session the stream was opened with still signs in: a token
        ended (``DELETE /api/auth/token/``, a password change) or a session ended (signed
        out, the password changed elsewhere) ends its streams at their next read, rather than
        at their end some minutes later."""
        if not self.user.is_authenticated:
            return True
        if isinstance(self.token, Token):
            return Token.objects.filter(pk=self.token.pk, user_id=self.user.pk).exists()
        session = getattr(self.request, "session", None)
        if session is None or session.session_key is None:
            return True
        # Signed out: the row is gone (the stream holds the session as it was read). Else
        # Django's own check, which the next request would make: the account, and the
        # password's hash the session was signed in with.
        if not session.exists(session.session_key):
            return False
        return get_user(self.request).pk == self.user.pk

    def __init__(self, request: HttpRequest, game: Game) -> None:
        self.request = request
        self.user = request.user
        self.game_id = game.pk
        self.token = getattr(request, "auth", None)  # the API's token signed in with, if any
        self.started = False  # the first read follows the request's own sign-in check

    def read(self) -> tuple[Game, Phase | None, str | None, bool]:
        """The game as this viewer may see it; after the first read, ``SignedOut`` once the
        credential the stream was opened with no longer holds."""
        if self.started and not self.signed_in_still():
            raise SignedOut
        self.started = True
        game = Game.objects.select_related("current_phase").get(pk=self.game_id)
        membership = game.membership_of(self.user)
        power = membership.power if membership and membership.power else None
        return game, game.current_phase, power, visibility.sees_everything(game, self.user)

    def state(self, game: Game, phase: Phase | None, power: str | None = None) -> dict[str, dict]:
        """The parts of the page that follow the game, one event each; ``power``, the
        viewer's: the version of its own saved orders too."""
        # The page's words and board address, the orders' version: both modules import this.
        from . import services, web

        clock = {
            "status": game.status,
            "paused": game.status == Game.Status.PAUSED,
            "deadline": phase.deadline.isoformat()
            if phase and phase.deadline and not phase.processed_at
            else None,
            "over": game.is_over,
        }
        if phase is None:  # forming: who has joined, for the page to show
            return {"clock": clock, "seats": {"taken": game.memberships.count()}}
        # Every seat with its user, read once: the ready flags, and the seating shown.
        every_seat = list(game.memberships.select_related("user"))
        seats = {m.power: m for m in every_seat if m.status != Membership.Status.REPLACED}
        rows = list(Order.objects.filter(phase=phase).values_list("power", "text"))
        ordered = {name for name, _ in rows}
        counts = engine.centres_and_units(phase)
        powers = [
            {
                "power": name,
                "ready": bool(seats.get(name) and seats[name].ready),
                "orders": name in ordered,
                "centres": counts.get(name, (0, 0))[0],
                "units": counts.get(name, (0, 0))[1],
            }
            for name in engine.powers(game)
        ]
        state = {
            "phase": {
                "index": phase.index,
                "label": web.phase_name(game, phase),
                "type": phase.type,
                "board": web.board_url(game, phase, web.palette_of(self.request)),
            },
            "clock": clock,
            # Who plays what, as this viewer sees it: a page showing other seats reads them.
            "powers": {
                "phase": phase.index,
                "powers": powers,
                "seating": web.seating_now(self.request, game, every_seat),
            },
            # Whose page this is: a page of a seat since replaced reads itself again.
            "seat": {"power": power or ""},
        }
        if power is not None and not phase.processed_at:
            # The ETag of GET .../orders/: a page (or tab) holding another version learns that
            # its player's orders were saved elsewhere (another tab, another device).
            own = [Order(text=text) for name, text in rows if name == power]
            state["orders"] = {
                "phase": phase.index,
                "version": services.orders_version(phase.pk, power, own),
            }
        return state

    def _readable(self, game: Game, power: str | None, everything: bool):
        """The messages of ``game`` the viewer may read, picked by the database
        (:func:`visibility.readable_by`), or None for none at all."""
        if everything:
            return game.messages.all()
        if power is None and not game.public:
            return None  # only a public game's spectators read press: its public press
        return game.messages.filter(visibility.readable_by(power))

    def newest(self, game: Game, power: str | None, everything: bool) -> Cursor:
        """Where a viewer starts who has everything up to now: the current phase and the
        newest message they may read (0: none). Never the game's newest message, which would
        tell them how much private press others have sent, and when."""
        phase = game.current_phase
        cursor = Cursor(phase.index if phase else 0)
        messages = self._readable(game, power, everything)
        last = None if messages is None else messages.order_by("-pk").first()
        if last is not None:
            cursor.message, cursor.after = last.public_id, last.pk
        return cursor

    def resume(self, game: Game, power: str | None, everything: bool, cursor: Cursor) -> bool:
        """Find the message ``cursor`` names, setting its ``after``; False when it names no
        message the viewer may read. One answer for a message of the game the viewer may not
        read, another game's and none at all, so that a cursor tells nothing of others'
        press."""
        if cursor.message == 0:
            cursor.after = 0
            return True
        messages = self._readable(game, power, everything)
        message = None if messages is None else messages.filter(public_id=cursor.message).first()
        if message is None:
            return False
        cursor.after = message.pk
        return True

    def press(self, game: Game, power: str | None, everything: bool, after: int) -> list[dict]:
        """Messages after row ``after`` that the viewer may read, oldest first (the latest
        ``MAX_CATCH_UP`` of them); each with its public id and, under ``"_row"``, its row
        (taken off before it is sent)."""
        messages = self._readable(game, power, everything)
        if messages is None:
            return []
        new = messages.filter(pk__gt=after).select_related("sender").order_by("-pk")
        readable = list(new[:MAX_CATCH_UP])[::-1]
        return [
            {
                "_row": m.pk,
                "id": m.public_id,
                "thread": thread_key(m),
                "from": m.sender_power or "Moderator",
                "recipients": m.recipients,
                "public": m.is_public,
                "body": m.body,
                "created": m.created.isoformat(),
            }
            for m in readable
        ]


def _event(kind: str, data: dict, cursor: Cursor) -> str:
    payload = json.dumps(data, separators=(",", ":"))
    return f"id: {cursor}\nevent: {kind}\ndata: {payload}\n\n"


def _news(
    viewer: Viewer,
    game: Game,
    phase: Phase | None,
    power: str | None,
    everything: bool,
    cursor: Cursor,
    sent: dict[str, dict],
) -> list[tuple[str, dict]]:
    """What changed since ``cursor`` and the state events in ``sent``, as (kind, data); moves
    the cursor and ``sent`` on."""
    out = []
    if phase is not None and phase.index != cursor.phase:
        kind = "processed" if phase.index > cursor.phase else "reset"
        out.append((kind, {"from": cursor.phase, "to": phase.index}))
        cursor.phase = phase.index
    for kind, data in viewer.state(game, phase, power).items():
        if sent.get(kind) != data:
            sent[kind] = data
            out.append((kind, data))
    for message in viewer.press(game, power, everything, cursor.after):
        cursor.after = message.pop("_row")
        cursor.message = message["id"]
        out.append(("press", message))
    return out


def snapshot(viewer: Viewer, cursor: Cursor | None) -> str:
    """The events a stream would send first, at once (``?poll=1``): the state now, and what
    happened since ``cursor``. Holds no stream open, so it takes no slot."""
    game, phase, power, everything = viewer.read()
    if cursor is None:
        cursor = viewer.newest(game, power, everything)
    news = _news(viewer, game, phase, power, everything, cursor, {})
    return "".join(_event(kind, data, cursor) for kind, data in news)


def stream(viewer: Viewer, cursor: Cursor | None) -> Iterator[str]:
    """The events for one viewer: the current state first, then whatever changes.

    Without a cursor the viewer has just loaded everything, so earlier press is not resent;
    with one (``Last-Event-ID``), press after it is, and a later phase than its phase is
    announced as processed. An earlier one (a moderator rolled the game back, before this
    stream or during it) is a ``reset``: what the client shows may be of phases deleted
    since, so it must read the game again whole (the page reloads); the state events that
    follow it are the current ones.
    """
    game, phase, power, everything = viewer.read()
    if cursor is None:
        cursor = viewer.newest(game, power, everything)
    sent: dict[str, dict] = {}
    listener = _Listener(game.pk)
    # A closed page's stream is found closed only when a write to it fails, the second after
    # the page went: with a heartbeat every 5 s its place is free within about 10 s, so a
    # player who reloads twice is not refused a stream (15 s held a reloaded page's for 30).
    # A heartbeat reads nothing from the database (below), so it costs a write alone.
    heartbeat = _setting("LIVE_HEARTBEAT_SECONDS", 5)
    poll = heartbeat if listener.pubsub is not None else _setting("LIVE_POLL_SECONDS", 2)
    end = time.monotonic() + _setting("LIVE_MAX_SECONDS", 300)
    quiet_since = read_at = time.monotonic()
    fresh = True
    try:
        yield f"retry: {RETRY_MS}\n\n"
        while True:
            if fresh:
                out = _news(viewer, game, phase, power, everything, cursor, sent)
                for kind, data in out:
                    yield _event(kind, data, cursor)
                if out:
                    quiet_since = time.monotonic()
            left = end - time.monotonic()
            if left <= 0 or _stopping.is_set():
                yield _event("reconnect", {"after_ms": RETRY_MS}, cursor)
                return
            woke = listener.wait(min(poll, left, heartbeat))
            if not woke and time.monotonic() - quiet_since >= heartbeat:
                yield ": still here\n\n"
                quiet_since = time.monotonic()
            # With Redis every change is announced: a wait that ended unannounced (a
            # heartbeat) reads nothing, but for a read every three heartbeats in case an
            # announcement was lost. Without Redis the game is read at every poll.
            fresh = woke or listener.pubsub is None or time.monotonic() - read_at >= 3 * heartbeat
            if fresh:
                try:
                    game, phase, power, everything = viewer.read()
                except (Game.DoesNotExist, SignedOut):  # deleted, or signed out, meanwhile
                    return
                read_at = time.monotonic()
    finally:
        listener.close()


# -- bounds --------------------------------------------------------------------------------


class _Slots:
    """Streams open in this process, in all and per user: one user holds at most a quarter
    of the process's streams (:func:`per_user_in_process`), so one account, however many
    tabs it opens, never takes every slot of a worker from everyone else."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.open = 0
        self.by_user: dict[int | str, int] = {}

    def take(self, user_id: int | str) -> str | None:
        """Take a slot for the user; else why not (``"user"`` or ``"process"``)."""
        with self.lock:
            if self.by_user.get(user_id, 0) >= per_user_in_process():
                return "user"
            if self.open >= _setting("LIVE_STREAMS_PER_PROCESS", 8):
                return "process"
            self.open += 1
            self.by_user[user_id] = self.by_user.get(user_id, 0) + 1
            return None

    def give_back(self, user_id: int | str) -> None:
        with self.lock:
            self.open -= 1
            left = self.by_user.get(user_id, 0) - 1
            if left > 0:
                self.by_user[user_id] = left
            else:
                self.by_user.pop(user_id, None)


def per_user_in_process() -> int:
    """How many of one process's streams one user may hold: a quarter of them (at least one),
    and never more than ``LIVE_STREAMS_PER_USER``."""
    process = int(_setting("LIVE_STREAMS_PER_PROCESS", 8))
    return max(1, min(int(_setting("LIVE_STREAMS_PER_USER", 12)), process // 4))


_slots = _Slots()


def _user_key(user_id: int | str) -> str:
    return f"live-streams:{user_id}"


def _take_user_slot(user_id: int | str) -> bool:
    """Count the user's streams in the cache; the count expires by itself after a crash."""
    key, ttl = _user_key(user_id), int(_setting("LIVE_MAX_SECONDS", 300)) + 60
    cache.add(key, 0, ttl)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, ttl)
        count = 1
    cache.touch(key, ttl)  # a user who keeps streaming keeps the count alive
    if count > _setting("LIVE_STREAMS_PER_USER", 12):
        _give_back_user_slot(user_id)
        return False
    return True


def _give_back_user_slot(user_id: int | str) -> None:
    with contextlib.suppress(ValueError):
        cache.decr(_user_key(user_id))


class _Bounded:
    """The stream, giving its slots back however it ends: the client gone, an error, the time
    up, or never started at all (a generator's ``finally`` would not run then)."""

    def __init__(self, events: Iterator[str], user_id: int | str) -> None:
        self.events = events
        self.user_id = user_id
        self.closed = False

    def __iter__(self) -> _Bounded:
        return self

    def __next__(self) -> str:
        try:
            return next(self.events)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.events.close()
            _slots.give_back(self.user_id)
            _give_back_user_slot(self.user_id)


def _resumable(request: HttpRequest, game: Game, cursor: Cursor) -> bool:
    """Whether a stream of ``game`` could have sent ``cursor`` to this viewer; finds the
    message it names (``cursor.after``)."""
    viewer = Viewer(request, game)
    game, _, power, everything = viewer.read()
    return cursor.reached(game) and viewer.resume(game, power, everything, cursor)


def too_many(detail: str) -> JsonResponse:
    response = JsonResponse({"detail": detail}, status=429)
    response["Retry-After"] = "30"
    return response


def response(request: HttpRequest, game: Game) -> HttpResponse | StreamingHttpResponse:
    """The event stream for this viewer, or a 429 when their streams or this process's are
    all taken (the page then polls, and tries the stream again later); with ``?poll=1`` the
    events of the moment, at once (:func:`snapshot`)."""
    since = request.GET.getlist("since")
    if len(since) > 1:
        return JsonResponse({"since": [repeated(len(since))]}, status=400)
    given = [request.headers.get("Last-Event-ID"), *since]
    given = [text for text in given if text is not None]
    if any(Cursor.parse(text) is None for text in given):
        return JsonResponse({"detail": "Last-Event-ID and since must look like 3-120."}, status=400)
    cursor = Cursor.parse(given[0]) if given else None
    if cursor is not None and not _resumable(request, game, cursor):
        # A phase the game never reached, or a message the viewer may not read (one the game
        # never had, another game's, a private one of others: the same answer, so that it
        # tells nothing of their press): no stream sent it to this viewer, and resuming from
        # it would leave the client silent.
        return JsonResponse(
            {"detail": "Last-Event-ID and since name a phase or message this game never had."},
            status=400,
        )
    if request.GET.getlist("poll") not in ([], ["1"]):
        # The schema's enum is [1]: any other value used to open a stream unseen.
        return JsonResponse({"detail": "poll must be 1, or left out for a stream."}, status=400)
    if request.GET.get("poll") == "1" and request.method == "GET":
        # A page refused a stream (429) polls: one answer, nothing held open, no slot taken.
        polled = HttpResponse(
            snapshot(Viewer(request, game), cursor), content_type="text/event-stream"
        )
        polled["Cache-Control"] = "private, no-store"
        return polled
    if request.method == "HEAD":
        # The headers alone: a HEAD never reads a stream, so it must not hold one open (four
        # of them used to keep a viewer's streams taken for five minutes).
        head = HttpResponse(content_type="text/event-stream")
        head["Cache-Control"] = "private, no-store"
        return head
    if int(_setting("LIVE_STREAMS_PER_PROCESS", 8)) <= 0:
        # A pool that serves no stream (gunicorn.conf.py: one thread a worker): the proxy
        # sends streams elsewhere, or the page polls; retrying here never helps, and no slot
        # is counted in the cache only to be given back. Not logged as a warning: every page
        # the proxy sends here retries its stream now and then, which is no client's fault.
        refusal = too_many("This server serves no live streams; poll with ?poll=1.")
        refusal._has_been_logged = True  # type: ignore[attr-defined]
        return refusal
    # Signed-out spectators of public games count by their address, as sign-ins do.
    user_id = request.user.pk or f"anon:{request.META.get('REMOTE_ADDR', '')}"
    if not _take_user_slot(user_id):
        return too_many("Too many live streams open for this account; close a tab.")
    refused = _slots.take(user_id)
    if refused is not None:
        _give_back_user_slot(user_id)
        if refused == "user":
            return too_many("Too many live streams open for this account; close a tab.")
        return too_many("The server has no room for another live stream now; retry soon.")
    events = _Bounded(stream(Viewer(request, game), cursor), user_id)
    answer = StreamingHttpResponse(events, content_type="text/event-stream")
    answer["Cache-Control"] = "private, no-store"
    answer["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return answer
