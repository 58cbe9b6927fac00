"""Draw a game position, its orders and their results on a variant's SVG board.

The board comes from the build tool (``variants/<id>/board.svg`` and ``anchors.json``); positions
and orders follow the engine's JSON contract (``shared/CONTRACT.md``). Standard library only, like
the engine. The base drawing is read and split once per variant, and finished drawings are kept in
a small LRU keyed on a hash of the arguments, because the same phase is drawn again and again.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from html import escape
from pathlib import Path

import adjudication
from adjudication.api import reply_data

from .rules.words import gettext_noop

# The words a drawing writes (the legend, the tooltips), as ``str.format`` templates. A server
# hands ``render_board`` its own translation of each (``words``); English without one.
WORDS = (
    gettext_noop("centres / units"),
    gettext_noop("{province}: neutral"),
    gettext_noop("{power}: {unit} (dislodged)"),
    gettext_noop("{power}: {unit} (dislodged by an attack from {province})"),
    gettext_noop("Standoff in {province}"),
    gettext_noop("{order} ({result})"),
    gettext_noop("{order} ({result}: {reason})"),
    gettext_noop("{order} ({result} at {province})"),
    gettext_noop("{order} ({result} at {province}: {reason})"),
)

VARIANTS_DIR = Path(__file__).resolve().parent

# Power colours by the variant's power order. The default set avoids orange and light blue,
# which the railroad and canal arrows use; the colour-blind set keeps clear of them too.
PALETTES: dict[str, tuple[str, ...]] = {
    "default": (
        "#e0303a",  # red (Britain)
        "#f2c12e",  # gold (China)
        "#8e5bb5",  # purple (Russia)
        "#2f6bd8",  # blue (France)
        "#14a39a",  # teal (Holland)
        "#e377c2",  # pink (Japan)
        "#4c9a2a",  # green (Turkey)
        "#8b5a2b",
        "#6b7a8f",
        "#333333",
    ),
    "colour-blind": (
        # Chosen by search and checked in tests/test_palette_vision.py: for normal vision and
        # under simulations of deuteranopia and protanopia, no two colours, no colour and the
        # railroad or canal arrow, no two province tints, and no tint and the unowned land
        # look alike.
        "#9944ff",  # violet (Britain)
        "#664444",  # dark brown (China)
        "#ffff00",  # yellow (Russia)
        "#11ccff",  # sky blue (France)
        "#774411",  # ochre brown (Holland)
        "#88cccc",  # pale teal (Japan)
        "#007788",  # dark teal (Turkey)
        "#221155",  # midnight blue
        "#221100",  # near black
    ),
}
PALETTES["colour_blind"] = PALETTES["colorblind"] = PALETTES["color-blind"] = PALETTES[
    "colour-blind"
]

UNKNOWN_POWER = "#9e9e9e"
TSR_COLOUR = "#ff8c00"
SUEZ_COLOUR = "#0d47a1"
DISLODGED_COLOUR = "#d50000"
STANDOFF_COLOUR = "#c62828"
REMOVE_COLOUR = "#d50000"
CASING = "#1b1b1b"

CACHE_SIZE = 64


class _Cache:
    """A thread-safe LRU of finished drawings (the web workers render from several threads)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[str, str] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: str) -> str | None:
        with self.lock:
            svg = self.items.get(key)
            if svg is not None:
                self.items.move_to_end(key)
            return svg

    def put(self, key: str, svg: str) -> None:
        with self.lock:
            self.items[key] = svg
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.items.clear()


_rendered = _Cache(CACHE_SIZE)


# -- the base board ---------------------------------------------------------------------------

_PROVINCE_TAG = re.compile(r'<path\b[^>]*\bid="p-[^"]*"[^>]*>')
_STYLE_ATTR = re.compile(r'\s+style="([^"]*)"')
_ATTR = re.compile(r'\b([\w:-]+)="([^"]*)"')
_CANAL = re.compile(r'<path\b[^>]*class="canal"[^>]*\bd="([^"]*)"')
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_TEXT = re.compile(r'<text x="([-\d.]+)" y="([-\d.]+)" class="([^"]*)">([^<]*)</text>')
_FONT_SIZES = {"name": 9.5, "seaname": 10.0, "note": 8.0, "oceanname": 13.0, "oceannote": 9.0}
_RAIL = re.compile(r'<path\b[^>]*class="rail"[^>]*\bd="([^"]*)"')
_LABELS = re.compile(r'<g id="labels">(.*?)</g>', re.S)
_LABEL_ITEM = re.compile(r"<line\b[^>]*/>|<text\b[^>]*>[^<]*</text>")
_PATH_D = re.compile(r'<path\b[^>]*\bdata-province="([^"]*)"[^>]*\bd="([^"]*)"')

# The smallest screen scale (CSS px a board unit) of the pages' default views: a 1440x900
# desktop's fit of the tallest board (Far East, 0.603); every space is named from here on.
DEFAULT_SCALE = 0.6
# Names keep at least this size on screen (CSS px) at any zoom; those that would then run
# into a more important name are hidden until the zoom makes room (see ``_labels``).
LABEL_PX = 11.0
# Units are drawn this much larger than the board's own spacing was laid out for (easier to
# see and to click at the page's default fit).
UNIT = 1.4
LEGEND_TOKEN = 0.55  # an army in the legend, to a unit on the board: within a row of its own
# The legend's heading (its smallest words) is this size before the page grows it; names at
# the default views keep out from under it (``_legend_box``).
LEGEND_FONT = 9.0


@dataclass(frozen=True)
class Board:
    """A variant's base drawing split around its province shapes, plus the spots to draw on."""

    variant: str
    static: tuple[str, ...]  # len(slots) + 1 pieces of the base drawing around the slots
    slots: tuple[tuple[str, str, str], ...]  # (province, tag without style, default style)
    anchors: dict[str, dict[str, list[float]]]
    spots: dict[str, tuple[float, float]]  # unit spots, nudged off the printed names
    labels: tuple[tuple[float, float, float, float], ...]  # boxes of the printed names
    width: float
    height: float
    scale: float  # sizes of units and arrows relative to the 1600-wide Colonial board
    canal: tuple[tuple[float, float], ...] | None  # the drawn canal, end to end
    rail: tuple[tuple[float, float], ...]  # the drawn railroad line, west to east


def board_dir(variant: str) -> Path:
    return VARIANTS_DIR / variant.replace("-", "_")


@lru_cache(maxsize=16)
def load_board(variant: str) -> Board:
    """Read and split a variant's board once; raise ValueError when it has none."""
    folder = board_dir(variant)
    svg_path, anchors_path = folder / "board.svg", folder / "anchors.json"
    if not svg_path.is_file() or not anchors_path.is_file():
        raise ValueError(
            f"variant {variant!r} has no board drawing "
            f"(expected {svg_path.name} and {anchors_path.name} in variants/{folder.name}/)"
        )
    text = svg_path.read_text(encoding="utf-8")
    anchors_text = anchors_path.read_text(encoding="utf-8")
    anchor_data = json.loads(anchors_text)
    anchors = anchor_data.get("provinces", {})
    width = float(anchor_data.get("width") or 1600)
    height = float(anchor_data.get("height") or 1125)
    scale = max(width, height) / 1600
    labels = _label_boxes(text)
    layout = _read_layout(folder, _layout_key(variant, text, anchors_text))
    if layout is None:  # not built for this drawing (see write_layouts): laid out now
        layout = _lay_out_board(variant, text, anchors, scale, labels)
    spots = {name: (x, y) for name, (x, y) in layout["spots"].items()}
    found = _LABELS.search(text)
    if found:
        text = text[: found.start()] + layout["labels"] + text[found.end() :]
    end = text.rfind("</svg>")
    if end < 0:
        raise ValueError(f"variants/{folder.name}/board.svg is not an SVG document")
    static: list[str] = []
    slots: list[tuple[str, str, str]] = []
    pos = 0
    for match in _PROVINCE_TAG.finditer(text, 0, end):
        tag = match.group(0)
        attrs = dict(_ATTR.findall(tag))
        name = attrs.get("data-province") or attrs["id"][2:]
        style = _STYLE_ATTR.search(tag)
        default = style.group(1) if style else ""
        bare = _STYLE_ATTR.sub("", tag, count=1)
        static.append(text[pos : match.start()])
        slots.append((name, bare[:-2] if bare.endswith("/>") else bare[:-1], default))
        pos = match.end()
    static.append(text[pos:end])
    found = _CANAL.search(text)
    canal = _points(found.group(1)) if found else ()
    found = _RAIL.search(text)
    return Board(
        variant=variant,
        static=tuple(static),
        slots=tuple(slots),
        anchors=anchors,
        spots=spots,
        labels=tuple(labels),
        width=width,
        height=height,
        scale=scale,
        canal=canal if len(canal) >= 2 else None,
        rail=_points(found.group(1)) if found else (),
    )


def _provinces(variant: str) -> dict:
    """The variant's spaces as the engine has them (none for a board it does not know)."""
    for name in (variant, variant.replace("_", "-")):
        try:
            return adjudication.load(name).provinces
        except (KeyError, ValueError):
            continue
    return {}


def _abbreviations(variant: str) -> dict[str, str]:
    """Each space's abbreviation, as the variant gives it (the names' short form)."""
    return {name: p.abbreviation for name, p in _provinces(variant).items() if p.abbreviation}


def _legend_rows(variant: str) -> int:
    """The legend's rows: one a power (see ``_Drawing.legend``)."""
    for name in (variant, variant.replace("_", "-")):
        try:
            return len(adjudication.load(name).powers)
        except (KeyError, ValueError):
            continue
    return 0


def _army_spots(variant: str, anchors: dict) -> frozenset[str]:
    """The unit spots where only an army can stand: inland spaces, and a space with several
    coasts whose fleets stand on its coasts' own spots. A name may come nearer to these: an
    army's token is smaller than a fleet's hull and sail."""
    armies = set()
    for name, p in _provinces(variant).items():
        if p.type == "land" or (
            p.coasts and all("unit" in anchors.get(f"{name}/{c}", {}) for c in p.coasts)
        ):
            armies.add(name)
    return frozenset(armies)


# The names' layout and the unit spots cost 0.05-0.3 s a board, so they are computed ahead
# and kept in ``variants/<id>/layout.json`` (``python -m variants.layout``; the map builder
# writes it too), keyed on what they are computed from. A board whose file is missing or
# was built from another drawing is laid out when first loaded, as before.
LAYOUT_FILE = "layout.json"


