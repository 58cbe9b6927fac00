"""Security properties of the server: CSRF, rate limits, escaping, deploy settings, no secrets.

Who may call which endpoint is ``test_api_permissions.py``; schema conformance under generated
requests is ``test_schemathesis.py``.
"""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games import services

ROOT = Path(__file__).resolve().parent.parent
XSS = "<script>alert(1)</script>"


# -- CSRF -------------------------------------------------------------------------------


def test_csrf_middleware_is_on() -> None:
    assert "django.middleware.csrf.CsrfViewMiddleware" in django_settings.MIDDLEWARE


UNSAFE = [
    ("post", "/api/games/", {"name": "n", "variant": "standard"}),
    ("put", "/api/games/{game}/orders/", {"orders": ["A Paris H"]}),
    ("post", "/api/games/{game}/messages/", {"body": "hi"}),
    ("post", "/api/games/{game}/ready/", {"ready": True}),
    ("post", "/api/games/{game}/moderation/pause/", {}),
    ("put", "/api/auth/notifications/", {"press_digest": False}),
]


@pytest.fixture
def csrf_client():
    """A browser-like client: signed in by session cookie, CSRF checks enforced."""

    def make(user) -> APIClient:
        client = APIClient(enforce_csrf_checks=True)
        client.force_login(user)
        return client

    return make


@pytest.mark.django_db
@pytest.mark.parametrize("method, path, data", UNSAFE, ids=lambda v: str(v))
def test_session_requests_without_csrf_token_are_refused(
    csrf_client, game, seat, moderator, method, path, data
) -> None:
    user = moderator if "moderation" in path else seat(game, "France").user
    client = csrf_client(user)
    response = getattr(client, method)(path.format(game=game.pk), data, format="json")
    assert response.status_code == 403, response.content
    assert "CSRF" in response.json()["detail"]


@pytest.mark.django_db
def test_session_requests_with_csrf_token_pass(csrf_client, game, seat) -> None:
    client = csrf_client(seat(game, "France").user)
    token = secrets.token_hex(16)  # 32 characters: an unmasked CSRF secret
    client.cookies[django_settings.CSRF_COOKIE_NAME] = token
    response = client.put(
        f"/api/games/{game.pk}/orders/",
        {"orders": ["A Paris H"]},
        format="json",
        HTTP_X_CSRFTOKEN=token,
    )
    assert response.status_code == 200, response.content


@pytest.mark.django_db
def test_token_requests_need_no_csrf_token(game, seat) -> None:
    """A token is not sent by browsers on their own, so it cannot be forged across sites."""
    from rest_framework.authtoken.models import Token

    user = seat(game, "France").user
    client = APIClient(enforce_csrf_checks=True)
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    response = client.put(f"/api/games/{game.pk}/orders/", {"orders": ["A Paris H"]})
    assert response.status_code == 200, response.content


@pytest.mark.django_db
def test_admin_sign_in_form_needs_a_csrf_token(make_user) -> None:
    make_user("boss", is_staff=True, is_superuser=True)
    client = Client(enforce_csrf_checks=True)
    response = client.post("/admin/login/", {"username": "boss", "password": "pw"})
    assert response.status_code == 403


# -- rate limits ------------------------------------------------------------------------


@pytest.fixture
def rates(settings):
    """Set throttle rates for one test and forget earlier counts (the cache may be Redis,
    shared with other runs)."""

    def set_rates(auth: str | None = None, orders: str | None = None) -> None:
        settings.REST_FRAMEWORK = {
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {
                **dict.fromkeys(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]),
                "auth": auth,
                "orders": orders,
            },
        }

    cache.delete_many([f"throttle_auth_{ip}" for ip in ("127.0.0.1", "192.0.2.7", "192.0.2.8")])
    return set_rates


def _forget_orders(*users) -> None:
    cache.delete_many([f"throttle_orders_{user.pk}" for user in users])


