"""Time our adjudicator against the ``diplomacy`` package (PyPI) on the same generated phases.

    python -m bench.adjudication_vs_diplomacy --phases 1000 --seed 1 \\
        --diplomacy-python /tmp/dipvenv/bin/python

The phases come from ``adjudication.bench.generate``. ``diplomacy`` is not a project dependency:
it lives in its own venv, and this module runs itself there with ``--worker``, reading the
translated phases as JSON lines on stdin and printing each one's timing and result as a JSON
line. Only ``game.process()`` is timed on that side and only ``adjudicate(request)`` on ours,
each after a warm-up on phases from another seed; the two engines take turns in blocks of
``--block`` phases, so that machine noise falls on both alike.
Supply centres are left at the default in both (home centres owned), which is all a movement
phase needs. Disagreements are reported, never failures.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from adjudication import adjudicate, load
from adjudication.bench import generate

ROOT = Path(__file__).resolve().parent.parent
TARGET_RATIO = 5.0
WARMUP_PHASES = 50
WARMUP_SEED_OFFSET = 100_000  # warm-up phases come from seed + this, never the timed ones
SHOWN_DISAGREEMENTS = 5
SEASON_LETTER = {"spring": "S", "fall": "F"}
# Names of ours that the diplomacy map spells differently and whose abbreviations differ too.
# Empty for the standard map today (see location_table); kept as the one place to add them.
ALIASES: dict[str, str] = {}


# -- the diplomacy side (runs in the diplomacy venv) -----------------------------------------


def worker() -> int:
    """Answer one JSON line per JSON line on stdin: ``{"map": true}`` asks for the map's names
    and versions, ``{"phase": ..., "runs": n}`` for one timed phase."""
    import logging

    import diplomacy

    logging.disable(logging.CRITICAL)
    game = diplomacy.Game()  # loads and caches the standard map
    for line in sys.stdin:
        job = json.loads(line)
        if job.get("map"):
            answer = map_answer(game)
        else:
            answer = _process(diplomacy, job["phase"], job["runs"])
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    return 0


def map_answer(game) -> dict:
    """The package version and the standard map's names, for ``location_table``."""
    from importlib.metadata import version

    return {
        "version": version("diplomacy"),
        "python": sys.version.split()[0],
        "loc_name": game.map.loc_name,
        "locs": sorted(loc.upper() for loc in game.map.locs),
    }


def _process(diplomacy, phase: dict, runs: int) -> dict:
    """Median nanoseconds of ``process()`` over ``runs`` fresh games, and the board after it.

    For context the result also holds the median with the set-up that our ``adjudicate``
    does inside its timing (placing units, parsing and checking orders: ``clear_units``,
    ``set_units``, ``set_orders``); only the ``Game()`` itself stays out.

    A dislodged unit with nowhere to go is removed by ``process()`` at once, so dislodged
    units are read from the order results, not from the ``*``-marked units left on the board.
    """
    times, totals = [], []
    for _ in range(runs):
        game = diplomacy.Game()
        t_setup = time.perf_counter_ns()
        game.clear_units()
        game.set_current_phase(phase["phase"])
        for power, units in phase["units"].items():
            game.set_units(power, units)
        for power, orders in phase["orders"].items():
            game.set_orders(power, orders)
        t_get = time.perf_counter_ns()
        accepted = sum(len(o) for o in game.get_orders().values())
        t0 = time.perf_counter_ns()
        game.process()
        t1 = time.perf_counter_ns()
        times.append(t1 - t0)
        totals.append(t1 - t_setup - (t0 - t_get))
    owner = {u: p for p, units in phase["units"].items() for u in units}
    results = game.result_history.last_value()
    dislodged = [
        f"{owner[u]} {u}" for u, rs in results.items() if any(str(r) == "dislodged" for r in rs)
    ]
    units = [f"{p} {u}" for p in game.powers for u in game.get_units(p) if not u.startswith("*")]
    return {
        "time_ns": statistics.median(times),
        "with_setup_ns": statistics.median(totals),
        "units": units,
        "dislodged": dislodged,
        "accepted": accepted,
        "orders": {u: ", ".join(str(r) for r in rs) or "ok" for u, rs in results.items()},
    }


# -- translating our requests ------------------------------------------------------------------


