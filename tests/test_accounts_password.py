"""A password changed, a token ended (found by an adversary: neither could be done, so a leaked
password or token stayed good for ever unless the staff stepped in)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
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


def test_an_address_another_account_uses_is_refused_everywhere(make_user):
    """Found by an adversary: any account could set another player's address, in any case,
    and the site's mail for it went to that player's inbox."""
    owner = make_user("owner", email="Owner@Example.com")
    other = make_user("other", email="")
    taken = "OWNER@example.COM"
    api = APIClient()
    api.force_authenticate(other)
    refused = api.put("/api/auth/notifications/", {"email": taken}, format="json")
    assert refused.status_code == 400 and "already uses" in str(refused.json()["email"])
    page = Client()
    page.force_login(other)
    form = {"email": taken, "time_zone": "UTC", "palette": "default"}
    again = page.post(reverse("account-settings"), form)
    assert again.status_code == 200 and "already uses" in again.content.decode()
    other.refresh_from_db()
    assert other.email == ""
    signup = APIClient().post(
        "/api/auth/signup/",
        {"username": "newcomer", "email": taken, "password": NEW},
        format="json",
    )
    assert signup.status_code == 400 and "email" in signup.json()
    form = {"username": "newcomer2", "email": taken, "password1": NEW, "password2": NEW}
    assert Client().post(reverse("signup"), form).status_code == 200  # the form again
    # One's own address, sent again in another case, is no one else's.
    api.force_authenticate(owner)
    kept = api.put("/api/auth/notifications/", {"email": "owner@example.com"}, format="json")
    assert kept.status_code == 200, kept.json()


def test_an_address_taken_between_the_check_and_the_save_is_refused_everywhere(
    make_user, monkeypatch
):
    """Another account took the address after the form's check and before the save (the
    check is made again as the address is saved): a refusal as for one taken before, with
    nothing of the form saved, and no account made."""
    from games import notifications

    checks = {"count": 0}
    checked = notifications.address_problem

    def taken_at_the_second_check(address, user=None):
        checks["count"] += 1
        if checks["count"] % 2 == 0:
            return "Another account already uses this address."
        return checked(address, user)

    monkeypatch.setattr(notifications, "address_problem", taken_at_the_second_check)
    other = make_user("other", email="")
    api = APIClient()
    api.force_authenticate(other)
    body = {"email": "new@example.org", "time_zone": "Asia/Tokyo"}
    refused = api.put("/api/auth/notifications/", body, format="json")
    assert refused.status_code == 400 and "already uses" in str(refused.json()["email"])
    page = Client()
    page.force_login(other)
    form = {"email": "new@example.org", "time_zone": "Asia/Tokyo", "palette": "default"}
    again = page.post(reverse("account-settings"), form)
    assert again.status_code == 200 and "already uses" in again.content.decode()
    other.refresh_from_db()
    assert other.email == ""
    assert notifications.NotificationSettings.of(other).time_zone != "Asia/Tokyo"
    signup = APIClient().post(
        "/api/auth/signup/",
        {"username": "newcomer", "email": "new@example.org", "password": NEW},
        format="json",
    )
    assert signup.status_code == 400 and "already uses" in str(signup.json()["email"])
    form = {"username": "newcomer2", "email": "new@example.org", "password1": NEW, "password2": NEW}
    page = Client().post(reverse("signup"), form)
    assert page.status_code == 200 and "already uses" in page.content.decode()
    assert not get_user_model().objects.filter(username__in=["newcomer", "newcomer2"]).exists()


def test_the_schema_says_which_endpoints_a_signed_out_client_may_call():
    """Found by an adversary: only sign-up listed ``{}`` (no credentials), so a generated client
    took asking for a token, or watching a public game, to need a token already."""
    import yaml

    schema = yaml.safe_load(APIClient().get("/api/schema/").content)

    def open_to_anyone(path: str, method: str) -> bool:
        return {} in schema["paths"][path][method]["security"]

    assert open_to_anyone("/api/auth/token/", "post")
    assert open_to_anyone("/api/games/", "get") and open_to_anyone("/api/games/{id}/", "get")
    assert not open_to_anyone("/api/auth/token/", "delete")
    assert not open_to_anyone("/api/games/", "post")
    assert not open_to_anyone("/api/games/{id}/orders/", "put")


@pytest.mark.parametrize(
    ("theirs", "sent"),
    [
        ("demo1@example.com", '"demo1"@example.com'),  # the local part quoted
        ("x@bücher.de", "x@BÜCHER.de"),  # a non-ASCII domain in capitals
        ("x@bücher.de", "x@xn--bcher-kva.de"),  # its ASCII (IDNA) form
    ],
)
def test_another_spelling_of_a_taken_mailbox_is_refused(make_user, theirs, sent):
    """Found by an adversary: the check compared the text, in SQLite's case rules (ASCII only),
    so other spellings of the same mailbox passed."""
    make_user("owner", email=theirs)
    api = APIClient()
    api.force_authenticate(make_user("other", email=""))
    refused = api.put("/api/auth/notifications/", {"email": sent}, format="json")
    assert refused.status_code == 400, refused.json()


def test_an_address_shared_from_before_is_kept_and_other_settings_saved(make_user):
    """Found by an adversary: two accounts that shared an address from before the check could
    not save any setting, their own address refused."""
    make_user("first", email="shared@example.com")
    second = make_user("second", email="shared@example.com")
    api = APIClient()
    api.force_authenticate(second)
    same = {"email": "shared@example.com", "palette": "colour-blind"}
    assert api.put("/api/auth/notifications/", same, format="json").status_code == 200
    page = Client()
    page.force_login(second)
    form = {"email": "Shared@example.com", "time_zone": "UTC", "palette": "default"}
    assert page.post(reverse("account-settings"), form).status_code == 302


def _sign_in_budget(settings, rate: str):
    """The sign-in scope's rate set to ``rate``, its counts cleared; the cache, for the test
    to clear again when it ends (the budget of this address, for the tests after it)."""
    from django.core.cache import cache

    cache.clear()
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "auth": rate},
    }
    return cache


def test_the_password_form_is_throttled_as_sign_in_is(make_user, settings):
    """Found by an adversary: the page's password change had no limit, so a stolen session
    could guess the old password at will; the API's was limited."""
    cache = _sign_in_budget(settings, "3/min")
    page = Client()
    page.force_login(make_user("guessed"))
    wrong = {"old_password": "guess", "new_password1": NEW, "new_password2": NEW}
    try:
        answers = [page.post(reverse("password-change"), wrong).status_code for _ in range(5)]
    finally:
        cache.clear()  # the sign-in budget of this address, for the tests after this one
    assert answers == [200, 200, 200, 429, 429], answers