def _layout_key(variant: str, svg: str, anchors: str) -> str:
    """A hash of what a board's layout is computed from (the layout code aside: a test checks
    that the files match what it computes)."""
    h = hashlib.sha256()
    for part in (
        svg,
        anchors,
        json.dumps(_abbreviations(variant), sort_keys=True),
        json.dumps(sorted(_army_spots(variant, json.loads(anchors).get("provinces", {})))),
        json.dumps([LABEL_PX, UNIT, DEFAULT_SCALE, _LADDER, _FONT_SIZES, LEGEND_FONT]),
        str(_legend_rows(variant)),
    ):
        h.update(hashlib.sha256(part.encode("utf-8")).digest())
    return h.hexdigest()


def _read_layout(folder: Path, key: str) -> dict | None:
    try:
        with (folder / LAYOUT_FILE).open(encoding="utf-8") as f:
            layout = json.load(f)
    except (OSError, ValueError):
        return None
    return layout if isinstance(layout, dict) and layout.get("key") == key else None


def _lay_out_board(variant: str, text: str, anchors: dict, scale: float, boxes) -> dict:
    """The unit spots and the ``<g id="labels">`` group of a board, computed."""
    armies = _army_spots(variant, anchors)
    spots = _unit_spots(anchors, boxes, scale, armies)
    short, rows = _abbreviations(variant), _legend_rows(variant)
    laid = _labels(text, anchors, spots, short, scale, armies, rows)
    found = _LABELS.search(text)
    group = laid[found.start() : len(laid) - (len(text) - found.end())] if found else ""
    return {"spots": {name: list(xy) for name, xy in spots.items()}, "labels": group}


def lay_out(variant: str) -> dict:
    """A board's layout as ``layout.json`` keeps it, computed afresh."""
    folder = board_dir(variant)
    text = (folder / "board.svg").read_text(encoding="utf-8")
    anchors_text = (folder / "anchors.json").read_text(encoding="utf-8")
    anchor_data = json.loads(anchors_text)
    width = float(anchor_data.get("width") or 1600)
    height = float(anchor_data.get("height") or 1125)
    layout = _lay_out_board(
        variant,
        text,
        anchor_data.get("provinces", {}),
        max(width, height) / 1600,
        _label_boxes(text),
    )
    return {"key": _layout_key(variant, text, anchors_text), **layout}


def write_layouts(variants: list[str] | None = None) -> list[Path]:
    """Compute and write ``layout.json`` for the given variants (default: every board)."""
    from . import register

    register()  # the abbreviations come from the engine's variant data
    if variants is None:
        variants = [p.parent.name for p in sorted(VARIANTS_DIR.glob("*/board.svg"))]
    written = []
    for variant in variants:
        path = board_dir(variant) / LAYOUT_FILE
        layout = lay_out(variant.replace("_", "-"))
        path.write_text(json.dumps(layout, separators=(",", ":")) + "\n", encoding="utf-8")
        written.append(path)
    clear_caches()
    return written


def _points(d: str) -> tuple[tuple[float, float], ...]:
    """The points of a plain M/L path."""
    numbers = [float(n) for n in _NUMBER.findall(d)]
    return tuple(zip(numbers[0::2], numbers[1::2], strict=False))


@dataclass
class _Label:
    """One printed name (its halo copies and its lines), to be scaled about ``pivot``."""

    items: list[tuple[float, float, str, str]]  # x, y, classes, words
    kind: str
    size: float
    province: str | None = None
    pivot: Point = (0.0, 0.0)
    box: Box = (0.0, 0.0, 0.0, 0.0)  # relative to the pivot, at the drawn size
    rank: float = 0.0
    min_scale: float = 0.0  # from this screen scale on, the whole name shows
    short: str = ""  # the abbreviation shown when the whole name does not fit
    short_pivot: Point = (0.0, 0.0)  # the abbreviation grows about this point
    short_at: Point = (0.0, 0.0)  # where its baseline is, from its pivot
    short_box: Box = (0.0, 0.0, 0.0, 0.0)  # relative to its pivot, at the drawn size
    short_scale: float = 0.0  # from this screen scale on, at least the abbreviation shows
    centre: bool = False  # a supply centre's (abbreviated before any other)
    led: bool = False  # at a leader line's end (kept where it is printed)


# Screen scales (CSS px per board unit) at which the names are laid out, smallest first.
_LADDER = tuple(round(0.12 * 1.08**n, 4) for n in range(48))
# A name grows about the side of its box nearest a board edge when it would otherwise run
# off the board below this growth.
_EDGE_GROWTH = 3.0


def _labels(
    text: str,
    anchors: dict,
    spots: dict[str, Point],
    short: dict,
    scale: float,
    armies: frozenset[str] = frozenset(),
    legend_rows: int = 0,
) -> str:
    """The board's names regrouped so that the page can keep them readable at any zoom.

    Each name becomes ``<g class="label" transform="translate(pivot)"><g class="lbl">``
    around its texts and its abbreviation's (hidden unless the page shows it): the page
    scales every ``.lbl`` by ``--k`` (CSS) so that names stay at least ``LABEL_PX`` on screen
    (at most 15 px when zoomed in), about a pivot on the side away from the province's unit
    (or on the board's edge it is near), so that a grown name runs away from it and never off
    the board. ``data-short-scale`` is the screen scale from which at least the abbreviation
    shows, ``data-min-scale`` the one from which the whole name does, each without running
    into another name, a unit's spot or the board's edge (every space keeps at least its
    abbreviation before any name is shown whole; bigger provinces, supply centres and oceans
    first). Nor does a name run under the legend (``legend_rows`` a power each) as the page
    shows it. Drawings without the page's CSS (PNG, replays) show every name as printed.
    """
    found = _LABELS.search(text)
    if not found:
        return text
    view = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', text)
    size = (float(view.group(1)), float(view.group(2))) if view else (1600.0, 1125.0)
    shapes = {name: _rings(d) for name, d in _PATH_D.findall(text)}
    areas = {name: _ring_area(rings) for name, rings in shapes.items()}
    centres = {name for name, a in anchors.items() if "sc" in a}
    out: list[str | _Label] = []  # leader lines as they are, names to be redrawn
    labels: list[_Label] = []
    current: _Label | None = None
    led = False  # the next name is at a leader line's end
    for item in _LABEL_ITEM.findall(found.group(1)):
        if item.startswith("<line"):
            out.append(item)
            current = None
            led = True
            continue
        x, y, classes, words = _TEXT.match(item).groups()
        kind, halo = classes.split()[0], " " in classes
        # A name is its halo copies, then its lines, at one x; the next halo starts another.
        if (
            current is None
            or current.kind != kind
            or current.items[0][0] != float(x)
            or (halo and " " not in current.items[-1][2])
        ):
            current = _Label([], kind, _FONT_SIZES.get(kind, 10.0), led=led)
            led = False
            labels.append(current)
            out.append(current)
        current.items.append((float(x), float(y), classes, words))
    minimum = min((label.size for label in labels), default=10.0)
    seas = set(re.findall(r'data-province="([^"]*)" class="sea', text))
    land = {
        name: (
            (
                min(b[0] for b, _ in rings),
                min(b[1] for b, _ in rings),
                max(b[2] for b, _ in rings),
                max(b[3] for b, _ in rings),
            ),
            rings,
        )
        for name, rings in shapes.items()
        if name not in seas and rings
    }
    units = _unit_boxes(spots, scale, armies)

    def legend(screen: float) -> Box | None:
        """What the legend covers at a screen scale."""
        return _legend_box(size[1], scale, legend_rows, screen) if legend_rows else None

    for label in labels:
        _place(label, anchors, spots, areas, centres, size)
    for label in labels:
        _shift(label, (shapes, land), units, minimum, size, legend)

    def place(first: frozenset[str]) -> frozenset[str]:
        """Abbreviations, those of ``first`` first, then supply centres, then the most
        important, each where it fits among those placed before; the spaces whose
        abbreviation fits only closer in than the default views."""
        taken: list[tuple[Point, Box]] = []
        late = set()
        for label in sorted(
            labels, key=lambda lab: (lab.province not in first, not lab.centre, -lab.rank)
        ):
            if label.province and label.kind != "oceannote":
                words = label.province
                if len(words) > 4:
                    words = short.get(words) or words[:3]
                at = _place_short(
                    label,
                    words,
                    spots,
                    (shapes, land),
                    units,
                    taken,
                    scale,
                    minimum,
                    size,
                    label.province in armies,
                    legend,
                )
                taken.append((label.short_pivot, label.short_box))
                if at > DEFAULT_SCALE:
                    late.add(label.province)
        return frozenset(late)

    # A space left unnamed at the default views gets the first pick next time, as long as
    # that leaves fewer unnamed.
    first: frozenset[str] = frozenset()
    late = place(first)
    for _ in range(3):
        if not late:
            break
        again = place(first | late)
        if len(again) >= len(late):
            place(first)
            break
        first, late = first | late, again
    _lay_out(labels, minimum, units, size, legend)
    body = "".join(item if isinstance(item, str) else _label_svg(item) for item in out)
    group = (
        f'<g id="labels" data-label-px="{_f(LABEL_PX)}" data-min-font="{_f(minimum)}">{body}</g>'
    )
    return text[: found.start()] + group + text[found.end() :]


def _unit_extent(x: float, y: float, scale: float, army: bool = False) -> Box:
    """What a unit drawn at a spot covers, its casing included: a fleet's hull (24 wide) and
    sail (11 high above the spot), or, where only an army can stand, an army's token (17
    across); see ``unit_shape``."""
    s = scale * UNIT
    if army:
        return (x - 9.2 * s, y - 9.2 * s, x + 9.2 * s, y + 9.2 * s)
    return (x - 12.7 * s, y - 11.7 * s, x + 12.7 * s, y + 8.7 * s)


def _unit_boxes(
    spots: dict[str, Point], scale: float, armies: frozenset[str] = frozenset()
) -> list[Box]:
    """Where units may stand (a fleet's hull and sails, an army's token): names keep off,
    the tip of a sail included (a name's halo may touch the hull's ends); only an army's
    token where no fleet can stand."""
    s = scale * UNIT
    boxes = []
    for name, (x, y) in spots.items():
        left, top, right, bottom = _unit_extent(x, y, scale, name in armies)
        inset = 0.0 if name in armies else 1.5 * s
        boxes.append((left + inset, top, right - inset, bottom))
    return boxes


