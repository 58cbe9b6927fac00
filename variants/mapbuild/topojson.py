"""Minimal TopoJSON decoding, so the fetch step needs no extra JavaScript tooling."""

from __future__ import annotations

from typing import Any

Ring = list[tuple[float, float]]
Polygon = list[Ring]


def _decode_arcs(topology: dict[str, Any]) -> list[Ring]:
    """Undo delta encoding and quantisation of every arc."""
    transform = topology.get("transform")
    arcs: list[Ring] = []
    for arc in topology["arcs"]:
        if transform:
            (sx, sy), (tx, ty) = transform["scale"], transform["translate"]
            x = y = 0
            points = []
            for dx, dy in arc:
                x += dx
                y += dy
                points.append((x * sx + tx, y * sy + ty))
        else:
            points = [(float(p[0]), float(p[1])) for p in arc]
        arcs.append(points)
    return arcs


def _ring(arcs: list[Ring], indexes: list[int]) -> Ring:
    """Join arcs into one ring; a negative index means the arc reversed (~i)."""
    ring: Ring = []
    for index in indexes:
        points = arcs[index] if index >= 0 else arcs[~index][::-1]
        ring.extend(points[1:] if ring else points)
    return ring


def polygons(topology: dict[str, Any], name: str) -> list[Polygon]:
    """All polygons (outer ring first, then holes) of the named object, in lon/lat."""
    arcs = _decode_arcs(topology)
    obj = topology["objects"][name]
    geometries = obj["geometries"] if obj["type"] == "GeometryCollection" else [obj]
    result: list[Polygon] = []
    for geometry in geometries:
        if geometry["type"] == "Polygon":
            parts = [geometry["arcs"]]
        elif geometry["type"] == "MultiPolygon":
            parts = geometry["arcs"]
        else:
            continue
        for part in parts:
            result.append([_ring(arcs, ring) for ring in part])
    return result
