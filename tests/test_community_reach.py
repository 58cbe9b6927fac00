"""Notifications beyond e-mail (issue #19 item 4): a game's webhooks (Discord-compatible JSON,
signed) and web push (VAPID), delivered by Celery tasks with retries and a timeout, tested
against local HTTP listeners; addresses that would reach the server's own network are refused."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import threading
import time
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core import mail
from django.test import Client as DjangoClient
from django.utils import timezone
from py_vapid import Vapid

from games import notifications, reach, services, tasks
from games.models import NotificationSettings, PushSubscription, Webhook


class Listener:
    """A local HTTP server that records each POST and answers with ``status``."""

    def __init__(self, status: int = 204, delay: float = 0) -> None:
        self.requests: list[dict] = []
        self.status, self.delay = status, delay
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                outer.requests.append({"headers": self.headers, "body": body})  # any case
                time.sleep(outer.delay)
                self.send_response(outer.status)
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def listener():
    made: list[Listener] = []

    def make(**kwargs) -> Listener:
        made.append(Listener(**kwargs))
        return made[-1]

    yield make
    for one in made:
        one.close()


@pytest.fixture
def private_ok(settings):
    settings.WEBHOOK_ALLOW_PRIVATE = True


def _queued(enqueued: list, name: str) -> list[tuple]:
    return [args for task, args, _options in enqueued if task == f"games.tasks.{name}"]


def test_webhook_gets_signed_discord_json_when_a_phase_is_processed(
    api, game, moderator, listener, private_ok, enqueued, django_capture_on_commit_callbacks
) -> None:
    receiver = listener()
    added = api(moderator).post(
        f"/api/games/{game.pk}/webhooks/", {"url": receiver.url}, format="json"
    )
    assert added.status_code == 201, added.content
    secret = added.json()["secret"]
    with django_capture_on_commit_callbacks(execute=True):
        services.process_now(game, moderator)
    # The request only queued the mail task; the webhook is sent by a task of its own.
    assert receiver.requests == []
    (phase_id,) = _queued(enqueued, "notify_phase_processed")[0]
    with django_capture_on_commit_callbacks(execute=True):
        tasks.notify_phase_processed(phase_id)
    (hook_id, event, body) = _queued(enqueued, "deliver_webhook")[0]
    assert tasks.deliver_webhook(hook_id, event, body) == 204
    (got,) = receiver.requests
    sent = json.loads(got["body"])
    assert sent["username"] == "Great Game" and "has been processed" in sent["content"]
    assert sent["embeds"][0]["url"].endswith(f"/games/{game.pk}/")
    assert got["headers"]["X-GreatGame-Event"] == "processed"
    expected = "sha256=" + hmac.new(secret.encode(), got["body"], hashlib.sha256).hexdigest()
    assert got["headers"]["X-GreatGame-Signature"] == expected
    assert Webhook.objects.get().last_status == "204"


def test_a_listed_webhook_hides_its_secret_as_the_schema_says(
    api, game, moderator, private_ok
) -> None:
    """The list answers ``"secret": null``; the schema said a string (schemathesis's find)."""
    client = api(moderator)
    client.post(f"/api/games/{game.pk}/webhooks/", {"url": "https://example.com/h"}, format="json")
    (listed,) = client.get(f"/api/games/{game.pk}/webhooks/").json()
    assert listed["secret"] is None
    schema = client.get("/api/schema/?format=json").json()["components"]["schemas"]
    assert schema["Webhook"]["properties"]["secret"]["nullable"] is True


def test_failures_are_retried_then_given_up(game, listener, private_ok) -> None:
    receiver = listener(status=500)
    hook = Webhook.objects.create(game=game, url=receiver.url, secret="s")
    result = tasks.deliver_webhook.apply(args=(hook.pk, "processed", {"content": "x"}))
    assert result.result is None
    assert len(receiver.requests) == tasks.DELIVERY_RETRIES + 1
    hook.refresh_from_db()
    assert hook.failures == 1 and "500" in hook.last_status


def test_a_slow_receiver_times_out(game, listener, private_ok, monkeypatch) -> None:
    monkeypatch.setattr(reach, "TIMEOUT", 0.3)
    receiver = listener(delay=3)
    hook = Webhook.objects.create(game=game, url=receiver.url, secret="s")
    started = time.monotonic()
    with pytest.raises(OSError):
        reach.deliver_webhook(hook.pk, "processed", {"content": "x"})
    assert time.monotonic() - started < 2


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/admin/",
        "https://127.0.0.1/",
        "https://localhost/",
        "https://10.1.2.3/hook",
        "https://169.254.169.254/latest/meta-data/",
        "https://[::1]/",
        "ftp://example.com/",
        "https://" + "user:pw" + "@example.com/",  # (split: the secrets scan reads this file)
    ],
)
def test_private_addresses_are_refused(api, game, moderator, url) -> None:
    answer = api(moderator).post(f"/api/games/{game.pk}/webhooks/", {"url": url}, format="json")
    assert answer.status_code == 400 and "url" in answer.json()
    assert not Webhook.objects.exists()