def _place(
    label: _Label,
    anchors: dict,
    spots: dict,
    areas: dict,
    centres: set,
    size: tuple[float, float],
) -> None:
    """The label's province, box, pivot and rank."""
    lines = [(x, y, w) for x, y, c, w in label.items if " " not in c] or [
        (x, y, w) for x, y, _, w in label.items
    ]
    x = lines[0][0]
    top = min(y for _, y, _ in lines) - 0.8 * label.size
    bottom = max(y for _, y, _ in lines) + 0.25 * label.size
    factor = 0.36 if label.kind in ("name", "oceanname", "oceannote") else 0.32
    half = factor * label.size * max(len(w) for _, _, w in lines) + 1.5
    mid = (top + bottom) / 2
    near = [
        (abs(spot["label"][1] - mid), name)
        for name, spot in anchors.items()
        if "label" in spot and abs(spot["label"][0] - x) < 0.06
    ]
    label.province = min(near)[1] if near else None
    label.centre = label.province in centres
    unit = spots.get(label.province) if label.province else None
    py = mid
    if unit and abs(unit[0] - x) < half + 12:
        py = bottom if unit[1] > mid else top  # grow away from the unit
    # Near an edge of the board, grow away from it instead.
    width, height = size
    growth = _EDGE_GROWTH
    if mid - growth * (mid - top) < 0:
        py = top
    elif mid + growth * (bottom - mid) > height:
        py = bottom
    px = x
    if x - growth * half < 0:
        px = x - half
    elif x + growth * half > width:
        px = x + half
    label.pivot = (px, py)
    label.box = (x - half - px, top - py, x + half - px, bottom - py)
    area = areas.get(label.province or "", 0.0)
    if label.kind == "oceanname":
        label.rank = 1e12
    elif label.kind == "oceannote":
        label.rank = -1.0
    else:
        label.rank = area * (2.5 if label.province in centres else 1.0)
        label.rank *= 0.7 if label.kind == "seaname" else 1.0


def _shift(
    label: _Label,
    shapes: tuple[dict, dict],
    units: list[Box],
    minimum: float,
    size: tuple[float, float],
    legend=None,
) -> None:
    """A name that as printed runs into a unit, under the legend or off the board at the
    default views, once grown to stay readable there, moved a little (at most a line and a
    half up or down, a third of its length aside) or made to grow from another side of its
    box, where that keeps it clear from a smaller screen scale on, its middle still inside its
    space (or, for a coast's name printed on the water, in no other land space). Names at a
    leader line's end and an ocean's note stay where they are."""
    if label.led or label.kind == "oceannote" or not label.province:
        return
    width, height = size
    native = LABEL_PX / minimum
    steps = sorted({s for s in _LADDER if 0.2 <= s < native} | {DEFAULT_SCALE, native})
    (px, py), (left, top, right, bottom) = label.pivot, label.box
    x0, y0, x1, y1 = px + left, py + top, px + right, py + bottom
    near = (x0 - 3 * (x1 - x0), y0 - 3 * (y1 - y0), x1 + 3 * (x1 - x0), y1 + 3 * (y1 - y0))
    units = [u for u in units if _overlap(u, near)]

    def clear_from(pivot: Point, rel: Box) -> float:
        """The smallest step from which the name runs into no unit and stays on the board
        (a name grown less is inside the same name grown more: one search)."""

        def clear(s: float) -> bool:
            k = max(1.0, LABEL_PX / (s * minimum))
            b = (
                pivot[0] + k * rel[0],
                pivot[1] + k * rel[1],
                pivot[0] + k * rel[2],
                pivot[1] + k * rel[3],
            )
            on = b[0] >= -0.5 and b[1] >= -0.5 and b[2] <= width + 0.5 and b[3] <= height + 0.5
            under = legend and (box := legend(s)) and _overlap(b, box)
            return on and not under and not any(_overlap(b, u) for u in units)

        lo, hi = 0, len(steps)
        while lo < hi:
            mid = (lo + hi) // 2
            if clear(steps[mid]):
                hi = mid
            else:
                lo = mid + 1
        return steps[lo] if lo < len(steps) else math.inf

    # Only a name in the way at the default views is moved; one clear from there on is as good.
    now = clear_from(label.pivot, label.box)
    if now <= DEFAULT_SCALE:
        return
    rings = shapes[0].get(label.province, [])
    own = bool(rings) and _inside(rings, ((x0 + x1) / 2, (y0 + y1) / 2))

    def inside(c: Point) -> bool:
        if own:
            return _inside(rings, c)
        return not any(
            b[0] <= c[0] <= b[2] and b[1] <= c[1] <= b[3] and _inside(r, c)
            for name, (b, r) in shapes[1].items()
            if name != label.province
        )

    h, w = label.size * 1.05, (x1 - x0) / 2  # a line's height, half the name's length
    best = (max(now, DEFAULT_SCALE), 0.0, label.pivot, label.box)
    for dy in (0.0, -0.5 * h, 0.5 * h, -h, h, -1.5 * h, 1.5 * h):
        for dx in (0.0, -w / 3, w / 3, -2 * w / 3, 2 * w / 3):
            cost = abs(dx) / w + abs(dy) / h
            if cost >= best[1] and best[0] <= DEFAULT_SCALE:
                continue
            if (dx or dy) and not inside(((x0 + x1) / 2 + dx, (y0 + y1) / 2 + dy)):
                continue
            bx0, by0, bx1, by1 = x0 + dx, y0 + dy, x1 + dx, y1 + dy
            for ax in (px - x0, 0.0, x1 - x0, (x1 - x0) / 2):
                for ay in (py - y0, 0.0, y1 - y0, (y1 - y0) / 2):
                    pivot = (bx0 + ax, by0 + ay)
                    rel = (bx0 - pivot[0], by0 - pivot[1], bx1 - pivot[0], by1 - pivot[1])
                    turned = 0.1 if (ax, ay) != (px - x0, py - y0) else 0.0
                    score = (max(clear_from(pivot, rel), DEFAULT_SCALE), cost + turned)
                    if score < best[:2]:
                        best = (*score, pivot, rel)
    _, cost, pivot, rel = best
    if pivot == label.pivot and rel == label.box:
        return
    dx = pivot[0] + rel[0] - x0
    dy = pivot[1] + rel[1] - y0
    label.items = [(x + dx, y + dy, c, words) for x, y, c, words in label.items]
    label.pivot, label.box = pivot, rel


def _place_short(
    label: _Label,
    words: str,
    spots: dict,
    shapes: tuple[dict, dict],
    units: list[Box],
    taken: list[tuple[Point, Box]],
    scale: float,
    minimum: float,
    size: tuple[float, float],
    army: bool = False,
    legend=None,
) -> float:
    """Where the abbreviation goes: where the name is (at the pivot's side of its box), or,
    when that runs off the board, into a unit or into an abbreviation placed before it once
    grown for a small view, beside the province's unit spot: inside the province, or for a
    land space on the water beside it (not in another land space)."""
    label.short = words
    factor = 0.36 if label.kind in ("name", "oceanname") else 0.32
    h = label.size
    half = factor * h * len(words) + 1.5
    (px, py), (left, top, right, bottom) = label.pivot, label.box
    cx = px + (left + right) / 2
    # Along the pivot's side: centred, or at the left or right end of the name's box.
    sx = cx if abs(left + right) < 0.01 else (px + half if left >= -0.01 else px - half)
    if abs(top) < 0.01:
        line = (0.0, h * 1.05)
    elif abs(bottom) < 0.01:
        line = (-h * 1.05, 0.0)
    else:
        line = (-h * 0.525, h * 0.525)
    candidates = [((px, py), (sx - px - half, line[0], sx - px + half, line[1]))]
    unit = spots.get(label.province)
    if unit:
        ux, uy = unit
        s = scale * UNIT
        # (above, below, beside, the corners' x, the upper and lower corners' y): round an
        # army's token, or a fleet's sail and hull
        up, down, side, across, cup, cdown = (
            (11, 11, 11, 8.5, 8.5, 8.5) if army else (11, 9.5, 12, 9, 9, 8)
        )
        for far in (1.0, 1.8):
            candidates += [
                ((ux, uy - up * s * far), (-half, -h * 1.05, half, 0.0)),
                ((ux, uy + down * s * far), (-half, 0.0, half, h * 1.05)),
                ((ux - side * s * far, uy), (-2 * half, -h * 0.525, 0.0, h * 0.525)),
                ((ux + side * s * far, uy), (0.0, -h * 0.525, 2 * half, h * 0.525)),
                ((ux - across * s * far, uy - cup * s * far), (-2 * half, -h * 1.05, 0.0, 0.0)),
                ((ux + across * s * far, uy - cup * s * far), (0.0, -h * 1.05, 2 * half, 0.0)),
                ((ux - across * s * far, uy + cdown * s * far), (-2 * half, 0.0, 0.0, h * 1.05)),
                ((ux + across * s * far, uy + cdown * s * far), (0.0, 0.0, 2 * half, h * 1.05)),
            ]
    rings = shapes[0].get(label.province, [])
    coastal = label.province in shapes[1]
    width, height = size
    steps = (0.5, 0.55, 0.6, 0.65, 0.72, 0.8, 0.9)

    def grown(pivot: Point, rel: Box, screen: float) -> Box:
        k = max(1.0, LABEL_PX / (screen * minimum))
        pad = 1.5 / screen
        return (
            pivot[0] + k * rel[0] - pad,
            pivot[1] + k * rel[1] - pad,
            pivot[0] + k * rel[2] + pad,
            pivot[1] + k * rel[3] + pad,
        )

    def placed_well(pivot: Point, rel: Box) -> bool:
        centre = (pivot[0] + (rel[0] + rel[2]) / 2, pivot[1] + (rel[1] + rel[3]) / 2)
        if not rings or _inside(rings, centre):
            return True
        return coastal and not any(
            box[0] <= centre[0] <= box[2] and box[1] <= centre[1] <= box[3] and _inside(r, centre)
            for name, (box, r) in shapes[1].items()
            if name != label.province
        )

    # (the first is the name's own spot, inside its space; the others are checked when tried)
    checked: dict[int, bool] = {0: True}
    # Only what lies near can be in the way (the boxes are largest at the smallest scale).
    near, far = unit or (px, py), 90 * scale  # (where the spots inside the space may be)
    inner = (-half, -h * 0.525, half, h * 0.525)
    reach = [grown(*c, steps[0]) for c in candidates]
    reach += [
        grown((near[0] + dx, near[1] + dy), inner, steps[0])
        for dx in (-far, far)
        for dy in (-far, far)
    ]
    area = (
        min(b[0] for b in reach),
        min(b[1] for b in reach),
        max(b[2] for b in reach),
        max(b[3] for b in reach),
    )
    units = [u for u in units if _overlap(u, area)]
    taken = [o for o in taken if _overlap(grown(*o, steps[0]), area)]

    def good(pivot: Point, rel: Box, screen: float) -> bool:
        b = grown(pivot, rel, screen)
        if b[0] < 0 or b[1] < 0 or b[2] > width or b[3] > height:
            return False
        if any(_overlap(b, u) for u in units):
            return False
        if legend and (box := legend(screen)) and _overlap(b, box):
            return False
        return not any(_overlap(b, grown(*o, screen)) for o in taken)

    def first_fit(at: float, tried: int) -> tuple[Point, Box] | None:
        for n, c in enumerate(candidates[:tried]):
            if good(*c, at):
                if n not in checked:
                    checked[n] = placed_well(*c)
                if checked[n]:
                    return c
        return None

    # The spot that fits at the smallest screen scale (px a board unit), from a phone's
    # view to close up: one beside the unit where that fits at the smallest default view,
    # else one inside the space where that does; where none fits, the name's own.
    (pivot, rel), fitted = candidates[0], math.inf
    small = [at for at in steps if at <= DEFAULT_SCALE]
    for n, scales in enumerate((small, steps)):
        if n:
            # Then spots further inside the space, nearest its unit (or name) first, for a
            # space crowded by its neighbours' names and units (those under a unit even close
            # up left out, the nearest 96 of the rest tried).
            inside = _inside_spots(rings, near, half, h, far)
            clear = [c for c in inside if not any(_overlap(grown(*c, steps[-1]), u) for u in units)]
            candidates += clear[:96]
        fit = next(((at, c) for at in scales if (c := first_fit(at, len(candidates)))), None)
        if fit:
            fitted, (pivot, rel) = fit
            break
    label.short_pivot = pivot
    label.short_box = rel
    # text-anchor is the middle; the baseline a quarter of the size above the box's foot
    label.short_at = ((rel[0] + rel[2]) / 2, rel[3] - 0.05 * h - 0.25 * h)
    return fitted


