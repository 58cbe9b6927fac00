"""The engine's answers to a fixed set of calls, as JSON lines (tests/test_compiled.py).

``python tests/engine_answers.py play CALLS`` makes the calls and writes them to the file CALLS,
one JSON line each, and the answers to standard output; ``... answer CALLS`` answers the calls
of such a file. The first output line names the engine that answered (``adjudication.compiled``);
each answer is JSON with its reasons' words (``add_words``), or the exception a call raised.

The calls, the same on every run: the DATC cases' requests (tests/datc.py); on every variant,
generated movement phases as the bench makes them (``adjudication.bench``), some checked, some
garbled, each followed by its retreat or adjustment phase when it has one (orders as
bench/differential.py makes them), and a seeded game between random players (bots/), each
phase listed as one power's options, judged, checked and garbled; malformed requests.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from random import Random

import adjudication
from adjudication import add_words, adjudicate, check, options
from adjudication.answer_json import answer_json
from adjudication.api import adjudicate_to_write
from adjudication.bench import _orders, _place_units
from adjudication.following import next_request

PHASES = 150  # generated movement phases a variant
GAME_PHASES = {"standard": 30, "colonial": 18, "far-east": 24, "chinese": 12}
MALFORMED = [
    [],
    "standard",
    {},
    {"variant": 5},
    {"variant": "nowhere"},
    {"variant": "standard", "phase": "spring"},
    {"variant": "standard", "phase": {"season": "spring", "year": True}},
    {"variant": "standard", "phase": {"season": "winter", "year": 1901, "type": "movement"}},
    {"variant": "standard", "units": "A Paris"},
    {"variant": "standard", "units": [{"power": "France", "unit": "A", "location": None}]},
    {"variant": "standard", "units": [{"power": ["France"], "unit": "A", "location": "Paris"}]},
    {"variant": "standard", "supply_centers": {"France": "Paris"}},
    {"variant": "standard", "options": []},
    {"variant": "standard", "orders": {"France": "A Paris H"}},
    {"variant": "standard", "orders": [{"power": 5, "order": None}, "A Paris H"]},
    {"variant": "standard", "orders": [{"power": "France", "order": ["A", "Paris", "H"]}]},
    {"mode": "nothing", "variant": "standard"},
    {"mode": "check", "variant": "standard", "orders": [{"power": "France", "order": ""}]},
]


def calls() -> Iterator[dict]:
    """Every call, in order; the games' players ask the engine for options as they go."""
    from datc import godip_cases, teddriggs_cases

    for case in teddriggs_cases() + godip_cases():
        for step in case.steps:
            yield {"call": "adjudicate", "request": step.request}
    for variant_id in adjudication.available():
        yield from _generated(variant_id, PHASES)
        yield from _game(variant_id, GAME_PHASES.get(variant_id, 12))
    for request in MALFORMED:
        yield {"call": "adjudicate", "request": request}
        yield {"call": "check", "request": request}


def _generated(variant_id: str, phases: int) -> Iterator[dict]:
    from bench.differential import adjustment_orders, retreat_orders
    from bots.game import opening_request

    rng = Random(f"generated {variant_id}")
    variant = adjudication.load(variant_id)
    seasons = variant.seasons
    opening = opening_request(variant_id, seed=7)
    for n in range(phases):
        while True:  # a placement where every unit can be ordered to move
            units = _place_units(variant, rng)
            try:
                texts = _orders(variant, rng, units)
                break
            except IndexError:
                continue
        year = variant.start_year + n // len(seasons)
        request = {
            **opening,
            "phase": {"season": seasons[n % len(seasons)], "year": year, "type": "movement"},
            "units": [{"power": p, "unit": k, "location": loc} for p, k, loc in units],
            "orders": [{"power": units[i][0], "order": t} for i, t in enumerate(texts)],
        }
        yield {"call": "adjudicate", "request": request}
        if n % 3 == 0:
            yield {"call": "check", "request": request}
        if n % 3 == 1:
            garbled = [{**o, "order": _garble(rng, o["order"])} for o in request["orders"]]
            yield {"call": "adjudicate", "request": {**request, "orders": garbled}}
        following = next_request(request, adjudicate(request))
        if following is None or following["phase"]["type"] == "movement":
            continue
        # It carries what those orders read of the response: units, dislodged, centres.
        if following["phase"]["type"] == "retreats":
            given = retreat_orders(variant, rng, following)
        else:
            given = adjustment_orders(variant, rng, following)
        orders = [{"power": p, "order": t} for p, t in given]
        yield {"call": "adjudicate", "request": {**following, "orders": orders}}


def _game(variant_id: str, phases: int) -> Iterator[dict]:
    from bots.game import opening_request
    from bots.random_player import RandomPlayer

    rng = Random(variant_id)
    powers = adjudication.load(variant_id).playable_powers
    players = {power: RandomPlayer(rng.randrange(1 << 30)) for power in powers}
    request = opening_request(variant_id, seed=rng.randrange(1000))
    for n in range(phases):
        power = powers[n % len(powers)]
        yield {"call": "options", "request": request, "power": power}
        orders = [
            {"power": p, "order": text}
            for p, player in players.items()
            for text in player.decide(request, p)
        ]
        judged = {**request, "orders": orders}
        yield {"call": "adjudicate", "request": judged}
        if request["phase"]["type"] == "movement":
            yield {"call": "check", "request": judged}
        garbled = [{**o, "order": _garble(rng, o["order"])} for o in orders]
        rng.shuffle(garbled)
        yield {"call": "adjudicate", "request": {**request, "orders": garbled}}
        following = next_request(judged, adjudicate(judged))
        if following is None:
            return
        request = following


def _garble(rng: Random, text: str) -> str:
    """An order as a careless player might send it, or worse."""
    words = text.split()
    how = rng.randrange(8)
    if how == 0 and len(words) > 2:
        return " ".join(words[:-1])  # cut short
    if how == 1 and len(words) > 2:
        i, j = rng.sample(range(len(words)), 2)
        words[i], words[j] = words[j], words[i]  # two words swapped
        return " ".join(words)
    if how == 2:
        return text.lower().replace(" - ", "-")
    if how == 3:
        return text.replace("A ", "F ", 1) if text.startswith("A ") else "A " + text[2:]
    if how == 4:
        return text + rng.choice([" via Convoy", " H", " - Paris", " S", " via TSR", " (nc)"])
    return text


_encode = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode


def answer(call: dict) -> object:
    try:
        if call["call"] == "adjudicate":
            result: object = adjudicate(call["request"])
            # The batch writes replies as it makes them: the same text as the whole answer's.
            if answer_json(adjudicate_to_write(call["request"])) != _encode(result):
                return {"written differs": _encode(result)}
        elif call["call"] == "check":
            result = check(call["request"])
        else:
            result = options(call["request"], call["power"])
    except Exception as e:  # the other engine may raise the same, or answer
        return {"raised": f"{type(e).__name__}: {e}"}
    return add_words(result)


def main(argv: list[str]) -> int:
    mode, path = argv
    out = sys.stdout
    out.write(json.dumps({"engine": "compiled" if adjudication.compiled() else "python"}) + "\n")
    if mode == "play":
        with open(path, "w", encoding="utf-8") as f:
            for call in calls():
                line = json.dumps(call)
                f.write(line + "\n")
                out.write(json.dumps(answer(json.loads(line)), sort_keys=True) + "\n")
    else:
        with open(path, encoding="utf-8") as f:
            for line in f:
                out.write(json.dumps(answer(json.loads(line)), sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
