"""Checks of the Far East I-R map data (variants/far_east/variant.json): plain json, no engine.

Run as a script (``python tests/test_far_east_map.py``) to print, per power, the neutral
centres its starting units reach in one and in two moves (the table in the variant README).
"""

import json
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PATH = ROOT / "variants" / "far_east" / "variant.json"

with open(PATH, encoding="utf-8") as f:
    DATA = json.load(f)

PROVINCES = {p["name"]: p for p in DATA["provinces"]}

HOMES = {
    "Japan": ("JAP", {"Sapporo", "Tokyo", "Nagasaki"}),
    "China": ("CHI", {"Peking", "Shanghai", "Canton"}),
    "Viet Nam": ("VIE", {"Hanoi", "Da Nang", "Saigon"}),
    "Indonesia": ("INO", {"Sumatra", "Java", "Celebes"}),
    "Australia": ("AUS", {"Brisbane", "Melbourne", "Perth"}),
}
UNITS = {
    ("Japan", "A", "Sapporo"),
    ("Japan", "F", "Tokyo"),
    ("Japan", "F", "Nagasaki"),
    ("China", "A", "Peking"),
    ("China", "F", "Shanghai"),
    ("China", "F", "Canton"),
    ("Viet Nam", "A", "Hanoi"),
    ("Viet Nam", "F", "Da Nang"),
    ("Viet Nam", "F", "Saigon"),
    ("Indonesia", "F", "Sumatra"),
    ("Indonesia", "A", "Java"),
    ("Indonesia", "F", "Celebes"),
    ("Australia", "F", "Brisbane"),
    ("Australia", "A", "Melbourne"),
    ("Australia", "F", "Perth"),
}
NEUTRALS = {
    "Korea",
    "Mongolian Republic",
    "Taiwan",
    "Manila",
    "Guam",
    "Burma",
    "Cambodia",
    "Malaysia",
    "Borneo",
    "New Guinea",
    "New Zealand",
    "Timor",
    "Vladivostok",
}
OCEANS = {"North Pacific Ocean", "Mid-Pacific Ocean", "South Pacific Ocean", "Indian Ocean"}
NAMED_BY_SEED = {
    "Kyoto",
    "Sakhalin",
    "Jehol",
    "Kirin",
    "Manchuria",
    "Sumbawa",
    "Mindanao",
    "Thailand",
    "Molucca Sea",
    "Flores Sea",
    "Exmouth Sea",
    "Arafura Sea",
    "South China Sea",
    "Philippine Sea",
}
# The eight land bridges, each with the sea spaces on its two sides, which must not border
# each other (None: the Flores Sea lies on both sides of the Java-Sumbawa bridge, the seed's
# one exception).
BRIDGES = {
    ("Malaysia", "Sumatra"): ({"Andaman Sea"}, {"South China Sea", "Java Sea"}),
    ("Mindanao", "Manila"): ({"South China Sea"}, {"Philippine Sea"}),
    ("Java", "Sumbawa"): None,
    ("Sakhalin", "Sapporo"): ({"Sea of Japan"}, {"Sea of Okhotsk"}),
    ("Sapporo", "Tokyo"): ({"Sea of Japan"}, {"North Pacific Ocean", "Philippine Sea"}),
    ("Kyoto", "Nagasaki"): ({"Sea of Japan"}, {"Philippine Sea"}),
    ("Sumatra", "Java"): ({"Java Sea"}, {"Indian Ocean"}),
    ("New Guinea", "Queensland"): ({"Arafura Sea"}, {"Coral Sea"}),
}


def province_of(location):
    return location.split("/", 1)[0]


def norm(name):
    return "".join(ch for ch in name.lower() if ch not in " .-")


def locations():
    locs = set(PROVINCES)
    for p in DATA["provinces"]:
        locs.update(f"{p['name']}/{c}" for c in p.get("coasts", []))
    return locs


def adjacency(kind):
    adj = {}
    for a, b, kinds in DATA["borders"]:
        if kind in kinds:
            adj.setdefault(a, set()).add(b)
            adj.setdefault(b, set()).add(a)
    return adj


ARMY = adjacency("A")
FLEET = adjacency("F")


def border_kinds(a, b):
    for x, y, kinds in DATA["borders"]:
        if {x, y} == {a, b}:
            return kinds
    return None


def touching(a, b):
    """Whether provinces a and b (any coasts) share a border of any kind."""
    return any({province_of(x), province_of(y)} == {a, b} for x, y, _ in DATA["borders"])


def sea_neighbours(location):
    return {n for n in FLEET.get(location, ()) if PROVINCES[province_of(n)]["type"] == "sea"}


def reach(kind, start, moves):
    """Provinces a unit of this kind reaches in exactly 1..moves moves by its own borders."""
    adj = ARMY if kind == "A" else FLEET
    seen, frontier, rings = {start}, {start}, []
    for _ in range(moves):
        frontier = {n for x in frontier for n in adj.get(x, ())} - seen
        seen |= frontier
        rings.append({province_of(n) for n in frontier})
    return rings


