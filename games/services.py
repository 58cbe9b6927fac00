"""Everything that changes a game. Views, tasks and the admin call these; nothing else writes.

Each change locks the game row (``select_for_update``) for its transaction, so that order
submissions, moderator actions and phase processing queue up behind each other instead of
interleaving. Work that must not happen unless the change is committed (scheduling the next
deadline, sending mail) is deferred with ``transaction.on_commit``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import random
import secrets
from collections.abc import Callable, Collection, Iterable
from datetime import UTC, datetime, timedelta

from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import Case, F, Q, Value, When
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext, gettext_lazy, gettext_noop

from . import engine, events, preconditions, ratings, visibility
from .limits import (
    ABANDONED_AFTER,
    MAX_DEADLINE_DAYS_AHEAD,
    MAX_ORDER_LENGTH,
    MAX_ORDERS,
    MAX_PAYMENT,
    MAX_PAYMENTS_PER_PHASE,
    clip,
)
from .models import (
    BOT_NAME,
    DrawVote,
    Game,
    Membership,
    Message,
    ModeratorAction,
    Order,
    Payment,
    Phase,
    is_bot_account,
    shows_something,
    validate_game_name,
)
from .prepared import Prepared, PreparedInsert, pipelined

logger = logging.getLogger(__name__)

Status = Game.Status
Seat = Membership.Status


class GameError(Exception):
    """A request that the rules of the game do not allow; the message says why."""


class OrdersChanged(GameError):
    """The power's orders changed since the client read them (another tab or device)."""


class KeyReused(GameError):
    """A payment's key (the API's ``Idempotency-Key``) already named another payment."""


class PhaseChanged(GameError):
    """A ready or a process meant for another phase than the current one: a retry or a
    double click arriving after the phase it was meant for was processed."""


class DeadlineMoved(PhaseChanged):
    """A deadline change sent for the deadline as it was when the moderator looked
    (``seen``), arriving after it moved: a repeated request, or another moderator's."""


def deadline_moved(deadline: datetime | None, seen: datetime | None) -> bool:
    """Whether ``deadline`` is another than ``seen``, the deadline a moderator saw (written to
    the second at least, as a client may; no deadline seen means no check)."""
    return seen is not None and (deadline is None or abs(deadline - seen) >= timedelta(seconds=1))


def deadline_moved_message(written: str) -> str:
    """What a deadline change sent for a deadline that moved since is told; ``written``: the
    deadline now, as the reader writes dates."""
    return gettext(
        "the deadline has moved since you saw it (it is now %(now)s); reload and look at it first"
    ) % {"now": written}


def check_phase(phase: Phase, index: int | None) -> None:
    """Refuse unless ``index`` (when given) names ``phase``, the game's current phase."""
    if index is not None and index != phase.index:
        raise PhaseChanged(
            gettext(
                "this was meant for phase %(meant)s, but the current phase is %(current)s; "
                "reload and look at the board first"
            )
            % {"meant": index, "current": phase.index}
        )


def check_current_phase(game: Game, index: int | None) -> Game:
    """``check_phase`` (when ``index`` is given) against the game's current phase, the game's
    row locked until the caller's transaction ends (a moderator's action sent from the phase
    on their screen). Returns the game as read under the lock."""
    locked = _locked(game)
    if index is not None:
        if locked.current_phase_id is None:
            raise GameError(gettext("the game has no current phase"))
        check_phase(_current(locked), index)
    return locked


# -- helpers ----------------------------------------------------------------------------


def _locked(game: Game | int) -> Game:
    """Re-read the game with its row locked until the end of the transaction."""
    pk = game.pk if isinstance(game, Game) else game
    return Game.objects.select_for_update().get(pk=pk)


def _current(game: Game) -> Phase:
    """The game's current phase; ``game`` is freshly read (or locked), so this is too."""
    if game.current_phase_id is None:
        raise GameError(gettext("the game has not started"))
    return game.current_phase


def _log(game: Game, user: AbstractBaseUser | None, action: str, **details) -> ModeratorAction:
    events.changed(game)  # every logged act (deadline, pause, rollback, seats) shows live
    return ModeratorAction.objects.create(game=game, user=user, action=action, details=details)


def deadline_after(game: Game, phase_type: str, now: datetime) -> datetime | None:
    """Now plus the phase's minutes; with a fixed time of day, the next such time after that.
    None in a sandbox: its player processes at will."""
    if game.sandbox:
        return None
    deadline = now + timedelta(minutes=game.minutes_for(phase_type))
    if game.deadline_time is None:
        return deadline
    at = datetime.combine(deadline.astimezone(UTC).date(), game.deadline_time, tzinfo=UTC)
    return at if at >= deadline else at + timedelta(days=1)


def _enqueue(task_name: str, *args, eta: datetime | None = None) -> None:
    """Send a Celery task once the transaction commits. A broker outage is logged, not raised:
    the beat sweep finds overdue phases anyway."""
    from . import tasks

    def send() -> None:
        try:
            getattr(tasks, task_name).apply_async(args=args, eta=eta)
        except Exception:
            logger.exception("could not enqueue %s%r", task_name, args)

    transaction.on_commit(send)


def _schedule(phase: Phase) -> None:
    if phase.deadline is not None:
        _enqueue("process_phase", phase.game_id, phase.pk, eta=phase.deadline)


def _open_phase(
    game: Game, index: int, board: dict, now: datetime, seats: dict | None = None
) -> Phase:
    """Create and schedule the game's next phase; every seat's ready flag resets (and
    ``seats``: other seat fields to set in the same UPDATE, one round trip fewer)."""
    phase = Phase.objects.create(
        game=game,
        index=index,
        season=board["season"],
        year=board["year"],
        type=board["type"],
        units=board["units"],
        supply_centers=board["supply_centers"],
        dislodged=board.get("dislodged", []),
        contested=board.get("contested", []),
        carried=board.get("carried", {}),
        deadline=None if game.is_over else deadline_after(game, board["type"], now),
    )
    game.current_phase = phase
    game.memberships.update(ready=False, **(seats or {}))
    _opened(game, phase)
    return phase


def _opened(game: Game, phase: Phase) -> None:
    """A phase the game now waits in (new, or gone back to): its deadline scheduled, its bots
    woken, and a retreat or adjustment none who plays acts in processed at once."""
    _schedule(phase)
    _wake_bots(game, phase)
    if phase.type != Phase.Type.MOVEMENT:
        _settle_ready(game, phase)


def _finish(game: Game, kind: str, powers: Iterable[str], **more: object) -> None:
    """End the game with its result: ``kind``, the ``powers`` it names and ``more``. Chinese
    Diplomacy's result says each power's final gold (its goal is the largest profit): a
    processing gives the balances it made; otherwise (ended by hand, drawn or conceded) they
    are those the current phase holds (``_final_gold``)."""
    if "gold" not in more and game.current_phase_id is not None:
        more = {**_final_gold(game.current_phase), **more}
    game.status = Status.FINISHED
    game.result = {"kind": kind, "powers": sorted(powers), **more}
    game.finished_at = timezone.now()
    game.paused_remaining = None
    Phase.objects.filter(pk=game.current_phase_id, processed_at__isnull=True).update(deadline=None)


def _final_gold(phase: Phase) -> dict[str, dict]:
    """The gold of a result (Chinese Diplomacy) as ``phase`` holds it, which places the
    survivors below the winners (seed 003); none in another variant."""
    economy = (phase.carried or {}).get("economy") or {}
    return {"gold": dict(economy["balances"])} if "balances" in economy else {}


def _seat(game: Game, power: str) -> Membership | None:
    return game.memberships.exclude(status=Seat.REPLACED).filter(power=power).first()


# -- forming a game ---------------------------------------------------------------------


def _check_game_caps(creator: AbstractBaseUser, *, waits_for_players: bool = True) -> None:
    """One account may hold only so many unstarted and unfinished games it created: games fill
    the database and the lobby, and the creation throttle alone bounds them only per hour.
    The site's staff are not capped: they run tournaments and the demo's games (``seed_demo``
    makes 21 for its moderator, who could otherwise make no other). A sandbox starts at once
    (``waits_for_players`` False): only the cap of unfinished games bounds it."""
    if creator.is_staff:
        return
    mine = Game.objects.filter(creator=creator)
    forming = django_settings.MAX_FORMING_GAMES if waits_for_players else 0
    unfinished = django_settings.MAX_UNFINISHED_GAMES
    if forming and mine.filter(status=Status.FORMING).count() >= forming:
        raise GameError(
            gettext("you already have %(n)s games waiting for players; start or end one")
            % {"n": forming}
        )
    running = (Status.FORMING, Status.ACTIVE, Status.PAUSED)
    if unfinished and mine.filter(status__in=running).count() >= unfinished:
        raise GameError(
            gettext("you already run %(n)s unfinished games; end one first") % {"n": unfinished}
        )


def create_game(
    creator: AbstractBaseUser, *, name: str, variant: str, capped: bool = False, **settings
) -> Game:
    """A new game in the forming state; its creator moderates it. ``capped``: refuse it when
    the creator already has too many (the pages and the API ask; scripts and the admin not)."""
    if variant not in engine.variant_ids():
        raise GameError(f"unknown variant {variant!r}")
    try:
        validate_game_name(name)  # the forms check it too; a script or a bot may not
    except ValidationError as error:
        raise GameError(" ".join(error.messages)) from None
    options = settings.pop("options", None) or {}
    problems = engine.option_problems(variant, options)
    if problems:
        raise GameError("; ".join(problems))
    # The game's chance, replayable, secret until the game is over (engine.SERVER_OPTIONS):
    # 63 bits, so that nobody finds it by trying every seed against the dice a year shows.
    options = {**options, "seed": secrets.randbits(63)}
    with transaction.atomic():
        if capped:
            # Counted and made under the creator's row lock: requests sent at once each
            # counted the same games and each made one, past the caps.
            get_user_model().objects.select_for_update().filter(pk=creator.pk).first()
            _check_game_caps(creator, waits_for_players=not settings.get("sandbox"))
        game = Game.objects.create(
            name=name, variant=variant, creator=creator, options=options, **settings
        )
        _log(game, creator, "create", variant=variant)
    return game


def _check_preferences(game: Game, preferences: Iterable[str]) -> list[str]:
    preferences = [engine.power_named(game, p) for p in preferences]
    powers = engine.powers(game)
    unknown = [p for p in preferences if p not in powers]
    if unknown:
        raise _unknown_powers(game, unknown)
    return list(dict.fromkeys(preferences))


