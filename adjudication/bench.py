"""``python -m adjudication bench``: how fast the engine judges realistic standard-map phases.

The phases are generated from a seed, so two runs (or two machines) time the same work. The
figures are printed next to the targets and never asserted: a slow machine should still get
its numbers. Standard library only, like the engine.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from random import Random

from . import compiled
from .api import adjudicate
from .variant import Variant, available, load, province_of

UNITS_PER_PHASE = 34
WARMUP_PHASES = 50
RUNS = 3
TARGET_MEDIAN_MS = 0.5
TARGET_BATCH_PER_S = 1000
TARGET_RSS_MB = 50

# Share of the units left free after convoys are planned: move, support, or else hold.
MOVE_SHARE = 0.48
SUPPORT_SHARE = 0.37
FLEET_ON_COAST = 0.35  # chance that a unit on a coastal province is a fleet
SAME_POWER_SUPPORT = 0.8
OWN_BLOCK = 0.1  # chance a move may go into a province its own power holds
CONVOY_CHAINS = (1, 2, 2, 3)  # chains tried per phase, picked at random
TWO_FLEET_CHAIN = 0.35

ROOT = Path(__file__).resolve().parent.parent


# -- generating phases ------------------------------------------------------------------------


def generate(count: int, seed: int = 1) -> list[dict]:
    """``count`` movement-phase requests on the standard map; the same seed gives the same list."""
    variant = load("standard")
    rng = Random(seed)
    return [_phase(variant, rng, n) for n in range(count)]


def _phase(variant: Variant, rng: Random, n: int) -> dict:
    units = _place_units(variant, rng)
    orders = _orders(variant, rng, units)
    season = "spring" if n % 2 == 0 else "fall"
    return {
        "variant": "standard",
        "phase": {"season": season, "year": 1901 + n // 2, "type": "movement"},
        "units": [{"power": p, "unit": k, "location": loc} for p, k, loc in units],
        "orders": [{"power": units[i][0], "order": orders[i]} for i in range(len(units))],
    }


def _neighbours(variant: Variant, province: str) -> set[str]:
    return set(variant.army_adj.get(province, ())) | set(variant.fleet_reach.get(province, ()))


def _place_units(variant: Variant, rng: Random) -> list[tuple[str, str, str]]:
    """34 units in clusters grown from each power's home centres, as in a mid-game board."""
    powers = list(variant.powers)
    sizes = dict.fromkeys(powers, 2)
    for _ in range(UNITS_PER_PHASE - 2 * len(powers)):
        sizes[rng.choice([p for p in powers if sizes[p] < 9])] += 1
    owner: dict[str, str] = {}
    held: dict[str, list[str]] = {p: [] for p in powers}
    while len(owner) < UNITS_PER_PHASE:
        for power in rng.sample(powers, len(powers)):
            if len(held[power]) >= sizes[power]:
                continue
            if held[power]:
                frontier = {q for h in held[power] for q in _neighbours(variant, h)} - owner.keys()
            else:
                frontier = set(variant.home_centres(power)) - owner.keys()
            if not frontier:
                frontier = set(variant.provinces) - owner.keys()
            province = rng.choice(sorted(frontier))
            owner[province] = power
            held[power].append(province)
    units = []
    for province, power in owner.items():
        p = variant.provinces[province]
        if p.is_sea or (not p.is_land and rng.random() < FLEET_ON_COAST):
            units.append((power, "F", rng.choice(variant.fleet_locations(province))))
        else:
            units.append((power, "A", province))
    rng.shuffle(units)
    return units


def _convoy_chains(variant: Variant, units, free: set[int]) -> list[tuple[int, list[int], str]]:
    """Every (army, fleets, destination) a fleet or two fleets at sea could carry this phase."""
    provinces = variant.provinces
    reach = variant.fleet_reach
    at = {province_of(u[2]): i for i, u in enumerate(units)}
    fleets = [i for i in free if units[i][1] == "F" and provinces[province_of(units[i][2])].is_sea]
    chains = []
    for f in sorted(fleets):
        sea = units[f][2]
        coasts = sorted(q for q in reach[sea] if provinces[q].type == "coast")
        armies = [at[q] for q in coasts if q in at and at[q] in free and units[at[q]][1] == "A"]
        for a in armies:
            chains += [(a, [f], d) for d in coasts if d != units[a][2]]
            for g in sorted(fleets):
                other = units[g][2]
                if other in reach[sea]:
                    far = sorted(reach[other] - reach[sea] - {sea})
                    chains += [
                        (a, [f, g], d)
                        for d in far
                        if provinces[d].type == "coast" and d != units[a][2]
                    ]
    return chains


