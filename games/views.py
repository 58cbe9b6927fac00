"""Views for the games app that are neither the API's nor the pages'."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.defaults import server_error as html_server_error


def healthz(request: HttpRequest) -> JsonResponse:
    """Answer load balancers and `make run` checks without touching the database."""
    return JsonResponse({"ok": True})


def server_error(request: HttpRequest) -> HttpResponse:
    """The 500 for an unhandled error (already logged with its traceback by then): JSON under
    /api/, so API clients never get an HTML page, with the request id to quote; Django's
    page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse(
            {
                "detail": "Internal server error; it has been logged.",
                "request_id": getattr(request, "request_id", None),
            },
            status=500,
        )
    return html_server_error(request)
