"""Round trip: an order written in any of the notations players use parses to exactly that order.

For the four variants, every unit a position allows and every order form (hold, move, via
Convoy, via TSR, support hold and move, convoy, Suez permit, retreat, disband, build, remove,
waive, Chinese enter and leave), each name written as its full name, abbreviation or alias
(Chinese Diplomacy forbids abbreviations: there they must be refused), any coast notation, any
case, a hyphenated name's hyphen as a hyphen, space or nothing, and the dash with or without
spaces. Issue 13: ``A SWE - DEN`` was read as ``A Sweden H``; these tests would have caught it.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudication import load
from adjudication.orders import (
    BUILD,
    CONVOY,
    DISBAND,
    HOLD,
    MOVE,
    REMOVE,
    RETREAT,
    SPECIAL,
    SUPPORT,
    WAIVE,
    Order,
    OrderError,
    parse,
)
from adjudication.variant import COAST_NAMES, Variant, normalise, province_of

VARIANT_IDS = ("standard", "colonial", "far-east", "chinese")
VARIANTS = {v: load(v) for v in VARIANT_IDS}
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

DASHES = [" - ", "-", " -", "- ", "  -   ", " -> ", "->", " – ", "=>", "--"]
HYPHENS = ["-", " - ", " ", ""]  # how a hyphen inside a name may be written
UNIT_WORDS = {"A": ["A", "Army"], "F": ["F", "Fleet"]}
HOLD_WORDS = [" H", " Hold", " holds", ""]
SUPPORT_WORDS = [" S ", " supports ", " support "]
CONVOY_WORDS = [" C ", " convoys ", " convoy "]
VIA_CONVOY = [" via Convoy", " via convoy", " by convoy", " via C"]


def placements(variant: Variant) -> list[tuple[str, str]]:
    """Every (kind, location) a unit may stand on."""
    spots = [*variant.provinces, *(loc for loc in variant.fleet_adj if "/" in loc)]
    return [(kind, loc) for loc in spots for kind in "AF" if variant.can_stand(kind, loc)]


def spellings(variant: Variant, province: str) -> list[str]:
    """How players may name a province: full name, abbreviation (where allowed), aliases."""
    entry = next(e for e in variant.raw["provinces"] if e["name"] == province)
    out = [province]
    if variant.raw.get("abbreviations_allowed", True) and entry.get("abbreviation"):
        out.append(entry["abbreviation"])
    out += entry.get("aliases", [])
    return out


def coast_notations(coast: str) -> list[str]:
    word = COAST_NAMES[coast]
    return [
        f"/{coast}",
        f" / {coast}",
        f"({coast})",
        f" ({coast})",
        f" {coast}",
        f" ({word})",
        f"/{word}",
        f" {word}",
    ]


def neighbours(variant: Variant, kind: str, location: str) -> list[str]:
    """Where a unit of this kind may move from this location (coasts included)."""
    adj = variant.army_adj if kind == "A" else variant.fleet_adj
    return sorted(adj.get(location, ()))


# The words that may follow a name in an order, as a name could swallow them if glued on.
FOLLOWERS = ["h", "hold", "s", "support", "c", "convoy", "m", "move", "to", "r", "d", "via"]


def traps(variant: Variant, names: dict[str, list[str]]) -> tuple[list[str], dict]:
    """Where gluing would misread: provinces whose spelling and a following word spell a name
    (``PER`` ``M``: Perm), and pairs whose two spellings do (``SWE`` ``DEN``: Sweden)."""
    keys = variant.names
    places = sorted(
        p for p in names if any(normalise(s) + w in keys for s in names[p] for w in FOLLOWERS)
    )
    pairs: dict[str, list[str]] = {}
    for p, ss in names.items():
        for q, ts in names.items():
            if p != q and any(normalise(s) + normalise(t) in keys for s in ss for t in ts):
                pairs.setdefault(p, []).append(q)
    return places, pairs


PLACES = {v: placements(var) for v, var in VARIANTS.items()}
SPELLINGS = {v: {p: spellings(var, p) for p in var.provinces} for v, var in VARIANTS.items()}
TRAPS = {v: traps(VARIANTS[v], SPELLINGS[v]) for v in VARIANT_IDS}
ARMY_SPOTS = {v: [loc for k, loc in places if k == "A"] for v, places in PLACES.items()}
COASTAL = {
    v: [n for n, p in var.provinces.items() if p.type == "coast"] for v, var in VARIANTS.items()
}
SEAS = {
    v: [n for n, p in var.provinces.items() if p.is_sea and var.fleet_reach.get(n)]
    for v, var in VARIANTS.items()
}


# -- writing an order ----------------------------------------------------------------------------


@st.composite
def written_name(draw, variant_id: str, location: str) -> str:
    """One way to write a location: a spelling, its hyphens, and a coast notation."""
    province, _, coast = location.partition("/")
    spelling = draw(st.sampled_from(SPELLINGS[variant_id][province]))
    if "-" in spelling:
        spelling = spelling.replace("-", draw(st.sampled_from(HYPHENS)))
    if coast:
        spelling += draw(st.sampled_from(coast_notations(coast)))
    return spelling


@st.composite
def any_case(draw, text: str) -> str:
    """The text in some case: as written, lower, upper, or letter by letter at random."""
    mode = draw(st.sampled_from(["as", "lower", "upper", "random"]))
    if mode == "lower":
        return text.lower()
    if mode == "upper":
        return text.upper()
    if mode == "random":
        flips = draw(st.lists(st.booleans(), min_size=len(text), max_size=len(text)))
        return "".join(c.swapcase() if f else c for c, f in zip(text, flips, strict=True))
    return text


def unit_word(draw, kind: str) -> str:
    return draw(st.sampled_from(UNIT_WORDS[kind]))


def placement(draw, variant_id: str, kind: str | None = None) -> tuple[str, str]:
    """A unit the variant allows; half the time one standing where gluing would misread."""
    places = PLACES[variant_id]
    if kind is not None:
        places = [p for p in places if p[0] == kind]
    trapped = [p for p in places if province_of(p[1]) in TRAPS[variant_id][0]]
    if trapped and draw(st.booleans()):
        places = trapped
    return draw(st.sampled_from(places))


def neighbour(draw, variant_id: str, kind: str, location: str) -> str:
    """Where the unit could move; or, half the time, a place whose name glues onto its own."""
    variant = VARIANTS[variant_id]
    glued = TRAPS[variant_id][1].get(province_of(location), [])
    glued = [loc for k, loc in PLACES[variant_id] if k == kind and province_of(loc) in glued]
    if glued and draw(st.booleans()):
        return draw(st.sampled_from(glued))
    near = neighbours(variant, kind, location)
    if not near:
        near = sorted(set(variant.provinces) - {province_of(location)})
    return draw(st.sampled_from(near))


def two_places(draw, variant_id: str, pool: list[str]) -> tuple[str, str]:
    """Two provinces of the pool; half the time a pair whose names glue into another name."""
    pairs = [(p, q) for p, qs in TRAPS[variant_id][1].items() for q in qs]
    pairs = [(p, q) for p, q in pairs if p in pool and q in pool]
    if pairs and draw(st.booleans()):
        return draw(st.sampled_from(pairs))
    loc, dest = draw(st.lists(st.sampled_from(pool), min_size=2, max_size=2, unique=True))
    return loc, dest


@st.composite
def movement_order(draw, variant_id: str) -> tuple[str, Order]:
    """A movement-phase order the variant's units could be given, written some way."""
    v = variant_id
    variant = VARIANTS[v]
    forms = ["hold", "move", "support hold", "support move"]
    if SEAS[v] and len(COASTAL[v]) > 1:
        forms += ["via convoy", "convoy"]
    if "trans_siberian_railroad" in variant.rules:
        forms.append("via TSR")
    if "suez_canal" in variant.rules:
        forms.append("Suez permit")
    if "chinese" in variant.rules:
        forms += ["enter", "leave"]
    form = draw(st.sampled_from(forms))

    def name(location: str) -> str:
        return draw(written_name(v, location))

    def unit_place(location: str) -> str:
        """A unit's space, also as seed 002 writes it: in brackets, ``F (Guam)``."""
        return f"({name(location)})" if draw(st.booleans()) else name(location)

    if form in ("hold", "move"):
        kind, loc = placement(draw, v)
        head = f"{unit_word(draw, kind)} {unit_place(loc)}"
        if form == "hold":
            return head + draw(st.sampled_from(HOLD_WORDS)), Order(HOLD, kind, loc)
        dest = neighbour(draw, v, kind, loc)
        text = head + draw(st.sampled_from(DASHES)) + name(dest)
        return text, Order(MOVE, kind, loc, destination=dest)
    if form == "via convoy":
        loc, dest = two_places(draw, v, COASTAL[v])
        text = f"{unit_word(draw, 'A')} {name(loc)}{draw(st.sampled_from(DASHES))}{name(dest)}"
        text += draw(st.sampled_from(VIA_CONVOY))
        return text, Order(MOVE, "A", loc, destination=dest, via="convoy")
    if form == "via TSR":
        route = variant.rule_data["trans_siberian_railroad"]["route"]
        loc, dest = two_places(draw, v, route)
        if draw(st.booleans()):
            text = f"A {name(loc)}{draw(st.sampled_from(DASHES))}{name(dest)} via TSR"
        else:  # the errata's A MOS-TSR-VLA
            text = f"A {name(loc)}{draw(st.sampled_from(DASHES))}TSR-{name(dest)}"
        return text, Order(MOVE, "A", loc, destination=dest, via="TSR")
    if form in ("support hold", "support move"):
        kind, loc = placement(draw, v)
        t_kind, t_loc = placement(draw, v)
        text = f"{unit_word(draw, kind)} {unit_place(loc)}{draw(st.sampled_from(SUPPORT_WORDS))}"
        text += f"{unit_word(draw, t_kind)} {unit_place(t_loc)}"
        if form == "support hold":
            return text, Order(SUPPORT, kind, loc, t_kind, t_loc)
        dest = neighbour(draw, v, t_kind, t_loc)
        text += draw(st.sampled_from(DASHES)) + name(dest)
        return text, Order(SUPPORT, kind, loc, t_kind, t_loc, dest)
    if form == "convoy":
        sea = draw(st.sampled_from(SEAS[v]))
        loc, dest = two_places(draw, v, COASTAL[v])
        text = f"{unit_word(draw, 'F')} {name(sea)}{draw(st.sampled_from(CONVOY_WORDS))}"
        text += f"{unit_word(draw, 'A')} {name(loc)}{draw(st.sampled_from(DASHES))}{name(dest)}"
        return text, Order(CONVOY, "F", sea, "A", loc, dest)
    if form == "Suez permit":
        sea = draw(st.sampled_from(variant.rule_data["suez_canal"]["connects"]))
        text = f"Suez permit {unit_word(draw, 'F')} {name(sea)}"
        return text, Order(SPECIAL, "F", sea, extra=("Suez permit F", sea))
    entries = sorted(variant.rule_data["chinese"]["entry"])
    where = draw(st.sampled_from(entries))
    if form == "enter":
        text = f"Enter {unit_word(draw, 'A')} {name(where)}"
        return text, Order(SPECIAL, "A", where, extra=("Enter A", where))
    text = f"{unit_word(draw, 'A')} {name(where)} {draw(st.sampled_from(['Leave', 'leaves']))}"
    return text, Order(SPECIAL, "A", where, extra=("A", where, "Leave"))


