"""PostgreSQL statements bound by the server and prepared on their second run
(``DATABASE_PREPARED_STATEMENTS``): a request's statements repeat on every request, and
planning the seat's read cost PostgreSQL more than running it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from games.models import Game


def _prepared_count() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements")
        return cursor.fetchone()[0]


@pytest.mark.django_db
def test_a_repeated_query_is_prepared_once_and_answers_alike(require_postgres) -> None:
    user = get_user_model().objects.create(username="prepared")
    game = Game.objects.create(name="prepared", variant="standard", creator=user)
    before = _prepared_count()
    names = [list(Game.objects.filter(pk=game.pk).values_list("name", flat=True)) for _ in range(3)]
    assert names == [["prepared"]] * 3
    assert _prepared_count() > before


def _options(**env: str) -> dict:
    """The database OPTIONS the settings give for ``env``, read in a fresh interpreter."""
    code = (
        "import json, django; from django.conf import settings; django.setup(); "
        "print(json.dumps(settings.DATABASES['default'].get('OPTIONS', {}), default=str))"
    )
    environ = {**os.environ, "DJANGO_SETTINGS_MODULE": "greatgame.settings", **env}
    out = subprocess.run(
        [sys.executable, "-c", code], env=environ, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_on_by_default_for_postgresql_and_off_when_asked() -> None:
    url = "postgres://someone@db.example:5432/greatgame"
    on = _options(DATABASE_URL=url)
    assert on.get("server_side_binding") is True and on.get("prepare_threshold") == 2
    off = _options(DATABASE_URL=url, DATABASE_PREPARED_STATEMENTS="0")
    assert "server_side_binding" not in off and "prepare_threshold" not in off
    sqlite = _options(DATABASE_URL="sqlite:////tmp/prepared.sqlite3")
    assert "prepare_threshold" not in sqlite
