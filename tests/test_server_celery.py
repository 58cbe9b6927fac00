"""End to end with a real Celery worker: a game made through the API, processed at its deadline.

The worker is a separate process on the Redis broker, reading the test database (committed
data, hence a transactional test). Nothing runs eagerly: if the deadline task never reaches
the worker, the phase is never processed and the test fails. CI only needs PostgreSQL and
Redis; locally the test skips without them.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from conftest import wait_for
from django.utils import timezone
from rest_framework.test import APIClient

pytestmark = [
    pytest.mark.usefixtures("require_postgres", "require_redis"),
    pytest.mark.broker,
    pytest.mark.django_db(transaction=True),
]


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
