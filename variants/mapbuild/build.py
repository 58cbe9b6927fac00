"""Build a variant's board.svg and anchors.json from its geography.json seeds.

Besides the keys in variants/geodata/README.md, geography.json may give: ``land`` (which
derivative in variants/geodata to read), ``add_land`` (an inland sea drawn inside its province,
or small islands enlarged to hold a unit), ``draw_as`` (a land-type entry space drawn on the
water, e.g. {"Pacific Ocean": "sea"}), ``impassable_sea`` (seed groups for unplayable open
water, so that an entry band along a coast ends somewhere) and ``notes`` (text at a point).
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import shapely
from shapely.geometry import LineString, Point, Polygon, box
from shapely.ops import nearest_points

from . import adjacency, geodata, geometry, svg

VARIANTS = Path(__file__).resolve().parent.parent
SIMPLIFY_KM = 2.5
WIGGLE_KM = 7.0
WATER = "water"  # open sea beyond the board: split like a sea, not playable


@dataclass
class Board:
    """Everything svg.py needs, already in SVG coordinates."""

    width: float
    height: float
    units_per_km: float
    variant: dict
    geography: dict
    regions: dict[str, geometry.Region]
    arcs: list[tuple[str, str, list[tuple[float, float]]]]
    anchors: dict[str, dict]
    railroad: list[tuple[float, float]]
    canal: list[tuple[float, float]]
    bridges: list[tuple[tuple[float, float], tuple[float, float]]]
    straits: list[tuple[tuple[float, float], tuple[float, float]]]
    projection: geometry.Projection
    notes: list[tuple[float, float, str]]


def build(variant_id: str) -> Board:
    """Compute the board; writes nothing."""
    folder = VARIANTS / variant_id
    variant = json.loads((folder / "variant.json").read_text())
    geography = json.loads((folder / "geography.json").read_text())
    projection = geometry.Projection(geography["projection"])
    x0, y0, x1, y1 = geography["frame_km"]
    frame = box(x0, y0, x1, y1)
    scale = geography["width"] / (x1 - x0)
    height = round((y1 - y0) * scale, 1)

    def to_svg(p: tuple[float, float]) -> tuple[float, float]:
        return (round((p[0] - x0) * scale, 1), round((y1 - p[1]) * scale, 1))

    land_file = geography.get("land", geodata.DEFAULT_LAND)
    land = geometry.land_shape(geodata.read_land(land_file), projection, frame)
    land = _add_land(land, geography.get("add_land", []), projection, frame)
    kinds = {p["name"]: p["type"] for p in variant["provinces"]}
    # An entry space may be drawn on water (armies landing from the sea): split the sea for it.
    kinds.update(geography.get("draw_as", {}))
    missing = set(kinds) - set(geography["provinces"])
    if missing:
        raise ValueError(f"no seeds for {sorted(missing)}")
    open_water = geography.get("impassable_sea", {})
    seeds = []
    groups = {**geography["provinces"], **geography["impassable"], **open_water}
    for name, points in groups.items():
        for lat, lon in points:
            seed = geometry.Seed(name, projection.point(lat, lon), (lat, lon))
            if not frame.contains(Point(seed.xy)):
                print(f"warning: seed of {name} at {lat}, {lon} is outside the frame")
                continue
            seeds.append(seed)
    for name in geography["impassable"]:
        kinds[name] = geometry.IMPASSABLE
    for name in open_water:
        kinds[name] = "sea"  # split the water like a sea, drawn as unplayable water below
    shapes = {
        name: projection.geometry(Polygon([(lon, lat) for lat, lon in outline]))
        for name, outline in geography.get("impassable_shapes", {}).items()
    }
    regions, arcs = geometry.partition(frame, land, shapes, seeds, kinds)
    for name in open_water:
        if name in regions:
            regions[name].kind = WATER

    # Simplify and wiggle each arc once, then round: both neighbours reuse the same points.
    svg_arcs = []
    for arc in arcs:
        points = geometry.simplify(arc.points, SIMPLIFY_KM)
        both_land = kinds.get(arc.left) in ("land", "coast") and kinds.get(arc.right) in (
            "land",
            "coast",
        )
        if both_land and points[0] != points[-1]:
            points = geometry.wiggle(points, arc.left + arc.right, WIGGLE_KM, 12.0)
        rounded = []
        for p in points:
            q = to_svg(p)
            if not rounded or rounded[-1] != q:
                rounded.append(q)
        if len(rounded) < 2 or (rounded[0] == rounded[-1] and len(rounded) < 4):
            continue
        svg_arcs.append((arc.left, arc.right, rounded))
    by_region = defaultdict(list)
    for left, right, points in svg_arcs:
        by_region[left].append(points)
        by_region[right].append(points)
    for name, region in regions.items():
        region.rings = geometry.stitch(by_region.get(name, []))

    anchors = _anchors(variant, geography, regions, projection, to_svg, scale)
    railroad = [to_svg(projection.point(lat, lon)) for lat, lon in geography.get("railroad", [])]
    canal = (
        [to_svg(projection.point(lat, lon)) for lat, lon in geography["canal"]["path"]]
        if ("canal" in geography)
        else []
    )
    bridges, straits = [], []
    for link in geography.get("links", []):
        if link["kind"] not in ("bridge", "strait"):
            continue
        a, b = (regions[n].shape for n in link["between"])
        if "at" in link:  # a point in the strait: span from each side's nearest shore
            at = Point(projection.point(*link["at"]))
            pa, pb = nearest_points(a, at)[0], nearest_points(b, at)[0]
        else:
            pa, pb = nearest_points(a, b)
        ends = (to_svg((pa.x, pa.y)), to_svg((pb.x, pb.y)))
        (bridges if link["kind"] == "bridge" else straits).append(ends)
    notes = [
        (*to_svg(projection.point(*note["at"])), note["text"])
        for note in geography.get("notes", [])
    ]
    return Board(
        geography["width"],
        height,
        scale,
        variant,
        geography,
        regions,
        svg_arcs,
        anchors,
        railroad,
        canal,
        bridges,
        straits,
        projection,
        notes,
    )


def _add_land(land, extra: list[dict], projection, frame):
    """Land the data lacks on purpose: an inland sea drawn inside its province (``outline``),
    or the hull of discs round islands too small to hold a unit (``points`` and ``km``)."""
    if not extra:
        return land
    blobs = []
    for item in extra:
        if "outline" in item:
            outline = Polygon([(lon, lat) for lat, lon in item["outline"]])
            blobs.append(projection.geometry(outline))
        else:
            discs = [Point(projection.point(*p)).buffer(item["km"]) for p in item["points"]]
            blobs.append(shapely.unary_union(discs).convex_hull)
    grown = shapely.unary_union([land, *blobs]).intersection(frame)
    return shapely.MultiPolygon(geometry._components(grown))


LABEL_OFFSETS = [
    (0, -9),
    (0, -17),
    (0, 17),
    (-16, -9),
    (16, -9),
    (0, -25),
    (-24, 8),
    (24, 8),
    (0, 25),
    (-30, -9),
    (30, -9),
    (0, -33),
]


def label_size(name: str, sea: bool) -> tuple[float, float]:
    """Rough text box of a name in svg.py's fonts (sea names break at spaces when long)."""
    lines = name.split(" ") if sea and len(name) > 12 else [name]
    return (max(len(line) for line in lines) * (5.8 if sea else 6.0) + 4, 10.5 * len(lines) + 1)


