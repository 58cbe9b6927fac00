"""Issue #15, the operations items: errors logged (5), staff is not moderator (6), headers and
caches (7), client addresses from trusted proxies only (9), the embedded SQLite under
concurrent players (10).

The browser check of the Content-Security-Policy runs Debian's Chromium through Playwright, as
``test_browser.py`` does; it skips only when Chromium is missing and CI is unset.
"""

from __future__ import annotations

import gc
import io
import json
import logging
import os
import re
import signal
from pathlib import Path

import pytest
import yaml
from django.contrib.auth.models import Permission
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from test_security import _django
from test_security import _production_env as deploy_env

from games import services
from games.api import VariantViewSet
from games.models import Game, Membership, ModeratorAction

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"


def _production_env(**extra: str) -> dict[str, str]:
    """``test_security``'s production environment, with nothing of this shell's that the tests
    here set themselves, and reachable by Django's test client."""
    env = deploy_env()
    for name in ("ADMINS", "EMAIL_URL", "DATABASE_URL", "REDIS_URL", "SENTRY_DSN", "LOG_LEVEL"):
        env.pop(name, None)
    env.update(ALLOWED_HOSTS="testserver", SECURE_SSL_REDIRECT="0", **extra)
    return env


def _results(out: str) -> list[str]:
    """The lines a script printed after "RESULT " (the rest of stdout is its log)."""
    return [line[7:] for line in out.splitlines() if line.startswith("RESULT ")]


# -- 5. errors are logged -----------------------------------------------------------------


@pytest.fixture
def log_lines():
    """What the configured console handler writes, read back as JSON objects."""
    handler = next(h for h in logging.getLogger().handlers if h.name == "console")
    stream = io.StringIO()
    old = handler.setStream(stream)
    try:
        yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    finally:
        handler.setStream(old)


@pytest.fixture
def broken_variants(monkeypatch):
    """GET /api/variants/ fails with an error nobody handles."""

    def boom(self, request):
        raise RuntimeError("boom 7f3a")

    monkeypatch.setattr(VariantViewSet, "list", boom)


@pytest.mark.django_db
def test_an_unhandled_error_is_logged_as_json_with_its_request_id_and_traceback(
    broken_variants, log_lines
) -> None:
    client = Client(raise_request_exception=False)
    response = client.get("/api/variants/", HTTP_X_REQUEST_ID="trace-me-42")
    assert response.status_code == 500
    # Under /api/ the 500 is JSON, naming the id to quote.
    assert response["Content-Type"] == "application/json"
    assert response.json()["request_id"] == "trace-me-42"
    assert response["X-Request-ID"] == "trace-me-42"

    errors = [line for line in log_lines() if line["level"] == "ERROR"]
    assert len(errors) == 1, errors
    (error,) = errors
    assert error["logger"] == "django.request"
    assert error["request_id"] == "trace-me-42"
    assert error["traceback"].startswith("Traceback (most recent call last)")
    assert "RuntimeError: boom 7f3a" in error["traceback"]


@pytest.mark.django_db
def test_every_request_has_an_id_of_its_own_or_the_proxys(log_lines, settings) -> None:
    settings.LOG_REQUESTS = True
    client = Client()
    first, second = client.get("/healthz?only=web"), client.get("/healthz?only=web")
    assert re.fullmatch(r"[0-9a-f]{32}", first["X-Request-ID"])
    assert first["X-Request-ID"] != second["X-Request-ID"]
    # An id that could break or forge a log line is replaced, not repeated.
    forged = client.get("/healthz?only=web", HTTP_X_REQUEST_ID='x" "level": "ERROR')
    assert re.fullmatch(r"[0-9a-f]{32}", forged["X-Request-ID"])
    # 4xx answers are logged by Django after the middleware is done: the id is still there.
    missing = client.get("/api/auth/notifications/", HTTP_X_REQUEST_ID="abc-401")
    assert missing.status_code == 401
    lines = log_lines()
    access = [line for line in lines if line["logger"] == "greatgame.request"]
    assert [line["request_id"] for line in access[:2]] == [
        first["X-Request-ID"],
        second["X-Request-ID"],
    ]
    assert access[0]["status"] == 200 and access[0]["path"] == "/healthz"
    warning = next(line for line in lines if line["logger"] == "django.request")
    assert warning["request_id"] == "abc-401" and warning["status_code"] == 401


