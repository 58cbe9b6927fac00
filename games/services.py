"""Everything that changes a game. Views, tasks and the admin call these; nothing else writes.

Each change locks the game row (``select_for_update``) for its transaction, so that order
submissions, moderator actions and phase processing queue up behind each other instead of
interleaving. Work that must not happen unless the change is committed (scheduling the next
deadline, sending mail) is deferred with ``transaction.on_commit``.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Count, Max
from django.utils import timezone

from . import engine
from .models import (
    DrawVote,
    Game,
    Membership,
    Message,
    ModeratorAction,
    Order,
    Payment,
    Phase,
)

logger = logging.getLogger(__name__)

Status = Game.Status
Seat = Membership.Status


class GameError(Exception):
    """A request that the rules of the game do not allow; the message says why."""


class OrdersChanged(GameError):
    """The power's orders changed since the client read them (another tab or device)."""


# -- helpers ----------------------------------------------------------------------------


def _locked(game: Game | int) -> Game:
    """Re-read the game with its row locked until the end of the transaction."""
    pk = game.pk if isinstance(game, Game) else game
    return Game.objects.select_for_update().get(pk=pk)


def _current(game: Game) -> Phase:
    """The game's current phase; ``game`` is freshly read (or locked), so this is too."""
    if game.current_phase_id is None:
        raise GameError("the game has not started")
    return game.current_phase


def _log(game: Game, user: AbstractBaseUser | None, action: str, **details) -> ModeratorAction:
    return ModeratorAction.objects.create(game=game, user=user, action=action, details=details)


def deadline_after(game: Game, phase_type: str, now: datetime) -> datetime:
    """Now plus the phase's minutes; with a fixed time of day, the next such time after that."""
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


def _open_phase(game: Game, index: int, board: dict, now: datetime) -> Phase:
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
    game.memberships.update(ready=False)
    _schedule(phase)
    return phase


def _finish(game: Game, kind: str, powers: Iterable[str]) -> None:
    game.status = Status.FINISHED
    game.result = {"kind": kind, "powers": sorted(powers)}
    game.finished_at = timezone.now()
    game.paused_remaining = None
    Phase.objects.filter(pk=game.current_phase_id, processed_at__isnull=True).update(deadline=None)


def _seat(game: Game, power: str) -> Membership | None:
    return game.memberships.exclude(status=Seat.REPLACED).filter(power=power).first()


# -- forming a game ---------------------------------------------------------------------


def create_game(creator: AbstractBaseUser, *, name: str, variant: str, **settings) -> Game:
    """A new game in the forming state; its creator moderates it."""
    if variant not in engine.variant_ids():
        raise GameError(f"unknown variant {variant!r}")
    options = dict(settings.pop("options", None) or {})
    options.setdefault("seed", random.randrange(2**31))  # the game's chance, replayable
    game = Game.objects.create(
        name=name, variant=variant, creator=creator, options=options, **settings
    )
    _log(game, creator, "create", variant=variant)
    return game


def _check_preferences(game: Game, preferences: Iterable[str]) -> list[str]:
    preferences = list(preferences)
    powers = engine.powers(game)
    unknown = [p for p in preferences if p not in powers]
    if unknown:
        raise GameError(f"unknown powers {', '.join(unknown)}; choose from {', '.join(powers)}")
    return list(dict.fromkeys(preferences))


@transaction.atomic
def join_game(game: Game, user: AbstractBaseUser, preferences: Iterable[str] = ()) -> Membership:
    """Take a seat in a forming game; the game starts when the last seat is taken."""
    game = _locked(game)
    if game.status != Status.FORMING:
        raise GameError("the game is no longer forming; take over a power in civil disorder")
    if game.memberships.filter(user=user).exists():
        raise GameError("you are already in this game")
    membership = game.memberships.create(
        user=user, preferences=_check_preferences(game, preferences)
    )
    if game.memberships.count() == len(engine.powers(game)):
        _start(game)
    return membership


