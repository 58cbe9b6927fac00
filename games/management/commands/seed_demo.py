"""Create the demo logins and their running demo games, so a fresh `make run` shows the mission:
Colonial Diplomacy first, then Far East I-R and Chinese Diplomacy, all playable at once.

Each login has its own game of each variant: one human seat, bots on every other (they order
and are ready as soon as a phase opens), so a newcomer plays whole years alone, at their pace."""

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from rest_framework.authtoken.models import Token

from games import engine, services
from games.models import Game

PLAYERS = 7
PASSWORD = "demo"
# A week a phase: nothing falls into civil disorder while a newcomer looks around. Phases
# are processed as soon as every seat is ready, or at once from the moderator console.
DEADLINE_MINUTES = 7 * 24 * 60


@dataclass(frozen=True)
class DemoGame:
    name: str
    variant: str
    first_player: int  # demo<first_player> plays the variant's first power, and so on
    old_name: str = ""  # what earlier versions called it: such a game is not seeded twice


# One game of each variant per login, named "<name> · demo<n>"; bots play the other seats.
GAMES = (
    DemoGame("Demo: Colonial Diplomacy", "colonial", 1),
    DemoGame("Demo: Far East I-R", "far-east", 3, old_name="Demo: Far East"),  # the variant's name
    DemoGame("Demo: Chinese Diplomacy", "chinese", 1),
)


class Command(BaseCommand):
    help = (
        "Create the superuser demo/demo, players demo1..demo7 (password demo) and three "
        "started demo games (Colonial, Far East, Chinese) with week-long deadlines "
        "(development only; safe to run again)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--url", default="http://127.0.0.1:8000", help="where the server runs")

    def handle(self, *args: Any, url: str, **options: Any) -> None:
        # A well-known password must never reach a production database.
        if not settings.DEBUG:
            raise CommandError("seed_demo only runs with DEBUG on.")
        admin = self.user("demo", is_staff=True, is_superuser=True)
        players = [self.user(f"demo{n}") for n in range(1, PLAYERS + 1)]
        games = [
            self.game(admin, player, number, demo)
            for number, player in enumerate(players, 1)
            for demo in GAMES
        ]
        self.report(url.rstrip("/"), games, admin, players)

    def user(self, username: str, **flags: bool):
        user, created = get_user_model().objects.get_or_create(username=username, defaults=flags)
        if created:
            user.email = f"{username}@example.com"
            user.set_password(PASSWORD)
            user.save()
        Token.objects.get_or_create(user=user)
        return user

    def game(self, admin, player, number: int, demo: DemoGame) -> Game:
        """The login's game of this variant, created and started once (a half-seeded one is
        finished off): the login on its power, bots on the others."""
        name = f"{demo.name} · {player.username}"
        names = [name] + ([f"{demo.old_name} · {player.username}"] if demo.old_name else [])
        game = Game.objects.filter(name__in=names, creator=admin).order_by("pk").first()
        if game is None:
            game = services.create_game(
                admin,
                name=name,
                variant=demo.variant,
                movement_minutes=DEADLINE_MINUTES,
                retreats_minutes=DEADLINE_MINUTES,
                adjustments_minutes=DEADLINE_MINUTES,
                process_when_ready=True,
                bots_fill_empty=True,
                bots_take_civil_disorder=True,
            )
            self.stdout.write(f"Created {name!r}.")
        if game.status == Game.Status.FORMING:
            powers = engine.powers(game)
            if not game.memberships.filter(user=player).exists():
                power = powers[(demo.first_player - 1 + number - 1) % len(powers)]
                services.join_game(game, player, [power])
            services.start_game(game, admin)
            game.refresh_from_db()
        return game

    def report(self, url: str, games: list[Game], admin, players: list) -> None:
        """Where to go, in the order a newcomer needs it: sign in, play, then the API."""
        lines = [
            "",
            f"Great Game lobby: {url}/",
            f"Sign in at {url}/accounts/login/ as demo1 .. demo{len(players)} "
            f"(password {PASSWORD}); each has a game of each variant of their own, one power "
            "against bots that order and are ready as soon as a phase opens.",
            "",
            "Demo games (deadlines a week away; a phase is processed when every power is "
            "ready, or at once from the moderator console):",
        ]
        for game in games:
            lines.append(f"  {game.name:36} {url}/games/{game.pk}/  ({game.status})")
        seats = {
            (username, game.variant): power
            for game in games
            for username, power in game.memberships.filter(bot=False).values_list(
                "user__username", "power"
            )
        }
        lines += [
            "",
            "Seats (bots play every other power):",
            "  " + f"{'login':7}" + "".join(f"{demo.variant:14}" for demo in GAMES),
        ]
        for user in players:
            row = "".join(f"{seats.get((user.username, d.variant), '-'):14}" for d in GAMES)
            lines.append(f"  {user.username:7}{row}")
        lines += [
            "",
            f"Moderator consoles and admin: sign in as {admin.username} / {PASSWORD}; "
            f"{url}/games/{games[0].pk}/moderate/ and {url}/admin/",
            "",
            f"API docs: {url}/api/docs/  (send Authorization: Token <token>)",
        ]
        for user in [admin, *players]:
            lines.append(f"  {user.username:7} token {user.auth_token.key}")
        self.stdout.write("\n".join(line.rstrip() for line in lines))