@pytest.mark.django_db
def test_every_answer_says_how_long_django_took_in_server_timing() -> None:
    client = Client()
    timing = re.compile(r"app;dur=(\d+\.\d), cpu;dur=(\d+\.\d)")
    for response in (client.get("/healthz?only=web"), client.get("/no/such/page/")):
        found = timing.fullmatch(response["Server-Timing"])
        assert found, response["Server-Timing"]
        assert float(found[1]) >= 0 and float(found[2]) >= 0


def test_server_timing_keeps_what_a_view_said(rf) -> None:
    from django.http import HttpResponse

    from games.middleware import ServerTimingMiddleware

    def view(request):
        response = HttpResponse("ok")
        response["Server-Timing"] = 'db;dur=2.0;desc="orders"'
        return response

    response = ServerTimingMiddleware(view)(rf.get("/"))
    assert re.fullmatch(
        r'db;dur=2\.0;desc="orders", app;dur=\d+\.\d, cpu;dur=\d+\.\d', response["Server-Timing"]
    )


def test_other_pages_keep_djangos_html_error_page(rf) -> None:
    from games.views import server_error

    response = server_error(rf.get("/games/1/"))
    assert response.status_code == 500
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.django_db
def test_an_unhandled_error_is_mailed_to_the_admins(broken_variants, settings) -> None:
    settings.ADMINS = [("Ops", "ops@example.com")]
    Client(raise_request_exception=False).get("/api/variants/")
    assert [m.to for m in mail.outbox] == [["ops@example.com"]]
    assert "RuntimeError at /api/variants/\nboom 7f3a" in mail.outbox[0].body


def test_printed_mail_is_an_info_record(log_lines) -> None:
    from django.core.mail import EmailMessage, get_connection

    connection = get_connection("greatgame.logs.LoggingEmailBackend")
    message = EmailMessage("Your turn", "Spring 1901", "gg@example.com", ["ada@example.com"])
    assert connection.send_messages([message]) == 1
    (line,) = [line for line in log_lines() if line["logger"] == "greatgame.mail"]
    assert line["level"] == "INFO"
    assert line["message"] == "mail to ada@example.com: Your turn"
    assert "Spring 1901" in line["mail"]


def test_production_logging_admins_mail_and_sentry_settings() -> None:
    code = (
        "import json, sentry_sdk; from django.conf import settings as s\n"
        "print(json.dumps([s.ADMINS, s.EMAIL_BACKEND, s.CELERY_WORKER_REDIRECT_STDOUTS_LEVEL,"
        " s.LOGGING['handlers']['console']['formatter'], sentry_sdk.get_client().is_active()]))"
    )
    env = _production_env(ADMINS="Ops Team <ops@example.com>, oncall@example.com")
    assert json.loads(_django(code, env)) == [
        [["Ops Team", "ops@example.com"], ["", "oncall@example.com"]],
        "greatgame.logs.LoggingEmailBackend",
        "INFO",
        "json",
        False,
    ]
    # Sentry starts only when SENTRY_DSN is set (nothing is sent until an error happens).
    with_sentry = _production_env(SENTRY_DSN="https://public@127.0.0.1:9/1")
    assert json.loads(_django(code, with_sentry))[-1] is True


def test_gunicorn_logs_to_stdout_as_json() -> None:
    namespace: dict = {}
    exec((ROOT / "gunicorn.conf.py").read_text(), namespace)
    config = namespace["logconfig_dict"]
    for name in ("gunicorn.error",):
        (handler,) = config["loggers"][name]["handlers"]
        assert config["handlers"][handler]["stream"] == "ext://sys.stdout"
        assert config["handlers"][handler]["formatter"] == "json"
    assert config["formatters"]["json"]["()"] == "greatgame.logs.JsonFormatter"
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    assert "--config gunicorn.conf.py" in compose["services"]["web"]["command"]
    assert '"--config", "gunicorn.conf.py"' in (ROOT / "Dockerfile").read_text()


