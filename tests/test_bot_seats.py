"""Bots on seats, through the API: they fill empty seats, take over civil disorder, are put on
and taken off by the moderator, give way to humans, and play each phase as soon as it opens,
so one human plays a whole game at their own pace."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import authenticate
from django.urls import reverse

from bots.heuristic import HeuristicBot
from games import engine, services, tasks
from games.models import Game, Membership, ModeratorAction, Order, Phase

pytestmark = pytest.mark.django_db


@pytest.fixture
def run_tasks(enqueued, django_capture_on_commit_callbacks):
    """Run the Celery tasks the code sent, as a worker would, until none is left.

    Returns a function that takes the action to run first (an API call, say)."""

    def run(action=lambda: None):
        with django_capture_on_commit_callbacks(execute=True):
            result = action()
        while enqueued:
            name, args, _ = enqueued.pop(0)
            task = name.rsplit(".", 1)[-1]
            if task in ("play_bots", "process_phase"):
                with django_capture_on_commit_callbacks(execute=True):
                    getattr(tasks, task)(*args)
        return result

    return run


def create(client, **settings) -> int:
    body = {"name": "With bots", "variant": "colonial", **settings}
    response = client.post("/api/games/", body, format="json")
    assert response.status_code == 201, response.data
    return response.data["id"]


def powers_of(client, game_id: int) -> dict[str, dict]:
    response = client.get(f"/api/games/{game_id}/")
    assert response.status_code == 200, response.data
    return {p["power"]: p for p in response.data["powers"]}


def moderate(client, game_id: int, action: str, body: dict | None = None):
    return client.post(f"/api/games/{game_id}/moderation/{action}/", body or {}, format="json")


def one_human_game(api, make_user, run_tasks, power: str = "Britain", **settings):
    """A Colonial game whose creator plays ``power`` and bots play the six others."""
    human = make_user("human")
    client = api(human)
    game_id = create(client, bots_fill_empty=True, **settings)
    joined = client.post(f"/api/games/{game_id}/join/", {"preferences": [power]}, format="json")
    assert joined.status_code == 200, joined.data
    started = run_tasks(lambda: moderate(client, game_id, "start"))
    assert started.status_code == 200, started.data
    return game_id, human, client


def test_one_human_and_six_bots_play_three_years_at_the_humans_pace(api, make_user, run_tasks):
    game_id, human, client = one_human_game(api, make_user, run_tasks)
    seats = powers_of(client, game_id)
    assert seats["Britain"]["player"] == "human" and not seats["Britain"]["bot"]
    assert all(
        s["bot"] and s["player"].startswith("Bot ") for p, s in seats.items() if p != "Britain"
    )
    game = Game.objects.get(pk=game_id)
    seen = []
    while True:
        game.refresh_from_db()
        phase = game.current_phase
        if phase.year > 1872:
            break
        seen.append((phase.season, phase.year, phase.type))
        assert len(seen) < 30, seen  # a stuck game would loop here
        # The bots played the phase as it opened: every bot to act is ready already.
        to_act = engine.powers_to_act(phase)
        bots = game.memberships.filter(bot=True, status="active", power__in=to_act)
        assert all(m.ready for m in bots), [m.power for m in bots if not m.ready]
        if "Britain" in to_act:
            request = engine.request(game, phase, [])
            mine = HeuristicBot(phase.index).decide(request, "Britain")
            sent = client.put(f"/api/games/{game_id}/orders/", {"orders": mine}, format="json")
            assert sent.status_code == 200, sent.data
            ready = run_tasks(
                lambda index=phase.index: client.post(
                    f"/api/games/{game_id}/ready/", {"ready": True, "phase": index}, format="json"
                )
            )
            assert ready.status_code == 200, ready.data
        else:
            run_tasks()
        phase.refresh_from_db()
        assert phase.processed_at is not None, f"{phase.name} waits for nobody's orders"
    # Through 1872 to Spring 1873: Winter 1872's adjustments are processed, or skipped by the
    # engine when nobody had a build or a removal (which depends on the bots' chance).
    assert ("fall", 1872, "movement") in seen and game.current_phase.year == 1873, seen
    assert not game.phases.filter(year__lte=1872, processed_at__isnull=True).exists()
    # Nobody but the human and the bots acted: no moderator processing, no deadline passed.
    assert not ModeratorAction.objects.filter(game=game, action="process").exists()
    bot_orders = Order.objects.filter(phase__game=game).exclude(power="Britain")
    assert bot_orders.exists() and all(o.membership.bot for o in bot_orders)
    assert bot_orders.filter(valid=True).count() == bot_orders.count()
    assert {m.power for m in game.memberships.filter(bot=True)} == set(seats) - {"Britain"}


def test_a_seat_in_civil_disorder_goes_to_a_bot_when_the_game_says_so(api, make_user, run_tasks):
    handed = {}
    for setting in (True, False):
        moderator = make_user(f"mod_{setting}")
        client = api(moderator)
        game_id = create(
            client,
            bots_fill_empty=True,
            bots_take_civil_disorder=setting,
            civil_disorder_after=1,
        )
        absent = make_user(f"absent_{setting}")
        joined = api(absent).post(
            f"/api/games/{game_id}/join/", {"preferences": ["France"]}, format="json"
        )
        assert joined.status_code == 200, joined.data
        run_tasks(lambda client=client, game_id=game_id: moderate(client, game_id, "start"))
        index = Game.objects.get(pk=game_id).current_phase.index
        # The deadline moved into the past, so France missed it (processed early by hand,
        # nobody would have).
        run_tasks(
            lambda client=client, game_id=game_id, index=index: moderate(
                client, game_id, "deadline", {"minutes": -100000, "phase": index}
            )
        )
        handed[setting] = powers_of(client, game_id)["France"]
        game = Game.objects.get(pk=game_id)
        if setting:
            log = ModeratorAction.objects.get(game=game, action="bot")
            assert log.details == {
                "power": "France",
                "bot": True,
                "player": f"absent_{setting}",
                "why": "cd",
            }
            # The bot played France's next phase as soon as it opened; with no human left in
            # the game, the bots wait for the deadline instead of playing on by themselves.
            orders = Order.objects.filter(phase=game.current_phase, power="France")
            assert orders.exists() and all(o.membership.bot for o in orders)
            assert not game.memberships.filter(ready=True).exists()
            assert game.current_phase.index == index + 1
            assert game.memberships.get(user=absent).status == "replaced"
    assert handed[True]["bot"] and handed[True]["status"] == "active"
    assert handed[True]["player"].startswith("Bot ")
    assert not handed[False]["bot"] and handed[False]["status"] == "civil_disorder"


def _alone_with_bots(api, make_user, run_tasks, tag: str):
    """A Colonial game of bots and one human, France, who has just missed a deadline and is in
    civil disorder (no bot takes it): the bots, left alone, wait for the next deadline."""
    moderator = make_user(f"mod_{tag}")
    client = api(moderator)
    game_id = create(
        client, bots_fill_empty=True, bots_take_civil_disorder=False, civil_disorder_after=1
    )
    absent = make_user(f"absent_{tag}")
    joined = api(absent).post(
        f"/api/games/{game_id}/join/", {"preferences": ["France"]}, format="json"
    )
    assert joined.status_code == 200, joined.data
    run_tasks(lambda: moderate(client, game_id, "start"))
    index = Game.objects.get(pk=game_id).current_phase.index
    past = {"minutes": -100000, "phase": index}
    run_tasks(lambda: moderate(client, game_id, "deadline", past))
    game = Game.objects.get(pk=game_id)
    assert game.current_phase.index == index + 1
    assert game.memberships.get(power="France").status == "civil_disorder"
    assert not game.memberships.filter(ready=True).exists()  # nobody to play with
    return game, client, absent


def _ready_processes_at_once(api, run_tasks, game: Game, player) -> None:
    """The player says Ready; the bots, woken when a person came to play, are ready too, so
    the phase is processed there and then, not at its deadline."""
    phase = Game.objects.get(pk=game.pk).current_phase
    ready = run_tasks(
        lambda: api(player).post(
            f"/api/games/{game.pk}/ready/", {"ready": True, "phase": phase.index}, format="json"
        )
    )
    assert ready.status_code == 200, ready.data
    phase.refresh_from_db()
    assert phase.processed_at is not None, "the phase waits for its deadline"


def test_a_player_back_from_civil_disorder_wakes_the_bots(api, make_user, run_tasks):
    """Found by an adversary: the bots are ready only while a person plays, and a lone player
    coming back from civil disorder did not wake them, so the phase waited its deadline."""
    game, client, absent = _alone_with_bots(api, make_user, run_tasks, "back")
    sent = run_tasks(
        lambda: api(absent).put(f"/api/games/{game.pk}/orders/", {"orders": []}, format="json")
    )
    assert sent.status_code == 200, sent.data
    to_act = engine.powers_to_act(Game.objects.get(pk=game.pk).current_phase)
    bots = game.memberships.filter(bot=True, status="active", power__in=to_act)
    assert bots.exists() and all(m.ready for m in bots), [m.power for m in bots if not m.ready]
    _ready_processes_at_once(api, run_tasks, game, absent)


def test_a_player_the_moderator_seats_among_bots_wakes_them(api, make_user, run_tasks):
    """Found by an adversary: a join woke the bots left alone, the moderator's replace did not."""
    game, client, absent = _alone_with_bots(api, make_user, run_tasks, "seated")
    newcomer = make_user("seated_newcomer")
    body = {"power": "France", "username": newcomer.username}
    replaced = run_tasks(lambda: moderate(client, game.pk, "replace", body))
    assert replaced.status_code == 200, replaced.data
    _ready_processes_at_once(api, run_tasks, game, newcomer)


