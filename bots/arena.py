"""``python -m bots.arena``: bots against random players and against each other.

It prints the share of supply centres (Chinese Diplomacy: of gold) each kind of player holds
at the end, the invalid orders each sent (a bot must send none) and the bot's time per phase.
"""

from __future__ import annotations

import argparse
import random
import statistics

import adjudication

from .game import opening_request, play
from .heuristic import HeuristicBot
from .random_player import RandomPlayer

KINDS = {"bot": HeuristicBot, "random": RandomPlayer}


def _score(record, power: str, chinese: bool) -> float:
    if chinese:
        return float(record.last.get("economy", {}).get("balances", {}).get(power, 0))
    return float(len(record.last["supply_centers"].get(power, [])))


def _ahead(bot: float, rand: float) -> bool:
    """At least twice what random players hold (where they end in debt: bots in credit)."""
    return bot >= 2 * rand if rand > 0 else bot > 0


def run(variant_id: str, games: int, years: int, seed: int) -> dict:
    """Half the powers bots, half random (which half turns with each game)."""
    variant = adjudication.load(variant_id)
    powers = variant.playable_powers
    chinese = "chinese" in variant.rules
    totals: dict[str, list[float]] = {"bot": [], "random": []}
    invalid: dict[str, int] = {"bot": 0, "random": 0}
    phases = {"bot": 0, "random": 0}
    seconds: list[float] = []
    cpu: list[float] = []
    refused: list[dict] = []
    for g in range(games):
        rng = random.Random(seed * 1000 + g)
        order = powers[:]
        rng.shuffle(order)
        bots = set(order[: len(order) // 2 + (g % 2)])
        players = {
            p: (HeuristicBot if p in bots else RandomPlayer)(rng.randrange(1 << 30)) for p in powers
        }
        record = play(opening_request(variant_id, seed * 1000 + g), players, years)
        for p in powers:
            totals[players[p].name].append(_score(record, p, chinese))
        for kind in invalid:
            invalid[kind] += record.invalid.get(kind, 0)
            phases[kind] += record.phases.get(kind, 0)
        seconds += record.seconds.get("bot", [])
        cpu += record.cpu.get("bot", [])
        refused += [r for r in record.refused if r["by"] == "bot"]
    mean = {k: statistics.fmean(v) if v else 0.0 for k, v in totals.items()}
    return {
        "variant": variant_id,
        "games": games,
        "years": years,
        "mean_per_power": mean,
        "ratio": mean["bot"] / mean["random"] if mean["random"] > 0 else None,
        "bots_ahead": _ahead(mean["bot"], mean["random"]),
        "invalid": invalid,
        "phases": phases,
        "bot_seconds_median": statistics.median(seconds) if seconds else 0.0,
        "bot_seconds_max": max(seconds, default=0.0),
        "bot_cpu_median": statistics.median(cpu) if cpu else 0.0,
        "bot_cpu_max": max(cpu, default=0.0),
        "bot_refused": refused,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bots.arena", description=__doc__)
    parser.add_argument("--variant", default="colonial", choices=adjudication.available())
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--years", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    r = run(args.variant, args.games, args.years, args.seed)
    unit = "gold" if "chinese" in adjudication.load(args.variant).rules else "centres"
    print(f"{r['variant']}: {r['games']} games of {r['years']} years")
    for kind, value in r["mean_per_power"].items():
        print(f"  {kind:7} {value:7.2f} {unit} per power at the end")
    ratio = "n/a (random players end in debt)" if r["ratio"] is None else f"{r['ratio']:.2f}"
    print(f"  ratio   {ratio} (bot / random); at least twice: {'yes' if r['bots_ahead'] else 'NO'}")
    print(
        f"  invalid orders: bot {r['invalid']['bot']} in {r['phases']['bot']} phases, "
        f"random {r['invalid']['random']} in {r['phases']['random']} phases"
    )
    print(
        f"  bot time per phase: median {r['bot_seconds_median'] * 1000:.1f} ms, "
        f"max {r['bot_seconds_max'] * 1000:.1f} ms; CPU median "
        f"{r['bot_cpu_median'] * 1000:.1f} ms, max {r['bot_cpu_max'] * 1000:.1f} ms"
    )
    for reply in r["bot_refused"]:
        print(f"  refused: {reply}")
    return 0 if r["invalid"]["bot"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
