r"""Requests generated from the API's own OpenAPI schema: none may crash the server (500) or
answer what the schema does not describe.

schemathesis reads ``/api/schema/`` from the Django WSGI app and, for every operation, sends
requests it generates, signed in with the token of a player who also moderates the game the
game paths point at (so moderator tools and orders are reached, not only 403s and 404s).

The default run is short (about 300 requests). The long run (some 3,500):

    SCHEMATHESIS_MAX_EXAMPLES=100 SCHEMATHESIS_COVERAGE=1 \
        .venv/bin/pytest tests/test_schemathesis.py

Either prints the number of requests sent and the statuses they got.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from greatgame.wsgi import application

MAX_EXAMPLES = int(os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "15"))
# The coverage phase adds some 1,400 requests of boundary and invalid values: long runs only.
COVERAGE = os.environ.get("SCHEMATHESIS_COVERAGE", "") not in ("", "0")
CONFIG = SchemathesisConfig.from_dict(
    {
        "generation": {"mode": "all"},  # valid requests and invalid ones
        "phases": {"coverage": {"enabled": COVERAGE}},
    }
)
# No 500s, and every answer as the schema says: status, content type, body and headers. Not
# schemathesis's checks that assume generated data is either all valid or all invalid (a valid
# order can still break a rule of the game), nor its auth check, which cannot tell the fixed
# token sent here from the credentials it generates.
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]

# Statuses of every request sent in this module, reported at its end.
STATUSES: Counter[int] = Counter()


@pytest.fixture(scope="module", autouse=True)
def report(request: pytest.FixtureRequest):
    yield
    plugins = request.config.pluginmanager
    reporter = plugins.get_plugin("terminalreporter")
    if reporter is None or not STATUSES:
        return
    counts = ", ".join(f"{code}: {n}" for code, n in sorted(STATUSES.items()))
    with plugins.get_plugin("capturemanager").global_and_fixture_disabled():
        reporter.write_line(
            f"\nschemathesis: {STATUSES.total()} requests ({counts}); "
            f"max_examples={MAX_EXAMPLES}, coverage phase {'on' if COVERAGE else 'off'}"
        )


@pytest.fixture
def serving(db):
    """Let the WSGI app serve inside the test's transaction.

    Django closes "old" database connections at the start and end of every request; in a test
    that would close the connection holding the test's transaction, so (as Django's test client
    does) that handler is switched off while the app serves generated requests.
    """
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def fuzz_world(make_user, make_game, seat):
    """A started standard game whose France player is also its moderator, and their token."""
    from rest_framework.authtoken.models import Token

    from games import engine, services

    user = make_user("fuzzer")
    game = services.create_game(user, name="Fuzzed", variant="standard")
    services.join_game(game, user, ["France"])
    for power in engine.powers(game):
        if power != "France":
            services.join_game(game, make_user(f"fuzz_{power.lower()}"), [power])
    game.refresh_from_db()
    return {"game": game, "token": Token.objects.create(user=user).key}


# Read when the module is collected; serving the schema touches no database.
schema = schemathesis.openapi.from_wsgi("/api/schema/", application, config=CONFIG)


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_api_answers_as_its_schema_says(case, serving, fuzz_world) -> None:
    if case.path_parameters and "id" in case.path_parameters and "/games/" in case.path:
        case.path_parameters["id"] = fuzz_world["game"].pk
    response = case.call(headers={"Authorization": f"Token {fuzz_world['token']}"})
    STATUSES[response.status_code] += 1
    case.validate_response(response, checks=CHECKS)
