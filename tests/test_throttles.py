"""The throttles count each request in one step, so requests sent at once cannot all pass."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest
from django.core.cache import caches

from games.throttles import ScopedThrottle
from tests.conftest import REDIS_URL

BACKENDS = {
    "locmem": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "redis": {"BACKEND": "greatgame.cache.SharedClientRedisCache", "LOCATION": REDIS_URL},
}


@pytest.fixture(params=sorted(BACKENDS))
def backend(request, settings) -> str:
    if request.param == "redis":
        request.getfixturevalue("require_redis")
    settings.CACHES = {"default": BACKENDS[request.param]}
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "orders": "5/min",
        },
    }
    caches["default"].delete("throttle_orders_4242")
    yield request.param
    caches["default"].delete("throttle_orders_4242")


def _request(user_id: int = 4242) -> SimpleNamespace:
    user = SimpleNamespace(pk=user_id, is_authenticated=True)
    return SimpleNamespace(user=user, META={"REMOTE_ADDR": "192.0.2.1"})


VIEW = SimpleNamespace(throttle_scope="orders")


def test_requests_at_once_pass_no_more_than_the_rate(backend) -> None:
    """Twenty requests released together under a limit of five: exactly five pass (DRF's own
    throttle, reading and writing the list apart, let most of them through)."""
    start = threading.Barrier(20)
    passed: list[bool] = []

    def send() -> None:
        throttle = ScopedThrottle()
        start.wait()
        passed.append(throttle.allow_request(_request(), VIEW))

    threads = [threading.Thread(target=send) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert passed.count(True) == 5
    assert len(passed) == 20


def test_the_refused_are_told_when_to_come_back(backend) -> None:
    throttles = [ScopedThrottle() for _ in range(6)]
    assert [t.allow_request(_request(), VIEW) for t in throttles] == [True] * 5 + [False]
    wait = throttles[-1].wait()
    assert wait is not None and 59 < wait <= 60
    # Another user has a budget of their own.
    assert ScopedThrottle().allow_request(_request(4243), VIEW)
    caches["default"].delete("throttle_orders_4243")


def test_a_refund_gives_the_request_back(backend) -> None:
    throttles = [ScopedThrottle() for _ in range(5)]
    assert all(t.allow_request(_request(), VIEW) for t in throttles)
    assert not ScopedThrottle().allow_request(_request(), VIEW)
    throttles[2].refund()
    assert ScopedThrottle().allow_request(_request(), VIEW)
    assert not ScopedThrottle().allow_request(_request(), VIEW)


def test_requests_older_than_the_window_no_longer_count(backend, monkeypatch) -> None:
    clock = [1_000_000.0]
    monkeypatch.setattr(ScopedThrottle, "timer", lambda self: clock[0])
    assert all(ScopedThrottle().allow_request(_request(), VIEW) for _ in range(5))
    assert not ScopedThrottle().allow_request(_request(), VIEW)
    clock[0] += 60.5
    assert ScopedThrottle().allow_request(_request(), VIEW)


def test_a_value_left_by_drf_s_throttle_is_replaced(backend) -> None:
    """An older server kept a list under the same key: the count starts again, no error."""
    caches["default"].set("throttle_orders_4242", [1.0, 2.0], 60)
    assert ScopedThrottle().allow_request(_request(), VIEW)
