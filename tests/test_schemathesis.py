r"""Requests generated from the API's own OpenAPI schema: none may crash the server (500) or
answer what the schema does not describe, and the validation must say what the schema says.

schemathesis reads ``/api/schema/`` from the Django WSGI app and sends the requests it
generates, signed in with the token of a player who also moderates the game the game paths
point at (so moderator tools and orders are reached, not only 403s and 404s). Two tests:

- every operation alone, with valid and invalid data (and, in long runs, the coverage phase
  of boundary and invalid values);
- the stateful phase: sequences of calls linked by what earlier answers returned (a game
  created, then joined, started, ordered, messaged...).

The default run is short (some 600 requests) and stays in ``make test``. The long run:

    SCHEMATHESIS_MAX_EXAMPLES=100 SCHEMATHESIS_COVERAGE=1 SCHEMATHESIS_STATEFUL_EXAMPLES=300 \
        DATABASE_URL=postgres://postgres@127.0.0.1:5432/gg_limits \
        .venv/bin/pytest tests/test_schemathesis.py

Either prints the number of requests sent and the statuses they got.
"""

from __future__ import annotations

import os
import re
from collections import Counter

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from greatgame.wsgi import application

MAX_EXAMPLES = int(os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "15"))
# The coverage phase adds some 1,600 requests of boundary and invalid values: long runs only.
COVERAGE = os.environ.get("SCHEMATHESIS_COVERAGE", "") not in ("", "0")
STATEFUL_EXAMPLES = int(os.environ.get("SCHEMATHESIS_STATEFUL_EXAMPLES", "10"))
CONFIG = SchemathesisConfig.from_dict(
    {
        "generation": {"mode": "all"},  # valid requests and invalid ones
        "phases": {"coverage": {"enabled": COVERAGE}},
    }
)

# DRF's own words for a value of the wrong form. Schema-valid data refused with one of them
# means the schema and the validation disagree; a 400 for breaking a rule of the game (an
# order for a unit one does not have, an unknown power) is a refusal the schema cannot foresee.
FORM_ERRORS = re.compile(
    "|".join(
        [
            r"This field may not be (blank|null)\.",
            r"This field is required\.",
            r"Not a valid string\.",
            r"Must be (a valid boolean|true or false)\.",
            r"A valid (integer|number) is required\.",
            r"Ensure this (field|value) has (no more than|at least)",
            r"Ensure this value is (less|greater) than or equal to",
            r"is not a valid choice\.",
            r"Expected a (list|dictionary) of items",
            r"has wrong format\.",
            r"This list may not be empty\.",
        ]
    )
)


@schemathesis.check
def valid_data_meets_no_form_error(ctx, response, case) -> bool | None:
    """Data the schema allows is never refused for its form (blank, type, length, range)."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code != 400:
        return None
    body = response.text
    found = FORM_ERRORS.search(body)
    if found:
        raise AssertionError(f"schema-valid data refused for its form: {body[:300]}")
    return None


# No 500s; every answer as the schema says (status, content type, body, headers); invalid data
# never accepted; valid data never refused for its form. Not schemathesis's check that valid
# data is always accepted (a valid order can still break a rule of the game: 400), nor its
# auth check, which cannot tell the fixed token sent here from the credentials it generates.
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
    negative_data_rejection,
    valid_data_meets_no_form_error,
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
            f"max_examples={MAX_EXAMPLES}, coverage phase {'on' if COVERAGE else 'off'}, "
            f"stateful examples={STATEFUL_EXAMPLES}"
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
def fuzz_world(make_user, make_game, seat, settings):
    """A started standard game whose France player is also its moderator, and their token.

    The caps on games per creator are lifted, so that the stateful phase can go on creating
    games (a capped creation is a 400, which the schema documents, but it ends the sequence).
    """
    from rest_framework.authtoken.models import Token

    from games import engine, services

    settings.MAX_FORMING_GAMES = settings.MAX_UNFINISHED_GAMES = 0
    user = make_user("fuzzer")
    game = services.create_game(user, name="Fuzzed", variant="standard")
    services.join_game(game, user, ["France"])
    for power in engine.powers(game):
        if power != "France":
            services.join_game(game, make_user(f"fuzz_{power.lower()}"), [power])
    game.refresh_from_db()
    return {"game": game, "token": Token.objects.create(user=user).key}


def signed(token: str) -> dict:
    """Headers of every call: the token, and no gzip (the WSGI transport hands schemathesis
    the body as the middleware compressed it, where an HTTP client would have unzipped it)."""
    return {"Authorization": f"Token {token}", "Accept-Encoding": "identity"}


def as_sent(case):
    """schemathesis's WSGI transport sends multipart fields as file parts, and Django drops an
    empty file: the blank it meant to send never arrives. Multipart bodies go urlencoded
    instead, which the API reads by the same (QueryDict) rules; a body form data cannot carry
    at all (none, or holding an empty list) goes as JSON."""
    if case.media_type in ("multipart/form-data", "application/x-www-form-urlencoded"):
        body = case.body
        unformable = not isinstance(body, dict) or any(v == [] for v in body.values())
        case.media_type = "application/json" if unformable else "application/x-www-form-urlencoded"
    return case


def checks_for(case) -> list:
    """Form data cannot say null, an empty list, or a list of one apart from a string, and an
    empty value in it means none (DRF's rule): much invalid data meant for a form body arrives
    as valid data. Invalid data must be refused in JSON bodies, queries and paths."""
    if case.media_type == "application/x-www-form-urlencoded":
        return [check for check in CHECKS if check is not negative_data_rejection]
    return CHECKS


# Read when the module is collected; serving the schema touches no database.
schema = schemathesis.openapi.from_wsgi("/api/schema/", application, config=CONFIG)
HYPOTHESIS = {"deadline": None, "derandomize": True, "suppress_health_check": list(HealthCheck)}


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, **HYPOTHESIS)
def test_api_answers_as_its_schema_says(case, serving, fuzz_world) -> None:
    game_id = (case.path_parameters or {}).get("id")
    # A well-formed game id is pointed at the fuzzed game; a malformed one is sent as it is.
    if "/games/" in case.path and re.fullmatch(r"[0-9]+", str(game_id)):
        case.path_parameters["id"] = fuzz_world["game"].pk
    response = as_sent(case).call(headers=signed(fuzz_world["token"]))
    STATUSES[response.status_code] += 1
    case.validate_response(response, checks=checks_for(case))


def test_api_workflows_answer_as_its_schema_says(serving, fuzz_world) -> None:
    """The stateful phase: calls chained through the links schemathesis infers (the id a
    creation answers feeds the paths of later calls)."""
    from django.db import transaction

    token = fuzz_world["token"]

    class Workflow(schema.as_state_machine()):
        # Each sequence starts from the same database: what a step may do depends on what
        # earlier answers returned, and hypothesis replays sequences to shrink a failure.
        def setup(self) -> None:
            self.savepoint = transaction.savepoint()

        def teardown(self) -> None:
            transaction.savepoint_rollback(self.savepoint)

        def before_call(self, case) -> None:
            as_sent(case)

        def get_call_kwargs(self, case) -> dict:
            return {"headers": signed(token)}

        def validate_response(self, response, case, additional_checks=None, **kwargs) -> None:
            STATUSES[response.status_code] += 1
            case.validate_response(response, checks=checks_for(case))

    Workflow.run(
        settings=settings(max_examples=STATEFUL_EXAMPLES, stateful_step_count=10, **HYPOTHESIS)
    )
