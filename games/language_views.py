"""The page's language picker (Django's ``set_language``), which also carries the account's
mail language along while that still follows the pages: a mail language that is the page
language being left is switched to the new one; one the player chose apart from the pages
(in Settings) stays as it is."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.views.i18n import set_language as django_set_language

from .models import NotificationSettings


def set_language(request: HttpRequest) -> HttpResponse:
    leaving = translation.get_language()
    response = django_set_language(request)
    chosen = request.POST.get("language") if request.method == "POST" else None
    if request.user.is_authenticated and chosen in dict(settings.LANGUAGES):
        prefs = NotificationSettings.of(request.user)
        if prefs.language == leaving and prefs.language != chosen:
            prefs.language = chosen
            prefs.save(update_fields=["language"])
    return response
