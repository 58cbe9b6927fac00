"""Create the demo logins and a running demo game, so a fresh `make run` has something to play."""

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from rest_framework.authtoken.models import Token

from games import engine, services
from games.models import Game

DEMO_GAME = "Demo game"
PLAYERS = 7


class Command(BaseCommand):
    help = (
        "Create the superuser demo/demo, players demo1..demo7 (password demo) and a started "
        "standard game with short deadlines (development only; safe to run again)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--url", default="http://127.0.0.1:8000", help="where the server runs")

    def handle(self, *args: Any, url: str, **options: Any) -> None:
        # A well-known password must never reach a production database.
        if not settings.DEBUG:
            raise CommandError("seed_demo only runs with DEBUG on.")
        admin = self.user("demo", is_staff=True, is_superuser=True)
        players = [self.user(f"demo{n}") for n in range(1, PLAYERS + 1)]
        game = Game.objects.filter(name=DEMO_GAME, creator=admin).first()
        if game is None:
            game = services.create_game(
                admin,
                name=DEMO_GAME,
                variant="standard",
                movement_minutes=5,
                retreats_minutes=2,
                adjustments_minutes=2,
            )
            for user, power in zip(players, engine.powers(game), strict=False):
                services.join_game(game, user, [power])
            game.refresh_from_db()
            self.stdout.write(f"Created and started {DEMO_GAME!r} (standard map).")
        self.report(url, game, players)

    def user(self, username: str, **flags: bool):
        user, created = get_user_model().objects.get_or_create(username=username, defaults=flags)
        if created:
            user.email = f"{username}@example.com"
            user.set_password("demo")
            user.save()
        Token.objects.get_or_create(user=user)
        return user

    def report(self, url: str, game: Game, players: list) -> None:
        seats = dict(game.memberships.values_list("user__username", "power"))
        lines = [
            "",
            f"Demo game: {url}/api/games/{game.pk}/  ({game.status}; API docs: {url}/api/docs/)",
            f"Admin and moderator: {url}/admin/  demo / demo",
            "Players (password demo; token for the API's Authorization: Token <token>):",
        ]
        for user in players:
            power = seats.get(user.username, "-")
            lines.append(f"  {user.username:6} {power:8} token {user.auth_token.key}")
        self.stdout.write("\n".join(lines))
