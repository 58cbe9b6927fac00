"""Differential test: our engine against the ``diplomacy`` package (PyPI, 1.1.2) on seeded games.

    python -m bench.differential --chains 1900 --seed 1 --diplomacy-python /tmp/dipvenv/bin/python

Each *chain* is a short game on the standard map from a random mid-game position (units grown
from the home centres, centres owned at random): a movement phase, then whatever phases follow
it in both engines (retreats, the autumn movement, retreats, adjustments) until the next spring.
Every phase's orders are random, legal and not (moves out of reach, coasts left out, supports of
absent units, orders for another power's unit, retreats to the attacker's province, builds on
occupied or foreign centres, too many or too few removals), and each engine gets them **as
text** in its own notation: diplomacy its ``A PAR - BUR``, ours in full names, abbreviations and
aliases, in random case, with and without spaces around the dash, with the synonyms the contract
allows. A chain stops at its first disagreement.

Checked in every phase: the units after it, the dislodged units and where each may retreat, the
phase that comes next, and after an autumn the owners of the centres. Ours is also checked
against itself: the same orders in canonical full names must give the same answer (a parser that
reads a spelling as another order shows here even when diplomacy happens to agree).

The places where DATC 3.0 (which we follow) and diplomacy 1.1.2 choose differently are written
down once, in ``CHOICES``; a disagreement is put down to one of them only when the phase has that
situation at the place where the engines differ. Any other disagreement is our bug.
``diplomacy`` lives in its own venv (see ``diplomacy_python``); it answers through
``--worker``, one JSON line per job.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from random import Random

from adjudication import adjudicate, load
from adjudication.bench import _orders as movement_orders
from adjudication.bench import _place_units as place_units
from adjudication.variant import Variant, province_of
from bench.adjudication_vs_diplomacy import Worker, location_table, map_answer, translate_order

ROOT = Path(__file__).resolve().parent.parent
DIPLOMACY_VERSION = "1.1.2"
SEASON_LETTER = {"spring": "S", "fall": "F", "winter": "W"}
TYPE_LETTER = {"movement": "M", "retreats": "R", "adjustments": "A"}

# Where DATC 3.0 and diplomacy 1.1.2 choose differently. Nothing else may differ.
CHOICES = {
    "6.G.8": "an explicit 'via Convoy' to an adjacent province with no convoy to carry it fails "
    "(DATC 3.0 6.G.8); diplomacy moves the army over land",
    "6.J.11": "civil-disorder removals count the distance to the nearest centre the power owns "
    "(DATC 3.0 6.J.11, 2023 rules); diplomacy counts it to the home centres",
    "head-to-head defend": "in a head-to-head battle, the defend strength of a move counts the "
    "supports given by the power whose unit it attacks (DATC 3.0 section 5); diplomacy leaves "
    "them out there too",
    "6.H.6": "a dislodged unit may not retreat to a province left empty by a standoff (DATC 3.0 "
    "6.H.6), also when a convoyed army dislodged it; diplomacy then offers every neighbour but "
    "the occupied ones",
}

# Found by this test and not in issue #13's list (see docs/benchmarks.md).
CHOICES["waive counts"] = (
    "a Waive uses one of the power's builds in the order given, like a build order (DATC 3.0 "
    "6.I.1: the first orders are used); diplomacy ignores a Waive when it counts builds"
)
# Where diplomacy 1.1.2 breaks a rule that DATC and the rulebook agree on (checked by hand,
# each with a minimal position in docs/benchmarks.md).
THEIR_ERRORS = {
    "convoy not disrupted": "diplomacy calls a convoy disrupted when its fleet is attacked by "
    "a move that only the fleet's own power supports, a support that cannot dislodge it (DATC "
    "3.0 6.E.3, 6.D.12): the fleet stays, so the convoy goes on",
    "convoyed self-dislodgement": "diplomacy counts a support from the power whose unit a "
    "convoyed army attacks (DATC 3.0 6.D.12-13, 6.E.3: a power never helps dislodge its own "
    "unit; diplomacy applies this over land only)",
}

# Share of a phase's orders made wrong on purpose, and how.
WRONG_MOVEMENT = 0.04
WRONG_RETREAT = 0.15
NO_ORDER = 0.06


# -- the diplomacy side (runs in the diplomacy venv) -----------------------------------------


def worker() -> int:
    """Answer one JSON line per JSON line on stdin.

    ``{"map": true}``: the map's names and the package version. ``{"start": ...}``: a fresh
    game in the given phase with the given units and centres. ``{"orders": ...}``: set each
    power's orders, process the phase, and answer with the board after it.
    """
    import logging

    import diplomacy

    logging.disable(logging.CRITICAL)
    game = diplomacy.Game()
    for line in sys.stdin:
        job = json.loads(line)
        if job.get("map"):
            answer = map_answer(game)
        elif "start" in job:
            start = job["start"]
            game = diplomacy.Game()
            game.clear_units()
            game.clear_centers()
            game.set_current_phase(start["phase"])
            for power, units in start["units"].items():
                game.set_units(power, units)
            for power, centres in start["centers"].items():
                game.set_centers(power, centres)
            answer = {"phase": game.get_current_phase()}
        else:
            for power, orders in job["orders"].items():
                game.set_orders(power, orders)
            accepted = game.get_orders()
            game.process()
            answer = _board(game)
            answer["accepted"] = {p: o for p, o in accepted.items() if o}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    return 0


def _board(game) -> dict:
    """The board after a phase: units, dislodged units with their retreats, centres, results."""
    units, retreats = [], {}
    for name, power in game.powers.items():
        units += [f"{name} {u}" for u in power.units if not u.startswith("*")]
        for unit, options in power.retreats.items():
            retreats[f"{name} {unit}"] = sorted(options)
    results = game.result_history.last_value() if game.result_history else {}
    return {
        "phase": game.get_current_phase(),
        "units": sorted(units),
        "retreats": retreats,
        "centers": {name: sorted(p.centers) for name, p in game.powers.items()},
        "results": {str(u): [str(r) for r in rs] for u, rs in results.items()},
    }


def diplomacy_python(create: bool = False) -> str | None:
    """A python with ``diplomacy`` installed: ``$DIPLOMACY_PYTHON``, else /tmp/dipvenv.

    With ``create`` the venv is made (``pip install diplomacy==1.1.2``) when missing; the
    location is ``$DIPLOMACY_VENV`` or /tmp/dipvenv. None when there is none and none was made.
    """
    given = os.environ.get("DIPLOMACY_PYTHON")
    if given:
        return given if Path(given).exists() else None
    venv = Path(os.environ.get("DIPLOMACY_VENV", "/tmp/dipvenv"))
    python = venv / "bin" / "python"
    if _has_diplomacy(python):
        return str(python)
    if not create:
        return None
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", f"diplomacy=={DIPLOMACY_VERSION}"],
        check=True,
        timeout=300,
    )
    return str(python) if _has_diplomacy(python) else None


def _has_diplomacy(python: Path) -> bool:
    if not python.exists():
        return False
    done = subprocess.run(
        [str(python), "-c", "import diplomacy"], capture_output=True, timeout=60, check=False
    )
    return done.returncode == 0


# -- spelling our orders as a player might -----------------------------------------------------


@dataclass
class Speller:
    """Rewrites our canonical order texts in the other forms the contract accepts."""

    variant: Variant
    names: dict[str, list[str]] = field(default_factory=dict)
    pattern: re.Pattern = field(init=False)

    def __post_init__(self) -> None:
        for entry in self.variant.raw["provinces"]:
            names = [entry["name"], entry["abbreviation"], *entry.get("aliases", [])]
            self.names[entry["name"]] = names
        locations = sorted(self.variant.fleet_adj.keys() | self.variant.provinces.keys(), key=len)
        alternatives = "|".join(re.escape(loc) for loc in reversed(locations))
        self.pattern = re.compile(rf"(?<![\w/])({alternatives})(?![\w/])")

    def location(self, rng: Random, location: str) -> str:
        province, _, coast = location.partition("/")
        text = _case(rng, rng.choice(self.names[province]))
        if coast:
            text += rng.choice(
                [
                    f"/{coast}",
                    f"/{coast.upper()}",
                    f"({coast})",
                    f" ({COAST_WORDS[coast]} Coast)",
                    f" ({coast.upper()})",
                ]
            )
        return text

    def spell(self, rng: Random, text: str) -> str:
        """The order in another spelling: names, keywords, case and spacing changed."""
        if rng.random() < 0.15:
            return text  # canonical as it is, the form our own clients send
        parts = self.pattern.split(text)
        out = []
        for n, part in enumerate(parts):
            if n % 2:
                out.append(self.location(rng, part))
            else:
                out.append(self._words(rng, part))
        spelled = "".join(out)
        spelled = re.sub(r" +", lambda m: " " * rng.choice((1, 1, 1, 2)), spelled)
        return spelled.strip() if rng.random() < 0.9 else f" {spelled} "

    def _words(self, rng: Random, part: str) -> str:
        def word(m: re.Match) -> str:
            token = m[0]
            options = KEYWORDS.get(token, [token])
            return _case(rng, rng.choice(options))

        part = part.replace(" via Convoy", " via_Convoy")
        part = re.sub(r" - ", lambda m: rng.choice(DASHES), part)
        return re.sub(r"[A-Za-z_]+", word, part)


COAST_WORDS = {"nc": "North", "sc": "South", "ec": "East", "wc": "West"}
DASHES = (" - ", "-", " -", "- ", " -> ", "->", " to ", " - ")
KEYWORDS = {
    "A": ["A", "a", "Army"],
    "F": ["F", "f", "Fleet"],
    "H": ["H", "h", "Hold", "holds"],
    "S": ["S", "s", "supports", "Support"],
    "C": ["C", "c", "convoys", "Convoy"],
    "R": ["R", "r", "retreat", "retreats"],
    "D": ["D", "d", "disband", "Disbands"],
    "Build": ["Build", "build", "BUILD", "builds"],
    "Remove": ["Remove", "remove", "disband", "Disband"],
    "Waive": ["Waive", "waive", "WAIVE", "pass"],
    "via_Convoy": ["via Convoy", "via convoy", "VIA CONVOY", "by convoy"],
}


def _case(rng: Random, text: str) -> str:
    r = rng.random()
    if r < 0.45:
        return text
    if r < 0.65:
        return text.upper()
    if r < 0.85:
        return text.lower()
    return "".join(c.upper() if rng.random() < 0.5 else c.lower() for c in text)


# -- generating positions and orders -----------------------------------------------------------


Unit = tuple[str, str, str]  # power, kind, location


def initial_centres(variant: Variant, rng: Random, units: list[Unit]) -> dict[str, list[str]]:
    """Owners for a mid-game board: mostly the occupier or the home power, sometimes anyone."""
    at = {province_of(loc): power for power, _, loc in units}
    home = {c: p for p in variant.powers for c in variant.home_centres(p)}
    owned: dict[str, list[str]] = {p: [] for p in variant.powers}
    for centre in variant.centres:
        r = rng.random()
        if centre in at and r < 0.6:
            owner = at[centre]
        elif centre in home and r < 0.8:
            owner = home[centre]
        elif r < 0.92:
            owner = rng.choice(list(variant.powers))
        else:
            continue
        owned[owner].append(centre)
    # A solo victory would end the game in diplomacy and in ours: keep every power below it.
    for centres in owned.values():
        while len(centres) >= variant.victory_centers - 2:
            centres.pop(rng.randrange(len(centres)))
    return {p: sorted(cs) for p, cs in owned.items()}


def wrong_movement_order(variant: Variant, rng: Random, units: list[Unit], i: int) -> str:
    """An order for unit i that is illegal or odd in one of the usual ways."""
    power, kind, loc = units[i]
    here = province_of(loc)
    adj = variant.army_adj if kind == "A" else variant.fleet_adj
    near = {province_of(x) for x in adj.get(loc, ())}
    two = sorted({province_of(y) for x in adj.get(loc, ()) for y in adj.get(x, ())} - near - {here})
    occupied = {province_of(u[2]) for u in units}
    r = rng.random()
    if r < 0.25 and two:
        return f"{kind} {loc} - {rng.choice(two)}"  # out of reach
    if r < 0.45:
        # A fleet to a split province without its coast, or an army to a sea / fleet inland.
        if kind == "F":
            split = [x for x in adj[loc] if "/" in x]
            if split:
                return f"F {loc} - {province_of(rng.choice(split))}"
            inland = sorted(
                p for p in variant.army_adj.get(here, ()) if variant.provinces[p].is_land
            )
            if inland:
                return f"F {loc} - {rng.choice(inland)}"
        else:
            seas = sorted(
                p for p in variant.fleet_reach.get(here, ()) if variant.provinces[p].is_sea
            )
            if seas:
                return f"A {loc} - {rng.choice(seas)}"
    if r < 0.65:
        empty = sorted(near - occupied)
        if empty:
            other = rng.choice(empty)
            return f"{kind} {loc} S A {other}"  # support of a unit that is not there
    if r < 0.8:
        j = rng.randrange(len(units))
        return f"{kind} {loc} S {units[j][1]} {units[j][2]}"  # often out of reach
    if kind == "F" and not variant.provinces[here].is_sea:
        land = [j for j, u in enumerate(units) if u[1] == "A" and j != i]
        if land:
            j = rng.choice(land)
            return f"F {loc} C A {units[j][2]} - {rng.choice(sorted(variant.centres))}"
    return f"{kind} {loc} H"


def retreat_orders(variant: Variant, rng: Random, response: dict) -> list[tuple[str, str]]:
    """One order (or none) per dislodged unit: mostly a listed retreat, sometimes not."""
    orders = []
    occupied = sorted({province_of(u["location"]) for u in response["units"]})
    chosen: list[str] = []
    for d in response["dislodged"]:
        kind, loc, options = d["unit"], d["location"], d["retreats"]
        unit = f"{kind} {loc}"
        r = rng.random()
        if r < NO_ORDER:
            continue
        adj = variant.army_adj if kind == "A" else variant.fleet_adj
        near = sorted(adj.get(loc, ()))
        if r < NO_ORDER + WRONG_RETREAT:
            wrong = [d["attacker_from"], *response["contested"], *occupied]
            wrong = [w for w in wrong if any(province_of(n) == w for n in near)] or near
            target = rng.choice(wrong)
            if kind == "F" and target in variant.provinces and variant.provinces[target].coasts:
                target = next((n for n in near if province_of(n) == target), target)
            orders.append((d["power"], f"{unit} R {target}"))
        elif options and rng.random() < 0.88:
            shared = [o for o in options if o in chosen]
            target = rng.choice(shared) if shared and rng.random() < 0.3 else rng.choice(options)
            chosen.append(target)
            if "/" in target and rng.random() < 0.3:
                target = province_of(target)  # the coast left out
            orders.append((d["power"], f"{unit} R {target}"))
        else:
            orders.append((d["power"], f"{unit} D"))
    rng.shuffle(orders)
    return orders


def adjustment_orders(variant: Variant, rng: Random, response: dict) -> list[tuple[str, str]]:
    """Builds, removals and waivers: the right number, too many, too few, and some refused."""
    orders: list[tuple[str, str]] = []
    units = response["units"]
    occupied = {province_of(u["location"]) for u in units}
    for power in variant.powers:
        owned = response["supply_centers"].get(power, [])
        mine = [u for u in units if u["power"] == power]
        delta = len(owned) - len(mine)
        count = max(0, abs(delta) + rng.choice((0, 0, 0, 0, 0, 0, 0, 0, -1, 1)))
        if rng.random() < NO_ORDER:
            count = 0
        if delta > 0:
            free = [c for c in variant.home_centres(power) if c in owned and c not in occupied]
            wrong = sorted((set(owned) | set(variant.home_centres(power))) - set(free))
            for _ in range(count):
                r = rng.random()
                if r < 0.1:
                    orders.append((power, "Waive"))
                    continue
                pool = free if (free and r < 0.85) or not wrong else wrong
                centre = rng.choice(pool)
                province = variant.provinces[centre]
                kind = "A" if province.is_land or rng.random() < 0.55 else "F"
                if kind == "F" and province.coasts:
                    coasts = variant.fleet_locations(centre)
                    centre = rng.choice(coasts) if rng.random() < 0.85 else centre
                orders.append((power, f"Build {kind} {centre}"))
        elif delta < 0:
            picks = rng.sample(mine, min(count, len(mine)))
            if picks and rng.random() < 0.1:
                picks.append(rng.choice([*picks, *units]))  # twice, or another power's unit
            orders += [(power, f"Remove {u['unit']} {u['location']}") for u in picks]
        elif rng.random() < 0.1:
            orders.append((power, "Waive"))
    rng.shuffle(orders)
    return orders


# -- their notation ----------------------------------------------------------------------------


def their_order(text: str, phase_type: str, table: dict[str, str]) -> str:
    """One canonical order of ours in the diplomacy package's notation."""
    if phase_type == "movement":
        return translate_order(text, table)
    if text == "Waive":
        return "WAIVE"
    words = text.split(" ", 2)
    if words[0] in ("Build", "Remove"):
        letter = "B" if words[0] == "Build" else "D"
        return f"{words[1]} {_their_location(words[2], table)} {letter}"
    match = re.fullmatch(r"([AF]) (.+) R (.+)", text)
    if match:
        return f"{match[1]} {_their_location(match[2], table)} R {_their_location(match[3], table)}"
    match = re.fullmatch(r"([AF]) (.+) D", text)
    if match:
        return f"{match[1]} {_their_location(match[2], table)} D"
    raise ValueError(f"cannot translate {text!r}")


