"""Who may see what: orders before processing, private press, and names in anonymous games."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q, QuerySet
from django.http import Http404

from .models import Game, Membership, Message, Order, Phase


def watchable(user: AbstractBaseUser) -> Q:
    """The games this viewer may open: public ones for anyone, signed in or not; for a signed-in
    user every game but other people's sandboxes (a practice game is its creator's alone, a
    site moderator's or superuser's neither: there is nothing in it to moderate)."""
    if not user.is_authenticated:
        return Q(public=True)
    return Q(public=True) | Q(sandbox=False) | Q(creator=user)


def can_watch(game: Game, user: AbstractBaseUser) -> bool:
    """Whether the viewer may open the game at all (anything else is a 404 to them)."""
    if not user.is_authenticated:
        return game.public
    return game.public or not game.sandbox or game.creator_id == user.pk


def game_or_404(pk: int, user: AbstractBaseUser, games: QuerySet[Game] | None = None) -> Game:
    """The game numbered ``pk`` if the viewer may open it; otherwise a 404, the same as for a
    number no game has, so that another's sandbox is never told from a missing game (a 403
    would say it exists)."""
    game = (Game.objects.all() if games is None else games).filter(pk=pk).first()
    if game is None or not can_watch(game, user):
        raise Http404("no such game")
    return game


def sees_everything(game: Game, user: AbstractBaseUser) -> bool:
    """A moderator who is not playing has nothing to gain and may see everything."""
    return game.is_moderator(user) and game.membership_of(user) is None


def visible_payments(game: Game, user: AbstractBaseUser) -> QuerySet:
    """Payments of processed years for anyone who may see the game (the yearly statement is
    published); this year's, before it is played, only to the two powers concerned and to a
    moderator who does not play."""
    payments = game.payments.select_related("phase")
    if sees_everything(game, user):
        return payments
    settled = Q(phase__processed_at__isnull=False)
    membership = game.membership_of(user) if user.is_authenticated else None
    if membership is None or not membership.power:
        return payments.filter(settled)
    mine = Q(payer=membership.power) | Q(payee=membership.power)
    return payments.filter(settled | mine)


def shown_results(results: dict | None) -> dict | None:
    """A processed phase's results as anyone may read them. The factions' orders for the
    coming year stay hidden unless published (Chinese Diplomacy, seed 003, 5(E): the
    Communists' never are, the Kuomintang's only sometimes); the year's own results show them
    once it is played."""
    factions = (results or {}).get("factions")
    if not isinstance(factions, dict) or not factions.get("next_orders"):
        return results
    published = [o for o in factions["next_orders"] if o.get("published")]
    return {**results, "factions": {**factions, "next_orders": published}}


def without_secrets(options: dict) -> dict:
    """A game's options without the seed of its chance."""
    return {k: v for k, v in options.items() if k != "seed"}


def shown_options(game: Game, user: AbstractBaseUser | None = None) -> dict:
    """The game's options as anyone may read them: the seed of the game's chance (the Chinese
    factions' dice and chits) only once the game is over. Whoever held it could work out
    every hidden faction order of every coming year, so nobody sees it before, a moderator
    who does not play neither: anyone may yet take a seat (join while the game forms, take
    over a power in civil disorder, be seated by a moderator)."""
    if game.finished_at is not None:
        return game.options
    return without_secrets(game.options)


def visible_orders(phase: Phase, user: AbstractBaseUser) -> QuerySet[Order]:
    """All orders once the phase is processed; before that, only the viewer's own."""
    # The model's order within one phase; its ordering by phase would join the phases and
    # the games to sort by their dates.
    orders = phase.orders.order_by("power", "position")
    if phase.processed_at is not None or sees_everything(phase.game, user):
        return orders
    membership = phase.game.membership_of(user)
    if membership is None:
        return orders.none()
    return orders.filter(power=membership.power)


def can_read(message: Message, power: str | None) -> bool:
    """Whether ``power`` (None or blank: none, a spectator) may read the message: public
    press, or private press it sent or received. ``readable_by`` says the same to the
    database."""
    if message.is_public:
        return True
    return bool(power) and power in (message.sender_power, *message.recipients)


def readable_by(power: str | None) -> Q:
    """The press ``power`` may read (``can_read``), picked by the database: a reader's answer
    then reads no row of others' private press, so its time, as its ids, says nothing of how
    much of it there is."""
    public = Q(readers="")
    return public | Q(readers__contains=f"|{power}|") if power else public