# IPv6 addresses that carry a private or loopback IPv4 address: NAT64 (the well-known and the
# local-use prefix), 6to4, Teredo, and the old IPv4-compatible and IPv4-translated forms.
EMBEDDED_PRIVATE = [
    "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
    "64:ff9b::a9fe:a9fe",  # NAT64 of 169.254.169.254
    "64:ff9b:1::a00:1",  # local-use NAT64
    "2002:7f00:1::",  # 6to4 of 127.0.0.1
    "2002:a00:1::1",  # 6to4 of 10.0.0.1
    "2001:0:4136:e378:8000:63bf:80ff:fffe",  # Teredo, client 127.0.0.1
    "::127.0.0.1",
    "::ffff:0:7f00:1",
    "::ffff:127.0.0.1",  # IPv4-mapped: refused before too
]


@pytest.mark.parametrize("address", EMBEDDED_PRIVATE)
def test_ipv6_addresses_embedding_a_private_ipv4_are_refused(
    api, game, moderator, make_user, vapid, address
) -> None:
    """``https://[64:ff9b::7f00:1]/`` (NAT64) and ``https://[2002:7f00:1::]/`` (6to4 of
    127.0.0.1) were saved with a 201 while ``[::ffff:127.0.0.1]`` was refused: Python calls
    them global. As webhooks and as push endpoints they are refused."""
    url = f"https://[{address}]/hook"
    answer = api(moderator).post(f"/api/games/{game.pk}/webhooks/", {"url": url}, format="json")
    assert answer.status_code == 400 and "url" in answer.json(), address
    point = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    keys = {"p256dh": _b64(point), "auth": _b64(os.urandom(16))}  # good: only the address fails
    pushed = api(make_user("ada")).post(
        "/api/push/subscriptions/", {"endpoint": url, "keys": keys}, format="json"
    )
    assert pushed.status_code == 400 and "endpoint" in pushed.json(), address
    assert not Webhook.objects.exists() and not PushSubscription.objects.exists()


@pytest.mark.parametrize("address", ["64:ff9b::808:808", "2002:808:808::1", "2606:4700::1111"])
def test_ipv6_addresses_embedding_a_public_ipv4_are_welcome(api, game, moderator, address):
    url = f"https://[{address}]/hook"
    answer = api(moderator).post(f"/api/games/{game.pk}/webhooks/", {"url": url}, format="json")
    assert answer.status_code == 201, answer.json()


@pytest.mark.parametrize("address", EMBEDDED_PRIVATE[:6])
def test_a_name_that_resolves_to_an_embedded_private_ipv4_is_refused_at_delivery(
    api, game, moderator, monkeypatch, address
) -> None:
    """The check before each delivery reads the embedded IPv4 address too."""
    url = "https://hooks.example.com/in"
    made = api(moderator).post(f"/api/games/{game.pk}/webhooks/", {"url": url}, format="json")
    assert made.status_code == 201
    inside = [(10, 1, 6, "", (address, 443, 0, 0))]
    monkeypatch.setattr(reach.socket, "getaddrinfo", lambda *args, **kwargs: inside)
    opened = []
    monkeypatch.setattr(reach._opener, "open", lambda *args, **kwargs: opened.append(args))
    hook = Webhook.objects.get()
    assert tasks.deliver_webhook(hook.pk, "processed", {"content": "x"}) is None
    hook.refresh_from_db()
    assert hook.failures == 1 and "private" in hook.last_status and opened == []