def _their_location(location: str, table: dict[str, str]) -> str:
    if location in table:
        return table[location]
    return table[province_of(location)]


def their_units(units: list[dict], table: dict[str, str]) -> list[str]:
    return sorted(f"{u['power'].upper()} {u['unit']} {table[u['location']]}" for u in units)


def their_phase(phase: dict) -> str:
    return f"{SEASON_LETTER[phase['season']]}{phase['year']}{TYPE_LETTER[phase['type']]}"


def _their_options(options: list[str]) -> set[str]:
    """Diplomacy lists a split province both bare and with its coast: keep the coasts."""
    coasted = {o.split("/")[0] for o in options if "/" in o}
    return {o for o in options if "/" in o or o not in coasted}


# -- running a chain ---------------------------------------------------------------------------


@dataclass
class Tally:
    """What a run found."""

    phases: Counter = field(default_factory=Counter)
    orders: Counter = field(default_factory=Counter)
    choices: Counter = field(default_factory=Counter)
    disagreements: list[dict] = field(default_factory=list)  # unexplained: our bugs
    explained: list[dict] = field(default_factory=list)
    refused_by_them: int = 0


def compare(ours: dict, theirs: dict, phase: dict, table: dict[str, str]) -> dict:
    """Differences between our response and their board after the same phase."""
    diff: dict[str, list] = {}
    a, b = set(their_units(ours["units"], table)), set(theirs["units"])
    if a != b:
        diff["units only ours"] = sorted(a - b)
        diff["units only diplomacy"] = sorted(b - a)
    # A dislodged unit with nowhere to go: diplomacy removes it at once, we list it.
    our_retreats = {
        f"{d['power'].upper()} {d['unit']} {table[d['location']]}": sorted(
            table[o] for o in d["retreats"]
        )
        for d in ours["dislodged"]
        if d["retreats"]
    }
    # Diplomacy lists provinces that stay occupied too (a retreat there is refused later).
    held = {u.split()[-1].split("/")[0] for u in theirs["units"]}
    their_retreats = {
        u: sorted(o for o in _their_options(opts) if o.split("/")[0] not in held)
        for u, opts in theirs["retreats"].items()
    }
    their_retreats = {u: o for u, o in their_retreats.items() if o}
    if our_retreats != their_retreats:
        diff["retreats ours"] = sorted(f"{u}: {o}" for u, o in our_retreats.items())
        diff["retreats diplomacy"] = sorted(f"{u}: {o}" for u, o in their_retreats.items())
    nxt = their_phase(ours["next_phase"])
    if nxt != theirs["phase"]:
        diff["next phase"] = [nxt, theirs["phase"]]
    if phase["season"] == "fall" and ours["next_phase"]["type"] != "retreats":
        mine = {p.upper(): sorted(table[c] for c in cs) for p, cs in ours["supply_centers"].items()}
        if {p: c for p, c in mine.items() if c} != {
            p: c for p, c in theirs["centers"].items() if c
        }:
            diff["centres ours"] = sorted(f"{p}: {c}" for p, c in mine.items() if c)
            diff["centres diplomacy"] = sorted(
                f"{p}: {c}" for p, c in theirs["centers"].items() if c
            )
    return diff


