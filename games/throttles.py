"""The rate limits of the API and the forms: DRF's scoped throttles, each count taken in one step.

DRF's own throttle reads a client's recent requests from the cache and writes them back
with the new one: requests sent at once all read the same list, all pass, and each write
drops the others' entries, so a client sending in parallel went past its rate (20 orders
at once under a limit of 5 all passed). Here the count is one atomic step: a Lua script in
Redis, which is also one round trip instead of two, and a lock around the local-memory
cache of a server without Redis (one process, as ``make run``'s embedded default has).
The window is DRF's: the requests of the last ``duration`` seconds.
"""

from __future__ import annotations

import os
import threading

from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.core.cache.backends.redis import RedisCache
from django.core.exceptions import ImproperlyConfigured
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle

# KEYS[1]: the client's sorted set of requests (score: when; a value of another kind, as DRF's
# list left by an older server, is dropped). ARGV: now, window in seconds, limit, this request's
# member. Answers {1 if counted, requests in the window, the oldest's
# time as text} (Lua numbers reach Redis as integers, so the time goes as a string).
_COUNT = """
local key, now, window = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2])
local kind = redis.call('TYPE', key)['ok']
if kind ~= 'zset' and kind ~= 'none' then redis.call('DEL', key) end
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local n = redis.call('ZCARD', key)
local allowed = 0
if n < tonumber(ARGV[3]) then
  redis.call('ZADD', key, now, ARGV[4])
  redis.call('PEXPIRE', key, math.ceil(window * 1000))
  n = n + 1
  allowed = 1
end
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
return {allowed, n, oldest[2] or ARGV[1]}
"""

_local_lock = threading.Lock()
_scripts: dict[int, object] = {}  # id(redis client) -> its registered script


class ScopedThrottle(ScopedRateThrottle):
    """DRF's scoped throttle, reading its rate on every request rather than once at import (so
    settings overridden later, in tests, apply) and counting atomically. Signed-in callers
    count per user."""

    def get_rate(self) -> str | None:
        try:
            return api_settings.DEFAULT_THROTTLE_RATES[self.scope]
        except KeyError:
            raise ImproperlyConfigured(f"no throttle rate for scope {self.scope!r}") from None

    def allow_request(self, request, view) -> bool:
        # ScopedRateThrottle's: the view's scope and its rate, or no limit.
        self.scope = getattr(view, self.scope_attr, None)
        if not self.scope:
            return True
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.now = self.timer()
        backend = caches[DEFAULT_CACHE_ALIAS]  # the cache itself, not DRF's proxy of it
        if isinstance(backend, RedisCache):
            return self._count_in_redis(backend)
        return self._count_in_process()

    def _count_in_redis(self, backend: RedisCache) -> bool:
        key = backend.make_and_validate_key(self.key)
        client = backend._cache.get_client(key, write=True)
        script = _scripts.get(id(client))
        if script is None:
            script = _scripts[id(client)] = client.register_script(_COUNT)
        self.member = f"{self.now!r}:{os.urandom(6).hex()}"
        allowed, count, oldest = script(
            keys=[key], args=[repr(self.now), self.duration, self.num_requests, self.member]
        )
        # What ``wait`` reads: how many are in the window, and when the oldest came.
        self.history = [self.now] * (int(count) - 1) + [float(oldest)]
        return bool(allowed)

    def _count_in_process(self) -> bool:
        with _local_lock:
            history = [t for t in self.cache.get(self.key, []) if t > self.now - self.duration]
            self.history = history
            if len(history) >= self.num_requests:
                return False
            history.insert(0, self.now)
            self.cache.set(self.key, history, self.duration)
            return True

    def refund(self) -> None:
        """Give back the request ``allow_request`` just counted: it made nothing (a new game
        the caps refused), and only what is made spends the budget."""
        key = getattr(self, "key", None)
        if key is None or self.rate is None:
            return
        backend = caches[DEFAULT_CACHE_ALIAS]
        if isinstance(backend, RedisCache):
            redis_key = backend.make_and_validate_key(key)
            member = getattr(self, "member", None)
            if member is not None:
                backend._cache.get_client(redis_key, write=True).zrem(redis_key, member)
            return
        with _local_lock:
            history = self.cache.get(key, [])
            if self.now in history:
                history.remove(self.now)
                self.cache.set(key, history, self.duration)


class SignInThrottle(ScopedThrottle):
    """Sign-in and sign-up count per client address, signed in or not: the address is what a
    password guesser cannot cheaply change."""

    def allow_request(self, request, view) -> bool:
        """Only a POST is an attempt: a GET (a 405), a CORS preflight's OPTIONS or a DELETE
        of one's token spent the budget of the sign-in that followed."""
        if request.method != "POST":
            return True
        return super().allow_request(request, view)

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
