"""Property tests: whatever comes in, ``adjudicate()`` answers and never raises."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudication import adjudicate, load

RESULTS = {"succeeds", "fails", "invalid", "stopped"}
VARIANTS = {v: load(v) for v in ("standard", "colonial")}
SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

KEYWORDS = [
    "A", "F", "a", "f", "army", "fleet", "-", "->", "=>", "H", "hold", "S", "supports", "C",
    "convoys", "move", "to", "via", "Convoy", "TSR", "R", "D", "retreat", "disband", "build",
    "remove", "waive", "/", "(", ")", "nc", "sc", "ec", "wc", "north coast", "coast", "permit",
    "Suez", "F1", "F2", ".", ",", ":", "'",
]  # fmt: skip
JUNK = ["", " ", "  ", "\t", "\n", "→", "—", "é", "ß", "東京", "🙂", "\x00", "\u200b", "?!", "%s"]


def placements(variant) -> list[tuple[str, str]]:
    """Every (kind, location) a unit may stand on."""
    out = []
    for name, p in variant.provinces.items():
        if not p.is_sea:
            out.append(("A", name))
        out.extend(("F", loc) for loc in variant.fleet_locations(name))
    return out


PLACEMENTS = {v: placements(var) for v, var in VARIANTS.items()}
SPOTS = {
    v: {p: [kl for kl in spots if kl[1].split("/")[0] == p] for p in VARIANTS[v].provinces}
    for v, spots in PLACEMENTS.items()
}


def name_words(variant) -> list[str]:
    words = []
    for name, p in variant.provinces.items():
        words += [name, p.abbreviation, name.lower(), p.abbreviation.lower()]
        words += [f"{name}/{c}" for c in p.coasts]
    return words


NAME_WORDS = {v: name_words(var) for v, var in VARIANTS.items()}


def neighbourhood(variant, start: str, size: int) -> list[str]:
    """Up to ``size`` provinces around ``start``, nearest first."""
    seen = [start]
    i = 0
    while i < len(seen) and len(seen) < size:
        here = seen[i]
        near = set(variant.army_adj.get(here, ())) | set(variant.fleet_reach.get(here, ()))
        seen += sorted(near - set(seen))
        i += 1
    return seen[:size]


@st.composite
def positions(draw, variant_id: str, max_units: int = 12) -> list[dict]:
    """Units crowded into one neighbourhood, each on terrain it may stand on."""
    variant = VARIANTS[variant_id]
    start = draw(st.sampled_from(sorted(variant.provinces)))
    count = draw(st.integers(0, max_units))
    region = draw(st.permutations(neighbourhood(variant, start, count + count // 3 + 1)))
    powers = draw(st.lists(st.sampled_from(list(variant.powers)), min_size=1, max_size=3))
    units = []
    for province in region[:count]:
        spots = SPOTS[variant_id][province]
        kind, loc = draw(st.sampled_from(spots))
        units.append({"power": draw(st.sampled_from(powers)), "unit": kind, "location": loc})
    return units


@st.composite
def order_text(draw, variant_id: str) -> str:
    words = st.one_of(
        st.sampled_from(NAME_WORDS[variant_id]),
        st.sampled_from(KEYWORDS),
        st.sampled_from(JUNK),
        st.text(max_size=6),
    )
    parts = draw(st.lists(words, max_size=8))
    sep = draw(st.sampled_from([" ", "", "  ", "-", "."]))
    return sep.join(parts)


@st.composite
def random_order_requests(draw):
    variant_id = draw(st.sampled_from(sorted(VARIANTS)))
    units = draw(positions(variant_id))
    powers = list(VARIANTS[variant_id].powers)
    orders = []
    for unit in units:
        if draw(st.booleans()):
            text = draw(order_text(variant_id))
            # Often start with the unit itself, so the order reaches the legality checks.
            if draw(st.booleans()):
                text = f"{unit['unit']} {unit['location']} {text}"
            power = unit["power"] if draw(st.integers(0, 4)) else draw(st.sampled_from(powers))
            orders.append({"power": power, "order": text})
    return {"variant": variant_id, "units": units, "orders": orders}


def check_response_shape(request: dict, response: dict) -> None:
    assert "error" not in response, response
    assert len(response["orders"]) == len(request["orders"])
    for item in response["orders"]:
        assert item["result"] in RESULTS, item
        if item["result"] == "invalid":
            assert isinstance(item.get("reason"), str) and item["reason"]
    provinces = [u["location"].split("/")[0] for u in response["units"]]
    assert len(provinces) == len(set(provinces)), response["units"]


@SETTINGS
@given(random_order_requests())
def test_random_order_text_never_raises(request):
    response = adjudicate(request)
    check_response_shape(request, response)
    assert len(response["units"]) == len(request["units"]) - len(response["dislodged"])
    # Orders come back in the order given, with the text as typed.
    assert [o["order"] for o in response["orders"]] == [o["order"] for o in request["orders"]]


@SETTINGS
@given(random_order_requests(), st.sampled_from(["retreats", "adjustments"]))
def test_random_order_text_in_other_phases(request, kind):
    request["phase"] = {"season": "fall" if kind == "retreats" else "winter", "type": kind}
    response = adjudicate(request)
    assert "error" not in response, response
    assert len(response["orders"]) == len(request["orders"])
    assert all(o["result"] in RESULTS for o in response["orders"])
    if kind == "retreats":
        # Nobody was dislodged, so nobody retreats: the board is unchanged.
        assert len(response["units"]) == len(request["units"])
        assert all(o["result"] == "invalid" for o in response["orders"])


# -- (b) random request objects ---------------------------------------------------------------

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(
        ["standard", "colonial", "spring", "fall", "winter", "movement", "retreats",
         "adjustments", "A", "F", "Russia", "England", "Moscow", "London", "Spain/nc",
         "North Sea", "A London - Belgium", "Build A Moscow", "Waive"]
    ),
)  # fmt: skip
JUNK_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def maybe(strategy):
    return st.one_of(strategy, JUNK_VALUES)


UNIT_ENTRY = st.fixed_dictionaries(
    {},
    optional={
        "power": maybe(st.sampled_from(["Russia", "England", "China", "RUS"])),
        "unit": maybe(st.sampled_from(["A", "F", "army", "fleet"])),
        "location": maybe(st.sampled_from(["Moscow", "London", "Omsk", "Spain/nc", "NTH"])),
        "attacker_from": maybe(st.sampled_from(["Perm", "Wales", "Ukraine"])),
        "via_convoy": JUNK_VALUES,
    },
)
PHASE = st.fixed_dictionaries(
    {},
    optional={
        "season": maybe(st.sampled_from(["spring", "fall", "autumn", "winter", "summer"])),
        "year": maybe(st.integers(min_value=-(10**40), max_value=10**40)),
        "type": maybe(st.sampled_from(["movement", "retreats", "adjustments"])),
    },
)
ORDER_ENTRY = st.fixed_dictionaries(
    {},
    optional={
        "power": maybe(st.sampled_from(["Russia", "England", "China", "ENG"])),
        "order": maybe(st.sampled_from(["A Moscow - Perm", "F London H", "Build A Moscow"])),
    },
)
REQUEST = st.fixed_dictionaries(
    {},
    optional={
        "variant": maybe(st.sampled_from(["standard", "colonial", "far-east", "../etc"])),
        "phase": maybe(PHASE),
        "units": maybe(st.lists(maybe(UNIT_ENTRY), max_size=4)),
        "supply_centers": maybe(
            st.dictionaries(
                st.one_of(st.sampled_from(["Russia", "England", "RUS"]), st.text(max_size=8)),
                maybe(st.lists(maybe(st.sampled_from(["Moscow", "London", "Perm"])))),
                max_size=3,
            )
        ),
        "dislodged": maybe(st.lists(maybe(UNIT_ENTRY), max_size=3)),
        "contested": maybe(st.lists(maybe(st.sampled_from(["Omsk", "Wales"])), max_size=3)),
        "orders": maybe(st.lists(maybe(ORDER_ENTRY), max_size=4)),
        "options": maybe(st.fixed_dictionaries({}, optional={"victory_centers": JUNK_VALUES})),
        "extra": JUNK_VALUES,
    },
)


def check_answer(response) -> None:
    assert isinstance(response, dict)
    if "error" in response:
        assert set(response) == {"error", "details"}, response
        assert isinstance(response["error"], str) and response["error"]
        assert isinstance(response["details"], list)
    else:
        for key in ("orders", "units", "dislodged", "contested", "supply_centers", "next_phase"):
            assert key in response, key
        assert all(o["result"] in RESULTS for o in response["orders"])


@SETTINGS
@given(REQUEST)
def test_random_requests_answer_or_explain(request):
    check_answer(adjudicate(request))


@SETTINGS
@given(JUNK_VALUES)
def test_any_json_value_is_answered(value):
    check_answer(adjudicate(value))


# -- (c) conservation of units -----------------------------------------------------------------


def reach(variant, unit: dict) -> set[str]:
    """Provinces a unit could move to."""
    if unit["unit"] == "A":
        return set(variant.army_adj.get(unit["location"], ()))
    return {n.split("/")[0] for n in variant.fleet_adj[unit["location"]]}


@st.composite
def legal_looking_requests(draw):
    """Mostly legal orders: moves to neighbours, supports of those moves, a few odd ones."""
    variant_id = draw(st.sampled_from(sorted(VARIANTS)))
    variant = VARIANTS[variant_id]
    units = draw(positions(variant_id, max_units=20))
    roles = [
        draw(st.sampled_from(["hold", "move", "move", "support", "support", "odd"])) for _ in units
    ]
    moves: dict[int, str] = {}
    for i, unit in enumerate(units):
        near = sorted(reach(variant, unit))
        if roles[i] == "move" and near:
            moves[i] = draw(st.sampled_from(near))
    orders = []
    for i, unit in enumerate(units):
        kind, loc = unit["unit"], unit["location"]
        role = roles[i]
        mine = reach(variant, unit)
        if i in moves:
            text = f"{kind} {loc} - {moves[i]}"
        elif role == "support":
            options = [
                f"S {units[j]['unit']} {units[j]['location']} - {dest}"
                for j, dest in moves.items()
                if j != i and dest in mine
            ]
            options += [
                f"S {other['unit']} {other['location']}"
                for j, other in enumerate(units)
                if j != i and j not in moves and other["location"].split("/")[0] in mine
            ]
            text = f"{kind} {loc} {draw(st.sampled_from(options))}" if options else f"{kind} {loc}"
        elif role == "odd":
            other = draw(st.sampled_from(units))
            dest = draw(st.sampled_from(sorted(variant.fleet_reach)))
            text = draw(
                st.sampled_from(
                    [
                        f"{kind} {loc} C A {other['location']} - {dest}",
                        f"{kind} {loc} - {dest} via Convoy",
                        f"{kind} {loc} - {dest}",
                        f"{kind} {loc} S {other['unit']} {other['location']} - {dest}",
                    ]
                )
            )
        else:
            text = f"{kind} {loc} H"
        orders.append({"power": unit["power"], "order": text})
    return {"variant": variant_id, "units": units, "orders": orders}


def census(entries) -> dict:
    out: dict = {}
    for u in entries:
        key = (u["power"], u["unit"])
        out[key] = out.get(key, 0) + 1
    return out


@SETTINGS
@given(legal_looking_requests())
def test_units_are_conserved(request):
    response = adjudicate(request)
    check_response_shape(request, response)
    after = [*response["units"], *response["dislodged"]]
    assert len(after) == len(request["units"])
    assert census(after) == census(request["units"])
    # A dislodged unit was where it stood, and its attacker now stands there.
    before = {u["location"] for u in request["units"]}
    where = {u["location"].split("/")[0]: u for u in response["units"]}
    for d in response["dislodged"]:
        assert d["location"] in before
        province = d["location"].split("/")[0]
        assert province in where
        assert where[province]["power"] != d["power"]
        assert d["attacker_from"] is not None
        for option in d["retreats"]:
            assert option.split("/")[0] not in where
            assert option.split("/")[0] not in response["contested"]


@SETTINGS
@given(legal_looking_requests(), st.randoms(use_true_random=False))
def test_retreats_after_movement_conserve_units(request, rnd):
    moved = adjudicate(request)
    assert "error" not in moved
    orders = []
    for d in moved["dislodged"]:
        options = d["retreats"]
        if options and rnd.random() < 0.8:
            orders.append({"power": d["power"], "order": f"{d['unit']} {d['location']} R "
                           + rnd.choice(options)})  # fmt: skip
        elif rnd.random() < 0.5:
            orders.append({"power": d["power"], "order": f"{d['unit']} {d['location']} D"})
    retreat = {
        "variant": request["variant"],
        "phase": {"season": "spring", "year": 1901, "type": "retreats"},
        "units": moved["units"],
        "dislodged": moved["dislodged"],
        "contested": moved["contested"],
        "orders": orders,
    }
    response = adjudicate(retreat)
    assert "error" not in response, response
    retreated = sum(
        1 for o in response["orders"] if o["result"] == "succeeds" and " R " in o["order"]
    )
    assert len(response["units"]) == len(moved["units"]) + retreated
    assert all(o["result"] in {"succeeds", "fails"} for o in response["orders"])
    provinces = [u["location"].split("/")[0] for u in response["units"]]
    assert len(provinces) == len(set(provinces))
