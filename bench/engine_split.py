"""``python -m bench.engine_split``: a batch's phase in its steady state, judging and writing
timed apart.

The batch's phases/s mixes start-up, the first phases (every order new, the tables filling)
and the steady state, and the writing of the answer with its judging. This runs the batch's own
steps in process (``_answer``: decoding and judging a JSON line; ``answer_json``: writing the
answer) over ``--phases`` fresh phases and sums each step over the phases after ``--skip``.
Another checkout is timed with its source first on the path; one without ``answer_json`` (before
2026-11-24) writes with ``json.dumps``, as its batch did:

    python -m bench.engine_split                                   # this tree
    cd /tmp && PYTHONPATH=/tmp/old_engine python /work/main/bench/engine_split.py   # another
"""

from __future__ import annotations

import argparse
import json
import time


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phases", type=int, default=3000)
    parser.add_argument("--skip", type=int, default=1000, help="phases not counted")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)

    from adjudication import __main__ as cli
    from adjudication.bench import generate

    try:
        from adjudication.answer_json import answer_json as write
    except ImportError:

        def write(response: dict) -> str:
            return json.dumps(response, ensure_ascii=False)

    settle = getattr(cli, "_settle_memory", lambda: None)
    lines = [json.dumps(r) for r in generate(args.phases, args.seed)]
    judging = writing = 0.0
    size = 0
    for index, line in enumerate(lines):
        t0 = time.perf_counter()
        response, _ = cli._answer(line)
        t1 = time.perf_counter()
        text = write(response)
        t2 = time.perf_counter()
        if index == 0:
            settle()  # as the batch does after its first answer
        if index >= args.skip:
            judging += t1 - t0
            writing += t2 - t1
            size += len(text)
    counted = max(1, args.phases - args.skip)
    print(f"engine split: {cli.__file__.rsplit('/', 2)[0]}, phases {args.skip}-{args.phases}")
    print(f"reading and judging: {judging / counted * 1000:.3f} ms a phase")
    print(f"writing:             {writing / counted * 1000:.3f} ms a phase")
    print(f"answer:              {size / counted / 1000:.1f} KB a phase")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
