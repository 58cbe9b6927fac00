"""Great Game's rules engine: Diplomacy adjudication behind a JSON contract.

Pure Python, standard library only. See ``../shared/CONTRACT.md`` for the request and
response. The engine knows no map of its own: variants and their rules are registered with it
(``registry``: ``register_variant``, ``register_rule``, or an ``adjudication.variants`` entry
point, which is how this project's ``variants`` package is found).
"""

from .api import adjudicate, check, opening
from .following import carried, next_request
from .game_options import option_problems, option_schema
from .options import options, ordered_unit
from .reasons import add_words, reason_words
from .registry import Rule, register_rule, register_variant
from .variant import VariantError, available, load

__all__ = [
    "add_words",
    "adjudicate",
    "available",
    "carried",
    "check",
    "load",
    "next_request",
    "opening",
    "option_problems",
    "option_schema",
    "options",
    "ordered_unit",
    "reason_words",
    "register_rule",
    "register_variant",
    "Rule",
    "VariantError",
]