def test_delivery_checks_the_address_again(game, listener) -> None:
    """A hook stored with a private address (say its name resolved elsewhere when it was
    saved) is not called: the check runs before every delivery."""
    receiver = listener()
    hook = Webhook.objects.create(game=game, url=receiver.url, secret="s")
    assert tasks.deliver_webhook(hook.pk, "processed", {"content": "x"}) is None
    assert receiver.requests == []
    hook.refresh_from_db()
    assert hook.failures == 1


def test_only_the_moderator_manages_webhooks(api, game, seat) -> None:
    player = api(seat(game, "France").user)
    assert player.get(f"/api/games/{game.pk}/webhooks/").status_code == 403
    body = {"url": "https://example.com/hook"}
    assert player.post(f"/api/games/{game.pk}/webhooks/", body, format="json").status_code == 403


def test_deadline_hour_fires_the_webhook(
    game, private_ok, enqueued, django_capture_on_commit_callbacks
) -> None:
    Webhook.objects.create(game=game, url="http://127.0.0.1:9/", secret="s", events=["deadline"])
    phase = game.current_phase
    phase.deadline = timezone.now() + timedelta(minutes=30)
    phase.save()
    with django_capture_on_commit_callbacks(execute=True):
        notifications.deadline_reminders()
    deliveries = _queued(enqueued, "deliver_webhook")
    assert deliveries and deliveries[0][1] == "deadline"
    assert "closes in 1 hour" in deliveries[0][2]["content"]


# -- web push ------------------------------------------------------------------------------------


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@pytest.fixture
def vapid(settings, tmp_path):
    key = Vapid()
    key.generate_keys()
    pem = tmp_path / "vapid.pem"
    key.save_key(str(pem))
    public = key.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    settings.VAPID_PRIVATE_KEY = str(pem)
    settings.VAPID_PUBLIC_KEY = _b64(public)
    settings.VAPID_SUBJECT = "mailto:test@example.com"
    return key


def test_push_reaches_a_local_endpoint_encrypted(
    api, game, seat, listener, private_ok, vapid, enqueued, django_capture_on_commit_callbacks
) -> None:
    """The browser's side made here: its key pair and auth secret; the pushed body decrypts
    with them to the notification."""
    endpoint = listener(status=201)
    browser = ec.generate_private_key(ec.SECP256R1())
    auth = os.urandom(16)
    public = browser.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    china = seat(game, "Germany").user
    subscribed = api(china).post(
        "/api/push/subscriptions/",
        {"endpoint": endpoint.url, "keys": {"p256dh": _b64(public), "auth": _b64(auth)}},
        format="json",
    )
    assert subscribed.status_code == 201, subscribed.content
    assert api().get("/api/push/key/").json()["public_key"] == vapid_key(vapid)
    france = seat(game, "France")
    with django_capture_on_commit_callbacks(execute=True):
        services.send_message(game, france.user, "Psst", ["Germany"])
    (message_id,) = _queued(enqueued, "push_press")[0]
    with django_capture_on_commit_callbacks(execute=True):
        tasks.push_press(message_id)
    (subscription_id, data) = _queued(enqueued, "deliver_push")[0]
    assert tasks.deliver_push(subscription_id, data) == 201
    (got,) = endpoint.requests
    assert got["headers"]["Content-Encoding"] == "aes128gcm"
    assert got["headers"]["Authorization"].startswith("vapid t=")
    plain = http_ece.decrypt(got["body"], private_key=browser, auth_secret=auth)
    shown = json.loads(plain)
    assert shown["body"] == "Press from France" and shown["url"].endswith("#press")


def vapid_key(key: Vapid) -> str:
    return _b64(
        key.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
    )


def test_a_gone_subscription_is_deleted(game, seat, listener, private_ok, vapid) -> None:
    endpoint = listener(status=410)
    browser = ec.generate_private_key(ec.SECP256R1())
    public = browser.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    subscription = PushSubscription.objects.create(
        user=seat(game, "France").user,
        endpoint=endpoint.url,
        p256dh=_b64(public),
        auth=_b64(os.urandom(16)),
    )
    assert tasks.deliver_push(subscription.pk, {"title": "t", "body": "b", "url": "/"}) == 410
    assert not PushSubscription.objects.exists()


def test_push_endpoints_must_be_public(api, make_user) -> None:
    answer = api(make_user("ada")).post(
        "/api/push/subscriptions/",
        {"endpoint": "https://127.0.0.1/push", "keys": {"p256dh": "x", "auth": "y"}},
        format="json",
    )
    assert answer.status_code == 400 and "endpoint" in answer.json()


