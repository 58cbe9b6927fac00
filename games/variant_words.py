"""What the pages say about each variant: its victory condition, season names and example
orders. Each variant has its own words; none borrows Colonial's or the standard map's."""

from __future__ import annotations

import adjudication

# Variants not won on supply centres: how they end, in words (seed 003, rule 7, for Chinese).
VICTORY = {
    "chinese": "the richest great power wins when the game ends in 1950, or earlier when the "
    "Communists hold every supply centre",
}


def _data(variant_id: str) -> dict:
    """The variant's data document as registered with the engine (empty for an id it does not
    know); only the keys the engine does not read are used."""
    try:
        return adjudication.load(variant_id).raw
    except adjudication.VariantError:
        return {}


def variant_name(variant_id: str) -> str:
    """The variant's full name; the id itself for one that no longer loads."""
    try:
        return adjudication.load(variant_id).name
    except adjudication.VariantError:
        return str(variant_id)


def examples(variant_id: str, phase_type: str = "movement") -> list[str]:
    """Example orders for this variant and kind of phase, from its ``examples`` key."""
    return list(_data(variant_id).get("examples", {}).get(phase_type, []))


def abbreviations_allowed(variant_id: str) -> bool:
    """Whether orders may abbreviate provinces (Chinese Diplomacy wants full names)."""
    return bool(_data(variant_id).get("abbreviations_allowed", True))


def season_name(variant_id: str, season: str) -> str:
    """The variant's name for a season (Colonial's "Autumn", Far East's "Fall")."""
    return adjudication.load(variant_id).season_names.get(season, season.title())


def phase_label(variant_id: str, season: str, year: int, phase_type: str) -> str:
    """ "Autumn 1870 adjustments": the variant's season name, the year and the kind of phase."""
    return f"{season_name(variant_id, season)} {year} {phase_type}"


def victory(variant_id: str, centres: int | None = None) -> str:
    """How the variant is won; ``centres`` is a game's own figure when its options set one."""
    if variant_id in VICTORY:
        return VICTORY[variant_id]
    variant = adjudication.load(variant_id)
    needed = centres or variant.victory_centers
    return f"victory at {needed} of {len(variant.centres)} supply centres"


def playable_powers(variant_id: str) -> list[str]:
    """The powers people play: Chinese Diplomacy's six great powers, not its factions."""
    return list(adjudication.load(variant_id).playable_powers)


def summary(variant_id: str) -> dict:
    """One line of the lobby's variant list: name, the powers people play, how to win."""
    variant = adjudication.load(variant_id)
    powers = playable_powers(variant_id)
    kind = "great powers" if len(powers) < len(variant.powers) else "powers"
    return {
        "id": variant_id,
        "name": variant.name,
        "powers": f"{len(powers)} {kind}",
        "victory": victory(variant_id),
    }
