"""The site's error pages: a message in the site's frame (header, navigation, a way back)
rather than bare text. Django's own 400, 403 and 404 pages use ``templates/400.html`` and so
on; views that refuse something answer with ``error_page``; a 405 (a GET to a form's
POST-only address) gets the page from ``ErrorPageMiddleware``."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext


def titles() -> dict[int, str]:
    return {
        400: gettext("Bad request"),
        403: gettext("Not allowed"),
        404: gettext("Not found"),
        405: gettext("Not allowed here"),
    }


def error_page(request: HttpRequest, status: int, message: str = "") -> HttpResponse:
    """``message`` on the site's error page, answered with ``status``."""
    context = {"title": titles().get(status, str(status)), "message": message}
    return HttpResponse(render_to_string("error.html", context, request), status=status)