def _inside_spots(
    rings: list[tuple[Box, tuple[Point, ...]]], near: Point, half: float, h: float, reach: float
) -> list[tuple[Point, Box]]:
    """Spots for a centred abbreviation inside a space, within ``reach`` of ``near``,
    nearest first: a grid half the name's height apart, row by row."""
    if not rings:
        return []
    x0 = max(min(b[0] for b, _ in rings) + half, near[0] - reach)
    x1 = min(max(b[2] for b, _ in rings) - half, near[0] + reach)
    y0 = max(min(b[1] for b, _ in rings) + h * 0.525, near[1] - reach)
    y1 = min(max(b[3] for b, _ in rings) - h * 0.525, near[1] + reach)
    step = h * 0.5
    found = []
    y = y0
    while y <= y1:
        # where the row crosses the outline (even-odd: inside between pairs)
        xs = sorted(
            x1_ + (y - y1_) * (x2_ - x1_) / (y2_ - y1_)
            for box, ring in rings
            if box[1] <= y <= box[3]
            for (x1_, y1_), (x2_, y2_) in zip(ring, ring[1:] + ring[:1], strict=True)
            if (y1_ > y) != (y2_ > y)
        )
        x = x0
        while x <= x1:
            if sum(1 for c in xs if c > x) % 2 and math.dist((x, y), near) <= reach:
                found.append((math.dist((x, y), near), (x, y)))
            x += step
        y += step
    found.sort()
    box = (-half, -h * 0.525, half, h * 0.525)  # as ``inner`` in _place_short
    return [(p, box) for _, p in found]


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _ring_area(rings: list[tuple[Box, tuple[Point, ...]]]) -> float:
    """A province's area (sum over its rings, holes ignored: a rough size is enough)."""
    total = 0.0
    for _, pts in rings:
        total += abs(
            sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(pts, pts[1:] + pts[:1], strict=True))
        )
    return total / 2


def _rings(d: str) -> list[tuple[Box, tuple[Point, ...]]]:
    """A province outline's rings, each with its bounding box."""
    out = []
    for ring in d.split("M")[1:] if d else []:
        points = _points(ring)
        xs, ys = [x for x, _ in points], [y for _, y in points]
        out.append(((min(xs), min(ys), max(xs), max(ys)), points))
    return out


def _inside(rings: list[tuple[Box, tuple[Point, ...]]], p: Point) -> bool:
    """Whether a point is inside a province's outline (even-odd over its rings)."""
    x, y = p
    inside = False
    for box, ring in rings:
        if not (box[0] <= x <= box[2] and box[1] <= y <= box[3]):
            continue  # outside this ring
        for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1], strict=True):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
    return inside


