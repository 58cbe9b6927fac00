"""Variant data, rule objects and board pictures.

``register()`` hands the engine every variant here (``<id>/variant.json``) and every rule
object in ``variants.rules``. The engine never imports this package: it calls ``register``
through the ``adjudication.variants`` entry point declared in ``pyproject.toml``, and the
server's app configuration calls it too, at start-up.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent


def register() -> None:
    """Register the variants and rules of this package with the engine (safe to call again)."""
    from adjudication.registry import register_rule, register_variant

    from .rules import RULES

    for rule in RULES:
        register_rule(rule)
    for path in sorted(HERE.glob("*/variant.json")):
        register_variant(path.parent.name.replace("_", "-"), path)
