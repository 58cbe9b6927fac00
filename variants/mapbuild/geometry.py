"""Province shapes from seed points: projection, Voronoi partition and shared arcs.

The board is one planar partition of the frame. Every border is computed once, as an arc
between two regions, and each region's outline is stitched from those arcs, so neighbours have
identical vertices along their common border (which is what the adjacency check relies on).
"""

from __future__ import annotations

import math
import zlib
from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np
import shapely
from pyproj import Transformer
from shapely.geometry import LineString, MultiPoint, Point, Polygon, box
from shapely.ops import polylabel

LatLon = tuple[float, float]
XY = tuple[float, float]

# Region kinds that are not provinces; they get no adjacency.
IMPASSABLE = "impassable"
LAKE = "lake"
ISLET = "islet"
OUTSIDE = ""


@dataclass
class Region:
    """One drawn area: a province, an impassable area, a lake or unplayable islets."""

    name: str
    kind: str  # land, coast, sea, impassable, lake, islet
    shape: object = None  # shapely geometry in projected km
    rings: list[list[XY]] = field(default_factory=list)  # SVG outline, stitched from arcs


@dataclass
class Arc:
    """A border between two regions (``right`` is OUTSIDE on the frame edge)."""

    left: str
    right: str
    points: list[XY]


class Projection:
    """Any pyproj projection in km. Boards use conformal ones so shapes stay true: Lambert
    conformal conic for mid-latitude Asia, stereographic for a region across the equator."""

    def __init__(self, params: dict) -> None:
        proj = " ".join(f"+{k}={v}" for k, v in params.items())
        self._forward = Transformer.from_crs(
            "EPSG:4326", f"{proj} +ellps=WGS84 +units=km", always_xy=True
        )

    def latlon(self, x: float, y: float) -> LatLon:
        lon, lat = self._forward.transform(x, y, direction="INVERSE")
        return (lat, lon)

    def point(self, lat: float, lon: float) -> XY:
        x, y = self._forward.transform(lon, lat)
        return (x, y)

    def geometry(self, geom):
        """Project a lon/lat shapely geometry."""

        def fn(coords: np.ndarray) -> np.ndarray:
            x, y = self._forward.transform(coords[:, 0], coords[:, 1])
            return np.column_stack([x, y])

        return shapely.transform(geom, fn)


def land_shape(polygons: list, projection: Projection, frame) -> object:
    """Project the committed land polygons and clip them to the board frame."""
    shapes = []
    for rings in polygons:
        poly = Polygon(rings[0], rings[1:])
        projected = projection.geometry(poly)
        if not projected.is_valid:  # rounding to 0.01 degree can pinch a ring
            projected = shapely.make_valid(projected)
        shapes.append(projected)
    land = shapely.unary_union(shapes).intersection(frame)
    return shapely.MultiPolygon(_components(land))


def _components(geom) -> list:
    """The polygons inside any geometry (collections from make_valid hold lines too)."""
    out = []
    for g in getattr(geom, "geoms", [geom]):
        if g.geom_type == "Polygon" and g.area > 0:
            out.append(g)
        elif hasattr(g, "geoms"):
            out.extend(_components(g))
    return out


@dataclass
class Seed:
    region: str
    xy: XY
    latlon: LatLon = (0.0, 0.0)


