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
from django.urls import reverse
from django.utils.translation import gettext, ngettext

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
        return too_many_attempts(throttle, request, game=view_kwargs.get("pk"))


def too_many_attempts(
    throttle: ScopedThrottle, request: HttpRequest, game: int | None = None
) -> HttpResponse:
    """The 429 of a form over its scope's rate, on the site's error page, saying when to try
    again. A game's form (orders, press, a payment, joining) keeps what was typed for the
    game page, as a refused form does, and the page links back to it."""
    from games.errors import error_page
    from games.signed_out import keep_typed

    wait = round(throttle.wait() or 1)
    message = ngettext(
        "Too many attempts; try again in %(wait)d second.",
        "Too many attempts; try again in %(wait)d seconds.",
        wait,
    ) % {"wait": wait}
    back = None
    if game is not None:
        back = reverse("game", args=[game])
        if keep_typed(request, game):
            message += " " + gettext("What you typed is kept for the game page.")
    response = error_page(request, 429, message, back=back)
    response["Retry-After"] = str(wait)
    return response
