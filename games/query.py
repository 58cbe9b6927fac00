"""Query parameters read as the schema states them: each at most once.

Django's ``QueryDict.get`` reads a parameter given twice as its last value, so a client's
slip (``?power=China&power=Russia``) silently answered for one of the two. The game search
refuses a repeated filter (``search.StrictFilters``); every other parameter is read here alike.
"""

from __future__ import annotations

from rest_framework.exceptions import ValidationError


def once(request, name: str) -> str | None:
    """The parameter's value, None when absent; a 400 naming it when it is given twice."""
    values = request.query_params.getlist(name)
    if len(values) > 1:
        raise ValidationError({name: [f"given {len(values)} times: give it once, or leave it out"]})
    return values[0] if values else None
