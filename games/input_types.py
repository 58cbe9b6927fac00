"""Request fields read as strictly as the OpenAPI schema states them.

DRF is lenient where the schema is not: a boolean field takes ``"yes"``, ``1`` or ``"on"``,
an integer field takes ``"5"``, a string field takes ``5``, and a string is trimmed before its
length is checked, so ``" x"`` padded to 201 characters passes a ``maxLength`` of 200. A client
that reads the schema then cannot tell what is accepted, and schemathesis saw the difference.
``StrictInput`` checks the JSON types (and untrimmed lengths) first (a JSON integer is
written in digits: ``5.0`` is refused as ``"5"`` is); in form data, where every value is text,
a boolean is ``true`` or ``false``, an integer is written in digits, an empty value is refused
where a blank one is (DRF would read it as missing) and null is written empty or as ``null``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime

from django.http import QueryDict
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from .limits import MAX_INTEGER
from .query import repeated

_INTEGER = re.compile(r"-?[0-9]+")


def _text_problem(field: serializers.CharField, value: object) -> str | None:
    if not isinstance(value, str):
        return "Not a valid string."
    if field.max_length is not None and len(value) > field.max_length:
        return f"Ensure this field has no more than {field.max_length} characters."
    # DRF reads an empty form value as no value at all; the schema's minLength does not.
    blank = value.strip() == "" if field.trim_whitespace else value == ""
    if blank and not field.allow_blank:
        return "This field may not be blank."
    return None


def type_problem(field: serializers.Field, value: object, form: bool) -> str | None:
    """Why ``value`` is not of the type the schema gives ``field``; None when it is."""
    if value is None:
        return None  # DRF says whether null is allowed
    if isinstance(field, serializers.BooleanField):
        if form:
            ok = isinstance(value, str) and value.lower() in ("true", "false")
        else:
            ok = isinstance(value, bool)
        return None if ok else "Must be true or false."
    if isinstance(field, serializers.IntegerField):
        if form:
            ok = isinstance(value, str) and bool(_INTEGER.fullmatch(value))
        else:
            # A JSON integer is written in digits: 5.0 (or 5e0) is a number with a fraction
            # part, refused as "5" is, whatever its value (it used to pass as 5).
            ok = isinstance(value, int) and not isinstance(value, bool)
        return None if ok else "A valid integer is required."
    if isinstance(field, serializers.ChoiceField) and value == "" and not field.allow_blank:
        return "This field may not be blank."  # in form data DRF would read it as no value
    if isinstance(field, serializers.CharField):
        return _text_problem(field, value)
    if isinstance(field, serializers.ListField) and isinstance(value, list):
        if field.max_length is not None and len(value) > field.max_length:
            too_many = getattr(field, "too_many", None)  # the field's own words, if it has any
            if too_many is not None:
                return too_many(len(value))
            return f"Ensure this field has no more than {field.max_length} elements."
        child = field.child
        for number, item in enumerate(value, 1):
            if item is None and not child.allow_null:  # DRF's words, said of item N as the rest
                problem: str | None = str(child.error_messages["null"])
            else:
                problem = type_problem(child, item, form)
            if problem:  # which one: a list of orders refused whole must say which line
                own = getattr(field, "item_problem", None)  # the list's own words, if any
                if own is not None:
                    return own(number, item, problem)
                return _("Item %(number)s: %(problem)s") % {"number": number, "problem": problem}
    return None


def unknown_fields(serializer: serializers.Serializer, data: Mapping) -> dict[str, list[str]]:
    """A JSON body's keys that are none of the request's fields: refused, since DRF would drop
    them silently, and a misspelt optional one (``phaes``) would then do nothing unseen. Form
    data is not checked: browsers add their own keys (the CSRF token)."""
    unknown = [key for key in data if key not in serializer.fields][:20]  # the first are enough
    if not unknown:
        return {}
    own = getattr(serializer, "input_names", None)  # one body for several requests: this one's
    names = own() if own is not None else None
    if names is None:
        names = [name for name, field in serializer.fields.items() if not field.read_only]
    if names:
        message = _("Not a field of this request (its fields: %(fields)s).") % {
            "fields": ", ".join(names)
        }
    else:
        message = _("Not a field of this request, which takes none.")
    return {str(key)[:50]: [message] for key in unknown}


def read_only_fields(serializer: serializers.Serializer, data: Mapping) -> dict[str, list[str]]:
    """A body's keys that name fields the server fills in (``id``, a payment's ``payer``):
    refused, since DRF would drop them silently and the client would believe it had set them.
    Form data too: no browser adds such a key of its own."""
    message = _("Read-only: the server sets this field; leave it out of the request.")
    return {
        name: [message]
        for name, field in serializer.fields.items()
        if field.read_only and name in data
    }


class PhaseIndexField(serializers.IntegerField):
    """The index of an object's phase in an answer; in a request, optional, the index of the
    phase the client meant it for (the game's ``current_phase.index``): the service refuses
    it with 409 when another phase is current, as it does orders and ready, so a retry after
    the phase was processed never lands in the next one. ``allow_null`` is for answers only
    (press of a phase since rolled back): null in a request is refused, not read as the phase
    left out, which would check nothing where the client believed it named a phase."""

    default_error_messages = {
        "null_phase": gettext_lazy(
            "Null names no phase: give the current phase's index, or leave phase out to mean "
            "whichever phase is current."
        )
    }

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("min_value", 0)
        kwargs.setdefault("max_value", MAX_INTEGER)
        super().__init__(**kwargs)

    def validate_empty_values(self, data: object) -> tuple[bool, object]:
        if data is None:
            self.fail("null_phase")
        return super().validate_empty_values(data)

    def get_attribute(self, instance):
        phase = getattr(instance, self.source)
        return None if phase is None else phase.index


class ZonedDateTimeField(serializers.DateTimeField):
    """A moment with its time zone, as the schema's ``date-time`` (RFC 3339) writes it: a time
    without one (``2027-01-01T00:00:00``) is refused, where DRF took it as UTC and a moderator
    who sent local time set a deadline hours off."""

    default_error_messages = {
        "no_zone": gettext_lazy(
            "Give the time zone too: end the time with Z (UTC) or an offset such as +09:00."
        )
    }

    def enforce_timezone(self, value: datetime) -> datetime:
        if timezone.is_naive(value):
            self.fail("no_zone")
        return super().enforce_timezone(value)


# Mix into a serializer before DRF's class: its writable fields refuse values of another JSON
# type than the schema's, and over-long text before trimming. (No docstring: drf-spectacular
# would describe every serializer without one of its own with it.)
class StrictInput(serializers.Serializer):
    def to_internal_value(self, data):
        """The types checked first, then DRF's own reading."""
        if isinstance(data, Mapping):
            form = isinstance(data, QueryDict)
            errors = {} if form else unknown_fields(self, data)
            errors.update(read_only_fields(self, data))
            for name, field in self.fields.items():
                if field.read_only or field.source == "*" or name not in data:
                    continue
                list_field = isinstance(field, serializers.ListField)
                given = len(data.getlist(name)) if form and not list_field else 1
                if given > 1:  # a form field of one value, given twice: DRF read the last
                    errors[name] = [repeated(given)]
                    continue
                if form and field.allow_null and data[name] in ("", "null"):
                    # Form data has no null: it is written empty (DRF's way) or as null.
                    data = data.copy()
                    data[name] = ""
                    continue
                value = data.getlist(name) if form and list_field else data[name]
                problem = type_problem(field, value, form)
                if problem:
                    errors[name] = [problem]
            if errors:
                # DRF's own errors of the other fields too, as it would list them all.
                try:
                    super().to_internal_value(data)
                except serializers.ValidationError as refused:
                    if isinstance(refused.detail, dict):
                        errors = {**refused.detail, **errors}
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)


class LanguageField(serializers.ChoiceField):
    """A language tag. Tags are case-insensitive (BCP 47) and Django's locale names write
    ``_`` for ``-``, so ``ZH-Hans`` and ``zh_Hans`` are read as ``zh-hans``."""

    def to_internal_value(self, data):
        if isinstance(data, str):
            if len(data) > 20:  # no tag is this long; the refusal need not repeat it all
                self.fail("invalid_choice", input=data[:20] + "…")
            data = data.replace("_", "-").lower()
        return super().to_internal_value(data)