def test_default_rates() -> None:
    """10 sign-ins a minute per address; per user 60 order submissions and 120 checks a minute,
    10 new games an hour, 30 joins an hour and 20 messages a minute."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("THROTTLE_")}
    code = (
        "from django.conf import settings; print(settings.REST_FRAMEWORK['DEFAULT_THROTTLE_RATES'])"
    )
    out = _django(code, env)
    assert out.strip() == str(
        {"auth": "10/min", "orders": "60/min", "checks": "120/min", "games": "10/hour"}
        | {"joins": "30/hour"}
        | {"press": "20/min"}
        | {"payments": "20/min"}
    )


@pytest.mark.django_db
def test_token_endpoint_is_rate_limited_per_address(rates, make_user) -> None:
    rates(auth="3/min")
    make_user("alice")
    client = APIClient()
    for _ in range(3):
        assert (
            client.post("/api/auth/token/", {"username": "alice", "password": "no"}).status_code
            == 400
        )
    response = client.post("/api/auth/token/", {"username": "alice", "password": "pw"})
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    # X-Forwarded-For is not believed without a trusted proxy in front (TRUSTED_PROXIES)...
    spoofed = client.post(
        "/api/auth/token/",
        {"username": "alice", "password": "pw"},
        HTTP_X_FORWARDED_FOR="192.0.2.9",
    )
    assert spoofed.status_code == 429
    # ...while another address has its own budget.
    other = APIClient(REMOTE_ADDR="192.0.2.7")
    assert (
        other.post("/api/auth/token/", {"username": "alice", "password": "pw"}).status_code == 200
    )


@pytest.mark.django_db
def test_sign_up_shares_the_sign_in_budget(rates) -> None:
    rates(auth="2/min")
    client = APIClient()
    for n in range(2):
        data = {"username": f"new{n}", "password": "a long enough pass 1"}
        assert client.post("/api/auth/signup/", data).status_code == 201
    assert client.post("/api/auth/signup/", {"username": "x", "password": "y"}).status_code == 429
    assert client.post("/api/auth/token/", {"username": "new0", "password": "z"}).status_code == 429


@pytest.mark.django_db
@pytest.mark.parametrize("url_name", ["login", "signup", "admin:login"])
def test_sign_in_forms_are_rate_limited(rates, url_name) -> None:
    """Django's own sign-in views (the pages' and the admin's) count against the same budget."""
    rates(auth="2/min")
    client = Client(REMOTE_ADDR="192.0.2.8")
    url = reverse(url_name)
    for _ in range(2):
        assert client.post(url, {"username": "nobody", "password": "wrong"}).status_code != 429
    response = client.post(url, {"username": "nobody", "password": "wrong"})
    assert response.status_code == 429
    assert client.get(url).status_code == 200  # reading the form is not limited


@pytest.mark.django_db
def test_order_submission_is_rate_limited_per_user(rates, api, game, seat) -> None:
    rates(orders="2/min")
    france, england = seat(game, "France").user, seat(game, "England").user
    _forget_orders(france, england)
    client = api(france)
    url = f"/api/games/{game.pk}/orders/"
    for _ in range(2):
        assert client.put(url, {"orders": ["A Paris H"]}).status_code == 200
    assert client.put(url, {"orders": ["A Paris H"]}).status_code == 429
    assert client.get(url).status_code == 200  # reading is not limited
    assert api(england).put(url, {"orders": ["F London H"]}).status_code == 200


@pytest.mark.django_db
def test_order_form_shares_the_order_budget(rates, api, game, seat) -> None:
    rates(orders="1/min")
    france = seat(game, "France").user
    _forget_orders(france)
    assert api(france).put(f"/api/games/{game.pk}/orders/", {"orders": []}).status_code == 200
    client = Client()
    client.force_login(france)
    response = client.post(reverse("submit-orders", args=[game.pk]), {"orders": "A Paris H"})
    assert response.status_code == 429


# -- escaping ---------------------------------------------------------------------------


@pytest.fixture
def hostile(make_game, seat):
    """A game named like a script, with press that is HTML."""
    game = make_game()
    game.name = XSS
    game.save(update_fields=["name"])
    press = '<img src=x onerror="alert(2)">'
    message = services.send_message(game, seat(game, "France").user, press, ["Italy"])
    return {"game": game, "press": press, "message": message}


@pytest.mark.django_db
def test_api_returns_names_and_press_as_json_data(api, hostile, seat, moderator) -> None:
    game = hostile["game"]
    client = api(seat(game, "Italy").user)
    detail = client.get(f"/api/games/{game.pk}/")
    assert detail["Content-Type"] == "application/json"
    assert detail["X-Content-Type-Options"] == "nosniff"  # no browser renders it as HTML
    assert detail.json()["name"] == XSS
    press = client.get(f"/api/games/{game.pk}/messages/")
    assert press["Content-Type"] == "application/json"
    assert [m["body"] for m in press.json()["results"]] == [hostile["press"]]
    created = api(moderator).post("/api/games/", {"name": XSS, "variant": "standard"})
    assert created.status_code == 201
    assert created["Content-Type"] == "application/json"


