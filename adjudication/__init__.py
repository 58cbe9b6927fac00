"""Great Game's rules engine: Diplomacy adjudication behind a JSON contract.

Pure Python, standard library only. See ``../shared/CONTRACT.md`` for the request and
response, and ``variants/`` for the maps it knows.
"""

from .api import adjudicate, check, opening
from .game_options import option_problems, option_schema
from .options import options
from .variant import VariantError, available, load

__all__ = [
    "adjudicate",
    "available",
    "check",
    "load",
    "opening",
    "option_problems",
    "option_schema",
    "options",
    "VariantError",
]