@st.composite
def retreat_order(draw, variant_id: str) -> tuple[str, Order]:
    kind, loc = placement(draw, variant_id)
    head = f"{unit_word(draw, kind)} {draw(written_name(variant_id, loc))}"
    if draw(st.booleans()):
        return head + draw(st.sampled_from([" D", " disband", " disbands"])), Order(
            DISBAND, kind, loc
        )
    dest = neighbour(draw, variant_id, kind, loc)
    word = draw(st.sampled_from([" R ", " retreat ", " retreats ", *DASHES]))
    text = head + word + draw(written_name(variant_id, dest))
    return text, Order(RETREAT, kind, loc, destination=dest)


@st.composite
def adjustment_order(draw, variant_id: str) -> tuple[str, Order]:
    form = draw(st.sampled_from(["build", "remove", "waive"]))
    if form == "waive":
        return draw(st.sampled_from(["Waive", "waive", "pass"])), Order(WAIVE)
    kind, loc = placement(draw, variant_id)
    where = f"{unit_word(draw, kind)} {draw(written_name(variant_id, loc))}"
    if form == "build":
        if draw(st.booleans()):
            return f"Build {where}", Order(BUILD, kind, loc)
        return f"{where} build", Order(BUILD, kind, loc)
    word = draw(st.sampled_from(["Remove ", "Disband ", "remove "]))
    return word + where, Order(REMOVE, kind, loc)


