"""What the pages say about each variant: its victory condition, season names and example
orders. Each variant has its own words; none borrows Colonial's or the standard map's."""

from __future__ import annotations

from django.utils.translation import gettext, ngettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

import adjudication

# Variants not won on supply centres: how they end, in words (seed 003, rule 7, for Chinese).
VICTORY = {
    "chinese": _(
        "the richest great power wins when the game ends in 1950, or earlier when the "
        "Communists hold every supply centre"
    ),
}


def _data(variant_id: str) -> dict:
    """The variant's data document as registered with the engine (empty for an id it does not
    know); only the keys the engine does not read are used."""
    try:
        return adjudication.load(variant_id).raw
    except adjudication.VariantError:
        return {}


# The variants' names, for the translations (a variant's data names it in English).
VARIANT_NAMES = {
    "Colonial Diplomacy": pgettext_lazy("variant", "Colonial Diplomacy"),
    "Far East I-R": pgettext_lazy("variant", "Far East I-R"),
    "Chinese Diplomacy": pgettext_lazy("variant", "Chinese Diplomacy"),
    "Standard Diplomacy": pgettext_lazy("variant", "Standard Diplomacy"),
}


def variant_name(variant_id: str) -> str:
    """The variant's full name in the reader's language (as its data gives it for a variant
    without a translation); the id itself for one that no longer loads."""
    try:
        name = adjudication.load(variant_id).name
    except adjudication.VariantError:
        return str(variant_id)
    return str(VARIANT_NAMES.get(name, name))


def examples(variant_id: str, phase_type: str = "movement") -> list[str]:
    """Example orders for this variant and kind of phase, from its ``examples`` key."""
    return list(_data(variant_id).get("examples", {}).get(phase_type, []))


def abbreviations_allowed(variant_id: str) -> bool:
    """Whether orders may abbreviate provinces (Chinese Diplomacy wants full names)."""
    return bool(_data(variant_id).get("abbreviations_allowed", True))


def season_name(variant_id: str, season: str) -> str:
    """The variant's name for a season (Colonial's "Autumn", Far East's "Fall")."""
    return adjudication.load(variant_id).season_names.get(season, season.title())


# Season names and kinds of phase, for the translations (a variant's names are English).
SEASON_WORDS = {
    "Spring": pgettext_lazy("season", "Spring"),
    "Summer": pgettext_lazy("season", "Summer"),
    "Autumn": pgettext_lazy("season", "Autumn"),
    "Fall": pgettext_lazy("season", "Fall"),
    "Winter": pgettext_lazy("season", "Winter"),
    "Year": pgettext_lazy("season", "Year"),
}
PHASE_WORDS = {
    "movement": pgettext_lazy("phase", "movement"),
    "retreats": pgettext_lazy("phase", "retreats"),
    "adjustments": pgettext_lazy("phase", "adjustments"),
}


def season_word(variant_id: str, season: str) -> str:
    """The variant's name for a season in the reader's language (its English name when there
    is no translation)."""
    name = season_name(variant_id, season)
    return str(SEASON_WORDS.get(name, name))


def phase_label(variant_id: str, season: str, year: int, phase_type: str) -> str:
    """ "Autumn 1870 adjustments": the variant's season name, the year and the kind of phase,
    in the reader's language."""
    if season_name(variant_id, season) == "Year":  # played by year (Chinese): no season to name
        return pgettext("phase of a yearly game", "Year %(year)s %(phase)s") % {
            "year": year,
            "phase": PHASE_WORDS.get(phase_type, phase_type),
        }
    return gettext("%(season)s %(year)s %(phase)s") % {
        "season": season_word(variant_id, season),
        "year": year,
        "phase": PHASE_WORDS.get(phase_type, phase_type),
    }


def starts(variant_id: str, season: str, year: int, victory: str) -> str:
    """The rules page's first line, "Starts Spring 1870; victory at ...", with the season in
    the reader's language as the game page says it (the page used to put the English name in
    a translated sentence: "1870 年Springに開始"); a game played by year names the year only."""
    if season_name(variant_id, season) == "Year":
        return gettext("Starts in %(year)s; %(victory)s.") % {"year": year, "victory": victory}
    return gettext("Starts %(season)s %(year)s; %(victory)s.") % {
        "season": season_word(variant_id, season),
        "year": year,
        "victory": victory,
    }


def victory(variant_id: str, centres: int | None = None) -> str:
    """How the variant is won; ``centres`` is a game's own figure when its options set one."""
    if variant_id in VICTORY:
        return str(VICTORY[variant_id])
    variant = adjudication.load(variant_id)
    needed = centres or variant.victory_centers
    return gettext("victory at %(needed)s of %(all)s supply centres") % {
        "needed": needed,
        "all": len(variant.centres),
    }


def playable_powers(variant_id: str) -> list[str]:
    """The powers people play: Chinese Diplomacy's six great powers, not its factions."""
    return list(adjudication.load(variant_id).playable_powers)


def summary(variant_id: str) -> dict:
    """One line of the lobby's variant list: name, the powers people play, how to win."""
    variant = adjudication.load(variant_id)
    powers = playable_powers(variant_id)
    if len(powers) < len(variant.powers):
        count = ngettext("%(n)d great power", "%(n)d great powers", len(powers))
    else:
        count = ngettext("%(n)d power", "%(n)d powers", len(powers))
    return {
        "id": variant_id,
        "name": variant_name(variant_id),
        "powers": count % {"n": len(powers)},
        "victory": victory(variant_id),
    }