def test_a_human_takes_a_bots_seat_over(api, make_user, run_tasks):
    game_id, human, client = one_human_game(api, make_user, run_tasks)
    newcomer = api(make_user("newcomer"))
    taken = newcomer.post(f"/api/games/{game_id}/join/", {"power": "Japan"}, format="json")
    assert taken.status_code == 200, taken.data
    japan = powers_of(newcomer, game_id)["Japan"]
    assert japan == {**japan, "player": "newcomer", "bot": False, "status": "active"}
    game = Game.objects.get(pk=game_id)
    assert game.memberships.get(power="Japan", bot=True).status == "replaced"
    # The human plays: their orders go in as Japan's.
    sent = newcomer.put(f"/api/games/{game_id}/orders/", {"orders": []}, format="json")
    assert sent.status_code == 200, sent.data
    # A seat a human plays is not open to take over.
    other = api(make_user("other"))
    refused = other.post(f"/api/games/{game_id}/join/", {"power": "Britain"}, format="json")
    assert refused.status_code == 400, refused.data
    # The console's log says who took the power over (an adversary's finding: it said the
    # bot was taken off and the power left in civil disorder).
    from django.test import Client

    page = Client()
    page.force_login(game.creator)
    console = page.get(reverse("moderate", args=[game_id])).content.decode()
    assert "newcomer took Japan over from its bot." in console
    assert "Took the bot off Japan" not in console