def check(variant_id: str, phase: str, text: str, expected: Order) -> None:
    order = parse(VARIANTS[variant_id], text, phase)
    assert order == expected, (text, order)
    assert order.text() == expected.text()


# -- the round trip ------------------------------------------------------------------------------


WRITERS = {"movement": movement_order, "retreats": retreat_order, "adjustments": adjustment_order}
# Chinese Diplomacy has movement only: the gamesmaster retreats and adjusts.
PHASES = [(v, "movement") for v in VARIANT_IDS] + [
    (v, phase) for phase in ("retreats", "adjustments") for v in VARIANT_IDS if v != "chinese"
]


@pytest.mark.parametrize(("variant_id", "phase"), PHASES)
@SETTINGS
@given(data=st.data())
def test_orders_round_trip(variant_id, phase, data):
    text, expected = data.draw(WRITERS[phase](variant_id))
    check(variant_id, phase, data.draw(any_case(text)), expected)


@pytest.mark.parametrize("variant_id", ("standard", "colonial", "far-east"))
def test_every_unit_to_every_neighbour_in_every_spelling(variant_id):
    """Exhaustive where gluing hides: each spelling of a unit's place, then each of a neighbour.

    Hold, move with and without spaces, support hold, and retreat: the words a name can run
    into (``SWE-DEN``, ``PER M``, ``RUH R KIE``, ``AND S``, ``KYO to``).
    """
    variant = VARIANTS[variant_id]
    names = SPELLINGS[variant_id]

    def written(location: str) -> list[str]:
        province, _, coast = location.partition("/")
        tail = [f"/{coast}", f" {coast}"] if coast else [""]
        return [s + t for s in names[province] for t in tail]

    checked = 0
    for kind, loc in PLACES[variant_id]:
        for here in written(loc):
            check(variant_id, "movement", f"{kind} {here} H", Order(HOLD, kind, loc))
            check(variant_id, "movement", f"{kind} {here}", Order(HOLD, kind, loc))
            for dest in neighbours(variant, kind, loc):
                for there in written(dest):
                    move = Order(MOVE, kind, loc, destination=dest)
                    check(variant_id, "movement", f"{kind} {here}-{there}", move)
                    check(variant_id, "movement", f"{kind} {here} M {there}", move)
                    check(variant_id, "movement", f"{kind} {here} to {there}", move)
                    retreat = Order(RETREAT, kind, loc, destination=dest)
                    check(variant_id, "retreats", f"{kind} {here} R {there}", retreat)
                    d_kind = "F" if "/" in dest or variant.provinces[dest].is_sea else "A"
                    support = Order(SUPPORT, kind, loc, d_kind, dest)
                    check(variant_id, "movement", f"{kind} {here} S {d_kind} {there}", support)
                    checked += 6
    assert checked > 1000