def _orders(variant: Variant, rng: Random, units) -> list[str]:
    """One order per unit: convoy chains first, then moves, then supports of what is left."""
    n = len(units)
    orders: list[str | None] = [None] * n
    dest: dict[int, str] = {}  # mover -> destination province
    free = set(range(n))
    for _ in range(rng.choice(CONVOY_CHAINS)):
        chains = _convoy_chains(variant, units, free)
        if not chains:
            break
        two = [c for c in chains if len(c[1]) == 2]
        one = [c for c in chains if len(c[1]) == 1]
        a, fleets, d = rng.choice(two if two and rng.random() < TWO_FLEET_CHAIN else one)
        start = units[a][2]
        by_land = d in variant.army_adj[start]
        via = " via Convoy" if by_land or rng.random() < 0.5 else ""
        orders[a] = f"A {start} - {d}{via}"
        dest[a] = d
        for f in fleets:
            orders[f] = f"F {units[f][2]} C A {start} - {d}"
        free -= {a, *fleets}
    intent = {i: _intent(rng.random()) for i in sorted(free)}
    movers = [i for i in sorted(free) if intent[i] == "move"]
    rng.shuffle(movers)
    for i in movers:
        power, kind, loc = units[i]
        d = _pick_destination(variant, rng, units, i, dest, intent)
        dest[i] = province_of(d)
        orders[i] = f"{kind} {loc} - {d}"
    for i in sorted(free):
        if intent[i] == "support":
            orders[i] = _support(variant, rng, units, i, dest)
    return [o or f"{units[i][1]} {units[i][2]} H" for i, o in enumerate(orders)]


def _intent(r: float) -> str:
    if r < MOVE_SHARE:
        return "move"
    return "support" if r < MOVE_SHARE + SUPPORT_SHARE else "hold"


def _pick_destination(variant: Variant, rng: Random, units, i: int, dest, intent) -> str:
    """A neighbour, sometimes where another unit goes (bounce) or whence one comes (head-on).

    Players seldom walk into their own unit that stays put, so such moves are rare here too.
    """
    power, kind, loc = units[i]
    options = sorted(variant.army_adj[loc] if kind == "A" else variant.fleet_adj[loc])
    here = province_of(loc)
    at = {province_of(u[2]): j for j, u in enumerate(units)}
    r = rng.random()
    if r < 0.2:
        bounce = [d for d in options if province_of(d) in dest.values()]
        if bounce:
            return rng.choice(bounce)
    elif r < 0.3:
        head_on = [d for d in options if dest.get(at.get(province_of(d), -1)) == here]
        if head_on:
            return rng.choice(head_on)
    if rng.random() < OWN_BLOCK:
        return rng.choice(options)
    open_ = []
    for d in options:
        j = at.get(province_of(d))
        if j is None or units[j][0] != power or intent.get(j) == "move" or j in dest:
            open_.append(d)
    return rng.choice(open_ or options)


def _reach(variant: Variant, unit: tuple[str, str, str]) -> set[str]:
    """Provinces a unit could move to, which are the provinces it may support into."""
    _, kind, loc = unit
    if kind == "A":
        return set(variant.army_adj[loc])
    return {province_of(n) for n in variant.fleet_adj[loc]}


def _support(variant: Variant, rng: Random, units, s: int, dest: dict[int, str]) -> str | None:
    """Support a neighbour's move or hold, usually one of the supporter's own power."""
    power, kind, loc = units[s]
    reach = _reach(variant, units[s])
    here = province_of(loc)
    choices: list[tuple[int, str | None]] = []  # (target, destination or None)
    for t, (_, _, tloc) in enumerate(units):
        if t == s:
            continue
        if t in dest:
            if dest[t] in reach and dest[t] != here:
                choices.append((t, dest[t]))
        elif province_of(tloc) in reach:
            choices.append((t, None))
    if not choices:
        return None
    own = [c for c in choices if units[c[0]][0] == power]
    pool = own if own and rng.random() < SAME_POWER_SUPPORT else choices
    moves = [c for c in pool if c[1] is not None]
    if moves and rng.random() < 0.6:
        pool = moves
    t, d = rng.choice(pool)
    target = f"{units[t][1]} {units[t][2]}"
    return f"{kind} {loc} S {target}" + (f" - {d}" if d else "")


