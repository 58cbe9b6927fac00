"""Checks of the Chinese Diplomacy map data (plain json, no engine imports).

The seed is T.A. McCloud's Chinese Diplomacy (1975): armies only, no home centres, armies enter
from off the board through Siberia, Indo-China and the Pacific Ocean, and 17 supply centres
numbered by the gamesmaster's chits. Judgements behind the data are in variants/chinese/README.md.
"""

import json
from collections import deque
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PATH = ROOT / "variants" / "chinese" / "variant.json"

# The seed's chit list, in its order and with its spellings.
CHITS = [
    "Gungkiang", "Kirin", "Idaopeh", "Lioning", "Kansu", "Shensi", "Shansi", "Hopeh",
    "Shamtung", "Honan", "Hupeh", "Szechan", "Yunan", "Kwangsi", "Kwangtung", "Chekiang",
    "Kiangsu",
]  # fmt: skip

ALIASES = {
    "Shamtung": ["Shantung"],
    "Szechan": ["Szechwan", "Sichuan"],
    "Yunan": ["Yunnan"],
    "Lioning": ["Liaoning"],
    "Gungkiang": ["Heilungkiang", "Heilongjiang"],
    "Hopeh": ["Hebei"],
    "Honan": ["Henan"],
    "Hupeh": ["Hubei"],
    "Shensi": ["Shaanxi"],
    "Shansi": ["Shanxi"],
    "Kansu": ["Gansu"],
    "Kwangsi": ["Guangxi"],
    "Kwangtung": ["Guangdong"],
    "Chekiang": ["Zhejiang"],
    "Kiangsu": ["Jiangsu"],
    "Kirin": ["Jilin"],
    "Idaopeh": ["Liaopeh"],
}

ENTRY = {"Siberia", "Indo-China", "Pacific Ocean"}
POWERS = {
    "England": "ENG", "France": "FRA", "Germany": "GER", "Russia": "RUS", "Japan": "JAP",
    "United States": "USA",
}  # fmt: skip
OUTSIDERS = ["England", "France", "Germany", "Japan", "United States"]


def norm(name):
    return "".join(ch for ch in name.lower() if ch.isalnum())


@pytest.fixture(scope="module")
def data():
    with open(PATH, encoding="utf-8") as f:
        return json.load(f)


@pytest.fixture(scope="module")
def provinces(data):
    return {p["name"]: p for p in data["provinces"]}


@pytest.fixture(scope="module")
def adjacency(data, provinces):
    adj = {name: set() for name in provinces}
    for a, b, _ in data["borders"]:
        adj[a].add(b)
        adj[b].add(a)
    return adj


def test_header(data):
    assert data["id"] == "chinese"
    assert data["rules"] == ["chinese"]
    assert data["abbreviations_allowed"] is False
    assert data["victory_centers"] == 0
    assert data["calendar"] == {
        "start_year": 1900,
        "seasons": ["year"],
        "season_names": {"year": "Year"},
        "adjustments_after": "year",
    }
    # The Imperials start with an army in every centre (seed rule 5C); nobody else starts.
    imperial = [u for u in data["starting_units"] if u["power"] == "Imperials"]
    assert len(imperial) == len(data["starting_units"]) == 17
    assert {u["location"] for u in imperial} == set(CHITS)


def test_centres_in_chit_order(data):
    centres = [p for p in data["provinces"] if p["supply_center"]]
    assert [p["name"] for p in centres] == CHITS
    assert [p["chit"] for p in centres] == list(range(1, 18))
    # The centres lead the file, so the file's order is the chit order.
    assert [p["name"] for p in data["provinces"][:17]] == CHITS
    for p in data["provinces"]:
        assert ("chit" in p) == p["supply_center"], p["name"]


def test_no_duplicates(data):
    names = [p["name"] for p in data["provinces"]]
    assert len(names) == len(set(names))
    spellings = {}
    for p in data["provinces"]:
        for n in [p["name"], p["abbreviation"], *p.get("aliases", [])]:
            assert spellings.setdefault(norm(n), p["name"]) == p["name"], f"name clash: {n}"
    pairs = [frozenset((a, b)) for a, b, _ in data["borders"]]
    assert len(pairs) == len(set(pairs)), "duplicate border"
    assert all(len(pair) == 2 for pair in pairs), "self border"