@transaction.atomic
def join_game(game: Game, user: AbstractBaseUser, preferences: Iterable[str] = ()) -> Membership:
    """Take a seat in a forming game; the game starts when the last seat is taken."""
    game = _locked(game)
    if game.is_over:  # a finished or cancelled game has no seat to take, nor to take over
        raise GameError(gettext("the game is over: no seat is open to join or to take over"))
    if game.status != Status.FORMING:
        raise GameError(
            gettext("the game is no longer forming; take over a power in civil disorder")
        )
    if game.memberships.filter(user=user).exists():
        raise GameError(gettext("you are already in this game"))
    ratings.check_requirements(game, user)
    membership = game.memberships.create(
        user=user, preferences=_check_preferences(game, preferences)
    )
    if game.memberships.count() == len(engine.powers(game)):
        _start(game)  # announces the started game itself
    else:
        events.changed(game)  # the forming game's open pages count the seats again
    return membership


# Translated when said (lazily): the refusal of a leave by someone without a seat.
NOT_IN_GAME = gettext_lazy("you are not in this game")


@transaction.atomic
def leave_game(membership: Membership) -> None:
    """Give up a seat in a forming game. The seat is looked for again under the game's lock:
    of two leaves sent at once (a double click), the second finds it gone and is refused."""
    game = _locked(membership.game)
    if game.status != Status.FORMING:
        raise GameError(gettext("only a forming game can be left"))
    if not game.memberships.in_play().filter(pk=membership.pk).exists():
        raise GameError(str(NOT_IN_GAME))
    membership.delete()
    events.changed(game)


def assign_powers(
    powers: list[str], memberships: list[Membership], rng: random.Random
) -> dict[int, str]:
    """Membership pk -> power: players in random order take their best free preference,
    then whoever is left gets a random free power."""
    free = list(powers)
    rng.shuffle(free)
    order = list(memberships)
    rng.shuffle(order)
    chosen: dict[int, str] = {}
    for m in order:
        for power in m.preferences:
            if power in free:
                chosen[m.pk] = power
                free.remove(power)
                break
    for m in order:
        if m.pk not in chosen:
            chosen[m.pk] = free.pop()
    return chosen


def _start(game: Game) -> Phase:
    members = list(game.memberships.all())
    powers = engine.powers(game)
    if not members:
        raise GameError(gettext("nobody has joined yet"))
    seats = assign_powers(powers, members, random.Random())
    for membership in members:
        membership.power = seats[membership.pk]
        membership.save(update_fields=["power"])
    if game.bots_fill_empty:
        for power in sorted(set(powers) - set(seats.values())):
            _seat_bot(game, power)
    game.status = Status.ACTIVE
    board = engine.starting_phase(game.variant, game.options.get("seed", 0))
    phase = _open_phase(game, 0, board, timezone.now())
    game.save()
    events.changed(game)
    return phase


@transaction.atomic
def start_game(game: Game, by: AbstractBaseUser) -> Phase:
    """The moderator starts a forming game early; empty seats play as civil disorder."""
    game = _locked(game)
    if game.status != Status.FORMING:
        raise GameError(gettext("the game has already started"))
    phase = _start(game)
    _log(game, by, "start", players=game.memberships.count())
    return phase


def _not_sandbox(game: Game) -> None:
    """Refuse to seat anyone (a player, a bot) in a sandbox: its creator plays every power."""
    if game.sandbox:
        raise GameError(gettext("a sandbox is played by its creator alone"))


class _Rehearsed(Exception):
    """Undoes a rehearsal's transaction (``rehearse``)."""


def rehearse(action: Callable[..., object], *args: object) -> None:
    """Do ``action(*args)`` in a transaction that is then undone, its writes and the tasks it
    queued with them: it raises what the action would refuse, and nothing if it would be
    done. For a page to ask "are you sure?" only of what would be done, and to say at once
    why not otherwise."""
    try:
        with transaction.atomic():
            action(*args)
            raise _Rehearsed
    except _Rehearsed:
        return


@transaction.atomic
def take_over(game: Game, user: AbstractBaseUser, power: str) -> Membership:
    """Take over a surviving power that nobody plays (civil disorder or never filled) or that
    a bot plays: a human always has the first claim on a seat."""
    game = _locked(game)
    power = engine.power_named(game, power)
    _not_sandbox(game)
    if game.status not in (Status.ACTIVE, Status.PAUSED):
        raise GameError(gettext("powers can only be taken over in a running game"))
    own = game.memberships.filter(user=user).first()
    if own is not None and own.in_play:
        raise GameError(gettext("you are already in this game"))
    _not_a_watching_moderator(game, user)
    if own is not None and own.removed:  # out for good, unless the moderator seats them
        raise GameError(gettext("the moderator removed you from this game"))
    refusal = deposition_refusal(game, own, power)
    if refusal:
        raise GameError(refusal)
    ratings.check_requirements(game, user)
    if power not in engine.powers(game):  # the Chinese factions are the gamesmaster's
        raise GameError(
            f"{power!r} is not a power players play; choose from {', '.join(engine.powers(game))}"
        )
    if power not in engine.survivors(_current(game)):
        raise GameError(gettext("%(power)s is not a surviving power") % {"power": power})
    seat = _seat(game, power)
    if seat is not None and seat.status != Seat.CIVIL_DISORDER and not seat.bot:
        raise GameError(gettext("%(power)s is not in civil disorder") % {"power": power})
    if seat is not None:
        seat.status = Seat.REPLACED
        seat.save(update_fields=["status"])
        if seat.bot:
            _log(game, user, "bot", power=power, bot=False, player=user.username, why="taken")
    membership = _take_seat(game, user, power, own)
    phase = _current(game)
    _new_leader_at_zero(game, phase, membership)
    _wake_bots(game, phase)  # bots left alone were not ready: now a human plays
    _seats_changed(game, phase)
    return membership


def _new_leader_at_zero(game: Game, phase: Phase, newcomer: Membership) -> None:
    """Seed 003, rule 6: a deposed leader's power goes to a new player, who starts at net
    zero. The engine puts it back at zero when it judged the deposition; a power left without
    a leader for a while (its armies still cost their upkeep) is put back at zero again for
    the player who takes it, as the year is judged (``economy.new_leaders``). Not for the
    deposed leader seated again, nor for a player who takes it from another person."""
    economy = (phase.carried or {}).get("economy")
    if economy is None:
        return
    people = game.memberships.filter(power=newcomer.power, bot=False).exclude(pk=newcomer.pk)
    last = people.order_by("-joined", "-pk").first()
    if last is None or not _deposed(game, last):
        return
    leaders = economy.setdefault("new_leaders", [])
    if newcomer.power not in leaders:
        leaders.append(newcomer.power)
        phase.save(update_fields=["carried"])


def _not_a_watching_moderator(game: Game, user: AbstractBaseUser) -> None:
    """Whoever moderates the game and does not play it sees every power's orders before they
    are judged (``visibility.sees_everything``): its creator, and a site moderator or a
    superuser, who moderate every game. Taking a seat in the running game afterwards would
    play with those orders in hand, so another player is seated instead. (A seat held all
    along is no seat taken: a site moderator who plays sees only their own power's orders.)"""
    if user.pk == game.creator_id:
        raise GameError(
            gettext(
                "you moderate this game and have seen every power's orders: seat another player"
            )
        )
    if game.is_moderator(user):
        raise GameError(
            gettext(
                "%(user)s is a site moderator, who may see every power's orders in this game: "
                "seat another player"
            )
            % {"user": user.username}
        )


def deposition_refusal(game: Game, own: Membership | None, power: str) -> str | None:
    """Why the player of ``own`` (their seat row in the game, out of play) may not take
    ``power`` over because of a deposition (Chinese Diplomacy), or None: the page offers
    only the powers ``take_over`` would give."""
    if own is not None and own.power == power and _deposed(game, own):
        # Seed 003, rule 6: the position goes to a new player (the moderator may still seat
        # the old one again).
        return gettext("you were deposed as leader of %(power)s; it goes to a new player") % {
            "power": power
        }
    if deposed_from := _deposed_from_another(game, own, power):
        return gettext(
            "you were deposed as leader of %(power)s in this game; its other powers go to "
            "other players"
        ) % {"power": deposed_from}
    return None


def deposed_from(game: Game, own: Membership | None) -> str | None:
    """The power of the game the player of ``own`` (their seat row in it) was deposed from as
    leader (Chinese Diplomacy) and no longer plays, or None: for the page to say so."""
    if own is None or own.in_play:
        return None
    name = own.user.get_username()
    deposed = ModeratorAction.objects.deposed_leaders(game)
    return next((p for p, player in sorted(deposed) if player == name), None)


def _deposed_from_another(game: Game, own: Membership | None, power: str) -> str | None:
    """The power other than ``power`` of the game that the user of ``own`` was deposed from,
    if any: such a leader takes no other power of it, nor is seated on one by the moderator
    (bankrupt on purpose, the gold paid to an ally, the loss would be left behind), not even
    after being seated again on their own and removed from it."""
    if own is None:
        return None
    name = own.user.get_username()
    deposed = ModeratorAction.objects.deposed_leaders(game)
    return next((p for p, player in sorted(deposed) if player == name and p != power), None)


def _deposed(game: Game, seat: Membership) -> bool:
    """Whether the seat's player was deposed from its power (Chinese Diplomacy) and not
    seated there again since."""
    return seat.status == Seat.REPLACED and seat.pk in ModeratorAction.objects.deposed_seats(game)


def _take_seat(
    game: Game, user: AbstractBaseUser, power: str, own: Membership | None
) -> Membership:
    """Seat ``user`` on ``power``, whose seat in play (if any) is already replaced. ``own``:
    the user's earlier seat in this game, out of play (replaced, or removed by the moderator):
    one account has one seat row a game (``one_seat_per_user``), so a player seated again gets
    that row back, playing afresh (no missed phases, not removed, not ready). A vote standing
    for the power was its last player's: the newcomer has cast none (votes are secret, so
    they could neither see nor withdraw it)."""
    DrawVote.objects.filter(game=game, power=power).delete()
    if own is None:
        return game.memberships.create(user=user, power=power)
    own.power, own.status, own.missed_phases = power, Seat.ACTIVE, 0
    own.removed = own.ready = own.bot = False
    own.seated = timezone.now()
    fields = ["power", "status", "missed_phases", "removed", "ready", "bot", "seated"]
    own.save(update_fields=fields)
    return own