@pytest.mark.parametrize(
    ("threads", "streams"), [("1", "0"), ("2", "1"), ("3", "1"), ("16", "8"), ("64", "32")]
)
def test_gunicorn_gives_a_one_thread_worker_no_stream(monkeypatch, threads, streams) -> None:
    """A stream holds a thread for minutes: a worker of one thread (compose's ``web``, the pool
    for pages and the API) serves none, a threaded one lets half its threads hold them.
    Connections stay open longer than a proxy keeps its idle ones (nginx: 60 s)."""
    monkeypatch.setenv("GUNICORN_THREADS", threads)
    for name in ("LIVE_STREAMS_PER_PROCESS", "GUNICORN_KEEPALIVE"):
        monkeypatch.setenv(name, "")  # so that what the config sets is undone after the test
        monkeypatch.delenv(name)
    namespace: dict = {}
    exec((ROOT / "gunicorn.conf.py").read_text(), namespace)
    assert os.environ["LIVE_STREAMS_PER_PROCESS"] == streams
    # Set for the whole deployment (compose's shared environment), it still gives a worker of
    # one thread no stream, and a threaded worker what it says.
    monkeypatch.setenv("LIVE_STREAMS_PER_PROCESS", "6")
    exec((ROOT / "gunicorn.conf.py").read_text(), {})
    assert os.environ["LIVE_STREAMS_PER_PROCESS"] == ("0" if threads == "1" else "6")
    assert namespace["threads"] == int(threads) and namespace["worker_class"] == "gthread"
    assert namespace["keepalive"] > 60
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    assert compose["web"]["environment"]["GUNICORN_THREADS"] == "1"
    assert int(compose["live"]["environment"]["GUNICORN_THREADS"].split("-")[-1].strip("}")) > 1


def test_readme_proxy_example_gives_every_location_the_forwarded_headers() -> None:
    """nginx gives a location no ``proxy_set_header`` of the server's once it sets one of its
    own: the example's ``location /`` (pages and the API) once set ``Connection`` alone, so
    gunicorn got nginx's Host (the upstream's name, a 400 for every page) and the client's own
    X-Forwarded-For and -Proto, believed from the proxy (a sign-in throttle anyone steps
    round). Every header is set on the server, none in a location."""
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"```nginx\n(.*?)```", readme, re.S).group(1)
    server = re.sub(r"#.*", "", block[block.index("server {") :])
    locations = re.findall(r"location [^{]*\{([^}]*)\}", server)
    assert len(locations) == 2
    for location in locations:
        assert "proxy_set_header" not in location and "proxy_http_version" not in location
    outside = re.sub(r"location [^{]*\{[^}]*\}", "", server)
    for line in (
        "proxy_set_header Host $host;",
        "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
        "proxy_set_header X-Forwarded-Proto https;",
        "proxy_http_version 1.1;",  # kept-open connections to web need HTTP/1.1 ...
        'proxy_set_header Connection "";',  # ... and no "Connection: close"
    ):
        assert line in outside, line
    assert re.search(r"upstream greatgame\s*\{[^}]*keepalive \d+;", block)
    assert "max_conns" not in block


def test_gunicorn_builds_no_access_log_line_and_freezes_what_a_worker_loaded(monkeypatch) -> None:
    """The application logs each request (``greatgame.logs``); gunicorn's own access line,
    whose fields it built for every request only to drop them, is not made. A worker's
    loaded objects are kept out of the garbage collector's full passes."""
    from gunicorn.config import Config
    from gunicorn.glogging import Logger

    namespace: dict = {}
    exec((ROOT / "gunicorn.conf.py").read_text(), namespace)
    cfg = Config()
    cfg.set("logconfig_dict", namespace["logconfig_dict"])
    logger = namespace["logger_class"](cfg)

    def no_fields(*args):
        raise AssertionError("access-log fields built")

    monkeypatch.setattr(Logger, "atoms", no_fields)
    with pytest.raises(AssertionError):
        Logger(cfg).access(None, None, {}, None)  # gunicorn's own logger builds them
    logger.access(None, None, {}, None)
    assert gc.get_freeze_count() == 0
    before = signal.getsignal(signal.SIGTERM)
    try:
        namespace["post_worker_init"](_Worker())
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        signal.signal(signal.SIGTERM, before)


class _Worker:
    """What gunicorn.conf.py's hook uses of a gunicorn worker: its graceful-stop handler."""

    def __init__(self) -> None:
        self.alive = True

    def handle_exit(self, sig, frame) -> None:
        self.alive = False


