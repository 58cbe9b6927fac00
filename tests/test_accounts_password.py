"""A password changed, a token ended (found by an adversary: neither could be done, so a leaked
password or token stayed good for ever unless the staff stepped in)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

OLD, NEW = "pw", "a much longer passphrase 42"


def _token_client(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_the_settings_page_changes_the_password_and_ends_other_sessions_and_the_token(
    make_user,
):
    user = make_user("ada")
    user.set_password(OLD)
    user.save()
    token = Token.objects.create(user=user).key
    here, elsewhere = Client(), Client()
    here.force_login(user)
    elsewhere.force_login(user)
    settings_page = here.get(reverse("account-settings")).content.decode()
    assert reverse("password-change") in settings_page
    refused = here.post(
        reverse("password-change"),
        {"old_password": "wrong", "new_password1": NEW, "new_password2": NEW},
    )
    assert refused.status_code == 200 and Token.objects.filter(key=token).exists()
    changed = here.post(
        reverse("password-change"),
        {"old_password": OLD, "new_password1": NEW, "new_password2": NEW},
        follow=True,
    )
    assert changed.status_code == 200 and "Password changed" in changed.content.decode()
    user.refresh_from_db()
    assert user.check_password(NEW)
    assert here.get(reverse("account-settings")).status_code == 200  # still signed in here
    assert elsewhere.get(reverse("account-settings")).status_code == 302  # signed out there
    assert _token_client(token).get("/api/auth/notifications/").status_code == 401


def test_the_api_ends_a_token_and_changes_a_password(make_user):
    user = make_user("bob")
    user.set_password(OLD)
    user.save()
    key = Token.objects.create(user=user).key
    client = _token_client(key)
    assert APIClient().delete("/api/auth/token/").status_code == 401
    assert client.delete("/api/auth/token/").status_code == 204
    assert client.get("/api/auth/notifications/").status_code == 401
    fresh = APIClient().post(
        "/api/auth/token/", {"username": "bob", "password": OLD}, format="json"
    )
    assert fresh.status_code == 200 and fresh.json()["token"] != key
    client = _token_client(fresh.json()["token"])
    wrong = client.post(
        "/api/auth/password/", {"old_password": "no", "new_password": NEW}, format="json"
    )
    assert wrong.status_code == 400 and "old_password" in wrong.json()
    weak = client.post(
        "/api/auth/password/", {"old_password": OLD, "new_password": "123"}, format="json"
    )
    assert weak.status_code == 400 and "new_password" in weak.json()
    changed = client.post(
        "/api/auth/password/", {"old_password": OLD, "new_password": NEW}, format="json"
    )
    assert changed.status_code == 200
    assert client.get("/api/auth/notifications/").status_code == 401  # the old token ended
    new_client = _token_client(changed.json()["token"])
    assert new_client.get("/api/auth/notifications/").status_code == 200
    user.refresh_from_db()
    assert user.check_password(NEW)
