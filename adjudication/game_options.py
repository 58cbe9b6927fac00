"""The game options a variant reads, declared by the engine, and their check.

A request's ``options`` reach the engine untouched (``Board.options``), so a value of the wrong
type breaks every request of the game that carries it. The engine knows which options it and
each rule plug-in read; it declares them here, and a server checks a game's options against the
declaration when they are set, instead of finding out at the first deadline.

A declaration is a small JSON Schema: ``{"type": "integer" | "boolean" | "string", "minimum",
"maximum", "maxLength", "enum", "description"}``. A rule adds options of its own with the
``OPTIONS`` dict of its rule object (``registry.Rule``).
"""

from __future__ import annotations

from .variant import Variant, load

# A seed is stored as JSON and may be kept in a 64-bit column by a server.
_SEED_RANGE = {"minimum": -(2**63), "maximum": 2**63 - 1}


def _engine_options(variant: Variant) -> dict[str, dict]:
    """Options the engine itself reads: the victory threshold of a variant won on supply
    centres (one whose data sets ``victory_centers`` to 0, Chinese Diplomacy, is won otherwise
    and has none to change), and the seed it hands the plug-ins."""
    options: dict[str, dict] = {}
    if variant.victory_centers > 0:
        options["victory_centers"] = {
            "type": "integer",
            "minimum": 1,
            "maximum": max(len(variant.centres), 1),
            "description": "Supply centres a power needs to win; the variant's own figure when "
            "absent.",
        }
    return {
        **options,
        "seed": {
            "type": "integer",
            **_SEED_RANGE,
            "description": "The game's chance: rule plug-ins that roll dice (Chinese "
            "Diplomacy's factions) seed their generators with it, so every year replays.",
        },
    }


def option_schema(variant_id: str) -> dict:
    """The options a game of this variant may set, as a JSON Schema object.

    Raises ``VariantError`` for an unknown variant."""
    variant = load(variant_id)
    properties = _engine_options(variant)
    for rule in variant.plugins:
        properties.update(rule.OPTIONS)
    return {"type": "object", "properties": properties, "additionalProperties": False}


def option_problems(variant_id: str, options: object) -> list[str]:
    """What is wrong with a game's options for this variant; an empty list when nothing is."""
    if not isinstance(options, dict):
        return ["options must be a JSON object"]
    declared = option_schema(variant_id)["properties"]
    problems = []
    for key, value in options.items():
        rule = declared.get(key) if isinstance(key, str) else None
        if rule is None and key == "victory_centers":
            name = load(variant_id).name
            problems.append(f"victory_centers: {name} is not won on supply centres")
            continue
        if rule is None:
            known = ", ".join(sorted(declared))
            problems.append(f"unknown option {str(key)[:50]!r}; this variant reads {known}")
            continue
        problem = _value_problem(rule, value)
        if problem:
            problems.append(f"{key}: {problem}")
    return problems


def _value_problem(rule: dict, value: object) -> str | None:
    kind = rule["type"]
    if kind == "integer":
        if not isinstance(value, int) or isinstance(value, bool):
            return "must be a whole number"
        if "minimum" in rule and value < rule["minimum"]:
            return f"must be at least {rule['minimum']}"
        if "maximum" in rule and value > rule["maximum"]:
            return f"must be at most {rule['maximum']}"
    elif kind == "boolean":
        if not isinstance(value, bool):
            return "must be true or false"
    elif kind == "string":
        if not isinstance(value, str):
            return "must be a string"
        if "\x00" in value:
            return "must not contain NUL characters"
        if len(value) > rule.get("maxLength", 200):
            return f"must be at most {rule.get('maxLength', 200)} characters"
    else:
        return f"has an undeclared type {kind!r}"
    if "enum" in rule and value not in rule["enum"]:
        return "must be one of " + ", ".join(map(str, rule["enum"]))
    return None