def neutrals_within(power):
    """Neutral centres the power's starting units reach within one and within two moves."""
    one, two = set(), set()
    for unit in DATA["starting_units"]:
        if unit["power"] == power:
            first, second = reach(unit["unit"], unit["location"], 2)
            one |= first & NEUTRALS
            two |= (first | second) & NEUTRALS
    return one, two


# ---------------------------------------------------------------- identity and counts


def test_identity_and_calendar():
    assert DATA["id"] == "far-east"
    assert DATA["calendar"] == {
        "start_year": 1991,
        "seasons": ["spring", "fall"],
        "season_names": {"spring": "Spring", "fall": "Fall"},
        "adjustments_after": "fall",
    }
    assert DATA["rules"] == ["oceans"]
    assert DATA["victory_centers"] == 15


def test_powers_and_home_centres():
    assert len(DATA["powers"]) == 5
    got = {p["name"]: (p["abbreviation"], set(p["home_centers"])) for p in DATA["powers"]}
    assert got == HOMES
    homes = [h for p in DATA["powers"] for h in p["home_centers"]]
    assert len(homes) == len(set(homes)) == 15
    assert all(PROVINCES[h]["supply_center"] for h in homes)


def test_centres():
    centres = {n for n, p in PROVINCES.items() if p["supply_center"]}
    homes = {h for _, hs in HOMES.values() for h in hs}
    assert len(centres) == 28
    assert centres - homes == NEUTRALS
    assert len(NEUTRALS) == 13


def test_board_size_and_named_spaces():
    assert 60 <= len(PROVINCES) <= 80
    assert set(PROVINCES) >= NAMED_BY_SEED
    assert "Hong Kong" not in PROVINCES and "Sabah" not in PROVINCES


def test_starting_units():
    got = {(u["power"], u["unit"], u["location"]) for u in DATA["starting_units"]}
    assert got == UNITS and len(DATA["starting_units"]) == 15
    for _, kind, loc in UNITS:
        p = PROVINCES[province_of(loc)]
        if kind == "A":
            assert p["type"] != "sea" and "/" not in loc, loc
        else:
            assert p["type"] == "coast" and not p.get("coasts") and loc in FLEET, loc


# ---------------------------------------------------------------- provinces and names


def test_province_entries_and_names_unique():
    assert len(PROVINCES) == len(DATA["provinces"]), "duplicate province name"
    names = {}
    abbreviations = set()
    for p in DATA["provinces"]:
        assert p["type"] in {"land", "coast", "sea"}, p
        assert isinstance(p["supply_center"], bool), p
        assert len(p["abbreviation"]) == 3 and p["abbreviation"] not in abbreviations, p
        abbreviations.add(p["abbreviation"])
        for n in [p["name"], p["abbreviation"], *p.get("aliases", [])]:
            assert names.setdefault(norm(n), p["name"]) == p["name"], f"name clash: {n}"
    for p in DATA["provinces"]:
        if p["supply_center"]:
            assert p["type"] != "sea", p


def test_oceans_flagged():
    flagged = {n for n, p in PROVINCES.items() if "ocean" in p.get("flags", [])}
    assert flagged == OCEANS
    assert all(PROVINCES[o]["type"] == "sea" for o in OCEANS)


def test_thailand_is_the_only_split_province():
    split = {n: p["coasts"] for n, p in PROVINCES.items() if p.get("coasts")}
    assert split == {"Thailand": ["ec", "wc"]}
    assert PROVINCES["Thailand"]["type"] == "coast"
    assert "Thailand" not in FLEET, "fleets border Thailand's coasts, never the province"
    assert sea_neighbours("Thailand/ec") == {"Gulf of Thailand"}
    assert sea_neighbours("Thailand/wc") == {"Andaman Sea"}
    assert {"Burma", "Laos", "Cambodia", "Malaysia"} <= ARMY["Thailand"]


# ---------------------------------------------------------------- borders


def test_border_endpoints_and_kinds():
    locs = locations()
    seen = set()
    for border in DATA["borders"]:
        assert len(border) == 3, border
        a, b, kinds = border
        assert kinds in {"A", "F", "AF"}, border
        assert a in locs and b in locs, f"unknown endpoint in {border}"
        pair = frozenset((a, b))
        assert len(pair) == 2, border
        assert pair not in seen, f"duplicate border {a} - {b}"
        seen.add(pair)
        for end in (a, b):
            p = PROVINCES[province_of(end)]
            if "A" in kinds:
                assert "/" not in end and p["type"] != "sea", border
            if "F" in kinds:
                assert p["type"] != "land", border
                assert ("/" in end) == bool(p.get("coasts")), border


