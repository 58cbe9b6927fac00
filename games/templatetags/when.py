"""``{% when value %}``, ``{% when value "short" %}`` and ``{% when_patterns %}``: a date and
time written one way on every page (``games.when``), in the reader's time zone."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils.html import json_script

from games import when as words
from games.web import time_zone_of

register = template.Library()


def _zone(context) -> str:
    request = context.get("request")
    return time_zone_of(request) if request is not None else "UTC"


@register.simple_tag(takes_context=True)
def when(context, value: datetime | None, kind: str = "long") -> str:
    """``value`` in the page's language and the reader's time zone; empty for none."""
    if not isinstance(value, datetime):
        return ""
    return words.format_when(value, kind, _zone(context))


@register.simple_tag(takes_context=True)
def when_patterns(context) -> str:
    """The patterns for ``static/when.js``, with the reader's time zone, as a JSON script."""
    return json_script({**words.patterns(), "zone": _zone(context)}, "when-patterns")