def test_chinese_every_army_every_neighbour_in_every_spelling():
    variant = VARIANTS["chinese"]
    names = SPELLINGS["chinese"]
    for loc in ARMY_SPOTS["chinese"]:
        for here in names[loc]:
            check("chinese", "movement", f"A {here} H", Order(HOLD, "A", loc))
            for dest in neighbours(variant, "A", loc):
                for there in names[dest]:
                    move = Order(MOVE, "A", loc, destination=dest)
                    check("chinese", "movement", f"A {here}-{there}", move)
                    check(
                        "chinese",
                        "movement",
                        f"A {here} S A {there}",
                        Order(SUPPORT, "A", loc, "A", dest),
                    )


@SETTINGS
@given(data=st.data())
def test_chinese_refuses_abbreviations(data):
    """Chinese Diplomacy plays with full names only: an abbreviation is refused, not guessed."""
    variant = VARIANTS["chinese"]
    loc = data.draw(st.sampled_from(ARMY_SPOTS["chinese"]))
    dest = data.draw(st.sampled_from(neighbours(variant, "A", loc)))
    abbreviation = variant.provinces[dest].abbreviation
    text = data.draw(any_case(f"A {loc}{data.draw(st.sampled_from(DASHES))}{abbreviation}"))
    with pytest.raises(OrderError, match=f"province names are written in full here: write {dest},"):
        parse(variant, text, "movement")