def order_kind(text: str) -> str:
    """hold, move, support or convoy, read from the generated text."""
    if " S " in text:
        return "support"
    if " C " in text:
        return "convoy"
    return "move" if " - " in text else "hold"


def order_mix(requests: list[dict]) -> Counter:
    """How many orders of each kind, and how many moves some fleet convoys."""
    mix: Counter = Counter()
    for request in requests:
        texts = [e["order"] for e in request["orders"]]
        carried = {t.split(" C ", 1)[1] for t in texts if order_kind(t) == "convoy"}
        for text in texts:
            kind = order_kind(text)
            mix[kind] += 1
            if kind == "move" and text.removesuffix(" via Convoy") in carried:
                mix["convoyed move"] += 1
    return mix


# -- measuring --------------------------------------------------------------------------------


def _time_pass(requests: list[dict]) -> tuple[list[int], Counter]:
    """Nanoseconds per phase and the tally of results (responses are not kept: memory)."""
    clock = time.perf_counter_ns
    times = []
    results: Counter = Counter()
    for request in requests:
        t0 = clock()
        response = adjudicate(request)
        times.append(clock() - t0)
        if "error" in response:
            results["rejected request"] += 1
        else:
            results.update(o["result"] for o in response["orders"])
    return times, results


def _percentile(values: list[float], q: int) -> float:
    if len(values) < 2:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def _rss_mb(usage: int) -> float:
    """ru_maxrss is kilobytes on Linux and bytes on macOS."""
    return usage / (1024 * 1024) if sys.platform == "darwin" else usage / 1024


def _load_all() -> tuple[list[str], list[str]]:
    loaded, failed = [], []
    for variant_id in available():
        try:
            load(variant_id)
            loaded.append(variant_id)
        except Exception as e:  # report every broken variant, do not stop
            failed.append(f"{variant_id} ({type(e).__name__}: {e})")
    return loaded, failed


# Runs the batch command in a fresh interpreter and reports its own peak resident memory. A
# child's ru_maxrss on Linux starts from the parent's high-water mark, so read VmHWM instead.
_PEAK_RSS = """
import atexit, resource, runpy, sys
def report():
    try:
        with open("/proc/self/status") as f:
            kb = next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
    except (OSError, StopIteration):
        kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        kb = kb // 1024 if sys.platform == "darwin" else kb
    sys.stderr.write(f"{kb}\\n")
atexit.register(report)
sys.argv = ["adjudication", "adjudicate", "--batch"]
runpy.run_module("adjudication", run_name="__main__", alter_sys=True)
"""


def _batch(requests: list[dict]) -> tuple[float, int, int, int, float | None]:
    """Time ``adjudicate --batch`` end to end: (seconds, output lines, errors, exit, child MB)."""
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as f:
        for request in requests:
            f.write(json.dumps(request))
            f.write("\n")
        path = f.name
    try:
        with open(path, "rb") as stdin:
            t0 = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-m", "adjudication", "adjudicate", "--batch"],
                stdin=stdin,
                stdout=subprocess.PIPE,
                cwd=ROOT,
                check=False,
            )
            seconds = time.perf_counter() - t0
        with open(path, "rb") as stdin:
            peak = subprocess.run(
                [sys.executable, "-c", _PEAK_RSS],
                stdin=stdin,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                cwd=ROOT,
                check=False,
            )
    finally:
        os.unlink(path)
    lines = done.stdout.decode("utf-8").splitlines()
    errors = sum(1 for line in lines if "error" in json.loads(line))
    try:
        child_mb = int(peak.stderr.decode().split()[-1]) / 1024
    except (ValueError, IndexError):
        child_mb = None
    return seconds, len(lines), errors, done.returncode, child_mb