@transaction.atomic
def leave_game(membership: Membership) -> None:
    game = _locked(membership.game)
    if game.status != Status.FORMING:
        raise GameError("only a forming game can be left")
    membership.delete()


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
        raise GameError("nobody has joined yet")
    seats = assign_powers(powers, members, random.Random())
    for membership in members:
        membership.power = seats[membership.pk]
        membership.save(update_fields=["power"])
    game.status = Status.ACTIVE
    board = engine.starting_phase(game.variant, game.options.get("seed", 0))
    phase = _open_phase(game, 0, board, timezone.now())
    game.save()
    return phase


@transaction.atomic
def start_game(game: Game, by: AbstractBaseUser) -> Phase:
    """The moderator starts a forming game early; empty seats play as civil disorder."""
    game = _locked(game)
    if game.status != Status.FORMING:
        raise GameError("the game has already started")
    phase = _start(game)
    _log(game, by, "start", players=game.memberships.count())
    return phase


@transaction.atomic
def take_over(game: Game, user: AbstractBaseUser, power: str) -> Membership:
    """Take over a surviving power that nobody plays (civil disorder or never filled)."""
    game = _locked(game)
    if game.status not in (Status.ACTIVE, Status.PAUSED):
        raise GameError("powers can only be taken over in a running game")
    if game.memberships.filter(user=user).exists():
        raise GameError("you are already in this game")
    if power not in engine.survivors(_current(game)):
        raise GameError(f"{power} is not a surviving power")
    seat = _seat(game, power)
    if seat is not None and seat.status != Seat.CIVIL_DISORDER:
        raise GameError(f"{power} is not in civil disorder")
    if seat is not None:
        seat.status = Seat.REPLACED
        seat.save(update_fields=["status"])
    return game.memberships.create(user=user, power=power)


# -- playing ----------------------------------------------------------------------------


def _playing(membership: Membership) -> tuple[Game, Phase]:
    game = _lock_seat(membership)
    return game, _current(game)


def _lock_seat(membership: Membership) -> Game:
    """Re-read the seat and its game in one query, the game's row locked; refused unless both
    still play. Returns the game.

    As everywhere here, the game's row lock is what serialises changes: a submission cannot
    land in a phase being processed, nor interleave with another for the same power.
    """
    locking = Membership.objects.select_for_update(of=("game",)).select_related("game")
    membership.refresh_from_db(from_queryset=locking)
    if membership.game.status not in (Status.ACTIVE, Status.PAUSED):
        raise GameError("the game is not running")
    if membership.status not in (Seat.ACTIVE, Seat.CIVIL_DISORDER):
        raise GameError(f"you no longer play {membership.power}")
    return membership.game


def orders_version(phase_id: int, power: str, orders: list[Order] | None = None) -> str:
    """A version of the power's orders in the phase: any replacement changes it (the new rows
    get new ids), so a client can say which version it edited (the API's ETag / If-Match).

    ``orders``: the power's orders as just read or stored, so the version is theirs exactly.
    """
    if orders is None:
        stored = Order.objects.filter(phase_id=phase_id, power=power).aggregate(
            count=Count("pk"), last=Max("pk")
        )
        count, last = stored["count"], stored["last"] or 0
    else:
        count, last = len(orders), max((o.pk for o in orders), default=0)
    return f"{phase_id}.{count}.{last}"


def submit_orders(
    membership: Membership,
    texts: list[str],
    *,
    version: str | None = None,
    phase: Phase | None = None,
) -> list[Order]:
    """Replace the power's orders for the current phase; each is checked by the engine.

    Invalid orders are stored too, with the engine's reason, so the player sees what was
    wrong; only valid ones are adjudicated. A player in civil disorder who sends orders is
    back in play. With ``version`` (from ``orders_version``), nothing is replaced unless the
    stored orders are still that version: two tabs of one player cannot silently overwrite
    each other's orders. ``phase``: the current phase as the caller read it, with
    ``membership.game`` (the API reads all three in one query); if it has been processed
    since, the orders are refused rather than stored in the next phase.
    """
    if phase is None:
        game = Game.objects.select_related("current_phase").get(pk=membership.game_id)
        phase = _current(game)
    else:
        game = membership.game
    # The engine runs outside the lock; the seat and the phase are re-checked under it below.
    checked = engine.check_orders(game, phase, membership.power, texts)
    with transaction.atomic():
        if _lock_seat(membership).current_phase_id != phase.pk:
            raise GameError("the phase has just been processed; send your orders again")
        if version is not None and version != orders_version(phase.pk, membership.power):
            raise OrdersChanged("your orders were changed elsewhere; reload them and try again")
        Order.objects.filter(phase=phase, power=membership.power).delete()
        orders = Order.objects.bulk_create(
            Order(
                phase=phase,
                power=membership.power,
                membership=membership,
                text=c.text,
                canonical=c.canonical,
                location=c.location,
                valid=c.valid,
                reason=c.reason,
                position=n,
            )
            for n, c in enumerate(checked)
        )
        if membership.missed_phases or membership.status != Seat.ACTIVE:
            membership.missed_phases = 0
            membership.status = Seat.ACTIVE
            membership.save(update_fields=["missed_phases", "status"])
    return orders


