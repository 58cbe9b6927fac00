"""Notifications beyond e-mail (issue #19 item 4): per-game webhooks and opt-in web push.

- A game's webhooks get Discord-compatible JSON (``content``, ``username``, ``embeds``) when a
  phase is processed, an hour before a deadline and when the game ends, signed with HMAC-SHA256
  of the body under the hook's secret (``X-GreatGame-Signature: sha256=<hex>``).
- A player who opted in on the settings page gets a web push (the Push API, VAPID keys from the
  environment, ``pywebpush``) when a phase is processed, when press comes to them and when a
  deadline is near without their orders.

Everything is sent by Celery tasks after the request's transaction commits, with a short timeout
and retries with backoff: a slow or dead receiver never slows a request. Addresses are checked
for server-side request forgery: only public (global) addresses, IPv6 ones embedding no IPv4
address that is not (NAT64, 6to4, Teredo), on port 443 or 80 only, unless
``settings.WEBHOOK_ALLOW_PRIVATE`` (tests, local development) — when the hook is saved and again
before every delivery (a name may resolve elsewhere later), and redirects are never followed.
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import ipaddress
import json
import logging
import secrets
import socket
import unicodedata
import urllib.error
import urllib.request
from collections.abc import Callable
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from .models import Game, Message, Phase, PushSubscription, Webhook

logger = logging.getLogger(__name__)

TIMEOUT = 5  # seconds for one delivery
SIGNATURE = "X-GreatGame-Signature"
MAX_HOOKS_PER_GAME = 5
PUBLIC_PORTS = (443, 80)  # the only ports called unless settings.WEBHOOK_ALLOW_PRIVATE


class UnsafeAddress(ValueError):
    """A URL the server will not call: not http(s), or a private, loopback or reserved host."""


LOCAL_NAMES = ("localhost", ".localhost", ".local", ".internal", ".home.arpa")


def _valid_host(host: str) -> bool:
    """An IP address, or a host name whose labels are letters (of any script, as an
    internationalized name's are), digits and inner hyphens, split by dots. Anything else
    (a zero-width space, a control character, "%", an empty label) names no host anyone can
    register, and hides from a reader which host it is."""
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        pass
    labels = host.removesuffix(".").split(".")
    for label in labels:
        if not label or len(label) > 63 or label[0] == "-" or label[-1] == "-":
            return False
        for char in label:
            if char.isascii():
                if not (char.isalnum() or char == "-"):
                    return False
            elif unicodedata.category(char)[0] not in "LMN":
                return False
    return len(host) <= 253


# IPv6 ranges that carry an IPv4 address a host may reach (NAT64 translates it, a 6to4 or
# Teredo relay tunnels to it, a host may read the old forms as IPv4): the address is as public
# as that IPv4 is. Python calls them global whatever they embed.
_NAT64 = ipaddress.ip_network("64:ff9b::/96")  # RFC 6052: the last 32 bits
_EMBEDDING_LAST_32 = (
    _NAT64,
    ipaddress.ip_network("::/96"),  # IPv4-compatible (deprecated), ::127.0.0.1
    ipaddress.ip_network("::ffff:0:0:0/96"),  # IPv4-translated (RFC 2765)
)
# Local-use NAT64 (RFC 8215): the operator's own network, never public, wherever its IPv4 sits.
_LOCAL_NAT64 = ipaddress.ip_network("64:ff9b:1::/48")


def is_public(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether the server may call ``ip``: a global address, and for IPv6 one that embeds no
    IPv4 address that is not (``[64:ff9b::7f00:1]`` is 127.0.0.1 through NAT64, and
    ``[2002:7f00:1::]`` a 6to4 tunnel to it)."""
    if not ip.is_global or ip.is_multicast:  # 224.0.0.0/4 counts as global to Python
        return False
    if ip.version == 4:
        return True
    if ip in _LOCAL_NAT64:
        return False
    embedded: list[ipaddress.IPv4Address] = []
    if ip.ipv4_mapped is not None:
        embedded.append(ip.ipv4_mapped)
    if ip.sixtofour is not None:
        embedded.append(ip.sixtofour)
    if ip.teredo is not None:
        embedded.extend(ip.teredo)  # the server and the client
    if any(ip in network for network in _EMBEDDING_LAST_32):
        embedded.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    return all(v4.is_global for v4 in embedded)


def check_url(url: str, *, resolve: bool = True) -> list[str] | None:
    """Refuse URLs that would make the server call itself or its private network. Without
    ``resolve`` (when an address is saved) a name is not looked up, only literal addresses and
    local names are refused; every delivery checks again, resolving (a name can change).
    Returns the addresses the name resolved to, all checked (None unchecked: not resolved, or
    private addresses allowed): a delivery connects to one of them, not to a second look-up,
    which a name with a short life could answer with 127.0.0.1 (DNS rebinding)."""
    parts = urlsplit(url)
    allow_private = getattr(settings, "WEBHOOK_ALLOW_PRIVATE", False)
    # Plain http only with private addresses allowed (local development), as the README
    # says: DEBUG alone (on by default) used to let http through to public hosts too.
    schemes = ("https", "http") if allow_private else ("https",)
    if parts.scheme not in schemes or not parts.hostname:
        raise UnsafeAddress(_("the address must be an %(schemes)s URL") % {"schemes": schemes[0]})
    if parts.username or parts.password:
        raise UnsafeAddress(_("the address may not hold a user name or password"))
    if not _valid_host(parts.hostname):
        raise UnsafeAddress(
            _("the host name may hold only letters, digits, hyphens and dots between them")
        )
    try:
        port = parts.port
    except ValueError:
        port = 0
    if port == 0 or (port is None and parts.netloc.endswith(":")):
        raise UnsafeAddress(_("the port must be a number from 1 to 65535"))
    if allow_private:
        return None
    # Only the web's own ports: another (6379, 5432, 25...) would let a game's events knock on
    # whatever service a public host (or a name that later resolves inward) keeps there.
    if port is not None and port not in PUBLIC_PORTS:
        raise UnsafeAddress(
            _("the port must be 443 or 80 (or left out), not %(port)s") % {"port": port}
        )
    host = parts.hostname.rstrip(".").lower()
    if host == "localhost" or host.endswith(LOCAL_NAMES):
        raise UnsafeAddress(_("the address is private, loopback or reserved"))
    try:
        literal = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None and not is_public(literal):
        raise UnsafeAddress(_("the address is private, loopback or reserved"))
    if not resolve:
        return None
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        found = socket.getaddrinfo(parts.hostname, port, proto=socket.IPPROTO_TCP)
    except (OSError, ValueError) as error:
        raise UnsafeAddress(_("the host name does not resolve")) from error
    checked = []
    for *_rest, address in found:
        ip = ipaddress.ip_address(address[0].split("%", 1)[0])
        if not is_public(ip):
            raise UnsafeAddress(_("the address is private, loopback or reserved"))
        checked.append(str(ip))
    return list(dict.fromkeys(checked))


def sign(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def new_secret() -> str:
    return secrets.token_hex(32)


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect could lead anywhere, past the address check: treat it as a failure."""

    def redirect_request(self, *args, **kwargs):
        return None


_opener = urllib.request.build_opener(_NoRedirects)


def _connect_to(addresses: list[str]) -> Callable:
    """``socket.create_connection`` to the checked addresses (in turn), whatever host name the
    connection was made for: its TLS still names and verifies that host."""

    def connect(address, timeout=socket._GLOBAL_DEFAULT_TIMEOUT, source_address=None):
        error: OSError | None = None
        for ip in addresses:
            try:
                return socket.create_connection((ip, address[1]), timeout, source_address)
            except OSError as failed:
                error = failed
        raise error or OSError("no address to connect to")

    return connect


class _PinnedHTTPS(urllib.request.HTTPSHandler):
    """HTTPS to the addresses ``check_url`` checked, not to a second look-up of the name."""

    def __init__(self, addresses: list[str]) -> None:
        super().__init__()
        self.connect = _connect_to(addresses)

    def https_open(self, req):
        def connection(host, **kwargs):
            made = http.client.HTTPSConnection(host, **kwargs)
            made._create_connection = self.connect  # http.client's own hook
            return made

        return self.do_open(connection, req, context=self._context)


def post(url: str, body: bytes, headers: dict[str, str]) -> int:
    """POST once, checked and bounded; the status, or an exception (retried by the task)."""
    addresses = check_url(url)
    opener = _opener
    if addresses:  # https only, then: plain http needs private addresses allowed
        opener = urllib.request.build_opener(_NoRedirects, _PinnedHTTPS(addresses))
    request = urllib.request.Request(url, data=body, method="POST", headers=headers)
    try:
        with opener.open(request, timeout=TIMEOUT) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        if 300 <= error.code < 400:
            raise UnsafeAddress(_("the receiver answered with a redirect")) from error
        raise


# -- what is said ------------------------------------------------------------------------------


def _site() -> str:
    return getattr(settings, "SITE_URL", "http://127.0.0.1:8000").rstrip("/")


def _game_url(game: Game) -> str:
    return _site() + reverse("game", args=[game.pk])


def payload(game: Game, event: str, text: str) -> dict:
    """Discord's webhook body (``content``, ``username``, ``embeds``); other receivers read the
    same fields, and the event in the ``X-GreatGame-Event`` header."""
    return {
        "username": "Great Game",
        "content": text,
        "embeds": [{"title": game.name, "url": _game_url(game), "description": text}],
    }


def _events(phase: Phase) -> list[tuple[str, Callable[[], str]]]:
    """The events of a processed phase, each with its words (said in the language active
    when called: a hook's or a reader's)."""
    game = phase.game

    def processed() -> str:
        names = {"game": game.name, "phase": phase.name}
        return _("%(game)s: %(phase)s has been processed.") % names

    if game.is_over and game.result:
        return [("processed", processed), ("over", _over(game))]
    return [("processed", processed)]


def _over(game: Game) -> Callable[[], str]:
    """The words of the game's end, said in the language active when called."""
    from .notifications import ending

    return lambda: _("%(game)s is over: %(result)s.") % {"game": game.name, "result": ending(game)}


# -- sending -------------------------------------------------------------------------------------


def _queue(task_name: str, *args) -> None:
    """Send a delivery task once the transaction commits (never inside a request's time)."""
    from . import tasks

    def send() -> None:
        try:
            getattr(tasks, task_name).apply_async(args=args)
        except Exception:
            logger.exception("could not enqueue %s%r", task_name, args)

    transaction.on_commit(send)


def fire(game: Game, event: str, text: Callable[[], str]) -> int:
    """Queue the game's webhooks that want ``event``, each with ``text()`` said in the hook's
    language (a channel is shared, so each hook has one); how many were queued."""
    hooks = [h for h in game.webhooks.all() if h.wants(event)]
    for hook in hooks:
        with translation.override(hook.language or settings.LANGUAGE_CODE):
            said = text()
        _queue("deliver_webhook", hook.pk, event, payload(game, event, said))
    return len(hooks)


def deliver_webhook(hook_id: int, event: str, body: dict) -> int | None:
    """One delivery (the task retries on failure); the receiver's status."""
    hook = Webhook.objects.filter(pk=hook_id).first()
    if hook is None:
        return None
    data = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "GreatGame-Webhook/1",
        "X-GreatGame-Event": event,
        SIGNATURE: sign(hook.secret, data),
    }
    status = post(hook.url, data, headers)
    Webhook.objects.filter(pk=hook.pk).update(last_status=str(status), failures=0)
    return status


def record_failure(hook_id: int, error: BaseException) -> None:
    Webhook.objects.filter(pk=hook_id).update(last_status=str(error)[:100])


def vapid_ready() -> bool:
    return bool(getattr(settings, "VAPID_PRIVATE_KEY", ""))


def push_to(users: list, title: str, body: Callable[[], str], url: str) -> int:
    """Queue a push to every subscription of these users, ``body()`` said in each user's
    language (``NotificationSettings.language``); how many were queued."""
    if not vapid_ready():
        return 0
    subscriptions = PushSubscription.objects.filter(user__in=users).select_related(
        "user__notification_settings"
    )
    said: dict[str, str] = {}
    for subscription in subscriptions:
        prefs = getattr(subscription.user, "notification_settings", None)
        language = (prefs and prefs.language) or settings.LANGUAGE_CODE
        if language not in said:
            with translation.override(language):
                said[language] = body()
        data = {"title": title, "body": said[language], "url": url}
        _queue("deliver_push", subscription.pk, data)
    return len(subscriptions)


def deliver_push(subscription_id: int, data: dict) -> int | None:
    """One push through the browser's push service (the task retries on failure). A
    subscription the service says is gone (404, 410) is deleted."""
    import requests
    from pywebpush import WebPushException, webpush

    subscription = PushSubscription.objects.filter(pk=subscription_id).first()
    if subscription is None:
        return None
    check_url(subscription.endpoint)
    session = requests.Session()
    session.max_redirects = 0  # as for webhooks: a redirect could lead past the check
    try:
        answer = webpush(
            subscription_info=subscription.as_subscription(),
            data=json.dumps(data, ensure_ascii=False),
            vapid_private_key=settings.VAPID_PRIVATE_KEY,
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            timeout=TIMEOUT,
            requests_session=session,
        )
    except WebPushException as error:
        gone = error.response is not None and error.response.status_code in (404, 410)
        if gone:
            subscription.delete()
            return error.response.status_code
        raise
    return answer.status_code


def _players(game: Game, powers=None):
    seats = game.memberships.in_play().filter(bot=False)
    if powers is not None:
        seats = seats.filter(power__in=powers)
    return [m.user for m in seats.select_related("user")]


# -- the events ----------------------------------------------------------------------------------


def phase_processed(phase: Phase) -> None:
    """Webhooks and pushes for a processed phase (and a game that ended with it)."""
    game = phase.game
    if game.sandbox:
        return
    events = _events(phase)
    for event, words in events:
        fire(game, event, words)
    push_to(_players(game), game.name, events[-1][1], _game_url(game))


def game_over(game: Game) -> None:
    """Webhooks and pushes for a game that ended without a processing (the moderator's end
    or draw, the players' votes)."""
    if game.sandbox:
        return
    over = _over(game)
    fire(game, "over", over)
    push_to(_players(game), game.name, over, _game_url(game))


def deadline_soon(phase: Phase, hours: int, late_powers: set[str]) -> None:
    """An hour before the deadline: the webhooks; a push to players without orders."""
    game = phase.game
    if hours != 1 or game.sandbox:
        return
    names = {"game": game.name, "when": f"{phase.deadline:%Y-%m-%d %H:%M} UTC"}

    def soon() -> str:
        return _("%(game)s: %(phase)s closes in 1 hour (%(when)s).") % {
            **names,
            "phase": phase.name,
        }

    def late() -> str:
        return _("%(phase)s closes in 1 hour and you have no orders in.") % {"phase": phase.name}

    fire(game, "deadline", soon)
    push_to(_players(game, late_powers), game.name, late, _game_url(game))


def press_sent(message: Message) -> None:
    """A push to the players the message was sent to (everyone else for public press)."""
    game = message.game
    powers = message.recipients or [p for p in _powers_of(game) if p != message.sender_power]
    users = [u for u in _players(game, powers) if u.pk != message.sender_id]
    if Message.MODERATOR in message.recipients and game.creator_id != message.sender_id:
        users.append(game.creator)  # a player's press to the moderator who does not play

    def words() -> str:
        return _("Press from %(sender)s") % {"sender": message.sender_power or _("Moderator")}

    push_to(users, game.name, words, _game_url(game) + "#press")


def _powers_of(game: Game) -> list[str]:
    from . import engine

    return engine.powers(game)