@pytest.mark.django_db
def test_the_api_never_answers_html_even_to_a_browser(api, hostile, seat) -> None:
    """No browsable API: names and press go out as JSON strings, which no browser renders."""
    game = hostile["game"]
    client = api(seat(game, "Italy").user)
    for path in (f"/api/games/{game.pk}/", f"/api/games/{game.pk}/messages/"):
        page = client.get(path, HTTP_ACCEPT="text/html")
        assert page.status_code == 200
        assert page["Content-Type"] == "application/json"
        assert page["X-Content-Type-Options"] == "nosniff"
        assert "<html" not in page.content.decode().lower()


@pytest.mark.django_db
def test_player_pages_escape_names_and_press(hostile, seat) -> None:
    """The lobby and the game page (where Italy reads France's press) show them as text."""
    game = hostile["game"]
    client = Client()
    client.force_login(seat(game, "Italy").user)
    for url in ("/", f"/games/{game.pk}/"):
        response = client.get(url)
        body = response.content.decode()
        assert response.status_code == 200, url
        assert XSS not in body, url
        assert "<img src=x" not in body, url
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body, url
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "&lt;img src=x" in page  # the press is there, as text


@pytest.mark.django_db
def test_admin_escapes_names_and_press(hostile, make_user) -> None:
    client = Client()
    client.force_login(make_user("boss", is_staff=True, is_superuser=True))
    pages = [
        "/admin/games/game/",
        f"/admin/games/game/{hostile['game'].pk}/change/",
        "/admin/games/message/",
        f"/admin/games/message/{hostile['message'].pk}/change/",
    ]
    for url in pages:
        response = client.get(url)
        body = response.content.decode()
        assert response.status_code == 200, url
        assert XSS not in body, url
        assert "<img src=x" not in body, url
    game_list = client.get("/admin/games/game/").content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in game_list


# -- production settings ----------------------------------------------------------------