def test_the_moderator_puts_a_bot_on_and_off_and_it_is_audited(api, make_user, run_tasks):
    game_id, human, client = one_human_game(api, make_user, run_tasks)
    on = run_tasks(lambda: moderate(client, game_id, "bot", {"power": "Britain", "bot": True}))
    assert on.status_code == 200, on.data
    britain = {p["power"]: p for p in on.data["powers"]}["Britain"]
    assert britain["bot"] and britain["player"].startswith("Bot ")
    bot_name = britain["player"]
    game = Game.objects.get(pk=game_id)
    # The new bot played the current phase at once; as no human plays now, it is not ready
    # (the game waits for its deadline) and the phase is still open.
    bot_seat = game.memberships.get(power="Britain", status="active")
    mine = Order.objects.filter(phase=game.current_phase, power="Britain")
    assert mine.exists() and {o.membership for o in mine} == {bot_seat}
    assert not bot_seat.ready and game.current_phase.processed_at is None
    again = moderate(client, game_id, "bot", {"power": "Britain", "bot": True})
    assert again.status_code == 400, again.data
    off = moderate(client, game_id, "bot", {"power": "Britain", "bot": False})
    assert off.status_code == 200, off.data
    britain = {p["power"]: p for p in off.data["powers"]}["Britain"]
    assert britain["status"] == "civil_disorder"
    assert britain["bot"] is False and britain["player"] is None  # nobody plays it now
    log = client.get(f"/api/games/{game_id}/log/").data["results"]
    entries = [(e["action"], e["user"], e["details"]) for e in log if e["action"] == "bot"]
    assert entries == [
        ("bot", "human", {"power": "Britain", "bot": False, "player": bot_name}),
        ("bot", "human", {"power": "Britain", "bot": True, "player": "human"}),
    ]
    # Back on: the same bot seat plays again.
    back = moderate(client, game_id, "bot", {"power": "Britain", "bot": True})
    assert back.status_code == 200, back.data
    assert game.memberships.filter(power="Britain", bot=True).count() == 1


