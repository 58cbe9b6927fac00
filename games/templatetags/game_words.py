"""Words the pages show for values the engine and the services store in English: an order's
result and how a game ended."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext, pgettext_lazy

from games import visibility

register = template.Library()

RESULTS = {
    "succeeds": pgettext_lazy("order result", "succeeds"),
    "fails": pgettext_lazy("order result", "fails"),
    "invalid": pgettext_lazy("order result", "invalid"),
    "stopped": pgettext_lazy("order result", "stopped"),
}
ENDINGS = {
    "victory": pgettext_lazy("game result", "victory"),
    "draw": pgettext_lazy("game result", "draw"),
    "concession": pgettext_lazy("game result", "concession"),
    "ended": pgettext_lazy("game result", "ended"),
}


@register.filter
def result_word(value: str) -> str:
    """An order's result (the engine's word) in the reader's language."""
    return str(RESULTS.get(value, value))


@register.filter
def result_kind(value: str) -> str:
    """How a game ended, in the reader's language."""
    return str(ENDINGS.get(value, value))


@register.filter
def status_word(value: str) -> str:
    """A game's status (as stored: ``active``) in the reader's language."""
    from games.models import Game

    try:
        return str(Game.Status(value).label)
    except ValueError:
        return str(value)


@register.filter
def variant_name(value: str) -> str:
    """A variant's name (``Colonial Diplomacy``) for its id (``colonial``)."""
    from games.variant_words import variant_name as name

    return gettext("Overall") if value == "overall" else name(value)  # a player's rating row


@register.filter
def creator_for(game, user) -> str:
    """The game's moderator as the viewer may see it: hidden in a running anonymous game."""
    return visibility.creator_name(game, user) or gettext("anonymous moderator")


@register.filter
def bdi(value: object) -> SafeString:
    """A name people chose, isolated from the words around it (``<bdi>``): a name in a
    right-to-left script, or one ending in digits or punctuation, would otherwise reorder the
    line it is shown in. Escaped as any value is."""
    return format_html("<bdi>{}</bdi>", value)


@register.filter
def described_for(action, game) -> str:
    """A moderator action's description in this game (``moderation.Action.describe``)."""
    return action.describe(game)