# -- playing ----------------------------------------------------------------------------


def _playing(membership: Membership) -> tuple[Game, Phase]:
    game = _lock_seat(membership)
    return game, _current(game)


def _lock_seat(membership: Membership) -> Game:
    """Re-read the seat and its game, the game's row locked; refused unless both still play.
    Returns the game.

    As everywhere here, the game's row lock is what serialises changes: a submission cannot
    land in a phase being processed, nor interleave with another for the same power.
    """
    # The game first, then the seat in a statement of its own: a statement that waited for
    # the lock would answer the seat as it was when it began, not as a change committed
    # meanwhile (a player removed or replaced) left it.
    game = Game.objects.select_for_update().filter(pk=membership.game_id).first()
    if game is None:
        raise GameError(gettext("the game no longer exists"))
    try:
        membership.refresh_from_db()
    except Membership.DoesNotExist:  # deleted with its player's account, say
        raise GameError(
            gettext("you no longer play %(power)s") % {"power": membership.power}
        ) from None
    membership.game = game
    _still_playing(game.status, membership.status, membership.power, membership.removed)
    return game


def _still_playing(game_status: str, seat_status: str, power: str, removed: bool) -> None:
    """Refuse unless the game runs and the seat still plays it (a seat the moderator removed
    its player from does not, though it waits in civil disorder for another)."""
    if game_status not in (Status.ACTIVE, Status.PAUSED):
        raise GameError(gettext("the game is not running"))
    if removed or seat_status not in (Seat.ACTIVE, Seat.CIVIL_DISORDER):
        raise GameError(gettext("you no longer play %(power)s") % {"power": power})


# The two reads of ``_send_lock_for_orders`` and the delete of ``submit_orders``, compiled once
# per process (``games.prepared``): through the ORM each cost more Python than the statement
# costs the database. The seat is read in a statement of its own, after the lock: a statement
# that waited for the lock answers the other rows as they were when it began (PostgreSQL's
# snapshot), not as a change committed meanwhile left them.
LOCK_GAME = Prepared(
    lambda game: (
        Game.objects.select_for_update()
        .filter(pk=game)
        .order_by()  # one row by its key: no sort (the model's ordering is for lists)
        .values_list("status", "current_phase_id")
    ),
    ("int",),
)
SEAT_STATE = Prepared(
    lambda seat: (
        Membership.objects.filter(pk=seat)
        .order_by()
        .values_list("status", "missed_phases", "removed", "power")
    ),
    ("int",),
)
DELETE_ORDERS = Prepared(
    lambda phase, power: Order.objects.filter(phase_id=phase, power=power),
    ("int", "str"),
    delete=True,
)
INSERT_ORDERS = PreparedInsert(Order)


def _send_lock_for_orders(membership: Membership) -> Callable[[], int | None]:
    """``_lock_seat`` for order submissions, the busiest request of all, at a fraction of its
    cost: the game's row locked and two of its columns read, then the seat's state. Under the
    game's lock no change to the seat can be under way (every one takes that lock first).
    The statements are sent at once; the function returned reads their answers, checks the
    seat still plays the same power and returns the current phase's id."""
    game = LOCK_GAME.send(membership.game_id)
    seat_state = SEAT_STATE.send(membership.pk)

    def current_phase() -> int | None:
        locked = game()
        rows = seat_state()
        if not locked:
            raise GameError(gettext("the game no longer exists"))
        ((status, phase_id),) = locked
        if not rows:  # the seat is gone (deleted with its player's account, say)
            raise GameError(gettext("you no longer play %(power)s") % {"power": membership.power})
        ((seat, missed, removed, power),) = rows
        _still_playing(status, seat, membership.power, removed)
        if power != membership.power:  # a player seated again, on another power
            raise GameError(gettext("you no longer play %(power)s") % {"power": membership.power})
        membership.status, membership.missed_phases = seat, missed
        return phase_id

    return current_phase


def orders_version(phase_id: int, power: str, orders: list[Order] | None = None) -> str:
    """A version of the power's orders in the phase, from what they say: other orders make
    another version, and the same orders sent again keep theirs, so a tab whose orders another
    tab saved again unchanged is not refused as stale (the API's ETag / If-Match).

    ``orders``: the power's orders as just read or stored, in their order, so the version is
    theirs exactly. A tab holding a version that came back (X, then Y, then X again) edited
    what is stored now, so saving over it loses nothing.
    """
    if orders is None:
        stored = Order.objects.filter(phase_id=phase_id, power=power).order_by("position")
        texts = list(stored.values_list("text", flat=True))
    else:
        texts = [o.text for o in orders]
    if not texts:
        return f"{phase_id}.0.0"
    # Signed, so that a version says nothing of the orders to whoever sees it but not them.
    signed = salted_hmac("orders-version", "\n".join([f"{phase_id}.{power}", *texts]))
    return f"{phase_id}.{len(texts)}.{signed.hexdigest()[:16]}"


def submit_orders(
    membership: Membership,
    texts: list[str],
    *,
    version: str | Collection[str] | None = None,
    phase: Phase | None = None,
    unless: frozenset[str] | str | None = None,
) -> list[Order]:
    """Replace the power's orders for the current phase; each is checked by the engine.

    Invalid orders are stored too, with the engine's reason, so the player sees what was
    wrong; only valid ones are adjudicated. A player in civil disorder who sends orders is
    back in play. With ``version`` (from ``orders_version``), nothing is replaced unless the
    stored orders are still that version (or one of them, when several are given: an
    ``If-Match`` may list more than one): two tabs of one player cannot silently overwrite
    each other's orders. ``phase``: the current phase as the caller read it, with
    ``membership.game`` (the API reads all three in one query); if it has been processed
    since, the orders are refused rather than stored in the next phase. ``unless``: the API's
    ``If-None-Match`` (``preconditions.if_none_match``): nothing is replaced if the stored
    orders are one of those versions, or with ``*`` if any are stored.
    """
    texts = engine.order_lines(texts)
    game, phase = _ordering(membership, texts, phase)
    # The engine runs outside the lock; the seat and the phase are re-checked under it below.
    checked = engine.check_orders(game, phase, membership.power, texts)
    rows = list(_order_rows(membership, phase, checked))
    versions = {version} if isinstance(version, str) else version
    compared = versions is not None or unless is not None
    with transaction.atomic():
        # One round trip for the lock, the seat's re-read and (without a version to compare)
        # the replacement, which the checks below undo with the transaction if they refuse.
        with pipelined():
            locked = _send_lock_for_orders(membership)
            replaced = None if compared else _send_replace(membership, phase, rows)
        if replaced is not None:
            orders = replaced()  # read before any refusal: SQLite rolls back no open statement
        current = locked()
        if current != phase.pk:
            # The phase read with the seat was processed meanwhile: a conflict (409), as for
            # orders that name a processed phase.
            raise PhaseChanged(gettext("the phase has just been processed; send your orders again"))
        if compared:
            _compare_versions(phase, orders_version(phase.pk, membership.power), versions, unless)
            orders = _send_replace(membership, phase, rows)()
        _back_in_play(membership, game, phase)
        events.changed(membership.game_id)
    return orders


def _compare_versions(
    phase: Phase,
    stored: str,
    versions: Collection[str] | None,
    unless: frozenset[str] | str | None,
) -> None:
    """Refuse (``OrdersChanged``) unless the ``stored`` version of the orders is one of
    ``versions`` (If-Match) and not one ``unless`` refuses (If-None-Match)."""
    # No orders saved is the version "<phase>.0.0" (``orders_version``).
    if preconditions.none_match(unless, stored, saved=not stored.endswith(".0.0")):
        if unless == preconditions.ANY:
            raise OrdersChanged(
                gettext("orders are saved already, and If-None-Match: * saves only where none are")
            )
        raise OrdersChanged(
            gettext("your saved orders are the version If-None-Match names; nothing was saved")
        )
    if versions is None or stored in versions:
        return
    if _read_in_an_earlier_phase(phase, versions):
        raise OrdersChanged(
            gettext(
                "these orders were read in an earlier phase, since processed; the "
                "current phase is %(current)s: reload and look at the board first"
            )
            % {"current": phase.index}
        )
    raise OrdersChanged(gettext("your orders were changed elsewhere; reload them and try again"))


def _read_in_an_earlier_phase(phase: Phase, versions: Collection[str]) -> bool:
    """Whether a refused ``If-Match`` names a version of the orders of an earlier phase of
    this game (a version begins with its phase's id; a rollback deletes the later ones): the
    player's screen is a phase behind, rather than another tab ahead."""
    ids = {v.split(".", 1)[0] for v in versions}
    ids = {int(i) for i in ids if i.isascii() and i.isdigit() and len(i) < 19} - {phase.pk}
    return bool(ids) and Phase.objects.filter(game_id=phase.game_id, pk__in=ids).exists()


def _send_replace(
    membership: Membership, phase: Phase, rows: list[Order]
) -> Callable[[], list[Order]]:
    """The power's stored orders in the phase replaced by ``rows``, sent; the function
    returned gives them back saved."""
    DELETE_ORDERS.delete(phase.pk, membership.power)
    return INSERT_ORDERS.send(rows)


def _back_in_play(membership: Membership, game: Game, phase: Phase) -> None:
    """A player who acts (orders sent, or Ready: holding everything) has missed nothing and,
    if in civil disorder, plays again. Under the game's lock, the seat as read there. Bots left
    alone in the phase were not ready (``play_bots``): a person back in play wakes them."""
    if membership.missed_phases or membership.status != Seat.ACTIVE:
        returning = membership.status != Seat.ACTIVE
        membership.missed_phases = 0
        membership.status = Seat.ACTIVE
        membership.save(update_fields=["missed_phases", "status"])
        if returning and not membership.bot:
            _wake_bots(game, phase)


def check_orders(
    membership: Membership, texts: list[str], *, phase: Phase | None = None
) -> list[Order]:
    """Answer orders exactly as ``submit_orders`` would, and store nothing: the order box
    checks with this while the player types, so typing spends no saves and makes no new
    versions of the saved orders. ``phase`` as in ``submit_orders``."""
    texts = engine.order_lines(texts)
    game, phase = _ordering(membership, texts, phase)
    _still_playing(game.status, membership.status, membership.power, membership.removed)
    checked = engine.check_orders(game, phase, membership.power, texts)
    return list(_order_rows(membership, phase, checked))