@pytest.mark.parametrize(
    "body",
    [
        {"power": "Britain"},
        {"bot": True},
        {"power": "Atlantis", "bot": True},
        {"power": "Japan", "bot": "yes"},
    ],
)
def test_bad_bot_requests_are_refused_with_a_reason(api, make_user, run_tasks, body):
    game_id, human, client = one_human_game(api, make_user, run_tasks)
    response = moderate(client, game_id, "bot", body)
    assert response.status_code == 400, response.data
    assert response.data


def test_only_the_moderator_may_put_bots_on_seats(api, make_user, run_tasks):
    game_id, human, client = one_human_game(api, make_user, run_tasks)
    stranger = api(make_user("stranger"))
    response = moderate(stranger, game_id, "bot", {"power": "Britain", "bot": True})
    assert response.status_code == 403, response.data
    game = Game.objects.get(pk=game_id)
    assert not game.memberships.filter(power="Britain", bot=True).exists()
    assert not ModeratorAction.objects.filter(game=game, action="bot").exists()


def test_an_anonymous_game_hides_its_bots_from_the_other_players_not_from_its_moderator(
    api, make_user, run_tasks
):
    """Anonymous means nobody can tell who is behind a power, and a bot is a player too: the
    pages and the API had named and badged every bot (its name, "bot": true, the press's
    sender_bot) to every player. The other players now learn nothing of it; the moderator, who
    puts bots on and takes them off (here the creator, who also plays Britain), still sees
    them, and everyone does once the game is over."""
    from django.test import Client
    from django.urls import reverse

    game_id, human, client = one_human_game(api, make_user, run_tasks, anonymous=True)
    newcomer = make_user("newcomer")
    joined = api(newcomer).post(f"/api/games/{game_id}/join/", {"power": "Japan"}, format="json")
    assert joined.status_code == 200, joined.data
    game = Game.objects.get(pk=game_id)
    china = game.memberships.get(power="China", bot=True)
    from_bot = services.send_message(game, china.user, "a bot's hello")
    # The moderator sees the bots, by name and flag, and the humans stay anonymous.
    seen_by_moderator = powers_of(client, game_id)
    assert seen_by_moderator["Japan"]["player"] is None  # a human stays anonymous
    assert seen_by_moderator["Japan"]["bot"] is False
    assert seen_by_moderator["China"]["bot"] is True
    assert seen_by_moderator["China"]["player"].startswith("Bot ")
    press = client.get(f"/api/games/{game_id}/messages/").json()["results"]
    assert [m["sender_bot"] for m in press if m["id"] == from_bot.public_id] == [True]
    # Another player cannot tell a bot's power from a human's.
    other = api(newcomer)
    seen_by_player = powers_of(other, game_id)
    for power, seat in seen_by_player.items():
        if power == "Japan":  # their own seat
            assert seat["player"] == "newcomer" and seat["bot"] is False
        else:
            assert seat["player"] is None and seat["bot"] is None, (power, seat)
    press = other.get(f"/api/games/{game_id}/messages/").json()["results"]
    assert [(m["sender"], m["sender_bot"]) for m in press if m["id"] == from_bot.public_id] == [
        (None, None)
    ]
    page = Client()
    page.force_login(newcomer)
    html = page.get(reverse("game", args=[game_id])).content.decode()
    assert 'class="badge bot"' not in html and "Bot " not in html
    # Nor by the seating the page and its live stream carry: a bot's seat is no more open to
    # a take-over, to a player of the game, than a human's (it told them apart).
    seating = re.search(r'data-seating="([^"]*)"', html).group(1)
    assert {row.rsplit(":", 1)[1] for row in seating.split("|")} == {"0"}, seating
    lobby = page.get(reverse("lobby")).content.decode()  # nor counted in the player's lobby
    assert " bots)" not in lobby and " bot)" not in lobby
    page.force_login(human)
    html = page.get(reverse("game", args=[game_id]) + "?thread=public").content.decode()
    assert html.count('class="badge bot"') == 5 + 1  # five seats' and the press's badges
    assert "5 bots)" in page.get(reverse("lobby")).content.decode()  # its moderator's
    # Once the game is over nothing is hidden any more.
    services.end_game(game, human)
    seen_after = powers_of(other, game_id)
    assert seen_after["China"]["bot"] is True and seen_after["China"]["player"].startswith("Bot ")
    detail = client.get(f"/api/games/{game_id}/").data
    assert detail["bots_fill_empty"] is True and detail["bots_take_civil_disorder"] is False
    sent = client.post(f"/api/games/{game_id}/messages/", {"body": "hello"}, format="json")
    assert sent.status_code == 201 and sent.data["sender_bot"] is False


