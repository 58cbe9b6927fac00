"""A whole game played by computer players through the engine alone (no server)."""

from __future__ import annotations

from dataclasses import dataclass, field
from time import perf_counter, process_time

import adjudication
from adjudication.following import next_request


@dataclass
class Record:
    """What a finished arena game reports: the last request and how the players did."""

    last: dict
    invalid: dict[str, int] = field(default_factory=dict)  # player kind -> invalid orders
    refused: list[dict] = field(default_factory=list)  # the engine's replies to them
    phases: dict[str, int] = field(default_factory=dict)  # player kind -> phases decided
    seconds: dict[str, list[float]] = field(default_factory=dict)  # per decision, wall clock
    cpu: dict[str, list[float]] = field(default_factory=dict)  # per decision, this process's CPU
    winner: str | None = None


def opening_request(variant_id: str, seed: int = 0) -> dict:
    """The first movement phase of a new game."""
    variant = adjudication.load(variant_id)
    return {
        "variant": variant_id,
        "phase": {"season": variant.seasons[0], "year": variant.start_year, "type": "movement"},
        "units": [dict(u) for u in variant.starting_units],
        "supply_centers": {p.name: list(p.home_centers) for p in variant.powers.values()},
        "options": {"seed": seed} if "chinese" in variant.rules else {},
        **adjudication.opening(variant_id, seed),
    }


def play(request: dict, players: dict, years: int) -> Record:
    """Play from ``request`` until a winner or ``years`` years have passed.

    ``players`` maps each power to an object with ``name`` and ``decide(request, power)``."""
    start = request["phase"]["year"]
    record = Record(last=request)
    while request["phase"]["year"] < start + years:
        orders = []
        for power, player in players.items():
            began, cpu = perf_counter(), process_time()
            texts = player.decide(request, power)
            record.seconds.setdefault(player.name, []).append(perf_counter() - began)
            record.cpu.setdefault(player.name, []).append(process_time() - cpu)
            record.phases[player.name] = record.phases.get(player.name, 0) + 1
            orders += [{"power": power, "order": t, "by": player.name} for t in texts]
        response = adjudication.adjudicate({**request, "orders": orders})
        if "error" in response:
            raise RuntimeError(response["error"])
        for sent, reply in zip(orders, response["orders"], strict=False):
            if reply["result"] == "invalid":
                record.invalid[sent["by"]] = record.invalid.get(sent["by"], 0) + 1
                record.refused.append({**reply, "by": sent["by"], "phase": request["phase"]})
        record.last = {**request, "units": response["units"]}
        record.last["supply_centers"] = response["supply_centers"]
        if "economy" in response:
            record.last["economy"] = {"balances": response["economy"]["balances"]}
        following = next_request(request, response)
        if following is None:
            record.winner = response.get("winner")
            break
        request = following
    return record
