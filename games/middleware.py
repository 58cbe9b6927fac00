"""Request plumbing that every view relies on.

- ``ServerTimingMiddleware``: every answer says in ``Server-Timing`` how long Django took to
  make it (``app``: wall time from the start of the middleware chain to the response; ``cpu``:
  this thread's CPU in that time), for browsers' developer tools and benchmarks.
- ``RequestIdMiddleware``: each request gets an id (the proxy's ``X-Request-ID`` when it sent
  a sane one), found in every log record written while serving it and in the answer's header.
- ``ClientAddressMiddleware``: ``REMOTE_ADDR`` becomes the client's address, believing
  ``X-Forwarded-For`` and ``X-Forwarded-Proto`` only from ``settings.TRUSTED_PROXIES``; rate
  limits count that address.
- ``DatabaseUnavailableMiddleware``: PostgreSQL restarting or failing over is an outage the
  client should wait out and retry, not a bug: 503 (JSON, with Retry-After), a warning in the
  log and no traceback mailed.
- ``NulCharacterMiddleware``: a NUL character in a URL is a 400 (JSON under /api/), before
  anything hands it to the database.
- ``UndecodableFormMiddleware``: a form body (urlencoded or multipart) that is not text in its
  charset is a 400, before Django reads it with stand-ins for what it cannot decode.
- ``PrivateCacheMiddleware``: what a signed-in user is shown (their orders, their press) is
  never kept by a shared or a browser cache.
- ``ApiNotFoundMiddleware``: a 404 under /api/ is JSON, with ``DEBUG`` on too.
- ``CompressionMiddleware``: gzip, except for live event streams (each event must leave at
  once; gzip would hold it back).
- ``ContentSecurityPolicyMiddleware``: django-csp's, with the headers of a response that
  changes nothing of the policy built once per process.
"""

from __future__ import annotations

import codecs
import ipaddress
import logging
import re
import time
import uuid
from collections.abc import Callable, Iterable
from functools import lru_cache
from urllib.parse import parse_qsl

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject, CSPMiddleware
from django.conf import settings
from django.contrib.messages.middleware import MessageMiddleware
from django.core.signals import setting_changed
from django.db import InterfaceError, OperationalError
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.gzip import GZipMiddleware
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.http import parse_header_parameters
from django.utils.translation import gettext

from greatgame.logs import request_id

from .errors import method_not_allowed, standalone_page

logger = logging.getLogger(__name__)
access_logger = logging.getLogger("greatgame.request")

RETRY_AFTER_SECONDS = 5

# A request id from upstream is kept only if it cannot forge or break a log line.
_SANE_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class ServerTimingMiddleware:
    """``Server-Timing: app;dur=12.3, cpu;dur=4.5`` on every answer, in milliseconds.

    ``app`` is the wall time from the start of the middleware chain (this middleware comes
    first) until the response is made, gzip included, body of a streaming answer excluded:
    the time the request spent in Django, not the time it waited for a worker before, nor the
    time its bytes took to leave after. ``cpu`` is the CPU time of the serving thread in the
    same span (``time.thread_time``): the rest of ``app`` was spent waiting, on PostgreSQL,
    Redis or, in a threaded worker, for the interpreter lock. Two clock reads each: cheap
    enough for every response.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        wall, cpu = time.perf_counter(), time.thread_time()
        response = self.get_response(request)
        cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
        timing = f"app;dur={wall * 1000:.1f}, cpu;dur={cpu * 1000:.1f}"
        given = response.get("Server-Timing")
        response["Server-Timing"] = f"{given}, {timing}" if given else timing
        return response


class RequestIdMiddleware:
    """Give each request an id, log one access record for it, answer it in ``X-Request-ID``.

    Comes first, so that everything logged while serving the request (Django's record of an
    unhandled error with its traceback among it) carries the id.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        given = request.headers.get("X-Request-ID", "")
        rid = given if _SANE_ID.fullmatch(given) else uuid.uuid4().hex
        request.request_id = rid
        token = request_id.set(rid)
        started = time.monotonic()
        try:
            _tag_error_reports(rid)
            response = self.get_response(request)
            response["X-Request-ID"] = rid
            if settings.LOG_REQUESTS:
                access_logger.info(
                    "%s %s %s",
                    request.method,
                    request.path,
                    response.status_code,
                    extra={
                        "method": request.method,
                        "path": request.path,
                        "status": response.status_code,
                        "duration_ms": round((time.monotonic() - started) * 1000, 1),
                        "client": request.META.get("REMOTE_ADDR", ""),
                    },
                )
            return response
        finally:
            request_id.reset(token)