def test_ending_a_token_is_not_a_sign_in_attempt(make_user, settings):
    """Found by an adversary: DELETE /api/auth/token/ counted against the sign-in budget, so an
    owner who had mistyped a password a few times could not revoke a leaked token."""
    cache = _sign_in_budget(settings, "2/min")
    user = make_user("leaky")
    user.set_password(OLD)
    user.save()
    try:
        tries = [
            APIClient()
            .post("/api/auth/token/", {"username": "leaky", "password": "no"}, format="json")
            .status_code
            for _ in range(3)
        ]
        ended = _token_client(Token.objects.create(user=user).key).delete("/api/auth/token/")
    finally:
        cache.clear()
    assert tries == [400, 400, 429], tries
    assert ended.status_code == 204 and not Token.objects.filter(user=user).exists()


def test_only_a_post_is_a_sign_in_attempt(make_user, settings):
    """Found by an adversary: a client's OPTIONS (a CORS preflight) and GET (a 405) spent the
    sign-in budget, and the POST that followed was a 429."""
    cache = _sign_in_budget(settings, "2/min")
    user = make_user("careful")
    user.set_password(OLD)
    user.save()
    client = APIClient()
    try:
        for path in ("/api/auth/token/", "/api/auth/signup/", "/api/auth/password/"):
            for _ in range(3):
                assert client.options(path).status_code in (200, 401), path
                assert client.get(path).status_code in (401, 405), path
        page = [Client().get(reverse(name)).status_code for name in ("login", "signup")] * 2
        signed = client.post(
            "/api/auth/token/", {"username": "careful", "password": OLD}, format="json"
        )
    finally:
        cache.clear()
    assert page == [200, 200, 200, 200]
    assert signed.status_code == 200, signed.content