def partition(
    frame,
    land,
    shapes: dict[str, object],
    seeds: list[Seed],
    kinds: dict[str, str],
) -> tuple[dict[str, Region], list[Arc]]:
    """Split the frame into regions and return them with their shared border arcs.

    Land seeds split the land component they stand on, sea seeds the sea component; a land
    component with no seed is an unplayable islet, a sea component with none is a lake.
    ``shapes`` are impassable areas given as outlines (a lake the land data lacks).
    """
    blocked = shapely.unary_union(list(shapes.values())) if shapes else Polygon()
    land = land.difference(blocked)
    sea = frame.difference(land).difference(blocked)
    land_parts = _components(land)
    sea_parts = _components(sea)

    is_sea = {name: kind == "sea" for name, kind in kinds.items()}
    part_seeds: dict[tuple[str, int], list[Seed]] = defaultdict(list)
    land_tree = shapely.STRtree(land_parts)
    sea_tree = shapely.STRtree(sea_parts)
    problems = []
    for seed in seeds:
        pt = Point(seed.xy)
        tree, parts, where = (
            (sea_tree, sea_parts, "sea") if is_sea[seed.region] else (land_tree, land_parts, "land")
        )
        hits = [i for i in tree.query(pt) if parts[i].contains(pt)]
        if not hits:
            problems.append(f"seed of {seed.region} at {seed.latlon} is not on {where}")
            continue
        part_seeds[(where, int(hits[0]))].append(seed)
    if problems:
        raise ValueError("\n".join(problems))

    # Linework: frame, coasts, outlines of shapes, and each component's own Voronoi edges.
    lines = [frame.boundary, land.boundary]
    lines += [s.boundary for s in shapes.values()]
    for (where, index), group in part_seeds.items():
        if len({s.region for s in group}) < 2:
            continue
        part = (sea_parts if where == "sea" else land_parts)[index]
        env = box(*part.bounds).buffer(10)
        cells = shapely.voronoi_polygons(MultiPoint([s.xy for s in group]), extend_to=env)
        edges = shapely.unary_union([c.boundary for c in cells.geoms]).intersection(env)
        lines.append(edges)
    noded = shapely.unary_union(lines)
    faces = list(shapely.polygonize(list(_lines(noded))).geoms)

    def region_of(pt: Point) -> str:
        for name, shape in shapes.items():
            if shape.contains(pt):
                return name
        for where, tree, parts in (("land", land_tree, land_parts), ("sea", sea_tree, sea_parts)):
            for i in tree.query(pt):
                if parts[i].contains(pt):
                    group = part_seeds.get((where, int(i)))
                    if not group:
                        return "Islets" if where == "land" else "Lakes"
                    best = min(group, key=lambda s: (s.xy[0] - pt.x) ** 2 + (s.xy[1] - pt.y) ** 2)
                    return best.region
        # A sliver between parts from rounding: the nearest part decides.
        best_i = int(land_tree.nearest(pt))
        best_j = int(sea_tree.nearest(pt))
        if land_parts[best_i].distance(pt) <= sea_parts[best_j].distance(pt):
            return region_of(land_parts[best_i].representative_point())
        return region_of(sea_parts[best_j].representative_point())

    face_region = [region_of(f.representative_point()) for f in faces]

    # Which faces lie on each side of every segment.
    face_sides: dict[tuple[XY, XY], list[int]] = defaultdict(list)
    for index, face in enumerate(faces):
        for ring in [face.exterior, *face.interiors]:
            coords = list(ring.coords)
            for a, b in zip(coords, coords[1:], strict=False):
                face_sides[_key(a, b)].append(index)
    face_tree = shapely.STRtree(faces)
    seed_faces: dict[str, set[int]] = defaultdict(set)
    for seed in seeds:
        pt = Point(seed.xy)
        for i in face_tree.query(pt):
            if faces[i].covers(pt):
                seed_faces[seed.region].add(int(i))
    _reassign_orphans(face_region, face_sides, seed_faces, kinds)
    sides = {key: [face_region[i] for i in idx] for key, idx in face_sides.items()}

    by_pair: dict[tuple[str, str], list[LineString]] = defaultdict(list)
    for line in _lines(noded):
        coords = list(line.coords)
        names = sides.get(_key(coords[0], coords[1]))
        if not names:
            continue  # a dangle, e.g. a Voronoi edge that ends inside a face
        left, right = (names + [OUTSIDE])[:2]
        if left == right:
            continue
        by_pair[tuple(sorted((left, right)))].append(line)

    arcs = []
    for (a, b), pieces in by_pair.items():
        merged = shapely.line_merge(shapely.MultiLineString(pieces))
        for line in _lines(merged):
            arcs.append(Arc(a, b, list(line.coords)))

    regions: dict[str, Region] = {}
    grouped: dict[str, list] = defaultdict(list)
    for face, name in zip(faces, face_region, strict=True):
        grouped[name].append(face)
    for name, group in grouped.items():
        kind = kinds.get(name)
        if kind is None:
            kind = {"Islets": ISLET, "Lakes": LAKE}.get(name, IMPASSABLE)
            if name in shapes:
                kind = LAKE
        regions[name] = Region(name, kind, shapely.unary_union(group))
    return regions, arcs


