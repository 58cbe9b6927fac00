"""The benches' fast copies of a game (``bench.common.clone_games``): a copy of 500 games
writes 11,000 orders, more than one statement of VALUES can carry on PostgreSQL (65,535
parameters), whatever the number of an order's columns."""

from __future__ import annotations

import pytest

from bench import common
from games.models import Game, Order

pytestmark = pytest.mark.django_db


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
