"""Board rendering speed: a busy 60-unit Colonial phase, cold and cached.

Run: ``.venv/bin/python -m bench.render_bench``. The cold figure is the first render in a fresh
process (board file not yet read), plus the median of renders after clearing the caches; the
cached figure is the median of 200 renders of the same phase (what a page reload costs).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import adjudication  # noqa: E402

UNITS = 60
CACHED_TARGET_MS = 20.0
COLD_TARGET_MS = 200.0


def phase(count: int = UNITS) -> tuple[dict, list[dict]]:
    """``count`` units on as many provinces, moving and supporting among neighbours, judged."""
    variant = adjudication.load("colonial")
    powers = list(variant.powers)
    units, taken = [], set()
    for name, province in variant.provinces.items():
        if len(units) == count:
            break
        if province.is_sea:
            kind, location = "F", name
        elif province.coasts:
            kind, location = "F", f"{name}/{province.coasts[0]}"
        else:
            kind, location = "A", name
        units.append(
            {"power": powers[len(units) % len(powers)], "unit": kind, "location": location}
        )
        taken.add(name)
    adjacency = {"A": variant.army_adj, "F": variant.fleet_adj}
    orders: list[dict] = []
    moves: dict[str, str] = {}  # mover's location -> destination
    for i, unit in enumerate(units):
        reach = sorted(adjacency[unit["unit"]].get(unit["location"], ()))
        order = f"{unit['unit']} {unit['location']} H"
        if i % 3 == 0 and reach:
            dest = reach[i % len(reach)]
            moves[unit["location"]] = dest
            order = f"{unit['unit']} {unit['location']} - {dest}"
        elif i % 3 == 1:
            near = {d.split("/")[0] for d in reach}
            for mover, dest in moves.items():
                if dest.split("/")[0] in near and mover != unit["location"]:
                    kind = next(u["unit"] for u in units if u["location"] == mover)
                    order = f"{unit['unit']} {unit['location']} S {kind} {mover} - {dest}"
                    break
            else:
                others = [u for u in units if u["location"].split("/")[0] in near]
                if others:
                    held = others[0]
                    order = f"{unit['unit']} {unit['location']} S {held['unit']} {held['location']}"
        orders.append({"power": unit["power"], "order": order})
    centres = {p: list(variant.home_centres(p)) for p in powers}
    response = adjudication.adjudicate(
        {
            "variant": "colonial",
            "phase": {"season": "fall", "year": 1875, "type": "movement"},
            "units": units,
            "supply_centers": centres,
            "orders": orders,
        }
    )
    if "error" in response:
        raise SystemExit(f"the bench phase was refused: {response['error']}")
    state = {"units": units, "supply_centers": centres, "dislodged": [], "contested": []}
    return state, response["orders"]


def cold_in_fresh_process() -> float:
    """The first render in a new interpreter, in ms (the engine's variant already loaded)."""
    code = (
        "import time, bench.render_bench as b;"
        "s, r = b.phase();"
        "from variants.render import render_board;"
        "t = time.perf_counter(); render_board('colonial', s, results=r);"
        "print((time.perf_counter() - t) * 1000)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return float(out.stdout.strip().splitlines()[-1])


def first_board_in_fresh_process(variant: str, precomputed: bool) -> float:
    """Loading a board (what a server's first drawing of it costs beyond the ~2 ms of the
    phase itself), in ms, in a new interpreter: from its ``layout.json``, or laid out then
    (as without the file, before it existed)."""
    code = (
        "import time, variants; variants.register();"
        "from variants import render;"
        f"v = {variant!r};"
        + ("" if precomputed else "render._read_layout = lambda *a: None;")
        + "t = time.perf_counter(); render.load_board(v);"
        "print((time.perf_counter() - t) * 1000)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return float(out.stdout.strip().splitlines()[-1])


def boards() -> dict[str, tuple[float, float]]:
    """Each board's first load in a fresh process: (laid out then, from layout.json), in ms,
    the median of 3."""
    out = {}
    for variant in ("colonial", "far-east", "chinese"):
        then = statistics.median(first_board_in_fresh_process(variant, False) for _ in range(3))
        ahead = statistics.median(first_board_in_fresh_process(variant, True) for _ in range(3))
        out[variant] = (then, ahead)
        print(
            f"first board load, {variant + ':':10} {then:7.2f} ms laid out then,"
            f" {ahead:6.2f} ms from layout.json"
        )
    return out


def main() -> None:
    from variants.render import clear_caches, render_board

    state, results = phase()
    kinds: dict[str, int] = {}
    for r in results:
        kinds[r["result"]] = kinds.get(r["result"], 0) + 1
    print(f"phase: {len(state['units'])} units, {len(results)} orders, results {kinds}")

    first = cold_in_fresh_process()
    cold = []
    for _ in range(5):
        clear_caches()
        t = time.perf_counter()
        svg = render_board("colonial", state, results=results)
        cold.append((time.perf_counter() - t) * 1000)
    uncached = []
    for i in range(20):
        # A changed phase each time: the board is loaded but the drawing is new.
        varied = dict(state, contested=[f"bench-{i}"])
        t = time.perf_counter()
        render_board("colonial", varied, results=results)
        uncached.append((time.perf_counter() - t) * 1000)
    render_board("colonial", state, results=results)
    cached = []
    for _ in range(200):
        t = time.perf_counter()
        render_board("colonial", state, results=results)
        cached.append((time.perf_counter() - t) * 1000)
    cold_median = statistics.median(cold)
    cached_median = statistics.median(cached)
    print(f"svg size: {len(svg) / 1024:.0f} KiB")
    print(
        f"cold, first render in a fresh process: {first:7.2f} ms  (target < {COLD_TARGET_MS:g} ms)"
        f"  {'ok' if first < COLD_TARGET_MS else 'SLOW'}"
    )
    print(
        f"cold, caches cleared (median of 5):     {cold_median:7.2f} ms  "
        f"(target < {COLD_TARGET_MS:g} ms)  {'ok' if cold_median < COLD_TARGET_MS else 'SLOW'}"
    )
    print(f"new phase, board loaded (median of 20): {statistics.median(uncached):7.2f} ms")
    print(
        f"cached (median of 200):                 {cached_median:7.2f} ms  "
        f"(target < {CACHED_TARGET_MS:g} ms)  "
        f"{'ok' if cached_median < CACHED_TARGET_MS else 'SLOW'}"
    )
    loads = boards()
    print(
        json.dumps(
            {
                "cold_first_ms": round(first, 2),
                "cached_median_ms": round(cached_median, 3),
                "first_board_ms": {v: round(ahead, 2) for v, (_, ahead) in loads.items()},
            }
        )
    )


if __name__ == "__main__":
    main()
