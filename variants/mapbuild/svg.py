"""Write the board as plain SVG: absolute M/L/Z paths, so the server and tests parse it easily."""

from __future__ import annotations

import math
from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .build import Board

STYLE = """
.sea{fill:#a9cfe8}.land{fill:#efe4c4}.coast{fill:#efe4c4}
.impassable,.lake{fill:#9c9c9c}.islet{fill:#d8d1bd}
.b-coast{fill:none;stroke:#3e5f78;stroke-width:0.9;stroke-linejoin:round}
.b-land{fill:none;stroke:#7a6548;stroke-width:0.8;stroke-linejoin:round}
.b-sea{fill:none;stroke:#6f97b5;stroke-width:0.7}
.b-imp{fill:none;stroke:#555;stroke-width:0.8;stroke-linejoin:round}
.rail{fill:none;stroke:#2b2b2b;stroke-width:1.4;stroke-linejoin:round;stroke-linecap:round}
.ties{fill:none;stroke:#2b2b2b;stroke-width:5;stroke-dasharray:1.3 3.7}
.canal{fill:none;stroke:#1d5fa3;stroke-width:2.2;stroke-linecap:round}
.strait{fill:none;stroke:#1d5fa3;stroke-width:1.6;stroke-dasharray:2 1.5}
.bridge{stroke:#2b2b2b;stroke-width:1.6;stroke-linecap:round}
.leader{stroke:#333;stroke-width:0.7}
text{font-family:'DejaVu Sans',Verdana,Arial,sans-serif;text-anchor:middle}
.name{font-size:9.5px;font-weight:bold;fill:#2d2414}
.seaname{font-size:10px;font-style:italic;fill:#1c4a70}
.note{font-size:8px;font-style:italic;fill:#1d5fa3;pointer-events:none}
.halo{stroke:#fffbea;stroke-width:2.4;stroke-linejoin:round;fill:#fffbea}
.seahalo{stroke:#d6ebf7;stroke-width:2.4;stroke-linejoin:round;fill:#d6ebf7}
.sc{fill:#fff;stroke:#222;stroke-width:1}
.scdot{fill:#222}
""".strip()

# Only for boards that have oceans, entry spaces, open water or notes (keeps older boards as
# they were).
EXTRA_STYLE = """
.ocean{fill:#5f8fbf}.water{fill:#c5d3dc}
.hatch{fill:url(#hatch);stroke:none;pointer-events:none}
.oceanname{font-size:13px;font-weight:bold;font-style:italic;fill:#f4f9ff}
.oceannote{font-size:9px;font-weight:bold;fill:#f4f9ff}
.oceanhalo{stroke:#234a72;stroke-width:3;stroke-linejoin:round;fill:#234a72}
.entrynote{font-size:8.5px;font-style:italic;font-weight:bold;fill:#5a2d0c}
.entrynote,.oceannote{pointer-events:none}
""".strip()
HATCH = (
    '<defs><pattern id="hatch" width="7" height="7" patternUnits="userSpaceOnUse" '
    'patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="7" '
    'style="stroke:#8a5a2b;stroke-width:1.3;stroke-opacity:0.55"/></pattern></defs>'
)
OCEAN_NOTE = "OCEAN: any number of fleets"

LAND_TINTS = ["#efe4c4", "#e8dcb5", "#f3e9cf", "#e4d8ae", "#ece0bc"]


def _d(rings) -> str:
    parts = []
    for ring in rings:
        points = ring[:-1] if ring[0] == ring[-1] else ring
        head = f"M{_n(points[0][0])} {_n(points[0][1])}"
        body = "".join(f"L{_n(x)} {_n(y)}" for x, y in points[1:])
        parts.append(head + body + "Z")
    return "".join(parts)


