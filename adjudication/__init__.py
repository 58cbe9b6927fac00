"""Great Game's rules engine: Diplomacy adjudication behind a JSON contract.

Pure Python, standard library only. See ``../shared/CONTRACT.md`` for the request and
response. The engine knows no map of its own: variants and their rules are registered with it
(``registry``: ``register_variant``, ``register_rule``, or an ``adjudication.variants`` entry
point, which is how this project's ``variants`` package is found).

An optional compiled build (mypyc: ``make engine-compiled``, ``bench/mypyc_build.py``) puts C
extensions beside the hot modules, which Python then imports instead; it gives the same answers.
``compiled()`` says which engine runs.
"""

import os as _os

from .api import adjudicate, check, opening
from .following import carried, next_request
from .game_options import option_problems, option_schema
from .options import options, ordered_unit
from .orders import blank
from .reasons import add_words, reason_words
from .registry import Rule, register_rule, register_variant
from .variant import VariantError, available, load


def compiled() -> bool:
    """Whether the engine runs compiled by mypyc (``make engine-compiled``) rather than as
    Python. Either way it gives the same answers (tests/test_compiled.py)."""
    from importlib.machinery import ExtensionFileLoader

    from . import movement

    return isinstance(movement.__loader__, ExtensionFileLoader)


__all__ = [
    "add_words",
    "adjudicate",
    "available",
    "blank",
    "carried",
    "check",
    "compiled",
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


def _refuse_a_stale_build() -> None:
    """With the compiled build in place, refuse to start when a compiled module's source changed
    after the build: its extension would silently run the old code."""
    here = _os.path.dirname(__file__)
    try:
        with open(_os.path.join(here, "_compiled.json"), encoding="utf-8") as f:
            built = f.read()
    except FileNotFoundError:
        return  # the Python engine: the usual case
    import hashlib
    import json

    for name, digest in json.loads(built)["modules"].items():
        try:
            with open(_os.path.join(here, f"{name}.py"), "rb") as f:
                source = f.read()
        except FileNotFoundError:
            source = b""
        if hashlib.sha256(source).hexdigest() != digest:
            raise ImportError(
                f"the compiled engine is older than adjudication/{name}.py: run `make "
                "engine-compiled` again, or `make engine-pure` for the Python engine"
            )


# Checked once the modules are imported: an import that fails here leaves nothing usable.
_refuse_a_stale_build()
