"""The moderator console offers only what the game's state allows and writes its audit log in
words (issue 16, item 5)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game

pytestmark = pytest.mark.django_db


def console(game, moderator) -> str:
    c = Client()
    c.force_login(moderator)
    response = c.get(reverse("moderate", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def offered(html: str, game) -> set[str]:
    prefix = f"/games/{game.pk}/moderate/"
    return set(re.findall(rf'action="{re.escape(prefix)}(\w+)/"', html))


def test_a_running_game_offers_no_start_and_no_resume(make_game, moderator):
    game = make_game("colonial")
    actions = offered(console(game, moderator), game)
    assert "start" not in actions and "resume" not in actions
    assert {"deadline", "pause", "process", "replace", "remove", "draw", "end"} <= actions
    assert "rollback" not in actions  # nothing earlier to go back to


def test_a_paused_game_offers_resume_but_not_pause(make_game, moderator):
    game = make_game("colonial")
    services.pause(game, moderator)
    actions = offered(console(game, moderator), game)
    assert "resume" in actions and "pause" not in actions and "start" not in actions
    assert "process" not in actions and "deadline" not in actions


def test_a_forming_game_offers_start_and_end_only(make_user, moderator):
    game = services.create_game(moderator, name="Forming", variant="colonial")
    services.join_game(game, make_user("ada"), ["Russia"])
    assert offered(console(game, moderator), game) == {"start", "end"}


def test_a_finished_game_offers_only_rollback(make_game, moderator):
    game = make_game("colonial")
    services.process_now(game, moderator)
    game.refresh_from_db()
    services.end_game(game, moderator, "Russia")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert offered(console(game, moderator), game) == {"rollback"}


@pytest.mark.parametrize("finished", [False, True])
def test_rollback_offers_only_earlier_phases(make_game, moderator, finished):
    """The current phase of a running game is no rollback target (choosing it was "there is
    no earlier phase"); of a game over it is the phase the game ended in, to reopen."""
    game = make_game("colonial")
    services.process_now(game, moderator)
    services.process_now(game, moderator)
    if finished:
        services.end_game(game, moderator)
    html = console(game, moderator)
    form = html[html.index(f'action="/games/{game.pk}/moderate/rollback/"') :]
    form = form[: form.index("</form>")]
    assert re.findall(r'<option value="(\d+)"', form) == ["0", "1", "2"][: 3 if finished else 2]


@pytest.mark.parametrize("how", ["end", "winner", "draw", "votes"])
def test_a_game_ended_in_its_only_phase_rolls_back_as_any_other(
    make_game, moderator, seat, api, how
):
    """A game ended in its first phase could not be rolled back at all ("there is no earlier
    phase"), while one ended later could go back to any earlier phase. A game over goes back
    to the phase it ended in, its only one too: the game runs again from there, its orders
    kept, a fresh deadline."""
    from games import engine

    game = make_game("colonial")
    services.submit_orders(seat(game, "Russia"), ["A Moscow H"])
    if how == "end":
        services.end_game(game, moderator)
    elif how == "winner":
        services.end_game(game, moderator, "Russia")
    elif how == "draw":
        services.declare_draw(game, moderator)
    else:
        for power in engine.powers(game):
            services.vote(seat(game, power), draw=True)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.phases.count() == 1
    assert offered(console(game, moderator), game) == {"rollback"}
    client = api(moderator)
    actions = client.get(f"/api/games/{game.pk}/moderation/").json()
    assert [a["name"] for a in actions] == ["rollback"]
    answer = client.post(f"/api/games/{game.pk}/moderation/rollback/", {"phase": 0}, format="json")
    assert answer.status_code == 200, answer.content
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.result is None
    assert game.current_phase.index == 0 and game.current_phase.deadline is not None
    assert not game.votes.exists()
    assert game.current_phase.orders.get(power="Russia").text == "A Moscow H"
    # Running again, its current phase is no earlier one: a clear 400, as before.
    again = client.post(f"/api/games/{game.pk}/moderation/rollback/", {"phase": 0}, format="json")
    assert again.status_code == 400 and "no earlier phase" in again.json()["detail"]


def test_rollback_offers_the_phase_a_solo_was_won_in(make_game, moderator):
    """A solo opens no phase after it: the phase it was won in, processed, is the one to go
    back to (to play it again from before the winning move)."""
    game = make_game("standard", options={"victory_centers": 4})
    services.process_now(game, moderator)
    services.process_now(game, moderator)  # Russia takes a fourth centre in the autumn
    game.refresh_from_db()
    assert game.result == {"kind": "victory", "powers": ["Russia"]}
    html = console(game, moderator)
    form = html[html.index(f'action="/games/{game.pk}/moderate/rollback/"') :]
    form = form[: form.index("</form>")]
    assert re.findall(r'<option value="(\d+)"', form) == ["0", "1"]


def test_audit_log_is_written_in_words(make_game, moderator, seat):
    game = make_game("colonial")
    services.change_deadline(game, moderator, minutes=90)
    services.pause(game, moderator)
    services.resume(game, moderator)
    services.remove_player(game, moderator, "Britain")
    services.process_now(game, moderator)
    html = console(game, moderator)
    log = re.search(r'<h2 id="audit">.*?</table>', html, re.S).group(0)
    assert "{" not in log and "remaining_seconds" not in log and "&#x27;" not in log
    assert "Moved the deadline from " in log
    assert "Paused the clock with " in log
    assert "Restarted the clock; deadline " in log
    assert f"Put Britain ({seat(game, 'Britain').user.username}) into civil disorder." in log
    assert "Processed phase 0 (Spring 1870 movement) at once." in log
    assert "Created the game (Colonial Diplomacy)." in log


def test_a_removed_player_is_out_for_good(api, make_game, make_user, seat, moderator) -> None:
    """Removed by the moderator: no orders, no ready, no private press, no way back by
    ordering; the seat waits in civil disorder for another player, who may take it over."""
    from games import services

    game = make_game("standard")
    france = seat(game, "France")
    services.send_message(game, seat(game, "England").user, "For France only", ["France"])
    gone = api(france.user)
    url = f"/api/games/{game.pk}/"
    assert api(moderator).post(f"{url}moderation/remove/", {"power": "France"}).status_code == 200
    assert gone.put(f"{url}orders/", {"orders": ["A Paris H"]}, format="json").status_code == 403
    assert gone.post(f"{url}ready/", {"ready": True, "phase": 0}, format="json").status_code == 403
    assert gone.get(f"{url}messages/").status_code == 403
    france.refresh_from_db()
    assert france.status == "civil_disorder" and france.removed
    assert gone.post(f"{url}join/", {"power": "France"}).status_code == 400
    # Nor by mail or push: the press digest, the phase mails and the pushes leave them out.
    from django.core import mail

    from games import notifications, reach

    france.user.email = "france@example.com"
    france.user.save()
    services.send_message(game, seat(game, "Russia").user, "Also for France", ["France"])
    notifications.press_digest()
    assert not [m for m in mail.outbox if "france@example.com" in m.to]
    assert france.user not in [m.user for m in notifications._seats(game)]
    assert france.user not in list(reach._players(game))
    taker = api(make_user("taker"))
    assert taker.post(f"{url}join/", {"power": "France"}).status_code == 200
    assert taker.get(f"{url}messages/").json()["count"] == 2


def test_a_removed_seat_goes_to_a_bot_when_the_game_says_so(api, make_game, seat, moderator):
    game = make_game("standard", bots_take_civil_disorder=True)
    api(moderator).post(f"/api/games/{game.pk}/moderation/remove/", {"power": "France"})
    france = game.memberships.exclude(status="replaced").get(power="France")
    assert france.bot and france.status == "active"


def _italy(game) -> list[tuple]:
    rows = game.memberships.filter(power="Italy").order_by("pk")
    return list(rows.values_list("user__username", "status", "removed"))


def test_a_replaced_player_is_seated_again_by_the_moderator(api, make_game, make_user, seat):
    """The moderator puts a replaced player back (the API and the console alike): their own
    seat row comes back in play, afresh, and the one who stood in is replaced; never a
    second seat row for one account (a unique-constraint error) nor two seats in play."""
    game = make_game("standard", civil_disorder_after=1)
    first = seat(game, "Italy")
    first.missed_phases = 1
    first.save(update_fields=["missed_phases"])
    sub = make_user("sub")
    moderator = game.creator
    url = f"/api/games/{game.pk}/moderation/replace/"
    assert api(moderator).post(url, {"power": "Italy", "username": "sub"}).status_code == 200
    rows = game.memberships.count()
    back = api(moderator).post(url, {"power": "Italy", "username": first.user.username})
    assert back.status_code == 200, back.content
    assert game.memberships.count() == rows
    assert _italy(game) == [(first.user.username, "active", False), ("sub", "replaced", False)]
    first.refresh_from_db()
    assert first.missed_phases == 0 and not first.ready
    log = game.moderator_actions.filter(action="replace").first()
    assert log.details["again"] is True and log.details["old"] == "sub"
    # Someone who plays a power is not seated on a second one: a 400 saying so.
    twice = api(moderator).post(url, {"power": "France", "username": first.user.username})
    assert twice.status_code == 400 and "already plays Italy" in twice.json()["detail"]
    # The console, through the same service: sub back on Italy.
    c = Client()
    c.force_login(moderator)
    form = {"power": "Italy", "username": "sub", "confirm": "yes"}
    assert c.post(reverse("moderate-action", args=[game.pk, "replace"]), form).status_code == 302
    assert _italy(game) == [(first.user.username, "replaced", False), ("sub", "active", False)]
    assert seat(game, "Italy").user == sub


def test_a_replaced_player_may_take_over_an_open_seat(api, make_game, make_user, seat):
    game = make_game("standard", civil_disorder_after=1)
    first = seat(game, "Italy")
    services.replace_player(game, game.creator, "Italy", make_user("sub"))
    services.remove_player(game, game.creator, "France")  # France in civil disorder, open
    joined = api(first.user).post(f"/api/games/{game.pk}/join/", {"power": "France"})
    assert joined.status_code == 200, joined.content
    first.refresh_from_db()
    assert (first.power, first.status) == ("France", "active")
    assert game.memberships.filter(user=first.user).count() == 1
    france = game.memberships.filter(power="France").exclude(status="replaced")
    assert [m.user for m in france] == [first.user]


def test_a_removed_player_comes_back_only_when_the_moderator_seats_them(api, make_game, seat):
    game = make_game("standard")
    france = seat(game, "France")
    services.remove_player(game, game.creator, "France")
    join = api(france.user).post(f"/api/games/{game.pk}/join/", {"power": "France"})
    assert join.status_code == 400 and "removed" in join.json()["detail"]
    services.replace_player(game, game.creator, "France", france.user)
    france.refresh_from_db()
    assert france.status == "active" and not france.removed
    assert game.memberships.filter(power="France").count() == 1


def test_a_moderator_who_watched_every_order_takes_no_seat(make_game, moderator, make_user):
    """A moderator who does not play sees every power's orders before they are judged: taking
    a seat in the running game (over a civil disorder, or by seating himself) would play with
    them in hand; he seats another player instead."""
    from games import services

    game = make_game("standard")
    services.remove_player(game, moderator, "Italy")
    with pytest.raises(services.GameError, match="seen every power's orders"):
        services.take_over(game, moderator, "Italy")
    with pytest.raises(services.GameError, match="seen every power's orders"):
        services.replace_player(game, moderator, "Italy", moderator)
    newcomer = services.replace_player(game, moderator, "Italy", make_user("newcomer"))
    assert newcomer.power == "Italy" and newcomer.status == "active"


@pytest.mark.parametrize("staff", ["superuser", "site moderator"])
def test_site_staff_who_may_watch_every_order_take_no_seat(
    make_game, moderator, make_user, api, staff
):
    """Only the game's creator was refused: a superuser or site moderator, who may read every
    power's unprocessed orders of a game they do not play, could then take over a bot's seat
    (or be seated by the moderator) with them in hand."""
    from django.contrib.auth.models import Permission
    from django.test import Client
    from django.urls import reverse

    from games import services

    if staff == "superuser":
        watcher = make_user("root", is_staff=True, is_superuser=True)
    else:
        watcher = make_user("sitemod")
        watcher.user_permissions.add(Permission.objects.get(codename="moderate_any_game"))
    game = make_game("standard")
    services.set_bot(game, moderator, "Italy", True)
    assert api(watcher).get(f"/api/games/{game.pk}/orders/").status_code == 200
    page = Client()
    page.force_login(watcher)
    assert 'name="take_over"' not in page.get(reverse("game", args=[game.pk])).content.decode()
    join = api(watcher).post(f"/api/games/{game.pk}/join/", {"power": "Italy"}, format="json")
    assert join.status_code == 400 and "every power's orders" in join.json()["detail"]
    with pytest.raises(services.GameError, match="every power's orders"):
        services.replace_player(game, moderator, "Italy", watcher)
    assert not game.memberships.filter(user=watcher).exists()
    # A player takes the bot's seat as before.
    assert services.take_over(game, make_user("newcomer"), "Italy").power == "Italy"


def test_a_moderator_action_naming_no_power_says_so(api, make_game, make_user, moderator):
    """Found by an adversary: removing "Narnia" said "nobody is actively playing Narnia", as if
    it were a power; every action naming a power now refuses an unknown one alike, naming the
    powers to choose from, and reads abbreviations as an order does."""
    game = make_game("standard")
    url = f"/api/games/{game.pk}/moderation/"
    make_user("spare")
    bodies = {
        "remove": {"power": "Narnia"},
        "replace": {"power": "Narnia", "username": "spare"},
        "bot": {"power": "Narnia", "bot": True},
        "end": {"winner": "Narnia"},
    }
    for action, body in bodies.items():
        answer = api(moderator).post(f"{url}{action}/", body, format="json")
        assert answer.status_code == 400, (action, answer.content)
        said = answer.json()["detail"]
        assert said.startswith("unknown power 'Narnia'; choose from Austria"), (action, said)
    assert game.memberships.filter(user__username="spare").count() == 0
    removed = api(moderator).post(f"{url}remove/", {"power": "fra"}, format="json")
    assert removed.status_code == 200, removed.content
    assert game.memberships.get(power="France").status == "civil_disorder"


def test_a_seat_is_not_handed_to_a_deactivated_account(api, make_game, make_user, moderator):
    """Found by an adversary: the moderator handed Italy to an account that can never sign
    in, and Italy's player lost the seat."""
    game = make_game("standard")
    gone = make_user("gone")
    gone.is_active = False
    gone.save()
    url = f"/api/games/{game.pk}/moderation/replace/"
    answer = api(moderator).post(url, {"power": "Italy", "username": "gone"}, format="json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["detail"] == "gone's account is deactivated: it cannot sign in to play"
    italy = game.memberships.get(power="Italy")
    assert italy.user != gone and italy.status == "active"


def test_a_paused_games_time_left_reads_as_iso_8601(api, make_game, moderator):
    """The API gave ``paused_remaining`` in Django's own duration text ("23:59:59.5"), which
    JSON readers do not know; its dates were ISO 8601 already."""
    import datetime as dt

    game = make_game()
    phase = game.current_phase
    phase.deadline = phase.deadline.replace(microsecond=0)
    phase.save()
    services.pause(game, moderator)
    game.refresh_from_db()
    text = api(moderator).get(f"/api/games/{game.pk}/").json()["paused_remaining"]
    match = re.fullmatch(r"P(\d+)DT(\d\d)H(\d\d)M(\d\d)(?:\.\d+)?S", text)
    assert match, text
    days, hours, minutes, seconds = (int(x) for x in match.groups())
    read = dt.timedelta(days=days, hours=hours, minutes=minutes, seconds=seconds)
    assert abs(read - game.paused_remaining) < dt.timedelta(seconds=1)


def test_the_schema_says_paused_remaining_is_a_duration_and_what_seen_deadline_is(api, make_game):
    game = make_game()
    schema = api(game.creator).get("/api/schema/?format=json").json()
    field = schema["components"]["schemas"]["Game"]["properties"]["paused_remaining"]
    assert field["format"] == "duration" and field["nullable"] is True
    listed = api(game.creator).get(f"/api/games/{game.pk}/moderation/").json()
    (seen,) = [
        f
        for a in listed
        if a["name"] == "deadline"
        for f in a["inputs"]
        if f["kind"] == "current_deadline"
    ]
    assert seen["name"] == "seen_deadline" and "moved since" in seen["help"]
