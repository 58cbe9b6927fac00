"""What a power must or may do in a retreat or adjustment phase, in words and as choices.

The figures come from the engine (its build sites, its adjustment counts, its retreat
options), read from the phase as stored, so the page says exactly what the judge will allow.
"""

from __future__ import annotations

from adjudication.adjustments import build_sites, needed
from adjudication.board import read
from adjudication.retreats import retreat_options

from . import engine
from .models import Game, Phase


def _board(game: Game, phase: Phase):
    return read(engine.request(game, phase, []))[0]


def _either(names: list[str], word: str = "or") -> str:
    """ "A", "A or B", "A, B or C"."""
    if len(names) < 2:
        return "".join(names)
    return f"{', '.join(names[:-1])} {word} {names[-1]}"


def adjustments(game: Game, phase: Phase, power: str) -> dict:
    """Builds or removals for one power: how many, where, and a sentence that says so."""
    board = _board(game, phase)
    delta = needed(board).get(power, 0)
    guide: dict = {"builds": max(delta, 0), "removals": max(-delta, 0), "sites": [], "units": []}
    if delta > 0:
        occupied = {u.province for u in board.units}
        sites = build_sites(board, power, occupied)
        guide["sites"] = [
            {"province": s, "fleet": board.variant.provinces[s].type == "coast"} for s in sites
        ]
        if not sites:
            guide["text"] = (
                f"You may build {delta}, but none of your home centres is both yours and "
                "empty, so there is nowhere to build."
            )
        else:
            where = _either(
                [
                    f"{s['province']} ({'army or fleet' if s['fleet'] else 'army'})"
                    for s in guide["sites"]
                ]
            )
            more = f" (only {len(sites)} home centres are free)" if len(sites) < delta else ""
            guide["text"] = f"You may build {delta}{more}: in {where}; or waive a build."
    elif delta < 0:
        units = [f"{u.kind} {u.location}" for u in board.units if u.power == power]
        guide["units"] = units
        noun = "unit" if -delta == 1 else "units"
        guide["text"] = f"You must remove {-delta} {noun}: choose from {_either(units)}."
    else:
        guide["text"] = f"{power} has as many units as supply centres: nothing to build or remove."
    return guide


def retreats(game: Game, phase: Phase, power: str) -> list[dict]:
    """Each of the power's dislodged units, and where the engine lets it retreat."""
    board = _board(game, phase)
    occupied = {u.province for u in board.units}
    out = []
    for d in board.dislodged:
        if d.unit.power != power:
            continue
        options = retreat_options(board.variant, d, occupied, board.contested)
        unit = f"{d.unit.kind} {d.unit.location}"
        if options:
            text = f"{unit} must retreat to {_either(options)}, or disband."
        else:
            text = f"{unit} has nowhere to retreat and must disband."
        out.append({"unit": unit, "location": d.unit.location, "options": options, "text": text})
    return out
