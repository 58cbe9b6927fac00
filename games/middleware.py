"""Answer 503 (JSON, with Retry-After) while the database is unreachable, instead of a 500.

PostgreSQL restarting or failing over is an outage the client should wait out and retry, not
a bug in the server: the connection error is logged as a warning and no traceback is mailed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5


def unavailable(request: HttpRequest, exc: Exception) -> JsonResponse:
    logger.warning("database unavailable for %s %s: %s", request.method, request.path, exc)
    response = JsonResponse(
        {"detail": "The service is briefly unavailable; try again shortly."}, status=503
    )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


class DatabaseUnavailableMiddleware:
    """Map ``OperationalError`` / ``InterfaceError`` raised by a view to a 503.

    Views raise them, including DRF's (its exception handler leaves them alone) and the lazy
    ``request.user`` of authentication, which is only read in the view.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if isinstance(exc, OperationalError | InterfaceError):
            return unavailable(request, exc)
        return None