def test_aliases(provinces):
    for name, wanted in ALIASES.items():
        have = {norm(a) for a in provinces[name].get("aliases", [])}
        for alias in wanted:
            assert norm(alias) in have, f"{name} lacks alias {alias}"


def test_aliases_are_full_names(provinces):
    for p in provinces.values():
        assert len(p["abbreviation"]) == 3 and p["abbreviation"].isupper(), p["name"]
        for alias in p.get("aliases", []):
            assert len(norm(alias)) > 3, f"{p['name']}: alias {alias!r} looks like an abbreviation"
            assert norm(alias) != norm(p["abbreviation"]), p["name"]


def test_armies_only(data, provinces):
    assert all(p["type"] == "land" for p in provinces.values()), "no seas, no coasts"
    assert not any(p.get("coasts") for p in provinces.values())
    for a, b, kinds in data["borders"]:
        assert kinds == "A", (a, b, kinds)
        assert a in provinces, f"unknown endpoint {a}"
        assert b in provinces, f"unknown endpoint {b}"


def test_entry_spaces(provinces, adjacency):
    flagged = {n for n, p in provinces.items() if "entry" in p.get("flags", [])}
    assert flagged == ENTRY
    for name in ENTRY:
        p = provinces[name]
        assert not p["supply_center"]
        assert adjacency[name], f"{name} borders nothing"
        assert not adjacency[name] & ENTRY, f"{name} borders another entry space"
    assert adjacency["Indo-China"] == {"Yunan", "Kwangsi", "Kwangtung"}
    assert {"Mongolia", "Gungkiang"} <= adjacency["Siberia"]
    assert {"Lioning", "Kwangtung"} <= adjacency["Pacific Ocean"]
    for name, p in provinces.items():
        if name not in ENTRY:
            assert not p.get("flags"), name


def test_entry_rule_data(data):
    entry = data["rule_data"]["chinese"]["entry"]
    assert entry == {
        "Siberia": ["Russia"],
        "Indo-China": OUTSIDERS,
        "Pacific Ocean": OUTSIDERS,
    }


def test_every_province_reachable(provinces, adjacency):
    for start in ENTRY:
        seen = {start}
        todo = deque([start])
        while todo:
            for n in adjacency[todo.popleft()]:
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        assert seen == set(provinces), sorted(set(provinces) - seen)
    # Every centre can be reached by land from some space other than an entry space.
    for name in CHITS:
        assert adjacency[name] - ENTRY, name


def test_powers(data):
    great = [p for p in data["powers"] if not p.get("faction")]
    factions = [p["name"] for p in data["powers"] if p.get("faction")]
    assert {p["name"]: p["abbreviation"] for p in great} == POWERS
    assert factions == ["Imperials", "Kuomintang", "Communists"]
    for p in great:
        assert p["home_centers"] == [], p["name"]


@pytest.mark.parametrize(
    "a, b",
    [
        ("Hopeh", "Shamtung"),
        ("Hupeh", "Hunan"),
        ("Lioning", "Hopeh"),
        ("Szechan", "Yunan"),
        ("Kwangsi", "Kwangtung"),
        ("Kiangsu", "Chekiang"),
        ("Shensi", "Kansu"),
        ("Gungkiang", "Kirin"),
        ("Idaopeh", "Lioning"),
    ],
)
def test_sample_real_borders(adjacency, a, b):
    assert b in adjacency[a]


@pytest.mark.parametrize(
    "a, b",
    [
        ("Kwangsi", "Pacific Ocean"),  # Kwangsi had no coast before the 1950s
        ("Kirin", "Pacific Ocean"),  # Kirin stops short of the sea
        ("Jehol", "Pacific Ocean"),
        ("Shamtung", "Anhwei"),  # Xiao and Dangshan were Kiangsu counties until 1955
        ("Siberia", "Lioning"),
    ],
)
def test_sample_non_borders(adjacency, a, b):
    assert b not in adjacency[a]
