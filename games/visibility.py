"""Who may see what: orders before processing, private press, and names in anonymous games."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet

from .models import Game, Membership, Message, Order, Phase


def sees_everything(game: Game, user: AbstractBaseUser) -> bool:
    """A moderator who is not playing has nothing to gain and may see everything."""
    return game.is_moderator(user) and game.membership_of(user) is None


def visible_orders(phase: Phase, user: AbstractBaseUser) -> QuerySet[Order]:
    """All orders once the phase is processed; before that, only the viewer's own."""
    orders = phase.orders.all()
    if phase.processed_at is not None or sees_everything(phase.game, user):
        return orders
    membership = phase.game.membership_of(user)
    if membership is None:
        return orders.none()
    return orders.filter(power=membership.power)


def can_read(message: Message, power: str | None) -> bool:
    return message.is_public or power in (message.sender_power, *message.recipients)


def visible_messages(game: Game, user: AbstractBaseUser) -> list[Message]:
    """Public press and the private press the viewer's power sent or received."""
    messages = game.messages.select_related("sender")
    if sees_everything(game, user):
        return list(messages)
    membership = game.membership_of(user)
    if membership is None:
        return []
    return [m for m in messages if can_read(m, membership.power)]


def shows_names(game: Game, user: AbstractBaseUser) -> bool:
    """Whether the viewer may learn which user plays which power."""
    return not game.anonymous or game.is_over or sees_everything(game, user)


def player_name(membership: Membership, user: AbstractBaseUser, show: bool) -> str | None:
    if show or membership.bot or membership.user_id == user.pk:  # a bot's name hides nobody
        return membership.user.username
    return None
