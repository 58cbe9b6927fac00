"""Rate limits for the browser forms (sign-in, sign-up, orders, new games, joins, press) and
the admin's sign-in.

Those are plain Django views, outside DRF's throttling; this middleware applies the API's
throttles to them, with the same scopes and cache keys, so a client has one budget for
signing in whichever door it uses.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace

from django.http import HttpRequest, HttpResponse

from games.throttles import ScopedThrottle, SignInThrottle

# URL name of a form view -> (throttle, scope). The API's views throttle themselves.
FORMS = {
    "login": (SignInThrottle, "auth"),
    "signup": (SignInThrottle, "auth"),
    "password-change": (SignInThrottle, "auth"),  # the old password guessed, from a session
    "admin:login": (SignInThrottle, "auth"),
    "submit-orders": (ScopedThrottle, "orders"),
    # "create-game" counts in the view (games.web.create_game): only a game made is counted,
    # not a refused form nor the same form sent again.
    "join": (ScopedThrottle, "joins"),
    "send-press": (ScopedThrottle, "press"),
    "pay": (ScopedThrottle, "payments"),
}


class FormRateLimitMiddleware:
    """Answer 429 to a form POST over its scope's rate. Must come after authentication."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs):
        if request.method != "POST" or request.resolver_match is None:
            return None
        form = FORMS.get(request.resolver_match.view_name)
        if form is None:
            return None
        throttle_class, scope = form
        throttle = throttle_class()
        if throttle.allow_request(request, SimpleNamespace(throttle_scope=scope)):
            return None
        return too_many_attempts(throttle)


def too_many_attempts(throttle: ScopedThrottle) -> HttpResponse:
    """The 429 of a form over its scope's rate, saying when to try again."""
    wait = round(throttle.wait() or 1)
    response = HttpResponse(
        f"Too many attempts; try again in {wait} seconds.",
        status=429,
        content_type="text/plain; charset=utf-8",
    )
    response["Retry-After"] = str(wait)
    return response
