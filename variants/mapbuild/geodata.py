"""The committed, clipped land derivatives: regenerate them from npm, read them without npm.

The build reads only a file in ``variants/geodata/`` (``land-50m-asia.json`` unless a
variant's geography.json names another under ``land``) so that a board can be rebuilt offline
and reviewed as a small diff; ``fetch`` remakes every derivative from the npm package.
"""

from __future__ import annotations

import json
import subprocess
import tarfile
import tempfile
from pathlib import Path

from . import topojson

PACKAGE = "world-atlas@2.0.2"
MEMBER = "package/land-50m.json"
GEODATA = Path(__file__).resolve().parent.parent / "geodata"
LAND_FILE = GEODATA / "land-50m-asia.json"
DEFAULT_LAND = LAND_FILE.name
CREDIT = "Made with Natural Earth. Free vector and raster map data @ naturalearthdata.com."
# lon_min, lat_min, lon_max, lat_max: Asia with the Europe/Africa edge the boards need.
WINDOW = (10.0, -35.0, 180.0, 80.0)
# Each derivative and its window. The Pacific one reaches New Zealand and all of Australia,
# which the Asian window cuts off at 35°S; a separate file keeps the Asian one unchanged.
WINDOWS = {
    DEFAULT_LAND: WINDOW,
    "land-50m-pacific.json": (60.0, -50.0, 180.0, 60.0),
}
PRECISION = 2  # decimals of a degree (about 1 km)


def download_topology() -> dict:
    """Fetch land-50m.json from the npm registry with ``npm pack`` (npm must be installed)."""
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            ["npm", "pack", PACKAGE, "--silent"], cwd=tmp, check=True, stdout=subprocess.DEVNULL
        )
        tarball = next(Path(tmp).glob("world-atlas-*.tgz"))
        with tarfile.open(tarball) as archive:
            handle = archive.extractfile(MEMBER)
            assert handle is not None
            return json.load(handle)


def clip_topology(
    topology: dict, window_bounds: tuple[float, float, float, float] = WINDOW
) -> list[list[list[list[float]]]]:
    """Land polygons clipped to a window, as rounded [lon, lat] rings (outer first)."""
    from shapely import make_valid
    from shapely.geometry import Polygon, box

    window = box(*window_bounds)
    result = []
    for rings in topojson.polygons(topology, "land"):
        shape = Polygon(rings[0], rings[1:])
        if not shape.is_valid:
            shape = make_valid(shape)
        wrapped = shape.bounds[2] - shape.bounds[0] > 180 and shape.area < 100
        if wrapped or not shape.intersects(window):
            continue  # outside, or a small island split by the antimeridian (Fiji)
        clipped = shape.intersection(window)
        parts = getattr(clipped, "geoms", [clipped])
        for part in parts:
            if part.geom_type != "Polygon" or part.is_empty:
                continue
            out = []
            for ring in [part.exterior, *part.interiors]:
                coords = _round_ring(ring.coords)
                if len(coords) >= 4:
                    out.append(coords)
            if out and len(out[0]) >= 4:
                result.append(out)
    return result


def _round_ring(coords) -> list[list[float]]:
    """Round to PRECISION and drop the repeats rounding makes."""
    out: list[list[float]] = []
    for x, y in coords:
        point = [round(x, PRECISION), round(y, PRECISION)]
        if not out or out[-1] != point:
            out.append(point)
    if out and out[0] != out[-1]:
        out.append(out[0])
    return out


def write_land(polygons: list, name: str = DEFAULT_LAND) -> Path:
    """Write one derivative with its credit line inside."""
    GEODATA.mkdir(parents=True, exist_ok=True)
    document = {
        "credit": CREDIT,
        "source": f"npm {PACKAGE}, {MEMBER} (Natural Earth 1:50m land, public domain)",
        "window": list(WINDOWS[name]),
        "format": "polygons: list of polygons, each a list of rings [[lon, lat], ...], "
        "outer ring first",
        "polygons": polygons,
    }
    text = json.dumps(document, separators=(",", ":"))
    # One polygon per line keeps diffs readable.
    text = text.replace("]]],[[[", "]]],\n[[[")
    path = GEODATA / name
    path.write_text(text + "\n")
    return path


def read_land(name: str = DEFAULT_LAND) -> list[list[list[list[float]]]]:
    """The committed land polygons of one derivative, in lon/lat."""
    return json.loads((GEODATA / name).read_text())["polygons"]


def fetch() -> list[Path]:
    """Regenerate every committed derivative from one download."""
    topology = download_topology()
    return [write_land(clip_topology(topology, window), name) for name, window in WINDOWS.items()]