def _anchors(variant, geography, regions, projection, to_svg, scale) -> dict[str, dict]:
    """Unit, label and supply-centre spots per province, and unit spots per coast.

    Units sit at the pole of inaccessibility, the centre marker beside it; names take the
    first nearby spot that stays inside the province and clear of other names and markers.
    """
    overrides = geography.get("labels", {})
    x0, _y0, _x1, y1 = geography["frame_km"]
    width = geography["width"]
    result: dict[str, dict] = {}
    px = 1 / scale  # km per SVG unit
    centres = {}
    boxes: list[tuple[float, float, float, float]] = []
    for province in variant["provinces"]:
        name = province["name"]
        (cx, cy), radius = geometry.label_point(regions[name].shape)
        centres[name] = ((cx, cy), radius * scale)
        ux, uy = to_svg((cx, cy))
        entry: dict = {"unit": [ux, uy]}
        if province.get("supply_center"):
            entry["sc"] = list(to_svg(tuple(_sc_spot(regions[name].shape, (cx, cy), px))))
        extra = overrides.get(name, {})
        for key in ("unit", "sc"):
            if key in extra:
                entry[key] = list(to_svg(projection.point(*extra[key])))
        for key in ("unit", "sc"):
            if key in entry:
                bx, by = entry[key]
                boxes.append((bx - 5, by - 5, bx + 5, by + 5))
        result[name] = entry

    def inside(name: str, x: float, y: float) -> bool:
        return regions[name].shape.contains(Point(x * px + x0, y1 - y * px))

    def clear(box4) -> bool:
        a0, b0, a1, b1 = box4
        return all(a1 <= c0 or a0 >= c1 or b1 <= d0 or b0 >= d1 for c0, d0, c1, d1 in boxes)

    order = sorted(
        variant["provinces"], key=lambda p: (p["name"] not in overrides, centres[p["name"]][1])
    )
    for province in order:
        name = province["name"]
        entry = result[name]
        sea = regions[name].kind == "sea"
        w, h = label_size(name, sea)
        extra = overrides.get(name, {})
        ux, uy = entry["unit"]
        candidates = (
            [tuple(to_svg(projection.point(*extra["label"])))]
            if "label" in extra
            else [(ux + dx, uy + dy) for dx, dy in LABEL_OFFSETS]
        )
        chosen = None
        for x, y in candidates:
            x = min(max(x, w / 2 + 3), width - w / 2 - 3)
            box4 = (x - w / 2, y - h / 2, x + w / 2, y + h / 2)
            if "label" in extra or (clear(box4) and inside(name, x, y)):
                chosen = (x, y, box4)
                break
        if chosen is None:
            x, y = candidates[0]
            x = min(max(x, w / 2 + 3), width - w / 2 - 3)
            chosen = (x, y, (x - w / 2, y - h / 2, x + w / 2, y + h / 2))
        entry["label"] = [round(chosen[0], 1), round(chosen[1], 1)]
        boxes.append(chosen[2])
        if extra.get("leader"):
            entry["leader"] = list(entry["unit"])
    for province in variant["provinces"]:
        name = province["name"]
        for coast in province.get("coasts", []):
            key = f"{name}/{coast}"
            result[key] = _coast_anchor(variant, regions, name, coast, to_svg, px, centres[name][0])
            if key in overrides:
                result[key]["unit"] = list(to_svg(projection.point(*overrides[key]["unit"])))
    return result


