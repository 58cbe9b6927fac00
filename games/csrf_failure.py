"""The answer to a form refused by Django's CSRF check.

A sign-in form left open in a tab goes stale when the same browser signs in in another tab
(signing in rotates the CSRF token). Sent as the account already signed in, it is no attack
and nothing is lost: the player goes where signing in would have taken them. Anything else
gets Django's own refusal (``templates/403_csrf.html``)."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.csrf import csrf_failure as refused

from . import usernames


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    if (
        request.method == "POST"
        and request.path == reverse("login")
        and _signed_in_as_posted(request)
    ):
        # The sign-in page itself sends a signed-in visitor on, to ``next`` if it is safe.
        target = reverse("login")
        if nxt := request.POST.get("next") or request.GET.get("next"):
            target += "?" + urlencode({"next": nxt})
        return redirect(target)
    return refused(request, reason)


def _signed_in_as_posted(request: HttpRequest) -> bool:
    """Whether the browser is signed in already, as the account the form names."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return False
    named = usernames.user_named(str(request.POST.get("username", ""))[:1000])
    return named is not None and named.pk == user.pk
