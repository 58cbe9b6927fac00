"""The board a variant is played on: provinces, coasts, borders, powers and calendar.

A variant is a data document registered with the engine (``registry``), with the rule objects
its ``rules`` list names. Loading builds the lookup tables the adjudicator needs on every
order (adjacency per unit kind, name matching) once, and rejects a broken document with a
message that names the broken entry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from itertools import pairwise

from . import registry
from .registry import Rule, VariantSource

TYPE_CHECKING = False  # not typing's: importing typing costs start-up time
if TYPE_CHECKING:
    from typing import Final

COAST_NAMES: Final = {
    "nc": "North Coast",
    "sc": "South Coast",
    "ec": "East Coast",
    "wc": "West Coast",
}
PROVINCE_TYPES: Final = ("land", "coast", "sea")
_NORMALISE: Final = re.compile(r"[^a-z0-9]+")
_NAME_WORD: Final = re.compile(r"[a-z0-9.']+|-")
_ONE_WORD: Final = re.compile(r"[A-Za-z0-9]+")
# A dot or an apostrophe inside a word ("and.s"): such a word is one name's spelling, or the
# parser parts it (``orders._parted``).
INNER_DOT: Final = re.compile(r"[.'][a-z0-9]")


class VariantError(ValueError):
    """A variant file is inconsistent; the message names the entry at fault."""


def normalise(name: str) -> str:
    """Key of one word, or of a name run together as one word: only letters and digits count.

    Orders and ``lookup`` match names word by word (``name_keys``), so the key of a whole name
    never joins words the player wrote apart.
    """
    return _NORMALISE.sub("", name.lower())


@cache
def province_of(location: str) -> str:
    """``Spain/nc`` -> ``Spain`` (cached: it is called a few hundred times a phase)."""
    return location.split("/", 1)[0]


# Every location of the variants loaded -> its province (``province_of``), for the resolver,
# which reads it about 80 times a phase about locations of its own map: a read of a plain
# dict costs a fraction of a call to the cached function.
PROVINCE_OF: Final[dict[str, str]] = {}


@dataclass(eq=False)
class Province:
    name: str
    abbreviation: str
    type: str
    supply_center: bool = False
    coasts: tuple[str, ...] = ()
    not_a_center_for: frozenset[str] = frozenset()
    flags: frozenset[str] = frozenset()

    @property
    def is_sea(self) -> bool:
        return self.type == "sea"

    @property
    def is_land(self) -> bool:
        return self.type == "land"


@dataclass(eq=False)
class Power:
    name: str
    abbreviation: str
    home_centers: tuple[str, ...]
    playable: bool = True  # False for sides the server moves itself (Chinese factions)
    adjective: str = ""  # "British": whose unit a support may name (``S British F Red Sea``)


@dataclass(eq=False)
class Variant:
    """A loaded, validated variant with the tables the engine reads."""

    id: str
    name: str
    powers: dict[str, Power]
    provinces: dict[str, Province]
    start_year: int
    seasons: tuple[str, ...]
    season_names: dict[str, str]
    adjustments_after: str
    victory_centers: int
    starting_units: list[dict]
    rules: tuple[str, ...]
    rule_data: dict
    raw: dict = field(repr=False)
    # Derived tables.
    army_adj: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)
    fleet_adj: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)
    fleet_reach: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)
    # Provinces a fleet at a location (coast included) can move to: the supporting test.
    fleet_provinces: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)
    # Supply centre -> powers it does not count for; read at every centre count.
    centre_exclusions: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)
    names: dict[str, str] = field(default_factory=dict, repr=False)  # one normalised key
    # Names as the words a player writes them (see name_keys); loose forms only as a fallback.
    phrases: dict[tuple[str, ...], str] = field(default_factory=dict, repr=False)
    loose_phrases: dict[tuple[str, ...], str] = field(default_factory=dict, repr=False)
    # The same (coasts as words left out) by first word, longest first: what the parser reads.
    name_starts: dict[str, tuple] = field(default_factory=dict, repr=False)
    # Those of them with no hyphen as second word (``North-Sea``), in the same order: the only
    # ones a name can match when a hyphen does not follow its first word.
    name_starts_plain: dict[str, tuple] = field(default_factory=dict, repr=False)
    loose_starts: dict[str, tuple] = field(default_factory=dict, repr=False)
    # Names whose first word is a point of the compass, that word cut short with its dot
    # (``E. China Sea``): (words, name) by the cut, longest first. A loose form too
    # (``compass_forms``).
    compass_starts: dict[str, tuple] = field(default_factory=dict, repr=False)
    # Spellings that are one word with a dot inside (``and.s``): such a word is read whole; any
    # other word with a dot inside is read as the words the dots part (``st.petersburg``).
    dotted_words: frozenset[str] = frozenset()
    # A first word that starts one name only, and is that whole name: the parser's fast path.
    name_alone: dict[str, str] = field(default_factory=dict, repr=False)
    power_names: dict[str, str] = field(default_factory=dict, repr=False)
    plugins: tuple[Rule, ...] = ()  # the rule objects its ``rules`` list names, in order
    stacking: frozenset[str] = frozenset()  # provinces that may hold several units
    # Every location as a canonical order writes it (``Spain``, ``Spain/nc``), and whether a
    # rule of the variant reads orders of its own: the parser's way in for canonical texts.
    locations: frozenset[str] = frozenset()
    rules_read_orders: bool = False
    centres_in_order: tuple[str, ...] = ()  # the supply centres, sorted by name

    # -- names -------------------------------------------------------------------------

    def lookup(self, text: str) -> str | None:
        """The canonical province or coast the whole text names, or None.

        The words must be the name's own (``Spain (North Coast)``, ``spa/nc``, ``and.s``): two
        abbreviations that happen to spell a name (``SWE DEN``) name nothing.
        """
        if text in self.fleet_adj or text in self.provinces:
            return text  # already canonical: the common case in requests
        words = name_keys(text)
        return self.phrases.get(words) or self.loose_phrases.get(words)

    def power(self, text: str) -> str | None:
        """The power ``text`` names, as an order would name it: any case, its abbreviation or
        adjective, in full-width letters too (``Ｊａｐａｎ``, as Chinese and Japanese keyboards
        type them, which orders read)."""
        if text in self.powers:
            return text
        if not text.isascii():
            from unicodedata import normalize  # only for text outside ASCII

            text = normalize("NFKC", text)
        return self.power_names.get(normalise(text))

    # -- geometry ------------------------------------------------------------------------

    def is_location(self, location: str) -> bool:
        return location in self.provinces or location in self.fleet_adj

    def can_stand(self, kind: str, location: str) -> bool:
        """Whether a unit of this kind may occupy this exact location."""
        province = self.provinces.get(province_of(location))
        if province is None:
            return False
        if kind == "A":
            return "/" not in location and not province.is_sea
        if province.is_land:
            return False
        if province.coasts:
            return "/" in location and location.split("/", 1)[1] in province.coasts
        return "/" not in location

    def fleet_locations(self, province: str) -> list[str]:
        """Where a fleet can stand in a province: its coasts, or the province itself."""
        p = self.provinces[province]
        if p.is_land:
            return []
        if p.coasts:
            return [f"{province}/{c}" for c in p.coasts]
        return [province]

    def is_centre_for(self, province: str, power: str) -> bool:
        excluded = self.centre_exclusions.get(province)
        return excluded is not None and power not in excluded

    @property
    def centres(self) -> list[str]:
        return [name for name, p in self.provinces.items() if p.supply_center]

    @property
    def playable_powers(self) -> list[str]:
        """Powers people play (a variant may have sides the gamesmaster moves)."""
        return [name for name, power in self.powers.items() if power.playable]

    def home_centres(self, power: str) -> tuple[str, ...]:
        return self.powers[power].home_centers

    def describe(self) -> dict:
        """A JSON-ready summary for the server and tools."""
        return {
            "id": self.id,
            "name": self.name,
            "powers": [
                {
                    "name": p.name,
                    "abbreviation": p.abbreviation,
                    "home_centers": list(p.home_centers),
                    "playable": p.playable,
                }
                for p in self.powers.values()
            ],
            "start": {"season": self.seasons[0], "year": self.start_year, "type": "movement"},
            "seasons": list(self.seasons),
            "season_names": dict(self.season_names),
            "victory_centers": self.victory_centers,
            "supply_centers": self.centres,
            "provinces": [
                {
                    "name": p.name,
                    "abbreviation": p.abbreviation,
                    "type": p.type,
                    "supply_center": p.supply_center,
                    "coasts": list(p.coasts),
                }
                for p in self.provinces.values()
            ],
            "starting_units": [dict(u) for u in self.starting_units],
            "rules": list(self.rules),
        }


def available() -> list[str]:
    """Ids of every registered variant."""
    return registry.variant_ids()


def load(variant_id: object) -> Variant:
    """Load and validate a registered variant by id (``standard``, ``colonial``...). An id is
    only ever a key of the registry, never a path."""
    source = registry.variant_source(variant_id) if isinstance(variant_id, str) else None
    if source is None:
        shown = repr(variant_id) if len(repr(variant_id)) <= 40 else repr(variant_id)[:37] + "..."
        problems = "; ".join(f"{k}: {v}" for k, v in registry.discovery_errors.items())
        hint = f" (variant packages that failed to register: {problems})" if problems else ""
        raise VariantError(f"unknown variant {shown}{hint}")
    return _load(source)


@cache
def _load(source: VariantSource) -> Variant:
    """One Variant per registration, built on first use."""
    try:
        data = source.read()
    except (OSError, ValueError) as e:
        raise VariantError(f"variant {source.variant_id!r} cannot be read: {e}") from None
    return build(data)


def build(data: dict) -> Variant:
    """Validate variant data and derive its lookup tables."""
    try:
        variant_id = data["id"]
        provinces = _provinces(data["provinces"])
        powers = _powers(data["powers"], provinces)
        calendar = data["calendar"]
    except KeyError as e:
        raise VariantError(f"variant data is missing {e.args[0]!r}") from None
    variant = Variant(
        id=variant_id,
        name=data.get("name", variant_id),
        powers=powers,
        provinces=provinces,
        start_year=int(calendar["start_year"]),
        seasons=tuple(calendar["seasons"]),
        season_names=dict(calendar.get("season_names", {})),
        adjustments_after=calendar.get("adjustments_after", calendar["seasons"][-1]),
        victory_centers=int(data.get("victory_centers", 0)),
        starting_units=list(data.get("starting_units", [])),
        rules=tuple(data.get("rules", [])),
        rule_data=dict(data.get("rule_data", {})),
        raw=data,
    )
    variant.centre_exclusions = {
        name: p.not_a_center_for for name, p in provinces.items() if p.supply_center
    }
    variant.centres_in_order = tuple(sorted(variant.centre_exclusions))
    _borders(variant, data.get("borders", []))
    _names(variant, data["provinces"])
    _check_units(variant)
    variant.plugins = tuple(_rule(name) for name in variant.rules)
    variant.locations = frozenset(
        location for name in provinces for location in (name, *variant.fleet_locations(name))
    )
    variant.rules_read_orders = any(
        type(rule).parse_order is not Rule.parse_order for rule in variant.plugins
    )
    variant.stacking = frozenset(
        name
        for rule in variant.plugins
        for name in variant.provinces
        if rule.allows_stacking(variant, name)
    )
    return variant


def _provinces(entries: list[dict]) -> dict[str, Province]:
    provinces: dict[str, Province] = {}
    for entry in entries:
        name = entry["name"]
        if name in provinces:
            raise VariantError(f"province {name!r} is listed twice")
        kind = entry.get("type")
        if kind not in PROVINCE_TYPES:
            raise VariantError(f"province {name!r} has unknown type {kind!r}")
        coasts = tuple(entry.get("coasts", ()))
        for c in coasts:
            if c not in COAST_NAMES:
                raise VariantError(f"province {name!r} has unknown coast {c!r}")
        if coasts and kind != "coast":
            raise VariantError(f"province {name!r} has coasts but is not a coastal province")
        provinces[name] = Province(
            name=name,
            abbreviation=entry.get("abbreviation", name[:3].upper()),
            type=kind,
            supply_center=bool(entry.get("supply_center", False)),
            coasts=coasts,
            not_a_center_for=frozenset(entry.get("not_a_center_for", ())),
            flags=frozenset(entry.get("flags", ())),
        )
    return provinces


def _powers(entries: list[dict], provinces: dict[str, Province]) -> dict[str, Power]:
    powers: dict[str, Power] = {}
    for entry in entries:
        name = entry["name"]
        homes = tuple(entry.get("home_centers", ()))
        for home in homes:
            if home not in provinces:
                raise VariantError(f"home centre {home!r} of {name} is not a province")
            if not provinces[home].supply_center:
                raise VariantError(f"home centre {home!r} of {name} is not a supply centre")
        powers[name] = Power(
            name=name,
            abbreviation=entry.get("abbreviation", ""),
            home_centers=homes,
            playable=not entry.get("faction", False),
            adjective=entry.get("adjective", ""),
        )
    return powers


def _borders(variant: Variant, borders: list) -> None:
    provinces = variant.provinces
    fleet_nodes = {loc for name in provinces for loc in variant.fleet_locations(name)}
    army: dict[str, set[str]] = {name: set() for name, p in provinces.items() if not p.is_sea}
    fleet: dict[str, set[str]] = {node: set() for node in fleet_nodes}
    seen: set[tuple[frozenset[str], str]] = set()
    for border in borders:
        if len(border) != 3 or not border[2] or set(border[2]) - {"A", "F"}:
            raise VariantError(f"border {border!r} must be [a, b, kinds] with kinds A, F or AF")
        a, b, kinds = border
        for end in (a, b):
            if province_of(end) not in provinces:
                raise VariantError(f"border {a} - {b} names unknown province {end!r}")
        if a == b:
            raise VariantError(f"border {a} - {b} joins a province to itself")
        key = frozenset((a, b))
        for kind in kinds:
            if (key, kind) in seen:
                raise VariantError(f"border {a} - {b} is listed twice")
            seen.add((key, kind))
            if kind == "A":
                for end in (a, b):
                    if end not in army:
                        raise VariantError(f"army border {a} - {b}: {end!r} cannot hold an army")
                army[a].add(b)
                army[b].add(a)
            else:
                for end in (a, b):
                    if end not in fleet:
                        raise VariantError(f"fleet border {a} - {b}: {end!r} cannot hold a fleet")
                fleet[a].add(b)
                fleet[b].add(a)
    variant.army_adj = {k: frozenset(v) for k, v in army.items()}
    variant.fleet_adj = {k: frozenset(v) for k, v in fleet.items()}
    variant.fleet_provinces = {k: frozenset(province_of(n) for n in v) for k, v in fleet.items()}
    reach: dict[str, set[str]] = {}
    for node, neighbours in fleet.items():
        reach.setdefault(province_of(node), set()).update(province_of(n) for n in neighbours)
    variant.fleet_reach = {k: frozenset(v) for k, v in reach.items()}
    for name in provinces:
        PROVINCE_OF[name] = name
    for node in fleet_nodes:
        PROVINCE_OF[node] = province_of(node)


def name_keys(text: str) -> tuple[str, ...]:
    """The words of a name as matching keys, a hyphen kept as its own word.

    Case, dots and other punctuation do not matter inside a word; a space or a hyphen between
    words does: ``SWE DEN`` is two words and never spells Sweden.
    """
    keys = []
    for word in _NAME_WORD.findall(text.lower()):
        key = word if word == "-" else normalise(word)
        if key:
            keys.append(key)
    return tuple(keys)


def _spelling_phrases(
    spelling: str, hyphens: frozenset[tuple[str, str]]
) -> tuple[set[tuple[str, ...]], set[tuple[str, ...]], set[tuple[str, ...]]]:
    """How one spelling may be written as separate words: (exact forms, loose forms, forms
    with a hyphen between words the spelling spaces).

    Exact: the spelling's own words. Where the province's name has a hyphen (``hyphens``: the
    word pairs it joins), it may be written as a hyphen, a space or nothing (``Mid-Atlantic``,
    ``Mid Atlantic``, ``MidAtlantic``). Hyphened: the words a space parts written with a
    hyphen between them (``North-Pacific-Ocean``, ``New-Guinea``), which ``_names`` takes as
    exact forms only where the hyphen cannot also be a move between two names. Loose: a word
    with a dot inside (``AND.S``) written as separate words (``And. S.``); the parser takes a
    loose form only with its dots and when no exact reading makes an order.
    """
    if _ONE_WORD.fullmatch(spelling):  # most spellings: "Moscow", "MOS"
        return {(spelling.lower(),)}, set(), set()
    words: list[str] = []
    joints: list[bool] = []  # joints[i]: may words[i] and words[i + 1] be hyphenated or joined
    for chunk in spelling.lower().split():
        for n, part in enumerate(p for p in map(normalise, chunk.split("-")) if p):
            if words:
                joints.append(n > 0 or (words[-1], part) in hyphens)
            words.append(part)
    if not words:
        return set(), set(), set()
    # Each form with whether a hyphen stands where the spelling has a space.
    forms: list[tuple[list[str], bool]] = [([words[0]], False)]
    for word, joint in zip(words[1:], joints, strict=True):
        if joint:
            forms = [
                (grown, spaced)
                for form, spaced in forms
                for grown in ([*form, "-", word], [*form, word], [*form[:-1], form[-1] + word])
            ]
        else:
            forms = [
                grown
                for form, spaced in forms
                for grown in (([*form, word], spaced), ([*form, "-", word], True))
            ]
    exact = {tuple(form) for form, spaced in forms if not spaced}
    hyphened = {tuple(form) for form, spaced in forms if spaced}
    loose = set()
    chunks = [c.strip(".") for c in spelling.lower().split()]
    if any("." in c for c in chunks):
        dotted = tuple(k for c in chunks for k in map(normalise, re.split(r"[.\-]", c)) if k)
        if dotted not in exact:
            loose.add(dotted)
    return exact, loose, hyphened


# The points of the compass as players cut them short in a name, always with a dot: ``N.``,
# ``No.`` or ``Nth.`` Pacific Ocean, ``E.`` China Sea, ``SE.``, ``S.E.`` or ``S. E.`` Indian
# Ocean (where ``S.`` begins the name: after a unit, ``S. E. Indian Ocean`` is a support of
# the East Indian Ocean).
COMPASS_CUTS: Final = {
    "north": ("n", "no", "nth"),
    "south": ("s", "so", "sth"),
    "east": ("e",),
    "west": ("w",),
    "northern": ("n", "no"),
    "southern": ("s", "so"),
    "eastern": ("e",),
    "western": ("w",),
    "northeast": ("ne", "n e"),
    "northwest": ("nw", "n w"),
    "southeast": ("se", "s e"),
    "southwest": ("sw", "s w"),
}


# The points of the compass written as one word, and their halves: ``South-East Indian Ocean``
# and ``South East Indian Ocean`` are the Southeast Indian Ocean.
COMPASS_HALVES: Final = {
    "northeast": ("North", "East"),
    "northwest": ("North", "West"),
    "southeast": ("South", "East"),
    "southwest": ("South", "West"),
}


def compass_halves(name: str) -> tuple[str, str] | None:
    """The halves of the point of the compass written as one word that begins the name
    (``Southeast Indian Ocean``: South, East); None for any other name."""
    return COMPASS_HALVES.get(name.partition(" ")[0].lower())


def _compass_parted(name: str) -> list[str]:
    """A name beginning with a point of the compass written as one word, that word hyphened
    (which reads as spaced and joined too: ``_spelling_phrases``); else nothing."""
    halves = compass_halves(name)
    return [f"{halves[0]}-{halves[1]} {name.partition(' ')[2]}".strip()] if halves else []


def compass_forms(
    phrases: dict[tuple[str, ...], str],
) -> dict[str, tuple[tuple[tuple[str, ...], str], ...]]:
    """The names of several words whose first is a point of the compass, that word cut short
    (``COMPASS_CUTS``), by the cut, longest first; the parser reads them only with the cut's
    dot (``S.`` is a support, ``S. China Sea`` the sea). A cut that might begin another name's
    first word is left out (``N. Sea``: the North Sea or the Norwegian Sea), and so is one that
    is already a name's own form."""
    plain: dict[int, list[tuple[tuple[str, ...], str]]] = {}
    for words, name in phrases.items():
        if "/" not in name:
            kept = tuple(w for w in words if w != "-")
            plain.setdefault(len(kept), []).append((kept, name))
    found: dict[tuple[str, ...], str] = {}
    for words, name in phrases.items():
        cuts = COMPASS_CUTS.get(words[0], ())
        if len(words) < 2 or words[1] == "-" or "/" in name:
            continue
        for cut in cuts:
            parts = tuple(cut.split())  # ``S. E.``: two words, each with its dot
            form = (*parts, *words[1:])
            if form in phrases:
                continue
            rest = tuple(w for w in words[1:] if w != "-")
            others = {
                other
                for kept, other in plain.get(len(parts) + len(rest), ())
                if other != name
                and kept[len(parts) :] == rest
                and all(w.startswith(p) for w, p in zip(kept[: len(parts)], parts, strict=True))
            }
            if not others:
                found[form] = name
    starts: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for form, name in found.items():
        starts.setdefault(form[0], []).append((form, name))
    return {k: tuple(sorted(v, key=lambda e: -len(e[0]))) for k, v in starts.items()}