def location_table(their_map: dict) -> tuple[dict[str, str], list[str]]:
    """Our canonical locations (``Spain/nc``) -> the diplomacy ids (``SPA/NC``), and notes.

    A province is matched by its full name on their map first, then by an alias, then by our
    abbreviation; every id is checked against their list of locations.
    """
    variant = load("standard")
    by_name = {name.upper(): loc.upper() for name, loc in their_map["loc_name"].items()}
    locs = set(their_map["locs"])
    table: dict[str, str] = {}
    notes = []
    for name, province in variant.provinces.items():
        their = by_name.get(name.upper()) or ALIASES.get(name)
        if their is None:
            their = province.abbreviation.upper()
            notes.append(f"{name} -> {their} (by abbreviation: their map's name differs)")
        elif their != province.abbreviation.upper():
            notes.append(f"{name} -> {their} (our abbreviation is {province.abbreviation})")
        if their not in locs:
            raise ValueError(f"no location {their!r} on the diplomacy map for {name}")
        table[name] = their
        for coast in province.coasts:
            coast_id = f"{their}/{coast.upper()}"
            if coast_id not in locs:
                raise ValueError(f"no location {coast_id!r} on the diplomacy map")
            table[f"{name}/{coast}"] = coast_id
    return table, notes


def _unit(text: str, table: dict[str, str]) -> str:
    """``A Spain/nc`` or ``A Paris - Burgundy`` in their notation."""
    unit, _, dest = text.partition(" - ")
    kind, location = unit.split(" ", 1)
    out = f"{kind} {table[location]}"
    return f"{out} - {table[dest]}" if dest else out


def translate_order(text: str, table: dict[str, str]) -> str:
    """One of our generated orders in the diplomacy package's notation."""
    via = text.endswith(" via Convoy")
    text = text.removesuffix(" via Convoy")
    match = re.fullmatch(r"(.+?) ([SC]) (.+)", text)
    if match:
        return f"{_unit(match[1], table)} {match[2]} {_unit(match[3], table)}"
    if text.endswith(" H"):
        return f"{_unit(text[:-2], table)} H"
    return _unit(text, table) + (" VIA" if via else "")


def translate(request: dict, table: dict[str, str]) -> dict:
    """A contract request as the diplomacy worker's phase: phase name, units and orders."""
    phase = request["phase"]
    units: dict[str, list[str]] = {}
    orders: dict[str, list[str]] = {}
    for u in request["units"]:
        units.setdefault(u["power"].upper(), []).append(f"{u['unit']} {table[u['location']]}")
    for o in request["orders"]:
        orders.setdefault(o["power"].upper(), []).append(translate_order(o["order"], table))
    return {
        "phase": f"{SEASON_LETTER[phase['season']]}{phase['year']}M",
        "units": units,
        "orders": orders,
    }


def our_board(response: dict, table: dict[str, str]) -> dict:
    """Our response's units and dislodged units, in the worker's ``POWER K LOC`` form."""

    def key(u: dict) -> str:
        return f"{u['power'].upper()} {u['unit']} {table[u['location']]}"

    return {
        "units": [key(u) for u in response["units"]],
        "dislodged": [key(u) for u in response["dislodged"]],
        "results": [o["result"] for o in response["orders"]],
    }


# -- running both ------------------------------------------------------------------------------