def _same_answer(a: dict, b: dict) -> bool:
    """Two responses of ours agree on everything but the order texts as sent."""
    strip = [{k: v for k, v in o.items() if k != "order"} for o in a["orders"]]
    other = [{k: v for k, v in o.items() if k != "order"} for o in b["orders"]]
    rest = ("units", "dislodged", "contested", "supply_centers", "civil_disorder", "next_phase")
    return strip == other and all(a.get(k) == b.get(k) for k in rest)


def run_chain(
    variant: Variant,
    speller: Speller,
    dip: Worker,
    table: dict[str, str],
    rng: Random,
    tally: Tally,
    label: str,
) -> None:
    """One short game, phase by phase, until the next spring or the first disagreement."""
    units = place_units(variant, rng)
    centres = initial_centres(variant, rng, units)
    phase = {"season": rng.choice(("spring", "fall")), "year": 1901 + rng.randrange(30)}
    phase["type"] = "movement"
    dip.ask(
        {
            "start": {
                "phase": their_phase(phase),
                "units": _by_power([(p, f"{k} {table[loc]}") for p, k, loc in units]),
                "centers": {p.upper(): [table[c] for c in cs] for p, cs in centres.items()},
            }
        }
    )
    state = {
        "units": [{"power": p, "unit": k, "location": loc} for p, k, loc in units],
        "dislodged": [],
        "contested": [],
        "supply_centers": centres,
    }
    start_year = phase["year"]
    while True:
        orders = _phase_orders(variant, rng, phase, state)
        canonical_request = {
            "variant": "standard",
            "phase": phase,
            "units": state["units"],
            "supply_centers": state["supply_centers"],
            "orders": [{"power": p, "order": o} for p, o in orders],
        }
        if phase["type"] == "retreats":
            canonical_request["dislodged"] = [
                {k: v for k, v in d.items() if k != "retreats"} for d in state["dislodged"]
            ]
            canonical_request["contested"] = state["contested"]
        spelled_request = dict(canonical_request)
        spelled_request["orders"] = [
            {"power": p, "order": speller.spell(rng, o)} for p, o in orders
        ]
        ours = adjudicate(spelled_request)
        reference = adjudicate(canonical_request)
        theirs = dip.ask(
            {"orders": _by_power([(p, their_order(o, phase["type"], table)) for p, o in orders])}
        )
        if theirs["phase"].endswith("R") and ours.get("next_phase", {}).get("type") != "retreats":
            theirs = _past_empty_retreats(dip, theirs)
        tally.phases[phase["type"]] += 1
        tally.orders[phase["type"]] += len(orders)
        tally.refused_by_them += len(orders) - sum(len(v) for v in theirs["accepted"].values())
        where = f"{label}, {their_phase(phase)}"
        if "error" in ours or "error" in reference:
            tally.disagreements.append(
                {
                    "where": where,
                    "kind": "request refused",
                    "ours": ours,
                    "request": spelled_request,
                }
            )
            return
        if not _same_answer(ours, reference):
            tally.disagreements.append(
                {
                    "where": where,
                    "kind": "spelling changes our answer",
                    "orders": _spelling_diff(ours, reference),
                }
            )
            return
        diff = compare(ours, theirs, phase, table)
        if diff:
            choice = classify(variant, canonical_request, ours, theirs, diff, table)
            entry = {
                "where": where,
                "kind": choice or "disagreement",
                "diff": diff,
                "orders": _order_lines(canonical_request, ours, theirs, table),
                "request": canonical_request,
            }
            if choice:
                tally.choices[choice] += 1
                tally.explained.append(entry)
            else:
                tally.disagreements.append(entry)
            return
        nxt = ours["next_phase"]
        if nxt["type"] == "movement" and (nxt["season"] == "spring" and nxt["year"] > start_year):
            return
        phase = nxt
        state = ours


