"""`make run` seeds demo logins and a running demo game."""

from io import StringIO

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from games.models import Game

pytestmark = pytest.mark.django_db


def test_seed_demo_starts_a_game_once(settings) -> None:
    settings.DEBUG = True
    out = StringIO()
    call_command("seed_demo", url="http://127.0.0.1:9000", stdout=out)
    call_command("seed_demo", stdout=StringIO())
    game = Game.objects.get()
    assert game.status == Game.Status.ACTIVE
    assert game.memberships.count() == 7
    assert game.current_phase.deadline is not None
    assert authenticate(username="demo3", password="demo") is not None
    assert authenticate(username="demo", password="demo").is_superuser
    text = out.getvalue()
    assert f"http://127.0.0.1:9000/api/games/{game.pk}/" in text
    assert "demo7" in text


def test_seed_demo_refuses_production(settings) -> None:
    settings.DEBUG = False
    with pytest.raises(Exception, match="DEBUG"):
        call_command("seed_demo", stdout=StringIO())