def _n(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _line(points) -> str:
    return "M" + "L".join(f"{_n(x)} {_n(y)}" for x, y in points)


def _text(x: float, y: float, text: str, cls: str, halo: str) -> list[str]:
    """Text with a halo drawn underneath (a copy), which every renderer understands."""
    content = escape(text)
    lines = content.split("\n")
    out = []
    for which in (halo, cls):
        cls_attr = f"{cls} {which}" if which == halo else cls
        for i, line in enumerate(lines):
            yy = y + (i - (len(lines) - 1) / 2) * 10.5
            out.append(f'<text x="{_n(x)}" y="{_n(yy + 3.3)}" class="{cls_attr}">{line}</text>')
    return out


def render(board: Board) -> str:
    """The whole board.svg text."""
    w, h = board.width, board.height
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_n(w)} {_n(h)}" '
        f'width="{_n(w)}" height="{_n(h)}" data-units-per-km="{board.units_per_km:.6f}">',
        f"<title>{escape(board.variant['name'])}</title>",
        f"<desc>Drawn by variants/mapbuild from real latitude and longitude. "
        f"{escape(board.geography.get('credit', 'Made with Natural Earth.'))}</desc>",
    ]
    flags = {p["name"]: set(p.get("flags", [])) for p in board.variant["provinces"]}
    oceans = {name for name, f in flags.items() if "ocean" in f}
    entries = [name for name, f in flags.items() if "entry" in f]
    water = any(r.kind == "water" for r in board.regions.values())
    if oceans or entries or water or board.notes:
        out.append(f"<style>{STYLE}\n{EXTRA_STYLE}</style>")
    else:
        out.append(f"<style>{STYLE}</style>")
    if entries:
        out.append(HATCH)
    out.append('<g id="provinces">')
    abbreviations = {p["name"]: p["abbreviation"] for p in board.variant["provinces"]}
    for i, province in enumerate(board.variant["provinces"]):
        name = province["name"]
        region = board.regions[name]
        style = ""
        if region.kind != "sea":
            style = f' style="fill:{LAND_TINTS[i % len(LAND_TINTS)]}"'
        cls = f"{region.kind} ocean" if name in oceans else region.kind
        out.append(
            f'<path id="p-{abbreviations[name]}" data-province="{escape(name)}" '
            f'class="{cls}"{style} fill-rule="evenodd" d="{_d(region.rings)}">'
            f"<title>{escape(name)}</title></path>"
        )
    out.append("</g>")
    if entries:  # hatching over the entry spaces' own fill, under the borders
        out.append('<g id="entry-spaces">')
        for name in entries:
            out.append(
                f'<path class="hatch" fill-rule="evenodd" d="{_d(board.regions[name].rings)}">'
                f"<title>{escape(name)}: entry space</title></path>"
            )
        out.append("</g>")
    out.append('<g id="impassable">')
    for i, region in enumerate(r for r in board.regions.values() if r.name not in abbreviations):
        out.append(
            f'<path id="x-{i}" class="{region.kind}" fill-rule="evenodd" '
            f'd="{_d(region.rings)}"><title>{escape(region.name)}</title></path>'
        )
    out.append("</g>")

    kinds = {name: region.kind for name, region in board.regions.items()}
    groups: dict[str, list] = {"b-sea": [], "b-land": [], "b-coast": [], "b-imp": []}
    for left, right, points in board.arcs:
        a, b = kinds.get(left, ""), kinds.get(right, "")
        if not right:
            continue  # the frame is drawn as a rectangle
        if {a, b} & {"impassable", "lake", "islet", "water"}:
            groups["b-imp"].append(points)
        elif a == "sea" and b == "sea":
            groups["b-sea"].append(points)
        elif "sea" in (a, b):
            groups["b-coast"].append(points)
        else:
            groups["b-land"].append(points)
    out.append('<g id="borders">')
    for cls, lines in groups.items():
        out.append(f'<path class="{cls}" d="{"".join(_line(p) for p in lines)}"/>')
    out.append("</g>")

    if board.railroad:
        d = _line(board.railroad)
        out.append('<g id="railroad"><title>Trans-Siberian Railroad</title>')
        out.append(f'<path class="rail" d="{d}"/>')
        out.append(f'<path class="ties" d="{d}"/>')
        out.append("</g>")
    if board.canal:
        out.append('<g id="canal"><title>Suez Canal</title>')
        out.append(f'<path class="canal" d="{_line(board.canal)}"/>')
        x, y = board.canal[-1]
        out += _text(x + 4, y + 10, "Suez Canal", "note", "seahalo")
        out.append("</g>")
    out.append('<g id="straits">')
    for a, b in board.straits:
        out.append(f'<path class="strait" d="{_line([a, b])}"/>')
    out.append("</g>")
    out.append('<g id="bridges">')
    for a, b in board.bridges:
        out += _bridge(a, b)
    out.append("</g>")

    out.append('<g id="supply-centres">')
    for province in board.variant["provinces"]:
        spot = board.anchors[province["name"]].get("sc")
        if spot:
            out.append(f'<circle class="sc" cx="{_n(spot[0])}" cy="{_n(spot[1])}" r="3.3"/>')
            out.append(f'<circle class="scdot" cx="{_n(spot[0])}" cy="{_n(spot[1])}" r="1.2"/>')
    out.append("</g>")

    out.append('<g id="labels">')
    for province in board.variant["provinces"]:
        name = province["name"]
        entry = board.anchors[name]
        x, y = entry["label"]
        if "leader" in entry:  # a line from the name to a space too small to hold it
            tx, ty = entry["leader"]
            out.append(
                f'<line class="leader" x1="{_n(x)}" y1="{_n(y)}" x2="{_n(tx)}" y2="{_n(ty)}"/>'
            )
        sea = board.regions[name].kind == "sea"
        if name in oceans:  # one large line, the note above it, clear of the unit spot below
            out += _text(x, y, name, "oceanname", "oceanhalo")
            out += _text(x, y - 14, OCEAN_NOTE, "oceannote", "oceanhalo")
            continue
        text = name.replace(" ", "\n") if sea and len(name) > 12 else name
        out += _text(x, y, text, "seaname" if sea else "name", "seahalo" if sea else "halo")
    out.append("</g>")
    if board.notes:
        out.append('<g id="notes">')
        for x, y, note in board.notes:
            out += _text(x, y, note, "entrynote", "halo")
        out.append("</g>")
    out.append(
        f'<rect x="0.5" y="0.5" width="{_n(w - 1)}" height="{_n(h - 1)}" '
        'style="fill:none;stroke:#333;stroke-width:1"/>'
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _bridge(a, b) -> list[str]:
    """Two short parallel lines across the strait between the two ends."""
    (x1, y1), (x2, y2) = a, b
    length = math.dist(a, b)
    if length < 1e-6:
        dx, dy = 1.0, 0.0
    else:
        dx, dy = (x2 - x1) / length, (y2 - y1) / length
    half = max(length / 2 + 4, 8)
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    out = []
    for side in (-2.2, 2.2):
        ox, oy = -dy * side, dx * side
        out.append(
            f'<line class="bridge" x1="{_n(mx - dx * half + ox)}" y1="{_n(my - dy * half + oy)}" '
            f'x2="{_n(mx + dx * half + ox)}" y2="{_n(my + dy * half + oy)}"/>'
        )
    return out