def test_a_password_past_1024_characters_is_refused_everywhere(make_user):
    """Found by an adversary: a 100,000-character password was taken (and hashed at every
    sign-in); sign-up and password changes, page and API, refuse one past 1,024."""
    huge, longest = "correct horse " * 7200, ("correct horse " * 80)[:1024]
    said = "at most 1024 characters long"
    api = APIClient().post(
        "/api/auth/signup/", {"username": "huge", "password": huge}, format="json"
    )
    assert api.status_code == 400 and said in str(api.json()), api.content
    form = {"username": "huge", "password1": huge, "password2": huge}
    page = Client().post(reverse("signup"), form)
    assert page.status_code == 200 and said in page.content.decode()
    assert not get_user_model().objects.filter(username="huge").exists()
    user = make_user("longest")
    user.set_password(OLD)
    user.save()
    client = _token_client(Token.objects.create(user=user).key)
    change = {"old_password": OLD, "new_password": huge}
    refused = client.post("/api/auth/password/", change, format="json")
    assert refused.status_code == 400 and said in str(refused.json())
    settings_page = Client()
    settings_page.force_login(user)
    form = {"old_password": OLD, "new_password1": huge, "new_password2": huge}
    assert said in settings_page.post(reverse("password-change"), form).content.decode()
    user.refresh_from_db()
    assert user.check_password(OLD)
    change = {"old_password": OLD, "new_password": longest}
    assert client.post("/api/auth/password/", change, format="json").status_code == 200


def test_signing_in_reads_the_name_in_any_case(make_user):
    """Found by an adversary: names are unique whatever their case (``Demo1`` cannot sign up
    beside ``demo1``), yet ``Demo1`` could not sign in as demo1, by the page or for a token."""
    user = make_user("demo1")
    user.set_password(NEW)
    user.save()
    for typed in ("Demo1", "DEMO1", "demo1", "\uff24\uff45\uff4d\uff4f\uff11"):
        token = APIClient().post(
            "/api/auth/token/", {"username": typed, "password": NEW}, format="json"
        )
        assert token.status_code == 200, (typed, token.content)
        page = Client()
        signed = page.post(reverse("login"), {"username": typed, "password": NEW})
        assert signed.status_code == 302, typed
        assert page.get(reverse("account-settings")).status_code == 200
    wrong = APIClient().post(
        "/api/auth/token/", {"username": "DEMO1", "password": "nope"}, format="json"
    )
    assert wrong.status_code == 400
    nobody = {"username": "Nobody", "password": NEW}
    again = Client().post(reverse("login"), nobody)
    assert again.status_code == 200  # the form again, not saying the name's case may count
    assert "the password is case-sensitive" in again.content.decode()
    assert "both fields may be case-sensitive" not in again.content.decode()
    # Unicode's case, on SQLite too (whose LIKE folds ASCII alone), and a name past any
    # account's length is wrong, not an outage (SQLite refused the pattern: a 503).
    for stored, typed in (("Тимур", "тимур"), ("Тимур", "ТИМУР"), ("Straße", "STRASSE")):
        account = get_user_model().objects.filter(username=stored).first() or make_user(stored)
        account.set_password(NEW)
        account.save()
        token = APIClient().post(
            "/api/auth/token/", {"username": typed, "password": NEW}, format="json"
        )
        assert token.status_code == 200, (typed, token.content)
        assert Token.objects.get(key=token.json()["token"]).user == account
    for huge in ("x" * 50_001, "中" * 17_000):
        token = APIClient().post(
            "/api/auth/token/", {"username": huge, "password": NEW}, format="json"
        )
        assert token.status_code == 400, token.content
        page = Client().post(reverse("login"), {"username": huge, "password": NEW})
        assert page.status_code == 200 and "correct username" in page.content.decode()


def test_a_session_from_before_stays_signed_in_and_a_refusal_hashes_once(make_user, monkeypatch):
    """Found by a review: a session keeps the path of the backend that signed it in, and one
    no longer listed is signed out, so the any-case backend alone signed out every player at
    the deploy. Django's backend stays listed for them, and never judges a password again
    (a refused sign-in would have hashed twice)."""
    from django.contrib.auth import get_user_model

    user = make_user("before")
    user.set_password(NEW)
    user.save()
    old = Client()
    old.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    assert old.get(reverse("account-settings")).status_code == 200
    checks = []
    model = get_user_model()
    original = model.check_password
    monkeypatch.setattr(
        model, "check_password", lambda self, raw: checks.append(raw) or original(self, raw)
    )
    refused = Client().post(reverse("login"), {"username": "before", "password": "wrong"})
    assert refused.status_code == 200 and checks == ["wrong"], checks