def _ordering(membership: Membership, texts: list[str], phase: Phase | None) -> tuple[Game, Phase]:
    """What saving and checking orders share: the limits, then the game and the phase, in
    which the power must have something to order (or send nothing)."""
    _order_limits(texts)
    if phase is None:
        game = Game.objects.select_related("current_phase").get(pk=membership.game_id)
        phase = _current(game)
    else:
        game = membership.game
    if texts and _nothing_to_order(phase, membership.power):
        # Stored, a stray order showed the power as having ordered, to every player.
        raise GameError(
            gettext("%(power)s has nothing to order this phase") % {"power": membership.power}
        )
    return game, phase


def _nothing_to_order(phase: Phase, power: str) -> bool:
    """A retreat phase without a dislodged unit of the power's, or an adjustment phase with
    nothing for it to build or remove. (In a movement phase a power still in play has units,
    or gold to bring armies on.)"""
    if phase.type == Phase.Type.RETREATS:
        return all(d["power"] != power for d in phase.dislodged)
    if phase.type == Phase.Type.ADJUSTMENTS:
        return power not in engine.powers_to_act(phase)
    return False


def _order_limits(texts: list[str]) -> None:
    if len(texts) > MAX_ORDERS:
        raise GameError(
            gettext("at most %(most)s orders a phase; %(sent)s were sent")
            % {"most": MAX_ORDERS, "sent": len(texts)}
        )
    long = next((n for n, text in enumerate(texts, 1) if len(text) > MAX_ORDER_LENGTH), None)
    if long is not None:
        raise GameError(
            gettext("order %(n)s is longer than %(most)s characters")
            % {"n": long, "most": MAX_ORDER_LENGTH}
        )
    if any("\x00" in text for text in texts):
        raise GameError(gettext("an order may not contain a NUL character"))


# The columns the engine's words go into (``Order.reason``, ``result_reason``, ``result``).
REASON_LENGTH = Order._meta.get_field("reason").max_length
RESULT_LENGTH = Order._meta.get_field("result").max_length
STOPPED_AT_LENGTH = Order._meta.get_field("stopped_at").max_length


def _order_rows(membership: Membership, phase: Phase, checked: list) -> Iterable[Order]:
    """The power's orders as the engine answered them (``engine.Checked``), not yet saved."""
    for n, c in enumerate(checked):
        valid, reason, canonical = c.valid, clip(c.reason, REASON_LENGTH), c.canonical
        words = c.reason_words
        if len(canonical) > MAX_ORDER_LENGTH:  # no honest order spells out this long
            valid, canonical = False, ""
            template = gettext_noop("the order reads longer than {count} characters")
            words = {"template": template, "args": {"count": str(MAX_ORDER_LENGTH)}}
            reason = template.format(count=MAX_ORDER_LENGTH)
        yield Order(
            phase=phase,
            power=membership.power,
            membership=membership,
            text=c.text,
            canonical=canonical,
            location=c.location if valid else None,
            data=c.data,
            valid=valid,
            reason=reason,
            reason_words=words,
            needs=clip(c.needs, REASON_LENGTH) if valid else "",
            needs_words=c.needs_words if valid else None,
            position=n,
        )


def set_ready(membership: Membership, ready: bool = True, *, phase: int | None = None) -> None:
    """Mark the power ready; when every active power is, the phase may process early.

    ``phase``: the index of the phase the player is ready for (the API and the page send it);
    for any other phase nothing changes (``PhaseChanged``). The flag is cleared whenever a
    new phase opens, so a ready never carries over.
    """
    with transaction.atomic():
        game, current = _playing(membership)
        check_phase(current, phase)
        phase = current
        membership.ready = ready
        membership.save(update_fields=["ready"])
        if ready:
            _back_in_play(membership, game, phase)  # saying Ready holds everything: an order
        events.changed(game)
        if ready:
            _settle_ready(game, phase)


def _all_ready(game: Game, phase: Phase) -> bool:
    """Whether the phase may process early: the game allows it, a person plays (bots are
    ready only then, so a game left to bots waits for its deadlines) and every active seat
    with something to do this phase is ready. So is a retreat or an adjustment that none of
    them has anything to do in (a power in civil disorder alone retreats): nobody is left to
    wait for. A movement phase waits for its deadline then: a player away may come back."""
    if not game.process_when_ready:
        return False
    to_act = engine.powers_to_act(phase)
    seats = list(game.memberships.filter(status=Seat.ACTIVE))
    players = [m for m in seats if m.power in to_act]
    people = any(not m.bot for m in seats)
    if not players and phase.type == Phase.Type.MOVEMENT:
        return False
    return people and all(m.ready for m in players)


def _settle_ready(game: Game, phase: Phase) -> None:
    """Process the phase (once this transaction commits) if every power it waits for is ready
    now. Called wherever who must be ready, or whether the game runs, may have changed: a
    ready, a resume, a seat removed, replaced, taken over or handed to or from a bot, the
    setting switched on. ``process_phase`` checks it all again under the game's lock."""
    if game.status == Status.ACTIVE and _all_ready(game, phase):
        _enqueue("process_phase", game.pk, phase.pk)


def _seats_changed(game: Game, phase: Phase) -> None:
    """A seat stopped or started playing: the votes and the ready flags standing may now carry
    the game (a draw) or the phase (all ready) without anyone voting or saying ready again."""
    _settle_votes(game, phase)
    _settle_ready(game, phase)


# The same words from the same sender to the same readers within this time are one message.
REPEATED_PRESS = timedelta(seconds=10)


def send_message(
    game: Game,
    user: AbstractBaseUser,
    body: str,
    recipients: Iterable[str] = (),
    *,
    phase: int | None = None,
) -> Message:
    """Press from a player's power, or from the moderator when they are not playing.
    ``recipients``: powers (none: everyone), and ``Moderator`` for a player writing to a
    moderator who does not play (``Message.MODERATOR``).

    ``phase``: the index of the phase it was written in (the API's, when the client names
    it); sent after that phase was processed, it is refused (``PhaseChanged``), unless it is
    a repeat of press already sent, which is answered as before. A repeat (the same words from
    the same sender to the same readers within ``REPEATED_PRESS``: a double click or a retry)
    sends nothing new; the message answered has ``repeated`` set."""
    recipients = sorted(set(recipients))
    if not shows_something(body):
        # "\u200b" or "\u202e\u2066" passed as press that shows nothing (game names refuse
        # such characters outright; press may hold them, e.g. in a right-to-left line).
        raise GameError(
            gettext(
                "a message needs something to read: this one holds only spaces or invisible "
                "characters"
            )
        )
    with transaction.atomic():
        game = _locked(game)
        membership = game.membership_of(user)
        if membership is None and not game.is_moderator(user):
            raise GameError(gettext("only players and the moderator may send press"))
        if game.status in (Status.FORMING, Status.CANCELLED):
            raise GameError(gettext("press opens when the game starts"))
        to_moderator = any(_names_moderator(p) for p in recipients)
        recipients = [p for p in recipients if not _names_moderator(p)]
        if membership is not None:
            # Press to the moderator alone tells no other power anything: a player may always
            # write to them (a question, a problem), in a no-press game too.
            alone = to_moderator and not recipients
            if game.press == Game.Press.NONE and not game.is_over and not alone:
                raise GameError(
                    gettext("this is a no-press game: only the moderator may be written to")
                    if moderator_reads(game)
                    else gettext("this is a no-press game")
                )
            if game.press == Game.Press.PUBLIC and recipients and not game.is_over:
                raise GameError(gettext("this game allows public press only"))
            if to_moderator and not moderator_reads(game):
                raise GameError(
                    gettext(
                        "the moderator plays in this game: write to their power, not to Moderator"
                    )
                )
        recipients = sorted({engine.power_named(game, p) for p in recipients})
        unknown = [p for p in recipients if p not in engine.powers(game)]
        if unknown:
            raise _unknown_powers(game, unknown)
        sender_power = membership.power if membership else ""
        yourself = gettext("a message needs someone other than yourself to read it")
        if to_moderator and membership is None and not recipients:
            raise GameError(yourself)  # the moderator to "Moderator" alone
        if to_moderator and membership is not None:
            recipients = sorted([*recipients, Message.MODERATOR])
        if sender_power in recipients:
            recipients.remove(sender_power)
            if not recipients:
                raise GameError(yourself)
        # A double click or a client's retry sends the same words again at once: the press
        # already sent is the answer, not a second copy (the game's lock orders the two).
        repeated = game.messages.filter(
            sender=user,
            sender_power=sender_power,
            body=body,
            created__gte=timezone.now() - REPEATED_PRESS,
        ).order_by("-pk")
        for earlier in repeated:
            if sorted(earlier.recipients) == recipients:
                earlier.repeated = True
                return earlier
        check_phase(_current(game), phase)
        events.changed(game)
        message = Message.objects.create(
            game=game,
            phase_id=game.current_phase_id,
            sender=user,
            sender_power=sender_power,
            recipients=recipients,
            body=body,
        )
        _enqueue("push_press", message.pk)  # web push to its readers (games.reach)
        message.repeated = False
        return message


def _names_moderator(recipient: str) -> bool:
    """Whether a recipient, as sent, is the moderator: ``Moderator`` in any case, or the word
    in the sender's language (the page's label)."""
    name = recipient.strip().casefold()
    return name in {Message.MODERATOR.casefold(), gettext("Moderator").casefold()}


def moderator_reads(game: Game) -> bool:
    """Whether press to ``Moderator`` has a reader: the game's creator, when they hold no
    seat in it (a moderator who plays reads only their power's press)."""
    return game.creator_id is not None and game.membership_of(game.creator) is None


def voters(game: Game, phase: Phase, seats: Iterable[Membership] | None = None) -> set[str]:
    """The humans' powers: bots never vote, so they neither block nor make a draw. ``seats``:
    the game's seats, where the caller has them already."""
    alive = engine.survivors(phase)
    if seats is None:
        seats = game.memberships.filter(status=Seat.ACTIVE, bot=False)
    return {m.power for m in seats if m.status == Seat.ACTIVE and not m.bot and m.power in alive}