def _django(code: str, env: dict[str, str], timeout: int = 120) -> str:
    """Run Python with Django set up, in a fresh process with this environment."""
    setup = "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', "
    setup += "'greatgame.settings'); django.setup(); "
    done = subprocess.run(
        [sys.executable, "-c", setup + code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _production_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SECURE_", "THROTTLE_"))}
    env.pop("TRUSTED_PROXIES", None)
    env.update(
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="example.com",
        DJANGO_SETTINGS_MODULE="greatgame.settings",
        **extra,
    )
    return env


def test_production_settings_pass_the_deploy_checks() -> None:
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=_production_env(),
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "WARNING" not in done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_production_settings() -> None:
    names = [
        "SECURE_SSL_REDIRECT",
        "SECURE_PROXY_SSL_HEADER",
        "SECURE_HSTS_SECONDS",
        "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE",
        "TRUSTED_PROXIES",
    ]
    code = f"from django.conf import settings; print([getattr(settings, n) for n in {names}])"
    behind = _production_env(TRUSTED_PROXIES="10.0.0.2,172.16.0.0/12")
    assert _django(code, behind).strip() == (
        "[True, ('HTTP_X_FORWARDED_PROTO', 'https'), 31536000, True, True, "
        "['10.0.0.2', '172.16.0.0/12']]"
    )
    # Without a trusted proxy, X-Forwarded-Proto would be the client's word: not believed.
    direct = _production_env(SECURE_SSL_REDIRECT="0")
    assert _django(code, direct).strip() == "[False, None, 31536000, True, True, []]"


def test_development_settings_serve_plain_http() -> None:
    """`make run` (DEBUG on) must work over http://127.0.0.1: no redirect, no secure cookies."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SECURE_")}
    env.update(DEBUG="1")
    code = (
        "from django.conf import settings; print([settings.SECURE_SSL_REDIRECT, "
        "settings.SECURE_HSTS_SECONDS, settings.SESSION_COOKIE_SECURE])"
    )
    assert _django(code, env).strip() == "[False, 0, False]"


@pytest.mark.django_db
def test_production_redirects_plain_http_but_not_health_checks(settings) -> None:
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    client = Client()
    assert client.get("/api/variants/").status_code == 301
    assert client.get("/api/variants/", HTTP_X_FORWARDED_PROTO="https").status_code == 200
    # The same header from a client that is no trusted proxy is dropped.
    direct = Client(REMOTE_ADDR="203.0.113.5")
    assert direct.get("/api/variants/", HTTP_X_FORWARDED_PROTO="https").status_code == 301
    assert client.get("/healthz?only=web").status_code == 200
    assert client.get("/healthz").status_code == 503  # not redirected: no sweep has run


# -- no secrets in the repository -------------------------------------------------------

SECRET_PATTERNS = {
    "private key": re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"),
    "AWS access key": re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
    "AWS secret key": re.compile(r"(?i)aws_secret_access_key\s*[:=]\s*['\"]?[A-Za-z0-9/+]{40}"),
    "GitHub token": re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})"),
    "Slack token": re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}"),
    "Google API key": re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b"),
    "Stripe live key": re.compile(r"\b[sr]k_live_[0-9A-Za-z]{20,}"),
    "API secret key": re.compile(r"\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{32,}"),
    "password in a URL": re.compile(r"\b[a-z][a-z0-9+.-]*://([^:/@\s]+):([^@/\s]+)@"),
}
SECRET_KEY_LINE = re.compile(r"SECRET_KEY\s*[=:]\s*(.*)")
QUOTED = re.compile(r"(['\"])([^'\"]{8,})\1")
BARE = re.compile(r"([^\s'\"$(),.]{8,})(?:\s|$)")  # SECRET_KEY=value in a shell or env file
# Values that are no secret: Django's marked insecure keys (our development default), a
# build-time placeholder, and the documentation's and the compose file's placeholder logins
# (the compose database is reachable only inside its own network).
ALLOWED = {"collectstatic-only", "user:pass", "greatgame:greatgame"}


def _secret_keys(text: str) -> list[str]:
    """Literal values given to SECRET_KEY; environment references are no literal."""
    values = []
    for line in text.splitlines():
        match = SECRET_KEY_LINE.search(line)
        if match is None or match.group(1).startswith("$"):
            continue
        rest = match.group(1)
        quoted = [value for _, value in QUOTED.findall(rest)]
        bare = BARE.match(rest)
        values += quoted if quoted else [bare.group(1)] if bare else []
    return [v for v in values if v != "SECRET_KEY" and not v.startswith("django-insecure-")]


def find_secrets(text: str) -> list[str]:
    """What in ``text`` looks like a secret, as "kind: match"; allowed placeholders excepted."""
    found = [f"Django secret key: {v[:60]}" for v in _secret_keys(text) if v not in ALLOWED]
    for kind, pattern in SECRET_PATTERNS.items():
        for match in pattern.finditer(text):
            value = ":".join(match.groups()) if match.groups() else match.group()
            if value not in ALLOWED:
                found.append(f"{kind}: {match.group()[:60]}")
    return found


def _repository_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    return [ROOT / name for name in listed.split("\0") if name and (ROOT / name).is_file()]


def test_the_scanner_finds_secrets() -> None:
    """The patterns, on made-up secrets (assembled here so that this file holds none)."""
    samples = [
        "-----BEGIN " + "RSA PRIVATE KEY-----",
        "-----BEGIN " + "OPENSSH PRIVATE KEY-----",
        "key = AKIA" + "ABCDEFGHIJKLMNOP",
        "gh" + "p_" + "a" * 36,
        'SECRET_KEY = "' + "k" * 50 + '"',
        'SECRET_KEY = env.str("SECRET_KEY", default="' + "k" * 50 + '")',
        "SECRET_KEY=" + "k" * 50,
        "DATABASE_URL=postgres://app:" + "hunter2hunter2" + "@db/app",
        "sk" + "_live_" + "a" * 24,
    ]
    for sample in samples:
        assert find_secrets(sample), sample
    placeholders = [
        'SECRET_KEY = env.str("SECRET_KEY", default="django-insecure-dev-only-NEVER-use-in-'
        'production")',
        'SECRET_KEY = env.str("SECRET_KEY")',
        "SECRET_KEY: ${SECRET_KEY:?set SECRET_KEY}",
        "SECRET_KEY=$(python3 -c 'import secrets')",
        "e.g. `postgres://user:pass@host:5432/greatgame`",
    ]
    for sample in placeholders:
        assert not find_secrets(sample), sample


def test_no_secrets_in_the_repository() -> None:
    files = _repository_files()
    assert len(files) > 50
    found = []
    for path in files:
        data = path.read_bytes()
        if b"\0" in data[:8192]:  # binary
            continue
        for hit in find_secrets(data.decode("utf-8", errors="replace")):
            found.append(f"{path.relative_to(ROOT)}: {hit}")
    assert not found, "\n".join(found)
