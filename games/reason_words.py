"""The engine's reasons in the reader's language.

The engine gives each reason as English and as words (``adjudication.reasons``): a template
and the names it quotes. The templates are in this project's catalogues (``makemessages``
reads the engine's ``why`` and ``OrderError`` calls); names (provinces, powers, units, orders)
stay as the variant spells them. A reason without words, or one a translation cannot fill,
is shown in English as the engine gave it.
"""

from __future__ import annotations

from django.utils.translation import gettext


def say(words: object, english: str = "") -> str:
    """The reason in the active language, from its words; ``english`` when it has none."""
    if not isinstance(words, dict):
        return english
    try:
        return _say(words)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):
        return english


def _say(words: dict) -> str:
    template = gettext(words["template"])
    args = words.get("args") or {}
    names = {k: _say(v) if isinstance(v, dict) else v for k, v in args.items()}
    return template.format(**names)  # a name the template wants and lacks: KeyError, English
