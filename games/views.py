"""Views for the games app that are neither the API's nor the pages'."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext

from .errors import standalone_page


def healthz(request: HttpRequest) -> JsonResponse:
    """200 when deadlines are being processed: the web answers and the Celery sweep ran
    recently (``games.health``); 503 otherwise, with what is late. ``?only=web``: whether this
    web process answers at all, without the database (for a proxy routing requests)."""
    if request.GET.get("only") == "web":
        return JsonResponse({"ok": True})
    from . import health

    worker = health.worker()
    return JsonResponse({"ok": worker["ok"], "worker": worker}, status=200 if worker["ok"] else 503)


def server_error(request: HttpRequest) -> HttpResponse:
    """The 500 for an unhandled error (already logged with its traceback by then): JSON under
    /api/, so API clients never get an HTML page, with the request id to quote; elsewhere the
    site's error page, drawn without the database or the request (either may be what
    failed)."""
    if request.path.startswith("/api/"):
        return JsonResponse(
            {
                "detail": "Internal server error; it has been logged.",
                "request_id": getattr(request, "request_id", None),
            },
            status=500,
        )
    message = gettext("Something went wrong on our side; it has been logged. Try again shortly.")
    return standalone_page(500, message, getattr(request, "request_id", None))
