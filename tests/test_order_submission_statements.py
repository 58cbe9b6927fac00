"""How an order submission talks to the database: its transaction in three round trips
(``games.prepared.pipelined``), its statements on cursors kept per connection, and its
replacement undone whenever a check under the game's lock refuses it."""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import pytest
from django.db import DatabaseError, connection, transaction
from django.test.utils import CaptureQueriesContext

from games import prepared, services
from games.models import Membership, Order

# A compiled statement of the kind a submission runs, for the tests of cursors and errors.
SEAT_STATE = prepared.Prepared(
    lambda seat: (
        Membership.objects.filter(pk=seat)
        .order_by()
        .values_list("status", "missed_phases", "removed")
    ),
    ("int",),
)


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
    assert SEAT_STATE.run(pk) == [["active", 0, False]]
    cursor, kept = prepared._cursor("default", SEAT_STATE)
    assert kept and SEAT_STATE.run(pk) == [["active", 0, False]]
    assert prepared._cursor("default", SEAT_STATE)[0] is cursor
    # A new connection gets cursors of its own.
    connection.close()
    assert SEAT_STATE.run(pk) == [["active", 0, False]]
    again, kept = prepared._cursor("default", SEAT_STATE)
    assert kept and again is not cursor and not again.closed


def test_compiled_statements_are_still_counted_and_their_errors_are_djangos(game, seat) -> None:
    pk = seat(game, "France").pk
    with CaptureQueriesContext(connection) as queries:
        SEAT_STATE.run(pk)
    assert len(queries) == 1 and "games_membership" in queries[0]["sql"]
    broken = prepared.Prepared(
        lambda seat: Membership.objects.filter(pk=seat).values_list("status"), ("int",)
    )
    sql, params, slots, converters, _raw = broken.compile()
    sql = sql.replace("games_membership", "no_such_table")
    broken._compiled = (sql, params, slots, None, prepared.numbered(sql))
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
    assert prepared._cursor("default", SEAT_STATE)[1]  # kept, unwatched
    with mock.patch.object(CursorWrapper, "execute", watched):
        assert prepared._cursor("default", SEAT_STATE)[1] is False
        assert SEAT_STATE.run(pk) == [["active", 0, False]]
    assert len(seen) == 1 and "games_membership" in seen[0]


@pytest.mark.django_db(transaction=True)  # a second connection must see the rows
def test_the_submission_locks_the_games_row_and_not_the_seats(game, seat, require_postgres):
    """The submission locks the game's row alone: held, it stops another writer of the game,
    not one of the seat."""
    import psycopg

    france = seat(game, "France")
    with transaction.atomic():
        locked = services._send_lock_for_orders(france)
        assert locked() == game.current_phase_id
        with _other_connection() as other:
            other.autocommit = True
            other.execute("SET lock_timeout = '300ms'")
            other.execute(
                "UPDATE games_membership SET ready = NOT ready WHERE id = %s", (france.pk,)
            )
            with pytest.raises(psycopg.errors.LockNotAvailable):
                other.execute("UPDATE games_game SET name = name WHERE id = %s", (game.pk,))


def test_compiled_sql_takes_postgresqls_numbered_placeholders() -> None:
    assert prepared.numbered("SELECT %s, '100%%' WHERE a = %s") == b"SELECT $1, '100%' WHERE a = $2"
    with pytest.raises(ValueError, match="placeholder %d"):
        prepared.numbered("SELECT %d")


@pytest.mark.parametrize("count", [1, 4, 12])
def test_a_submission_of_many_orders_is_stored_whole(game, seat, count) -> None:
    """Past 50 values (four orders and more) psycopg would split the SQL at every run; the
    raw cursor takes it numbered, and every row arrives in its place."""
    france = _seat_as_the_api_reads_it(seat(game, "France"))
    texts = [["A Paris H", "A Marseilles H", "F Brest H"][n % 3] for n in range(count)]
    for _ in range(2):  # the second run goes the compiled way
        orders = services.submit_orders(france, texts, phase=france.game.current_phase)
        assert [o.text for o in orders] == texts and all(o.pk for o in orders)
    stored = Order.objects.filter(phase=france.game.current_phase, power="France")
    assert list(stored.order_by("position").values_list("text", "position")) == [
        (text, n) for n, text in enumerate(texts)
    ]


def test_values_taken_as_they_are_are_what_django_would_save() -> None:
    """``PreparedInsert`` skips ``pre_save`` and ``get_db_prep_save`` for plain values of
    Django's text and boolean fields: each must be what those calls give."""
    from django.utils.safestring import mark_safe
    from django.utils.translation import gettext_lazy

    from games.models import Phase

    insert = services.INSERT_ORDERS
    taken = [f for f, as_is in zip(insert.fields, insert._as_is, strict=True) if as_is]
    assert {f.name for f in taken} >= {"power", "text", "canonical", "valid", "reason"}
    for value in ("A Paris H", "", None, True, False, mark_safe("x"), gettext_lazy("Hold"), 3):
        for field in taken:
            order = Order(phase=Phase(pk=1), power="France", position=0)
            setattr(order, field.attname, value)
            if value is not None and type(value) is not prepared._value_as_is(field):
                continue  # goes the long way
            expected = field.get_db_prep_save(field.pre_save(order, True), connection=connection)
            assert expected == value and type(expected) is type(value), (field, value)
    # A subclass that changes how a value is saved is never taken as it is.
    from django.db import models

    class Shouting(models.CharField):
        def get_prep_value(self, value):
            return super().get_prep_value(value).upper()

    assert prepared._value_as_is(Shouting(max_length=5)) is None
    assert prepared._value_as_is(models.JSONField()) is None