def readable_messages(game: Game, user: AbstractBaseUser) -> QuerySet[Message]:
    """Public press and the private press the viewer's power sent or received, oldest first;
    everything to a moderator who does not play; to a spectator of a public game its public
    press; to anyone else nothing."""
    messages = game.messages.all()
    if sees_everything(game, user):
        return messages
    membership = game.membership_of(user) if user.is_authenticated else None
    if membership is None:  # a spectator of a public game reads its public press
        return messages.filter(readable_by(None)) if game.public else messages.none()
    return messages.filter(readable_by(membership.power))


def visible_messages(game: Game, user: AbstractBaseUser) -> QuerySet[Message]:
    """``readable_messages`` with their senders."""
    return readable_messages(game, user).select_related("sender")


def shows_names(game: Game, user: AbstractBaseUser) -> bool:
    """Whether the viewer may learn which user plays which power."""
    return not game.anonymous or game.is_over or sees_everything(game, user)


def creator_name(game: Game, user: AbstractBaseUser) -> str | None:
    """The moderator's name, hidden in an anonymous game still running: a creator who also
    plays would otherwise be named as one of its players. The creator and a site moderator
    who does not play still see it."""
    if not game.anonymous or game.is_over or user.pk == game.creator_id:
        return game.creator.username
    if user.has_perm("games.moderate_any_game") and game.membership_of(user) is None:
        return game.creator.username
    return None


def shows_bots(game: Game, user: AbstractBaseUser) -> bool:
    """Whether the viewer may learn which powers bots play. In an anonymous game still running
    a bot is a player like any other: the other players (and spectators) cannot tell its
    power from a human's, by its name, a badge or its press, as they cannot tell one human
    from another. Its moderator, who puts bots on seats and takes them off, still sees them,
    and so does whoever may see the names."""
    return shows_names(game, user) or game.is_moderator(user)


def player_name(
    membership: Membership, user: AbstractBaseUser, show: bool, bots: bool = False
) -> str | None:
    """The seat's player's name, if the viewer may read it: ``show`` (``shows_names``) for
    everyone's, ``bots`` (``shows_bots``) for a bot's (its name says it is one), the
    viewer's own always. A bot taken off its seat plays nothing: no name, the seat is in
    civil disorder (it keeps the seat only to be put back on)."""
    if membership.bot and not membership.bot_plays:
        return None
    if show or membership.user_id == user.pk or (bots and membership.bot):
        return membership.user.username
    return None


def is_bot(membership: Membership | None, user: AbstractBaseUser, bots: bool) -> bool | None:
    """Whether a bot plays the seat (a bot taken off plays nothing): None where the viewer may
    not know (``bots`` false: an anonymous game still running), except for the viewer's own
    seat."""
    if membership is None:
        return False
    if bots or membership.user_id == user.pk:
        return membership.bot_plays
    return None


def audit_log(game: Game, user: AbstractBaseUser) -> QuerySet:
    """The game's audit log as its moderator may read it (newest first): every entry, except
    that a moderator who also plays (a creator seated in their own game) reads no payment of
    the year not yet played between two other powers (made, or dropped by a rollback). The
    statement publishes those when the year is processed; until then only payer and payee see
    them (``visible_payments``)."""
    entries = game.moderator_actions.select_related("user")
    membership = game.membership_of(user) if user.is_authenticated else None
    phase = game.current_phase
    if sees_everything(game, user) or membership is None or not membership.power:
        return entries
    if phase is None or phase.processed_at is not None:
        return entries
    pending = Q(action__in=("pay", "payment dropped"))
    opened = (
        game.phases.filter(index__lt=phase.index, processed_at__isnull=False)
        .order_by("-index")
        .values_list("processed_at", flat=True)
        .first()
    )
    if opened is not None:
        pending &= Q(created__gt=opened)
    theirs = Q(user=user) | Q(details__payee=membership.power)
    return entries.exclude(pending & ~theirs)


# The details of audit-log entries that hold a username, by action.
LOGGED_NAMES = {
    "replace": ("old", "new"),
    "remove": ("player",),
    "deposed": ("player",),
    "bot": ("player",),
}


def hide_logged_names(entries, game: Game, user: AbstractBaseUser, placeholder=None) -> list:
    """Audit-log entries as the viewer may read them: in a running anonymous game, a moderator
    who also plays learns no player's name from the log (who was replaced by whom, who paid),
    only their own. A hidden name becomes ``placeholder``; the entries are changed in memory,
    never saved."""
    entries = list(entries)
    if shows_names(game, user):
        return entries
    for entry in entries:
        hidden = LOGGED_NAMES.get(entry.action, ())
        entry.details = {
            k: (placeholder if k in hidden and v else v) for k, v in entry.details.items()
        }
        if entry.user_id is not None and entry.user_id != user.pk:
            entry.user = None
    return entries