def test_bots_cannot_sign_in_nor_be_signed_up_or_handed_a_seat(api, make_user, run_tasks):
    game_id, human, client = one_human_game(api, make_user, run_tasks, anonymous=True)
    newcomer = make_user("newcomer")
    api(newcomer).post(f"/api/games/{game_id}/join/", {"power": "Japan"}, format="json")
    bot = Game.objects.get(pk=game_id).memberships.get(power="China").user
    assert services.is_bot_account(bot) and not services.is_bot_account(newcomer)
    assert authenticate(username=bot.username, password="") is None
    token = api().post("/api/auth/token/", {"username": bot.username, "password": "x"})
    assert token.status_code == 400
    # Nobody can sign up as a bot, nor be handed a seat by a bot's name.
    signup = api().post(
        "/api/auth/signup/", {"username": "Bot 99", "password": "a long pass phrase"}
    )
    assert signup.status_code == 400, signup.data
    replaced = moderate(client, game_id, "replace", {"power": "Japan", "username": bot.username})
    assert replaced.status_code == 400, replaced.data


def test_a_failing_bot_is_logged_and_its_seat_just_holds(api, make_user, run_tasks, monkeypatch):
    def broken(self, request, power):
        raise RuntimeError("no idea")

    monkeypatch.setattr(HeuristicBot, "decide", broken)
    game_id, human, client = one_human_game(api, make_user, run_tasks)
    game = Game.objects.get(pk=game_id)
    failures = ModeratorAction.objects.filter(game=game, action="bot failed")
    assert failures.count() == 6
    assert not Order.objects.filter(phase=game.current_phase).exists()
    # Ready all the same: a failing bot does not slow the human down.
    assert game.memberships.filter(bot=True, ready=True).count() == 6
    # The game goes on: the moderator (or the deadline) processes; the bots' units hold.
    index = game.current_phase.index
    processed = moderate(client, game_id, "process", {"phase": index})
    assert processed.status_code == 200, processed.data
    assert processed.data["current_phase"]["index"] == index + 1


def test_bots_replay_the_same_orders(api, make_user, run_tasks):
    game_id, human, client = one_human_game(api, make_user, run_tasks)
    game = Game.objects.get(pk=game_id)
    phase = game.current_phase

    def orders() -> dict[str, list[str]]:
        stored = Order.objects.filter(phase=phase).exclude(power="Britain")
        return {
            p: sorted(o.text for o in stored if o.power == p)
            for p in set(stored.values_list("power", flat=True))
        }

    first = orders()
    assert len(first) == 6
    Order.objects.filter(phase=phase).delete()
    Membership.objects.filter(game=game).update(ready=False)
    assert services.play_bots(game.pk, phase.pk) and orders() == first
    assert Phase.objects.filter(game=game).count() == 1


