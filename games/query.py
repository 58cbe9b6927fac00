"""Query parameters read as the schema states them: each at most once.

Django's ``QueryDict.get`` reads a parameter given twice as its last value, so a client's
slip (``?power=China&power=Russia``) silently answered for one of the two. The game search
refuses a repeated filter (``search.StrictFilters``); the API's other parameters are read here
alike, and the event stream's ``since`` is refused when repeated (``events.response``).
"""

from __future__ import annotations

from django.utils.translation import gettext
from rest_framework.exceptions import ValidationError


def repeated(times: int) -> str:
    """What is said of a parameter or a form field of one value given several times."""
    return gettext("given %(times)s times: give it once, or leave it out") % {"times": times}


def once(request, name: str) -> str | None:
    """The parameter's value, None when absent; a 400 naming it when it is given twice."""
    values = request.query_params.getlist(name)
    if len(values) > 1:
        raise ValidationError({name: [repeated(len(values))]})
    return values[0] if values else None
