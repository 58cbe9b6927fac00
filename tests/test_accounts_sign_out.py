"""Signing out by its address: a bookmarked or typed /accounts/logout/ answered a bare 405
"Not allowed here" (an adversary's finding). It shows the sign-out button; only its POST
signs out, so that no link or image can sign anyone out."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_sign_out_address_asks_and_its_button_signs_out(make_user) -> None:
    client = Client()
    client.force_login(make_user("ada"))
    page = client.get(reverse("logout"))
    assert page.status_code == 200
    html = page.content.decode()
    assert "You are signed in as ada." in html
    assert f'<form method="post" action="{reverse("logout")}">' in html
    assert client.get(reverse("account-settings")).status_code == 200  # still signed in
    done = client.post(reverse("logout"))
    assert done.status_code == 302 and done["Location"] == reverse("login")
    assert client.get(reverse("account-settings")).status_code == 302  # signed out now
    assert client.get(reverse("logout"))["Location"] == reverse("login")
