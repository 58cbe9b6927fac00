"""The site's error pages: a message in the site's frame (header, navigation, a way back)
rather than bare text. Django's own 400, 403 and 404 pages use ``templates/400.html`` and so
on; views that refuse something answer with ``error_page``; a 405 (a GET to a form's
POST-only address) gets the page from ``ErrorPageMiddleware``. The 500 page and a 400 given
before the request is read (a NUL in the URL) come from ``standalone_page``, which needs
neither the database nor the request."""

from __future__ import annotations

import logging

from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, JsonResponse
from django.template.loader import render_to_string
from django.utils.html import escape
from django.utils.translation import gettext
from rest_framework.authentication import get_authorization_header

logger = logging.getLogger(__name__)


def titles() -> dict[int, str]:
    return {
        400: gettext("Bad request"),
        403: gettext("Not allowed"),
        404: gettext("Not found"),
        405: gettext("Not allowed here"),
        429: gettext("Too many attempts"),
        500: gettext("Server error"),
    }


def error_page(
    request: HttpRequest, status: int, message: str = "", back: str | None = None
) -> HttpResponse:
    """``message`` on the site's error page, answered with ``status``; ``back``: the page to
    go back to (a game's), linked before the lobby."""
    context = {"title": titles().get(status, str(status)), "message": message, "back": back}
    return HttpResponse(render_to_string("error.html", context, request), status=status)


def standalone_page(status: int, message: str, request_id: str | None = None) -> HttpResponse:
    """``message`` on a page of the site's look (``error_standalone.html``) drawn without the
    request (no session, no user, no database): for a 500, whose cause may be any of those,
    and a 400 refused before the request is read. Should even that fail, a bare page."""
    title = titles().get(status, str(status))
    context = {"title": title, "message": message, "request_id": request_id}
    try:
        html = render_to_string("error_standalone.html", context)
    except Exception:
        logger.exception("the %s page could not be drawn", status)
        html = f"<!DOCTYPE html><title>{escape(title)}</title><h1>{escape(title)}</h1>"
        html += f"<p>{escape(message)}</p>"
    return HttpResponse(html, status=status)


def token_client(request: HttpRequest) -> bool:
    """Whether the request carries the API's ``Authorization: Token`` header, read as DRF
    reads it: a REST client, which is answered in JSON."""
    words = get_authorization_header(request).split()
    return bool(words) and words[0].lower() == b"token"


def method_not_allowed(request: HttpRequest, allowed: tuple[str, ...]) -> HttpResponse:
    """A 405 naming the methods allowed: the API's JSON to a REST client (``token_client``),
    else the bare refusal the site's error page shows."""
    if not token_client(request):
        return HttpResponseNotAllowed(allowed)
    detail = f'Method "{request.method[:20]}" not allowed.'  # DRF's words for it
    response = JsonResponse({"detail": detail}, status=405)
    response["Allow"] = ", ".join(allowed)
    return response
