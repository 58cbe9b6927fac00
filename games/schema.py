"""The OpenAPI schema generator: drf-spectacular's, saying what validation really does."""

from __future__ import annotations

import sys
from types import SimpleNamespace

from django.contrib.auth.models import AnonymousUser
from django.core import validators
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.openapi import AutoSchema
from rest_framework import serializers

from . import engine
from .input_types import PhaseIndexField, StrictInput

# Some character that Python's str.strip() keeps, spelt out: JSON Schema's patterns are
# ECMAScript's, whose \s is not quite Python's (it misses \x1c-\x1f and \x85, adds \ufeff).
_SPACES = "".join(chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace())
NOT_ONLY_SPACE = "[^" + "".join(f"\\u{ord(c):04x}" for c in _SPACES) + "]"
# No NUL anywhere (the parsers refuse a body holding one: PostgreSQL cannot store it); with a
# character other than whitespace where the field is trimmed and may not be blank.
NO_NUL = "^[^\\u0000]*$"
NO_NUL_NOT_ONLY_SPACE = "^[^\\u0000]*" + NOT_ONLY_SPACE[:-1] + "\\u0000][^\\u0000]*$"


class Schema(AutoSchema):
    """A text field that is trimmed and may not be blank refuses whitespace alone, so the
    request schema asks for a character other than whitespace, not only for ``minLength: 1``
    (which drf-spectacular adds for request components)."""

    def get_auth(self) -> list:
        """``{}`` (no credentials) among the ways in wherever the view's permissions let a
        signed-out caller in. drf-spectacular knows only ``AllowAny`` and
        ``IsAuthenticatedOrReadOnly``, so asking for a token, and watching a public game,
        read as needing a sign-in to a generated client."""
        auths = super().get_auth()
        if {} not in auths and self._open_to_anyone():
            auths.append({})
        return auths

    def _open_to_anyone(self) -> bool:
        request = SimpleNamespace(method=self.method, user=AnonymousUser(), auth=None)
        return all(p.has_permission(request, self.view) for p in self.view.get_permissions())

    def _map_basic_serializer(self, serializer, direction) -> dict:
        """A request body of a ``StrictInput`` serializer holds its fields and no other key
        (``input_types.unknown_fields`` refuses the others)."""
        schema = super()._map_basic_serializer(serializer, direction)
        if direction == "request" and isinstance(serializer, StrictInput):
            schema["additionalProperties"] = False
        if direction == "response":
            # Optional in a request, but every answer has it.
            answered = [n for n, f in serializer.fields.items() if isinstance(f, PhaseIndexField)]
            if answered:
                schema["required"] = sorted({*schema.get("required", []), *answered})
        return schema

    def _get_serializer_field_meta(self, field, direction) -> dict:
        meta = super()._get_serializer_field_meta(field, direction)
        if (
            direction == "request"
            and isinstance(field, serializers.CharField)
            and not field.read_only
            and not any(isinstance(v, validators.RegexValidator) for v in field.validators)
        ):
            blank_refused = not field.allow_blank and field.trim_whitespace
            meta["pattern"] = NO_NUL_NOT_ONLY_SPACE if blank_refused else NO_NUL
        if direction == "request" and isinstance(field, PhaseIndexField):
            meta.pop("nullable", None)  # null only in answers (input_types.PhaseIndexField)
        return meta


def every_option() -> dict:
    """Every option some variant reads, each with the widest range any variant gives it: what a
    game's ``options`` may hold before its variant is known. Drawn from the engine."""
    properties: dict[str, dict] = {}
    for variant_id in engine.variant_ids():
        for key, rule in engine.option_schema(variant_id)["properties"].items():
            known = properties.setdefault(key, dict(rule))
            if "maximum" in rule:
                known["maximum"] = max(known.get("maximum", rule["maximum"]), rule["maximum"])
            if "minimum" in rule:
                known["minimum"] = min(known.get("minimum", rule["minimum"]), rule["minimum"])
    return {
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
        "description": "Options of the game's variant; GET /api/variants/{id}/ gives each "
        "variant's own (option_schema).",
    }


class OptionsFieldSchema(OpenApiSerializerFieldExtension):
    """The schema of ``games.serializers.OptionsField``, asked of the engine when the schema is
    generated (not at import)."""

    target_class = "games.serializers.OptionsField"

    def map_serializer_field(self, auto_schema, direction) -> dict:
        return every_option()


def options_per_variant(result: dict, generator, request, public: bool) -> dict:
    """drf-spectacular hook: a new game's options are checked against its own variant's
    ranges (``victory_centers`` up to 58 in Colonial, none at all in Chinese), so the request
    schema is one object per variant, each naming its variant and its options exactly."""
    schemas = result.get("components", {}).get("schemas", {})
    base = schemas.get("GameCreateRequest")
    if base is None or "properties" not in base:
        return result
    choices = []
    for variant_id in engine.variant_ids():
        properties = {
            **base["properties"],
            "variant": {"type": "string", "enum": [variant_id]},
            "options": {
                **engine.option_schema(variant_id),
                "description": f"Options of {variant_id}, as GET /api/variants/{variant_id}/ "
                "gives them (option_schema).",
            },
        }
        choices.append({**base, "properties": properties, "title": variant_id})
    schemas["GameCreateRequest"] = {
        "oneOf": choices,
        "description": "A new game; its options are its variant's own.",
    }
    return result