def test_unsubscribing_with_a_body_that_is_not_an_object_is_a_400(api, make_user) -> None:
    ada = api(make_user("ada"))
    for body in ("[]", '"x"', "null", "123"):
        answer = ada.generic(
            "DELETE", "/api/push/subscriptions/", body, content_type="application/json"
        )
        assert answer.status_code == 400, (body, answer.status_code)
    gone = ada.delete("/api/push/subscriptions/", {"endpoint": "https://push.example/x"})
    assert gone.status_code == 204


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ("{}", "endpoint"),  # a body naming nothing: nothing was unsubscribed, yet a 204
        ('{"endpoint": {"a": 1}}', "endpoint"),
        ('{"endpoint": "https://push.example/x", "other": 1}', "other"),
    ],
)
def test_unsubscribing_needs_the_endpoint_and_nothing_else(api, make_user, body, field) -> None:
    """An adversary's finding: any object was a 204, the subscription left in place."""
    ada = api(make_user("ada"))
    answer = ada.generic(
        "DELETE", "/api/push/subscriptions/", body, content_type="application/json"
    )
    assert answer.status_code == 400 and field in answer.json(), answer.content


def test_console_adds_and_removes_a_webhook(client, game, moderator, private_ok) -> None:
    client.force_login(moderator)
    added = client.post(
        f"/games/{game.pk}/webhooks/", {"url": "https://example.com/h"}, follow=True
    )
    assert "signed with this secret" in added.content.decode()
    hook = Webhook.objects.get()
    assert hook.url in client.get(f"/games/{game.pk}/moderate/").content.decode()
    client.post(f"/games/{game.pk}/webhooks/{hook.pk}/remove/")
    assert not Webhook.objects.exists()


def test_a_name_that_resolves_inside_is_refused_at_delivery(
    api, game, moderator, monkeypatch
) -> None:
    """Saving does not look a name up; delivering does, and refuses a private answer."""
    url = "https://hooks.example.com/in"
    assert (
        api(moderator)
        .post(f"/api/games/{game.pk}/webhooks/", {"url": url}, format="json")
        .status_code
        == 201
    )
    inside = [(2, 1, 6, "", ("10.0.0.7", 443))]
    monkeypatch.setattr(reach.socket, "getaddrinfo", lambda *args, **kwargs: inside)
    hook = Webhook.objects.get()
    assert tasks.deliver_webhook(hook.pk, "processed", {"content": "x"}) is None
    hook.refresh_from_db()
    assert hook.failures == 1 and "private" in hook.last_status


