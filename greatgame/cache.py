"""Django's Redis cache with one client per connection pool.

Django's ``RedisCacheClient`` builds a new ``redis.Redis`` for every cache call, and redis-py
fills a table of about 80 reply callbacks each time: four cache calls an order submission
(throttles) cost more CPU than the queries' round trips. ``redis.Redis`` is thread-safe and
holds no state of its own besides its pool, so one per pool serves every call.
"""

from __future__ import annotations

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class SharedClient(RedisCacheClient):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, object] = {}

    def get_client(self, key=None, *, write: bool = False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class SharedClientRedisCache(RedisCache):
    """``RedisCache`` whose calls share one Redis client per server."""

    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = SharedClient