@pytest.mark.usefixtures("require_postgres", "require_redis")
@pytest.mark.broker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_plays_the_bots_a_whole_year_at_the_humans_pace(worker) -> None:
    """Nothing eager: the bots' task reaches a `celery worker` through Redis when each phase
    opens, and the phase is processed when the human is ready (deadlines are a day away)."""
    from conftest import wait_for
    from django.contrib.auth import get_user_model
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(get_user_model().objects.create_user("live_human", password="pw"))
    game_id = create(client, bots_fill_empty=True)
    assert client.post(f"/api/games/{game_id}/join/", {"preferences": ["Japan"]}).status_code == 200
    assert moderate(client, game_id, "start").status_code == 200
    game = Game.objects.get(pk=game_id)
    while game.current_phase.year == 1870:
        phase = game.current_phase

        def bots_ready(phase=phase):
            bots = game.memberships.filter(bot=True, status="active")
            to_act = engine.powers_to_act(phase) & set(bots.values_list("power", flat=True))
            return all(bots.get(power=p).ready for p in to_act) or None

        wait_for(bots_ready, 60, f"the worker's bots in {phase.name}\n{worker.read_text()}")
        if "Japan" in engine.powers_to_act(phase):
            mine = HeuristicBot(phase.index).decide(engine.request(game, phase, []), "Japan")
            sent = client.put(f"/api/games/{game_id}/orders/", {"orders": mine}, format="json")
            assert sent.status_code == 200, sent.data
            ready = client.post(
                f"/api/games/{game_id}/ready/", {"ready": True, "phase": phase.index}
            )
            assert ready.status_code == 200, ready.data

        def moved_on(phase=phase):
            game.refresh_from_db()
            return game.current_phase_id != phase.pk

        wait_for(moved_on, 60, f"the worker to process {phase.name}\n{worker.read_text()}")
    assert game.current_phase.year == 1871
    assert game.phases.filter(year=1870, processed_at__isnull=False).count() >= 2
    assert "games.tasks.play_bots" in worker.read_text()
    assert not ModeratorAction.objects.filter(game=game, action="process").exists()


def test_the_pages_set_bots_mark_them_and_the_console_moves_them(make_user, run_tasks):
    from django.test import Client
    from django.urls import reverse

    ada = make_user("ada")
    page = Client()
    page.force_login(ada)
    from games.forms import GameForm

    form = {name: f.initial for name, f in GameForm().fields.items() if f.initial is not None}
    form.update(name="Alone with bots", process_when_ready="on", bots_fill_empty="on")
    assert 'name="bots_fill_empty"' in page.get(reverse("create-game")).content.decode()
    page.post(reverse("create-game"), form)
    game = Game.objects.get(name="Alone with bots")
    assert game.bots_fill_empty and not game.bots_take_civil_disorder
    page.post(reverse("join", args=[game.pk]), {"first": "Holland"})
    moderate_url = reverse("moderate-action", args=[game.pk, "start"])
    # The console and the confirmation say what Start does here (an adversary's finding: they
    # said the empty seats would play as civil disorder).
    bots_play = "Start the game now; bots play the empty seats, and a player may take one over"
    for shown in (page.get(reverse("moderate", args=[game.pk])), page.post(moderate_url, {})):
        assert bots_play in shown.content.decode()
        assert "empty seats play as civil disorder" not in shown.content.decode()
    run_tasks(lambda: page.post(moderate_url, {"confirm": "yes"}))
    html = page.get(reverse("game", args=[game.pk])).content.decode()
    assert html.count('class="badge bot"') == 6
    assert "Bots fill the seats nobody took." in html
    console = page.get(reverse("moderate", args=[game.pk])).content.decode()
    assert reverse("moderate-action", args=[game.pk, "bot"]) in console
    bot_url = reverse("moderate-action", args=[game.pk, "bot"])
    asked = page.post(bot_url, {"power": "Japan", "bot": "off"}).content.decode()
    assert "confirm" in asked and game.memberships.get(power="Japan").status == "active"
    page.post(bot_url, {"power": "Japan", "bot": "off", "confirm": "yes"})
    assert game.memberships.get(power="Japan").status == "civil_disorder"
    console = page.get(reverse("moderate", args=[game.pk])).content.decode()
    assert "Took the bot off Japan; the power is in civil disorder." in console
    lobby = page.get(reverse("lobby")).content.decode()
    assert "5 bots" in lobby  # the one taken off plays nothing