def vote(membership: Membership, *, draw: bool = False, concede_to: str = "") -> bool:
    """Vote for a draw, to concede to another power, or (neither) withdraw the vote.

    A draw passes when every surviving, played power votes for it; a concession when all of
    them but the winner vote to concede to the same power. Returns whether the game ended.
    """
    with transaction.atomic():
        game, phase = _playing(membership)
        concede_to = engine.power_named(game, concede_to) if concede_to else ""
        if concede_to and concede_to not in engine.survivors(phase) & set(engine.powers(game)):
            raise _unknown_power(game, concede_to, f"{concede_to} is not a surviving power")
        if concede_to == membership.power:
            raise GameError(gettext("you cannot concede to yourself"))
        if draw and concede_to:
            raise GameError(gettext("vote for a draw or concede, not both"))
        DrawVote.objects.filter(game=game, power=membership.power).delete()
        if not (draw or concede_to):
            return False
        DrawVote.objects.create(game=game, power=membership.power, concede_to=concede_to)
        _settle_votes(game, phase)
        return game.is_over


def _settle_votes(game: Game, phase: Phase, *, notify: bool = True) -> None:
    """End the game if the votes standing now carry it: a vote, or a seat that stops voting
    (removed, in civil disorder, handed to a bot) after every other voter has voted. The game
    is saved if it ended; with no vote standing (most phases of most games) nothing more is
    read."""
    votes = {v.power: v.concede_to for v in game.votes.all()}
    if not votes:
        return
    voting = voters(game, phase)
    alive = engine.survivors(phase)
    for winner in sorted(set(votes.values()) - {""}):
        if winner not in alive:  # eliminated since the votes were cast: nobody to concede to
            continue
        needed = voting - {winner}
        if needed and all(votes.get(p) == winner for p in needed):
            _finish(game, "concession", [winner])
            break
    else:
        if voting and all(votes.get(p) == "" for p in voting):
            _finish(game, "draw", engine.survivors(phase) & set(engine.powers(game)))
    if game.is_over:
        game.save()
        if notify:  # a processing tells of the end with its phase (notify_phase_processed)
            _enqueue("notify_game_over", game.pk)


# -- processing -------------------------------------------------------------------------


# What a processing changes of a game that runs on (``process_phase``), or that it ended.
_RUNNING = ("current_phase",)
_ENDED = ("current_phase", "status", "result", "finished_at", "paused_remaining")


def process_phase(
    game_id: int, phase_id: int, *, force: bool = False, skip_locked: bool = False
) -> bool:
    """Adjudicate the phase if it is still the game's current one and is due. Exactly once.

    The game row lock makes a second worker wait, then find the phase already processed and
    do nothing. Results and the next phase are written in the same transaction, so a crash
    leaves the phase as it was. Returns whether this call processed it.

    ``skip_locked``: a game whose row another transaction holds is left alone (returns False)
    instead of waited for, so that workers draining a deadline storm never queue up behind
    each other; whoever holds the lock processes it, or the next sweep does.
    """
    with transaction.atomic():
        game = (
            Game.objects.select_for_update(skip_locked=skip_locked, of=("self",))
            .filter(pk=game_id)
            .first()
        )
        if game is None or game.status != Status.ACTIVE or game.current_phase_id != phase_id:
            return False
        # The phase in a statement of its own, after the lock: read with it, it would be the
        # phase as it was before the wait (a deadline the moderator moved meanwhile, say).
        phase = game.current_phase
        if phase.processed_at is not None:
            return False
        now = timezone.now()
        due = phase.deadline is not None and phase.deadline <= now
        if not (force or due or _all_ready(game, phase)):
            return False
        _adjudicate(game, phase, now)
        # A game still running changed only its current phase; one that ended, its end too.
        # Saving every column also woke the ratings' check for a result to undo, each phase.
        game.save(update_fields=_RUNNING if game.status == Status.ACTIVE else _ENDED)
    return True


