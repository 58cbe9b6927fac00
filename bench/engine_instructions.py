"""``python -m bench.engine_instructions``: what a phase costs the engine, counted, not timed.

On a shared virtual machine two runs of the same code differ by 10 % and more, so small
differences between two versions of the engine cannot be timed. cachegrind counts them: the
instructions a phase takes, and the misses of a simulated first-level instruction and data
cache and of a 1 MB second level (this machine's), with ``PYTHONHASHSEED=0`` so that a run
repeats exactly. Needs valgrind.

    python -m bench.engine_instructions                      # this tree
    python -m bench.engine_instructions --root /tmp/old_engine   # another checkout, e.g. be79fdc
    python -m bench.engine_instructions --stages   # and a fresh phase's reading, judging, writing

In process: ``adjudicate()`` over the bench's phases (``adjudication.bench.generate``, all maps
loaded), three passes less one, per phase. Batch: ``python -m adjudication adjudicate --batch``
on the phases as fresh JSON lines, less a batch of the first phase alone (start-up and the
maps' loading), per phase after the first.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EVENTS = {"I refs": "instructions", "I1  misses": "L1i misses", "D1  misses": "L1d misses"}
LL = "1048576,8,64"  # a 1 MB, 8-way second level, as on this machine's cores

_IN_PROCESS = """
import json, sys
from adjudication import adjudicate
from adjudication.bench import _load_all
_load_all()
with open(sys.argv[1], encoding="utf-8") as f:
    requests = [json.loads(line) for line in f]
for _ in range(int(sys.argv[2])):
    for request in requests:
        adjudicate(request)
"""


_BATCH = ["-m", "adjudication", "adjudicate", "--batch"]

# A fresh phase's parts, as the batch does them: stage 1 reads each JSON line, 2 also judges
# it, 3 also writes the answer (``--stages``).
_STAGES = """
import sys
from adjudication.__main__ import _decode, _settle_memory
from adjudication.api import adjudicate
from adjudication.answer_json import answer_json
stage, count = int(sys.argv[2]), int(sys.argv[3])
with open(sys.argv[1], encoding="utf-8") as f:
    lines = f.read().splitlines()[:count]
for n, line in enumerate(lines):
    request = _decode(line)
    if stage >= 2:
        response = adjudicate(request)
        if stage >= 3:
            answer_json(response)
    if n == 0:
        _settle_memory()
"""


def _run(root: Path, args: list[str], stdin: Path | None, valgrind: list[str]) -> str:
    """Run python with ``args`` in ``root`` (under ``valgrind`` if given); its stderr."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(root)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # compiling the engine each run is not its cost
    with open(stdin or os.devnull, "rb") as source:
        done = subprocess.run(
            [*valgrind, sys.executable, *args], cwd=root, env=env, stdin=source,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True,
        )  # fmt: skip
    return done.stderr


def _count(root: Path, args: list[str], stdin: Path | None = None) -> dict[str, int]:
    """cachegrind's totals for one run of python with ``args`` in ``root``."""
    cachegrind = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=yes",
        f"--LL={LL}",
        "--cachegrind-out-file=/dev/null",
    ]
    stderr = _run(root, args, stdin, cachegrind)
    totals = {}
    for line in stderr.splitlines():
        m = re.search(r"== (I {3}refs|I1  misses|D1  misses|LLd misses):\s+([\d,]+)", line)
        if m:
            totals[m.group(1).replace("I   refs", "I refs")] = int(m.group(2).replace(",", ""))
    return totals


def _per_phase(more: dict[str, int], less: dict[str, int], phases: int) -> dict[str, int]:
    return {key: round((more[key] - less[key]) / phases) for key in more}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to measure")
    parser.add_argument("--phases", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--stages",
        action="store_true",
        help="also split a fresh phase into reading its JSON, judging it and writing the answer",
    )
    args = parser.parse_args(argv)
    root, phases, seed = args.root.resolve(), args.phases, args.seed
    if phases < 2:
        print("--phases must be at least 2", file=sys.stderr)
        return 2
    sys.path.insert(0, str(ROOT))
    from adjudication.bench import generate  # this tree's generator: the same phases for both

    with tempfile.TemporaryDirectory() as folder:
        first, every = Path(folder) / "first.jsonl", Path(folder) / "every.jsonl"
        lines = [json.dumps(r) + "\n" for r in generate(phases, seed)]
        first.write_text(lines[0], encoding="utf-8")
        every.write_text("".join(lines), encoding="utf-8")
        # A first run of a fresh checkout writes its bytecode and whatever the maps keep on
        # disk; counted in "once" and not in "thrice", it would make a phase look cheaper.
        _run(root, ["-c", _IN_PROCESS, str(first), "1"], None, [])
        _run(root, _BATCH, first, [])
        snippet = ["-c", _IN_PROCESS, str(every)]
        once, thrice = _count(root, [*snippet, "1"]), _count(root, [*snippet, "3"])
        one, all_ = _count(root, _BATCH, first), _count(root, _BATCH, every)
        stages = []
        if args.stages:
            for stage in (1, 2, 3):
                few, many = (
                    _count(root, ["-c", _STAGES, str(every), str(stage), str(n)])["I refs"]
                    for n in (1, phases)
                )
                stages.append(round((many - few) / (phases - 1)))
    in_process = _per_phase(thrice, once, 2 * phases)
    batch = _per_phase(all_, one, phases - 1)

    print(f"engine instructions: {root}, {phases} phases, seed {seed} (cachegrind, LL {LL})")
    for label, figures in (("in process", in_process), ("batch", batch)):
        shown = ", ".join(f"{figures[k]:,} {name}" for k, name in EVENTS.items() if k in figures)
        second = figures.get("LLd misses")
        print(f"{label + ':':<12} {shown}, {second:,} L2 data misses a phase")
    if stages:
        reading, judging, writing = stages[0], stages[1] - stages[0], stages[2] - stages[1]
        print(
            f"a fresh phase: reading {reading:,}, judging {judging:,}, writing {writing:,} "
            "instructions"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