def _past_empty_retreats(dip: Worker, theirs: dict) -> dict:
    """Diplomacy lists occupied provinces among the retreats (and refuses a retreat there), so
    it may stop for a retreat phase in which nobody can move: play it with no orders."""
    held = {u.split()[-1].split("/")[0] for u in theirs["units"]}
    if any(o.split("/")[0] not in held for opts in theirs["retreats"].values() for o in opts):
        return theirs
    after = dip.ask({"orders": {}})
    return {**after, "results": theirs["results"], "accepted": theirs["accepted"]}


def _phase_orders(variant: Variant, rng: Random, phase: dict, state: dict) -> list:
    if phase["type"] == "retreats":
        return retreat_orders(variant, rng, state)
    if phase["type"] == "adjustments":
        return adjustment_orders(variant, rng, state)
    units = [(u["power"], u["unit"], u["location"]) for u in state["units"]]
    texts = _coasts_in_supports(rng, movement_orders(variant, rng, units))
    texts = _attack_the_supporter(variant, rng, units, texts)
    orders = []
    for i, text in enumerate(texts):
        power = units[i][0]
        if rng.random() < WRONG_MOVEMENT:
            text = wrong_movement_order(variant, rng, units, i)
        if rng.random() < 0.01:
            power = rng.choice([p for p in variant.powers if p != power])  # not its unit
        if rng.random() < NO_ORDER / 2:
            continue
        orders.append((power, text))
    return orders


