"""What a power must or may do in a retreat or adjustment phase, in words and as choices.

The figures come from the engine (its build sites, its adjustment counts, its retreat
options), read from the phase as stored, so the page says exactly what the judge will allow.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop, ngettext

from adjudication.adjustments import build_sites, needed
from adjudication.board import read
from adjudication.retreats import retreat_options

from . import engine
from .models import Game, Phase


def _board(game: Game, phase: Phase):
    return read(engine.request(game, phase, []))[0]


# A coast as the board's menu says it (static/board.js, the same words): "Seoul (west coast)"
# where the engine writes "Seoul/wc".
COASTS = {
    "nc": gettext_noop("north coast"),
    "sc": gettext_noop("south coast"),
    "ec": gettext_noop("east coast"),
    "wc": gettext_noop("west coast"),
}


def place_name(location: str) -> str:
    """A place in the reader's words, its coast spelled out."""
    province, _, coast = location.partition("/")
    if coast not in COASTS:
        return location
    return gettext("%(province)s (%(coast)s)") % {
        "province": province,
        "coast": gettext(COASTS[coast]),
    }


def unit_name(unit: str, location: str) -> str:
    """``F Seoul (west coast)``: a unit as the page names it."""
    return f"{unit} {place_name(location)}"


def either(names: list[str]) -> str:
    """ "A", "A or B", "A, B or C" (in the reader's language)."""
    if len(names) < 2:
        return "".join(names)
    return gettext("%(some)s or %(last)s") % {"some": ", ".join(names[:-1]), "last": names[-1]}


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
            guide["text"] = gettext(
                "You may build %(n)d, but none of your home centres is both yours and empty, so "
                "there is nowhere to build."
            ) % {"n": delta}
        else:
            kinds = {True: gettext("army or fleet"), False: gettext("army")}
            where = either([f"{s['province']} ({kinds[s['fleet']]})" for s in guide["sites"]])
            if len(sites) < delta:
                guide["text"] = gettext(
                    "You may build %(n)d (only %(free)d home centres are free): in %(where)s; or "
                    "waive a build."
                ) % {"n": delta, "free": len(sites), "where": where}
            else:
                guide["text"] = gettext("You may build %(n)d: in %(where)s; or waive a build.") % {
                    "n": delta,
                    "where": where,
                }
    elif delta < 0:
        units = [f"{u.kind} {u.location}" for u in board.units if u.power == power]
        guide["units"] = units
        guide["text"] = ngettext(
            "You must remove %(n)d unit: choose from %(units)s.",
            "You must remove %(n)d units: choose from %(units)s.",
            -delta,
        ) % {"n": -delta, "units": either(units)}
    else:
        guide["text"] = gettext(
            "%(power)s has as many units as supply centres: nothing to build or remove."
        ) % {"power": power}
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
        unit = unit_name(d.unit.kind, d.unit.location)
        if options:
            text = gettext("%(unit)s must retreat to %(where)s, or disband.") % {
                "unit": unit,
                "where": either(options),
            }
        else:
            text = gettext("%(unit)s has nowhere to retreat and must disband.") % {"unit": unit}
        out.append({"unit": unit, "location": d.unit.location, "options": options, "text": text})
    return out
