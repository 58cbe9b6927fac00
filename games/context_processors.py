"""Template context for every page."""

from __future__ import annotations

from functools import lru_cache

from django.http import HttpRequest
from django.utils.translation import get_language, gettext, gettext_noop

# The words the pages' scripts write (static/live.js, static/board.js), translated here and
# handed to them as JSON (base.html): a script looks each English text up and falls back to it.
SCRIPT_WORDS = [  # marked for makemessages, translated per request
    gettext_noop("You are ready."),
    gettext_noop("Not ready after all"),
    gettext_noop("Ready"),
    gettext_noop("Not saved; reload the page."),
    gettext_noop("Deadline"),
    gettext_noop("The game is paused."),
    gettext_noop("The game is over."),
    # the game's status in the page's header, as the clock event gives it (Game.Status)
    gettext_noop("Active"),
    gettext_noop("Paused"),
    gettext_noop("Finished"),
    gettext_noop("Cancelled"),
    gettext_noop("Everyone"),
    gettext_noop("The phase was processed:"),
    gettext_noop("see its results"),
    gettext_noop(", or "),
    gettext_noop("order for %s"),
    gettext_noop("Loading %s…"),
    gettext_noop(
        "Your orders box, as it was for the phase just processed (copy what you still want):"
    ),
    gettext_noop("The board could not be loaded; reload the page."),
    gettext_noop("The game was rolled back to an earlier phase: copy what you typed, then"),
    gettext_noop("reload the page"),
    # static/board.js: the countdown, the order status and click-to-order
    gettext_noop("(due now)"),
    gettext_noop("(%(left)s left)"),
    gettext_noop("%(n)s d"),
    gettext_noop("%(n)s h"),
    gettext_noop("%(n)s min"),
    gettext_noop("%(n)s s"),
    gettext_noop("Your orders were also changed in another tab; both sets of changes are kept."),
    gettext_noop("Your orders were changed in another tab or device; this page shows them now."),
    gettext_noop(
        "Your orders were changed in another tab or device. What you typed here is not saved: "
        "Save orders keeps your changes and theirs, unit by unit."
    ),
    gettext_noop("Or reload the page to see the saved orders (what you typed here is lost)."),
    gettext_noop("Orders saved."),
    gettext_noop("Orders saved, but 1 of %(all)s is invalid: it will not be carried out."),
    gettext_noop("Orders saved, but %(bad)s of %(all)s are invalid: they will not be carried out."),
    gettext_noop("1 of your %(all)s saved orders is invalid and will not be carried out."),
    gettext_noop("%(bad)s of your %(all)s saved orders are invalid and will not be carried out."),
    gettext_noop("Your orders box has changes that are not saved."),
    gettext_noop("Press Ready again to be ready anyway."),
    gettext_noop("Ready anyway"),
    gettext_noop("Nothing was saved."),
    gettext_noop("valid"),
    gettext_noop("invalid"),
    gettext_noop("needs %(needs)s (judged at the deadline)"),
    gettext_noop("(not saved yet)"),
    gettext_noop("No orders."),
    gettext_noop("Without orders: %(units)s."),
    gettext_noop("Every unit has an order."),
    gettext_noop("Cancel"),
    gettext_noop("Choose below."),
    gettext_noop("Click one of your units on the board, or choose it here."),
    gettext_noop("Choose one of your units here."),
    gettext_noop("Your seat in this game has changed: copy what you typed, then"),
    gettext_noop("Hold"),
    gettext_noop("Move"),
    gettext_noop("Support"),
    gettext_noop("Convoy"),
    gettext_noop("Retreat"),
    gettext_noop("Disband"),
    gettext_noop("Build"),
    gettext_noop("Remove"),
    gettext_noop("Waive"),
    gettext_noop("Loading your orders…"),
    gettext_noop("%(unit)s (now: %(order)s): what should it do?"),
    gettext_noop("%(unit)s: what should it do?"),
    gettext_noop("%(unit)s: the engine lists no order for it."),
    gettext_noop("%(kind)s via %(route)s"),
    gettext_noop("%(order)s: where does %(unit)s go? Click a highlighted province."),
    gettext_noop("Which unit does %(unit)s support? Click it."),
    gettext_noop("Which unit does %(unit)s convoy? Click it."),
    gettext_noop("%(unit)s convoys %(target)s: to where? Click a highlighted province."),
    gettext_noop("%(unit)s supports %(target)s: only holding."),
    gettext_noop(
        "%(unit)s supports %(target)s: moving where? Click a highlighted province, "
        "or support it holding."
    ),
    gettext_noop("%(unit)s supports %(target)s: moving where? Click a highlighted province."),
    gettext_noop("Support holding"),
    gettext_noop("Builds left: %(left)s of %(n)s."),
    gettext_noop("Removals left: %(left)s of %(n)s."),
    gettext_noop("Take back: %(order)s"),
    gettext_noop("%(order)s — saved."),  # an order picked on the board, saved at once
    gettext_noop("%(order)s — saved, in place of %(earlier)s: one a turn."),  # a ride, a permit
    gettext_noop("%(order)s — not saved: %(why)s"),  # an order picked or taken back, refused
    gettext_noop("Taken back: %(order)s."),
    gettext_noop("No builds left: take one back to build here."),
    gettext_noop("No removals left: take one back to remove this unit."),
    gettext_noop("%(unit)s (%(n)s of %(count)s)"),  # one of several units in one place
    gettext_noop("%(province)s (%(coast)s)"),  # a coast in the menu: "Arabia (south coast)"
    gettext_noop("north coast"),
    gettext_noop("south coast"),
    gettext_noop("east coast"),
    gettext_noop("west coast"),
]


def script_words(request: HttpRequest) -> dict:
    """English text to the reader's language, for the scripts; none in English."""
    return {"script_words": _script_words(get_language())}


@lru_cache(maxsize=16)  # one per language the site speaks (settings.LANGUAGES)
def _script_words(language: str) -> dict[str, str]:
    """Some sixty look-ups in the catalogue, made once per language: the same on every page.
    Read only (the page hands it to json_script)."""
    words = {word: gettext(word) for word in SCRIPT_WORDS}
    return {english: said for english, said in words.items() if said != english}
