"""Checks of the map data files in variants/ (plain json, no engine imports)."""

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = ROOT / "variants"
SHARED_COLONIAL = ROOT / ".." / "shared" / "maps" / "colonial.json"
LOCAL_COLONIAL = Path(__file__).resolve().parent / "data" / "colonial.json"

KINDS = {"A", "F", "AF"}
TYPES = {"land", "coast", "sea"}


def load_variant(vid):
    with open(VARIANTS / vid / "variant.json", encoding="utf-8") as f:
        return json.load(f)


def load_colonial_source():
    path = SHARED_COLONIAL if SHARED_COLONIAL.is_file() else LOCAL_COLONIAL
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def norm(name):
    return "".join(ch for ch in name.lower() if ch not in " .-")


def locations(variant):
    """Every place a border may name: provinces and Province/xc coasts."""
    provinces = {p["name"]: p for p in variant["provinces"]}
    locs = set(provinces)
    for p in variant["provinces"]:
        for c in p.get("coasts", []):
            locs.add(p["name"] + "/" + c)
    return provinces, locs


def check_common(variant):
    provinces, locs = locations(variant)
    assert len(provinces) == len(variant["provinces"]), "duplicate province name"
    names = {}
    for p in variant["provinces"]:
        assert p["type"] in TYPES, p
        assert isinstance(p["supply_center"], bool), p
        for n in [p["name"], p["abbreviation"]] + p.get("aliases", []):
            assert names.setdefault(norm(n), p["name"]) == p["name"], f"name clash: {n}"
    seen = set()
    for a, b, kinds in variant["borders"]:
        assert kinds in KINDS, (a, b, kinds)
        assert a in locs, f"unknown endpoint {a}"
        assert b in locs, f"unknown endpoint {b}"
        pair = frozenset((a, b))
        assert len(pair) == 2, (a, b)
        assert pair not in seen, f"duplicate border {a} - {b}"
        seen.add(pair)
        for end in (a, b):
            prov = provinces[end.split("/")[0]]
            if "A" in kinds:
                assert "/" not in end and prov["type"] != "sea", (a, b, kinds)
            if "F" in kinds:
                assert prov["type"] != "land", (a, b, kinds)
                assert "/" in end or not prov.get("coasts"), (a, b, kinds)
    powers = {p["name"] for p in variant["powers"]}
    for power in variant["powers"]:
        for h in power["home_centers"]:
            assert provinces[h]["supply_center"], h
    for u in variant["starting_units"]:
        assert u["power"] in powers, u
        assert u["unit"] in ("A", "F"), u
        assert u["location"] in locs, u
        prov = provinces[u["location"].split("/")[0]]
        if u["unit"] == "A":
            assert prov["type"] != "sea" and "/" not in u["location"], u
        else:
            assert prov["type"] != "land", u
            assert "/" in u["location"] or not prov.get("coasts"), u
    return provinces


# ---------------------------------------------------------------- standard


@pytest.fixture(scope="module")
def standard():
    return load_variant("standard")


def test_standard_counts(standard):
    provinces = check_common(standard)
    assert len(provinces) == 75
    assert sum(p["supply_center"] for p in standard["provinces"]) == 34
    assert len(standard["starting_units"]) == 22
    assert len(standard["powers"]) == 7
    assert standard["victory_centers"] == 18


def test_standard_split_coasts(standard):
    provinces, _ = locations(standard)
    split = {n: p["coasts"] for n, p in provinces.items() if p.get("coasts")}
    assert split == {"Spain": ["nc", "sc"], "St Petersburg": ["nc", "sc"], "Bulgaria": ["ec", "sc"]}
    assert {"power": "Russia", "unit": "F", "location": "St Petersburg/sc"} in standard[
        "starting_units"
    ]


def test_standard_sample_borders(standard):
    kinds = {frozenset(b[:2]): b[2] for b in standard["borders"]}
    assert kinds[frozenset(("Brest", "Picardy"))] == "AF"
    assert kinds[frozenset(("Paris", "Picardy"))] == "A"
    assert kinds[frozenset(("Piedmont", "Venice"))] == "A"
    assert kinds[frozenset(("Spain/nc", "Mid-Atlantic Ocean"))] == "F"
    assert kinds[frozenset(("Constantinople", "Bulgaria/ec"))] == "F"
    assert frozenset(("Spain", "Mid-Atlantic Ocean")) not in kinds


# ---------------------------------------------------------------- colonial


@pytest.fixture(scope="module")
def colonial():
    return load_variant("colonial")


@pytest.fixture(scope="module")
def source():
    return load_colonial_source()


def test_colonial_structure(colonial):
    provinces = check_common(colonial)
    assert len(provinces) == 119
    assert sum(p["supply_center"] for p in colonial["provinces"]) == 58
    assert len(colonial["borders"]) == 339
    assert colonial["victory_centers"] == 29


def test_colonial_borders_match_source(colonial, source):
    ours = [(frozenset((a, b)), "A" in k, "F" in k) for a, b, k in colonial["borders"]]
    theirs = [(frozenset((b["a"], b["b"])), b["army"], b["fleet"]) for b in source["borders"]]
    assert len(ours) == len(set(ours))
    assert set(ours) == set(theirs)


def test_colonial_provinces_match_source(colonial, source):
    def facts(p):
        return (
            p["name"],
            p["type"],
            p["supply_center"],
            sorted(p.get("coasts") or []),
            p["abbreviation"],
        )

    assert sorted(map(facts, colonial["provinces"])) == sorted(map(facts, source["provinces"]))


def test_colonial_powers_and_units_match_source(colonial, source):
    assert [p["name"] for p in colonial["powers"]] == source["powers"]
    assert {p["name"]: sorted(p["home_centers"]) for p in colonial["powers"]} == {
        k: sorted(v) for k, v in source["home_supply_centers"].items()
    }
    ours = {(u["power"], u["unit"], u["location"]) for u in colonial["starting_units"]}
    theirs = {
        (power, unit, loc)
        for power, units in source["starting_units"].items()
        for loc, unit in units.items()
    }
    assert ours == theirs


def test_colonial_extras(colonial, source):
    provinces, _ = locations(colonial)
    assert provinces["Hong Kong"]["not_a_center_for"] == ["China"]
    assert "Abyssinia" in provinces["Abysinnia"]["aliases"]
    assert "Conchin" in provinces["Cochin"]["aliases"]
    assert "AND.S" in provinces["Andaman Sea"]["aliases"]
    assert (
        colonial["rule_data"]["trans_siberian_railroad"]["route"]
        == source["trans_siberian_railroad"]
    )
    assert colonial["rule_data"]["suez_canal"] == source["suez_canal"]