def _reassign_orphans(
    face_region: list[str],
    face_sides: dict[tuple[XY, XY], list[int]],
    seed_faces: dict[str, set[int]],
    kinds: dict[str, str],
) -> None:
    """Give pieces cut off from all their seeds (across a strait or bay) to a neighbour.

    Straight-line Voronoi cells reach across water; a piece of a province that holds none of
    its seeds goes to the neighbour of the same sort (land or sea) sharing the longest border.
    """

    def sort_of(name: str) -> str:
        return "sea" if kinds.get(name) == "sea" else "land"

    parent: list[int] = []

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for _ in range(8):
        parent[:] = range(len(face_region))
        for faces_here in face_sides.values():
            if len(faces_here) == 2:
                a, b = faces_here
                if face_region[a] == face_region[b]:
                    parent[find(a)] = find(b)
        members: dict[int, list[int]] = defaultdict(list)
        for i in range(len(face_region)):
            members[find(i)].append(i)
        anchored = {find(i) for faces_of in seed_faces.values() for i in faces_of}
        orphans = {
            root
            for root, group in members.items()
            if root not in anchored and face_region[group[0]] in seed_faces
        }
        if not orphans:
            return
        border: dict[int, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        for (a, b), faces_here in face_sides.items():
            if len(faces_here) != 2:
                continue
            i, j = faces_here
            for x, y in ((i, j), (j, i)):
                root = find(x)
                other, own = face_region[y], face_region[x]
                if root in orphans and other != own and sort_of(other) == sort_of(own):
                    border[root][other] += math.dist(a, b)
        changed = False
        for root in orphans:
            if border[root]:
                best = max(border[root].items(), key=lambda item: item[1])[0]
                for i in members[root]:
                    face_region[i] = best
                changed = True
        if not changed:
            return


def _lines(geom):
    if geom.geom_type == "LineString":
        return [geom]
    if hasattr(geom, "geoms"):
        out = []
        for g in geom.geoms:
            out.extend(_lines(g))
        return out
    return []


def _key(a: XY, b: XY) -> tuple[XY, XY]:
    return (a, b) if a <= b else (b, a)


def simplify(points: list[XY], tolerance: float) -> list[XY]:
    """Douglas-Peucker with the ends fixed; closed rings keep at least a triangle."""
    line = LineString(points)
    simple = list(line.simplify(tolerance, preserve_topology=False).coords)
    closed = points[0] == points[-1]
    if closed and len(simple) < 4:
        step = max(1, len(points) // 4)
        simple = points[::step]
        if simple[-1] != points[-1]:
            simple.append(points[-1])
        if len(simple) < 4:
            simple = points
    return simple


def wiggle(points: list[XY], seed: str, amplitude: float, step: float) -> list[XY]:
    """A hand-drawn wobble: smooth sideways noise, zero at both ends so arcs still meet."""
    if len(points) < 2:
        return points
    dense: list[XY] = [points[0]]
    for a, b in zip(points, points[1:], strict=False):
        n = max(1, int(math.dist(a, b) / step))
        for i in range(1, n + 1):
            t = i / n
            dense.append((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
    total = sum(math.dist(a, b) for a, b in zip(dense, dense[1:], strict=False))
    if total < 4 * step:
        return points
    rng = zlib.crc32(seed.encode())
    phases = [(rng >> s) % 628 / 100 for s in (0, 8, 16)]
    out = [dense[0]]
    run = 0.0
    for i in range(1, len(dense) - 1):
        run += math.dist(dense[i - 1], dense[i])
        t = run / total
        taper = math.sin(math.pi * t)
        u = run / 60.0
        offset = (
            amplitude
            * taper
            * (
                0.6 * math.sin(u + phases[0])
                + 0.3 * math.sin(2.3 * u + phases[1])
                + 0.2 * math.sin(5.1 * u + phases[2])
            )
        )
        (x0, y0), (x1, y1) = dense[i - 1], dense[i + 1]
        dx, dy = x1 - x0, y1 - y0
        norm = math.hypot(dx, dy) or 1.0
        out.append((dense[i][0] - dy / norm * offset, dense[i][1] + dx / norm * offset))
    out.append(dense[-1])
    return out


def stitch(arcs: list[list[XY]]) -> list[list[XY]]:
    """Join a region's arcs end to end into closed rings (drawn with the even-odd rule)."""
    rings: list[list[XY]] = []
    at: dict[XY, list[int]] = defaultdict(list)
    for i, arc in enumerate(arcs):
        if arc[0] == arc[-1]:
            rings.append(arc)
            continue
        at[arc[0]].append(i)
        at[arc[-1]].append(i)
    used = {i for i, arc in enumerate(arcs) if arc[0] == arc[-1]}
    for i, arc in enumerate(arcs):
        if i in used:
            continue
        used.add(i)
        ring = list(arc)
        while ring[-1] != ring[0]:
            nxt = next((j for j in at[ring[-1]] if j not in used), None)
            if nxt is None:
                break  # an open chain: should not happen in a partition
            used.add(nxt)
            piece = arcs[nxt]
            ring.extend(piece[1:] if piece[0] == ring[-1] else piece[::-1][1:])
        rings.append(ring)
    return rings


def label_point(shape) -> tuple[XY, float]:
    """Centre and radius of (nearly) the largest circle inside the biggest piece."""
    parts = _components(shape)
    biggest = max(parts, key=lambda p: p.area)
    tolerance = max(1.0, math.sqrt(biggest.area) / 100)
    centre = polylabel(biggest, tolerance=tolerance)
    return (centre.x, centre.y), biggest.exterior.distance(centre) if not biggest.interiors else (
        biggest.boundary.distance(centre)
    )