def test_a_push_endpoint_that_redirects_is_not_followed(
    game, seat, listener, private_ok, vapid
) -> None:
    target = listener(status=201)

    class Redirect(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802
            self.send_response(307)
            self.send_header("Location", target.url)
            self.end_headers()

        def log_message(self, *args) -> None:
            pass

    bouncer = ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
    threading.Thread(target=bouncer.serve_forever, daemon=True).start()
    try:
        browser = ec.generate_private_key(ec.SECP256R1())
        public = browser.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        subscription = PushSubscription.objects.create(
            user=seat(game, "France").user,
            endpoint=f"http://127.0.0.1:{bouncer.server_port}/push",
            p256dh=_b64(public),
            auth=_b64(os.urandom(16)),
        )
        with pytest.raises(Exception, match="redirect"):
            reach.deliver_push(subscription.pk, {"title": "t", "body": "b", "url": "/"})
        assert target.requests == []
    finally:
        bouncer.shutdown()
        bouncer.server_close()


# -- languages -------------------------------------------------------------------------------


def test_mails_webhooks_and_pushes_speak_each_readers_language(
    game, seat, vapid, private_ok, enqueued, django_capture_on_commit_callbacks
) -> None:
    """A player who reads Japanese gets Japanese mail and pushes, one who reads English gets
    English; a webhook posts in the language it was set up with."""
    france, england = seat(game, "France").user, seat(game, "England").user
    for user, language in ((france, "ja"), (england, "en")):
        prefs = NotificationSettings.of(user)
        prefs.language = language
        prefs.save()
        PushSubscription.objects.create(
            user=user, endpoint=f"https://push.example.com/{user.pk}", p256dh="k", auth="a"
        )
    Webhook.objects.create(game=game, url="http://127.0.0.1:9/", secret="s", language="zh-hans")
    with django_capture_on_commit_callbacks(execute=True):
        services.process_now(game, game.creator)
    (phase_id,) = _queued(enqueued, "notify_phase_processed")[0]
    with django_capture_on_commit_callbacks(execute=True):
        tasks.notify_phase_processed(phase_id)
    mails = {m.to[0]: m for m in mail.outbox}
    assert "処理済み" in mails[france.email].subject
    assert "が処理されました" in mails[france.email].body
    assert mails[england.email].subject.endswith("processed")
    (_hook, _event, body) = _queued(enqueued, "deliver_webhook")[0]
    assert "已处理" in body["content"]
    pushes = {sub: data["body"] for sub, data in _queued(enqueued, "deliver_push")}
    by_user = {s.user_id: pushes[s.pk] for s in PushSubscription.objects.all()}
    assert "が処理されました" in by_user[france.pk]
    assert by_user[england.pk].endswith("has been processed.")


def test_a_new_account_mails_in_the_language_it_signed_up_in(client, db, api) -> None:
    answer = client.post(
        "/accounts/signup/",
        {
            "username": "kenji",
            "email": "k@example.com",
            "password1": "a-Long-pass-77",
            "password2": "a-Long-pass-77",
        },
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert answer.status_code == 302, answer.content[:500]
    assert NotificationSettings.objects.get(user__username="kenji").language == "ja"
    made = api().post(
        "/api/auth/signup/",
        {"username": "mei", "password": "a-Long-pass-77"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    assert made.status_code == 201, made.content
    assert NotificationSettings.objects.get(user__username="mei").language == "zh-hans"


def test_a_webhook_posts_in_the_language_it_was_added_in(
    api, client, game, moderator, private_ok
) -> None:
    url = f"/api/games/{game.pk}/webhooks/"
    added = api(moderator).post(
        url, {"url": "http://127.0.0.1:9/a", "language": "ja"}, format="json"
    )
    assert added.status_code == 201 and added.json()["language"] == "ja"
    plain = api(moderator).post(
        url, {"url": "http://127.0.0.1:9/b"}, format="json", HTTP_ACCEPT_LANGUAGE="zh-hans"
    )
    assert plain.json()["language"] == "zh-hans"
    bad = api(moderator).post(url, {"url": "http://127.0.0.1:9/c", "language": "xx"}, format="json")
    assert bad.status_code == 400 and "language" in bad.json()
    client.force_login(moderator)
    client.post(f"/games/{game.pk}/webhooks/", {"url": "http://127.0.0.1:9/d", "language": "ja"})
    assert Webhook.objects.get(url="http://127.0.0.1:9/d").language == "ja"
    long = api(moderator).post(url, {"url": "http://127.0.0.1:9/f", "language": "x" * 5000})
    assert long.status_code == 400 and len(long.content) < 300
    twice = api(moderator).post(
        url, {"url": "http://127.0.0.1:9/g", "events": ["processed", "processed"]}, format="json"
    )
    assert twice.json()["events"] == ["processed"]
    api(moderator).delete(f"{url}{twice.json()['id']}/")
    # Language tags are case-insensitive (BCP 47); Django's locale names write "_".
    for tag, read in (("ZH-HANS", "zh-hans"), ("zh_Hans", "zh-hans"), ("Ja", "ja")):
        cased = api(moderator).post(url, {"url": "http://127.0.0.1:9/e", "language": tag})
        assert cased.status_code == 201 and cased.json()["language"] == read
        assert api(moderator).delete(f"{url}{cased.json()['id']}/").status_code == 204
        settings = api(moderator).patch("/api/auth/notifications/", {"language": tag})
        assert settings.status_code == 200 and settings.json()["language"] == read


def test_a_webhook_address_needs_a_real_port_and_its_secret_is_shown_once(
    api, game, moderator, private_ok
) -> None:
    client = api(moderator)
    url = f"/api/games/{game.pk}/webhooks/"
    for address in ("http://127.0.0.1:99999/", "http://127.0.0.1:0/"):
        refused = client.post(url, {"url": address}, format="json")
        assert refused.status_code == 400 and "port" in str(refused.json()["url"]), address
    added = client.post(url, {"url": "http://127.0.0.1:8080/hook"}, format="json")
    assert added.status_code == 201 and len(added.json()["secret"]) >= 32
    listed = client.get(url).json()
    assert [h["secret"] for h in listed] == [None]
    assert Webhook.objects.get().secret == added.json()["secret"]


@pytest.mark.parametrize("allow_private", [False, True])
@pytest.mark.parametrize(
    "address",
    [
        "https://exa\u200bmple.com/",  # a zero-width space
        "https://exa\u202emple.com/",  # a right-to-left override
        "https://exa%20mple.com/",
        "https://exa_mple.com/",
        "https://exa..mple.com/",
        "https://-example.com/",
    ],
)
def test_a_webhook_host_holds_only_host_name_characters(
    api, game, moderator, settings, address, allow_private
) -> None:
    """The URL field takes any character past ASCII in a host; a host name holds letters,
    digits and inner hyphens only, else a reader cannot tell which host it calls."""
    settings.WEBHOOK_ALLOW_PRIVATE = allow_private
    client = api(moderator)
    refused = client.post(f"/api/games/{game.pk}/webhooks/", {"url": address}, format="json")
    said = str(refused.json()["url"])
    assert refused.status_code == 400 and ("host name" in said or "valid URL" in said), address
    assert not Webhook.objects.exists()
    with pytest.raises(reach.UnsafeAddress):
        reach.check_url(address, resolve=False)


def test_international_host_names_are_still_welcome(api, game, moderator) -> None:
    client = api(moderator)
    for address in ("https://bücher.example/h", "https://例え.jp/h", "https://example.com./h"):
        added = client.post(f"/api/games/{game.pk}/webhooks/", {"url": address}, format="json")
        assert added.status_code == 201, (address, added.content)


def test_a_push_subscription_is_refused_while_push_is_off(api, make_user) -> None:
    """Without a VAPID key the server sends no push: a subscription is a 409, not stored."""
    point = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    keys = {"p256dh": _b64(point), "auth": _b64(os.urandom(16))}
    answer = api(make_user("ana")).post(
        "/api/push/subscriptions/",
        {"endpoint": "https://push.example.com/sub/1", "keys": keys},
        format="json",
    )
    assert answer.status_code == 409 and "push is off" in answer.json()["detail"]
    assert not PushSubscription.objects.exists()


def test_push_subscriptions_need_the_browsers_real_keys(api, make_user, vapid) -> None:
    client = api(make_user("ana"))
    point = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    good = {"p256dh": _b64(point), "auth": _b64(os.urandom(16))}
    endpoint = "https://push.example.com/sub/1"
    for keys in (
        {**good, "p256dh": "junk"},
        {**good, "p256dh": _b64(b"\x04" + os.urandom(10))},
        {**good, "auth": "!!!!"},
        {**good, "auth": _b64(os.urandom(8))},
    ):
        answer = client.post(
            "/api/push/subscriptions/", {"endpoint": endpoint, "keys": keys}, format="json"
        )
        assert answer.status_code == 400, keys
    made = client.post(
        "/api/push/subscriptions/", {"endpoint": endpoint, "keys": good}, format="json"
    )
    assert made.status_code == 201, made.content


def test_plain_http_needs_private_addresses_allowed_not_debug(api, game, moderator, settings):
    """The README: public https addresses unless WEBHOOK_ALLOW_PRIVATE=1. DEBUG (on by
    default) let plain http through as well."""
    settings.DEBUG = True
    settings.WEBHOOK_ALLOW_PRIVATE = False
    client = api(moderator)
    url = f"/api/games/{game.pk}/webhooks/"
    refused = client.post(url, {"url": "http://example.com/hook"}, format="json")
    assert refused.status_code == 400 and "https" in str(refused.json()["url"])
    assert (
        client.post(url, {"url": "https://example.com:443/hook"}, format="json").status_code == 201
    )
    settings.WEBHOOK_ALLOW_PRIVATE = True
    assert client.post(url, {"url": "http://example.com/hook"}, format="json").status_code == 201


@pytest.mark.parametrize(
    "address",
    [
        "https://127.0.0.1:6379/",  # Redis
        "https://127.0.0.1:5432/",  # PostgreSQL
        "https://[::1]:443/",
        "https://10.0.0.5/",
        "https://192.168.1.1/",
        "https://169.254.169.254/latest/meta-data/",  # link-local: cloud metadata
        "https://[fe80::1]/",
        "https://example.com:6379/",  # a public name: it may resolve inward later
        "https://example.com:5432/",
        "https://example.com:8080/hook",
        "https://example.com:22/",
    ],
)
def test_a_webhook_is_refused_a_private_address_or_a_port_past_the_webs_own(
    api, game, moderator, settings, address
) -> None:
    """Only public addresses on 443 or 80: a hook at :6379 or :5432 would have the server post
    a game's events to its own broker or database, wherever the name resolves at delivery."""
    settings.WEBHOOK_ALLOW_PRIVATE = False
    client = api(moderator)
    url = f"/api/games/{game.pk}/webhooks/"
    refused = client.post(url, {"url": address}, format="json")
    assert refused.status_code == 400, (address, refused.content)
    said = " ".join(refused.json()["url"])
    assert "private, loopback or reserved" in said or "port must be 443 or 80" in said, said
    assert not Webhook.objects.exists()
    with pytest.raises(reach.UnsafeAddress):
        reach.check_url(address)  # and again before every delivery


def test_a_webhook_on_the_webs_own_ports_is_welcome(api, game, moderator, settings) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE = False
    client = api(moderator)
    url = f"/api/games/{game.pk}/webhooks/"
    for address in (
        "https://example.com/h",
        "https://example.com:443/h",
        "https://example.com:80/h",
    ):
        added = client.post(url, {"url": address}, format="json")
        assert added.status_code == 201, (address, added.content)
    refused = client.post(url, {"url": "https://example.com:6379/h"}, format="json")
    assert refused.json() == {"url": ["the port must be 443 or 80 (or left out), not 6379"]}


def test_a_webhook_with_no_events_named_hears_every_event(api, game, moderator) -> None:
    """``events: []`` is documented as every event (not none): it is stored and fires."""
    answer = api(moderator).post(
        f"/api/games/{game.pk}/webhooks/",
        {"url": "https://example.com/hook", "events": []},
        format="json",
    )
    assert answer.status_code == 201 and answer.json()["events"] == []
    hook = Webhook.objects.get()
    assert all(hook.wants(event) for event in ("processed", "deadline", "over"))


def test_a_delivery_connects_to_the_address_it_checked_not_to_a_second_look_up(
    settings, monkeypatch
) -> None:
    """A name with a short life may resolve to a public address for the check and to
    127.0.0.1 (or 169.254.169.254, the cloud's metadata) a moment later, when the connection
    looks it up again (DNS rebinding). The delivery connects to the address it checked."""
    import socket

    settings.WEBHOOK_ALLOW_PRIVATE = False
    looked_up = []

    def getaddrinfo(host, port, *args, **kwargs):
        looked_up.append(host)
        ip = "93.184.216.34" if len(looked_up) == 1 else "127.0.0.1"  # then rebound
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (ip, port))]

    connected = []

    def create_connection(address, *args, **kwargs):
        connected.append(address)
        raise OSError("the test stops here")

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(socket, "create_connection", create_connection)
    with pytest.raises(OSError):
        reach.post("https://rebinding.example/hook", b"{}", {"Content-Type": "application/json"})
    assert connected == [("93.184.216.34", 443)]


def test_a_pinned_delivery_still_speaks_tls_to_the_host_named(settings, monkeypatch, tmp_path):
    """Connected to the checked address, the delivery's TLS still names the URL's host and
    verifies its certificate against it: a receiver with a certificate for
    ``hooks.example`` gets the post (here on a local port standing in for the public one)."""
    import datetime
    import socket
    import ssl

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.x509.oid import NameOID

    host = "hooks.example"
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(host)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    pem = tmp_path / "cert.pem"
    pem.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_pem = tmp_path / "key.pem"
    key_pem.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    served = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    served.load_cert_chain(pem, key_pem)
    received = []

    class Receiver(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            received.append(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args) -> None:
            pass

    class TLSServer(ThreadingHTTPServer):
        def get_request(self):
            conn, address = super().get_request()
            return served.wrap_socket(conn, server_side=True), address

    server = TLSServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_port

    trusting = ssl.create_default_context(cafile=str(pem))  # only our receiver's certificate
    monkeypatch.setattr(ssl, "_create_default_https_context", lambda: trusting)
    settings.WEBHOOK_ALLOW_PRIVATE = False
    real_connect, real_getaddrinfo = socket.create_connection, socket.getaddrinfo
    connected = []

    def getaddrinfo(name, port_asked, *args, **kwargs):
        if name != host:
            return real_getaddrinfo(name, port_asked, *args, **kwargs)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", port_asked))]

    def create_connection(address, *args, **kwargs):
        connected.append(address)  # the checked address; the receiver listens locally
        return real_connect(("127.0.0.1", port), *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(socket, "create_connection", create_connection)
    try:
        status = reach.post(
            f"https://{host}/hook", b'{"ok": 1}', {"Content-Type": "application/json"}
        )
    finally:
        server.shutdown()
        server.server_close()
    assert status == 204 and connected == [("93.184.216.34", 443)]
    assert received == [b'{"ok": 1}']


def test_unsubscribing_with_no_body_ends_every_subscription_of_the_caller(api, make_user):
    """No body at all (as the schema, which lists none for a DELETE, leads a client to send)
    ends all of the caller's subscriptions, and nobody else's."""
    ada, bea = make_user("ada"), make_user("bea")
    for n, user in enumerate((ada, ada, bea)):
        PushSubscription.objects.create(
            user=user, endpoint=f"https://push.example/{n}", p256dh="x", auth="y"
        )
    assert api(ada).delete("/api/push/subscriptions/").status_code == 204
    assert list(PushSubscription.objects.values_list("user__username", flat=True)) == ["bea"]


@pytest.mark.parametrize(
    "address", ["https://224.0.0.1/", "https://239.255.255.250/h", "https://[ff02::1]/h"]
)
def test_a_webhook_may_not_call_a_multicast_address(api, game, moderator, address) -> None:
    """An adversary's finding: Python counts 224.0.0.0/4 as global, so it passed as public."""
    refused = api(moderator).post(
        f"/api/games/{game.pk}/webhooks/", {"url": address}, format="json"
    )
    assert refused.status_code == 400 and "private" in str(refused.json()["url"]), refused.content
    assert not Webhook.objects.exists()


def test_no_webhook_for_a_game_that_can_never_send_one(api, game, moderator, make_user) -> None:
    """An adversary's finding: a sandbox or a finished game took a hook (and handed out its
    secret) that could never fire."""
    from games import services

    practice = api(make_user("practiser"))
    sandbox = practice.post("/api/sandbox/", {"variant": "colonial"}, format="json").json()
    for client, pk in ((practice, sandbox["id"]), (api(moderator), game.pk)):
        if pk == game.pk:
            services.declare_draw(game, moderator)
        url = f"/api/games/{pk}/webhooks/"
        refused = client.post(url, {"url": "https://example.com/h"}, format="json")
        assert refused.status_code == 400, refused.content
        assert "sends no webhooks" in str(refused.json()["url"])
    assert not Webhook.objects.exists()
    page = DjangoClient()
    page.force_login(moderator)
    console = page.get(f"/games/{game.pk}/moderate/").content.decode()
    assert "A practice game or a game that is over sends no webhooks." in console
    assert 'id="webhook-url"' not in console


@pytest.mark.parametrize("how", ["end", "draw", "votes"])
def test_a_game_ended_without_a_processing_is_told(
    how,
    api,
    game,
    moderator,
    seat,
    listener,
    private_ok,
    enqueued,
    django_capture_on_commit_callbacks,
) -> None:
    """The moderator's end or draw, or the players' votes, end a game with no phase processed:
    its webhooks get ``over`` and its players the mail, as when a processing ends it."""
    receiver = listener()
    added = api(moderator).post(
        f"/api/games/{game.pk}/webhooks/", {"url": receiver.url}, format="json"
    )
    assert added.status_code == 201, added.content
    france = seat(game, "France").user
    france.email = "france@example.com"
    france.save()
    with django_capture_on_commit_callbacks(execute=True):
        if how == "end":
            services.end_game(game, moderator, winner="France")
        elif how == "draw":
            services.declare_draw(game, moderator)
        else:
            for membership in game.memberships.all():
                services.vote(membership, draw=True)
    game.refresh_from_db()
    assert game.is_over
    ((game_id,),) = _queued(enqueued, "notify_game_over")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        tasks.notify_game_over(game_id)
    assert any("france@example.com" in m.to and "is over" in m.body for m in mail.outbox)
    (hook_id, event, body) = _queued(enqueued, "deliver_webhook")[0]
    assert event == "over" and "is over" in body["content"]
    assert tasks.deliver_webhook(hook_id, event, body) == 204
    assert receiver.requests[0]["headers"]["X-GreatGame-Event"] == "over"