def set_ready(membership: Membership, ready: bool = True) -> None:
    """Mark the power ready; when every active power is, the phase may process early."""
    with transaction.atomic():
        game, phase = _playing(membership)
        membership.ready = ready
        membership.save(update_fields=["ready"])
        if ready and game.status == Status.ACTIVE and _all_ready(game, phase):
            _enqueue("process_phase", game.pk, phase.pk)


def _all_ready(game: Game, phase: Phase) -> bool:
    if not game.process_when_ready:
        return False
    to_act = engine.powers_to_act(phase)
    players = [m for m in game.memberships.filter(status=Seat.ACTIVE) if m.power in to_act]
    return bool(players) and all(m.ready for m in players)


def send_message(
    game: Game, user: AbstractBaseUser, body: str, recipients: Iterable[str] = ()
) -> Message:
    """Press from a player's power, or from the moderator when they are not playing."""
    recipients = sorted(set(recipients))
    with transaction.atomic():
        game = _locked(game)
        membership = game.membership_of(user)
        if membership is None and not game.is_moderator(user):
            raise GameError("only players and the moderator may send press")
        if game.status in (Status.FORMING, Status.CANCELLED):
            raise GameError("press opens when the game starts")
        if membership is not None:
            if game.press == Game.Press.NONE and not game.is_over:
                raise GameError("this is a no-press game")
            if game.press == Game.Press.PUBLIC and recipients and not game.is_over:
                raise GameError("this game allows public press only")
        unknown = [p for p in recipients if p not in engine.powers(game)]
        if unknown:
            raise GameError(f"unknown powers: {', '.join(unknown)}")
        sender_power = membership.power if membership else ""
        if sender_power in recipients:
            recipients.remove(sender_power)
            if not recipients:
                raise GameError("a message needs someone other than yourself to read it")
        return Message.objects.create(
            game=game,
            phase_id=game.current_phase_id,
            sender=user,
            sender_power=sender_power,
            recipients=recipients,
            body=body,
        )


def _voters(game: Game, phase: Phase) -> set[str]:
    alive = engine.survivors(phase)
    return {m.power for m in game.memberships.filter(status=Seat.ACTIVE) if m.power in alive}


def vote(membership: Membership, *, draw: bool = False, concede_to: str = "") -> bool:
    """Vote for a draw, to concede to another power, or (neither) withdraw the vote.

    A draw passes when every surviving, played power votes for it; a concession when all of
    them but the winner vote to concede to the same power. Returns whether the game ended.
    """
    with transaction.atomic():
        game, phase = _playing(membership)
        if concede_to and concede_to not in engine.survivors(phase):
            raise GameError(f"{concede_to} is not a surviving power")
        if concede_to == membership.power:
            raise GameError("you cannot concede to yourself")
        DrawVote.objects.filter(game=game, power=membership.power).delete()
        if not (draw or concede_to):
            return False
        DrawVote.objects.create(game=game, power=membership.power, concede_to=concede_to)
        voters = _voters(game, phase)
        votes = {v.power: v.concede_to for v in game.votes.all()}
        if concede_to:
            needed = voters - {concede_to}
            if needed and all(votes.get(p) == concede_to for p in needed):
                _finish(game, "concession", [concede_to])
        elif voters and all(votes.get(p) == "" for p in voters):
            _finish(game, "draw", engine.survivors(phase))
        game.save()
        return game.is_over


# -- processing -------------------------------------------------------------------------


