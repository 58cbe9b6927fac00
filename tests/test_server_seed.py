"""`make run` seeds demo logins and, for each, three running demo games against bots:
Colonial, Far East, Chinese."""

from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.utils import timezone

from games.models import Game

pytestmark = pytest.mark.django_db

URL = "http://127.0.0.1:9000"


def seed() -> str:
    out = StringIO()
    call_command("seed_demo", url=URL, stdout=out)
    return out.getvalue()


def test_seed_demo_starts_colonial_far_east_and_chinese_once(settings) -> None:
    settings.DEBUG = True
    text = seed()
    again = seed()  # idempotent: no second set of games, no crash
    games = {g.variant: g for g in Game.objects.all()}
    assert sorted(games) == ["chinese", "colonial", "far-east"]
    assert Game.objects.count() == 3 * 7  # a game of each variant for each login
    for game in games.values():
        assert game.status == Game.Status.ACTIVE
        assert game.process_when_ready
    assert games["colonial"].memberships.count() == 7
    for game in Game.objects.all():  # one human seat, bots on the others
        humans = game.memberships.filter(bot=False)
        assert humans.count() == 1 and humans.get().user.username.startswith("demo")
        assert game.memberships.filter(bot=True).count() == len(game.memberships.all()) - 1
    assert authenticate(username="demo3", password="demo") is not None
    assert authenticate(username="demo", password="demo").is_superuser
    assert again.count("/games/") == text.count("/games/")


def test_every_demo_login_has_a_colonial_seat_and_another(settings) -> None:
    settings.DEBUG = True
    seed()
    for n in range(1, 8):
        variants = set(
            Game.objects.filter(memberships__user__username=f"demo{n}").values_list(
                "variant", flat=True
            )
        )
        assert "colonial" in variants and len(variants) >= 2, (n, variants)


def test_demo_deadlines_outlast_an_afternoon(settings) -> None:
    """Five-minute deadlines put six of seven demo powers into civil disorder in 14 minutes."""
    settings.DEBUG = True
    seed()
    for game in Game.objects.all():
        deadline = game.current_phase.deadline
        assert deadline is not None
        assert deadline - timezone.now() > timedelta(days=6), game.variant
    assert all(m.status == "active" for g in Game.objects.all() for m in g.memberships.all())


def test_seed_prints_lobby_and_sign_in_first_then_games_then_api(settings) -> None:
    settings.DEBUG = True
    text = seed()
    game = Game.objects.get(variant="colonial", memberships__user__username="demo1")
    lobby = text.index(f"{URL}/\n")
    sign_in = text.index(f"{URL}/accounts/login/")
    page = text.index(f"{URL}/games/{game.pk}/")
    docs = text.index(f"{URL}/api/docs/")
    token = text.index("token ")
    assert lobby < sign_in < page < docs < token
    assert f"{URL}/api/games/" not in text  # a 401 page for a browser


def test_seed_demo_refuses_production(settings) -> None:
    settings.DEBUG = False
    with pytest.raises(Exception, match="DEBUG"):
        call_command("seed_demo", stdout=StringIO())


def test_demo_games_are_named_after_their_variants(settings) -> None:
    """ "Demo: Far East" while the variant is "Far East I-R": each demo game carries its
    variant's own name; a game seeded under the old name is kept, not seeded again."""
    import adjudication

    settings.DEBUG = True
    seed()
    for game in Game.objects.filter(name__endswith="· demo1"):
        assert game.name == f"Demo: {adjudication.load(game.variant).name} · demo1"
    far_east = Game.objects.get(name="Demo: Far East I-R · demo3")
    far_east.name = "Demo: Far East · demo3"  # as earlier versions seeded it
    far_east.save()
    count = Game.objects.count()
    seed()
    assert Game.objects.count() == count