def _coasts_in_supports(rng: Random, texts: list[str]) -> list[str]:
    """Name the coast in half the supports of a fleet moving to a coast, as players do
    (a support is not cut by the province it is directed at, coast or not: issue #13 item 2)."""
    coast_of = {}
    for text in texts:
        m = MOVE.fullmatch(text)
        if m and m[1] == "F" and "/" in m[3]:
            coast_of[m[2]] = m[3]
    out = []
    for text in texts:
        m = SUPPORT_MOVE.fullmatch(text)
        if m and m[2] in coast_of and province_of(coast_of[m[2]]) == m[3] and rng.random() < 0.5:
            text = f"{text} "[: -len(m[3]) - 1] + coast_of[m[2]]
        out.append(text)
    return out


def _attack_the_supporter(variant: Variant, rng: Random, units: list[Unit], texts: list[str]):
    """Sometimes the unit a coast-naming support is aimed at attacks the supporter instead of
    holding: the support must not be cut by it (issue #13 item 2)."""
    at = {province_of(loc): i for i, (_, _, loc) in enumerate(units)}
    out = list(texts)
    for text in texts:
        m = SUPPORT_MOVE.fullmatch(text)
        if not m or "/" not in m[3]:
            continue
        target = at.get(province_of(m[3]))
        supporter = province_of(m[1])
        if target is None or (" - " in out[target] and rng.random() < 0.5):
            continue
        kind, location = units[target][1], units[target][2]
        reach = variant.army_adj if kind == "A" else variant.fleet_adj
        if supporter in reach.get(location, ()):
            out[target] = f"{kind} {location} - {supporter}"
    return out