def process_phase(game_id: int, phase_id: int, *, force: bool = False) -> bool:
    """Adjudicate the phase if it is still the game's current one and is due. Exactly once.

    The game row lock makes a second worker wait, then find the phase already processed and
    do nothing. Results and the next phase are written in the same transaction, so a crash
    leaves the phase as it was. Returns whether this call processed it.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status != Status.ACTIVE or game.current_phase_id != phase_id:
            return False
        phase = Phase.objects.get(pk=phase_id)
        if phase.processed_at is not None:
            return False
        now = timezone.now()
        due = phase.deadline is not None and phase.deadline <= now
        if not (force or due or _all_ready(game, phase)):
            return False
        _adjudicate(game, phase, now)
        game.save()
    return True


def _adjudicate(game: Game, phase: Phase, now: datetime) -> Phase:
    orders = list(phase.orders.filter(valid=True).order_by("power", "position"))
    payload = engine.request(
        game, phase, [{"power": o.power, "order": o.canonical} for o in orders]
    )
    response = engine.adjudicate(payload)
    # Replies come in request order; a variant may append its own (Chinese factions) after.
    for order, reply in zip(orders, response["orders"][: len(orders)], strict=True):
        order.result = reply["result"]
        order.result_reason = reply.get("reason", "")[:300]
    Order.objects.bulk_update(orders, ["result", "result_reason"])
    phase.results = response
    phase.processed_at = now
    phase.save(update_fields=["results", "processed_at"])
    _count_missed(game, phase, {o.power for o in phase.orders.all()})
    deposed = (response.get("economy") or {}).get("deposed") or []
    if deposed:
        # A leader more than 1,000 k oz in the red is deposed: the seat opens to a new player.
        game.memberships.filter(power__in=deposed, status=Seat.ACTIVE).update(
            status=Seat.CIVIL_DISORDER
        )
    if response.get("winner"):
        _finish(game, "victory", [response["winner"]])
    next_phase = _open_phase(
        game, phase.index + 1, {**response["next_phase"], **_board(response)}, now
    )
    alive = engine.survivors(next_phase)
    game.memberships.exclude(status__in=[Seat.REPLACED, Seat.ELIMINATED]).exclude(
        power__in=alive
    ).update(status=Seat.ELIMINATED)
    _enqueue("notify_phase_processed", phase.pk)
    return next_phase


def _board(response: dict) -> dict:
    keys = ("units", "supply_centers", "dislodged", "contested")
    board = {key: response.get(key) or ([] if key != "supply_centers" else {}) for key in keys}
    board["carried"] = engine.carried(response)
    return board


def _count_missed(game: Game, phase: Phase, ordered: set[str]) -> None:
    """Count movement phases a power to move sent nothing; N in a row is civil disorder."""
    if phase.type != Phase.Type.MOVEMENT:
        return
    to_act = engine.powers_to_act(phase)
    for m in game.memberships.filter(status=Seat.ACTIVE, power__in=to_act):
        if m.power in ordered:
            continue
        m.missed_phases += 1
        if game.civil_disorder_after and m.missed_phases >= game.civil_disorder_after:
            m.status = Seat.CIVIL_DISORDER
        m.save(update_fields=["missed_phases", "status"])


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
) -> Phase:
    """Move the current deadline by ``minutes`` (negative shortens) or to ``deadline``."""
    game = _moderating(game, by, Status.ACTIVE)
    phase = _current(game)
    old = phase.deadline
    now = timezone.now()
    if deadline is None:
        deadline = (old or now) + timedelta(minutes=minutes or 0)
    phase.deadline = max(deadline, now)
    phase.save(update_fields=["deadline"])
    _schedule(phase)
    _log(game, by, "deadline", old=old and old.isoformat(), new=phase.deadline.isoformat())
    return phase


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
    _log(game, by, "pause", remaining_seconds=game.paused_remaining.total_seconds())


@transaction.atomic
def resume(game: Game, by: AbstractBaseUser) -> None:
    game = _moderating(game, by, Status.PAUSED)
    phase = _current(game)
    remaining = game.paused_remaining or timedelta(minutes=game.minutes_for(phase.type))
    phase.deadline = timezone.now() + remaining
    phase.save(update_fields=["deadline"])
    game.status = Status.ACTIVE
    game.paused_remaining = None
    game.save()
    _schedule(phase)
    _log(game, by, "resume", deadline=phase.deadline.isoformat())


@transaction.atomic
def process_now(game: Game, by: AbstractBaseUser) -> Phase:
    """Adjudicate the current phase at once, whatever its deadline."""
    game = _moderating(game, by, Status.ACTIVE)
    phase = _current(game)
    _log(game, by, "process", phase=phase.index)
    next_phase = _adjudicate(game, phase, timezone.now())
    game.save()
    return next_phase


@transaction.atomic
def rollback(game: Game, by: AbstractBaseUser, index: int) -> Phase:
    """Go back to phase ``index`` as it was before it was processed; later phases are deleted.

    Its orders stay, so players can amend them; votes and ready flags start afresh.
    """
    game = _moderating(game, by, Status.ACTIVE, Status.PAUSED, Status.FINISHED)
    phase = game.phases.filter(index=index).first()
    if phase is None or phase.pk == game.current_phase_id:
        raise GameError(f"there is no earlier phase {index}")
    game.phases.filter(index__gt=index).delete()
    phase.processed_at = None
    phase.results = None
    phase.reminders_sent = []
    phase.deadline = deadline_after(game, phase.type, timezone.now())
    phase.save()
    phase.orders.update(result="", result_reason="")
    game.current_phase = phase
    game.status = Status.ACTIVE
    game.result = None
    game.finished_at = None
    game.paused_remaining = None
    game.save()
    alive = engine.survivors(phase)
    game.memberships.filter(status=Seat.ELIMINATED, power__in=alive).update(status=Seat.ACTIVE)
    game.memberships.update(ready=False)
    game.votes.all().delete()
    _schedule(phase)
    _log(game, by, "rollback", phase=index)
    return phase


@transaction.atomic
def replace_player(
    game: Game, by: AbstractBaseUser, power: str, user: AbstractBaseUser
) -> Membership:
    """Hand a power to another user; the old player's seat is kept as replaced."""
    game = _moderating(game, by, Status.ACTIVE, Status.PAUSED)
    if game.memberships.filter(user=user).exists():
        raise GameError(f"{user} already has a seat in this game")
    seat = _seat(game, power)
    if seat is not None:
        seat.status = Seat.REPLACED
        seat.save(update_fields=["status"])
    membership = game.memberships.create(user=user, power=power)
    _log(game, by, "replace", power=power, old=seat and seat.user.username, new=user.username)
    return membership


