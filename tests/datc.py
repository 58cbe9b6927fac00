"""Load the DATC test cases of tests/data/ as steps of adjudication contract requests.

Two transcriptions of the Diplomacy Adjudicator Test Cases are read:

- ``teddriggs_datc_v3.json`` (DATC 3.0): per-order expectations ("Succeeds"/"Fails"/null),
- ``godip_datc_v2.4_06.txt`` (DATC 2.4, jDip text): expected positions after the phase.

Each case becomes a list of :class:`Step`. A step holds one request in the notation of
/work/shared/CONTRACT.md and what to check in its response. The runner (tests/test_datc.py)
talks to the engine only through ``adjudication.adjudicate``; this module imports nothing
outside the standard library and never touches the engine.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
TEDDRIGGS_FILE = DATA / "teddriggs_datc_v3.json"
GODIP_FILE = DATA / "godip_datc_v2.4_06.txt"
VARIANT_FILE = Path(__file__).resolve().parents[1] / "variants" / "standard" / "variant.json"

VARIANT = "standard"

POWERS = {
    "ENG": "England",
    "FRA": "France",
    "GER": "Germany",
    "ITA": "Italy",
    "AUS": "Austria",
    "RUS": "Russia",
    "TUR": "Turkey",
}

# Home centres and neutral centres of the standard map. Kept here so the loader can work out
# Build-phase ownership without the variant file; test_datc.py checks them against it.
HOME_CENTERS = {
    "England": ["edi", "lvp", "lon"],
    "France": ["bre", "mar", "par"],
    "Germany": ["ber", "kie", "mun"],
    "Italy": ["nap", "rom", "ven"],
    "Austria": ["bud", "tri", "vie"],
    "Russia": ["mos", "sev", "stp", "war"],
    "Turkey": ["ank", "con", "smy"],
}
NEUTRAL_CENTERS = frozenset(
    {"bel", "bul", "den", "gre", "hol", "nwy"} | {"por", "rum", "ser", "spa", "swe", "tun"}
)
SUPPLY_CENTERS = NEUTRAL_CENTERS.union(*HOME_CENTERS.values())

# Sea provinces: a godip "Remove gol" names no unit type, and only a fleet can stand at sea.
SEAS = frozenset(
    {"adr", "aeg", "bal", "bar", "bla", "bot", "eas", "eng", "hel", "ion", "iri", "lyo", "mao"}
    | {"nao", "nth", "nwg", "ska", "tys", "wes"}
)

# jDip/godip province ids that differ from the standard abbreviations.
GODIP_NAMES = {"gol": "lyo", "mid": "mao", "nat": "nao", "nrg": "nwg"}

# Typos in the godip file's power names.
POWER_TYPOS = {"Germnay": "Germany"}

MOVEMENT = {"season": "spring", "year": 1901, "type": "movement"}
FALL_MOVEMENT = {"season": "fall", "year": 1901, "type": "movement"}
RETREATS = {"season": "fall", "year": 1901, "type": "retreats"}
ADJUSTMENTS = {"season": "winter", "year": 1901, "type": "adjustments"}

# Rule editions in order of preference: we follow the 2023 rules, which agree with 1982 where a
# case has no 2023 entry; an entry without an edition holds for every edition.
EDITION_PREFERENCE = ["2023", "1982", None, "1971", "dptg"]

# Expectations changed from the teddriggs transcription: case id -> {order key: (new, reason)}.
# We follow DATC's preferred answers ("supports need no coast"); the transcription sometimes
# records its own library's stricter choice instead.
OVERRIDES: dict[str, dict[str, tuple[str | None, str]]] = {
    "teddriggs:6.A.5": {
        "ENG: A lvp supports A yor -> yor": (
            "Fails",
            "DATC: supporting the illegal move yor - yor is itself illegal (invalid)",
        ),
    },
    "teddriggs:6.B.2": {
        "FRA: F gas -> spa": (
            "Succeeds",
            "DATC prefers the move to the only reachable coast (godip 6.B.2 agrees)",
        ),
    },
    "teddriggs:6.B.10": {
        "FRA: F spa(nc) -> lyo": (
            "Succeeds",
            "DATC prefers ignoring the wrong coast of the ordered unit (godip 6.B.10 agrees)",
        ),
    },
    "teddriggs:6.B.12": {
        "FRA: A gas -> spa(nc)": (
            "Succeeds",
            "DATC prefers ignoring the coast in an army's move (godip 6.B.12 agrees)",
        ),
    },
    "teddriggs:6.B.15": {
        "ENG: F mao -> spa(nc)": (
            "Fails",
            "DATC prefers the coastless support to be valid, so both fleets bounce in Spain",
        ),
    },
    "teddriggs:6.H.1": {
        "TUR: F gre -> alb": (
            "Fails",
            "the support from ser is illegal in a retreat phase, so both retreats bounce",
        ),
        "AUS: A ser supports F tri -> alb": (
            "Fails",
            "supports are illegal in a retreat phase (the engine answers invalid)",
        ),
    },
    "teddriggs:6.H.2": {
        "RUS: F hol supports F edi -> nth": (
            "Fails",
            "a dislodged unit may not support in a retreat phase (invalid)",
        ),
    },
    "teddriggs:6.H.3": {
        "ENG: F nth convoys hol -> yor": (
            "Fails",
            "convoys are illegal in a retreat phase (invalid)",
        ),
    },
}

# Teddriggs cases whose transcription drops the orders the case is about (6.H.1-6.H.3 leave
# out the support/convoy given in the retreat phase; 6.H.2 also writes "nor" and leaves out
# most units). Rebuilt from the DATC 3.0 text in teddriggs form; OVERRIDES then applies.
REBUILT: dict[str, dict] = {
    "6.H.1": {
        "phase": "Retreat",
        "preceding_main_phase": {
            "orders": {
                "AUS: F tri hold": "Fails",
                "AUS: A ser hold": "Succeeds",
                "TUR: F gre hold": "Fails",
                "ITA: A ven supports A tyr -> tri": None,
                "ITA: A tyr -> tri": "Succeeds",
                "ITA: F ion -> gre": "Succeeds",
                "ITA: F aeg supports F ion -> gre": None,
            },
        },
        "orders": {
            "AUS: F tri -> alb": "Fails",
            "AUS: A ser supports F tri -> alb": None,
            "TUR: F gre -> alb": "Succeeds",
        },
    },
    "6.H.2": {
        "phase": "Retreat",
        "preceding_main_phase": {
            "orders": {
                "ENG: A lvp -> edi": "Succeeds",
                "ENG: F yor supports A lvp -> edi": None,
                "ENG: F nwy hold": "Fails",
                "GER: A kie supports A ruh -> hol": None,
                "GER: A ruh -> hol": "Succeeds",
                "RUS: F edi hold": "Fails",
                "RUS: A swe supports A fin -> nwy": None,
                "RUS: A fin -> nwy": "Succeeds",
                "RUS: F hol hold": "Fails",
            },
        },
        "orders": {
            "ENG: F nwy -> nth": "Fails",
            "RUS: F edi -> nth": "Fails",
            "RUS: F hol supports F edi -> nth": None,
        },
    },
    "6.H.3": {
        "phase": "Retreat",
        "preceding_main_phase": {
            "orders": {
                "ENG: F nth hold": "Succeeds",
                "ENG: A hol hold": "Fails",
                "GER: F kie supports A ruh -> hol": None,
                "GER: A ruh -> hol": "Succeeds",
            },
        },
        "orders": {
            "ENG: A hol -> yor": "Fails",
            "ENG: F nth convoys hol -> yor": None,
        },
    },
}

Unit = tuple[str, str, str]  # (power, unit type, location as written: "spa/nc", "lvp")


@dataclass
class Step:
    """One request and what its response must show.

    ``expect`` runs parallel to ``request["orders"]``: "Succeeds", "Fails" or None (unchecked).
    ``units``, ``dislodged`` and ``civil_disorder`` are expected sets of (power, unit, location)
    or None when the source does not say. A step with ``carry_over`` takes its units, dislodged
    units and contested provinces from the previous step's response (a retreat phase after the
    movement phase the engine just adjudicated).
    """

    request: dict
    expect: list[str | None]
    units: frozenset[Unit] | None = None
    dislodged: frozenset[Unit] | None = None
    civil_disorder: frozenset[Unit] | None = None
    carry_over: bool = False

    def build_request(self, previous: dict | None = None) -> dict:
        """The request to send, completed from the previous response when carried over."""
        request = json.loads(json.dumps(self.request))
        if self.carry_over:
            if previous is None:
                raise ValueError("a carried-over step needs the previous response")
            request["units"] = previous.get("units", [])
            request["dislodged"] = previous.get("dislodged", [])
            request["contested"] = previous.get("contested", [])
        return request


@dataclass
class Case:
    """One DATC case: an id such as "teddriggs:6.A.1" and the steps to run in order."""

    id: str
    title: str
    steps: list[Step] = field(default_factory=list)


# ---------------------------------------------------------------------------------------------
# Orders: one parser for both notations, one writer for the contract's notation.


@dataclass
class Order:
    """A parsed order; ``kind`` is hold, move, support, convoy, build, remove or waive."""

    kind: str
    unit: str = ""
    location: str = ""
    target: str = ""
    via_convoy: bool = False
    other_unit: str = ""
    other_location: str = ""


def location(text: str) -> str:
    """A location as the contract takes it: "spa(nc)" -> "spa/nc", godip "gol" -> "lyo"."""
    text = text.strip().lower().replace("(", "/").replace(")", "")
    province, _, coast = text.partition("/")
    province = GODIP_NAMES.get(province, province)
    return f"{province}/{coast}" if coast else province


def province(text: str) -> str:
    """The province of a location, without its coast."""
    return location(text).partition("/")[0]


def _unit_type(tokens: list[str]) -> str:
    if tokens and tokens[0].upper() in ("A", "F"):
        return tokens.pop(0).upper()
    return ""


def parse_order(text: str) -> Order:
    """Parse an order in teddriggs or jDip notation (``A lvp -> edi``, ``F nth-pic``, ...)."""
    text = text.split("#", 1)[0]
    text = re.sub(r"->|-", " - ", text)
    tokens = text.split()
    words = [token.lower() for token in tokens]
    if words == ["waive"]:
        return Order("waive")
    if words and words[0] in ("build", "remove", "disband"):
        kind = "build" if words[0] == "build" else "remove"
        rest = tokens[1:]
        unit = _unit_type(rest)
        return Order(kind, unit, location(rest[0]))
    unit = _unit_type(tokens)
    here = location(tokens.pop(0))
    words = [token.lower() for token in tokens]
    if not words or words[0] in ("h", "hold", "holds"):
        return Order("hold", unit, here)
    if words[0] in ("build", "builds"):
        return Order("build", unit, here)
    if words[0] in ("disband", "d", "remove"):
        return Order("remove", unit, here)
    if words[0] == "-":
        via_convoy = words[-2:] == ["via", "convoy"]
        return Order("move", unit, here, location(tokens[1]), via_convoy=via_convoy)
    if words[0] in ("s", "support", "supports", "c", "convoy", "convoys"):
        kind = "support" if words[0].startswith("s") else "convoy"
        rest = tokens[1:]
        other_unit = _unit_type(rest)
        other = location(rest[0])
        target = location(rest[2]) if len(rest) >= 3 and rest[1] == "-" else ""
        return Order(kind, unit, here, target, other_unit=other_unit, other_location=other)
    raise ValueError(f"cannot parse order {text!r}")


def write_order(order: Order, phase_type: str, units: dict[str, str]) -> str:
    """Write an order in the contract's notation for a phase of the given type.

    ``units`` maps provinces to unit types; it fills in a unit type the source left out
    (teddriggs "F nth convoys yor -> yor", godip "Remove par").
    """
    unit = (
        order.unit
        or units.get(province(order.location))
        or ("F" if province(order.location) in SEAS else "A")
    )
    if order.kind == "waive":
        return "Waive"
    if order.kind == "build":
        return f"Build {unit} {order.location}"
    if order.kind == "remove":
        if phase_type == "retreats":
            return f"{unit} {order.location} D"
        return f"Remove {unit} {order.location}"
    if order.kind == "hold":
        return f"{unit} {order.location} H"
    if order.kind == "move":
        if phase_type == "retreats":
            return f"{unit} {order.location} R {order.target}"
        via = " via Convoy" if order.via_convoy else ""
        return f"{unit} {order.location} - {order.target}{via}"
    if order.kind == "convoy":
        other_unit = order.other_unit or "A"  # the sources leave it out; only armies sail
    else:
        other_unit = order.other_unit or units.get(province(order.other_location)) or "A"
    text = f"{unit} {order.location} {order.kind[0].upper()} {other_unit} {order.other_location}"
    return f"{text} - {order.target}" if order.target else text


def _unit_entry(power: str, unit: str, where: str) -> dict:
    return {"power": power, "unit": unit, "location": where}


def _unit_map(units: list[dict]) -> dict[str, str]:
    return {province(u["location"]): u["unit"] for u in units}


# ---------------------------------------------------------------------------------------------
# teddriggs (DATC 3.0, JSON)


def _split_key(key: str) -> tuple[str, str]:
    """ "ENG: F nth -> pic" -> ("England", "F nth -> pic")."""
    power, _, text = key.partition(":")
    return POWERS[power.strip()], text.strip()


def _position(entry: str) -> Unit:
    """ "RUS: F stp(nc)" -> ("Russia", "F", "stp/nc")."""
    power, text = _split_key(entry)
    unit, where = text.split()
    return power, unit, location(where)


def _teddriggs_units(starting: list[str], orders: dict) -> list[dict]:
    """Starting-state units, then the unit of every order in a province nobody holds yet."""
    units = [_unit_entry(*_position(entry)) for entry in starting]
    taken = {province(u["location"]) for u in units}
    for key in orders:
        power, text = _split_key(key)
        order = parse_order(text)
        if order.kind in ("build", "remove", "waive") or province(order.location) in taken:
            continue
        units.append(_unit_entry(power, order.unit or "A", order.location))
        taken.add(province(order.location))
    return units


def _teddriggs_orders(orders: dict, phase_type: str, units: list[dict]) -> tuple[list, list]:
    unit_types = _unit_map(units)
    request_orders, expect = [], []
    for key, expected in orders.items():
        power, text = _split_key(key)
        order_text = write_order(parse_order(text), phase_type, unit_types)
        request_orders.append({"power": power, "order": order_text})
        expect.append(expected)
    return request_orders, expect


def _build_centers(starting: list[str], occupiers: dict[str, str]) -> dict[str, list[str]]:
    """Home centres to their powers, then centres under a starting unit, then ``occupiers``."""
    owner = {center: power for power, centers in HOME_CENTERS.items() for center in centers}
    for entry in starting:
        power, _, where = _position(entry)
        if province(where) in SUPPLY_CENTERS:
            owner[province(where)] = power
    for center, power in occupiers.items():
        owner[province(center)] = POWERS[power]
    centers: dict[str, list[str]] = {power: [] for power in HOME_CENTERS}
    for center, power in sorted(owner.items()):
        centers[power].append(center)
    return centers


def _teddriggs_steps(entry: dict) -> list[Step]:
    phase = entry["phase"]
    starting = entry.get("starting_state", [])
    if phase == "Main":
        units = _teddriggs_units(starting, entry["orders"])
        orders, expect = _teddriggs_orders(entry["orders"], "movement", units)
        request = {"variant": VARIANT, "phase": dict(MOVEMENT), "units": units, "orders": orders}
        return [Step(request, expect)]
    if phase == "Retreat":
        main = entry["preceding_main_phase"]
        units = _teddriggs_units(main.get("starting_state", []), main["orders"])
        orders, expect = _teddriggs_orders(main["orders"], "movement", units)
        first = {"variant": VARIANT, "phase": dict(FALL_MOVEMENT), "units": units, "orders": orders}
        orders, retreat_expect = _teddriggs_orders(entry["orders"], "retreats", units)
        second = {"variant": VARIANT, "phase": dict(RETREATS), "orders": orders}
        return [Step(first, expect), Step(second, retreat_expect, carry_over=True)]
    if phase == "Build":
        units = [_unit_entry(*_position(e)) for e in starting]
        orders, expect = _teddriggs_orders(entry["orders"], "adjustments", units)
        request = {
            "variant": VARIANT,
            "phase": dict(ADJUSTMENTS),
            "units": units,
            "supply_centers": _build_centers(starting, entry.get("occupiers", {})),
            "orders": orders,
        }
        disorder = None
        if "civil_disorder" in entry:
            disorder = frozenset(_position(e) for e in entry["civil_disorder"])
        return [Step(request, expect, civil_disorder=disorder)]
    raise ValueError(f"unknown teddriggs phase {phase!r}")


def _pick_editions(entries: list[dict]) -> list[dict]:
    """Keep the entries of the most preferred rule edition present for one case id."""
    present = {e.get("edition") for e in entries}
    best = next(edition for edition in EDITION_PREFERENCE if edition in present)
    return [e for e in entries if e.get("edition") == best]


def teddriggs_cases(path: Path = TEDDRIGGS_FILE) -> list[Case]:
    """Every DATC 3.0 case of the teddriggs transcription, as contract steps."""
    entries = json.loads(path.read_text(encoding="utf-8"))["cases"]
    by_id: dict[str, list[dict]] = {}
    for entry in entries:
        by_id.setdefault(entry["url"].rsplit("#", 1)[1], []).append(entry)
    cases = []
    for datc_id, group in by_id.items():
        for number, entry in enumerate(_pick_editions(group), start=1):
            case_id = f"teddriggs:{datc_id}" + (f"-{number}" if number > 1 else "")
            if datc_id in REBUILT:
                entry = {**entry, **REBUILT[datc_id]}
            orders = dict(entry["orders"])
            for key, (expected, _reason) in OVERRIDES.get(case_id, {}).items():
                if key not in orders:
                    raise KeyError(f"override for {case_id} names unknown order {key!r}")
                orders[key] = expected
            entry = {**entry, "orders": orders}
            cases.append(Case(case_id, entry["name"], _teddriggs_steps(entry)))
    return cases


# ---------------------------------------------------------------------------------------------
# godip (DATC 2.4, jDip text)

PHASES = {
    ("spring", "movement"): MOVEMENT,
    ("spring", "retreat"): {"season": "spring", "year": 1901, "type": "retreats"},
    ("fall", "movement"): FALL_MOVEMENT,
    ("fall", "retreat"): RETREATS,
    ("fall", "adjustment"): ADJUSTMENTS,
}


def _godip_line(line: str) -> tuple[str, str]:
    """ "Germnay: A wal SUPPORTS F lon-yor" -> ("Germany", "A wal SUPPORTS F lon-yor").

    The colon is optional: 6.B.6 writes "Italy F gol".
    """
    match = re.fullmatch(r"(\w+)\s*:?\s*(.*)", line.strip())
    if not match:
        raise ValueError(f"cannot read {line!r}")
    power, text = match.groups()
    return POWER_TYPOS.get(power, power), text.strip()


def _godip_unit(line: str) -> Unit:
    power, text = _godip_line(line)
    unit, where = text.split()
    return power, unit.upper(), location(where)


def _godip_blocks(path: Path) -> list[tuple[str, dict[str, list[str]]]]:
    """Split the file into (case id, {keyword: lines}) with comments and blank lines removed."""
    cases: list[tuple[str, dict[str, list[str]]]] = []
    blocks: dict[str, list[str]] = {}
    current = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line and blocks and list(blocks)[-1] == "POSTSTATE_DISLODGED":
            # A dislodged unit with nowhere to go is commented out and marked "destroyed";
            # the contract still reports it as dislodged (with no retreats).
            body = raw.strip().lstrip("#").split("#", 1)[0].split("--", 1)[0].strip()
            if "destroy" in raw.lower() and re.fullmatch(
                r"\w+:\s+[AF]\s+[a-z]{3}(/[a-z]{2})?", body
            ):
                line = body
        if not line:
            continue
        keyword, _, rest = line.partition(" ")
        if keyword == "CASE":
            current = rest.split()[0].rstrip(".")
            blocks = {}
        elif keyword == "END":
            cases.append((current, blocks))
        elif keyword == "VARIANT_ALL":
            if rest.strip().lower() != "standard":
                raise ValueError(f"unexpected variant {rest!r}")
        elif keyword == "PRESTATE_SETPHASE":
            blocks[keyword] = [rest.strip()]
        elif keyword.isupper() and keyword.startswith(("PRESTATE", "POSTSTATE", "ORDERS")):
            blocks.setdefault(keyword, [])
        elif current and blocks:
            # a line within the section opened last
            section = list(blocks)[-1]
            blocks[section].append(line)
        else:
            raise ValueError(f"unexpected line {raw!r}")
    return cases


def _godip_retreat_setup(blocks: dict[str, list[str]], units: list[dict]) -> tuple[list, list]:
    """Dislodged units and contested provinces of a retreat phase from PRESTATE_RESULTS.

    The dislodged units are those of PRESTATE_DISLODGED, plus any unit of the results that
    stayed where a successful move arrived (6.H.15 lists its dislodged fleet only there). A
    unit's attacker is the successful move into its province; a convoyed attacker is given as
    ``attacker_from: None``, since the unit may then retreat to where the attacker came from.
    A province is contested when two or more moves into it failed and it was left empty.
    """
    results = []
    for line in blocks.get("PRESTATE_RESULTS", []):
        outcome, _, rest = line.partition(":")
        power, text = _godip_line(rest)
        results.append((outcome.strip() == "SUCCESS", power, parse_order(text)))
    arrivals = {province(o.target): o for ok, _p, o in results if ok and o.kind == "move"}
    positions = [_godip_unit(line) for line in blocks.get("PRESTATE_DISLODGED", [])]
    for ok, power, order in results:
        stayed = not (ok and order.kind == "move")
        listed = {province(where) for _p, _u, where in positions}
        if stayed and province(order.location) in set(arrivals) - listed:
            positions.append((power, order.unit or "A", order.location))
    dislodged = []
    for power, unit, where in positions:
        attacker = arrivals.get(province(where))
        attacker_from = None
        if attacker is not None and not attacker.via_convoy:
            attacker_from = province(attacker.location)
        dislodged.append({**_unit_entry(power, unit, where), "attacker_from": attacker_from})
    occupied = {province(u["location"]) for u in units}
    failed: dict[str, int] = {}
    for ok, _power, order in results:
        if order.kind == "move" and not ok:
            failed[province(order.target)] = failed.get(province(order.target), 0) + 1
    contested = sorted(p for p, count in failed.items() if count >= 2 and p not in occupied)
    return dislodged, contested


def _godip_case(case_id: str, blocks: dict[str, list[str]]) -> Case:
    setphase = blocks.get("PRESTATE_SETPHASE", ["Spring 1901, Movement"])[0]
    match = re.fullmatch(r"(\w+)\s+(\d+),\s*(\w+)", setphase)
    if not match:
        raise ValueError(f"{case_id}: cannot read phase {setphase!r}")
    season, year, kind = match.group(1).lower(), int(match.group(2)), match.group(3).lower()
    phase = dict(PHASES[(season, kind)], year=year)
    units = [_unit_entry(*_godip_unit(line)) for line in blocks.get("PRESTATE", [])]
    request: dict = {"variant": VARIANT, "phase": phase, "units": units}
    if "PRESTATE_SUPPLYCENTER_OWNERS" in blocks:
        # the listed centres are all the owned ones; the unit written with each is ignored
        centers: dict[str, list[str]] = {power: [] for power in HOME_CENTERS}
        for line in blocks["PRESTATE_SUPPLYCENTER_OWNERS"]:
            power, _unit, where = _godip_unit(line)
            centers[power].append(province(where))
        request["supply_centers"] = centers
    if phase["type"] == "retreats":
        request["dislodged"], request["contested"] = _godip_retreat_setup(blocks, units)
    unit_types = _unit_map(units + request.get("dislodged", []))
    orders = []
    for line in blocks.get("ORDERS", []):
        power, text = _godip_line(line)
        orders.append(
            {"power": power, "order": write_order(parse_order(text), phase["type"], unit_types)}
        )
    request["orders"] = orders
    if "POSTSTATE_SAME" in blocks:
        expected_units = frozenset((u["power"], u["unit"], u["location"]) for u in units)
        expected_dislodged: frozenset[Unit] = frozenset()
    else:
        expected_units = frozenset(_godip_unit(line) for line in blocks.get("POSTSTATE", []))
        expected_dislodged = frozenset(
            [_godip_unit(line) for line in blocks.get("POSTSTATE_DISLODGED", [])]
            + [_godip_unit(line) for line in GODIP_DESTROYED.get(case_id, [])]
        )
    step = Step(request, [None] * len(orders), units=expected_units, dislodged=expected_dislodged)
    return Case(f"godip:{case_id}", case_id, [step])


# Dislodged units the godip file mentions only in free-text comments ("has no retreats, and is
# destroyed"); the contract reports them as dislodged with no retreats.
GODIP_DESTROYED = {"6.D.34": ["Italy: A pru"]}


def godip_cases(path: Path = GODIP_FILE) -> list[Case]:
    """Every DATC 2.4 case of the godip/jDip file, as one contract step each."""
    cases = []
    seen: dict[str, int] = {}
    for case_id, blocks in _godip_blocks(path):
        seen[case_id] = seen.get(case_id, 0) + 1
        suffix = f"-{seen[case_id]}" if seen[case_id] > 1 else ""
        cases.append(_godip_case(case_id + suffix, blocks))
    return cases


# ---------------------------------------------------------------------------------------------
# Names, for comparing expectations with responses.


def normalise(name: str) -> str:
    """Lowercase, without spaces, dots, hyphens or apostrophes: how the variant matches names."""
    return re.sub(r"[\s.\-']", "", name.lower())


@cache
def _variant_names() -> tuple[dict[str, str], dict[str, str]]:
    variant = json.loads(VARIANT_FILE.read_text(encoding="utf-8"))
    provinces: dict[str, str] = {}
    for item in variant["provinces"]:
        for name in [item["name"], item["abbreviation"], *item.get("aliases", [])]:
            provinces[normalise(name)] = item["name"]
    powers: dict[str, str] = {}
    for item in variant["powers"]:
        for name in [item["name"], item["abbreviation"]]:
            powers[normalise(name)] = item["name"]
    return provinces, powers


def known_province(name: str) -> bool:
    """Whether the standard variant knows this province (coast ignored)."""
    return normalise(location(name).partition("/")[0]) in _variant_names()[0]


def canonical_location(name: str) -> str:
    """ "spa(nc)", "spa/nc", "Spain (North Coast)" -> "Spain/nc"; "lvp" -> "Liverpool"."""
    text = name.strip()
    coast = ""
    match = re.fullmatch(r"(.+?)\s*[(/]\s*([a-zA-Z ]+?)\s*\)?", text)
    if match:
        text, coast = match.group(1), match.group(2).lower()
        coast = {
            "north coast": "nc",
            "south coast": "sc",
            "east coast": "ec",
            "west coast": "wc",
        }.get(coast, coast)
    key = normalise(text)
    key = GODIP_NAMES.get(key, key)
    full = _variant_names()[0].get(key, text)
    return f"{full}/{coast}" if coast else full


def canonical_power(name: str) -> str:
    """ "RUS", "russia" -> "Russia"."""
    return _variant_names()[1].get(normalise(name), name)


def canonical_units(units) -> frozenset[Unit]:
    """A set of (power, unit, canonical location) from tuples or contract unit dicts."""
    result = set()
    for unit in units or []:
        if isinstance(unit, dict):
            unit = (unit["power"], unit["unit"], unit["location"])
        power, kind, where = unit
        result.add((canonical_power(power), kind.upper(), canonical_location(where)))
    return frozenset(result)
