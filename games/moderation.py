"""The moderator's actions, defined once: what each is called, when the game allows it, what it
asks for and which service does it.

The API (``/api/games/{id}/moderation/``), the moderator console and the admin all read this
registry, so they offer the same actions at the same moments and refuse the same ones with the
same reason. An action's inputs are typed twice, for the two ways they arrive (the JSON body's
``ModerationSerializer``, the console's ``ModerationForm``); a test holds both to the fields
named here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from . import services
from .limits import MAX_DEADLINE_DAYS_AHEAD
from .models import Game

Status = Game.Status


class NotPossible(services.GameError):
    """The action exists but the game's state does not allow it now; the message says why."""


@dataclass(frozen=True)
class Field:
    """One input of an action. ``kind`` tells the console how to ask for it: ``minutes``,
    ``deadline`` (a date and time), ``phase`` (a phase before the current one),
    ``current_phase`` (the phase on screen, sent back so a repeat finds another phase
    current), ``current_deadline`` (the deadline on screen, sent back so a repeat finds it
    moved), ``power``, ``username``, ``winner`` (a power or none) or ``bot`` (on or off)."""

    name: str
    kind: str
    label: str
    required: bool = True
    help: str = ""


@dataclass(frozen=True)
class Action:
    """One moderator action.

    ``allowed``: the game states it is possible in; ``check``: a further condition on the game
    (a reason when it fails, None when it holds); ``run``: the service call, given the game,
    the moderator and the validated inputs; ``one_of``: inputs of which exactly one is needed.
    """

    name: str
    label: str
    description: str
    allowed: frozenset[str]
    run: Callable[[Game, AbstractBaseUser, dict], object]
    fields: tuple[Field, ...] = ()
    one_of: tuple[str, ...] = ()
    check: Callable[[Game], str | None] | None = field(default=None)
    # The description instead, in a game whose empty seats bots fill (Start).
    with_bots: str = ""

    def describe(self, game: Game) -> str:
        """What the action does in this game."""
        return self.with_bots if self.with_bots and game.bots_fill_empty else self.description

    def why_not(self, game: Game) -> str | None:
        """Why the action is impossible in the game's present state; None when it is possible."""
        if game.status not in self.allowed:
            # The action as the console names it (in the page's language), not its key; a
            # name, not a verb ("Deadline"), so it leads the sentence.
            return gettext("%(action)s: not possible while the game is %(status)s") % {
                "action": self.label,
                "status": game.get_status_display(),
            }
        return self.check(game) if self.check else None

    def conflicting(self, data: dict) -> list[str]:
        """The ``one_of`` inputs ``data`` gives when it gives more than one of them: one is
        needed, and two (minutes and a deadline) would leave which one counts unsaid."""
        given = [name for name in self.one_of if data.get(name) not in (None, "")]
        return given if len(given) > 1 else []

    def foreign(self, data: dict) -> list[str]:
        """The inputs ``data`` gives that are not the action's own (a winner sent with a new
        deadline): refused rather than dropped, so nobody believes they counted."""
        own = {f.name for f in self.fields}
        return [k for k, v in data.items() if v not in (None, "") and k not in own]

    def missing(self, data: dict) -> list[str]:
        """The inputs the action needs that ``data`` lacks (empty values count as missing);
        the ``one_of`` inputs are ``lacks_one_of``'s."""
        given = {k for k, v in data.items() if v not in (None, "")}
        return [f.name for f in self.fields if f.required and f.name not in given]

    def lacks_one_of(self, data: dict) -> list[str]:
        """The ``one_of`` inputs when ``data`` gives none of them (a new deadline needs
        minutes or a date), else nothing."""
        given = {k for k, v in data.items() if v not in (None, "")}
        return list(self.one_of) if self.one_of and not given & set(self.one_of) else []


RUNNING = frozenset({Status.ACTIVE, Status.PAUSED})


def _has_current_phase(game: Game) -> str | None:
    return None if game.current_phase_id is not None else "the game has no current phase"


