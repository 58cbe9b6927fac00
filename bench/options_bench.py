"""Time ``adjudication.options`` (the board's menus, the bots' choices) on Colonial positions.

The positions are the movement phases of seeded Colonial games, half the powers bots and half
random players. Every power's list is timed on each: a first pass in a fresh process (no
position seen before), then five warm passes (the median kept). To compare two versions of the
engine on the same positions, save them with one and load them in both (``-m`` imports the
engine of the directory it runs in; copy this file into the other checkout's ``bench/``)::

    .venv/bin/python -m bench.options_bench --save /tmp/positions.json
    cd /tmp/old && /work/main/.venv/bin/python -m bench.options_bench --load /tmp/positions.json
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import adjudication
from adjudication.options import options


def positions(games: int, years: int) -> list[dict]:
    """The movement phases' requests (without orders) of seeded Colonial games."""
    from bots import game
    from bots.heuristic import HeuristicBot
    from bots.random_player import RandomPlayer

    seen: list[dict] = []
    real = game.adjudication.adjudicate

    def keep(request: dict) -> dict:
        if request["phase"]["type"] == "movement":
            seen.append({k: v for k, v in request.items() if k != "orders"})
        return real(request)

    powers = adjudication.load("colonial").playable_powers
    game.adjudication.adjudicate = keep
    try:
        for g in range(games):
            rng = random.Random(g)
            players = {
                p: (HeuristicBot if i % 2 else RandomPlayer)(rng.randrange(1 << 30))
                for i, p in enumerate(powers)
            }
            game.play(game.opening_request("colonial", g), players, years)
    finally:
        game.adjudication.adjudicate = real
    return seen


def one_pass(requests: list[dict], powers: list[str]) -> tuple[float, float, int]:
    """Seconds in all, the slowest call's seconds, and the orders listed."""
    total = worst = 0.0
    listed = 0
    for request in requests:
        for power in powers:
            start = time.perf_counter()
            answer = options(request, power)
            took = time.perf_counter() - start
            total += took
            worst = max(worst, took)
            listed += len(answer.get("orders", ()))
    return total, worst, listed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--years", type=int, default=8)
    parser.add_argument("--save", help="write the positions to this JSON file")
    parser.add_argument("--load", help="read the positions from this JSON file")
    args = parser.parse_args(argv)
    if args.load:
        with open(args.load) as f:
            requests = json.load(f)
    else:
        requests = positions(args.games, args.years)
    if args.save:
        with open(args.save, "w") as f:
            json.dump(requests, f)
    powers = adjudication.load("colonial").playable_powers
    options(requests[0], powers[0])  # the variant loaded, as in a running server
    first = one_pass(requests[1:], powers)
    warm = [one_pass(requests, powers) for _ in range(5)]
    calls = len(requests) * len(powers)
    total = statistics.median(w[0] for w in warm)
    print(f"engine: {adjudication.__file__}")
    print(f"positions: {len(requests)} Colonial movement phases, {calls} calls a pass")
    print(f"first pass: {first[0] * 1000:.0f} ms, slowest call {first[1] * 1000:.1f} ms")
    print(
        f"warm (median of 5): mean {total / calls * 1000:.2f} ms a call, slowest call "
        f"{statistics.median(w[1] for w in warm) * 1000:.1f} ms"
    )
    print(f"orders listed: {warm[0][2]} ({warm[0][2] / calls:.0f} a call)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
