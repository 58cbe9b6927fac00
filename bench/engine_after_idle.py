"""``python -m bench.engine_after_idle``: how long the batch's phases take just after the
process has been idle, in process, against the same phases without the pause.

The end-to-end bench (``bench.adjudication_vs_diplomacy --end-to-end``) leaves our batch idle
for some 0.4 s while diplomacy takes its turn. This times the batch's own steps (``_answer``
and ``answer_json``, as ``bench.engine_split``) on blocks of ``--block`` fresh phases, each
block after a sleep of ``--sleep`` seconds and again with none, and prints each block's first
phase, the median of the others, and the minor page faults the blocks made (the same with and
without the pause: it is not memory being faulted back in):

    python -m bench.engine_after_idle --block 10 --blocks 20 --sleep 0.4
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import time


def blocks(lines: list[str], block: int, count: int, pause: float) -> tuple[list, list, int]:
    """Milliseconds of each block's first phase and of its other phases, and the page faults."""
    from adjudication import __main__ as cli
    from adjudication.answer_json import answer_json

    firsts, others = [], []
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for n in range(count):
        time.sleep(pause)
        for k, line in enumerate(lines[n * block : (n + 1) * block]):
            t0 = time.perf_counter_ns()
            answer_json(cli._answer(line)[0])
            (others if k else firsts).append((time.perf_counter_ns() - t0) / 1e6)
    return firsts, others, resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--block", type=int, default=10, help="phases a block")
    parser.add_argument("--blocks", type=int, default=20)
    parser.add_argument("--sleep", type=float, default=0.4, help="seconds idle before a block")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    from adjudication import __main__ as cli
    from adjudication.answer_json import answer_json
    from adjudication.bench import generate

    size = args.block * args.blocks
    lines = [json.dumps(r) for r in generate(2 * size + 50, args.seed)]
    for line in lines[:50]:  # warm-up: the map, the tables, the first orders read
        answer_json(cli._answer(line)[0])
    cli._settle_memory()  # as the batch does after its first answer
    print(f"engine after idle: blocks of {args.block} fresh phases, {args.blocks} blocks each way")
    for label, pause, start in (
        (f"after {args.sleep:g} s idle", args.sleep, 50),
        ("without a pause", 0.0, 50 + size),
    ):
        firsts, others, faults = blocks(lines[start:], args.block, args.blocks, pause)
        print(
            f"{label + ':':22} first phase median {statistics.median(firsts):.2f} ms "
            f"(max {max(firsts):.2f}), the others median {statistics.median(others):.3f} ms, "
            f"{faults} minor page faults"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