def _has_earlier_phase(game: Game) -> str | None:
    # Of the games cancelled, only one abandoned (ended as a phase was processed) goes back.
    if game.status == Status.CANCELLED and not (game.abandoned or game.sandbox):
        return gettext("%(action)s: not possible while the game is %(status)s") % {
            "action": pgettext("moderator action", "Rollback"),
            "status": game.get_status_display(),
        }
    if game.phases.count() > 1:
        return None
    # A game over may go back to the phase it ended in, its only one too (``rollback``).
    if game.is_over and game.current_phase_id is not None:
        return None
    return gettext("Rollback is not possible: there is no earlier phase to go back to")


def _no_clock(game: Game) -> str | None:
    """A sandbox is processed when its player says so: it has no clock to move or stop."""
    if game.sandbox:
        return gettext("a sandbox has no deadlines: it is processed when its player says so")
    return None


def _clock_of_current_phase(game: Game) -> str | None:
    return _no_clock(game) or _has_current_phase(game)


def _not_sandbox(game: Game) -> str | None:
    """A sandbox's seats are its creator's stand-ins: nobody else is seated, nor a bot."""
    return gettext("a sandbox is played by its creator alone") if game.sandbox else None


def deadline_problem(value: datetime | None) -> str | None:
    """What is wrong with an absolute deadline a moderator asks for; None when nothing."""
    if value is not None and value > timezone.now() + timedelta(days=MAX_DEADLINE_DAYS_AHEAD):
        return gettext("the deadline may be at most %(days)s days from now") % {
            "days": MAX_DEADLINE_DAYS_AHEAD
        }
    return None


POWER = Field("power", "power", _("Power"))
# The phase on the moderator's screen, sent back: if another phase is current by the time the
# action arrives (an old tab, a repeat), it is refused (409) rather than done to a game that
# moved on. Optional, except where the action itself needs it (``process``).
ON_PHASE = Field("phase", "current_phase", _("Phase"), False)
# The deadline on the moderator's screen, sent back with a change of it: the same minutes sent
# twice (a retry, a double click) would otherwise move it twice. Optional.
SEEN_DEADLINE = Field(
    "seen_deadline",
    "current_deadline",
    _("Deadline seen"),
    False,
    _("The deadline as you saw it; if it has moved since, nothing is done."),
)
ACTIONS: dict[str, Action] = {
    a.name: a
    for a in (
        Action(
            "start",
            pgettext_lazy("moderator action", "Start"),
            _("Start the game now; empty seats play as civil disorder."),
            frozenset({Status.FORMING}),
            lambda game, user, args: services.start_game(game, user),
            with_bots=_(
                "Start the game now; bots play the empty seats, and a player may take one "
                "over later."
            ),
        ),
        Action(
            "deadline",
            pgettext_lazy("moderator action", "Deadline"),
            _("Move the current deadline by some minutes (negative shortens it)."),
            frozenset({Status.ACTIVE}),
            lambda game, user, args: services.change_deadline(
                game,
                user,
                minutes=args.get("minutes"),
                deadline=args.get("deadline"),
                phase=args.get("phase"),
                seen=args.get("seen_deadline"),
            ),
            fields=(
                Field(
                    "minutes", "minutes", _("Minutes"), False, _("Negative shortens the deadline.")
                ),
                Field(
                    "deadline",
                    "deadline",
                    _("Or the new deadline"),
                    False,
                    _("Instead of minutes, not with them."),
                ),
                ON_PHASE,
                SEEN_DEADLINE,
            ),
            one_of=("minutes", "deadline"),
            check=_clock_of_current_phase,
        ),
        Action(
            "pause",
            pgettext_lazy("moderator action", "Pause"),
            _("Stop the clock; the time left is kept."),
            frozenset({Status.ACTIVE}),
            lambda game, user, args: services.pause(game, user),
            fields=(ON_PHASE,),
            check=_no_clock,
        ),
        Action(
            "resume",
            pgettext_lazy("moderator action", "Resume"),
            _("Restart the clock with the time that was left."),
            frozenset({Status.PAUSED}),
            lambda game, user, args: services.resume(game, user),
            fields=(ON_PHASE,),
            check=_no_clock,
        ),
        Action(
            "process",
            pgettext_lazy("moderator action", "Process"),
            _("Adjudicate the current phase now, whatever its deadline."),
            frozenset({Status.ACTIVE}),
            lambda game, user, args: services.process_now(game, user, phase=args["phase"]),
            fields=(Field("phase", "current_phase", _("Phase")),),
            check=_has_current_phase,
        ),
        Action(
            "rollback",
            pgettext_lazy("moderator action", "Rollback"),
            _("Go back to an earlier phase; every later phase is deleted."),
            frozenset({Status.ACTIVE, Status.PAUSED, Status.FINISHED, Status.CANCELLED}),
            lambda game, user, args: services.rollback(game, user, args["phase"]),
            fields=(Field("phase", "phase", _("To phase")),),
            check=_has_earlier_phase,
        ),
        Action(
            "replace",
            pgettext_lazy("moderator action", "Replace"),
            _("Hand a power to another user."),
            RUNNING,
            lambda game, user, args: services.replace_player(
                game, user, args["power"], args["user"]
            ),
            fields=(POWER, Field("username", "username", _("New player's user name")), ON_PHASE),
            check=_not_sandbox,
        ),
        Action(
            "remove",
            pgettext_lazy("moderator action", "Remove"),
            _("Put a power into civil disorder, open for others to take over."),
            RUNNING,
            lambda game, user, args: services.remove_player(game, user, args["power"]),
            fields=(POWER, ON_PHASE),
            check=_not_sandbox,
        ),
        Action(
            "bot",
            pgettext_lazy("moderator action", "Bot"),
            _(
                "Put a bot on a power's seat (its player is replaced) or take the bot off (the "
                "power falls into civil disorder). A player may take over a bot's seat at any "
                "time."
            ),
            RUNNING,
            lambda game, user, args: services.set_bot(game, user, args["power"], args["bot"]),
            fields=(POWER, Field("bot", "bot", _("Bot")), ON_PHASE),
            check=_not_sandbox,
        ),
        Action(
            "draw",
            pgettext_lazy("moderator action", "Draw"),
            _("End the game as a draw among the surviving powers."),
            RUNNING,
            lambda game, user, args: services.declare_draw(game, user),
            fields=(ON_PHASE,),
        ),
        Action(
            "end",
            pgettext_lazy("moderator action", "End"),
            _("End the game now, with a winner if one is named; a forming game is cancelled."),
            RUNNING | {Status.FORMING},
            lambda game, user, args: services.end_game(game, user, args.get("winner") or ""),
            fields=(
                Field("winner", "winner", _("Winner"), False, _("Leave empty for no winner.")),
                ON_PHASE,
            ),
        ),
    )
}


