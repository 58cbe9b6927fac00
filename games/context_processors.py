"""Template context for every page."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.translation import gettext, gettext_noop

# The words the pages' scripts write (static/live.js), translated here and handed to them as
# JSON (base.html): a script looks each English text up and falls back to it.
SCRIPT_WORDS = [  # marked for makemessages, translated per request
    gettext_noop("You are ready."),
    gettext_noop("Not ready after all"),
    gettext_noop("Ready"),
    gettext_noop("Not saved; reload the page."),
    gettext_noop("Deadline"),
    gettext_noop("The game is paused."),
    gettext_noop("The game is over."),
    gettext_noop("Everyone"),
    gettext_noop("The phase was processed:"),
    gettext_noop("see its results"),
    gettext_noop(", or "),
    gettext_noop("order for %s"),
]


def script_words(request: HttpRequest) -> dict:
    """English text to the reader's language, for the scripts; none in English."""
    words = {word: gettext(word) for word in SCRIPT_WORDS}
    return {"script_words": {english: said for english, said in words.items() if said != english}}
