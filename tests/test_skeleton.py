"""The project skeleton works: web, database, cache/broker, and CI really uses its services."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

DATABASE_URL = os.environ.get("DATABASE_URL", "")
REDIS_URL = os.environ.get("REDIS_URL", "")


def test_healthz_of_the_web_alone_needs_no_database(client: Client) -> None:
    response = client.get("/healthz?only=web")
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


COMPOSE = Path(__file__).resolve().parent.parent / "docker-compose.yml"


def test_the_compose_file_is_the_production_stack() -> None:
    """PostgreSQL, Redis, gunicorn (pages and the API; the live streams), a worker and beat,
    all restarted when they stop (the worker must come back on its own if a broker outage
    kills it)."""
    import yaml

    services = yaml.safe_load(COMPOSE.read_text())["services"]
    assert set(services) == {"postgres", "redis", "web", "live", "worker", "beat"}
    assert "gunicorn greatgame.wsgi" in services["web"]["command"]
    assert "gunicorn greatgame.wsgi" in services["live"]["command"]
    assert services["worker"]["command"].startswith("celery -A greatgame worker")
    assert services["beat"]["command"].startswith("celery -A greatgame beat")
    for name, service in services.items():
        assert service["restart"] == "unless-stopped", name
    for name in ("web", "live", "worker", "beat"):
        env = services[name]["environment"]
        assert env["DEBUG"] == "0"
        assert env["DATABASE_URL"].startswith("postgres://") and "@postgres:" in env["DATABASE_URL"]
        assert env["REDIS_URL"].startswith("redis://redis:")


@pytest.mark.skipif(shutil.which("docker-compose") is None, reason="no docker-compose client")
def test_docker_compose_reads_the_file() -> None:
    answer = subprocess.run(
        ["docker-compose", "--file", str(COMPOSE), "config", "--quiet"],
        env={**os.environ, "SECRET_KEY": "only-for-this-check"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert answer.returncode == 0, answer.stderr
