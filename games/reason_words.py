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


def said_results(results: list | None) -> list | None:
    """A phase's results for the board's tooltips: each with its result and reason in the
    active language (``said_result``, ``said_reason``), as ``variants.render`` reads them."""
    if results is None:
        return None
    from .templatetags.game_words import result_word

    return [
        {
            **entry,
            "said_result": result_word(entry.get("result") or ""),
            "said_reason": say(entry.get("reason_words"), entry.get("reason") or ""),
        }
        for entry in results
    ]


def board_words() -> dict[str, str]:
    """The drawing's own words (``variants.render.WORDS``) in the active language."""
    from variants.render import WORDS

    return {template: gettext(template) for template in WORDS}


def said_needs(options: dict) -> dict:
    """The engine's options with each ``needs`` (what other powers must order) in the active
    language; its words stay beside it as ``needs_words``."""
    said = [
        {**item, "needs": say(item.get("needs_words"), item["needs"])}
        if item.get("needs")
        else item
        for item in options.get("orders", [])
    ]
    return {**options, "orders": said}  # a copy: the engine may keep its answer
