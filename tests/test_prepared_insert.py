"""games.prepared.PreparedInsert: the same INSERT and the same rows as ``bulk_create``."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models import Value
from django.db.models.functions import Upper
from django.test.utils import CaptureQueriesContext

from games.models import Game, Order
from games.prepared import PreparedInsert

pytestmark = pytest.mark.django_db

COLUMNS = [f.attname for f in Order._meta.concrete_fields if f.attname != "id"]


def rows(game: Game, texts: list[str]) -> list[Order]:
    phase, seat = game.current_phase, game.memberships.get(power="France")
    return [
        Order(
            phase=phase,
            power="France",
            membership=seat,
            text=text,
            canonical=text.upper(),
            location=None if n % 2 else "Paris",
            valid=bool(n % 2),
            data=None if n % 3 == 2 else {"kind": "hold", "n": n, "names": ["a", "ü"]},
            reason="why not" if n % 2 else "",
            reason_words={"template": "why {x}", "args": {"x": str(n)}} if n % 2 else None,
            position=n,
        )
        for n, text in enumerate(texts)
    ]


def stored(orders: list[Order]) -> list[tuple]:
    got = Order.objects.filter(pk__in=[o.pk for o in orders]).order_by("position")
    return [tuple(getattr(o, c) for c in COLUMNS) for o in got]


@pytest.mark.parametrize("count", [1, 2, 5])
def test_the_same_statement_and_rows_as_bulk_create(game: Game, count: int) -> None:
    insert = PreparedInsert(Order)
    texts = [f"A Paris H {n}" for n in range(count)]
    with CaptureQueriesContext(connection) as first:
        by_orm = insert.create(rows(game, texts))  # first of its count: bulk_create itself
    assert count in insert._sql
    Order.objects.filter(pk__in=[o.pk for o in by_orm]).delete()
    with CaptureQueriesContext(connection) as second:
        prepared = insert.create(rows(game, texts))
    with CaptureQueriesContext(connection) as third:
        plain = Order.objects.bulk_create(rows(game, texts))

    def statements(captured) -> list[str]:  # the ids differ, nothing else
        return [q["sql"] for q in captured.captured_queries if "INSERT" in q["sql"]]

    assert statements(second) == statements(third) == statements(first)
    assert len(statements(second)) == 1
    assert all(o.pk and not o._state.adding and o._state.db == "default" for o in prepared)
    assert len({o.pk for o in prepared}) == count
    assert stored(prepared) == stored(plain)
    assert stored(prepared)[0][COLUMNS.index("data")] == {
        "kind": "hold",
        "n": 0,
        "names": ["a", "ü"],
    }


def test_rows_it_cannot_take_go_through_bulk_create(game: Game) -> None:
    insert = PreparedInsert(Order)
    insert.create(rows(game, ["A Paris H", "A Brest H"]))
    odd = rows(game, ["A Paris H", "A Brest H"])
    odd[1].text = Upper(Value("a brest h"))  # an expression: the compiler's work
    done = insert.create(odd)
    assert Order.objects.get(pk=done[1].pk).text == "A BREST H"
    assert Order.objects.get(pk=done[0].pk).text == "A Paris H"


def test_saving_orders_uses_it(game: Game) -> None:
    from games import services

    seat = game.memberships.get(power="France")
    services.submit_orders(seat, ["A Paris - Burgundy", "F Brest - Mid-Atlantic Ocean"])
    with CaptureQueriesContext(connection) as captured:
        services.submit_orders(seat, ["A Paris H", "F Brest H", "A Marseilles H"])
    inserts = [q for q in captured.captured_queries if q["sql"].startswith("INSERT")]
    assert len(inserts) == 1
    assert list(
        Order.objects.filter(phase=game.current_phase, power="France").values_list(
            "canonical", "position"
        )
    ) == [("A Paris H", 0), ("F Brest H", 1), ("A Marseilles H", 2)]
    assert 3 in services.INSERT_ORDERS._sql
