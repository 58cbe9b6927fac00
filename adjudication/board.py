"""The position a request describes: phase, units, centre ownership, pending retreats.

Reading a request is where malformed input is caught. Anything wrong here is the caller's
mistake (exit status 2), unlike an illegal order, which is a player's and gets a normal answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from .readonly import ReplyData
from .variant import Variant, VariantError, available, load, province_of

TYPE_CHECKING = False  # not typing's: importing typing costs start-up time
if TYPE_CHECKING:
    from typing import Final

SEASONS: Final = ("spring", "summer", "fall", "autumn", "winter", "year")
PHASE_TYPES: Final = ("movement", "retreats", "adjustments")


class RequestError(ValueError):
    """A malformed request. ``details`` lists the individual problems."""

    def __init__(self, message: str, details: list | None = None) -> None:
        super().__init__(message)
        self.details = details or []


@dataclass(slots=True)
class Unit:
    power: str
    kind: str  # "A" or "F"
    location: str  # canonical, with coast for fleets on split provinces
    province: str
    # Its answer form, made once: a unit is shared between phases and never changes.
    shared_json: ReplyData | None = field(default=None, compare=False, repr=False)
    # Its label, made on first use: reasons name the same units phase after phase, and one
    # text (its hash kept) is cheaper to look a reason up by than a new one each time.
    named: str | None = field(default=None, compare=False, repr=False)

    def label(self) -> str:
        """``A Paris``: the unit as reasons name it."""
        named = self.named
        if named is None:
            named = self.named = f"{self.kind} {self.location}"
        return named

    def as_json(self) -> dict:
        return {"power": self.power, "unit": self.kind, "location": self.location}

    def share_json(self) -> ReplyData:
        self.shared_json = shared = ReplyData(self.as_json())
        return shared


def units_json(units: list[Unit]) -> list[dict]:
    """Every unit in its answer form: one read-only dict per unit, shared by the answers that
    carry it (``ReplyData``), and so written as JSON once by the batch (``answer_json``)."""
    return [u.shared_json or u.share_json() for u in units]


@lru_cache(maxsize=8192)
def _moved_unit(power: str, kind: str, location: str) -> Unit:
    return Unit(power, kind, location, province_of(location))


def moved_unit(unit: Unit, location: str) -> Unit:
    """The unit at the place it moved to; shared between phases like ``_checked_unit``."""
    return _moved_unit(unit.power, unit.kind, location)


@dataclass(slots=True)
class Dislodged:
    unit: Unit
    attacker_from: str | None
    via_convoy: bool = False


@dataclass
class Board:
    variant: Variant
    season: str
    year: int
    phase_type: str
    units: list[Unit]
    centres: dict[str, str]  # province -> owning power
    dislodged: list[Dislodged] = field(default_factory=list)
    contested: set[str] = field(default_factory=set)
    options: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)  # plug-in state carried in the request

    @property
    def phase(self) -> dict:
        return {"season": self.season, "year": self.year, "type": self.phase_type}


def read(request: object) -> tuple[Board, list]:
    """Turn a request into a Board and its raw order entries, or raise RequestError."""
    if not isinstance(request, dict):
        raise RequestError("the request must be a JSON object")
    variant_id = request.get("variant")
    if not isinstance(variant_id, str):
        raise RequestError('the request must name its variant, e.g. "variant": "standard"')
    try:
        variant = load(variant_id)
    except VariantError as e:
        known = ", ".join(available())
        raise RequestError(f"{e}; known variants: {known}") from None
    season, year, phase_type = _phase(variant, request.get("phase"))
    units = _units(variant, request.get("units", []))
    centres = _centres(variant, request.get("supply_centers"), units)
    board = Board(variant, season, year, phase_type, units, centres)
    options = request.get("options", {})
    if not isinstance(options, dict):
        raise RequestError("options must be a JSON object")
    if options:  # as a server checks them when a game is set up: true is no number of centres
        from .game_options import option_problems

        problems = option_problems(variant.id, options)
        if problems:
            raise RequestError("; ".join(problems), [{"options": options}])
    board.options = options
    if phase_type == "retreats":
        board.dislodged = _dislodged(variant, request.get("dislodged", []))
        board.contested = {_province(variant, p, "contested") for p in _list(request, "contested")}
    orders = request.get("orders", [])
    if not isinstance(orders, list):
        raise RequestError('orders must be a list of {"power": ..., "order": ...}')
    for rule in variant.plugins:
        rule.read_request(board, request)
    return board, orders


def _phase(variant: Variant, phase: object) -> tuple[str, int, str]:
    if phase is None:
        return variant.seasons[0], variant.start_year, "movement"
    if not isinstance(phase, dict):
        raise RequestError(
            'phase must be an object like {"season": "spring", "year": 1901, "type": "movement"}'
        )
    season = str(phase.get("season", variant.seasons[0])).lower()
    if season == "autumn":
        season = "fall"
    if season not in variant.seasons:
        # Winter holds the adjustments, where the variant has them (Chinese Diplomacy: not).
        adjusting = all(
            p.PHASE_TYPES is None or "adjustments" in p.PHASE_TYPES for p in variant.plugins
        )
        if season != "winter" or not adjusting:
            known = ", ".join([*variant.seasons, "winter"] if adjusting else variant.seasons)
            raise RequestError(f"unknown season {phase.get('season')!r}; this variant has {known}")
    year = phase.get("year", variant.start_year)
    if not isinstance(year, int) or isinstance(year, bool):
        raise RequestError(f"the year must be a whole number, not {year!r}")
    phase_type = str(phase.get("type", "movement")).lower()
    if phase_type not in PHASE_TYPES:
        raise RequestError(
            f"unknown phase type {phase.get('type')!r}; use movement, retreats or adjustments"
        )
    _check_pair(variant, season, phase_type)
    return season, year, phase_type


def _check_pair(variant: Variant, season: str, phase_type: str) -> None:
    """Refuse a season and type that never go together: adjustments come in winter and winter
    holds nothing else; a rule plug-in may allow fewer types (``PHASE_TYPES``)."""
    if (phase_type == "adjustments") != (season == "winter"):
        if season == "winter":
            raise RequestError(f"winter holds only adjustments, not a {phase_type} phase")
        raise RequestError(f"adjustments come in winter, not in {season}")
    for plugin in variant.plugins:
        allowed = plugin.PHASE_TYPES
        if allowed is not None and phase_type not in allowed:
            only = " or ".join(allowed)
            raise RequestError(f"{variant.name} has only {only} phases, not {phase_type}")


def _list(request: dict, key: str) -> list:
    value = request.get(key, [])
    if value is None:
        return []
    if not isinstance(value, list):
        raise RequestError(f"{key} must be a list")
    return value


def location(variant: Variant, text: object, what: str = "unit") -> str:
    """Canonical location for a name in a request, or RequestError."""
    if not isinstance(text, str) or not text.strip():
        raise RequestError(f"a {what} has no location")
    found = variant.lookup(text)
    if found is None:
        found = variant.lookup(text.replace("(", "/").replace(")", ""))
    if found is None:
        raise RequestError(f"unknown province {text!r} in {what}", [{"location": text}])
    return found


def _province(variant: Variant, text: object, what: str) -> str:
    return province_of(location(variant, text, what))


def _power(variant: Variant, text: object) -> str:
    power = variant.power(text) if isinstance(text, str) else None
    if power is None:
        known = ", ".join(variant.powers)
        raise RequestError(f"unknown power {text!r}; this variant has {known}", [{"power": text}])
    return power


def _unit(variant: Variant, entry: object, what: str = "unit") -> Unit:
    if not isinstance(entry, dict):
        raise RequestError(f"each {what} must be an object with power, unit and location")
    power, kind, where = entry.get("power"), entry.get("unit"), entry.get("location")
    try:
        return _checked_unit(variant, power, kind, where, what)
    except TypeError:  # unhashable junk in the request: check it the long way
        return Unit(*_check_unit(variant, power, kind, where, what))


_known_units: Final[dict[Variant, dict[str, list[tuple[str, str, Unit]]]]] = {}


@lru_cache(maxsize=8192)
def _checked_unit(variant: Variant, power, kind, where, what: str) -> Unit:
    """The validated unit, cached as positions repeat every phase. Units are never changed
    after reading, so one Unit may stand in many boards."""
    return Unit(*_check_unit(variant, power, kind, where, what))


def _check_unit(variant: Variant, power, kind, where, what: str) -> tuple[str, str, str, str]:
    entry = {"power": power, "unit": kind, "location": where}
    power = _power(variant, power)
    kind = str(entry.get("unit", "")).upper()[:1]
    if kind not in ("A", "F"):
        raise RequestError(f"unit kind {entry.get('unit')!r} must be A (army) or F (fleet)")
    loc = location(variant, entry.get("location"), what)
    province = variant.provinces[province_of(loc)]
    if kind == "F" and province.coasts and "/" not in loc:
        coasts = " or ".join(f"{loc}/{c}" for c in province.coasts)
        raise RequestError(f"a fleet in {loc} must name its coast: {coasts}")
    if kind == "A" and "/" in loc:
        loc = province_of(loc)
    if not variant.can_stand(kind, loc):
        terrain = "a sea" if province.is_sea else "inland"
        noun = "an army" if kind == "A" else "a fleet"
        raise RequestError(f"{noun} cannot stand in {loc} ({terrain})", [entry])
    return power, kind, loc, province_of(loc)


def _units(variant: Variant, entries: object) -> list[Unit]:
    if not isinstance(entries, list):
        raise RequestError("units must be a list")
    # The units read before, by location as the request writes it, each with its power and
    # unit as written: a dict read and a few compares of text instead of a call and a cached
    # check (a few per cent of reading a request). Keyed by the location alone, the power's and
    # the unit's text are never hashed (a tuple of the three hashed each anew: a request's
    # text is all new).
    known = _known_units.get(variant)
    if known is None or len(known) >= 8192:  # locations as written: a few spellings of each
        known = _known_units[variant] = {}
    units = []
    for entry in entries:
        unit = None
        power = kind = where = ""  # text, as checked below: compared natively, compiled
        if type(entry) is dict or type(entry) is ReplyData:  # ReplyData: an answer's unit
            p, k, w = entry.get("power"), entry.get("unit"), entry.get("location")
            if type(p) is str and type(k) is str and type(w) is str:
                power, kind, where = p, k, w
                here = known.get(where)
                if here is not None:
                    for known_power, known_kind, known_unit in here:
                        if known_power == power and known_kind == kind:
                            unit = known_unit
                            break
        if unit is None:
            unit = _unit(variant, entry)
            if where:
                here = known.setdefault(where, [])
                if len(here) < 32:
                    here.append((power, kind, unit))
        units.append(unit)
    if len({u.province for u in units}) == len(units):
        return units  # one unit per province: the usual case
    seen: dict[str, Unit] = {}
    for u in units:
        if u.province in seen and u.province not in variant.stacking:
            other = seen[u.province]
            both = f"{other.power} {other.label()} and {u.power} {u.label()}"
            raise RequestError(
                f"two units in {u.province}: {both}",
                [other.as_json(), u.as_json()],
            )
        seen[u.province] = u
    return units


def _centres(variant: Variant, owners: object, units: list[Unit]) -> dict[str, str]:
    if owners is None:
        return dict(_home_centres(variant))
    if not isinstance(owners, dict):
        raise RequestError("supply_centers must map each power to a list of centres")
    centres: dict[str, str] = {}
    for power_name, provinces in owners.items():
        power = _power(variant, power_name)
        if not isinstance(provinces, list):
            raise RequestError(f"supply_centers of {power} must be a list")
        for text in provinces:
            province = _province(variant, text, "supply centre")
            if not variant.provinces[province].supply_center:
                raise RequestError(f"{province} is not a supply centre", [{"province": province}])
            if province in centres and centres[province] != power:
                raise RequestError(
                    f"{province} is listed as owned by both {centres[province]} and {power}"
                )
            centres[province] = power
    return centres


@lru_cache(maxsize=16)
def _home_centres(variant: Variant) -> dict[str, str]:
    """Every home centre owned by its power: the default ownership (callers copy it)."""
    return {c: p for p, power in variant.powers.items() for c in power.home_centers}


def _dislodged(variant: Variant, entries: object) -> list[Dislodged]:
    if entries is None:
        return []
    if not isinstance(entries, list):
        raise RequestError("dislodged must be a list")
    result = []
    for entry in entries:
        unit = _unit(variant, entry, "dislodged unit")
        attacker = entry.get("attacker_from")
        attacker = _province(variant, attacker, "attacker_from") if attacker else None
        result.append(Dislodged(unit, attacker, bool(entry.get("via_convoy", False))))
    return result
