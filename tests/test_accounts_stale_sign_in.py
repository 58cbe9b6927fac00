"""A sign-in form left open in a tab while the same browser signed in in another: signing in
rotates the CSRF token, so the stale form was refused with "The form had expired" (an
adversary's finding). Sent as the account already signed in, it now goes where signing in
goes; as another account, or signed out, it is still refused."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "pw"  # make_user's


def stale_form(make_user) -> tuple[Client, str]:
    """A browser that loaded the sign-in form, then signed in as ada with another copy of it:
    the first copy's CSRF token is stale."""
    make_user("ada")
    make_user("bob")
    browser = Client(enforce_csrf_checks=True)
    form = browser.get(reverse("login")).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)[1]
    signed_in = browser.post(
        reverse("login"), {"username": "ada", "password": PASSWORD, "csrfmiddlewaretoken": token}
    )
    assert signed_in.status_code == 302
    return browser, token


def test_the_stale_form_of_the_account_signed_in_goes_on(make_user) -> None:
    browser, token = stale_form(make_user)
    again = {"username": "ADA", "password": PASSWORD, "csrfmiddlewaretoken": token}
    answer = browser.post(reverse("login") + "?next=/games/", again)
    assert answer.status_code == 302, answer.content[:300]
    assert answer["Location"] == reverse("login") + "?next=%2Fgames%2F"
    assert browser.get(answer["Location"])["Location"] == "/games/"
    # ``next`` from the form's hidden field, and none at all: the lobby
    again["next"] = "/games/"
    assert browser.post(reverse("login"), again)["Location"] == answer["Location"]
    del again["next"]
    assert browser.post(reverse("login"), again)["Location"] == reverse("login")
    assert browser.get(reverse("login"))["Location"] == reverse("lobby")
    # somewhere else than this site: not followed
    again["next"] = "https://evil.example/"
    onward = browser.get(browser.post(reverse("login"), again)["Location"])
    assert onward["Location"] == reverse("lobby")


def test_a_stale_form_for_another_account_or_signed_out_is_refused(make_user) -> None:
    browser, token = stale_form(make_user)
    as_bob = {"username": "bob", "password": PASSWORD, "csrfmiddlewaretoken": token}
    refused = browser.post(reverse("login"), as_bob)
    assert refused.status_code == 403
    assert "The form had expired" in refused.content.decode()
    # another form than sign-in's
    assert browser.post(reverse("logout"), {"csrfmiddlewaretoken": token}).status_code == 403
    stranger = Client(enforce_csrf_checks=True)
    as_ada = {"username": "ada", "password": PASSWORD, "csrfmiddlewaretoken": "x" * 64}
    assert stranger.post(reverse("login"), as_ada).status_code == 403
