"""``python -m bench.engine_ab TREE...``: two or more checkouts of the engine timed side by side.

Run one after the other in a fixed order, the first of each round came out several per cent
slower than the same tree run later (an A/A test, 2026-11-27), enough to decide "no slower" the
wrong way. So each round runs every tree once, in a new random order, and the figures are the
medians over the rounds:

- ``bench``: ``python -m adjudication bench`` in the tree (its median per phase, in process,
  and its batch phases a second, start-up included);
- ``batch CPU``: the CPU seconds (user and system) of ``python -m adjudication adjudicate
  --batch`` on the bench's 1,000 phases as JSON lines, start-up included.

    python -m bench.engine_ab /tmp/old_engine /work/main --rounds 8

Every tree runs with this interpreter and its own source first on the path.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path


def _env(tree: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPATH": str(tree)}


def bench_figures(tree: Path) -> tuple[float, float]:
    """(median ms a phase, batch phases a second) from the tree's own bench."""
    out = subprocess.run(
        [sys.executable, "-m", "adjudication", "bench"],
        cwd=tree, env=_env(tree), capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    median = float(re.search(r"median per phase:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    batch = float(re.search(r"batch:\s+(\d+) phases/s", out).group(1))  # type: ignore[union-attr]
    return median, batch


def batch_cpu(tree: Path, phases: Path) -> float:
    """CPU seconds of one ``adjudicate --batch`` over ``phases``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(phases, "rb") as stdin:
        subprocess.run(
            [sys.executable, "-m", "adjudication", "adjudicate", "--batch"],
            cwd=tree, env=_env(tree), stdin=stdin, stdout=subprocess.DEVNULL, check=True,
        )  # fmt: skip
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="+", type=Path, help="checkouts to compare")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1, help="the bench's phases")
    args = parser.parse_args(argv)
    trees = [t.resolve() for t in args.trees]
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from adjudication.bench import generate

    figures: dict[Path, dict[str, list[float]]] = {
        t: {"median": [], "batch": [], "cpu": []} for t in trees
    }
    with tempfile.TemporaryDirectory() as folder:
        phases = Path(folder) / "phases.jsonl"
        phases.write_text("".join(json.dumps(r) + "\n" for r in generate(1000, args.seed)))
        for _ in range(args.rounds):
            order = trees[:]
            random.shuffle(order)
            for tree in order:
                median, batch = bench_figures(tree)
                figures[tree]["median"].append(median)
                figures[tree]["batch"].append(batch)
                figures[tree]["cpu"].append(batch_cpu(tree, phases))
    print(f"engine A/B: {args.rounds} rounds, each tree once a round in a random order")
    for tree in trees:
        f = figures[tree]
        print(f"{tree}")
        print(f"  bench median:  {statistics.median(f['median']):.3f} ms a phase  "
              f"({', '.join(f'{x:.3f}' for x in f['median'])})")  # fmt: skip
        print(f"  bench batch:   {statistics.median(f['batch']):.0f} phases/s  "
              f"({', '.join(f'{x:.0f}' for x in f['batch'])})")  # fmt: skip
        print(f"  batch CPU:     {statistics.median(f['cpu']):.3f} s for 1,000 phases  "
              f"({', '.join(f'{x:.3f}' for x in f['cpu'])})")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