def _tag_error_reports(rid: str) -> None:
    """Sentry's reports of this request carry its id too (nothing happens without Sentry)."""
    if settings.SENTRY_DSN:
        import sentry_sdk

        sentry_sdk.set_tag("request_id", rid)


@lru_cache(maxsize=8)
def _networks(proxies: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(p, strict=False) for p in proxies)


def _trusted(address: str, networks: Iterable[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


def client_address(peer: str, forwarded_for: str, proxies: Iterable[str]) -> str:
    """The client's address: the peer's, unless the peer is a trusted proxy; then the
    rightmost address in ``X-Forwarded-For`` that is not a trusted proxy (whatever stands
    left of it was written by the client and proves nothing)."""
    networks = _networks(tuple(proxies))
    if not _trusted(peer, networks):
        return peer
    client = peer
    for hop in reversed(forwarded_for.split(",") if forwarded_for else []):
        hop = hop.strip()
        try:
            ipaddress.ip_address(hop)
        except ValueError:
            break
        client = hop
        if not _trusted(hop, networks):
            break
    return client


class ClientAddressMiddleware:
    """Set ``REMOTE_ADDR`` to the client's address and drop forwarding headers that no
    trusted proxy wrote, so that neither rate limits nor "is this HTTPS?" take a client's
    word for them. Must come before ``SecurityMiddleware``."""

    FORWARDED = ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_HOST")

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        meta = request.META
        peer = meta.get("REMOTE_ADDR", "")
        proxies = settings.TRUSTED_PROXIES
        if _trusted(peer, _networks(tuple(proxies))):
            forwarded_for = meta.get("HTTP_X_FORWARDED_FOR", "")
            meta["REMOTE_ADDR"] = client_address(peer, forwarded_for, proxies)
        else:
            for header in self.FORWARDED:
                meta.pop(header, None)
        return self.get_response(request)


def unavailable(request: HttpRequest, exc: Exception) -> JsonResponse:
    logger.warning("database unavailable for %s %s: %s", request.method, request.path, exc)
    response = JsonResponse(
        {"detail": "The service is briefly unavailable; try again shortly."}, status=503
    )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


class DatabaseUnavailableMiddleware:
    """Map ``OperationalError`` / ``InterfaceError`` raised by a view to a 503.

    Views raise them, including DRF's (its exception handler leaves them alone) and the lazy
    ``request.user`` of authentication, which is only read in the view.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if isinstance(exc, OperationalError | InterfaceError):
            return unavailable(request, exc)
        return None


class PrivateCacheMiddleware:
    """``Cache-Control: private, no-store`` on every answer to a signed-in user (by session or,
    under /api/, by token) that does not set its own: their unprocessed orders and private
    press must not stay in a proxy's or the browser's cache. Comes after authentication."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)  # DRF puts a token's user here as well
        if "Cache-Control" not in response and user is not None and user.is_authenticated:
            # What ``patch_cache_control(response, private=True, no_store=True)`` writes
            # where no Cache-Control was set, without its parsing (a fiftieth of a PUT).
            response["Cache-Control"] = "private, no-store"
        return response


class NulCharacterMiddleware:
    """A NUL character in the path or the query string is a 400 before any view reads it
    (and a cookie holding one is dropped):
    PostgreSQL cannot compare text holding one (the admin's list filters were a 500), and no
    honest link carries one. Form fields and API bodies refuse NUL themselves."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path or "%00" in request.META.get("QUERY_STRING", ""):
            detail = "A NUL character is not allowed in a URL."
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": detail}, status=400)
            # The site's error page, drawn without the request (its path and its cookies are
            # what is refused), in the reader's language (LocaleMiddleware has not run yet).
            with translation.override(translation.get_language_from_request(request)):
                return standalone_page(400, gettext("A NUL character is not allowed in a URL."))
        cookies = request.COOKIES
        if any("\x00" in name + value for name, value in cookies.items()):
            # A session or CSRF cookie holding one is no cookie: the visitor is signed out,
            # rather than the session store's query failing on every page.
            request.COOKIES = {k: v for k, v in cookies.items() if "\x00" not in k + v}
        return self.get_response(request)


FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
_BODILESS = ("GET", "HEAD", "OPTIONS", "TRACE")


def has_form_body(request: HttpRequest) -> bool:
    """Whether the request may carry a form or multipart body (the only bodies Django decodes
    with stand-ins); JSON and bodiless requests, the busiest, need no more looking at."""
    if request.method in _BODILESS:
        return False
    content_type, _ = parse_header_parameters(request.META.get("CONTENT_TYPE", ""))
    return content_type in FORM_TYPES


def undecodable(request: HttpRequest) -> str | None:
    """Why a form body is not text, or None when it is (or is no form body).

    Django reads a form's fields with stand-ins for what it cannot decode: ``%FF`` or
    ``%ED%A0%80`` (a surrogate written as UTF-8) became U+FFFD, stored as the press, the
    order or the name sent, and raw bytes that are not UTF-8 were read as Latin-1 (C1
    control characters and all), where the same bytes in JSON are a 400. Nothing on this
    site takes a file, so a multipart body is text too. A body over the size cap is left to
    the 413 that answers it."""
    content_type, params = parse_header_parameters(request.META.get("CONTENT_TYPE", ""))
    if request.method in _BODILESS or content_type not in FORM_TYPES:
        return None
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return None  # Django's own reading answers it
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    if length <= 0 or (limit is not None and length > limit):
        return None
    charset = params.get("charset") or settings.DEFAULT_CHARSET
    try:
        codecs.lookup(charset)
    except LookupError:
        return gettext("The body names a charset nobody knows: %(charset)s.") % {
            "charset": charset[:40]
        }
    try:
        text = request.body.decode(charset)
        if content_type == FORM_TYPES[0]:
            parse_qsl(text, keep_blank_values=True, encoding=charset, errors="strict")
    except (UnicodeDecodeError, UnicodeEncodeError, ValueError):
        return gettext(
            "The body is not valid %(charset)s: a field holds bytes that spell no character."
        ) % {"charset": charset[:40]}
    return None


class UndecodableFormMiddleware:
    """A form body that is not text (``undecodable``) is a 400, JSON under /api/, the site's
    error page elsewhere, before anyone reads its fields with stand-ins."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not has_form_body(request):  # no language negotiated for an order PUT's JSON
            return self.get_response(request)
        api = request.path.startswith("/api/")
        # The API's own refusals are English; a page's are in the reader's language
        # (LocaleMiddleware has not run yet).
        language = "en" if api else translation.get_language_from_request(request)
        with translation.override(language):
            why = undecodable(request)
            if why is not None and api:
                return JsonResponse({"detail": why}, status=400)
            if why is not None:
                return standalone_page(400, why)
        return self.get_response(request)


class CompressionMiddleware(GZipMiddleware):
    """Django's gzip (with its BREACH mitigation: up to 100 random bytes in each gzip header,
    and CSRF tokens masked anew on every page), but never for ``text/event-stream``: gzip
    buffers a stream's events until enough bytes gather, and live updates must not wait."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if response.get("Content-Type", "").startswith("text/event-stream"):
            return response
        return super().process_response(request, response)


class MissingSlashMiddleware:
    """A URL written without its final slash reaches its view when the slash is all that is
    missing: for the API always, elsewhere for requests with a body. Django would otherwise
    answer a redirect, which a client follows without the body (or, debugging, a 500)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        path = request.path_info
        body = request.method not in ("GET", "HEAD", "OPTIONS")
        wanted = not path.endswith("/") and (body or path.startswith("/api/"))
        if wanted and not _resolves(path) and _resolves(path + "/"):
            request.path_info += "/"
            request.path += "/"
        return self.get_response(request)


def _resolves(path: str) -> bool:
    try:
        resolve(path)
    except Resolver404:
        return False
    return True


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    """django-csp's middleware. A response that changes nothing of the policy (no nonce asked
    for, no view's own policy or exemption) gets the headers the library built for the first
    such response: building them again each time (the policy and the report-only one) was 5 %
    of an order submission's CPU. Every other response is the library's own work."""

    _plain: list[tuple[str, str]] | None = None

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if (
            settings.DEBUG  # the library leaves debug pages alone
            or getattr(request, "_csp_nonce", None) is not None
            or any(name.startswith("_csp") for name in vars(response))
            or _csp_excludes_prefixes()
        ):
            return super().process_response(request, response)
        if self._plain is None:
            blank = super().process_response(HttpRequest(), HttpResponse())
            headers = (HEADER, HEADER_REPORT_ONLY)
            type(self)._plain = [(h, blank[h]) for h in headers if h in blank]
        for header, value in self._plain:  # type: ignore[union-attr]
            if header not in response:
                response[header] = value
        # As the library does: a nonce asked for after the header is written is an error.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)
        return response


@lru_cache(maxsize=1)
@receiver(setting_changed)
def _forget_policy(setting: str, **kwargs: object) -> None:
    """A test that changes the policy gets headers built from it."""
    if setting.startswith("CONTENT_SECURITY_POLICY"):
        ContentSecurityPolicyMiddleware._plain = None


def _csp_excludes_prefixes() -> bool:
    settings_names = ("CONTENT_SECURITY_POLICY", "CONTENT_SECURITY_POLICY_REPORT_ONLY")
    return any(
        (getattr(settings, n, None) or {}).get("EXCLUDE_URL_PREFIXES") for n in settings_names
    )


class PageMessageMiddleware(MessageMiddleware):
    """Django's messages (a note a page shows once, after a redirect), for pages only. The API
    shows none, and making their storage (a signed-cookie reader and a session reader) for
    every order submission was a hundredth of its CPU; without it ``messages.add_message``
    on an API request raises, where a silent loss would hide the mistake."""

    def process_request(self, request: HttpRequest) -> None:
        if not request.path.startswith("/api/"):
            super().process_request(request)


class ApiNotFoundMiddleware:
    """A 404 under /api/ is JSON, whatever ``DEBUG`` says. ``handler404``
    (``games.api.not_found``) answers an unknown address so, but only with ``DEBUG`` off: with
    it on (as ``make run`` runs) Django answers its HTML debug page and asks no handler. An API
    client must read the same answer from a development server as from production."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code == 404
            and request.path.startswith("/api/")
            and not getattr(response, "streaming", False)
            and not response.get("Content-Type", "").startswith("application/json")
        ):
            from games.api import not_found

            return not_found(request, None)
        return response


class PageMethodsMiddleware:
    """Pages are read (GET, HEAD) and sent forms (POST); outside the API any other method is
    a 405 naming those, and OPTIONS is answered with them. Before, a PUT, a DELETE or a
    made-up method rendered a page as a GET would, as if it had been understood. (The API's
    views answer each method themselves.)"""

    ALLOWED = ("GET", "HEAD", "POST", "OPTIONS")

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        method = request.method
        if method in ("GET", "HEAD", "POST") or request.path.startswith("/api/"):
            return self.get_response(request)
        if method == "OPTIONS":
            response = HttpResponse(status=200)
            response["Allow"] = ", ".join(self.ALLOWED)
            return response
        return method_not_allowed(request, self.ALLOWED)


class ErrorPageMiddleware:
    """A bare refusal outside the API (a 405 from ``require_POST``: an empty body; a view's
    plain-text 400 or 403) is shown on the site's error page (``games.errors``), with its
    text as the message, rather than as black text on a blank page."""

    BARE = (400, 403, 405)

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code not in self.BARE
            or request.path.startswith("/api/")
            or getattr(response, "streaming", False)
            or not response.get("Content-Type", "").startswith(("text/html", "text/plain"))
            or b"<" in response.content
            or len(response.content) > 2000
        ):
            return response
        from games.errors import error_page

        text = response.content.decode(response.charset or "utf-8", "replace").strip()
        page = error_page(request, response.status_code, text)
        for header in ("Allow", "Retry-After"):
            if header in response:
                page[header] = response[header]
        return page