def test_gunicorn_worker_told_to_stop_ends_its_live_streams() -> None:
    """A graceful stop (SIGTERM: a reload's HUP, a deploy) ends the worker's live streams
    within a heartbeat: they never end by themselves before LIVE_MAX_SECONDS, so the stopping
    worker of the pool that holds them (compose's ``live``) was killed as timed out a minute
    after each reload. gunicorn's own handler still runs."""
    from games import events

    namespace: dict = {}
    exec((ROOT / "gunicorn.conf.py").read_text(), namespace)
    worker = _Worker()
    before = signal.getsignal(signal.SIGTERM)
    try:
        namespace["post_worker_init"](worker)
        handler = signal.getsignal(signal.SIGTERM)
        assert handler is not before and not events._stopping.is_set()
        handler(signal.SIGTERM, None)
        assert events._stopping.is_set() and not worker.alive
    finally:
        gc.unfreeze()
        signal.signal(signal.SIGTERM, before)
        events._stopping.clear()


def test_gunicorn_opens_no_control_socket_in_the_home_directory(tmp_path) -> None:
    """gunicorn 25.1 and later open a control socket in $HOME/.gunicorn by default; two servers
    of one account (a bench beside ``make run``) took the same one. The config turns it off."""
    import signal
    import socket
    import subprocess
    import sys
    import time

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "HOME": str(tmp_path), "DJANGO_DEBUG": "1"}
    env.pop("XDG_RUNTIME_DIR", None)
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "greatgame.wsgi", "--config", "gunicorn.conf.py",
         "--bind", f"127.0.0.1:{port}", "--workers", "1"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as client:
                if client.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.2)
        else:
            raise AssertionError("gunicorn did not start")
        time.sleep(2)  # the control socket came some 0.1 s after the listening one
        assert not (tmp_path / ".gunicorn").exists()
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)


# -- 6. staff is not moderator ------------------------------------------------------------


@pytest.fixture
def secrets_in_game(game, seat):
    """France has orders for the unprocessed phase and private press with England."""
    france, england = seat(game, "France"), seat(game, "England")
    services.submit_orders(france, ["A Paris H"])
    services.send_message(game, france.user, "secret channel 9q", ["England"])
    return france, england


def _moderate_any_game(user):
    user.user_permissions.add(Permission.objects.get(codename="moderate_any_game"))
    return type(user).objects.get(pk=user.pk)  # forget the cached permissions


@pytest.mark.django_db
def test_staff_without_permission_sees_no_secrets_and_moderates_nothing(
    api, game, secrets_in_game, make_user
) -> None:
    staff = make_user("staffer", is_staff=True)
    client = api(staff)
    assert client.get(f"/api/games/{game.pk}/orders/").status_code == 403
    assert client.get(f"/api/games/{game.pk}/messages/").status_code == 403
    assert client.post(f"/api/games/{game.pk}/moderation/pause/", {}).status_code == 403
    assert client.get(f"/api/games/{game.pk}/").json()["is_moderator"] is False
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE

    web = Client()
    web.force_login(staff)
    assert web.get(reverse("moderate", args=[game.pk])).status_code == 403
    assert "secret channel 9q" not in web.get(reverse("game", args=[game.pk])).text
    with pytest.raises(PermissionError):
        services.pause(game, staff)


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["site moderator", "superuser"])
def test_a_site_moderator_or_superuser_moderates_every_game(
    api, game, secrets_in_game, make_user, who
) -> None:
    if who == "superuser":
        user = make_user("root", is_staff=True, is_superuser=True)
    else:  # the permission alone, without admin access
        user = _moderate_any_game(make_user("sitemod"))
    client = api(user)
    orders = client.get(f"/api/games/{game.pk}/orders/")
    assert orders.status_code == 200
    assert "A Paris H" in json.dumps(orders.json())
    assert "secret channel 9q" in json.dumps(client.get(f"/api/games/{game.pk}/messages/").json())
    assert client.post(f"/api/games/{game.pk}/moderation/pause/", {}).status_code == 200
    game.refresh_from_db()
    assert game.status == Game.Status.PAUSED