class Worker:
    """The diplomacy half in its own interpreter, asked one phase at a time.

    Phases alternate between the two engines, so both see the same load on a shared machine.
    """

    def __init__(self, python: str, module: str = "bench.adjudication_vs_diplomacy") -> None:
        self.proc = subprocess.Popen(
            [python, "-m", module, "--worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )

    def ask(self, job: dict) -> dict:
        """Send one job, wait for its answer."""
        self.proc.stdin.write(json.dumps(job) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"diplomacy worker stopped (exit {self.proc.wait()})")
        return json.loads(line)

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def time_ours(request: dict, runs: int) -> tuple[float, dict]:
    """Median nanoseconds of ``adjudicate`` over ``runs``, and the last response."""
    clock = time.perf_counter_ns
    ns = []
    for _ in range(runs):
        t0 = clock()
        response = adjudicate(request)
        ns.append(clock() - t0)
    return statistics.median(ns), response


class BatchCli:
    """Our engine as a tool or server feeds it: ``python -m adjudication adjudicate --batch``
    in its own process, fresh JSON lines in, JSON lines out. Start-up is excluded: the clock
    runs from the first line of a block written to the last answer read."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "adjudication", "adjudicate", "--batch"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )

    def run(self, lines: list[str]) -> tuple[float, list[dict]]:
        """Nanoseconds for the whole block, and the answers. A thread writes while this one
        reads, so neither pipe fills up and stalls the other side."""

        def write() -> None:
            self.proc.stdin.write("".join(lines))
            self.proc.stdin.flush()

        writer = threading.Thread(target=write)
        t0 = time.perf_counter_ns()
        writer.start()
        answers = [self.proc.stdout.readline() for _ in lines]
        elapsed = time.perf_counter_ns() - t0
        writer.join()
        if not all(answers):
            raise RuntimeError(f"adjudication --batch stopped (exit {self.proc.wait()})")
        return elapsed, [json.loads(a) for a in answers]

    def __enter__(self) -> BatchCli:
        return self

    def __exit__(self, *exc) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def _percentile(values: list[float], q: int) -> float:
    if len(values) < 2:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def _difference(ours: dict, theirs: dict) -> dict[str, list[str]]:
    diff = {}
    for field in ("units", "dislodged"):
        a, b = set(ours[field]), set(theirs[field])
        if a != b:
            diff[f"{field} only ours"] = sorted(a - b)
            diff[f"{field} only diplomacy"] = sorted(b - a)
    return diff


def helps_dislodge_own_unit(phase: dict) -> bool:
    """Whether a power supports a foreign move onto one of its own units (translated phase)."""
    owner = {u.split()[1].split("/")[0]: p for p, units in phase["units"].items() for u in units}
    for power, orders in phase["orders"].items():
        for order in orders:
            words = order.split()
            if len(words) == 7 and words[2] == "S":
                mover, target = words[4].split("/")[0], words[6].split("/")[0]
                if owner.get(mover) != power and owner.get(target) == power:
                    return True
    return False


def _show(
    n: int, request: dict, board: dict, theirs: dict, diff: dict, table: dict[str, str]
) -> None:
    """One disagreement: what differs, and each engine's result for the orders that touch those
    provinces or the moves and supports into them."""
    phase = translate(request, table)["phase"]
    print(f"  phase {n} ({phase}); diplomacy's result 'ok' means no failure noted:")
    for label, entries in diff.items():
        if entries:
            print(f"    {label + ':':26} {', '.join(entries)}")
    orders = [translate_order(o["order"], table) for o in request["orders"]]
    places = {e.split()[-1].split("/")[0] for entries in diff.values() for e in entries}
    involved = set(places)
    for order in orders:
        words = {w.split("/")[0] for w in order.split()}
        if words & places:
            involved |= {w for w in words if len(w) == 3 and w.isupper()}
    for entry, order, result in zip(request["orders"], orders, board["results"], strict=True):
        if {w.split("/")[0] for w in order.split()} & involved:
            unit = " ".join(order.split()[:2])
            their = theirs["orders"].get(unit, "?")
            power = entry["power"][:3].upper()
            print(f"      {power} {order:30} ours: {result:9} diplomacy: {their}")


def end_to_end(args: argparse.Namespace) -> int:
    """The batch CLI against diplomacy's bare ``process()``: total time for the same phases,
    a block of each engine in turn; every answer checked against diplomacy's board."""
    requests = generate(args.phases, args.seed)
    warmup = generate(WARMUP_PHASES, args.seed + WARMUP_SEED_OFFSET)
    lines = [json.dumps(r) + "\n" for r in requests]
    ours_ns, theirs_ns, diffs = 0, 0, 0
    with Worker(args.diplomacy_python) as dip, BatchCli() as cli:
        table, _ = location_table(dip.ask({"map": True}))
        cli.run([json.dumps(r) + "\n" for r in warmup])
        for request in warmup:
            dip.ask({"phase": translate(request, table), "runs": 1})
        for start in range(0, len(requests), args.block):
            block = slice(start, start + args.block)
            ns, answers = cli.run(lines[block])
            ours_ns += ns
            for request, answer in zip(requests[block], answers, strict=True):
                theirs = dip.ask({"phase": translate(request, table), "runs": args.runs})
                theirs_ns += theirs["time_ns"]
                diffs += bool(_difference(our_board(answer, table), theirs))
    ours_ms, theirs_ms = ours_ns / 1e6 / len(requests), theirs_ns / 1e6 / len(requests)
    ratio = theirs_ms / ours_ms
    print(f"end to end: {args.phases} phases, seed {args.seed}, blocks of {args.block}")
    print(f"ours:              {ours_ms:.3f} ms a phase through adjudicate --batch (fresh JSON)")
    print(f"diplomacy:         {theirs_ms:.3f} ms a phase in process() (median of {args.runs})")
    print(f"ratio of means:    {ratio:.1f}x (diplomacy / ours), target at least {TARGET_RATIO:g}x")
    print(f"agreement:         {len(requests) - diffs} of {len(requests)} phases alike")
    print("target: met" if ratio >= TARGET_RATIO else "target: NOT met")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phases", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=3, help="timed runs per phase (median)")
    parser.add_argument("--block", type=int, default=100, help="phases per turn of each engine")
    parser.add_argument("--diplomacy-python", default="/tmp/dipvenv/bin/python")
    parser.add_argument(
        "--end-to-end",
        action="store_true",
        help="time ours through the batch CLI on fresh JSON (python -m adjudication adjudicate "
        "--batch, start-up excluded) instead of adjudicate() in process",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker()
    if args.end_to_end:
        return end_to_end(args)
    if min(args.phases, args.runs, args.block) < 1:
        print("--phases, --runs and --block must be at least 1", file=sys.stderr)
        return 2

    requests = generate(args.phases, args.seed)
    warmup = generate(WARMUP_PHASES, args.seed + WARMUP_SEED_OFFSET)
    ours_ns, boards, theirs = [], [], []
    with Worker(args.diplomacy_python) as dip:
        their_map = dip.ask({"map": True})
        table, notes = location_table(their_map)
        phases = [translate(r, table) for r in requests]
        for request in warmup:
            time_ours(request, args.runs)
            dip.ask({"phase": translate(request, table), "runs": args.runs})
        # The engines take turns a block at a time: turn by turn, each phase of ours began
        # with the CPU caches just cleared by the other process, which costs a 0.3 ms phase
        # far more, in proportion, than a 1.5 ms one.
        for start in range(0, len(requests), args.block):
            block = slice(start, start + args.block)
            for request in requests[block]:
                ns, response = time_ours(request, args.runs)
                ours_ns.append(ns)
                boards.append(our_board(response, table))  # keep only this: less for the GC
            for phase in phases[block]:
                theirs.append(dip.ask({"phase": phase, "runs": args.runs}))

    ours_ms = [t / 1e6 for t in ours_ns]
    theirs_ms = [t["time_ns"] / 1e6 for t in theirs]
    diffs = [_difference(o, t) for o, t in zip(boards, theirs, strict=True)]
    agree = sum(1 for d in diffs if not d)
    dropped = [
        sum(len(o) for o in p["orders"].values()) - t["accepted"]
        for p, t in zip(phases, theirs, strict=True)
    ]
    invalid = sum(b["results"].count("invalid") for b in boards)
    orders = sum(len(r["orders"]) for r in requests)

    ours_median, theirs_median = statistics.median(ours_ms), statistics.median(theirs_ms)
    ratio = theirs_median / ours_median
    print(f"adjudication vs diplomacy {their_map['version']}: standard map, seed {args.seed}")
    print(f"python:            ours {sys.version.split()[0]}, diplomacy's {their_map['python']}")
    print(f"name mapping:      {len(table)} locations; " + ("; ".join(notes) or "all by name"))
    print(f"phases:            {args.phases} ({orders} orders), warm-up {WARMUP_PHASES} others")
    print(
        "timed:             ours adjudicate(request), diplomacy game.process(); "
        f"median of {args.runs} runs per phase, engines taking turns {args.block} phases at a time"
    )
    print(f"ours:              median {ours_median:.3f} ms, p99 {_percentile(ours_ms, 99):.3f} ms")
    print(
        f"diplomacy:         median {theirs_median:.3f} ms, p99 {_percentile(theirs_ms, 99):.3f} ms"
    )
    with_setup = [r["with_setup_ns"] / 1e6 for r in theirs]
    print(
        f"  with set-up:     median {statistics.median(with_setup):.3f} ms, "
        f"p99 {_percentile(with_setup, 99):.3f} ms (set_units + set_orders + process; "
        f"{statistics.median(with_setup) / ours_median:.1f}x ours)"
    )
    print(f"ratio of medians:  {ratio:.1f}x (diplomacy / ours), target at least {TARGET_RATIO:g}x")
    print(
        f"orders refused:    ours {invalid} invalid, diplomacy dropped {sum(dropped)} "
        f"at set_orders (in {sum(1 for d in dropped if d)} phases)"
    )
    print(
        f"agreement:         {agree} of {args.phases} phases give the same units and "
        f"dislodged units ({args.phases - agree} differ, "
        f"{sum(1 for d, n in zip(diffs, dropped, strict=True) if d and n)} of them with an order "
        "diplomacy dropped)"
    )
    differ = [n for n, d in enumerate(diffs) if d]
    own = sum(1 for n in differ if helps_dislodge_own_unit(phases[n]))
    print(
        f"{'':19}{own} of the {len(differ)} have a power support a foreign move onto its own "
        "unit (DATC 6.D.12-13, 6.E.3: that support may not dislodge it)"
    )
    shown = differ[:SHOWN_DISAGREEMENTS]
    for n in shown:
        _show(n, requests[n], boards[n], theirs[n], diffs[n], table)
    print("target: met" if ratio >= TARGET_RATIO else "target: NOT met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