@transaction.atomic
def hold(game_id: int, phase_id: int, reason: str) -> bool:
    """Pause a game whose phase the engine refuses to process (its stored options or board are
    broken), so that the sweep stops retrying it every minute; the audit log says why. Resuming
    gives the phase its full time again. Returns whether the game was paused."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None or game.status != Status.ACTIVE or game.current_phase_id != phase_id:
        return False
    phase = _current(game)
    game.paused_remaining = timedelta(minutes=game.minutes_for(phase.type))
    game.status = Status.PAUSED
    game.save(update_fields=["status", "paused_remaining"])
    phase.deadline = None
    phase.save(update_fields=["deadline"])
    _log(game, None, "hold", reason=reason[:500])
    return True


def _adjudicate(game: Game, phase: Phase, now: datetime) -> Phase:
    # The seats as they are before processing, for a rollback to this phase to restore; the
    # ones in play among them are read from the same rows below (nothing changes them between).
    seats = list(game.memberships.all())
    before = {str(m.pk): [m.status, m.missed_phases] for m in seats}
    # Every stored order, the ones refused when sent too: the engine judges them all together,
    # and each gets its result and reason from the whole phase (an order checked alone cannot
    # see another power's canal permit or the railroad move its support is for).
    orders = list(phase.orders.order_by("power", "position"))
    payload = engine.request(
        game, phase, [{"power": o.power, "order": o.canonical or o.text} for o in orders]
    )
    response = engine.adjudicate(payload)
    # Replies come in request order; a variant may append its own (Chinese factions) after.
    for order, reply in zip(orders, response["orders"][: len(orders)], strict=True):
        order.result = clip(reply["result"], RESULT_LENGTH)
        order.result_reason = clip(reply.get("reason", ""), REASON_LENGTH)
        order.result_reason_words = reply.get("reason_words")
        order.stopped_at = clip(reply.get("stopped_at") or "", STOPPED_AT_LENGTH)
    _store_results(orders)
    phase.results = response
    phase.processed_at = now
    # The seats in play, read once: whose player said Ready is acting (holding everything),
    # for civil disorder here and for reliability later (``ratings.reliability``), once Ready
    # is cleared.
    active = [m for m in seats if m.status == Seat.ACTIVE and m.power]
    ready = sorted(m.power for m in active if m.ready)
    # Seats the processing made (a bot for a power in civil disorder, a sandbox's new leader):
    # a rollback to this phase takes them away again.
    made = _count_missed(game, phase, active, {o.power for o in orders})
    economy = response.get("economy") or {}
    # The leaders a deposition ends: the seats in play before this processing, one that
    # civil disorder just handed to a bot among them (its player is the one deposed).
    leaders = [m for m in seats if before[str(m.pk)][0] != Seat.REPLACED]
    made += _depose(game, phase, economy.get("deposed") or [], leaders, made)
    seats += made  # every seat of the game, as saved: nothing else changes them meanwhile
    phase.seats = {"before": before, "made": sorted(m.pk for m in made), "ready": ready}
    phase.save(update_fields=["results", "processed_at", "seats"])
    # Chinese Diplomacy's result says each power's final gold: the richest win (seed 003).
    gold = {"gold": economy["balances"]} if "balances" in economy else {}
    if response.get("winner"):
        _finish(game, "victory", [response["winner"]], **gold)
    elif response.get("game_over"):  # the game's last turn ended in a tie (Chinese, 1950)
        _finish(game, "draw", response.get("winners") or [], **gold)
    elif _abandoned(game, phase, seats):
        _finish(game, "abandoned", [])
        game.status = Status.CANCELLED  # nobody's result: not rated
        _log(game, None, "abandoned", phase=phase.index, after=ABANDONED_AFTER)
    if response.get("next_phase") is None and not game.is_over:
        _finish(game, "ended", [], **gold)  # the variant's last year (Chinese Diplomacy's 1950)
    after = _board(payload, response)
    alive = engine.survivors(Phase(**{k: after[k] for k in _SURVIVAL_KEYS}))
    # In the ready flags' UPDATE: a seat whose power is gone is eliminated, and one once
    # counted out while its power still plays (a Chinese great power off the board, before
    # such powers were known to survive) is back in play.
    status = Case(
        When(status=Seat.ELIMINATED, power__in=alive, then=Value(Seat.ACTIVE)),
        When(
            ~Q(status__in=[Seat.REPLACED, Seat.ELIMINATED]) & ~Q(power__in=alive),
            then=Value(Seat.ELIMINATED),
        ),
        default=F("status"),
    )
    if game.is_over:
        # The game ended with this phase (won, drawn, abandoned or its last): it stays the
        # current one, the final board and gold in its results (``engine.final_board``), and
        # no phase opens after it: there would be nothing left to play in it. Nor is there a
        # deadline: the game's page and API show none.
        phase.deadline = None
        phase.save(update_fields=["deadline"])
        game.memberships.update(ready=False, status=status)
        _enqueue("notify_phase_processed", phase.pk)
        events.changed(game)
        return phase
    board = {**response["next_phase"], **after}
    next_phase = _open_phase(game, phase.index + 1, board, now, {"status": status})
    if game.status == Status.ACTIVE:
        # Seats that stopped voting this phase (deposed, in civil disorder, handed to a bot,
        # eliminated): the others' votes may carry the game now.
        _settle_votes(game, next_phase, notify=False)
    _enqueue("notify_phase_processed", phase.pk)
    events.changed(game)
    return next_phase


def _abandoned(game: Game, phase: Phase, seats: list[Membership]) -> bool:
    """Nobody plays the game any more: no person holds an active seat (every power is empty,
    in civil disorder or a bot's) and no person has ordered in the last ``ABANDONED_AFTER``
    movement phases. Such a game would otherwise run at its deadlines forever. ``seats``:
    every seat of the game as it stands."""
    if phase.type != Phase.Type.MOVEMENT or game.sandbox:  # its creator plays every power
        return False
    if any(not m.bot and m.status == Seat.ACTIVE for m in seats):
        return False
    recent = game.phases.filter(type=Phase.Type.MOVEMENT, processed_at__isnull=False)
    recent = list(recent.order_by("-index").values_list("pk", flat=True)[:ABANDONED_AFTER])
    ordered = Order.objects.filter(phase_id__in=recent, membership__bot=False).exists()
    return len(recent) >= ABANDONED_AFTER and not ordered


# What engine.survivors reads of a phase.
_SURVIVAL_KEYS = ("units", "dislodged", "supply_centers", "carried")


def _store_results(orders: list[Order]) -> None:
    """Write every order's result and reason in one ``UPDATE ... FROM (VALUES ...)``.

    Raw SQL because the ORM cannot join an update to a list of values: ``bulk_update`` builds
    a CASE per row and field, and resolving those expressions cost more than the adjudication
    (PostgreSQL and SQLite 3.33+ both name a VALUES list's columns column1, column2, ...).
    """
    if not orders:
        return
    table = connection.ops.quote_name(Order._meta.db_table)
    result, reason, words, stopped = (
        connection.ops.quote_name(Order._meta.get_field(name).column)
        for name in ("result", "result_reason", "result_reason_words", "stopped_at")
    )
    # The words go in as JSON text; PostgreSQL's jsonb column wants the cast, SQLite keeps text.
    as_json = "CAST(v.column4 AS jsonb)" if connection.vendor == "postgresql" else "v.column4"
    rows = ", ".join(["(%s, %s, %s, %s, %s)"] * len(orders))
    params = [
        value
        for o in orders
        for value in (
            o.pk,
            o.result,
            o.result_reason,
            None if o.result_reason_words is None else json.dumps(o.result_reason_words),
            o.stopped_at,
        )
    ]
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET {result} = v.column2, {reason} = v.column3, "
            f"{words} = {as_json}, {stopped} = v.column5 "
            f"FROM (VALUES {rows}) AS v WHERE {table}.id = v.column1",
            params,
        )


def _depose(
    game: Game,
    phase: Phase,
    powers: list[str],
    leaders: list[Membership],
    made: list[Membership],
) -> list[Membership]:
    """A leader more than 1,000 k oz in the red is deposed (Chinese Diplomacy): the seat ends,
    as no other loss ends it, and the power opens to a new player, who starts at net zero.

    In a sandbox the new player is its creator, who plays every power: a new stand-in takes
    the seat at once, or the power could never be ordered again (seed 003, rule 6). Elsewhere
    the power is in civil disorder like any other, so with ``bots_take_civil_disorder`` a bot
    takes the seat at once; the votes standing are settled when the next phase opens.
    ``leaders``: the seats in play before the processing (a seat civil disorder handed to a
    bot in it too: its player is the leader deposed, not the bot just seated, which is the
    new leader already). ``made``: the seats the processing made so far. Returns the seats
    it makes."""
    seated = {m.power for m in made}
    new: list[Membership] = []
    for seat in [m for m in leaders if m.power in powers]:
        if seat.status != Seat.REPLACED:
            seat.status = Seat.REPLACED
            seat.save(update_fields=["status"])
        _log(game, None, "deposed", power=seat.power, player=seat.user.username, phase=phase.index)
        if seat.power in seated:
            continue
        if game.sandbox:
            new.append(stand_in(game, seat.power))
        elif game.bots_take_civil_disorder:
            new.append(_seat_bot(game, seat.power))
            player = seat.user.username
            _log(game, None, "bot", power=seat.power, bot=True, player=player, why="deposed")
    return new


def _board(request: dict, response: dict) -> dict:
    """The position the next phase opens on. Dislodged units go into it only if it is a
    retreat phase: where none can retreat the engine skips that phase, and they are gone."""
    keys = ("units", "supply_centers", "dislodged", "contested")
    board = {key: response.get(key) or ([] if key != "supply_centers" else {}) for key in keys}
    if (response.get("next_phase") or {}).get("type") != Phase.Type.RETREATS:
        board["dislodged"] = []
    board["carried"] = engine.carried(request, response)
    return board


def _count_missed(
    game: Game, phase: Phase, active: list[Membership], ordered: set[str]
) -> list[Membership]:
    """Count movement phases a power to move sent nothing; N in a row is civil disorder.

    A player who said Ready acted (holding everything is an order too), and a phase the
    moderator processed before its deadline took the time to act away: nobody misses it. In a
    sandbox nobody misses anything: its creator processes when they choose. Returns the seats
    it made (bots taking powers in civil disorder)."""
    made: list[Membership] = []
    if phase.type != Phase.Type.MOVEMENT or phase.processed_early or game.sandbox:
        return made
    # A power with nothing on the board (a Chinese great power staying off) misses nothing.
    to_act = engine.powers_bound_to_act(phase)
    for m in active:
        if m.power not in to_act or m.power in ordered or m.ready:
            continue
        m.missed_phases += 1
        if game.civil_disorder_after and m.missed_phases >= game.civil_disorder_after:
            m.status = Seat.CIVIL_DISORDER
        m.save(update_fields=["missed_phases", "status"])
        if m.status == Seat.CIVIL_DISORDER and game.bots_take_civil_disorder and not m.bot:
            m.status = Seat.REPLACED
            m.save(update_fields=["status"])
            made.append(_seat_bot(game, m.power))
            _log(game, None, "bot", power=m.power, bot=True, player=m.user.username, why="cd")
    return made


# -- moderation -------------------------------------------------------------------------


def _moderating(game: Game, by: AbstractBaseUser, *allowed: str) -> Game:
    game = _locked(game)
    if not game.is_moderator(by):
        raise PermissionError("only the moderator may do this")
    if allowed and game.status not in allowed:
        raise GameError(f"not possible while the game is {game.status}")
    return game


@transaction.atomic
def change_deadline(
    game: Game,
    by: AbstractBaseUser,
    *,
    minutes: int | None = None,
    deadline: datetime | None = None,
    phase: int | None = None,
    seen: datetime | None = None,
) -> Phase:
    """Move the current deadline by ``minutes`` (negative shortens) or to ``deadline``.

    ``phase``: the index of the phase meant; for another phase nothing changes
    (``PhaseChanged``). A deadline moved to now or earlier processes the phase at once, so
    such a change must name its phase: repeated, it would otherwise process the next one.
    ``seen``: the deadline as the moderator saw it; if it has moved since (the same minutes
    sent twice would move it twice), nothing changes (``DeadlineMoved``)."""
    game = _moderating(game, by, Status.ACTIVE)
    current = _current(game)
    check_phase(current, phase)
    old = current.deadline
    if deadline_moved(old, seen):
        raise DeadlineMoved(
            deadline_moved_message(old.isoformat(timespec="seconds") if old else gettext("none"))
        )
    now = timezone.now()
    if deadline is None:
        deadline = (old or now) + timedelta(minutes=minutes or 0)
    if deadline > now + timedelta(days=MAX_DEADLINE_DAYS_AHEAD):
        # Minutes add to a deadline already moved: a year more, again and again, went on
        # past the year's bound, and at last past what a date holds (a 500).
        raise GameError(
            gettext("the deadline may be at most %(days)s days from now")
            % {"days": MAX_DEADLINE_DAYS_AHEAD}
        )
    if phase is None and deadline <= now:
        raise GameError(
            gettext("a deadline now or past processes the phase at once: name the phase it is for")
        )
    if deadline == old and old > now:
        return current  # moved by nothing ("minutes": 0): nothing logged, nothing sent again
    phase = current
    phase.deadline = max(deadline, now)
    _reminders_ahead(phase, now)
    phase.save(update_fields=["deadline", "reminders_sent"])
    _schedule(phase)
    _log(game, by, "deadline", old=old and old.isoformat(), new=phase.deadline.isoformat())
    return phase


def _reminders_ahead(phase: Phase, now: datetime) -> None:
    """A deadline moved (or the clock restarted): the reminders its new time has not reached
    yet are to be sent again (``notifications.deadline_reminders``), so that a deadline put
    off after its reminders went out is reminded of again before it comes."""
    phase.reminders_sent = [
        hours for hours in phase.reminders_sent if phase.deadline - now <= timedelta(hours=hours)
    ]


@transaction.atomic
def pause(game: Game, by: AbstractBaseUser) -> None:
    """Stop the clock; the time left is kept for when the game resumes."""
    game = _moderating(game, by, Status.ACTIVE)
    phase = _current(game)
    now = timezone.now()
    game.paused_remaining = max(phase.deadline - now, timedelta(0)) if phase.deadline else None
    game.status = Status.PAUSED
    game.save()
    phase.deadline = None
    phase.save(update_fields=["deadline"])
    remaining = game.paused_remaining
    seconds = None if remaining is None else remaining.total_seconds()
    _log(game, by, "pause", remaining_seconds=seconds)


@transaction.atomic
def resume(game: Game, by: AbstractBaseUser) -> None:
    game = _moderating(game, by, Status.PAUSED)
    phase = _current(game)
    # No time left (paused after the deadline passed, before the phase was processed) is
    # kept as none: the phase is due at once, not given its whole time again.
    remaining = game.paused_remaining
    if remaining is None:
        remaining = timedelta(minutes=game.minutes_for(phase.type))
    now = timezone.now()
    phase.deadline = now + remaining
    _reminders_ahead(phase, now)
    phase.save(update_fields=["deadline", "reminders_sent"])
    game.status = Status.ACTIVE
    game.paused_remaining = None
    game.save()
    _schedule(phase)
    _log(game, by, "resume", deadline=phase.deadline.isoformat())
    _settle_ready(game, phase)  # every power may have said ready while the clock stood still


@transaction.atomic
def process_now(game: Game, by: AbstractBaseUser, *, phase: int | None = None) -> Phase:
    """Adjudicate the current phase at once, whatever its deadline.

    ``phase``: the index of the phase meant (the API and the console send it); a repeated
    request finds the next phase current and is refused (``PhaseChanged``).
    """
    game = _moderating(game, by, Status.ACTIVE)
    current = _current(game)
    check_phase(current, phase)
    phase = current
    _log(game, by, "process", phase=phase.index)
    next_phase = _adjudicate(game, phase, timezone.now())
    game.save()
    return next_phase


@transaction.atomic
def rollback(game: Game, by: AbstractBaseUser, index: int) -> Phase:
    """Go back to phase ``index`` as it was before it was processed; later phases are deleted.

    Its orders stay, so players can amend them; votes and ready flags start afresh. A sandbox
    is its creator's to rewind even once ended without a result (cancelled), as sandboxes
    made before they were never abandoned were. A game that ended goes back to any of its
    phases, the one it ended in too: back to before it ended (a draw, a concession, the
    moderator's end) when the phase was not processed, or before it was processed (a solo);
    so a game ended in its first phase can be rolled back as any other.
    """
    # A game cancelled as abandoned (nobody played it any more) ended as a phase was
    # processed, as a solo does: it goes back too, to play on from before it ended.
    ended = (
        (Status.FINISHED, Status.CANCELLED)
        if game.sandbox or game.abandoned
        else (Status.FINISHED,)
    )
    game = _moderating(game, by, Status.ACTIVE, Status.PAUSED, *ended)
    phase = game.phases.filter(index=index).first()
    # The current phase of a running game is no earlier one; of a game over, it is the phase
    # the game ended in (processed or not), to go back to.
    running = phase is not None and phase.pk == game.current_phase_id and not game.is_over
    if phase is None or running:
        raise GameError(gettext("there is no earlier phase %(index)s") % {"index": index})
    paused = game.status == Status.PAUSED  # stays paused: the phase's full time kept for later
    undone = list(game.phases.filter(index__gte=index).values_list("seats", flat=True))
    # The furthest phase the game had reached, logged: a live stream's cursor may still name
    # it (games.events tells such a cursor from one no stream ever sent).
    furthest = game.phases.order_by("-index").values_list("index", flat=True).first()
    game.phases.filter(index__gt=index).delete()
    _restore_seats(game, phase, undone)
    _drop_former_leaders_payments(game, by, phase)
    now = timezone.now()
    deadline = deadline_after(game, phase.type, now)
    phase.processed_at = None
    phase.results = None
    phase.reminders_sent = []
    phase.seats = {}
    phase.deadline = None if paused else deadline
    phase.save()
    phase.orders.update(result="", result_reason="", result_reason_words=None, stopped_at="")
    game.current_phase = phase
    game.status = Status.PAUSED if paused else Status.ACTIVE
    game.result = None
    game.finished_at = None
    game.paused_remaining = (deadline - now if deadline else None) if paused else None
    game.save()
    game.memberships.update(ready=False)
    game.votes.all().delete()
    _opened(game, phase)
    _log(game, by, "rollback", phase=index, furthest=furthest)
    return phase


def _drop_former_leaders_payments(game: Game, by: AbstractBaseUser, phase: Phase) -> None:
    """A payment is its leader's act, final once made (Chinese Diplomacy). A power someone took
    over since the phase a rollback returns to stays theirs (``_restore_seats``): the payments
    an earlier leader made in that phase go, logged, rather than be judged again against the
    newcomer, who could neither take them back nor have made them, and be deposed for them."""
    holders = {
        seat.power: seat.seated
        for seat in game.memberships.filter(status__in=(Seat.ACTIVE, Seat.CIVIL_DISORDER))
        if seat.power
    }
    for payment in phase.payments.all():
        seated = holders.get(payment.payer)
        if seated is None or payment.created >= seated:
            continue
        payment.delete()
        _log(
            game,
            by,
            "payment dropped",
            power=payment.payer,
            to=payment.payee,
            amount=payment.amount,
            phase=phase.index,
        )


def _restore_seats(game: Game, phase: Phase, undone: list[dict]) -> None:
    """The seats as they were before ``phase`` was processed: each one's status (civil
    disorder, eliminated, replaced by a bot or deposed by that processing) and missed phases.

    ``undone``: the ``seats`` of every phase being rolled back (``phase`` and the later ones).
    Seats their processing made (a bot for a power in civil disorder, a sandbox's new leader)
    go. A seat someone took since by a decision of their own (a take-over, a moderator's
    replacement or bot) keeps its power; the seat it replaced stays replaced, its missed
    phases restored. A player the moderator removed stays removed, in civil disorder. A phase
    processed before snapshots were kept restores only the eliminated seats of powers still
    in the game.
    """
    before = phase.seats.get("before") if phase.seats else None
    made = {pk for seats in undone for pk in (seats or {}).get("made", [])}
    game.memberships.filter(pk__in=made).delete()
    if before is None:
        alive = engine.survivors(phase)
        game.memberships.filter(status=Seat.ELIMINATED, power__in=alive).update(status=Seat.ACTIVE)
        return
    seats = {m.pk: m for m in game.memberships.all()}
    held = {m.power: m.pk for m in seats.values() if m.status != Seat.REPLACED and m.power}
    # The seats to put back: first those leaving play (replaced), then those returning to it,
    # so that one power never has two seats in play at once (``one_player_per_power``).
    changes = []
    for key, (status, missed) in before.items():
        seat = seats.get(int(key))
        if seat is None:
            continue
        holder = held.get(seat.power)
        if status == Seat.REPLACED and seat.status != Seat.REPLACED:
            continue  # seated again since (a moderator's or its player's choice): keeps it
        if status != Seat.REPLACED and holder not in (None, seat.pk):
            status = Seat.REPLACED  # someone else plays the power now, and keeps it
            if seat.status == Seat.REPLACED and seat.missed_phases == missed:
                continue
        if seat.removed and status != Seat.REPLACED:
            status = Seat.CIVIL_DISORDER
        if (seat.status, seat.missed_phases) != (status, missed):
            seat.status, seat.missed_phases = status, missed
            changes.append(seat)
    for seat in sorted(changes, key=lambda m: m.status != Seat.REPLACED):
        seat.save(update_fields=["status", "missed_phases"])


@transaction.atomic
def replace_player(
    game: Game, by: AbstractBaseUser, power: str, user: AbstractBaseUser
) -> Membership:
    """Hand a power to another user; the old player's seat is kept as replaced."""
    game = _moderating(game, by, Status.ACTIVE, Status.PAUSED)
    _not_sandbox(game)
    power = _power_of(game, power)
    if is_bot_account(user):
        raise GameError(gettext("a bot is put on a seat with the bot action, not by its account"))
    if not user.is_active:  # the seat would go to someone who can never sign in to play it
        raise GameError(
            gettext("%(user)s's account is deactivated: it cannot sign in to play") % {"user": user}
        )
    # A player replaced or removed before may be seated again (their seat row comes back);
    # one who still plays a power may not hold a second.
    own = game.memberships.filter(user=user).first()
    if own is not None and own.in_play:
        raise GameError(
            gettext("%(user)s already plays %(power)s in this game")
            % {"user": user, "power": _shown_power(game, by, own.power)}
        )
    _not_a_watching_moderator(game, user)
    if deposed_from := _deposed_from_another(game, own, power):
        raise GameError(
            gettext(
                "%(user)s was deposed as leader of %(power)s in this game; its other powers go "
                "to other players"
            )
            % {"user": user, "power": _shown_power(game, by, deposed_from)}
        )
    seat = _seat(game, power)
    if seat is not None and seat != own:
        seat.status = Seat.REPLACED
        seat.save(update_fields=["status"])
    membership = _take_seat(game, user, power, own)
    old = seat and seat.user.username
    _log(game, by, "replace", power=power, old=old, new=user.username, again=own is not None)
    phase = _current(game)
    _new_leader_at_zero(game, phase, membership)
    _wake_bots(game, phase)  # bots left alone were not ready: now a human plays
    _seats_changed(game, phase)
    return membership


def _shown_power(game: Game, by: AbstractBaseUser, power: str) -> str:
    """A power named to ``by`` in a refusal about another user's seat: only to whoever may
    know who plays what (a moderator who plays an anonymous game learnt the seating by trying
    every name)."""
    return power if power and visibility.shows_names(game, by) else gettext("a power")


@transaction.atomic
def remove_player(game: Game, by: AbstractBaseUser, power: str) -> Membership:
    """Put a power into civil disorder, open for another player to take over."""
    game = _moderating(game, by, Status.ACTIVE, Status.PAUSED)
    _not_sandbox(game)
    power = _power_of(game, power)
    seat = _seat(game, power)
    if seat is None or seat.status != Seat.ACTIVE:
        raise GameError(gettext("nobody is actively playing %(power)s") % {"power": power})
    seat.status, seat.removed, seat.ready = Seat.CIVIL_DISORDER, True, False
    seat.save(update_fields=["status", "removed", "ready"])
    _log(game, by, "remove", power=power, player=seat.user.username)
    if game.bots_take_civil_disorder and not seat.bot:  # as when a player stops ordering
        seat.status = Seat.REPLACED
        seat.save(update_fields=["status"])
        _seat_bot(game, power)
        _log(game, by, "bot", power=power, bot=True, player=seat.user.username, why="removed")
        _wake_bots(game, _current(game))
    _seats_changed(game, _current(game))  # the others may all have voted, or be ready, already
    return seat


@transaction.atomic
def set_bot(game: Game, by: AbstractBaseUser, power: str, bot: bool) -> Membership:
    """Put a bot on a power's seat (whoever held it is replaced) or take the bot off (the seat
    falls into civil disorder, open to a human, as a removed player's does)."""
    game = _moderating(game, by, Status.ACTIVE, Status.PAUSED)
    _not_sandbox(game)
    power = _power_of(game, power)
    seat = _seat(game, power)
    phase = _current(game)
    if not bot:
        if seat is None or not seat.bot_plays:
            raise GameError(gettext("no bot plays %(power)s") % {"power": power})
        seat.status, seat.ready = Seat.CIVIL_DISORDER, False  # nobody plays it: not ready
        seat.save(update_fields=["status", "ready"])
        _log(game, by, "bot", power=power, bot=False, player=seat.user.username)
        _seats_changed(game, phase)  # the others may all be ready already
        return seat
    if power not in engine.survivors(phase):
        raise GameError(gettext("%(power)s is no longer in the game") % {"power": power})
    if seat is not None and seat.bot_plays:
        raise GameError(gettext("a bot already plays %(power)s") % {"power": power})
    if seat is not None and seat.bot:  # a bot taken off before: back on
        seat.status, seat.missed_phases = Seat.ACTIVE, 0
        seat.save(update_fields=["status", "missed_phases"])
        membership = seat
    else:
        if seat is not None:
            seat.status = Seat.REPLACED
            seat.save(update_fields=["status"])
        membership = _seat_bot(game, power)
    _log(game, by, "bot", power=power, bot=True, player=seat and seat.user.username)
    _wake_bots(game, phase)
    _seats_changed(game, phase)  # bots never vote: the humans' votes may carry it now
    return membership


@transaction.atomic
def declare_draw(game: Game, by: AbstractBaseUser) -> None:
    """End the game as a draw among the surviving powers."""
    game = _moderating(game, by, Status.ACTIVE, Status.PAUSED)
    powers = engine.survivors(_current(game)) & set(engine.powers(game))  # no Chinese faction
    _finish(game, "draw", powers)
    game.save()
    _enqueue("notify_game_over", game.pk)
    _log(game, by, "draw", powers=sorted(powers))


@transaction.atomic
def end_game(game: Game, by: AbstractBaseUser, winner: str = "") -> None:
    """End the game now: with a winner if one is named, otherwise without a result.
    A game that never started is cancelled."""
    game = _moderating(game, by, Status.FORMING, Status.ACTIVE, Status.PAUSED)
    if game.status == Status.FORMING:
        game.status = Status.CANCELLED
        game.finished_at = timezone.now()
    else:
        winner = _power_of(game, winner) if winner else winner
        _finish(game, "victory" if winner else "ended", [winner] if winner else [])
        _enqueue("notify_game_over", game.pk)
    game.save()
    _log(game, by, "end", winner=winner)


def _loggable(value: object) -> object:
    """A setting's value as the audit log's JSON can hold it (times and users as text)."""
    if value is None or isinstance(value, bool | int | float | str | list | dict):
        return value
    return str(value)


def _keep_seed(game: Game, options: object) -> object:
    """New options for the game (the admin's form, which never shows the seed): the game keeps
    its seed, which nobody changes."""
    if not isinstance(options, dict):
        return options
    if "seed" in options and options["seed"] != game.options.get("seed"):
        raise GameError("seed: set by the server and kept secret; it cannot be changed")
    options = visibility.without_secrets(options)
    if "seed" in game.options:
        options["seed"] = game.options["seed"]
    return options


@transaction.atomic
def change_settings(game: Game, by: AbstractBaseUser, **changes: object) -> Game:
    """Change a game's settings (the admin's form): the moderator only, and every changed
    value is written to the audit log with what it was before."""
    game = _moderating(game, by)
    if "variant" in changes and changes["variant"] != game.variant:
        if game.status != Status.FORMING:
            raise GameError("only a forming game's variant can change")
        if changes["variant"] not in engine.variant_ids():
            raise GameError(f"unknown variant {changes['variant']!r}")
    if "options" in changes:
        changes["options"] = _keep_seed(game, changes["options"])
    changed = {}
    for field, value in changes.items():
        old = getattr(game, field)
        if old != value:
            if field == "options":  # the audit log never holds the seed (visibility)
                old, value = visibility.without_secrets(old), visibility.without_secrets(value)
            changed[field] = {"old": _loggable(old), "new": _loggable(value)}
            setattr(game, field, changes[field])
    if changed:
        game.full_clean(exclude=["current_phase"])
        game.save(update_fields=list(changed))
        _log(game, by, "settings", **changed)
        if "process_when_ready" in changed and game.current_phase_id is not None:
            _settle_ready(game, game.current_phase)  # everyone may be ready already
    return game


def _power_of(game: Game, text: str) -> str:
    """The power a moderator's action names (as an order would: any case, ``RUS``), or the
    refusal that names the powers to choose from."""
    power = engine.power_named(game, text)
    if power in engine.powers(game):
        return power
    choices = ", ".join(engine.powers(game))
    problem = gettext("unknown power %(power)s; choose from %(powers)s")
    raise _unknown_power(game, text, problem % {"power": repr(text), "powers": choices})


def _unknown_powers(game: Game, unknown: list[str]) -> GameError:
    """The refusal of powers (join preferences, press recipients) the game does not have,
    naming those to choose from."""
    problem = gettext("unknown powers %(unknown)s; choose from %(powers)s") % {
        "unknown": ", ".join(unknown),
        "powers": ", ".join(engine.powers(game)),
    }
    return _unknown_power(game, unknown[0], problem)


def _unknown_power(game: Game, text: str, problem: str) -> GameError:
    """The refusal of a power named as no power of the game: an abbreviation the variant does
    not take (Chinese Diplomacy: ``JAP``) is refused as one, naming the name to write, as an
    order's is; anything else with ``problem``."""
    full = engine.power_written_short(game, text)
    if full is not None:
        return GameError(
            gettext("power names are written in full here: write %(full)s, not %(text)s")
            % {"full": full, "text": repr(text)}
        )
    return GameError(problem)


@transaction.atomic
def pay(
    membership: Membership, payee: str, amount: int, *, key: str = "", phase: int | None = None
) -> Payment:
    """Gold from one great power to another, in this year's ledger (Chinese Diplomacy).

    ``key``: the client's name for this payment (the API's ``Idempotency-Key``, the page's
    hidden field); a payment already made with it is answered again, not made twice, so a
    double click or a retry pays once. Such an answer has ``repeated`` set; the key sent with
    another payee or amount is refused (``KeyReused``). ``phase``: the
    index of the phase the payment is meant for; for another phase nothing is paid
    (``PhaseChanged``), so a retry after the phase was processed is not paid in the next."""
    game, current = _playing(membership)
    if "economy" not in current.carried:
        raise GameError(gettext("there is no gold in this variant"))
    powers = engine.powers(game)
    payee = engine.power_named(game, payee)
    if membership.power not in powers or membership.bot:
        raise GameError(gettext("only a great power's player pays gold"))
    sent, key = key, _payment_key(membership, key)
    if key:
        # One stored as sent, before keys were the player's, still counts; the player's first.
        found = Payment.objects.filter(game=game, payer=membership.power, key__in=(key, sent))
        made = min(found, key=lambda p: p.key != key, default=None)
        if made is not None:
            if (made.payee, made.amount) != (payee, amount):
                # Answering the first payment would let the client believe this one was made.
                raise KeyReused(
                    gettext(
                        "this key named another payment (%(amount)s to %(payee)s); a new "
                        "payment needs a new key"
                    )
                    % {"amount": made.amount, "payee": made.payee}
                )
            made.repeated = True
            return made
    check_phase(current, phase)
    if payee == membership.power or payee not in powers:
        raise _unknown_power(
            game,
            payee,
            gettext("%(payee)s is not another great power of this game") % {"payee": repr(payee)},
        )
    if not 0 < amount <= MAX_PAYMENT:
        raise GameError(
            gettext("a payment is a positive number of k oz, at most %(most)s")
            % {"most": f"{MAX_PAYMENT:,}"}
        )
    if current.payments.filter(payer=membership.power).count() >= MAX_PAYMENTS_PER_PHASE:
        raise GameError(
            gettext("at most %(most)s payments a power in one phase")
            % {"most": MAX_PAYMENTS_PER_PHASE}
        )
    payment = Payment.objects.create(
        game=game, phase=current, payer=membership.power, payee=payee, amount=amount, key=key
    )
    payment.repeated = False
    _log(game, membership.user, "pay", payee=payee, amount=amount)
    return payment


def _payment_key(membership: Membership, key: str) -> str:
    """A client's key for a payment, kept per player: one who takes a seat over names payments
    afresh, and never gets back, as their own, one the seat's player before them made with the
    same key (``big1``). Hashed, so a key of 64 characters still fits."""
    if not key:
        return ""
    return hashlib.blake2b(f"{membership.user_id}:{key}".encode(), digest_size=16).hexdigest()


# -- bots -------------------------------------------------------------------------------


def _bot_account(game: Game) -> AbstractBaseUser:
    """A bot account with no seat in this game yet (one account holds one seat a game)."""
    taken = set(game.memberships.values_list("user__username", flat=True))
    number = 0
    while True:
        number += 1
        name = BOT_NAME.format(number)
        if name in taken:
            continue
        user, _ = get_user_model().objects.get_or_create(
            username=name, defaults={"is_active": False, "password": make_password(None)}
        )
        if is_bot_account(user):
            return user


def stand_in(game: Game, power: str) -> Membership:
    """A sandbox's seat of ``power``, held by an account that cannot sign in; not a bot seat,
    so no bot plays it: the sandbox's creator orders for it."""
    return game.memberships.create(user=_bot_account(game), power=power)


def _seat_bot(game: Game, power: str) -> Membership:
    return game.memberships.create(user=_bot_account(game), power=power, bot=True)


def _wake_bots(game: Game, phase: Phase) -> None:
    """Have the bots play the phase once it is committed (``games.tasks.play_bots``)."""
    bots = game.memberships.filter(bot=True, status=Seat.ACTIVE)
    if phase.processed_at is None and not game.is_over and bots.exists():
        _enqueue("play_bots", game.pk, phase.pk)


def bot_seed(game: Game, phase: Phase, power: str) -> int:
    """The bot's chance in one phase: from the game, the phase and the power, so a game
    with bots replays the same way on this server; keyed with the server's secret, so that a
    player who knows the board and the bots' code still cannot work out their orders."""
    message = f"{game.pk}:{phase.index}:{power}".encode()
    digest = hmac.new(django_settings.SECRET_KEY.encode(), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:4], "big")


def play_bots(game_id: int, phase_id: int) -> list[str]:
    """Every bot seat to act in the phase submits its orders and is ready, as a player would
    (through ``submit_orders`` and ``set_ready``, as the bot's seat). A bot that fails is
    logged and its seat holds, ready all the same: bots never stop nor slow a game. Returns
    the powers that ordered.

    Bots are ready only while a human plays: a game left to bots alone moves at its deadlines
    rather than playing itself to the end in a burst of worker time."""
    from bots.heuristic import HeuristicBot

    game = Game.objects.select_related("current_phase").filter(pk=game_id).first()
    if game is None or game.status not in (Status.ACTIVE, Status.PAUSED):
        return []
    phase = game.current_phase
    if phase is None or phase.pk != phase_id or phase.processed_at is not None:
        return []
    to_act = engine.powers_to_act(phase)
    seats = game.memberships.filter(bot=True, status=Seat.ACTIVE, ready=False, power__in=to_act)
    humans = game.memberships.filter(bot=False, status=Seat.ACTIVE).exists()
    played = []
    for seat in seats.select_related("user", "game"):
        try:
            request = engine.request(game, phase, [])
            texts = HeuristicBot(bot_seed(game, phase, seat.power)).decide(request, seat.power)
            submit_orders(seat, texts, phase=phase)
        except GameError as error:  # the phase moved on or the seat changed hands: done
            logger.info("the bot for %s in game %s stopped: %s", seat.power, game_id, error)
            continue
        except Exception:
            logger.exception("the bot for %s in game %s phase %s", seat.power, game_id, phase_id)
            _log(game, seat.user, "bot failed", power=seat.power, phase=phase.index)
        else:
            played.append(seat.power)
        if humans:  # a bot that failed is ready too: its units hold, the game goes on
            try:
                set_ready(seat, True, phase=phase.index)
            except GameError as error:
                logger.info("the bot for %s in game %s stopped: %s", seat.power, game_id, error)
    return played
