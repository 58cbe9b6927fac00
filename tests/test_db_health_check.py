"""greatgame.postgresql: Django's health check only for a connection idle a while, and a
connection the server dropped still replaced (one JSON 503, then answers again)."""

from __future__ import annotations

import psycopg
import pytest
from django.core.signals import request_finished, request_started
from django.db import OperationalError, connection, connections

from greatgame.postgresql import base


class Checks(list):
    """The health checks Django made, each at the time of the test's clock."""

    clock = 1000.0


@pytest.fixture
def checks(require_postgres, monkeypatch) -> Checks:
    """The health checks counted (each still done), on a clock the test moves."""
    made = Checks()
    real = connection.is_usable

    def counted() -> bool:
        made.append(made.clock)
        return real()

    monkeypatch.setattr(connection, "is_usable", counted)
    monkeypatch.setattr(base, "monotonic", lambda: made.clock)
    return made


def request(sql: str = "SELECT 1") -> None:
    """What Django does around a request: old connections looked at, then a query."""
    request_started.send(sender=None)
    try:
        with connection.cursor() as cursor:
            cursor.execute(sql)
            cursor.fetchone()
    finally:
        request_finished.send(sender=None)


@pytest.mark.django_db(transaction=True)
def test_a_busy_connection_is_not_checked_an_idle_one_is(checks) -> None:
    assert isinstance(connections["default"], base.DatabaseWrapper)
    assert connection.settings_dict["CONN_HEALTH_CHECKS"]
    request()  # a new connection: healthy, as Django says
    request()  # the first reuse is checked (no request before it)
    assert len(checks) == 1
    for _ in range(5):  # every 0.2 s: busy, trusted
        checks.clock += 0.2
        request()
    assert len(checks) == 1
    checks.clock += base.HEALTH_CHECK_AFTER_IDLE + 0.1  # idle a while: checked again
    request()
    assert len(checks) == 2


@pytest.mark.django_db(transaction=True)
def test_a_connection_the_server_dropped_is_replaced(checks) -> None:
    request()
    request()
    checks.clock += 0.1
    pid = connection.connection.info.backend_pid
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", (pid,))
    with pytest.raises(OperationalError):  # busy a moment ago, not checked: this request fails
        request()
    assert connection.connection is None  # and Django dropped the broken connection
    request()  # the next one connects afresh
    assert connection.connection.info.backend_pid != pid