def _by_power(pairs: list[tuple[str, str]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for power, text in pairs:
        out.setdefault(power.upper(), []).append(text)
    return out


def _spelling_diff(ours: dict, reference: dict) -> list[str]:
    lines = []
    for a, b in zip(ours["orders"], reference["orders"], strict=True):
        if a.get("canonical") != b.get("canonical") or a["result"] != b["result"]:
            lines.append(
                f"{a['power']}: {a['order']!r} read as {a.get('canonical')!r} ({a['result']}"
                f"{': ' + a['reason'] if a.get('reason') else ''}); "
                f"canonical {b['order']!r}: {b['result']}"
            )
    return lines or ["(orders agree; the board differs)"]


def _order_lines(request: dict, ours: dict, theirs: dict, table: dict[str, str]) -> list[str]:
    lines = []
    phase_type = request["phase"]["type"]
    for entry, answer in zip(request["orders"], ours["orders"], strict=True):
        their = their_order(entry["order"], phase_type, table)
        unit = " ".join(their.split()[:2])
        result = ", ".join(theirs["results"].get(unit, [])) or "ok"
        lines.append(
            f"{entry['power'][:3].upper()} {entry['order']:44} ours: {answer['result']:9}"
            f" diplomacy: {result}"
        )
    return lines


# -- the written-down choices ------------------------------------------------------------------


MOVE = re.compile(r"([AF]) (.+?) - (.+?)( via Convoy)?")
SUPPORT_MOVE = re.compile(r"[AF] (.+?) S [AF] (.+?) - (.+)")
CONVOY = re.compile(r"F (.+?) C A (.+?) - (.+)")


def classify(
    variant: Variant, request: dict, ours: dict, theirs: dict, diff: dict, table: dict[str, str]
) -> str | None:
    """The entry of ``CHOICES`` or ``THEIR_ERRORS`` that explains this disagreement, or None.

    Each test is narrow: the situation must be in the phase, at a province where the engines
    differ, and (for adjustments) explain every power whose units differ.
    """
    phase_type = request["phase"]["type"]
    if phase_type == "adjustments":
        return _adjustment_choice(variant, request, ours, theirs, table)
    if phase_type == "retreats":
        return "6.H.6" if _retreat_into_standoff(request, ours, theirs, table) else None
    if _retreat_choice(request, ours, diff, table):
        return "6.H.6"
    if _convoy_held(variant, request, ours, theirs, table):
        return "convoy not disrupted"
    places = _places(diff, table)
    owner = {province_of(u["location"]): u["power"] for u in request["units"]}
    moves: dict[str, tuple[str, bool, str]] = {}
    for o in request["orders"]:
        m = MOVE.fullmatch(o["order"])
        if m and owner.get(province_of(m[2])) == o["power"]:
            moves[province_of(m[2])] = (province_of(m[3]), bool(m[4]), o["power"])
    convoyed = {
        province_of(m[2])
        for o in request["orders"]
        if (m := CONVOY.fullmatch(o["order"])) and owner.get(province_of(m[1])) == o["power"]
    }
    supports = [
        (o["power"], province_of(m[2]), province_of(m[3]))
        for o in request["orders"]
        if (m := SUPPORT_MOVE.fullmatch(o["order"])) and owner.get(province_of(m[1])) == o["power"]
    ]
    for start, (dest, via, _) in moves.items():
        if not {start, dest} & places:
            continue
        # 6.G.8: an explicit convoy to an adjacent province, and ours left the army at home.
        reason = _answer(request, ours, start).get("reason", "")
        if (
            via
            and dest in variant.army_adj.get(start, ())
            and reason.startswith("the convoy failed")
        ):
            return "6.G.8"
        back = moves.get(dest)
        helped = any(p == owner.get(dest) and s == start and d == dest for p, s, d in supports)
        # Their error: a convoyed attack helped by the power whose unit it attacks.
        if (via or start in convoyed) and dest in owner and helped:
            return "convoyed self-dislodgement"
        # Head-to-head: a move supported by the (other) power whose unit it meets head to head.
        foreign = owner.get(start) != owner.get(dest)
        if back and back[0] == start and not back[1] and not via and helped and foreign:
            return "head-to-head defend"
    return None


def _retreat_into_standoff(request: dict, ours: dict, theirs: dict, table) -> bool:
    """6.H.6 in the retreat phase: every unit only diplomacy has retreated, on an order we
    refused, into a province left empty by a standoff, having been dislodged by a convoy."""
    a, b = set(their_units(ours["units"], table)), set(theirs["units"])
    if a - b:
        return False
    contested = set(request.get("contested", []))
    convoyed = {d["location"] for d in request.get("dislodged", []) if d.get("via_convoy")}
    allowed = set()
    for entry, answer in zip(request["orders"], ours["orders"], strict=True):
        m = re.fullmatch(r"([AF]) (.+) R (.+)", entry["order"])
        if (
            m
            and answer["result"] == "invalid"
            and m[2] in convoyed
            and province_of(m[3]) in contested
        ):
            allowed.add(f"{entry['power'].upper()} {m[1]} {_their_location(m[3], table)}")
    return bool(b - a) and (b - a) <= allowed


def _answer(request: dict, ours: dict, start: str) -> dict:
    """Our answer to the move of the unit that started in ``start`` ({} if none)."""
    for entry, answer in zip(request["orders"], ours["orders"], strict=True):
        m = MOVE.fullmatch(entry["order"])
        if m and province_of(m[2]) == start:
            return answer
    return {}


def _retreat_choice(request: dict, ours: dict, diff: dict, table: dict[str, str]) -> bool:
    """6.H.6 as diplomacy breaks it: a unit dislodged by a convoyed army may retreat to a
    province left empty by a standoff. Only the retreats (and what follows from them) differ,
    and every retreat only diplomacy offers is to such a province."""
    if not set(diff) <= {"retreats ours", "retreats diplomacy", "next phase"} | {
        "centres ours",
        "centres diplomacy",
    }:
        return False
    back = {their: ours_ for ours_, their in table.items()}
    contested = set(ours["contested"])
    convoyed = {
        f"{d['power'].upper()} {d['unit']} {table[d['location']]}"
        for d in ours["dislodged"]
        if d.get("via_convoy")
    }

    def options(key: str) -> dict[str, set[str]]:
        out = {}
        for line in diff.get(key, []):
            unit, _, rest = line.partition(": ")
            out[unit] = {province_of(back[o]) for o in re.findall(r"'([A-Z/]+)'", rest)}
        return out

    mine, theirs = options("retreats ours"), options("retreats diplomacy")
    extra = {u: theirs[u] - mine.get(u, set()) for u in theirs}
    if any(mine[u] - theirs.get(u, set()) for u in mine) or not any(extra.values()):
        return False
    return all(not more or (u in convoyed and more <= contested) for u, more in extra.items())


def _convoy_held(variant: Variant, request: dict, ours: dict, theirs: dict, table) -> bool:
    """Their error: diplomacy calls a convoy disrupted when its fleet is attacked by a move that
    the fleet's own power supports (a support that cannot dislodge it, DATC 6.E.3)."""
    owner = {province_of(u["location"]): u for u in request["units"]}
    for entry, answer in zip(request["orders"], ours["orders"], strict=True):
        m = CONVOY.fullmatch(entry["order"])
        if not m or answer["result"] != "succeeds":
            continue
        sea = province_of(m[1])
        fleet = owner.get(sea)
        if fleet is None or fleet["power"] != entry["power"]:
            continue
        if "disrupted" not in theirs["results"].get(f"F {table[m[1]]}", []):
            continue
        for other in request["orders"]:
            s = SUPPORT_MOVE.fullmatch(other["order"])
            if s and province_of(s[3]) == sea and other["power"] == fleet["power"]:
                return True
    return False


def _places(diff: dict, table: dict[str, str]) -> set[str]:
    """Our province names for every unit's location named in the units or retreats lines."""
    back = {their.split("/")[0]: province_of(ours) for ours, their in table.items()}
    places = set()
    for key, entries in diff.items():
        if key.startswith(("units", "retreats")):
            for entry in entries:
                location = entry.split(":")[0].split()[-1]
                places.add(back[location.split("/")[0]])
    return places


def _adjustment_choice(
    variant: Variant, request: dict, ours: dict, theirs: dict, table: dict[str, str]
) -> str | None:
    """Every power whose units differ is explained by 6.J.11 or by how a waiver counts."""
    a, b = set(their_units(ours["units"], table)), set(theirs["units"])
    disorder = {d["power"].upper() for d in ours["civil_disorder"]}
    found = set()
    for power in sorted({u.split()[0] for u in a ^ b}):
        mine = {u for u in a if u.startswith(power + " ")}
        their = {u for u in b if u.startswith(power + " ")}
        removed = _their_removed(
            {
                f"{power} {answer['canonical'].split(' ', 1)[1]}"
                for entry, answer in zip(request["orders"], ours["orders"], strict=True)
                if entry["power"].upper() == power
                and answer["result"] == "succeeds"
                and answer["canonical"].startswith("Remove")
            },
            table,
        )
        if (
            power in disorder
            and len(mine) == len(their)
            and not (their - mine) & removed
            and mine == _datc_civil_disorder(variant, request, ours, power, table)
        ):
            found.add("6.J.11")
        elif _waive_blocked(request, ours, power, their - mine, table) and mine < their:
            found.add("waive counts")
        else:
            return None
    return " + ".join(sorted(found)) or None


def _datc_civil_disorder(
    variant: Variant, request: dict, ours: dict, power: str, table: dict[str, str]
) -> set[str]:
    """The units a power keeps under DATC 3.0's civil-disorder rule, worked out here on its
    own: after its accepted removals, the units farthest from any centre it owns go first
    (moves over land and sea alike, for armies and fleets), fleets before armies on a tie,
    then by province name."""
    name = next(p for p in variant.powers if p.upper() == power)
    gone = {
        answer["canonical"].split(" ", 2)[2]
        for entry, answer in zip(request["orders"], ours["orders"], strict=True)
        if entry["power"] == name
        and answer["result"] == "succeeds"
        and answer["canonical"].startswith("Remove")
    }
    built = [
        answer["canonical"].split(" ", 2)[1:]
        for entry, answer in zip(request["orders"], ours["orders"], strict=True)
        if entry["power"] == name
        and answer["result"] == "succeeds"
        and answer["canonical"].startswith("Build")
    ]
    units = [
        (u["unit"], u["location"])
        for u in request["units"]
        if u["power"] == name and u["location"] not in gone
    ] + [(k, loc) for k, loc in built]
    owned = request["supply_centers"].get(name, [])
    distance = dict.fromkeys(owned, 0)
    queue = list(owned)
    for here in queue:
        step = distance[here] + 1
        near = set(variant.army_adj.get(here, ())) | set(variant.fleet_reach.get(here, ()))
        for loc in variant.fleet_locations(here) if variant.provinces[here].coasts else ():
            near |= {province_of(x) for x in variant.fleet_adj.get(loc, ())}
        for nxt in sorted(near):
            if nxt not in distance:
                distance[nxt] = step
                queue.append(nxt)
    excess = len(units) - len(owned)
    order = sorted(
        units,
        key=lambda u: (-distance.get(province_of(u[1]), 1 << 20), u[0] != "F", province_of(u[1])),
    )
    keep = order[max(excess, 0) :]
    return {f"{power} {k} {table[loc]}" for k, loc in keep}


def _their_removed(removed: set[str], table: dict[str, str]) -> set[str]:
    """``POWER A Location`` (ours) as ``POWER A LOC`` (theirs)."""
    out = set()
    for entry in removed:
        power, kind, location = entry.split(" ", 2)
        out.add(f"{power} {kind} {table[location]}")
    return out


def _waive_blocked(
    request: dict, ours: dict, power: str, extra: set[str], table: dict[str, str]
) -> bool:
    """Every unit only diplomacy has is a build of ours refused for lack of builds, after a
    waiver of the same power that we counted."""
    waived = False
    refused = set()
    for entry, answer in zip(request["orders"], ours["orders"], strict=True):
        if entry["power"].upper() != power:
            continue
        if entry["order"] == "Waive" and answer["result"] == "succeeds":
            waived = True
        elif (
            waived
            and entry["order"].startswith("Build")
            and answer["result"] == "invalid"
            and "no builds left" in answer.get("reason", "")
        ):
            kind, location = entry["order"].split(" ", 2)[1:]
            refused.add(f"{power} {kind} {table[location]}")
    return bool(extra) and extra <= refused


# -- the command -------------------------------------------------------------------------------


def run(chains: int, seed: int, python: str, progress: bool = False) -> tuple[Tally, dict]:
    """Play ``chains`` chains from ``seed``; the tally and the run's facts."""
    variant = load("standard")
    speller = Speller(variant)
    tally = Tally()
    t0 = time.perf_counter()
    with Worker(python, "bench.differential") as dip:
        their_map = dip.ask({"map": True})
        table, _notes = location_table(their_map)
        for n in range(chains):
            rng = Random(f"{seed}-{n}")
            run_chain(variant, speller, dip, table, rng, tally, f"seed {seed} chain {n}")
            if progress and n % 100 == 99:
                print(f"  {n + 1} chains, {sum(tally.phases.values())} phases", file=sys.stderr)
    facts = {
        "version": their_map["version"],
        "seconds": time.perf_counter() - t0,
    }
    return tally, facts


def report(tally: Tally, facts: dict, chains: int, seed: int, shown: int) -> str:
    """The figures and the first disagreements, as text."""
    total = sum(tally.phases.values())
    kinds = ", ".join(f"{tally.phases[k]} {k}" for k in ("movement", "retreats", "adjustments"))
    lines = [
        f"differential vs diplomacy {facts['version']}: standard map, seed {seed}, "
        f"{chains} chains, {facts['seconds']:.0f} s",
        f"phases:            {total} ({kinds})",
        f"orders:            {sum(tally.orders.values())}; diplomacy refused "
        f"{tally.refused_by_them} at set_orders",
        "explained:         "
        + (", ".join(f"{k} {v}" for k, v in sorted(tally.choices.items())) or "none"),
        f"disagreements:     {len(tally.disagreements)} outside the written-down choices",
    ]
    for entry in tally.disagreements[:shown]:
        lines.append(f"  {entry['where']}: {entry['kind']}")
        for key, values in entry.get("diff", {}).items():
            lines.append(f"    {key}: {values}")
        for line in entry.get("orders", []):
            lines.append(f"      {line}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chains", type=int, default=1900)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=5, help="disagreements printed in full")
    parser.add_argument("--show-explained", type=int, default=0)
    parser.add_argument("--diplomacy-python", default=None)
    parser.add_argument("--dump", help="write every disagreement, with its request, as JSON lines")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker()
    python = args.diplomacy_python or diplomacy_python()
    if python is None:
        print(
            "no python with diplomacy: set DIPLOMACY_PYTHON or make /tmp/dipvenv", file=sys.stderr
        )
        return 2
    tally, facts = run(args.chains, args.seed, python, progress=True)
    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as f:
            for entry in tally.disagreements + tally.explained:
                f.write(json.dumps(entry) + "\n")
    print(report(tally, facts, args.chains, args.seed, args.show))
    for entry in tally.explained[: args.show_explained]:
        print(f"  explained {entry['where']}: {entry['kind']}")
        for key, values in entry.get("diff", {}).items():
            print(f"    {key}: {values}")
        for line in entry.get("orders", []):
            print(f"      {line}")
    return 1 if tally.disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
