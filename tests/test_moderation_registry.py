"""Issue #14 item 7: one registry of moderator actions (``games.moderation``), read by the API,
the moderator console and the admin. Each offers exactly the actions the game's state allows,
and each refuses any other with the same clear reason."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import admin as game_admin
from games import moderation, services
from games.forms import ModerationForm
from games.models import Game, ModeratorAction
from games.serializers import ModerationSerializer

pytestmark = pytest.mark.django_db


def console_offers(game, moderator) -> list[str]:
    c = Client()
    c.force_login(moderator)
    html = c.get(reverse("moderate", args=[game.pk])).content.decode()
    prefix = re.escape(f"/games/{game.pk}/moderate/")
    return re.findall(rf'<form method="post" action="{prefix}(\w+)/"', html)


def api_offers(api, game, moderator) -> list[str]:
    response = api(moderator).get(f"/api/games/{game.pk}/moderation/")
    assert response.status_code == 200, response.data
    return [a["name"] for a in response.data]


@pytest.fixture
def states(make_game, make_user, moderator):
    """Games in each state a moderator meets: forming, running, paused, running with an
    earlier phase, finished."""
    forming = services.create_game(moderator, name="Forming", variant="standard")
    services.join_game(forming, make_user("ada"), ["France"])
    active = make_game()
    paused = make_game()
    services.pause(paused, moderator)
    later = make_game()
    services.process_now(later, moderator, phase=0)
    finished = make_game()
    services.process_now(finished, moderator, phase=0)
    finished.refresh_from_db()
    services.end_game(finished, moderator, "France")
    games = {"forming": forming, "active": active, "paused": paused, "later": later}
    games["finished"] = finished
    for game in games.values():
        game.refresh_from_db()
    return games


EXPECTED = {
    "forming": ["start", "end"],
    "active": ["deadline", "pause", "process", "replace", "remove", "bot", "draw", "end"],
    "paused": ["resume", "replace", "remove", "bot", "draw", "end"],
    "later": [
        "deadline", "pause", "process", "rollback", "replace", "remove", "bot", "draw", "end",
    ],
    "finished": ["rollback"],
}  # fmt: skip


@pytest.mark.parametrize("state", sorted(EXPECTED))
def test_the_api_and_the_console_offer_exactly_the_possible_actions(state, states, api, moderator):
    game = states[state]
    registry = [a.name for a in moderation.possible(game)]
    assert registry == EXPECTED[state]
    assert api_offers(api, game, moderator) == registry
    assert console_offers(game, moderator) == registry


def test_the_api_lists_each_action_with_its_inputs(states, api, moderator):
    listed = api(moderator).get(f"/api/games/{states['active'].pk}/moderation/").data
    deadline = next(a for a in listed if a["name"] == "deadline")
    names = [f["name"] for f in deadline["inputs"]]
    assert names == ["minutes", "deadline", "phase", "seen_deadline"]
    assert deadline["one_of"] == ["minutes", "deadline"]
    replace = next(a for a in listed if a["name"] == "replace")
    assert [(f["name"], f["required"]) for f in replace["inputs"]] == [
        ("power", True),
        ("username", True),
        ("phase", False),
    ]


def test_only_the_moderator_sees_the_list(states, api, seat):
    game = states["active"]
    assert (
        api(seat(game, "France").user).get(f"/api/games/{game.pk}/moderation/").status_code == 403
    )
    assert api(None).get(f"/api/games/{game.pk}/moderation/").status_code == 401


@pytest.mark.parametrize(
    "state, action, reason",
    [
        ("paused", "pause", "Pause: not possible while the game is Paused"),
        ("active", "resume", "Resume: not possible while the game is Active"),
        ("active", "rollback", "Rollback is not possible: there is no earlier phase to go back to"),
        ("finished", "draw", "Draw: not possible while the game is Finished"),
        ("forming", "process", "Process: not possible while the game is Forming"),
    ],
)
def test_an_impossible_action_is_refused_with_its_reason(
    state, action, reason, states, api, moderator
):
    """By the API (400 and the reason, before the body is even read) and by the console (the
    reason as a message); nothing is done or logged either way."""
    game = states[state]
    logged = ModeratorAction.objects.filter(game=game).count()
    response = api(moderator).post(
        f"/api/games/{game.pk}/moderation/{action}/", {"phase": 0}, format="json"
    )
    assert response.status_code == 400
    assert response.data["detail"] == reason
    c = Client()
    c.force_login(moderator)
    url = reverse("moderate-action", args=[game.pk, action])
    page = c.post(url, {"phase": 0, "confirm": "yes"}, follow=True).content.decode()
    assert reason in page
    assert ModeratorAction.objects.filter(game=game).count() == logged
    game.refresh_from_db()
    assert game.status == states[state].status


def test_the_admin_runs_the_registry_and_refuses_alike(states, moderator):
    """An admin action on a game whose state does not allow it says why, as the API does."""
    said: list[str] = []

    class Admin:
        def message_user(self, request, message, level=None):
            said.append(message)

    class Request:
        user = moderator

    paused, active = states["paused"], states["active"]
    game_admin.pause(Admin(), Request(), Game.objects.filter(pk=paused.pk))
    assert said == [f"{paused}: Pause: not possible while the game is Paused"]
    game_admin.pause(Admin(), Request(), Game.objects.filter(pk=active.pk))
    active.refresh_from_db()
    assert active.status == Game.Status.PAUSED and len(said) == 1
    seat = paused.memberships.get(power="Italy")
    game_admin.put_bot(Admin(), Request(), paused.memberships.filter(pk=seat.pk))
    assert paused.memberships.get(power="Italy", status="active").bot


def test_both_inputs_declare_every_field_of_the_registry():
    """The JSON body and the console's form each type every input an action takes, so the two
    ways in cannot drift apart from the registry (or from each other)."""
    body = ModerationSerializer(context={"action": "start"}).fields
    for action in moderation.ACTIONS.values():
        for field in action.fields:
            assert field.name in body, (action.name, field.name)
            assert field.name in ModerationForm.base_fields, (action.name, field.name)


def test_the_console_sets_an_absolute_deadline_like_the_api(states, moderator, api):
    """Once only the API took a date and time; the console now asks for the same inputs."""
    game = states["active"]
    c = Client()
    c.force_login(moderator)
    url = reverse("moderate-action", args=[game.pk, "deadline"])
    when = (datetime.now(UTC) + timedelta(days=10)).replace(second=0, microsecond=0)
    c.post(url, {"deadline": when.strftime("%Y-%m-%dT%H:%M"), "confirm": "yes"})
    game.current_phase.refresh_from_db()
    assert game.current_phase.deadline == when
    too_far = (when + timedelta(days=400)).strftime("%Y-%m-%dT%H:%M")
    page = c.post(url, {"deadline": too_far}, follow=True).content.decode()
    assert "at most 366 days from now" in page
    # Found by an adversary: "deadline, minutes: This field is required." of two fields the
    # card marks optional, and "deadline, __all__: ..." for two given.
    page = c.post(url, {"minutes": "", "deadline": ""}, follow=True).content.decode()
    assert "Deadline: Give one of these: minutes, or the new deadline." in page
    assert "This field is required" not in page
    # A date that does not exist (New York's clocks going forward) is refused for itself alone.
    from games.models import NotificationSettings

    prefs = NotificationSettings.of(moderator)
    prefs.time_zone = "America/New_York"
    prefs.save()
    page = c.post(url, {"deadline": "2027-03-14T02:30"}, follow=True).content.decode()
    assert "Deadline: Or the new deadline: " in page
    assert "Give one of these" not in page and "This field is required" not in page
    page = c.post(url, {"minutes": "600000"}, follow=True).content.decode()
    assert "Deadline: Minutes: Ensure this value is less than or equal to" in page
    # Found by an adversary: the number box's "1e3" (the browser's 1000) was "not a whole
    # number" here, though the payment form takes it; "-6e1" shortens by an hour.
    before = game.current_phase.deadline
    c.post(url, {"minutes": "1e3", "confirm": "yes"})
    game.current_phase.refresh_from_db()
    assert game.current_phase.deadline == before + timedelta(minutes=1000)
    c.post(url, {"minutes": "-6e1", "confirm": "yes"})
    game.current_phase.refresh_from_db()
    assert game.current_phase.deadline == before + timedelta(minutes=940)
    c.post(url, {"minutes": "20e-1", "confirm": "yes"})  # a number box's 2
    game.current_phase.refresh_from_db()
    assert game.current_phase.deadline == before + timedelta(minutes=942)
    page = c.post(url, {"minutes": "1.5"}, follow=True).content.decode()
    assert "Deadline: Minutes: Enter a whole number." in page
    answer = api(moderator).post(
        f"/api/games/{game.pk}/moderation/deadline/", {"phase": game.current_phase.index}
    )
    assert answer.status_code == 400
    assert answer.json()["minutes"] == ["deadline needs one of minutes, deadline"]


def test_the_consoles_deadline_card_takes_a_date_alone_as_shown(states, moderator):
    """Found by an adversary: the card showed Minutes filled in with 60, so a date typed in the
    other box was refused ("Give only one of these"): the minutes are a hint, not a value."""
    import re

    game = states["active"]
    c = Client()
    c.force_login(moderator)
    url = reverse("moderate-action", args=[game.pk, "deadline"])
    console = c.get(reverse("moderate", args=[game.pk])).content.decode()
    card = console[console.index(f'action="{url}"') :]
    card = card[: card.index("</form>")]
    minutes = re.search(r"<input[^>]*name=\"minutes\"[^>]*>", card).group(0)
    assert "value=" not in minutes and 'placeholder="60"' in minutes, minutes
    # The date is read in the moderator's own time zone, and the card says which.
    assert "Read in your time zone, UTC." in card
    form = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', card))
    when = (datetime.now(UTC) + timedelta(days=3)).replace(second=0, microsecond=0)
    form.update(minutes="", deadline=when.strftime("%Y-%m-%dT%H:%M"), confirm="yes")
    c.post(url, form)
    game.current_phase.refresh_from_db()
    assert game.current_phase.deadline == when


def test_the_console_confirms_a_bot_before_putting_it_on(states, moderator):
    """The confirmation sends the inputs back as typed, and the second post acts."""
    game = states["active"]
    c = Client()
    c.force_login(moderator)
    url = reverse("moderate-action", args=[game.pk, "bot"])
    page = c.post(url, {"power": "Italy", "bot": "on"}).content.decode()
    assert 'name="bot" value="on"' in page and 'name="power" value="Italy"' in page
    c.post(url, {"power": "Italy", "bot": "on", "confirm": "yes"})
    assert game.memberships.get(power="Italy", status="active").bot


def test_a_deadline_with_both_minutes_and_a_date_is_refused_everywhere(states, api, moderator):
    """Both were taken, and the date silently won over the minutes: one is needed, not two."""
    game = states["active"]
    before = game.current_phase.deadline
    when = (datetime.now(UTC) + timedelta(days=10)).replace(second=0, microsecond=0)
    answer = api(moderator).post(
        f"/api/games/{game.pk}/moderation/deadline/",
        {"minutes": 60, "deadline": when.isoformat(), "phase": game.current_phase.index},
        format="json",
    )
    assert answer.status_code == 400
    assert "give one of minutes, deadline, not both" in str(answer.json())
    # Found by an adversary: with a date past the 366 days allowed, that was the only answer.
    far = (datetime.now(UTC) + timedelta(days=1200)).isoformat()
    answer = api(moderator).post(
        f"/api/games/{game.pk}/moderation/deadline/",
        {"minutes": 60, "deadline": far, "phase": game.current_phase.index},
        format="json",
    )
    assert answer.status_code == 400
    assert "give one of minutes, deadline, not both" in str(answer.json()), answer.json()
    alone = api(moderator).post(
        f"/api/games/{game.pk}/moderation/deadline/",
        {"deadline": far, "phase": game.current_phase.index},
        format="json",
    )
    assert alone.status_code == 400 and "366 days" in str(alone.json()["deadline"])
    c = Client()
    c.force_login(moderator)
    url = reverse("moderate-action", args=[game.pk, "deadline"])
    page = c.post(
        url,
        {"minutes": "60", "deadline": when.strftime("%Y-%m-%dT%H:%M"), "confirm": "yes"},
        follow=True,
    ).content.decode()
    assert "Deadline: Give only one of these: minutes, or the new deadline." in page
    assert "__all__" not in page
    # The console too (an adversary's second look): minutes beside a date past the year
    # allowed were refused for the date alone.
    page = c.post(
        url,
        {"minutes": "60", "deadline": "2099-01-01T00:00", "confirm": "yes"},
        follow=True,
    ).content.decode()
    assert "Give only one of these: minutes, or the new deadline." in page
    assert "366 days" not in page
    page = c.post(url, {"deadline": "2099-01-01T00:00"}, follow=True).content.decode()
    assert "the deadline may be at most 366 days from now" in page
    with pytest.raises(services.GameError, match="give one of minutes, deadline"):
        moderation.perform("deadline", game, moderator, {"minutes": 60, "deadline": when})
    game.current_phase.refresh_from_db()
    assert game.current_phase.deadline == before
    # Last (it leaves Japanese on in this thread): the API's refusal reads in the client's language.
    answer = api(moderator).post(
        f"/api/games/{game.pk}/moderation/deadline/",
        {"minutes": 60, "deadline": far, "phase": game.current_phase.index},
        format="json",
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert answer.status_code == 400
    said = str(answer.json())
    assert "not both" not in said and "minutes, deadline" in said, said
    one = api(moderator).post(
        f"/api/games/{game.pk}/moderation/deadline/", {"minutes": 60}, format="json"
    )
    assert one.status_code == 200, one.json()


@pytest.mark.parametrize(
    ("action", "body"),
    [
        ("pause", {}),
        ("remove", {"power": "France"}),
        ("replace", {"power": "France", "username": "newcomer"}),
        ("bot", {"power": "France", "bot": True}),
        ("draw", {}),
        ("end", {"winner": ""}),
    ],
)
def test_an_action_sent_from_a_phase_since_processed_does_nothing(
    api, make_game, make_user, moderator, action, body
):
    """A moderator's old tab (phase 0 on screen, phase 1 current) pauses, removes, replaces
    or ends nothing: 409, as a stale deadline or process is, and the game is as it was."""
    make_user("newcomer")
    game = make_game()
    services.process_now(game, moderator, phase=0)
    game.refresh_from_db()
    url = f"/api/games/{game.pk}/moderation/{action}/"
    seats = sorted(game.memberships.values_list("power", "status", "user_id", "bot"))
    stale = api(moderator).post(url, {**body, "phase": 0}, format="json")
    assert stale.status_code == 409, stale.data
    assert "current phase is 1" in str(stale.data)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.current_phase.index == 1
    assert sorted(game.memberships.values_list("power", "status", "user_id", "bot")) == seats
    fresh = api(moderator).post(url, {**body, "phase": 1}, format="json")
    assert fresh.status_code == 200, fresh.data


def test_a_stale_resume_does_nothing(api, make_game, moderator):
    game = make_game()
    services.process_now(game, moderator, phase=0)
    services.pause(game, moderator)
    url = f"/api/games/{game.pk}/moderation/resume/"
    assert api(moderator).post(url, {"phase": 0}, format="json").status_code == 409
    game.refresh_from_db()
    assert game.status == Game.Status.PAUSED


@pytest.mark.parametrize(
    ("action", "body", "foreign"),
    [
        ("deadline", {"minutes": 60, "winner": "France"}, "winner"),
        ("deadline", {"minutes": 30, "username": "demo3"}, "username"),
        ("pause", {"power": "France"}, "power"),
        ("end", {"minutes": 5}, "minutes"),
    ],
)
def test_an_input_of_another_action_is_refused_not_dropped(
    api, make_game, moderator, action, body, foreign
):
    game = make_game()
    answer = api(moderator).post(f"/api/games/{game.pk}/moderation/{action}/", body, format="json")
    assert answer.status_code == 400, answer.data
    assert foreign in answer.data and "not an input" in str(answer.data[foreign])
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.memberships.count() == 7


def test_the_console_refuses_an_input_of_another_action(make_game, moderator):
    form = ModerationForm({"minutes": "5", "winner": "France"}, action="deadline")
    assert not form.is_valid() and "winner" in form.errors


def test_replace_finds_the_new_player_in_any_case(api, make_game, make_user, moderator):
    make_user("newcomer")
    game = make_game()
    url = f"/api/games/{game.pk}/moderation/replace/"
    answer = api(moderator).post(url, {"power": "France", "username": "NewComer"}, format="json")
    assert answer.status_code == 200, answer.data
    assert game.memberships.get(power="France", status="active").user.username == "newcomer"
    form = ModerationForm({"power": "France", "username": "NEWCOMER"}, action="replace")
    assert form.is_valid() and form.cleaned_data["user"].username == "newcomer"


def test_a_deadline_change_sent_twice_moves_the_deadline_once(states, moderator, api):
    """Found by an adversary: the same ``{"minutes": -30}`` retried (a lost answer, a double
    click on the console's confirmation) moved the deadline twice, and could process the
    phase. Sent with the deadline seen, the repeat finds it moved and changes nothing."""
    game = states["active"]
    phase = game.current_phase
    before = phase.deadline
    body = {"minutes": 30, "phase": phase.index, "seen_deadline": before.isoformat()}
    url = f"/api/games/{game.pk}/moderation/deadline/"
    assert api(moderator).post(url, body, format="json").status_code == 200
    again = api(moderator).post(url, body, format="json")
    assert again.status_code == 409, again.content
    assert "moved since you saw it" in again.json()["detail"]
    phase.refresh_from_db()
    assert phase.deadline == before + timedelta(minutes=30)
    # Written to the second, as a client may: still the deadline seen.
    body["seen_deadline"] = phase.deadline.replace(microsecond=0).isoformat()
    assert api(moderator).post(url, body, format="json").status_code == 200
    phase.refresh_from_db()
    assert phase.deadline == before + timedelta(minutes=60)
    # Without a zone it is refused for itself; without it at all, no check, as before.
    naive = {**body, "seen_deadline": "2027-01-01T00:00:00"}
    assert "seen_deadline" in api(moderator).post(url, naive, format="json").json()
    assert api(moderator).post(url, {"minutes": 5}, format="json").status_code == 200
    # Another action does not take it.
    refused = api(moderator).post(
        f"/api/games/{game.pk}/moderation/pause/",
        {"seen_deadline": before.isoformat()},
        format="json",
    )
    assert refused.status_code == 400 and "seen_deadline" in refused.json()


def test_the_consoles_confirmation_sent_twice_moves_the_deadline_once(states, moderator):
    game = states["active"]
    phase = game.current_phase
    before = phase.deadline
    c = Client()
    c.force_login(moderator)
    console = c.get(reverse("moderate", args=[game.pk])).content.decode()
    seen = re.search(r'name="seen_deadline" value="([^"]+)"', console).group(1)
    url = reverse("moderate-action", args=[game.pk, "deadline"])
    asked = c.post(url, {"minutes": "30", "phase": str(phase.index), "seen_deadline": seen})
    page = asked.content.decode()
    assert f'name="seen_deadline" value="{seen}"' in page  # sent again with the confirmation
    assert "Deadline seen" not in page  # but not shown: the new deadline is
    confirm = {"minutes": "30", "phase": str(phase.index), "seen_deadline": seen, "confirm": "yes"}
    assert "Done: deadline." in c.post(url, confirm, follow=True).content.decode()
    twice = c.post(url, confirm, follow=True).content.decode()
    assert "moved since you saw it" in twice
    phase.refresh_from_db()
    assert phase.deadline == before + timedelta(minutes=30)
    assert ModeratorAction.objects.filter(game=game, action="deadline").count() == 1


def test_a_console_that_saw_another_deadline_is_refused_before_its_confirmation(states, moderator):
    """Found by an adversary: a second tab (another moderator) asking to move a deadline the
    first had moved meanwhile got a confirmation page showing a new deadline reckoned from one
    it never saw ("That time has passed: confirming processes the phase now", when shortening
    by an hour a deadline the other had brought close), then, confirmed, a refusal naming the
    deadline in UTC and ISO 8601 where the console writes it in the moderator's zone."""
    from games.models import NotificationSettings

    prefs = NotificationSettings.of(moderator)
    prefs.time_zone = "Asia/Tokyo"
    prefs.save()
    game = states["active"]
    phase = game.current_phase
    first, second = Client(), Client()
    first.force_login(moderator)
    second.force_login(moderator)
    consoles = [
        c.get(reverse("moderate", args=[game.pk])).content.decode() for c in (first, second)
    ]
    seen = [re.search(r'name="seen_deadline" value="([^"]+)"', page).group(1) for page in consoles]
    assert seen[0] == seen[1] and seen[0].endswith("+09:00")
    url = reverse("moderate-action", args=[game.pk, "deadline"])
    moved = timezone.now() + timedelta(minutes=30)
    typed = moved.astimezone(ZoneInfo("Asia/Tokyo")).strftime("%Y-%m-%dT%H:%M")
    first.post(
        url,
        {"deadline": typed, "phase": str(phase.index), "seen_deadline": seen[0], "confirm": "yes"},
    )
    phase.refresh_from_db()
    after = phase.deadline
    assert abs(after - moved) < timedelta(minutes=1)
    asked = second.post(
        url, {"minutes": "-60", "phase": str(phase.index), "seen_deadline": seen[1]}, follow=True
    )
    page = asked.content.decode()
    assert asked.redirect_chain
    assert not any("moderate_confirm" in (t.name or "") for t in asked.templates)
    assert "That time has passed" not in page and "The new deadline" not in page
    written = after.astimezone(ZoneInfo("Asia/Tokyo")).strftime("%H:%M UTC+9")
    assert "the deadline has moved since you saw it (it is now " in page and written in page
    assert 'value="-60"' in page  # the minutes typed are kept, to be sent again
    phase.refresh_from_db()
    assert phase.deadline == after
    assert ModeratorAction.objects.filter(game=game, action="deadline").count() == 1


def test_the_admins_deadline_action_confirmed_twice_moves_the_deadline_once(states, moderator):
    """Found by an adversary: the admin's "Extend the deadline by a day", sent twice (a double
    click, a retry), moved the deadline two days, silently. It asks first now, and the answer
    names the deadline seen."""
    moderator.is_staff = moderator.is_superuser = True
    moderator.save()
    game = states["active"]
    phase = game.current_phase
    before = phase.deadline
    c = Client()
    c.force_login(moderator)
    url = "/admin/games/game/"
    ask = {"action": "extend_day", "_selected_action": str(game.pk), "index": "0"}
    page = c.post(url, ask).content.decode()
    phase.refresh_from_db()
    assert phase.deadline == before  # only asked
    seen = re.search(rf'name="seen-{game.pk}" value="([^"]+)"', page).group(1)
    assert 'name="action" value="extend_day"' in page and 'value="Yes, move them"' in page
    confirm = {"action": "extend_day", "_selected_action": str(game.pk), "post": "yes"}
    confirm[f"seen-{game.pk}"] = seen
    c.post(url, confirm)
    twice = c.post(url, confirm, follow=True).content.decode()
    assert "moved since you saw it" in twice
    phase.refresh_from_db()
    assert phase.deadline == before + timedelta(days=1)
    assert ModeratorAction.objects.filter(game=game, action="deadline").count() == 1
    confirm[f"seen-{game.pk}"] = "not a date"
    assert "no deadline named" in c.post(url, confirm, follow=True).content.decode()
    phase.refresh_from_db()
    assert phase.deadline == before + timedelta(days=1)


def test_a_deadline_moved_by_no_minutes_changes_nothing(states, moderator, api):
    """Found by an adversary: ``{"minutes": 0}`` was logged as a change of the deadline (and
    sent its reminders again)."""
    game = states["active"]
    phase = game.current_phase
    phase.reminders_sent = [24]
    phase.save()
    before = phase.deadline
    url = f"/api/games/{game.pk}/moderation/deadline/"
    answer = api(moderator).post(url, {"minutes": 0, "phase": phase.index}, format="json")
    assert answer.status_code == 200, answer.content
    phase.refresh_from_db()
    assert phase.deadline == before and phase.reminders_sent == [24]
    assert not ModeratorAction.objects.filter(game=game, action="deadline").exists()
    moved = api(moderator).post(url, {"minutes": 1, "phase": phase.index}, format="json")
    assert moved.status_code == 200
    assert ModeratorAction.objects.filter(game=game, action="deadline").count() == 1
