"""Compare what a board drawing shows with the rules graph, using only the standard library.

Shared by the build (which prints the differences after each run) and the tests (which fail on
any). A drawn border is a run of identical consecutive vertices in two province paths, so the
board must be drawn from shared arcs with absolute M/L/Z commands only.
"""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

SVG_NS = "{http://www.w3.org/2000/svg}"
Point = tuple[float, float]
Pair = tuple[str, str]
_TOKEN = re.compile(r"[MLZmlz]|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def parse_path(d: str) -> list[list[Point]]:
    """Rings of an SVG path written with absolute M, L and Z only."""
    rings: list[list[Point]] = []
    tokens = _TOKEN.findall(d)
    numbers: list[float] = []
    command = ""

    def flush() -> None:
        if len(numbers) % 2:
            raise ValueError(f"odd number of coordinates in path: {d[:60]}")
        points = [(numbers[i], numbers[i + 1]) for i in range(0, len(numbers), 2)]
        if command == "M":
            rings.append(points)
        elif command == "L":
            if not rings:
                raise ValueError("L before M")
            rings[-1].extend(points)
        numbers.clear()

    for token in tokens:
        if token in "MLZmlz":
            if token in "mlz" and token != "z":
                raise ValueError(f"relative command {token!r}: use absolute M/L/Z")
            flush()
            command = token.upper()
        else:
            numbers.append(float(token))
    flush()
    return rings


def province_paths(svg_text: str) -> dict[str, list[list[Point]]]:
    """Province name -> rings, from every ``<path id="p-..." data-province="...">``."""
    root = ET.fromstring(svg_text)
    paths: dict[str, list[list[Point]]] = {}
    for element in root.iter(f"{SVG_NS}path"):
        if not element.get("id", "").startswith("p-"):
            continue
        name = element.get("data-province")
        if not name:
            raise ValueError(f"path {element.get('id')} has no data-province")
        paths.setdefault(name, []).extend(parse_path(element.get("d", "")))
    return paths


def shared_lengths(paths: dict[str, list[list[Point]]]) -> dict[Pair, float]:
    """Length (SVG units) of the border every pair of provinces shares, closing segments too."""
    owners: dict[tuple[Point, Point], set[str]] = defaultdict(set)
    for name, rings in paths.items():
        for ring in rings:
            closed = ring if ring[0] == ring[-1] else [*ring, ring[0]]
            for a, b in zip(closed, closed[1:], strict=False):
                if a != b:
                    owners[(a, b) if a <= b else (b, a)].add(name)
    lengths: dict[Pair, float] = defaultdict(float)
    for (a, b), names in owners.items():
        if len(names) < 2:
            continue
        ordered = sorted(names)
        for i, first in enumerate(ordered):
            for second in ordered[i + 1 :]:
                lengths[(first, second)] += math.dist(a, b)
    return dict(lengths)


def drawn_pairs(svg_text: str, units_per_km: float, min_km: float) -> dict[Pair, float]:
    """Pairs whose drawn common border is longer than ``min_km``, with that length in km."""
    lengths = shared_lengths(province_paths(svg_text))
    km = {pair: length / units_per_km for pair, length in lengths.items()}
    return {pair: value for pair, value in km.items() if value > min_km}


def rules_pairs(variant: dict) -> set[Pair]:
    """Province-level union of all borders: 'Arabia/nc' counts as Arabia."""
    pairs = set()
    for a, b, _kinds in variant["borders"]:
        a, b = a.split("/")[0], b.split("/")[0]
        if a != b:
            pairs.add(tuple(sorted((a, b))))
    return pairs


def declared_links(geography: dict) -> set[Pair]:
    """Borders that are not drawn as shared edges: land bridges, canal."""
    return {tuple(sorted(link["between"])) for link in geography.get("links", [])}


def compare(variant_dir: Path) -> tuple[list[Pair], list[Pair], dict[Pair, float]]:
    """(missing, extra, drawn km) for the board in ``variant_dir``."""
    svg_text = (variant_dir / "board.svg").read_text()
    anchors = json.loads((variant_dir / "anchors.json").read_text())
    variant = json.loads((variant_dir / "variant.json").read_text())
    geography_file = variant_dir / "geography.json"
    geography = json.loads(geography_file.read_text()) if geography_file.exists() else {}
    min_km = geography.get("min_border_km", 30)
    drawn = drawn_pairs(svg_text, anchors["units_per_km"], min_km)
    shown = set(drawn) | declared_links(geography)
    rules = rules_pairs(variant)
    return sorted(rules - shown), sorted(shown - rules), drawn


def report(missing: list[Pair], extra: list[Pair], close: dict[Pair, float] | None = None) -> str:
    """Human-readable list of every difference."""
    lines = [f"missing {len(missing)} (in the rules, not drawn):"]
    for a, b in missing:
        note = f"  (shared {close[(a, b)]:.0f} km)" if close and (a, b) in close else ""
        lines.append(f"  {a} - {b}{note}")
    lines.append(f"extra {len(extra)} (drawn, not in the rules):")
    lines += [f"  {a} - {b}" for a, b in extra]
    return "\n".join(lines)