@transaction.atomic
def remove_player(game: Game, by: AbstractBaseUser, power: str) -> Membership:
    """Put a power into civil disorder, open for another player to take over."""
    game = _moderating(game, by, Status.ACTIVE, Status.PAUSED)
    seat = _seat(game, power)
    if seat is None or seat.status != Seat.ACTIVE:
        raise GameError(f"nobody is actively playing {power}")
    seat.status = Seat.CIVIL_DISORDER
    seat.save(update_fields=["status"])
    _log(game, by, "remove", power=power, player=seat.user.username)
    return seat


@transaction.atomic
def declare_draw(game: Game, by: AbstractBaseUser) -> None:
    """End the game as a draw among the surviving powers."""
    game = _moderating(game, by, Status.ACTIVE, Status.PAUSED)
    powers = engine.survivors(_current(game))
    _finish(game, "draw", powers)
    game.save()
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
        if winner and winner not in engine.powers(game):
            raise GameError(f"unknown power {winner!r}")
        _finish(game, "victory" if winner else "ended", [winner] if winner else [])
    game.save()
    _log(game, by, "end", winner=winner)


@transaction.atomic
def pay(membership: Membership, payee: str, amount: int) -> Payment:
    """Gold from one great power to another, in this year's ledger (Chinese Diplomacy)."""
    game, phase = _playing(membership)
    if "economy" not in phase.carried:
        raise GameError("there is no gold in this variant")
    if payee == membership.power or payee not in engine.powers(game):
        raise GameError(f"{payee!r} is not another great power of this game")
    if amount <= 0:
        raise GameError("a payment must be a positive number of k oz")
    payment = Payment.objects.create(
        game=game, phase=phase, payer=membership.power, payee=payee, amount=amount
    )
    _log(game, membership.user, "pay", payee=payee, amount=amount)
    return payment
