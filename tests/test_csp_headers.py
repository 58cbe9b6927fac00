"""games.middleware.ContentSecurityPolicyMiddleware: the headers django-csp's own middleware
gives, whether kept from an earlier response or built for this one."""

from __future__ import annotations

import re

import pytest
from csp.constants import NONE, SELF
from csp.middleware import CSPMiddleware
from django.http import HttpResponse, JsonResponse
from django.test import RequestFactory, override_settings

from games.middleware import ContentSecurityPolicyMiddleware

HEADER = "Content-Security-Policy"


def through(middleware_class, response_of, path: str = "/api/games/"):
    request = RequestFactory().get(path)
    middleware = middleware_class(lambda r: response_of(r))
    return request, middleware(request)


def json_answer(request) -> HttpResponse:
    return JsonResponse({"ok": True})


def page_with_nonce(request) -> HttpResponse:
    return HttpResponse(f"<script nonce='{request.csp_nonce}'></script>")


def test_a_plain_answer_gets_the_librarys_header_every_time() -> None:
    _, theirs = through(CSPMiddleware, json_answer)
    for _ in range(3):  # the first builds them, the others reuse them
        request, ours = through(ContentSecurityPolicyMiddleware, json_answer)
        assert ours[HEADER] == theirs[HEADER]
        assert "nonce" not in ours[HEADER]
        with pytest.raises(Exception, match="csp_nonce"):
            str(request.csp_nonce)  # too late to ask for a nonce, as the library says


def test_a_page_that_uses_a_nonce_gets_its_own() -> None:
    ContentSecurityPolicyMiddleware._plain = None
    through(ContentSecurityPolicyMiddleware, json_answer)  # plain headers kept
    seen = set()
    for _ in range(2):
        _, response = through(ContentSecurityPolicyMiddleware, page_with_nonce, "/games/1/")
        nonce = re.search(r"'nonce-([^']+)'", response[HEADER]).group(1)
        assert f"nonce='{nonce}'" in response.content.decode()
        seen.add(nonce)
    assert len(seen) == 2


def test_a_views_own_policy_and_a_header_already_set_are_kept() -> None:
    def exempt(request):
        response = JsonResponse({})
        response._csp_exempt = True
        return response

    def own(request):
        response = JsonResponse({})
        response[HEADER] = "default-src 'none'"
        return response

    through(ContentSecurityPolicyMiddleware, json_answer)
    assert HEADER not in through(ContentSecurityPolicyMiddleware, exempt)[1]
    assert through(ContentSecurityPolicyMiddleware, own)[1][HEADER] == "default-src 'none'"


def test_a_changed_policy_is_built_again() -> None:
    through(ContentSecurityPolicyMiddleware, json_answer)
    policy = {"DIRECTIVES": {"default-src": [NONE], "img-src": [SELF]}}
    with override_settings(CONTENT_SECURITY_POLICY=policy):
        header = through(ContentSecurityPolicyMiddleware, json_answer)[1][HEADER]
        assert header == through(CSPMiddleware, json_answer)[1][HEADER]
        assert "img-src 'self'" in header
    assert (
        "img-src 'self' data:" in through(ContentSecurityPolicyMiddleware, json_answer)[1][HEADER]
    )
