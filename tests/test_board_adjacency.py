"""The drawn board must show exactly the rules graph: every border, and nothing else.

Pure standard library (no geo packages): parse each committed ``variants/*/board.svg``, find the
borders that two province paths share vertex for vertex, keep those longer than the variant's
``min_border_km``, add the declared land bridges, canal and straits from ``geography.json``, and
compare with the province-level union of all borders in ``variant.json``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from variants.mapbuild import adjacency

VARIANTS = Path(__file__).resolve().parent.parent / "variants"
BOARDS = sorted(VARIANTS.glob("*/board.svg"))


def test_some_board_is_checked() -> None:
    assert any(board.parent.name == "colonial" for board in BOARDS)


@pytest.mark.parametrize("board", BOARDS, ids=[b.parent.name for b in BOARDS])
def test_drawn_borders_match_rules(board: Path) -> None:
    missing, extra, _drawn = adjacency.compare(board.parent)
    assert not missing and not extra, f"{board}:\n" + adjacency.report(missing, extra)


@pytest.mark.parametrize("board", BOARDS, ids=[b.parent.name for b in BOARDS])
def test_every_province_is_drawn_once_with_a_title(board: Path) -> None:
    variant = json.loads((board.parent / "variant.json").read_text())
    text = board.read_text()
    paths = adjacency.province_paths(text)
    assert sorted(paths) == sorted(p["name"] for p in variant["provinces"])
    for province in variant["provinces"]:
        assert f'id="p-{province["abbreviation"]}"' in text
        assert f"<title>{province['name']}</title>" in text


@pytest.mark.parametrize("board", BOARDS, ids=[b.parent.name for b in BOARDS])
def test_anchors_cover_provinces_and_coasts(board: Path) -> None:
    variant = json.loads((board.parent / "variant.json").read_text())
    anchors = json.loads((board.parent / "anchors.json").read_text())
    assert anchors["units_per_km"] > 0
    spots = anchors["provinces"]
    for province in variant["provinces"]:
        entry = spots[province["name"]]
        assert len(entry["unit"]) == 2 and len(entry["label"]) == 2
        assert ("sc" in entry) == bool(province.get("supply_center"))
        for coast in province.get("coasts", []):
            assert len(spots[f"{province['name']}/{coast}"]["unit"]) == 2
        for x, y in (entry["unit"], entry["label"]):
            assert 0 <= x <= anchors["width"] and 0 <= y <= anchors["height"]


# The checker itself must be able to fail: tiny hand-made boards.

SQUARES = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 30 10">
<path id="p-AAA" data-province="A" d="M0 0L10 0L10 10L0 10Z"/>
<path id="p-BBB" data-province="B" d="M10 0L20 0L20 10L10 10Z"/>
<path id="p-CCC" data-province="C" d="M20 0L30 0L30 10L20 10Z"/>
</svg>"""


def test_shared_edges_are_found_including_closing_segment() -> None:
    lengths = adjacency.shared_lengths(adjacency.province_paths(SQUARES))
    assert lengths == {("A", "B"): 10.0, ("B", "C"): 10.0}


def test_short_borders_do_not_count() -> None:
    # 1 SVG unit per km: a 10 km border is below a 30 km threshold.
    assert adjacency.drawn_pairs(SQUARES, units_per_km=1.0, min_km=30) == {}
    assert set(adjacency.drawn_pairs(SQUARES, units_per_km=0.1, min_km=30)) == {
        ("A", "B"),
        ("B", "C"),
    }


def test_relative_commands_are_refused() -> None:
    with pytest.raises(ValueError):
        adjacency.parse_path("M0 0l10 0L10 10Z")


def test_compare_reports_missing_and_extra(tmp_path: Path) -> None:
    (tmp_path / "board.svg").write_text(SQUARES)
    (tmp_path / "anchors.json").write_text(json.dumps({"units_per_km": 1.0}))
    (tmp_path / "geography.json").write_text(json.dumps({"min_border_km": 5, "links": []}))
    variant = {"borders": [["A", "B", "A"], ["A/nc", "C", "F"]]}
    (tmp_path / "variant.json").write_text(json.dumps(variant))
    missing, extra, _ = adjacency.compare(tmp_path)
    assert missing == [("A", "C")]
    assert extra == [("B", "C")]
    text = adjacency.report(missing, extra)
    assert "A - C" in text and "B - C" in text
