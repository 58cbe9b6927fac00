"""How an order submission talks to the database: its transaction in three round trips
(``games.prepared.pipelined``), its statements on cursors kept per connection, and its
replacement undone whenever a check under the game's lock refuses it."""

from __future__ import annotations

import tempfile
from pathlib import Path
from unittest import mock

import pytest
from django.db import DatabaseError, connection
from django.test.utils import CaptureQueriesContext

from games import prepared, services
from games.models import Membership, Order


def _seat_as_the_api_reads_it(seat) -> Membership:
    return Membership.objects.select_related("game__current_phase").get(pk=seat.pk)


def _frontend_messages(run) -> list[str]:
    """The protocol messages the client sends while ``run()`` runs (libpq's trace)."""
    from psycopg import pq

    connection.ensure_connection()
    pgconn = connection.connection.pgconn
    with tempfile.NamedTemporaryFile("w+") as trace:
        pgconn.trace(trace.fileno())
        pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)
        try:
            run()
        finally:
            pgconn.untrace()
        lines = Path(trace.name).read_text().splitlines()
    return [line.split("\t")[2].split()[0] for line in lines if line.startswith("F\t")]


def test_a_submission_waits_for_the_database_three_times(game, seat, require_postgres) -> None:
    """BEGIN, then the lock, the seat's re-read, the delete and the insert together, then
    COMMIT: each ``Sync`` or simple ``Query`` is one wait for the server. Statement by
    statement it was six."""
    france = _seat_as_the_api_reads_it(seat(game, "France"))
    services.submit_orders(france, ["A Paris H"], phase=france.game.current_phase)

    def submit() -> None:
        orders = services.submit_orders(
            france, ["A Paris - Burgundy", "F Brest H"], phase=france.game.current_phase
        )
        assert [o.canonical for o in orders] == ["A Paris - Burgundy", "F Brest H"]

    sent = _frontend_messages(submit)
    waits = [m for m in sent if m in ("Sync", "Query")]
    assert len(waits) == 3, sent
    stored = Order.objects.filter(phase=france.game.current_phase, power="France")
    assert sorted(stored.values_list("text", flat=True)) == ["A Paris - Burgundy", "F Brest H"]


def test_orders_for_a_phase_processed_meanwhile_leave_its_orders_as_they_were(
    game, seat, moderator
) -> None:
    """The replacement goes with the lock, before the phase is compared: the comparison's
    refusal must undo it, in the processed phase too."""
    france = _seat_as_the_api_reads_it(seat(game, "France"))
    services.submit_orders(seat(game, "France"), ["A Paris - Burgundy"])
    processed = france.game.current_phase
    services.process_now(game, moderator)
    before = list(Order.objects.filter(phase=processed, power="France").values_list())
    assert before
    with pytest.raises(services.PhaseChanged):
        services.submit_orders(france, ["A Paris H"], phase=processed)
    assert list(Order.objects.filter(phase=processed, power="France").values_list()) == before
    assert not Order.objects.filter(text="A Paris H").exists()


def test_orders_from_a_seat_removed_meanwhile_change_nothing(game, seat) -> None:
    france = _seat_as_the_api_reads_it(seat(game, "France"))
    services.submit_orders(france, ["A Paris - Burgundy"], phase=france.game.current_phase)
    Membership.objects.filter(pk=france.pk).update(removed=True)  # the moderator, meanwhile
    with pytest.raises(services.GameError, match="no longer play France"):
        services.submit_orders(france, ["A Paris H"], phase=france.game.current_phase)
    stored = Order.objects.filter(phase=france.game.current_phase, power="France")
    assert list(stored.values_list("text", flat=True)) == ["A Paris - Burgundy"]


def test_orders_with_a_stale_version_change_nothing(game, seat) -> None:
    france = _seat_as_the_api_reads_it(seat(game, "France"))
    services.submit_orders(france, ["A Paris - Burgundy"], phase=france.game.current_phase)
    with pytest.raises(services.OrdersChanged):
        services.submit_orders(
            france, ["A Paris H"], phase=france.game.current_phase, version="0.0.stale"
        )
    stored = Order.objects.filter(phase=france.game.current_phase, power="France")
    assert list(stored.values_list("text", flat=True)) == ["A Paris - Burgundy"]


@pytest.mark.django_db(transaction=True)  # it closes the connection: no test transaction
def test_a_compiled_statement_keeps_its_cursor_on_the_connection(
    game, seat, require_postgres
) -> None:
    pk = seat(game, "France").pk
    assert services.SEAT_STATE.run(pk) == [["active", 0, False]]
    cursor, kept = prepared._cursor("default", services.SEAT_STATE)
    assert kept and services.SEAT_STATE.run(pk) == [["active", 0, False]]
    assert prepared._cursor("default", services.SEAT_STATE)[0] is cursor
    # A new connection gets cursors of its own.
    connection.close()
    assert services.SEAT_STATE.run(pk) == [["active", 0, False]]
    again, kept = prepared._cursor("default", services.SEAT_STATE)
    assert kept and again is not cursor and not again.closed


def test_compiled_statements_are_still_counted_and_their_errors_are_djangos(game, seat) -> None:
    pk = seat(game, "France").pk
    with CaptureQueriesContext(connection) as queries:
        services.SEAT_STATE.run(pk)
    assert len(queries) == 1 and "games_membership" in queries[0]["sql"]
    broken = prepared.Prepared(
        lambda seat: Membership.objects.filter(pk=seat).values_list("status"), ("int",)
    )
    sql, params, slots, converters = broken.compile()
    broken._compiled = (sql.replace("games_membership", "no_such_table"), params, slots, None)
    with pytest.raises(DatabaseError):
        broken.run(pk)


def test_statements_go_through_djangos_cursor_where_a_tool_watches_it(
    game, seat, require_postgres
) -> None:
    """Sentry's Django integration wraps ``CursorWrapper.execute`` for its SQL spans and
    breadcrumbs: the busiest statements must not go unseen by it."""
    import functools

    from django.db.backends.utils import CursorWrapper

    seen = []
    real = CursorWrapper.execute

    @functools.wraps(real)
    def watched(self, sql, params=None):
        seen.append(sql)
        return real(self, sql, params)

    pk = seat(game, "France").pk
    assert prepared._cursor("default", services.SEAT_STATE)[1]  # kept, unwatched
    with mock.patch.object(CursorWrapper, "execute", watched):
        assert prepared._cursor("default", services.SEAT_STATE)[1] is False
        assert services.SEAT_STATE.run(pk) == [["active", 0, False]]
    assert len(seen) == 1 and "games_membership" in seen[0]