def _admin_form_data(response) -> dict[str, str]:
    """The admin change form as the browser would post it back, unchanged."""
    data: dict[str, str] = {}
    forms = [response.context["adminform"].form]
    for inline in response.context["inline_admin_formsets"]:
        forms.append(inline.formset.management_form)
        forms.extend(inline.formset.forms)
    for form in forms:
        for field in form:
            value = field.value()
            if value is None or value is False:
                continue
            data[field.html_name] = "on" if value is True else str(value)
    return data


@pytest.mark.django_db
def test_admin_edits_go_through_the_moderator_check_and_into_the_audit_log(game, make_user) -> None:
    url = reverse("admin:games_game_change", args=[game.pk])
    staff = make_user("clerk", is_staff=True)
    staff.user_permissions.add(*Permission.objects.filter(codename__in=["change_game"]))
    clerk = Client()
    clerk.force_login(staff)
    data = _admin_form_data(clerk.get(url))
    data["name"] = "Renamed by a clerk"
    assert clerk.post(url, data).status_code == 403
    game.refresh_from_db()
    assert game.name == "Test game"

    boss = Client()
    boss.force_login(make_user("boss", is_staff=True, is_superuser=True))
    data = _admin_form_data(boss.get(url))
    data["name"] = "Renamed"
    data["movement_minutes"] = "90"
    assert boss.post(url, data).status_code == 302
    game.refresh_from_db()
    assert (game.name, game.movement_minutes) == ("Renamed", 90)
    entry = ModeratorAction.objects.filter(game=game, action="settings").get()
    assert entry.user.username == "boss"
    assert entry.details == {
        "name": {"old": "Test game", "new": "Renamed"},
        "movement_minutes": {"old": 24 * 60, "new": 90},
    }


@pytest.mark.django_db
def test_a_seat_changes_in_the_admin_only_through_the_logged_actions(game, seat, make_user):
    """Found by an adversary: the seat's "removed" could be ticked off on the game's and the
    seat's admin pages, letting a removed player take the power back, with nothing in the log."""
    france = seat(game, "France")
    Membership.objects.filter(pk=france.pk).update(removed=True, status="civil_disorder")
    logged = ModeratorAction.objects.filter(game=game).count()
    boss = Client()
    boss.force_login(make_user("boss", is_staff=True, is_superuser=True))
    for url in (
        reverse("admin:games_game_change", args=[game.pk]),
        reverse("admin:games_membership_change", args=[france.pk]),
    ):
        data = _admin_form_data(boss.get(url))
        for name in [k for k in data if k.endswith("removed")]:
            del data[name]  # the box ticked off, as the adversary did
        data.update({k: "0" for k in data if k.endswith("missed_phases")})
        assert boss.post(url, data).status_code == 302, url
        france.refresh_from_db()
        assert france.removed and france.status == "civil_disorder", url
    assert ModeratorAction.objects.filter(game=game).count() == logged


# -- 7. headers and caches ----------------------------------------------------------------

SCRIPT_TAG = re.compile(r"<script\b([^>]*)>", re.IGNORECASE)
EVENT_HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.IGNORECASE)