def _sc_spot(shape, centre: tuple[float, float], px: float) -> list[float]:
    """Beside the unit if there is room (12 units right first), else as close as fits."""
    cx, cy = centre
    for distance in (12, 10, 8, 6, 4):
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (0.7, 0.7), (-0.7, 0.7)):
            x, y = cx + dx * distance * px, cy - dy * distance * px
            if shape.buffer(-2 * px).contains(Point(x, y)):
                return [x, y]
    return [cx, cy]


def _coast_anchor(variant, regions, name, coast, to_svg, px, centre) -> dict:
    """A fleet spot just inland of the longest shore this coast shares with its seas."""
    seas = {
        (b if a == f"{name}/{coast}" else a).split("/")[0]
        for a, b, kinds in variant["borders"]
        if "F" in kinds and f"{name}/{coast}" in (a, b)
    }
    seas = {s for s in seas if regions[s].kind == "sea"}
    shape = regions[name].shape
    best, best_len = None, 0.0
    for sea in seas:
        common = shape.boundary.intersection(regions[sea].shape.boundary)
        for line in geometry._lines(shapely.line_merge(common) if not common.is_empty else common):
            if line.length > best_len:
                best, best_len = line, line.length
    if best is None:
        return {"unit": list(to_svg(centre))}
    mid = best.interpolate(0.5, normalized=True)
    toward = LineString([mid, Point(centre)])
    spot = toward.interpolate(min(6 * px, toward.length * 0.5))
    if not shape.contains(spot):
        spot = mid
    x, y = to_svg((spot.x, spot.y))
    label_spot = toward.interpolate(min(16 * px, toward.length * 0.7))
    lx, ly = to_svg((label_spot.x, label_spot.y))
    return {"unit": [x, y], "label": [lx, ly]}


def all_lengths_km(svg_text: str, units_per_km: float) -> dict:
    lengths = adjacency.shared_lengths(adjacency.province_paths(svg_text))
    return {pair: value / units_per_km for pair, value in lengths.items()}


def write(variant_id: str) -> tuple[list, list]:
    """Build, write board.svg and anchors.json, and return (missing, extra)."""
    board = build(variant_id)
    folder = VARIANTS / variant_id
    text = svg.render(board)
    (folder / "board.svg").write_text(text)
    anchors = {
        "about": "Spots on board.svg, in its SVG units, written by variants/mapbuild.",
        "width": board.width,
        "height": board.height,
        "units_per_km": round(board.units_per_km, 6),
        "provinces": board.anchors,
    }
    (folder / "anchors.json").write_text(json.dumps(anchors, indent=1) + "\n")
    from ..render import write_layouts  # the names laid out ahead for the server

    write_layouts([variant_id])
    missing, extra, _drawn = adjacency.compare(folder)
    lengths = all_lengths_km(text, board.units_per_km)
    print(adjacency.report(missing, extra, lengths))
    for link in board.geography.get("links", []):
        a, b = sorted(link["between"])
        if link["kind"] != "canal" and lengths.get((a, b), 0) > 0:
            print(f"note: declared {link['kind']} {a} - {b} also shares {lengths[(a, b)]:.0f} km")
    for a, b in extra:
        common = board.regions[a].shape.boundary.intersection(board.regions[b].shape.boundary)
        if not common.is_empty:
            lat, lon = board.projection.latlon(*common.centroid.coords[0])
            print(f"  where: {a} - {b} near {lat:.1f}N {lon:.1f}E, {lengths.get((a, b), 0):.0f} km")
    return missing, extra