def main(args) -> int:
    count, seed = args.phases, args.seed
    if count < 1:
        print("bench: --phases must be at least 1", file=sys.stderr)
        return 2
    # Memory first, before the harness holds thousands of requests of its own.
    loaded, failed = _load_all()
    requests = generate(1, seed)
    adjudicate(requests[0])
    engine_mb = _rss_mb(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)

    t0 = time.perf_counter()
    requests = generate(count, seed)
    generated_s = time.perf_counter() - t0
    mix = order_mix(requests)
    orders = sum(len(r["orders"]) for r in requests)

    for request in requests[:WARMUP_PHASES]:
        adjudicate(request)
    first, results = _time_pass(requests)
    runs = [_time_pass(requests)[0] for _ in range(RUNS)]
    per_phase = [statistics.median(ts) / 1e6 for ts in zip(*runs, strict=True)]
    first_ms = [t / 1e6 for t in first]
    median = statistics.median(per_phase)
    p99 = _percentile(per_phase, 99)
    mean = statistics.fmean(per_phase)
    harness_mb = _rss_mb(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)

    seconds, lines, batch_errors, status, batch_mb = _batch(requests)
    per_s = count / seconds
    resident = max(engine_mb, batch_mb or 0.0)

    def share(n: int) -> str:
        return f"{n} ({100 * n / orders:.1f}%)"

    print(f"bench: standard map, seed {seed}, generated in {generated_s:.2f} s")
    print(f"engine:            {'compiled (mypyc)' if compiled() else 'Python'}")
    print(f"phases:            {count}")
    print(f"units per phase:   {orders / count:g} (one order each, {orders} orders)")
    print(
        "orders:            "
        f"move {share(mix['move'])} (by convoy {mix['convoyed move']}), "
        f"support {share(mix['support'])}, convoy {share(mix['convoy'])}, "
        f"hold {share(mix['hold'])}"
    )
    print("results:           " + ", ".join(f"{k} {share(v)}" for k, v in sorted(results.items())))
    print(f"invalid orders:    {share(results['invalid'])} (should be under 2%)")
    print(f"timing:            warm-up {min(WARMUP_PHASES, count)} phases, 1 + {RUNS} timed runs")
    print(
        f"first run:         median {statistics.median(first_ms):.3f} ms, "
        f"p99 {_percentile(first_ms, 99):.3f} ms (order parse cache still filling)"
    )
    print(f"median per phase:  {median:.3f} ms   (target <= {TARGET_MEDIAN_MS} ms)")
    print(f"p99 per phase:     {p99:.3f} ms")
    print(f"mean per phase:    {mean:.3f} ms")
    print(f"variants loaded:   {', '.join(loaded) or 'none'}")
    if failed:
        print(f"variants failed:   {'; '.join(failed)}")
    print(f"peak resident:     {engine_mb:.1f} MB after loading every variant and judging a phase")
    if batch_mb is not None:
        print(f"{' ' * 19}{batch_mb:.1f} MB in the --batch process over all phases")
    pad = " " * 19
    print(f"{pad}target < {TARGET_RSS_MB} MB; this harness, holding all {count} requests,")
    print(f"{pad}peaked at {harness_mb:.1f} MB")
    print(
        f"batch:             {per_s:.0f} phases/s   (target >= {TARGET_BATCH_PER_S}/s; "
        f"{seconds:.2f} s wall incl. start-up)"
    )
    print(
        f"batch output:      {lines} lines for {count} requests, {batch_errors} errors, "
        f"exit {status}"
    )
    missed = []
    if median > TARGET_MEDIAN_MS:
        missed.append(f"median {median:.3f} ms > {TARGET_MEDIAN_MS} ms")
    if per_s < TARGET_BATCH_PER_S:
        missed.append(f"batch {per_s:.0f}/s < {TARGET_BATCH_PER_S}/s")
    if resident >= TARGET_RSS_MB:
        missed.append(f"resident {resident:.1f} MB >= {TARGET_RSS_MB} MB")
    if lines != count:
        missed.append(f"batch gave {lines} lines for {count} requests")
    if failed:
        missed.append(f"{len(failed)} variant(s) failed to load")
    print("targets: met" if not missed else f"targets: NOT met ({'; '.join(missed)})")
    return 0