@pytest.mark.django_db
def test_every_page_has_a_csp_and_no_inline_script(game, seat) -> None:
    client = Client()
    client.force_login(seat(game, "France").user)
    pages = [
        reverse("lobby"),
        reverse("game", args=[game.pk]),
        reverse("variant", args=["colonial"]),
        reverse("create-game"),
        reverse("account-settings"),
        "/api/docs/",
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        policy = response["Content-Security-Policy"]
        assert "default-src 'self'" in policy and "object-src 'none'" in policy, url
        script_src = re.search(r"script-src ([^;]*)", policy).group(1)
        assert "'unsafe-inline'" not in script_src and "'unsafe-eval'" not in script_src, url
        html = response.content.decode()
        assert not EVENT_HANDLER.search(html), url
        for attributes in SCRIPT_TAG.findall(html):
            # Only scripts from our origin, or data blocks that never run.
            src = re.search(r'src="([^"]*)"', attributes)
            if src is None:
                assert 'type="application/json"' in attributes, (url, attributes)
            else:
                assert src.group(1).startswith("/"), (url, attributes)

    # The game page's own script carries the nonce the header names.
    response = client.get(reverse("game", args=[game.pk]))
    nonce = re.search(r"'nonce-([^']+)'", response["Content-Security-Policy"]).group(1)
    assert f'nonce="{nonce}"' in response.content.decode()


@pytest.mark.django_db
def test_the_api_docs_load_nothing_from_elsewhere() -> None:
    response = Client().get("/api/docs/")
    html = response.content.decode()
    assert "cdn" not in html.lower() and "//" not in re.sub(r"<!DOCTYPE[^>]*>", "", html)
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert any("swagger-ui-bundle.js" in a for a in assets), assets
    script = Client().get("/api/docs/?script=")
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in script.content.decode()


@pytest.mark.django_db
def test_answers_with_secrets_are_not_cached(api, game, secrets_in_game) -> None:
    france, _ = secrets_in_game
    client = api(france.user)
    for url in (
        f"/api/games/{game.pk}/orders/",
        f"/api/games/{game.pk}/messages/",
        f"/api/games/{game.pk}/",
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        directives = {d.strip() for d in response["Cache-Control"].split(",")}
        assert {"private", "no-store"} <= directives, url
    page = Client()
    page.force_login(france.user)
    assert "no-store" in page.get(reverse("game", args=[game.pk]))["Cache-Control"]


def test_a_signed_in_answer_says_what_djangos_cache_control_would() -> None:
    """The middleware writes the header itself; it must read as Django's own would."""
    from django.http import HttpRequest, HttpResponse
    from django.utils.cache import patch_cache_control

    from games.middleware import PrivateCacheMiddleware

    expected = HttpResponse()
    patch_cache_control(expected, private=True, no_store=True)
    request = HttpRequest()
    request.user = type("Signed", (), {"is_authenticated": True})()
    answered = PrivateCacheMiddleware(lambda r: HttpResponse())(request)
    assert answered["Cache-Control"] == expected["Cache-Control"]
    kept = HttpResponse()
    kept["Cache-Control"] = "max-age=60"
    assert PrivateCacheMiddleware(lambda r: kept)(request)["Cache-Control"] == "max-age=60"


@pytest.fixture
def browser(monkeypatch):
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail("Chromium is missing in CI")
        pytest.skip("Debian's chromium is not installed")
    from django.db import connections
    from playwright.sync_api import sync_playwright

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield browser
        browser.close()
        connections.close_all()


# Playwright's init script runs outside the page's CSP; it records every violation.
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__violations.push(e.violatedDirective + " " + e.blockedURI);
});
"""


@pytest.mark.django_db(transaction=True)
def test_no_csp_violation_in_a_real_browser(browser, live_server, make_game, seat) -> None:
    game = make_game("colonial")
    player = seat(game, game.memberships.exclude(power="").first().power).user
    context = browser.new_context()
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    page.set_default_timeout(15_000)
    console, requests = [], []
    page.on("console", lambda m: console.append(m.text))
    page.on("request", lambda r: requests.append(r.url))

    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", player.username)
    page.fill("#id_password", "pw")
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    seen = {"lobby": page.evaluate("window.__violations")}

    page.goto(f"{live_server.url}/games/{game.pk}/")
    # board.js ran (it marks the page), live.js fetched the board and the event stream.
    page.wait_for_selector("html.js", state="attached")
    page.wait_for_selector("#board svg")
    assert page.locator("#board svg").count() == 1
    page.wait_for_selector("#live[data-seen-powers]", state="attached")
    seen["game"] = page.evaluate("window.__violations")

    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector(".swagger-ui .info .title")
    assert "Great Game API" in page.inner_text(".swagger-ui .info .title")
    seen["docs"] = page.evaluate("window.__violations")

    assert seen == {"lobby": [], "game": [], "docs": []}
    assert not [m for m in console if "Content Security Policy" in m], console
    assert all(url.startswith((live_server.url, "data:")) for url in requests), requests


# -- 9. client addresses ------------------------------------------------------------------


def test_the_client_address_is_the_rightmost_one_no_trusted_proxy_wrote() -> None:
    from games.middleware import client_address

    proxies = ["10.0.0.0/8", "127.0.0.1"]
    assert client_address("203.0.113.5", "1.2.3.4", proxies) == "203.0.113.5"
    assert client_address("127.0.0.1", "198.51.100.2", proxies) == "198.51.100.2"
    assert client_address("10.0.0.5", "6.6.6.6, 198.51.100.2, 10.0.0.7", proxies) == (
        "198.51.100.2"
    )
    assert client_address("10.0.0.5", "not-an-ip, 10.0.0.7", proxies) == "10.0.0.7"
    assert client_address("10.0.0.5", "", proxies) == "10.0.0.5"
    assert client_address("10.0.0.5", "1.2.3.4", []) == "10.0.0.5"


def test_production_ignores_x_forwarded_for_from_the_client(tmp_path) -> None:
    """Production with no trusted proxy: a fresh X-Forwarded-For on each attempt gets no
    fresh budget (the second sign-in attempt at 1/min is refused)."""
    code = (
        "from django.test import Client\n"
        "client = Client(REMOTE_ADDR='198.51.100.7', raise_request_exception=False)\n"
        "for n in range(2):\n"
        "    answer = client.post('/api/auth/token/', {'username': 'a', 'password': 'b'},"
        " HTTP_X_FORWARDED_FOR=f'203.0.113.{n}')\n"
        "    print('RESULT', answer.status_code)\n"
    )
    database = f"sqlite:///{tmp_path / 'empty.sqlite3'}"  # the second answer needs none
    env = _production_env(THROTTLE_AUTH="1/min", DATABASE_URL=database)
    assert _results(_django(code, env))[1] == "429"
    # Behind a configured proxy the clients it names are told apart.
    env["TRUSTED_PROXIES"] = "198.51.100.0/24"
    assert _results(_django(code, env))[1] != "429"


@pytest.mark.django_db
def test_rate_limits_count_the_address_a_trusted_proxy_names(settings) -> None:
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"auth": "1/min", "orders": None},
    }
    cache.clear()

    def attempt(peer: str, forwarded_for: str) -> int:
        client = Client(REMOTE_ADDR=peer)
        data = {"username": "nobody", "password": "wrong"}
        return client.post("/api/auth/token/", data, HTTP_X_FORWARDED_FOR=forwarded_for).status_code

    assert attempt("10.0.0.5", "203.0.113.1") == 400
    assert attempt("10.0.0.5", "203.0.113.2") == 400  # another client behind the proxy
    assert attempt("10.0.0.6", "203.0.113.2") == 429  # the same client, whichever proxy
    assert attempt("10.0.0.5", "192.0.2.99, 203.0.113.1") == 429  # its own prefix is ignored
    # Straight to the port, a client's X-Forwarded-For is dropped.
    assert attempt("198.51.100.3", "192.0.2.1") == 400
    assert attempt("198.51.100.3", "192.0.2.2") == 429
    cache.clear()


def test_the_production_stack_publishes_the_web_port_on_loopback_only() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    for name, service in compose["services"].items():
        for port in service.get("ports", []):
            assert str(port).startswith("127.0.0.1:"), (name, port)
    assert compose["services"]["web"]["ports"] == ["127.0.0.1:8000:8000"]
    assert "TRUSTED_PROXIES" in compose["services"]["web"]["environment"]


# -- 10. the embedded SQLite under concurrent players -------------------------------------

CONCURRENT_PLAY = """
import json, threading
from django.core.management import call_command
from django.contrib.auth import get_user_model
from django.db import connection
from games import engine, services, visibility