def possible(game: Game) -> list[Action]:
    """The actions the game's state allows now, in the registry's order."""
    return [a for a in ACTIONS.values() if a.why_not(game) is None]


def not_both(names: list[str]) -> str:
    """The refusal of inputs given together of which one is needed (``Action.conflicting``),
    as the API and ``perform`` word it."""
    return gettext("give one of %(names)s, not both") % {"names": ", ".join(names)}


def perform(name: str, game: Game, user: AbstractBaseUser, args: dict | None = None) -> object:
    """Do one action after checking it is possible now and has its inputs; ``NotPossible`` or
    ``GameError`` (a 400 in the API, a message in the console and the admin) when not."""
    action = ACTIONS.get(name)
    if action is None:
        raise services.GameError(
            gettext("there is no moderator action %(name)s") % {"name": repr(name)}
        )
    if not game.is_moderator(user):
        raise PermissionError("only the moderator may do this")
    reason = action.why_not(game)
    if reason:
        raise NotPossible(reason)
    args = args or {}
    missing = action.missing(args)
    if missing:
        raise services.GameError(
            gettext("%(action)s needs %(names)s") % {"action": name, "names": ", ".join(missing)}
        )
    both = action.conflicting(args)
    if both:
        raise services.GameError(not_both(both))
    on_phase = any(f.kind == "current_phase" for f in action.fields)
    with transaction.atomic():
        if on_phase and args.get("phase") is not None:
            services.check_current_phase(game, args["phase"])  # under the game's lock
        return action.run(game, user, args)
