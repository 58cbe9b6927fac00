"""The project skeleton works: web, database, cache/broker, and CI really uses its services."""

import os

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

DATABASE_URL = os.environ.get("DATABASE_URL", "")
REDIS_URL = os.environ.get("REDIS_URL", "")


def test_healthz_returns_ok(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"ok": True}


@pytest.mark.django_db
def test_database_round_trip() -> None:
    user_model = get_user_model()
    user_model.objects.create_user(username="alice", password="secret-pass-1")
    assert user_model.objects.get(username="alice").check_password("secret-pass-1")


@pytest.mark.skipif(not DATABASE_URL.startswith("postgres"), reason="DATABASE_URL not postgres")
@pytest.mark.django_db
def test_postgres_is_used_when_configured() -> None:
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


@pytest.mark.skipif(not REDIS_URL, reason="REDIS_URL not set")
def test_redis_answers_ping() -> None:
    import redis

    assert redis.Redis.from_url(REDIS_URL).ping() is True


@pytest.mark.skipif(not os.environ.get("CI"), reason="only enforced in CI")
def test_ci_uses_real_services() -> None:
    """CI must never skip PostgreSQL and Redis silently."""
    assert DATABASE_URL, "CI must set DATABASE_URL"
    assert REDIS_URL, "CI must set REDIS_URL"