def test_every_coast_touches_a_sea_and_land_touches_none():
    for name, p in PROVINCES.items():
        if p["type"] == "land":
            assert name not in FLEET, name
        elif p["type"] == "coast":
            for loc in [f"{name}/{c}" for c in p.get("coasts", [])] or [name]:
                assert sea_neighbours(loc), f"{loc} touches no sea"


def test_coastal_fleet_borders_share_a_sea():
    """A fleet moving between two coastal spaces follows a coast on a sea both touch."""
    for a, b, kinds in DATA["borders"]:
        if "F" in kinds and "sea" not in (
            PROVINCES[province_of(a)]["type"],
            PROVINCES[province_of(b)]["type"],
        ):
            assert sea_neighbours(a) & sea_neighbours(b), (a, b)


def test_eight_land_bridges():
    assert len(BRIDGES) == 8
    for (a, b), seas in BRIDGES.items():
        assert border_kinds(a, b) == "AF", (a, b)
        assert PROVINCES[a]["type"] == PROVINCES[b]["type"] == "coast", (a, b)
        if seas is None:
            assert {"Java", "Sumbawa"} <= FLEET["Flores Sea"]
            continue
        # The bridge is a demarcation line between the seas on its two sides, which fleets
        # cross "as if the bridges ... were, instead, simply borders" (rule 8); each end of the
        # bridge has a coast on both sides.
        side_x, side_y = seas
        assert any(border_kinds(x, y) == "F" for x in side_x for y in side_y), (a, b)
        for end in (a, b):
            assert sea_neighbours(end) & side_x and sea_neighbours(end) & side_y, (a, b, end)


def test_seed_non_borders():
    assert not touching("Vladivostok", "Korea")
    # Rule 8's example: the Mindanao - Manila bridge separates the two seas, as a border does.
    assert border_kinds("South China Sea", "Philippine Sea") == "F"
    # Flores Sea is one space on both sides of the Java-Sumbawa bridge.
    assert [p for p in PROVINCES if "Flores" in p] == ["Flores Sea"]


def test_seed_example_borders():
    # Rule 6.3's example exchanges fleets between New Guinea and the South Pacific Ocean.
    assert border_kinds("New Guinea", "South Pacific Ocean") == "F"
    assert border_kinds("North Pacific Ocean", "Mid-Pacific Ocean") == "F"


def test_oceans_border_seas_and_coasts():
    for ocean in OCEANS:
        kinds = {PROVINCES[n]["type"] for n in FLEET[ocean]}
        assert "sea" in kinds and "coast" in kinds, ocean


def test_every_space_reachable():
    everything = {}
    for a, b, _ in DATA["borders"]:
        everything.setdefault(province_of(a), set()).add(province_of(b))
        everything.setdefault(province_of(b), set()).add(province_of(a))
    start = next(iter(PROVINCES))
    seen, todo = {start}, deque([start])
    while todo:
        for n in everything.get(todo.popleft(), ()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == set(PROVINCES)
    # Fleets can sail between any two places a fleet may stand.
    nodes = set(FLEET)
    start = "Tokyo"
    seen, todo = {start}, deque([start])
    while todo:
        for n in FLEET[todo.popleft()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == nodes
    # Every land or coastal province has an army border (islands through their bridges
    # or not at all: only true islands may lack one).
    islands = {"Taiwan", "Borneo", "Celebes", "Timor", "Guam", "New Zealand"}
    for name, p in PROVINCES.items():
        if p["type"] != "sea":
            assert (name in ARMY) != (name in islands), name


# ---------------------------------------------------------------- fairness


def test_every_power_reaches_a_neutral_within_two_moves():
    for power in HOMES:
        one, two = neutrals_within(power)
        assert one <= two
        assert two, f"{power} reaches no neutral centre within two moves"


if __name__ == "__main__":
    for power in HOMES:
        one, two = neutrals_within(power)
        print(
            f"{power}: one move: {', '.join(sorted(one)) or '-'}; "
            f"two moves: {', '.join(sorted(two)) or '-'}"
        )


def test_thailands_two_coasts_are_drawn_on_their_own_shores():
    """An adversary's finding: the east coast's fleet stood on the peninsula's Andaman side, a
    few units from the west coast's, so the board did not tell which coast a fleet was on.
    Each now stands off its own shore: the east coast's by the Gulf of Thailand, east of the
    west coast's, which stands by the Andaman Sea."""
    path = Path(__file__).parent.parent / "variants/far_east/anchors.json"
    spots = json.loads(path.read_text())["provinces"]
    east, west = spots["Thailand/ec"]["unit"], spots["Thailand/wc"]["unit"]
    gulf, andaman = spots["Gulf of Thailand"]["unit"], spots["Andaman Sea"]["unit"]
    assert east[0] - west[0] >= 25  # apart, the east coast's to the east
    assert abs(east[0] - gulf[0]) < abs(east[0] - andaman[0])
    assert abs(west[0] - andaman[0]) < abs(west[0] - gulf[0])
