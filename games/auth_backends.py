"""Signing in by a name in any case: names are unique whatever their case (``usernames``), so
``Demo1`` is demo1, on the sign-in page and for an API token alike, as a player's page and a
moderator's replacement already read it."""

from __future__ import annotations

from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from . import usernames


class AnyCaseModelBackend(ModelBackend):
    """Django's backend, given the stored spelling of the name typed (``usernames.user_named``:
    the exact name first, else the one account that matches in another case)."""

    def authenticate(
        self, request: HttpRequest | None, username: str | None = None, password=None, **kwargs
    ):
        if isinstance(username, str):
            found = usernames.user_named(username)
            if found is not None:
                username = found.get_username()
        # Unknown names still go through, for Django to spend a hash's time on them too.
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None and username is not None:
            # Refused here is refused: Django's own backend, listed after this one only for
            # the sessions signed in through it before (``settings.AUTHENTICATION_BACKENDS``),
            # would hash the password a second time.
            raise PermissionDenied
        return user
