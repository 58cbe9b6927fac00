"""End to end with a real Celery worker: a game made through the API, processed at its deadline.

The worker is a separate process on the Redis broker, reading the test database (committed
data, hence a transactional test). Nothing runs eagerly: if the deadline task never reaches
the worker, the phase is never processed and the test fails. CI only needs PostgreSQL and
Redis; locally the test skips without them.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

pytestmark = [
    pytest.mark.usefixtures("require_postgres", "require_redis"),
    pytest.mark.broker,
    pytest.mark.django_db(transaction=True),
]


def wait_for(check, seconds: float, what: str):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        result = check()
        if result:
            return result
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def worker(transactional_db, tmp_path: Path):
    """A `celery worker` subprocess pointed at this test's database."""
    url = urlsplit(os.environ["DATABASE_URL"])
    database_url = urlunsplit(url._replace(path="/" + connection.settings_dict["NAME"]))
    log = tmp_path / "worker.log"
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": settings.REDIS_URL}
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "greatgame", "worker"]
            + ["--pool=solo", "--loglevel=info", "--purge", "--without-heartbeat"]
            + ["--without-gossip", "--without-mingle"],
            cwd=settings.BASE_DIR,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_for(lambda: " ready." in log.read_text() or process.poll() is not None, 60, "worker")
        assert process.poll() is None, log.read_text()
        yield log
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def signed_in(name: str) -> APIClient:
    client = APIClient()
    response = client.post(
        "/api/auth/signup/", {"username": name, "password": "a long pass phrase"}
    )
    assert response.status_code == 201, response.data
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.data['token']}")
    return client


def test_a_deadline_is_processed_by_a_real_worker(worker: Path) -> None:
    moderator = signed_in("moderator")
    game = moderator.post(
        "/api/games/", {"name": "Live", "variant": "standard", "movement_minutes": 60}
    ).data
    url = f"/api/games/{game['id']}/"
    powers = [p["name"] for p in moderator.get("/api/variants/standard/").data["powers"]]
    players = {}
    for power in powers:
        players[power] = signed_in(power.lower())
        assert players[power].post(f"{url}join/", {"preferences": [power]}).status_code == 200
    assert moderator.get(url).data["status"] == "active"

    orders = players["France"].put(f"{url}orders/", {"orders": ["A Paris - Burgundy"]}).data
    assert orders[0]["valid"] is True

    soon = timezone.now() + timedelta(seconds=2)
    response = moderator.post(f"{url}moderation/deadline/", {"deadline": soon.isoformat()})
    assert response.status_code == 200, response.data

    def processed():
        data = moderator.get(url).data
        return data if data["current_phase"]["index"] == 1 else None

    data = wait_for(processed, 60, f"the worker to process the phase\n{worker.read_text()}")
    assert data["current_phase"]["season"] == "fall"
    assert any(u["location"] == "Burgundy" for u in data["current_phase"]["units"])
    phase = players["England"].get(f"{url}phases/0/").data
    assert phase["processed_at"] is not None
    assert phase["orders"][0]["result"] == "succeeds"
    assert "process_phase" in worker.read_text()