def _hyphens(name: str) -> frozenset[tuple[str, str]]:
    """The word pairs a hyphen joins in a province's name: ``Mid-Atlantic`` -> (mid, atlantic)."""
    pairs: set[tuple[str, str]] = set()
    for chunk in name.lower().split():
        parts = [p for p in map(normalise, chunk.split("-")) if p]
        pairs.update(pairwise(parts))
    return frozenset(pairs)


def _starts(
    table: dict[tuple[str, ...], str],
) -> dict[str, tuple[tuple[tuple[str, ...], str], ...]]:
    """The phrases by their first word, longest first, for a parser reading word by word.

    A coast written as words of its own (``spa nc``) is left out: the parser reads the coast
    after the name, in all its notations, so each reading is found once.
    """
    starts: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for words, name in table.items():
        if len(words) == 1 or "/" not in name:
            starts.setdefault(words[0], []).append((words, name))
    return {k: tuple(sorted(v, key=lambda e: -len(e[0]))) for k, v in starts.items()}


def _names(variant: Variant, entries: list[dict]) -> None:
    """Name tables: ``names`` by one normalised key, ``phrases`` by the words as written."""
    names: dict[str, str] = {}
    phrases: dict[tuple[str, ...], str] = {}
    loose: dict[tuple[str, ...], str] = {}

    def add(alias: str, target: str) -> None:
        key = normalise(alias)
        if not key:
            return
        if names.get(key, target) != target:
            raise VariantError(f"name {alias!r} would mean both {names[key]} and {target}")
        names[key] = target

    def add_phrase(table: dict, words: tuple[str, ...], alias: str, target: str) -> None:
        if table.get(words, target) != target:
            raise VariantError(f"name {alias!r} would mean both {table[words]} and {target}")
        table[words] = target

    short = variant.raw.get("abbreviations_allowed", True)
    hyphened: list[tuple[tuple[str, ...], str, tuple[str, ...]]] = []
    for entry in entries:
        name = entry["name"]
        abbreviation = entry.get("abbreviation", "") if short else ""
        spellings = [s for s in (name, abbreviation, *entry.get("aliases", ())) if s]
        spellings += _compass_parted(name)
        coasts = entry.get("coasts", ())
        hyphens = _hyphens(name)
        for spelling in spellings:
            add(spelling, name)
            exact, loose_forms, spaced = _spelling_phrases(spelling, hyphens)
            hyphened += [(words, name, tuple(coasts)) for words in spaced]
            for coast in coasts:
                add(f"{spelling}/{coast}", f"{name}/{coast}")
                add(f"{spelling} {COAST_NAMES[coast]}", f"{name}/{coast}")
            for table, forms in ((phrases, exact), (loose, loose_forms)):
                for words in forms:
                    add_phrase(table, words, spelling, name)
                    for coast in coasts:
                        target = f"{name}/{coast}"
                        add_phrase(table, (*words, coast), spelling, target)
                        add_phrase(
                            table, (*words, *name_keys(COAST_NAMES[coast])), spelling, target
                        )
    variant.dotted_words = frozenset(
        word
        for entry in entries
        for spelling in (entry["name"], entry.get("abbreviation", ""), *entry.get("aliases", ()))
        for word in (chunk.strip(".'") for chunk in spelling.lower().split())
        if INNER_DOT.search(word)
    )
    for key, target in names.items():  # a whole name written as one word: "andamansea"
        add_phrase(phrases, (key,), key, target)
    # A hyphen between words a name spaces (``North-Pacific-Ocean``), where it cannot be a
    # move: never after words that are a name themselves when a name follows it (``A - B``
    # would be a hold of "A B" and a move from A to B), nor as another name's form.
    by_first: dict[str, list[tuple[str, ...]]] = {}
    for words in phrases:
        by_first.setdefault(words[0], []).append(words)

    def two_names(words: tuple[str, ...]) -> bool:
        for i, word in enumerate(words):
            if word == "-" and words[:i] in phrases:
                tail = words[i + 1 :]
                if any(tail[: len(w)] == w for w in by_first.get(tail[0], ())):
                    return True
        return False

    for words, name, coasts in hyphened:
        if words in phrases or two_names(words):
            continue
        phrases[words] = name
        for coast in coasts:
            for tail in ((coast,), name_keys(COAST_NAMES[coast])):
                phrases.setdefault((*words, *tail), f"{name}/{coast}")
    variant.names = names
    variant.phrases = phrases
    variant.loose_phrases = loose
    variant.name_starts = _starts(phrases)
    variant.name_starts_plain = {
        first: tuple(c for c in found if len(c[0]) < 2 or c[0][1] != "-")
        for first, found in variant.name_starts.items()
    }
    variant.name_alone = {
        first: found[0][1]
        for first, found in variant.name_starts.items()
        if len(found) == 1 and len(found[0][0]) == 1
    }
    variant.loose_starts = _starts(loose)
    variant.compass_starts = compass_forms(phrases)
    power_names: dict[str, str] = {}
    for power in variant.powers.values():
        power_names[normalise(power.name)] = power.name
        if power.abbreviation and short:
            power_names[normalise(power.abbreviation)] = power.name
    for power in variant.powers.values():
        if power.adjective:
            key = normalise(power.adjective)
            if power_names.get(key, power.name) != power.name:
                raise VariantError(
                    f"{power.adjective!r} names both {power_names[key]} and {power.name}"
                )
            power_names[key] = power.name
    variant.power_names = power_names


def _check_units(variant: Variant) -> None:
    for unit in variant.starting_units:
        power, location = unit.get("power"), unit.get("location", "")
        kind = str(unit.get("unit"))  # as written: anything but "A" is read as a fleet
        if power not in variant.powers:
            raise VariantError(f"starting unit {unit!r} belongs to unknown power {power!r}")
        if not variant.can_stand(kind, location):
            raise VariantError(f"starting unit {kind} {location} cannot stand there")


def _rule(name: object) -> Rule:
    """The registered rule object a variant's ``rules`` list names."""
    found = registry.rule(name) if isinstance(name, str) else None
    if found is None:
        raise VariantError(f"unknown rule {name!r}: no rule of that name is registered")
    return found