def test_the_admin_takes_a_bot_off_and_puts_it_back(api, make_user, run_tasks):
    from django.test import Client
    from django.urls import reverse

    game_id, human, client = one_human_game(api, make_user, run_tasks)
    boss = make_user("boss", is_staff=True, is_superuser=True)
    admin = Client()
    admin.force_login(boss)
    seat = Game.objects.get(pk=game_id).memberships.get(power="Turkey")
    url = reverse("admin:games_membership_changelist")
    for action, status in (("take_bot_off", "civil_disorder"), ("put_bot", "active")):
        admin.post(url, {"action": action, "_selected_action": [seat.pk]})
        seat.refresh_from_db()
        assert seat.status == status and seat.bot
    actions = ModeratorAction.objects.filter(game_id=game_id, action="bot", user=boss)
    assert [a.details["bot"] for a in actions] == [True, False]  # newest first


def test_a_bots_chance_is_keyed_with_the_servers_secret(make_game, settings) -> None:
    """The board, the game and the bots' code are public; the seed of a bot's orders must not
    be computable from them (the adversary predicted six bots' orders of six)."""
    from games.services import bot_seed

    game = make_game("colonial")
    phase = game.current_phase
    first = bot_seed(game, phase, "Russia")
    assert first == bot_seed(game, phase, "Russia")  # replayable on this server
    assert first != bot_seed(game, phase, "Turkey")
    settings.SECRET_KEY = settings.SECRET_KEY[::-1]  # another server
    assert bot_seed(game, phase, "Russia") != first


def test_a_bot_with_two_fleets_in_one_ocean_orders_each_of_them(api, make_user, run_tasks):
    """Far East I-R: a bot's two fleets in the Mid-Pacific. The bot stored one order for the
    ocean, and the second fleet held; now each has its own, both valid (a third order there is
    refused: only two fleets), and the game goes on with them."""
    human = make_user("human")
    client = api(human)
    game_id = create(client, variant="far-east", bots_fill_empty=True)
    joined = client.post(f"/api/games/{game_id}/join/", {"preferences": ["Japan"]}, format="json")
    assert joined.status_code == 200, joined.data
    assert run_tasks(lambda: moderate(client, game_id, "start")).status_code == 200
    game = Game.objects.get(pk=game_id)
    phase = game.current_phase
    mpo = {"power": "Australia", "unit": "F", "location": "Mid-Pacific Ocean"}
    phase.units = [u for u in phase.units if u["power"] != "Australia"] + [mpo, dict(mpo)]
    phase.save(update_fields=["units"])
    seat = game.memberships.get(power="Australia")
    assert seat.bot
    Order.objects.filter(phase=phase, power="Australia").delete()
    seat.ready = False
    seat.save(update_fields=["ready"])
    assert "Australia" in services.play_bots(game_id, phase.pk)
    stored = list(Order.objects.filter(phase=phase, power="Australia").order_by("position"))
    assert len(stored) == 2 and all(o.valid for o in stored), [(o.text, o.result) for o in stored]
    assert all(o.text.startswith("F Mid-Pacific Ocean") for o in stored)
    texts = [o.text for o in stored] + ["F Mid-Pacific Ocean H"]
    *each, third = engine.check_orders(game, phase, "Australia", texts)
    assert all(c.valid for c in each) and not third.valid and "only 2 fleets" in third.reason
