"""Great Game's rules engine: Diplomacy adjudication behind a JSON contract.

Pure Python, standard library only. See ``../shared/CONTRACT.md`` for the request and
response, and ``variants/`` for the maps it knows.
"""

from .api import adjudicate, opening
from .variant import VariantError, available, load

__all__ = ["adjudicate", "available", "load", "opening", "VariantError"]
