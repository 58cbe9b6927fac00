"""Computer players: they order from the engine's list of legal orders, so they never send an
invalid order, and a seed makes every choice replayable."""

from .heuristic import HeuristicBot
from .random_player import RandomPlayer

__all__ = ["HeuristicBot", "RandomPlayer"]