def test_a_seat_that_now_plays_another_power_is_refused(make_game, seat) -> None:
    """A player seated again keeps their seat row, on whatever power they now play: orders
    read for the old power must not be stored for it."""
    game = make_game(players=6)
    france = _seat_as_the_api_reads_it(seat(game, "France"))
    taken = set(game.memberships.values_list("power", flat=True))
    free = next(p for p in ("Turkey", "Russia", "Italy", "Germany") if p not in taken)
    Membership.objects.filter(pk=france.pk).update(power=free)  # as if seated anew there
    with pytest.raises(services.GameError, match="no longer play France"):
        services.submit_orders(france, ["A Paris H"], phase=france.game.current_phase)
    assert not Order.objects.filter(text="A Paris H").exists()


def _other_connection():
    import psycopg
    from django.db import connection

    params = connection.get_connection_params()
    for name in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(name, None)
    return psycopg.connect(**params)


@contextmanager
def _changed_while_locked(game, sql: str, params: tuple) -> Iterator[None]:
    """A second connection holds the game's row lock and makes a change (``sql``), committed
    half a second into the block: what the block does waits for the lock meanwhile."""
    other = _other_connection()
    other.execute("SELECT id FROM games_game WHERE id = %s FOR UPDATE", (game.pk,))
    other.execute(sql, params)
    threading.Timer(0.5, other.commit).start()
    try:
        yield
    finally:
        other.close()


@pytest.mark.django_db(transaction=True)  # two connections must see each other's commits
@pytest.mark.parametrize(
    "change",
    [
        "UPDATE games_membership SET removed = true, status = 'civil_disorder' WHERE id = %s",
        "UPDATE games_membership SET status = 'replaced' WHERE id = %s",
    ],
)
def test_a_seat_changed_while_the_submission_waits_for_the_lock_is_refused(
    game, seat, change, require_postgres
) -> None:
    """The seat is read after the game's lock is taken, in a statement of its own: one that
    waited for the lock would answer the seat as it was when it began (PostgreSQL's snapshot),
    and the orders of a seat removed or replaced meanwhile would be stored."""
    france = Membership.objects.select_related("game__current_phase").get(
        pk=seat(game, "France").pk
    )
    with (
        _changed_while_locked(game, change, (france.pk,)),
        pytest.raises(services.GameError, match="no longer play France"),
    ):
        services.submit_orders(france, ["A Paris H"], phase=france.game.current_phase)
    assert not Order.objects.filter(power="France", text="A Paris H").exists()


@pytest.mark.django_db(transaction=True)  # two connections must see each other's commits
@pytest.mark.parametrize(
    "change",
    [
        "UPDATE games_membership SET removed = true, status = 'civil_disorder' WHERE id = %s",
        # The row gone (its player's account deleted): the rules' error, a 400 at the API, not
        # a ``DoesNotExist`` and a 500.
        "DELETE FROM games_membership WHERE id = %s",
    ],
)
def test_a_seat_changed_while_ready_waits_for_the_lock_is_refused(
    game, seat, change, require_postgres
):
    """``_lock_seat`` (ready, press and the other seat actions) reads the seat after the lock
    too: read with it, in one statement, the seat was the one from before the wait."""
    france = seat(game, "France")
    with (
        _changed_while_locked(game, change, (france.pk,)),
        pytest.raises(services.GameError, match="no longer play France"),
    ):
        services.set_ready(france, True)
    assert not Membership.objects.filter(pk=france.pk, ready=True).exists()


def test_a_seat_or_game_gone_is_refused_by_every_seat_action(game, seat) -> None:
    """Ready (``_lock_seat``) and orders (their own statements) on a seat whose row, or whose
    game's row, is gone: the rules' error, never a ``DoesNotExist``."""
    france, italy = seat(game, "France"), seat(game, "Italy")
    phase = game.current_phase
    Membership.objects.filter(pk=france.pk).delete()
    with pytest.raises(services.GameError, match="no longer play France"):
        services.set_ready(france, True)
    with pytest.raises(services.GameError, match="no longer play France"):
        services.submit_orders(france, ["A Paris H"], phase=phase)
    from games.models import Game

    Game.objects.filter(pk=game.pk).delete()
    with pytest.raises(services.GameError, match="game no longer exists"):
        services.set_ready(italy, True)
    with pytest.raises(services.GameError, match="game no longer exists"):
        services.submit_orders(italy, ["A Rome H"], phase=phase)


@pytest.mark.django_db(transaction=True)  # two connections must see each other's commits
def test_a_deadline_moved_while_processing_waits_for_the_lock_is_kept(game, require_postgres):
    """``process_phase`` reads the phase after the game's lock: read with it, the phase was
    the one from before the wait, and a deadline the moderator moved later meanwhile was
    still taken as due."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Phase

    phase = game.current_phase
    Phase.objects.filter(pk=phase.pk).update(deadline=timezone.now() - timedelta(seconds=5))
    later = timezone.now() + timedelta(hours=1)
    moved = "UPDATE games_phase SET deadline = %s WHERE id = %s"
    with _changed_while_locked(game, moved, (later, phase.pk)):
        assert services.process_phase(game.pk, phase.pk) is False
    assert Phase.objects.get(pk=phase.pk).processed_at is None
