"""The benches' fast copies of a game (``bench.common.clone_games``): a copy of 500 games
writes 11,000 orders, more than one statement of VALUES can carry on PostgreSQL (65,535
parameters), whatever the number of an order's columns."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.db.models import NOT_PROVIDED

import bench
from bench import common
from games.models import Game, Order


@pytest.mark.django_db
def test_a_storm_sized_batch_of_copies_is_written(require_postgres) -> None:
    ids = common.clone_games(501, "clone")
    assert len(ids) == 501
    template = Game.objects.get(pk=ids[0])
    per_game = Order.objects.filter(phase_id=template.current_phase_id).count()
    assert per_game == 22  # the standard opening: every unit ordered
    copied = Order.objects.filter(phase__game_id__in=ids[1:]).count()
    assert copied == 500 * per_game
    last = Game.objects.get(pk=ids[-1])
    assert Order.objects.filter(phase_id=last.current_phase_id).count() == per_game


def test_the_floor_bench_inserts_every_column_an_order_needs() -> None:
    """``bench.api_floor`` replays a submission's statements with pgbench; an order column
    added without a database default (``stopped_at``, ``needs``) made every insert fail."""
    script = (Path(bench.__file__).parent / "put_statements.sql").read_text()
    match = re.search(r"INSERT INTO games_order \(([^)]*)\) VALUES", script)
    assert match, "the script inserts orders"
    listed = {name.strip() for name in match.group(1).split(",")}
    fields = [f for f in Order._meta.concrete_fields if not f.primary_key]
    required = {f.column for f in fields if not f.null and f.db_default is NOT_PROVIDED}
    assert required <= listed, f"not inserted: {sorted(required - listed)}"
    assert listed <= {f.column for f in fields}, "every column inserted exists"