class _Grid:
    """Boxes in buckets, to find the ones a box may run into without trying them all."""

    CELL = 150.0

    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], list[int]] = {}
        self.boxes: dict[int, Box] = {}

    def _cells(self, b: Box):
        c = self.CELL
        for i in range(int(b[0] // c), int(b[2] // c) + 1):
            for j in range(int(b[1] // c), int(b[3] // c) + 1):
                yield (i, j)

    def add(self, key: int, b: Box) -> None:
        self.boxes[key] = b
        for cell in self._cells(b):
            self.cells.setdefault(cell, []).append(key)

    def remove(self, key: int) -> None:
        self.boxes.pop(key, None)  # stale bucket entries are skipped

    def hits(self, b: Box, skip: int | None = None) -> bool:
        for cell in self._cells(b):
            for key in self.cells.get(cell, ()):
                if key == skip:
                    continue
                o = self.boxes.get(key)
                if o is not None and b[0] < o[2] and o[0] < b[2] and b[1] < o[3] and o[1] < b[3]:
                    return True
        return False


def _lay_out(labels: list[_Label], minimum: float, units: list[Box], size, legend=None) -> None:
    """Each label's ``short_scale`` and ``min_scale``: the first scale of ``_LADDER`` from
    which, at every larger one, its abbreviation (or its whole name) runs into no other
    name, no unit's spot, not under the legend and not off the board.

    At each scale every name is first given its abbreviation (most important first), then
    made whole where that still fits: every space named at least briefly comes before some
    names in full. Names whole one scale out are made whole first, so that a name whole at
    one scale does not keep another from it only to be abbreviated closer in; and in a few
    more rounds the names whole for good from a scale on come first there."""
    width, height = size
    native = LABEL_PX / minimum  # from here on names are drawn at their own size

    def grown(pivot: Point, rel: Box, s: float, pad: float = 0.0) -> Box:
        k = max(1.0, LABEL_PX / (s * minimum))
        (px, py), (left, top, right, bottom) = pivot, rel
        return (
            px + k * left - pad,
            py + k * top - pad,
            px + k * right + pad,
            py + k * bottom + pad,
        )

    spots = _Grid()  # names keep 1.5 px apart on screen, and only off the units themselves
    for n, b in enumerate(units):
        spots.add(n, b)

    def fits(pivot: Point, rel: Box, s: float, grid: _Grid, skip: int = -1) -> Box | None:
        b = grown(pivot, rel, s)
        if not on_board(b) or spots.hits(b):
            return None
        if legend and (box := legend(s)) and _overlap(b, box):
            return None
        padded = grown(pivot, rel, s, 1.5 / s)
        return None if grid.hits(padded, skip=skip) else padded

    def on_board(b: Box) -> bool:
        return b[0] >= -0.5 and b[1] >= -0.5 and b[2] <= width + 0.5 and b[3] <= height + 0.5

    ordered = sorted(range(len(labels)), key=lambda i: (not labels[i].centre, -labels[i].rank))
    # (the smallest scales show few names anyway: they are laid out from 0.2 px a unit)
    steps = sorted({s for s in _LADDER if 0.2 <= s < native} | {DEFAULT_SCALE, native})

    def run(settled: list[float]) -> list[list[int]]:
        states: list[list[int]] = []  # per step: 0 off, 1 abbreviation, 2 whole name
        for s in steps:
            grid = _Grid()
            state = [0] * len(labels)
            for i in ordered:
                label = labels[i]
                if label.short and (b := fits(label.short_pivot, label.short_box, s, grid)):
                    grid.add(i, b)
                    state[i] = 1
            # Names whole for good from here on first, then those whole one step out: a
            # name, once whole, stays so zooming in.
            before = states[-1] if states else [0] * len(labels)
            order = sorted(ordered, key=lambda i: (settled[i] > s, before[i] != 2))
            for i in order:
                label = labels[i]
                if state[i] == 0 and label.short:
                    continue
                if b := fits(label.pivot, label.box, s, grid, skip=i):
                    grid.remove(i)
                    grid.add(i, b)
                    state[i] = 2
            states.append(state)
        return states

    def settle(states: list[list[int]]) -> tuple[list[float], list[float]]:
        """Each label's first step from which, at every larger one, it is whole (and at
        least abbreviated)."""
        whole, shown = [], []
        for i in range(len(labels)):
            full = short = len(steps) - 1
            while full > 0 and states[full - 1][i] == 2:
                full -= 1
            while short > 0 and states[short - 1][i] >= 1:
                short -= 1
            whole.append(steps[full])
            shown.append(min(steps[short], steps[full]))
        return whole, shown

    def score(whole: list[float]) -> int:
        """How many names show whole, summed over the steps."""
        return sum(s >= w for w in whole for s in steps)

    # Again with the names whole for good given first place (one whole only for a while then
    # no longer keeps another from showing whole meanwhile); the best of a few rounds.
    whole, shown = best = settle(run([math.inf] * len(labels)))
    for _ in range(3):
        whole, shown = settle(run(whole))
        if score(whole) > score(best[0]):
            best = (whole, shown)
    whole, shown = best
    for i, label in enumerate(labels):
        label.min_scale, label.short_scale = whole[i], shown[i]


def _label_svg(label: _Label) -> str:
    px, py = label.pivot
    province = f' data-province="{escape(label.province)}"' if label.province else ""
    texts = "".join(
        f'<text x="{_f(x - px)}" y="{_f(y - py)}" class="{c}">{w}</text>'
        for x, y, c, w in label.items
    )
    if label.short:
        sx, sy = label.short_at
        halo = next((c.split()[1] for _, _, c, _ in label.items if " " in c), "")
        abbr = "".join(
            f'<text x="{_f(sx)}" y="{_f(sy)}" class="{c}">{escape(label.short)}</text>'
            for c in ([f"{label.kind} {halo}"] if halo else []) + [label.kind]
        )
        dx, dy = label.short_pivot[0] - px, label.short_pivot[1] - py
        # hidden unless the page shows it (a drawing without the page's CSS shows the name)
        texts = (
            f'<g class="full"><g class="lbl">{texts}</g></g>'
            f'<g class="abbr" display="none" transform="translate({_f(dx)} {_f(dy)})">'
            f'<g class="lbl">{abbr}</g></g>'
        )
    else:
        texts = f'<g class="full"><g class="lbl">{texts}</g></g>'
    return (
        f'<g class="label"{province} data-min-scale="{label.min_scale:g}" '
        f'data-short-scale="{label.short_scale:g}" '
        f'transform="translate({_f(px)} {_f(py)})">{texts}</g>'
    )


Box = tuple[float, float, float, float]  # left, top, right, bottom


def _label_boxes(text: str) -> list[Box]:
    """Rough boxes of the names printed on the board (halos skipped)."""
    boxes = []
    for x, y, classes, words in _TEXT.findall(text):
        names = classes.split()
        if "halo" in names or "seahalo" in names:
            continue
        size = next((_FONT_SIZES[c] for c in names if c in _FONT_SIZES), 10.0)
        half = 0.31 * size * len(words.strip())
        bx, by = float(x), float(y)
        boxes.append((bx - half, by - 0.78 * size, bx + half, by + 0.22 * size))
    return boxes


def _unit_spots(
    anchors: dict, boxes: list[Box], scale: float, armies: frozenset[str] = frozenset()
) -> dict[str, tuple[float, float]]:
    """Unit spots moved up or down just enough that a unit (drawn ``UNIT`` times larger)
    does not hide a name (a fleet's sail included where a fleet can stand)."""
    spots = {}
    for name, spot in anchors.items():
        if "unit" not in spot:
            continue
        left, top, right, bottom = _unit_extent(0.0, 0.0, scale, name in armies)
        x, y = float(spot["unit"][0]), float(spot["unit"][1])
        for _ in range(3):
            hit = next(
                (
                    b
                    for b in boxes
                    if x + right > b[0] and x + left < b[2] and y + bottom > b[1] and y + top < b[3]
                ),
                None,
            )
            if hit is None:
                break
            y = hit[3] - top + 0.5 if y >= (hit[1] + hit[3]) / 2 else hit[1] - bottom - 0.5
        spots[name] = (x, y)
    return _apart(spots, 24 * UNIT * scale)


def _apart(spots: dict[str, Point], gap: float) -> dict[str, Point]:
    """Spots of different spaces closer than ``gap`` pushed apart (each half the shortfall
    along the line between them), so that two units never sit on each other."""
    space = {name: name.split("/", 1)[0] for name in spots}
    for _ in range(6):
        moved = False
        names = sorted(spots, key=lambda n: spots[n][0])
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                (ax, ay), (bx, by) = spots[a], spots[b]
                if bx - ax >= gap:
                    break  # sorted by x: none further on is nearer
                if space[a] == space[b] or abs(by - ay) >= gap:
                    continue  # one space's coasts never hold two units at once
                d = math.hypot(bx - ax, by - ay)
                if d >= gap - 0.05:
                    continue
                ux, uy = ((bx - ax) / d, (by - ay) / d) if d > 1e-6 else (1.0, 0.0)
                push = (gap - d) / 2
                spots[a] = (round(ax - ux * push, 1), round(ay - uy * push, 1))
                spots[b] = (round(bx + ux * push, 1), round(by + uy * push, 1))
                moved = True
        if not moved:
            break
    return spots


def clear_caches() -> None:
    """Forget loaded boards and finished drawings (for benchmarks and tests)."""
    _rendered.clear()
    load_board.cache_clear()
    _engine_data.cache_clear()


# -- colours ----------------------------------------------------------------------------------


def _mix(colour: str, other: str, share: float) -> str:
    """``share`` of colour over ``other``: tints for province fills."""
    a = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(other[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(
        f"{round(x * share + y * (1 - share)):02x}" for x, y in zip(a, b, strict=True)
    )


def _ink(colour: str) -> str:
    """Black or white, whichever reads better on the colour."""
    r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else "#ffffff"


def power_colours(variant: str, palette: str = "default") -> dict[str, str]:
    """Each power's colour in a palette, by the variant's power order."""
    if palette not in PALETTES:
        raise ValueError(f"unknown palette {palette!r}; known: {', '.join(sorted(PALETTES))}")
    colours = PALETTES[palette]
    return {p: colours[i % len(colours)] for i, p in enumerate(adjudication.load(variant).powers)}


def initials(powers: list[str]) -> dict[str, str]:
    """The shortest prefix that tells each power from the others (at most three letters)."""
    out = {}
    for name in powers:
        n = 1
        while n < min(3, len(name)) and any(
            o != name and o[:n].lower() == name[:n].lower() for o in powers
        ):
            n += 1
        out[name] = name[:n].capitalize()
    return out


# -- orders -----------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _engine_data(variant: str, text: str) -> dict | None:
    """The engine's data of an order given as text only (a caller without the engine's
    reply), in whichever phase type reads it; None when none does. Stored orders and engine
    replies carry their ``data`` already."""
    v = adjudication.load(variant)
    for phase_type in ("movement", "retreats", "adjustments"):
        data = reply_data(v, text, phase_type)
        if data is not None:
            return data
    return None


def _data(variant: str, entry: dict, text: str) -> dict | None:
    data = entry.get("data")
    return data if isinstance(data, dict) else _engine_data(variant, text)


def _entries(orders: list | None, results: list | None) -> list[dict]:
    """Orders to draw: processed results when given, else the plain orders."""
    source = results if results is not None else (orders or [])
    out = []
    for entry in source:
        if isinstance(entry, str):
            out.append({"order": entry})
        elif isinstance(entry, dict):
            out.append(entry)
    return out


# -- geometry ---------------------------------------------------------------------------------

Point = tuple[float, float]


def _f(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _p(p: Point) -> str:
    return f"{_f(p[0])},{_f(p[1])}"


def _toward(a: Point, b: Point, distance: float) -> Point:
    """The point ``distance`` from a on the way to b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    return (a[0] + dx / length * distance, a[1] + dy / length * distance)


def _head(tip: Point, back: Point, size: float) -> str:
    """Points of an arrowhead at tip, pointing away from back."""
    dx, dy = tip[0] - back[0], tip[1] - back[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    bx, by = tip[0] - ux * size, tip[1] - uy * size
    w = size * 0.55
    return f"{_p(tip)} {_p((bx - uy * w, by + ux * w))} {_p((bx + uy * w, by - ux * w))}"


# -- the drawing ------------------------------------------------------------------------------


class _Drawing:
    """One render: the board, the variant, colours and the pieces drawn so far."""

    def __init__(self, variant: str, state: dict, palette: str, words: dict | None) -> None:
        self.words = words or {}
        self.board = load_board(variant)
        self.variant = adjudication.load(variant)
        self.variant_id = variant
        self.colours = power_colours(variant, palette)
        self.initials = initials(list(self.variant.powers))
        self.state = state
        self.s = self.board.scale
        self.unit_at: dict[str, dict] = {}
        self.spot_of: dict[str, Point] = {}
        # Each power's stack in a shared space (a Far East ocean): its spot and how many units.
        self.stack_of: dict[tuple[str, str | None], tuple[Point, int]] = {}
        self.dislodged_at: dict[str, Point] = {}

    def say(self, template: str, **names: str) -> str:
        """One of ``WORDS`` in the reader's language, filled in; English if it will not fill."""
        try:
            return self.words.get(template, template).format(**names)
        except (KeyError, IndexError, ValueError):
            return template.format(**names)

    # -- places

    def canonical(self, location: str) -> str:
        return self.variant.lookup(location) or location

    def anchor(self, location: str, key: str = "unit") -> Point | None:
        if key == "unit":
            spot = self.board.spots.get(location) or self.board.spots.get(location.split("/", 1)[0])
            return spot
        spots = self.board.anchors.get(location)
        if spots is None or key not in spots:
            spots = self.board.anchors.get(location.split("/", 1)[0])
        if spots is None or key not in spots:
            return None
        x, y = spots[key]
        return (float(x), float(y))

    def where(self, location: str | None, power: str | None = None) -> Point | None:
        """Where the unit ordered from a location is drawn: ``power``'s where several powers'
        units share the space (each power's stack stands beside the others)."""
        if location is None:
            return None
        if power is not None and self.stack_of:
            stack = self.stack_of.get((location, power)) or self.stack_of.get(
                (location.split("/", 1)[0], power)
            )
            if stack is not None:
                return stack[0]
        return (
            self.spot_of.get(location)
            or self.spot_of.get(location.split("/", 1)[0])
            or self.anchor(location)
        )

    def colour(self, power: str | None) -> str:
        return self.colours.get(power or "", UNKNOWN_POWER)

    # -- board and centres

    def province_fills(self) -> dict[str, tuple[str, str]]:
        owners = {}
        for power, centres in (self.state.get("supply_centers") or {}).items():
            for centre in centres:
                owners[self.canonical(centre)] = power
        self.owner_of = owners
        return {
            name: (power, _mix(self.colour(power), "#ffffff", 0.55))
            for name, power in owners.items()
        }

    def base(self) -> list[str]:
        fills = self.province_fills()
        board = self.board
        out = [board.static[0]]
        for (name, tag, default), static in zip(board.slots, board.static[1:], strict=True):
            owned = fills.get(name)
            if owned:
                power, fill = owned
                out.append(f'{tag} style="fill:{fill}" data-owner="{escape(power)}">')
            else:
                out.append(f'{tag} style="{default}">' if default else f"{tag}>")
            out.append(static)
        return out

    def centres(self) -> str:
        r = 3.6 * self.s
        out = ['<g id="centres">']
        for name, province in self.variant.provinces.items():
            if not province.supply_center:
                continue
            spot = self.anchor(name, "sc")
            if spot is None:
                continue
            owner = self.owner_of.get(name)
            title = f"{name}: {owner}" if owner else self.say("{province}: neutral", province=name)
            if owner:
                out.append(
                    f'<circle class="sc owned" data-province="{escape(name)}" '
                    f'data-owner="{escape(owner)}" cx="{_f(spot[0])}" cy="{_f(spot[1])}" '
                    f'r="{_f(r)}" fill="{self.colour(owner)}" stroke="{CASING}" '
                    f'stroke-width="1.2"><title>{escape(title)}</title></circle>'
                )
            else:
                out.append(
                    f'<circle class="sc neutral" data-province="{escape(name)}" data-owner="" '
                    f'cx="{_f(spot[0])}" cy="{_f(spot[1])}" r="{_f(r)}" fill="#ffffff" '
                    f'stroke="#555555" stroke-width="1.2" stroke-dasharray="1.6 1.2">'
                    f"<title>{escape(title)}</title></circle>"
                )
        out.append("</g>")
        return "".join(out)

    # -- units

    def unit_shape(self, kind: str, power: str | None, at: Point, extra: str = "") -> str:
        """An army (a round token) or a fleet (a ship: hull and sail) in the power's colour.

        The two differ by shape, not by a letter, so that they read apart at any size and
        to colour-blind eyes; the power is told by the colour and the unit's title."""
        s = self.s * UNIT
        colour = self.colour(power)
        x, y = at
        casing = f'stroke="{CASING}" stroke-width="{_f(1.4 * s)}" stroke-linejoin="round"'
        if kind == "F":
            hull = (
                f"{_p((x - 12 * s, y + 1 * s))} {_p((x + 12 * s, y + 1 * s))} "
                f"{_p((x + 7.5 * s, y + 8 * s))} {_p((x - 7.5 * s, y + 8 * s))}"
            )
            sail = f"{_p((x - 1 * s, y - 11 * s))} {_p((x - 1 * s, y - 1 * s))} "
            sail += f"{_p((x - 9 * s, y - 1 * s))}"
            jib = f"{_p((x + 1 * s, y - 8.5 * s))} {_p((x + 1 * s, y - 1 * s))} "
            jib += f"{_p((x + 7 * s, y - 1 * s))}"
            return (
                f'<polygon class="hull" points="{hull}" fill="{colour}" {casing}{extra}/>'
                f'<polygon class="sail" points="{sail}" fill="{colour}" {casing}{extra}/>'
                f'<polygon class="sail" points="{jib}" fill="{colour}" {casing}{extra}/>'
            )
        r = 8.5 * s
        return (
            f'<circle class="token" cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}" fill="{colour}" '
            f"{casing}{extra}/>"
            f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r * 0.55)}" fill="none" '
            f'stroke="{_ink(colour)}" stroke-opacity="0.75" stroke-width="{_f(1.5 * s)}"'
            f"{extra}/>"
        )

    def units(self) -> str:
        """One icon per unit; several of one power in one space (a Far East ocean) stack into
        one icon with a count, one stack per power side by side."""
        out = ['<g id="units">']
        stacks: dict[tuple[str, str | None, str], list[dict]] = {}
        for unit in self.state.get("units") or []:
            location = self.canonical(unit["location"])
            key = (location, unit.get("power"), unit.get("unit", "A"))
            stacks.setdefault(key, []).append(unit)
        placed: dict[str, int] = {}
        drawn = []
        for (location, power, kind), units in stacks.items():
            spot = self.anchor(location)
            if spot is None:
                continue
            n = placed.get(location, 0)
            placed[location] = n + 1
            spot = (spot[0] + 26 * self.s * n, spot[1])  # other powers in the same space
            drawn.append((location, power, kind, units, spot))
        for location, power, kind, units, spot in drawn:
            # The tap target reaches halfway to the next unit (the page grows it up to a
            # finger's width on screen, hit()).
            reach = min(
                (math.dist(spot, other[4]) / 2 for other in drawn if other[4] != spot),
                default=40 * self.s,
            )
            self.spot_of.setdefault(location, spot)
            self.stack_of[(location, power)] = (spot, len(units))
            self.stack_of.setdefault((location.split("/", 1)[0], power), (spot, len(units)))
            self.unit_at.setdefault(location, units[0])
            self.unit_at.setdefault(location.split("/", 1)[0], units[0])
            count = len(units)
            label = f"{power}: {kind} {location}" + (f" ×{count}" if count > 1 else "")
            badge = self.count_badge(spot, count) if count > 1 else ""
            out.append(
                f'<g class="unit {"fleet" if kind == "F" else "army"}" '
                f'data-power="{escape(power or "")}" data-unit="{escape(kind)}" '
                f'data-location="{escape(location)}" data-count="{count}">'
                f"<title>{escape(label)}</title>{self.hit(spot, reach)}"
                f"{self.unit_shape(kind, power, spot)}{badge}</g>"
            )
        out.append("</g>")
        return "".join(out)

    def hit(self, at: Point, reach: float | None = None) -> str:
        """An unseen disc over the whole unit, so that a click between a ship's hull and sail
        still finds the unit. ``--reach`` is how far it may grow without covering another
        unit: the page's CSS makes it a finger wide on screen within that."""
        r = 13 * self.s
        style = f' style="--r:{_f(r)}px;--reach:{_f(max(r, reach))}px"' if reach else ""
        return (
            f'<circle class="hit" cx="{_f(at[0])}" cy="{_f(at[1])}" r="{_f(r)}" '
            f'fill="#ffffff" fill-opacity="0"{style}/>'
        )

    def count_badge(self, at: Point, count: int) -> str:
        s = self.s
        x, y = at[0] + 13 * s, at[1] - 12 * s
        return (
            f'<circle class="count" cx="{_f(x)}" cy="{_f(y)}" r="{_f(5.5 * s)}" fill="#ffffff" '
            f'stroke="{CASING}" stroke-width="{_f(0.9 * s)}"/>'
            f'<text x="{_f(x)}" y="{_f(y + 2.6 * s)}" font-size="{_f(7.5 * s)}" '
            f'font-weight="bold" text-anchor="middle" fill="{CASING}">{count}</text>'
        )

    def beside(self, spot: Point) -> Point:
        """Where a dislodged unit is drawn: off its spot diagonally, clear of names if possible."""
        s = self.s
        hw, hh = 15 * s, 15 * s
        candidates = [(18 * s, -16 * s), (18 * s, 16 * s), (-18 * s, 16 * s), (-18 * s, -16 * s)]
        for dx, dy in candidates:
            x, y = spot[0] + dx, spot[1] + dy
            if not any(
                x + hw > b[0] and x - hw < b[2] and y + hh > b[1] and y - hh < b[3]
                for b in self.board.labels
            ):
                return (x, y)
        return (spot[0] + candidates[0][0], spot[1] + candidates[0][1])

    def dislodged(self) -> str:
        out = ['<g id="dislodged">']
        s = self.s
        for unit in self.state.get("dislodged") or []:
            location = self.canonical(unit["location"])
            spot = self.anchor(location)
            if spot is None:
                continue
            spot = self.beside(spot)
            self.dislodged_at[location] = spot
            self.dislodged_at.setdefault(location.split("/", 1)[0], spot)
            power, kind = unit.get("power"), unit.get("unit", "A")
            here = f"{kind} {location}"
            if unit.get("attacker_from"):
                label = self.say(
                    "{power}: {unit} (dislodged by an attack from {province})",
                    power=power or "",
                    unit=here,
                    province=unit["attacker_from"],
                )
            else:
                label = self.say("{power}: {unit} (dislodged)", power=power or "", unit=here)
            out.append(
                f'<g class="unit dislodged" data-power="{escape(power or "")}" '
                f'data-unit="{escape(kind)}" data-location="{escape(location)}">'
                f"<title>{escape(label)}</title>"
                f'<circle cx="{_f(spot[0])}" cy="{_f(spot[1])}" r="{_f(16 * s)}" '
                f'fill="#ffffff" fill-opacity="0.6" stroke="{DISLODGED_COLOUR}" '
                f'stroke-width="{_f(2.2 * s)}"/>{self.unit_shape(kind, power, spot)}</g>'
            )
        out.append("</g>")
        return "".join(out)

    def standoffs(self) -> str:
        out = ['<g id="standoffs">']
        s = self.s
        for name in self.state.get("contested") or []:
            name = self.canonical(name)
            spot = self.anchor(name)
            if spot is None:
                continue
            points = []
            for i in range(16):
                radius = (9.5 if i % 2 == 0 else 4.5) * s
                angle = math.pi * i / 8
                points.append(
                    _p((spot[0] + radius * math.cos(angle), spot[1] + radius * math.sin(angle)))
                )
            out.append(
                f'<polygon class="standoff" data-province="{escape(name)}" '
                f'points="{" ".join(points)}" fill="{STANDOFF_COLOUR}" stroke="#ffffff" '
                f'stroke-width="{_f(1.2 * s)}"><title>'
                f"{escape(self.say('Standoff in {province}', province=name))}</title></polygon>"
            )
        out.append("</g>")
        return "".join(out)

    # -- orders

    def stroke(
        self, d: str, colour: str, width: float, dash: str | None = None, cap: str = "round"
    ) -> str:
        """A line in a colour over a dark casing, readable on land and sea."""
        s = self.s
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        return (
            f'<path d="{d}" fill="none" stroke="{CASING}" stroke-opacity="0.75" '
            f'stroke-width="{_f((width + 2) * s)}" stroke-linecap="{cap}" '
            f'stroke-linejoin="round"{dash_attr}/>'
            f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="{_f(width * s)}" '
            f'stroke-linecap="{cap}" stroke-linejoin="round"{dash_attr}/>'
        )

    def arrowhead(self, tip: Point, back: Point, colour: str, size: float = 9.0) -> str:
        return (
            f'<polygon class="head" points="{_head(tip, back, size * self.s)}" fill="{colour}" '
            f'stroke="{CASING}" stroke-width="{_f(0.9 * self.s)}" stroke-linejoin="round"/>'
        )

    def curve(self, a: Point, b: Point, gap_a: float, gap_b: float) -> tuple[str, Point, Point]:
        """A gently bent path from a to b, cut short at both ends; bends keep swaps apart."""
        s = self.s
        mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy) or 1.0
        bend = min(0.12 * length, 25 * s)
        ctrl = (mx - dy / length * bend, my + dx / length * bend)
        start = _toward(a, ctrl, gap_a * s)
        end = _toward(b, ctrl, gap_b * s)
        return f"M{_p(start)} Q{_p(ctrl)} {_p(end)}", end, ctrl

    def order_group(self, kind: str, entry: dict, text: str, body: str, extra: str = "") -> str:
        result = entry.get("result") or ""
        failed = result in ("fails", "bounced", "cut", "dislodged")
        classes = f"order {kind}" + (" failed" if failed else "")
        title = text
        if result:
            names = {"order": text, "result": entry.get("said_result") or result}
            reason = entry.get("said_reason") or entry.get("reason")
            template = "{order} ({result}"
            if entry.get("stopped_at"):
                template += " at {province}"
                names["province"] = entry["stopped_at"]
            if reason:
                template += ": {reason}"
                names["reason"] = reason
            title = self.say(template + ")", **names)
        opacity = ' opacity="0.5"' if failed else ""
        return (
            f'<g class="{classes}" data-order="{escape(text)}" data-result="{escape(result)}" '
            f'data-power="{escape(entry.get("power") or "")}"{extra}{opacity}>'
            f"<title>{escape(title)}</title>{body}</g>"
        )

    def orders(self, entries: list[dict]) -> tuple[str, str]:
        """Order marks under the units, and removal crosses over them."""
        under, over = ['<g id="order-marks">'], ['<g id="order-marks-over">']
        removals: dict[tuple[str, str | None], int] = {}  # so far, per power's stack
        for entry in entries:
            if entry.get("result") == "invalid":
                continue
            text = entry.get("canonical") or entry.get("order")
            if not isinstance(text, str):
                continue
            order = _data(self.variant_id, entry, text)
            if order is None:
                continue
            nth = 0
            if order["kind"] == "remove" and order.get("location"):
                key = (self.canonical(order["location"]), entry.get("power"))
                nth = removals[key] = removals.get(key, -1) + 1
            drawn = self.order(order, entry, text, nth)
            if drawn:
                on_top = order["kind"] in ("remove", "disband")
                (over if on_top else under).append(drawn)
        under.append("</g>")
        over.append("</g>")
        return "".join(under), "".join(over)

    def order(self, order: dict, entry: dict, text: str, nth: int = 0) -> str | None:
        """One order's mark; ``nth``: how many removals of the power's units in the same
        space come before this one."""
        kind = order["kind"]
        result = entry.get("result") or ""
        failed = result == "fails"
        power = entry.get("power")
        if power is None and order.get("location"):
            unit = self.unit_at.get(order.get("location")) or self.unit_at.get(
                order.get("location").split("/", 1)[0]
            )
            power = unit.get("power") if unit else self.owner_of.get(order.get("location"))
            entry = {**entry, "power": power}
        colour = self.colour(power)
        s = self.s
        if kind == "special":
            if order.get("rule") == "suez_canal":
                return self.suez(order, entry, text)
            return None
        if kind == "waive":
            return None
        if kind == "move" and order.get("via") == "TSR":
            return self.railroad(order, entry, text)
        if kind in ("move", "retreat"):
            origin = (
                self.dislodged_at.get(order.get("location")) if kind == "retreat" else None
            ) or self.where(order.get("location"), power)
            target = self.anchor(order.get("destination"))
            if origin is None or target is None:
                return None
            d, end, ctrl = self.curve(origin, target, 13, 11)
            end = self.clear_of_names(end, ctrl, target)
            d = d[: d.rindex(" ") + 1] + _p(end)
            body = self.stroke(d, colour, 2.4, "5 3" if failed else None)
            body += self.arrowhead(end, ctrl, colour)
            if result in ("fails", "bounced", "dislodged") and kind == "move":
                body += self.bounce(end, ctrl)
            name = "move" if kind == "move" else "retreat"
            extra = f' data-target="{escape(order.get("destination"))}"'
            if order.get("via"):
                extra += f' data-via="{escape(order.get("via").lower())}"'
            return self.order_group(name, entry, text, body, extra)
        if kind == "support":
            origin = self.where(order.get("location"), power)
            held = self.where(order.get("target"), order.get("target_power") or power)
            if origin is None or held is None:
                return None
            dash = "2 4" if failed else "6 3"
            if order.get("destination") is None:
                start = _toward(origin, held, 13 * s)
                end = _toward(held, origin, 16 * s)
                body = self.stroke(f"M{_p(start)} L{_p(end)}", colour, 1.8, dash)
                body += (
                    f'<circle cx="{_f(held[0])}" cy="{_f(held[1])}" r="{_f(16 * s)}" '
                    f'fill="none" stroke="{colour}" stroke-width="{_f(1.8 * s)}" '
                    f'stroke-dasharray="{dash}"/>'
                )
                return self.order_group("support", entry, text, body)
            target = self.anchor(order.get("destination"))
            if target is None:
                return None
            # A dashed line from the supporter to the middle of the supported move's arrow
            # (drawn or not), so that it never reads as a support to hold.
            _d, end, ctrl = self.curve(held, target, 13, 11)
            begin = _toward(held, ctrl, 13 * s)
            mid = (
                0.25 * begin[0] + 0.5 * ctrl[0] + 0.25 * end[0],
                0.25 * begin[1] + 0.5 * ctrl[1] + 0.25 * end[1],
            )
            start = _toward(origin, mid, 13 * s)
            body = self.stroke(f"M{_p(start)} L{_p(mid)}", colour, 1.8, dash)
            body += (
                f'<circle class="support-end" cx="{_f(mid[0])}" cy="{_f(mid[1])}" '
                f'r="{_f(3.2 * s)}" fill="{colour}" stroke="{CASING}" '
                f'stroke-width="{_f(0.9 * s)}"/>'
            )
            extra = f' data-target="{escape(order.get("destination"))}"'
            return self.order_group("support", entry, text, body, extra)
        if kind == "convoy":
            fleet = self.where(order.get("location"), power)
            army = self.where(order.get("target"), order.get("target_power") or power)
            target = self.anchor(order.get("destination"))
            if fleet is None or army is None or target is None:
                return None
            start = _toward(army, fleet, 13 * s)
            end = _toward(target, fleet, 13 * s)
            d = f"M{_p(start)} L{_p(fleet)} L{_p(end)}"
            dash = "0.1 4.5" if not failed else "0.1 8"
            body = self.stroke(d, colour, 2.2, dash) + self.arrowhead(end, fleet, colour, 7.5)
            extra = f' data-target="{escape(order.get("destination"))}"'
            return self.order_group("convoy", entry, text, body, extra)
        if kind == "hold":
            at = self.where(order.get("location"), power)
            if at is None:
                return None
            r = 16.5 * s
            ring = f"M{_f(at[0] - r)},{_f(at[1])} a{_f(r)},{_f(r)} 0 1,0 {_f(2 * r)},0 "
            ring += f"a{_f(r)},{_f(r)} 0 1,0 {_f(-2 * r)},0 Z"
            body = self.stroke(ring, colour, 2.2, "4 3" if failed else None)
            return self.order_group("hold", entry, text, body)
        if kind == "disband":
            at = self.dislodged_at.get(order.get("location")) or self.where(order.get("location"))
            if at is None:
                return None
            return self.order_group("disband", entry, text, self.cross(at))
        if kind == "remove":
            at = self.where(order.get("location"), power)
            if at is None:
                return None
            stack = self.stack_of.get((self.canonical(order["location"]), power))
            if stack is not None and stack[1] > 1:
                # Several units in one icon (a Far East ocean): a small cross a removal in a
                # row under the icon, which stays in sight and clickable for the next one.
                s = self.s
                spot = (at[0] - 6 * s * (stack[1] - 1) + 12 * s * nth, at[1] + 20 * s)
                return self.order_group("remove", entry, text, self.cross(spot, 5))
            return self.order_group("remove", entry, text, self.cross(at))
        if kind == "build":
            at = self.anchor(order.get("location"))
            if at is None:
                return None
            r = 16.5 * s
            body = (
                f'<circle cx="{_f(at[0])}" cy="{_f(at[1])}" r="{_f(r)}" fill="#ffffff" '
                f'fill-opacity="0.7" stroke="{colour}" stroke-width="{_f(2.2 * s)}" '
                f'stroke-dasharray="3 2"/>'
                + self.unit_shape(order.get("unit") or "A", power, at, ' opacity="0.9"')
                + self.plus((at[0] + 13 * s, at[1] - 13 * s), colour)
            )
            unit, where = order.get("unit") or "", order.get("location")
            extra = f' data-unit="{escape(unit)}" data-target="{escape(where)}"'
            return self.order_group("build", entry, text, body, extra)
        return None

    def clear_of_names(self, end: Point, back: Point, target: Point) -> Point:
        """An arrow's tip drawn back toward ``back`` until its head is off the printed names
        (it points at the unit's spot all the same), at most 20 units."""
        s = self.s
        r = 9 * s
        tip = end
        for _ in range(8):
            if not any(
                tip[0] + r > b[0] and tip[0] - r < b[2] and tip[1] + r > b[1] and tip[1] - r < b[3]
                for b in self.board.labels
            ):
                return tip
            if math.dist(tip, end) >= 20 * s:
                break
            tip = _toward(tip, back, 3 * s)
        return end

    def bounce(self, tip: Point, back: Point) -> str:
        """A failed move's mark: a red bar across the arrow's tip (it stopped there)."""
        s = self.s
        dx, dy = tip[0] - back[0], tip[1] - back[1]
        length = math.hypot(dx, dy) or 1.0
        ux, uy = dx / length, dy / length
        w = 9 * s
        a = (tip[0] - uy * w + ux * 2 * s, tip[1] + ux * w + uy * 2 * s)
        b = (tip[0] + uy * w + ux * 2 * s, tip[1] - ux * w + uy * 2 * s)
        d = f"M{_p(a)} L{_p(b)}"
        return f'<g class="bounce">{self.stroke(d, STANDOFF_COLOUR, 3.2, cap="butt")}</g>'

    def cross(self, at: Point, size: float = 11) -> str:
        r = size * self.s
        d = (
            f"M{_p((at[0] - r, at[1] - r))} L{_p((at[0] + r, at[1] + r))} "
            f"M{_p((at[0] - r, at[1] + r))} L{_p((at[0] + r, at[1] - r))}"
        )
        return self.stroke(d, REMOVE_COLOUR, 3.0 if size >= 11 else 2.2)

    def plus(self, at: Point, colour: str) -> str:
        s = self.s
        r = 5.5 * s
        return (
            f'<circle cx="{_f(at[0])}" cy="{_f(at[1])}" r="{_f(r)}" fill="#ffffff" '
            f'stroke="{CASING}" stroke-width="{_f(1 * s)}"/>'
            f'<path d="M{_p((at[0] - r * 0.6, at[1]))} L{_p((at[0] + r * 0.6, at[1]))} '
            f'M{_p((at[0], at[1] - r * 0.6))} L{_p((at[0], at[1] + r * 0.6))}" '
            f'stroke="{CASING}" stroke-width="{_f(1.8 * s)}"/>'
        )

    def railroad(self, order: dict, entry: dict, text: str) -> str | None:
        """Orange arrow along the drawn railroad line, from the unit to the destination;
        solid to where it stopped, dashed beyond."""
        data = self.variant.rule_data.get("trans_siberian_railroad") or {}
        route = list(data.get("route") or [])
        origin = order.get("location").split("/", 1)[0] if order.get("location") else None
        target = order.get("destination").split("/", 1)[0] if order.get("destination") else None
        if origin not in route or target not in route:
            return None
        start, end = self.where(origin), self.anchor(target)
        if start is None or end is None:
            return None
        rail = self.board.rail or (start, end)
        s = self.s
        a, b = _along(rail, start), _along(rail, end)
        line = _stretch(rail, a, b)
        points = [start, *line, end]
        points = [p for i, p in enumerate(points) if i == 0 or math.dist(p, points[i - 1]) > 0.5]
        if len(points) < 2:
            return None
        # The ends: off the unit at the start, short of the spot at the end; when the rail
        # passes right by a spot, the arrow starts or ends on the rail itself.
        if len(points) > 2 and math.dist(points[0], points[1]) < 16 * s:
            points.pop(0)
        else:
            points[0] = _toward(points[0], points[1], 13 * s)
        if len(points) > 2 and math.dist(points[-1], points[-2]) < 16 * s:
            points.pop()
        else:
            points[-1] = _toward(points[-1], points[-2], 11 * s)
        result = entry.get("result") or ""
        stopped = entry.get("stopped_at") if result == "stopped" else None
        body = ""
        extra = f' data-target="{escape(target)}"'
        if result == "fails":
            body += self.stroke(_polyline(points), TSR_COLOUR, 3.0, "6 4")
        elif stopped in route and self.anchor(stopped):
            ridden, blocked = _cut(points, _along(points, _along(rail, self.anchor(stopped))[1]))
            if len(ridden) > 1:
                body += self.stroke(_polyline(ridden), TSR_COLOUR, 3.2)
            if len(blocked) > 1:
                body += self.stroke(_polyline(blocked), TSR_COLOUR, 2.2, "6 4")
            r = 6.5 * s
            stop = ridden[-1]
            body += (
                f'<g class="tsr-stop" data-province="{escape(stopped)}">'
                f'<circle cx="{_f(stop[0])}" cy="{_f(stop[1])}" r="{_f(r)}" '
                f'fill="{TSR_COLOUR}" stroke="{CASING}" stroke-width="{_f(1.4 * s)}"/>'
                f'<path d="M{_p((stop[0] - r * 0.55, stop[1]))} '
                f'L{_p((stop[0] + r * 0.55, stop[1]))}" '
                f'stroke="#ffffff" stroke-width="{_f(2.2 * s)}"/></g>'
            )
            extra += f' data-stopped-at="{escape(stopped)}"'
        else:
            body += self.stroke(_polyline(points), TSR_COLOUR, 3.2)
        head = self.arrowhead(points[-1], _back(points, 6 * s), TSR_COLOUR, 10)
        # the head goes before the stop mark (tests and readers find the head first)
        marker = body.find('<g class="tsr-stop"')
        body = body + head if marker < 0 else body[:marker] + head + body[marker:]
        return self.order_group("tsr", entry, text, body, f' data-colour="{TSR_COLOUR}"' + extra)

    def suez(self, order: dict, entry: dict, text: str) -> str | None:
        """Blue arrow along the drawn canal, from the permitted fleet's sea to the other."""
        data = self.variant.rule_data.get("suez_canal") or {}
        ends = list(data.get("connects") or [])
        sea = order.get("location")
        if sea not in ends or len(ends) != 2:
            return None
        other = ends[1] if sea == ends[0] else ends[0]
        sea_spot, other_spot = self.anchor(sea), self.anchor(other)
        if sea_spot is None or other_spot is None:
            return None
        s = self.s
        if self.board.canal:
            canal = list(self.board.canal)
            if math.dist(canal[0], sea_spot) > math.dist(canal[-1], sea_spot):
                canal.reverse()
        else:
            canal = [_toward(sea_spot, other_spot, 12 * s), _toward(other_spot, sea_spot, 12 * s)]
        # Along the drawn canal, reaching a little into each sea.
        canal[0] = _toward(canal[0], canal[1], -22 * s)
        canal[-1] = _toward(canal[-1], canal[-2], -24 * s)
        d = _polyline(canal)
        b, c2 = canal[-1], canal[-2]
        body = self.stroke(d, SUEZ_COLOUR, 3.4) + self.arrowhead(b, c2, SUEZ_COLOUR, 12)
        extra = f' data-colour="{SUEZ_COLOUR}" data-from="{escape(sea)}" data-to="{escape(other)}"'
        return self.order_group("suez", entry, text, body, extra)

    # -- legend

    def legend(self) -> str:
        s = self.s
        powers = list(self.variant.powers)
        centres = {p: len(c) for p, c in (self.state.get("supply_centers") or {}).items()}
        units: dict[str, int] = {}
        for unit in self.state.get("units") or []:
            units[unit.get("power")] = units.get(unit.get("power"), 0) + 1
        row = 17 * s
        x0, y0, w, h = _legend_frame(self.board.height, s, len(powers))
        out = [
            f'<g id="legend"><rect x="{_f(x0)}" y="{_f(y0)}" width="{_f(w)}" height="{_f(h)}" '
            f'rx="{_f(4 * s)}" fill="#ffffff" fill-opacity="0.85" stroke="#555555" '
            f'stroke-width="{_f(0.8 * s)}"/>'
            f'<text x="{_f(x0 + w - 8 * s)}" y="{_f(y0 + 14 * s)}" '
            f'font-size="{_f(LEGEND_FONT * s)}" '
            f'style="text-anchor:end" fill="#333333" '
            f"font-family=\"'DejaVu Sans',Verdana,Arial,sans-serif\">"
            f"{escape(self.say('centres / units'))}</text>"
        ]
        for n, power in enumerate(powers):
            cy = y0 + row * (n + 1) + 8 * s
            cx = x0 + 14 * s
            # The army's token, small enough for its row: at a board unit's size it stood
            # over the frame's left edge and over the rows above and below.
            token = (
                f'<g transform="translate({_f(cx)} {_f(cy)}) scale({LEGEND_TOKEN}) '
                f'translate({_f(-cx)} {_f(-cy)})">' + self.unit_shape("A", power, (cx, cy)) + "</g>"
            )
            out.append(
                f'<g class="legend-power" data-power="{escape(power)}">'
                + token
                + f'<text x="{_f(x0 + 28 * s)}" y="{_f(cy + 3.5 * s)}" font-size="{_f(10 * s)}" '
                f'style="text-anchor:start" fill="#222222" '
                f"font-family=\"'DejaVu Sans',Verdana,Arial,sans-serif\">{escape(power)}</text>"
                f'<text x="{_f(x0 + w - 8 * s)}" y="{_f(cy + 3.5 * s)}" font-size="{_f(10 * s)}" '
                f'style="text-anchor:end" fill="#222222" '
                f"font-family=\"'DejaVu Sans',Verdana,Arial,sans-serif\">"
                f"{centres.get(power, 0)} / {units.get(power, 0)}</text></g>"
            )
        out.append("</g>")
        return "".join(out)


def _legend_frame(height: float, scale: float, rows: int) -> Box:
    """The legend's box as drawn (x, y, width, height): the board's foot on the left, a row
    for each power under a heading."""
    w, h = 170 * scale, 17 * scale * (rows + 1) + 8 * scale
    return (12 * scale, height - h - 12 * scale, w, h)


def _legend_box(height: float, scale: float, rows: int, screen: float) -> Box:
    """What the legend covers on the page at a screen scale (px a board unit): the page
    grows it about its lower left corner until its smallest words (``LEGEND_FONT``) are
    ``LABEL_PX`` on screen (static/board.js, ``--lk``)."""
    x0, y0, w, h = _legend_frame(height, scale, rows)
    k = max(1.0, LABEL_PX / (screen * LEGEND_FONT * scale) * 1.002)
    bottom = y0 + h
    return (x0 - 1.0, bottom - k * h - 1.0, x0 + k * w + 1.0, bottom + 1.0)


def _polyline(points: list[Point]) -> str:
    return "M" + " L".join(_p(p) for p in points)


def _along(line: tuple[Point, ...] | list[Point], p: Point) -> tuple[float, Point]:
    """The point of a polyline nearest to p, as (distance along the line, point)."""
    best = (math.inf, 0.0, line[0])
    walked = 0.0
    for a, b in zip(line, line[1:], strict=False):
        dx, dy = b[0] - a[0], b[1] - a[1]
        length2 = dx * dx + dy * dy
        t = 0.0 if not length2 else ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2
        t = min(1.0, max(0.0, t))
        q = (a[0] + t * dx, a[1] + t * dy)
        gap = math.dist(p, q)
        if gap < best[0]:
            best = (gap, walked + t * math.sqrt(length2), q)
        walked += math.sqrt(length2)
    return best[1], best[2]


def _stretch(line, a: tuple[float, Point], b: tuple[float, Point]) -> list[Point]:
    """The part of a polyline between two of its points (as ``_along`` gives them), in the
    order a to b."""
    lo, hi = sorted((a[0], b[0]))
    inside, walked = [], 0.0
    for i, p in enumerate(line):
        if i:
            walked += math.dist(line[i - 1], p)
        if lo < walked < hi:
            inside.append(p)
    if a[0] > b[0]:
        inside.reverse()
    return [a[1], *inside, b[1]]


def _cut(points: list[Point], at: tuple[float, Point]) -> tuple[list[Point], list[Point]]:
    """A polyline cut in two at one of its points (as ``_along`` gives it)."""
    walked = 0.0
    for i in range(1, len(points)):
        walked += math.dist(points[i - 1], points[i])
        if walked >= at[0]:
            return [*points[:i], at[1]], [at[1], *points[i:]]
    return list(points), [points[-1]]


def _back(points: list[Point], distance: float) -> Point:
    """A point ``distance`` back from the last along the line (an arrowhead's direction)."""
    tip = points[-1]
    for p in reversed(points[:-1]):
        if math.dist(p, tip) >= distance:
            return p
    return points[0]


def _key(variant: str, state: dict, orders, results, palette: str, words: dict | None):
    blob = json.dumps(
        [variant, state, orders, results, palette, words], sort_keys=True, separators=(",", ":")
    )
    return hashlib.blake2b(blob.encode(), digest_size=16).hexdigest()


def render_board(
    variant: str,
    state: dict,
    orders: list | None = None,
    results: list | None = None,
    palette: str = "default",
    words: dict[str, str] | None = None,
) -> str:
    """The SVG document for a position with its orders; results win over plain orders.

    ``state`` is the contract's position ({"units", "supply_centers", "dislodged",
    "contested"}); ``orders`` are order texts or dicts with "order"/"canonical"; ``results`` are
    the response's ``orders`` entries (a result entry may carry ``said_result`` and
    ``said_reason``, the server's words for them). ``words``: the ``WORDS`` templates in the
    reader's language. Raises ValueError for a variant without a board drawing or an unknown
    palette.
    """
    key = _key(variant, state, orders, results, palette, words)
    cached = _rendered.get(key)
    if cached is not None:
        return cached
    drawing = _Drawing(variant, state, palette, words)
    parts = drawing.base()
    centres, standoffs = drawing.centres(), drawing.standoffs()
    units, dislodged = drawing.units(), drawing.dislodged()  # places the orders start from
    under, over = drawing.orders(_entries(orders, results))
    overlay = [centres, standoffs, under, units, dislodged, over, drawing.legend()]
    parts.extend(overlay)
    parts.append("</svg>\n")
    svg = "".join(parts)
    _rendered.put(key, svg)
    return svg


def render_orders(
    variant: str,
    state: dict,
    orders: list | None = None,
    results: list | None = None,
    palette: str = "default",
    words: dict[str, str] | None = None,
) -> str:
    """Only the order marks of a position: the groups "order-marks" and "order-marks-over" that
    ``render_board`` draws, for a page that has the board already and redraws the orders alone
    as they change (a few kilobytes instead of the whole map)."""
    drawing = _Drawing(variant, state, palette, words)
    drawing.province_fills()  # who owns what, for orders of a unit not on the board
    drawing.units()  # places the orders start from
    drawing.dislodged()
    under, over = drawing.orders(_entries(orders, results))
    return under + over