call_command("migrate", verbosity=0)
services._enqueue = lambda *args, **kwargs: None  # no worker here; keep var/broker clean
User = get_user_model()
mod = User.objects.create_user("mod", password="pw")
game = services.create_game(mod, name="busy", variant="standard")
for power in engine.powers(game):
    services.join_game(game, User.objects.create_user("p_" + power, password="pw"), [power])
game.refresh_from_db()
if game.status == "forming":
    services.start_game(game, mod)
    game.refresh_from_db()
seats = list(game.memberships.select_related("user"))
journal = connection.cursor().execute("PRAGMA journal_mode").fetchone()[0]
barrier = threading.Barrier(len(seats))
failures, done = [], []

def play(seat):
    barrier.wait()
    try:
        for n in range(ROUNDS):
            try:
                services.submit_orders(seat, [f"A Paris H {n}"])
                services.send_message(game, seat.user, f"round {n}")
                services.set_ready(seat, False)
                visibility.visible_messages(game, seat.user)
                done.append(1)
            except Exception as error:
                failures.append(f"{type(error).__name__}: {error}")
    finally:
        connection.close()

threads = [threading.Thread(target=play, args=(seat,)) for seat in seats]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print("RESULT", json.dumps({"journal": journal, "done": len(done), "failures": failures}))
"""


def test_the_embedded_sqlite_serves_concurrent_players_without_locking_errors(tmp_path) -> None:
    rounds = 8
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE")
    }
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        DJANGO_SETTINGS_MODULE="greatgame.settings",
    )
    out = _django(f"ROUNDS = {rounds}\n" + CONCURRENT_PLAY, env, timeout=300)
    result = json.loads(_results(out)[-1])
    assert result["failures"] == []
    assert result["journal"] == "wal"
    assert result["done"] == 7 * rounds


# -- /healthz: is the worker alive? --------------------------------------------------------


@pytest.mark.django_db
def test_healthz_says_503_until_the_sweep_has_run_and_when_it_goes_stale(settings) -> None:
    """A dead Celery worker (or beat) processes no deadline: /healthz says so with a 503 once
    the sweep's heartbeat is older than HEALTH_SWEEP_STALE_SECONDS, or was never written. Its
    answer holds ages and booleans only, for anyone: no host, version or secret."""
    from datetime import timedelta

    from django.utils import timezone

    from games import health, tasks
    from games.models import Heartbeat

    client = Client()
    never = client.get("/healthz")
    assert never.status_code == 503
    assert never.json() == {
        "ok": False,
        "worker": {
            "ok": False,
            "database": True,
            "last_sweep_seconds_ago": None,
            "stale_after_seconds": 300,
        },
    }
    tasks.sweep()  # what beat sends every minute and a worker runs
    health.forget()
    alive = client.get("/healthz")
    assert alive.status_code == 200, alive.content
    assert alive.json()["ok"] is True and alive.json()["worker"]["last_sweep_seconds_ago"] < 5
    # The answer is kept a few seconds: a probe every second reads the database seldom.
    Heartbeat.objects.update(at=timezone.now() - timedelta(minutes=10))
    assert client.get("/healthz").status_code == 200
    health.forget()
    stale = client.get("/healthz")
    assert stale.status_code == 503
    assert stale.json()["worker"]["last_sweep_seconds_ago"] >= 600
    settings.HEALTH_SWEEP_STALE_SECONDS = 900
    health.forget()
    assert client.get("/healthz").status_code == 200
    # The web alone, for a proxy deciding where to send requests: no database, no worker.
    assert client.get("/healthz?only=web").json() == {"ok": True}


@pytest.mark.django_db
def test_healthz_says_503_when_the_database_does_not_answer(monkeypatch) -> None:
    from django.db import DatabaseError

    from games.models import Heartbeat

    def broken(*args, **kwargs):
        raise DatabaseError("connection refused to db.internal:5432 password=secret")

    monkeypatch.setattr(Heartbeat.objects, "filter", broken)
    answer = Client().get("/healthz")
    assert answer.status_code == 503
    assert answer.json()["worker"]["database"] is False
    assert b"secret" not in answer.content and b"db.internal" not in answer.content


@pytest.mark.parametrize(
    "path", ["/static/..%2f..%2fmanage.py", "/static/%2e%2e/%2e%2e/manage.py", "/static/../x"]
)
def test_dev_server_answers_a_path_out_of_static_with_404(path: str, settings) -> None:
    """``make run``'s runserver serves static files with WhiteNoise, through the middleware:
    Django's own static handler answered a path climbing out of static/ with a 500."""
    from django.core.management import get_commands, load_command_class
    from django.test import RequestFactory

    settings.DEBUG = True  # as under make run: WhiteNoise then reads static files where they lie
    runserver = load_command_class(get_commands()["runserver"], "runserver")
    options = runserver.create_parser("manage.py", "runserver").parse_args([])  # as make run's
    handler = runserver.get_handler(**vars(options))
    environ = RequestFactory().get("/").environ
    environ["PATH_INFO"] = path.replace("%2f", "/").replace("%2e", ".")
    answered: list[str] = []
    body = b"".join(handler(environ, lambda status, headers, *a: answered.append(status)))
    assert answered[0].startswith("404"), answered
    assert b"Traceback" not in body
    served: list[str] = []
    environ["PATH_INFO"] = "/static/board.js"
    js = b"".join(handler(environ, lambda status, headers, *a: served.append(status)))
    assert served[0].startswith("200") and b"function" in js
