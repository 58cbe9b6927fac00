"""Chinese Diplomacy's seats (issue #14 item 6): a great power with no army still plays.

It may enter in any year, pay and be paid; only deposition ends a leader's seat. The game page
offers its entries onto the board and its armies' departures from it.
"""

from __future__ import annotations

from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from games import engine, services
from games.models import Game, Membership, ModeratorAction, Order

pytestmark = pytest.mark.django_db


@pytest.fixture
def chinese(make_game) -> Game:
    return make_game("chinese", civil_disorder_after=1)


def client_for(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def process(game: Game) -> None:
    game.refresh_from_db()
    assert services.process_phase(game.pk, game.current_phase_id, force=True)
    game.refresh_from_db()


def test_a_power_that_stays_off_the_board_still_plays(chinese, seat):
    services.submit_orders(seat(chinese, "England"), ["Enter A Pacific Ocean"])
    process(chinese)
    process(chinese)  # two years off the board, and civil disorder after one missed phase
    france = seat(chinese, "France")
    assert france.status == Membership.Status.ACTIVE and france.missed_phases == 0
    phase = chinese.current_phase
    assert "France" in engine.survivors(phase) and "France" in engine.powers_to_act(phase)
    # Still plays: orders, payments and votes are taken.
    services.submit_orders(france, ["Enter A Indo-China"])
    services.pay(france, "England", 5)
    services.pay(seat(chinese, "England"), "France", 7)
    services.vote(france, draw=True)
    process(chinese)
    units = {(u["power"], u["location"]) for u in chinese.current_phase.units}
    assert ("France", "Indo-China") in units
    balances = chinese.current_phase.carried["economy"]["balances"]
    assert balances["France"] == -15 - 5 + 7


def test_the_page_offers_enter_and_the_button_adds_the_order(chinese, seat):
    france = seat(chinese, "France")
    services.submit_orders(france, ["Enter A Pacific Ocean"])
    c = client_for(france.user)
    html = c.get(reverse("game", args=[chinese.pk])).content.decode()
    assert 'id="rule-orders"' in html
    assert 'value="Enter A Indo-China"' in html and 'value="Enter A Pacific Ocean"' in html
    assert "Enter A Siberia" not in html  # Russia's alone
    assert "no army on the board" in html
    now = chinese.current_phase.index
    add = reverse("add-order", args=[chinese.pk])
    response = c.post(add, {"order": "Enter A Indo-China", "phase": now})
    assert response.status_code == 302
    saved = Order.objects.filter(phase=chinese.current_phase, power="France").order_by("position")
    assert [(o.canonical, o.valid) for o in saved] == [
        ("Enter A Pacific Ocean", True),
        ("Enter A Indo-China", True),
    ]
    # An order the engine refuses is stored as invalid, with the reason shown.
    html = c.post(add, {"order": "Enter A Siberia", "phase": now}, follow=True).content.decode()
    assert "is invalid" in html and "France may not enter the board at Siberia" in html


def test_the_page_offers_leave_for_an_army_in_an_entry_space(chinese, seat):
    russia = seat(chinese, "Russia")
    services.submit_orders(russia, ["Enter A Siberia"])
    process(chinese)
    c = client_for(russia.user)
    html = c.get(reverse("game", args=[chinese.pk])).content.decode()
    assert 'value="A Siberia Leave"' in html and "no army on the board" not in html
    now = chinese.current_phase.index
    c.post(reverse("add-order", args=[chinese.pk]), {"order": "A Siberia Leave", "phase": now})
    process(chinese)
    assert not [u for u in chinese.current_phase.units if u["power"] == "Russia"]
    assert seat(chinese, "Russia").status == Membership.Status.ACTIVE


def test_an_add_order_button_of_an_old_page_adds_nothing(chinese, seat):
    """A button shown before the year was processed never adds its order to the next year."""
    france = seat(chinese, "France")
    c = client_for(france.user)
    shown = chinese.current_phase.index
    process(chinese)
    add = reverse("add-order", args=[chinese.pk])
    html = c.post(add, {"order": "Enter A Indo-China", "phase": shown}, follow=True)
    assert "belonged to an old page" in html.content.decode()
    c.post(add, {"order": "Enter A Indo-China"})  # no phase at all: refused alike
    assert not Order.objects.filter(phase=chinese.current_phase, power="France").exists()


def test_the_add_order_button_is_for_players_only(chinese, make_user):
    stranger = client_for(make_user("stranger"))
    url = reverse("add-order", args=[chinese.pk])
    assert stranger.post(url, {"order": "Enter A Pacific Ocean"}).status_code == 403
    assert not Order.objects.filter(phase=chinese.current_phase).exists()


def test_only_deposition_ends_the_seat(chinese, seat):
    phase = chinese.current_phase
    phase.carried["economy"]["balances"]["Germany"] = -995
    phase.save(update_fields=["carried"])
    germany = seat(chinese, "Germany")
    services.submit_orders(germany, ["Enter A Pacific Ocean"])
    process(chinese)
    germany.refresh_from_db()
    assert germany.status == Membership.Status.REPLACED
    log = ModeratorAction.objects.get(game=chinese, action="deposed")
    assert log.details == {"power": "Germany", "player": germany.user.username, "phase": 0}
    moderator = client_for(chinese.creator)
    html = unescape(moderator.get(reverse("moderate", args=[chinese.pk])).content.decode())
    assert f"Germany's leader ({germany.user.username}) was deposed" in html
    with pytest.raises(services.GameError, match="no longer play Germany"):
        services.submit_orders(germany, ["A Pacific Ocean H"])
    # Every other great power, on the board or not, keeps its seat.
    others = chinese.memberships.exclude(power="Germany")
    assert {m.status for m in others} == {Membership.Status.ACTIVE}


def test_a_seat_counted_out_before_plays_again_after_the_next_year(chinese, seat):
    # A game from before the fix: France, off the board, had been marked eliminated.
    france = seat(chinese, "France")
    france.status = Membership.Status.ELIMINATED
    france.save(update_fields=["status"])
    process(chinese)
    france.refresh_from_db()
    assert france.status == Membership.Status.ACTIVE
    services.submit_orders(france, ["Enter A Indo-China"])


def test_a_tie_at_the_top_in_1950_ends_the_game_as_a_draw_of_the_richest(chinese, seat):
    """Seed 003: the game ends in 1950 and the richest wins; richest tied share it."""
    phase = chinese.current_phase
    phase.year = 1950
    balances = phase.carried["economy"]["balances"]
    balances.update({"England": 400, "Japan": 400})
    phase.save(update_fields=["year", "carried"])
    process(chinese)
    assert chinese.status == Game.Status.FINISHED
    assert chinese.result["kind"] == "draw"
    assert chinese.result["powers"] == ["England", "Japan"]
    assert chinese.result["gold"]["England"] == chinese.result["gold"]["Japan"] == 400
    assert chinese.current_phase.year == 1950  # the last phase: none opens after it


def _last_year(game: Game, **gold: int) -> None:
    phase = game.current_phase
    phase.year = 1950
    phase.carried["economy"]["balances"].update(gold)
    phase.save(update_fields=["year", "carried"])


def test_the_game_ends_with_1950_through_the_deadline_task(chinese, seat):
    """Seed 003, rule 7: the game ends in 1950 and the largest profit wins. Processed at its
    deadline by the Celery task, 1950 is the game's last phase: the game is finished with the
    richest power the winner and every power's final gold in its result, no 1951 phase is
    opened, and nothing processes it again; the page and the API show the end."""
    from datetime import timedelta

    from django.utils import timezone

    from games import tasks

    _last_year(chinese, England=400, Japan=300)
    services.submit_orders(seat(chinese, "England"), ["Enter A Pacific Ocean"])
    phase = chinese.current_phase
    phase.deadline = timezone.now() - timedelta(seconds=1)
    phase.save(update_fields=["deadline"])
    assert tasks.process_phase(chinese.pk, phase.pk) is True
    chinese.refresh_from_db()
    assert chinese.status == Game.Status.FINISHED and chinese.finished_at is not None
    gold = {"England": 385, "France": 0, "Germany": 0, "Russia": 0, "Japan": 300}
    assert chinese.result == {
        "kind": "victory",
        "powers": ["England"],
        "gold": {**gold, "United States": 0},
    }
    assert list(chinese.phases.values_list("year", flat=True)) == [1950]
    assert chinese.current_phase_id == phase.pk
    assert chinese.current_phase.processed_at is not None
    assert tasks.process_phase(chinese.pk, phase.pk) is False
    assert tasks.sweep() == 0
    assert chinese.phases.count() == 1

    player = client_for(seat(chinese, "England").user)
    shown = player.get(f"/api/games/{chinese.pk}/").json()
    assert shown["status"] == "finished" and shown["result"]["powers"] == ["England"]
    assert shown["current_phase"]["year"] == 1950
    html = player.get(reverse("game", args=[chinese.pk])).content.decode()
    assert "Game over: victory — England." in html
    assert "Final balances, end of 1950" in html
    assert "1951" not in html
    refused = player.put(
        f"/api/games/{chinese.pk}/orders/", {"orders": []}, content_type="application/json"
    )
    assert refused.status_code in (400, 409)


def test_a_game_ended_with_1950_can_be_rolled_back_to_it(chinese, seat):
    _last_year(chinese, England=400)
    process(chinese)
    assert chinese.status == Game.Status.FINISHED
    services.rollback(chinese, chinese.creator, chinese.current_phase.index)
    chinese.refresh_from_db()
    assert chinese.status == Game.Status.ACTIVE and chinese.result is None
    assert chinese.current_phase.year == 1950 and chinese.current_phase.processed_at is None
    process(chinese)
    assert chinese.status == Game.Status.FINISHED and chinese.phases.count() == 1


def _unpublished(results: dict) -> list[dict]:
    return [o for o in results["factions"]["next_orders"] if not o.get("published")]


def test_players_never_read_the_factions_unpublished_orders_or_the_seed(chinese, seat):
    """Seed 003, 5(E): the Communists' orders are never published in advance. A processed
    year's results hold the coming year's faction orders, and the game's seed decides them:
    a player sees neither through the API or the replay while the game is on; a moderator who
    does not play sees the orders but not the seed (they may yet take a seat), and everyone
    sees both once the game is over."""
    process(chinese)
    last = chinese.phases.filter(processed_at__isnull=False).order_by("-index").first()
    # The Communists plan from 1927 on; their orders as the engine writes them, for this year.
    secret = {"power": "Communists", "order": "A Kiangsi H", "action": "Sta", "published": False}
    last.results["factions"]["next_orders"].append(secret)
    last.save(update_fields=["results"])
    player = client_for(seat(chinese, "England").user)
    shown = player.get(f"/api/games/{chinese.pk}/phases/{last.index}/").json()["results"]
    published = [o for o in last.results["factions"]["next_orders"] if o.get("published")]
    assert shown["factions"]["next_orders"] == published
    assert "seed" not in player.get(f"/api/games/{chinese.pk}/").json()["options"]
    replay = player.get(f"/games/{chinese.pk}/replay.json").json()
    assert not any(_unpublished(p["response"]) for p in replay["phases"])
    assert not any("seed" in p["request"]["options"] for p in replay["phases"])

    moderator = client_for(chinese.creator)
    whole = moderator.get(f"/api/games/{chinese.pk}/phases/{last.index}/").json()["results"]
    assert _unpublished(whole)
    assert "seed" not in moderator.get(f"/api/games/{chinese.pk}/").json()["options"]
    services.end_game(chinese, chinese.creator, "")
    assert "seed" in player.get(f"/api/games/{chinese.pk}/").json()["options"]


def test_this_years_payments_are_seen_only_by_the_two_powers(chinese, seat, make_user):
    """A payment is settled with the year; until then only payer, payee and a moderator who
    does not play see it (the page and the API alike); once the year is played, everyone."""
    services.pay(seat(chinese, "France"), "England", 5)
    url = f"/api/games/{chinese.pk}/payments/"
    page = reverse("game", args=[chinese.pk])

    def seen(user) -> tuple[int, bool]:
        c = client_for(user)
        listed = c.get(url).json()["results"]
        return len(listed), "France pays England" in unescape(c.get(page).content.decode())

    assert seen(seat(chinese, "France").user) == (1, True)
    assert seen(seat(chinese, "England").user) == (1, True)
    assert seen(chinese.creator) == (1, True)
    assert seen(seat(chinese, "Japan").user) == (0, False)
    assert seen(make_user("onlooker")) == (0, False)
    process(chinese)
    assert seen(seat(chinese, "Japan").user)[0] == 1


def test_a_moderators_draw_is_shared_by_great_powers_only(chinese):
    """The factions are the gamesmaster's, never a party to a draw (the adversary found the
    Imperials among the drawn powers)."""
    services.declare_draw(chinese, chinese.creator)
    chinese.refresh_from_db()
    assert chinese.result["kind"] == "draw"
    assert set(chinese.result["powers"]) <= set(engine.powers(chinese))
    assert "Imperials" not in chinese.result["powers"]


def test_a_moderator_who_plays_reads_no_private_payment_in_the_audit_log(make_user, seat, api):
    """A creator seated in their own game moderates it and plays: the audit log showed them
    every payment of the year not yet played ("France paid Germany 77"), which only payer
    and payee may see until the statement publishes it. Theirs, and the years played, stay."""
    playing = make_user("playing_moderator")
    game = services.create_game(playing, name="Moderator plays", variant="chinese")
    services.join_game(game, playing, ["England"])
    for power in engine.powers(game)[1:]:
        services.join_game(game, make_user(f"p_{power.lower().replace(' ', '_')}"), [power])
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.is_moderator(playing)
    france = seat(game, "France")
    services.pay(france, "Germany", 77)
    services.pay(france, "England", 5)
    services.pay(seat(game, "England"), "Japan", 3)
    url = f"/api/games/{game.pk}/log/"
    console = reverse("moderate", args=[game.pk])

    def paid() -> list[tuple[str, int]]:
        log = api(playing).get(url).json()["results"]
        return sorted(
            (e["details"]["payee"], e["details"]["amount"]) for e in log if e["action"] == "pay"
        )

    assert paid() == [("England", 5), ("Japan", 3)]
    # Nor do the entries' ids tell of the others (row ids left gaps where they were).
    ids = [e["id"] for e in api(playing).get(url).json()["results"]]
    pks = set(game.moderator_actions.values_list("pk", flat=True))
    assert len(set(ids)) == len(ids) and not set(ids) & pks and min(ids) >= 10**15
    shown = unescape(client_for(playing).get(console).content.decode())
    assert "Paid Japan 3 k oz" in shown and "Paid Germany 77 k oz" not in shown
    process(game)
    assert paid() == [("England", 5), ("Germany", 77), ("Japan", 3)]
    services.pay(france, "Germany", 11)  # the next year's: private again
    assert ("Germany", 11) not in paid() and ("Germany", 77) in paid()


def test_each_army_in_an_entry_space_owes_its_own_order(chinese, seat):
    """Three English armies in the Pacific and one order: two are still without one. The page
    and the Ready of a page without JavaScript counted the place, not the armies ("Every
    unit has an order", and Ready taken without a word); a Leave is an army's order."""
    england = seat(chinese, "England")
    services.submit_orders(england, ["Enter A Pacific Ocean"] * 3)
    process(chinese)
    c = client_for(england.user)
    page = reverse("game", args=[chinese.pk])
    index = chinese.current_phase.index
    services.submit_orders(england, ["A Pacific Ocean H"])
    html = unescape(c.get(page).content.decode())
    assert "Without orders: A Pacific Ocean, A Pacific Ocean." in html
    answer = c.post(reverse("ready", args=[chinese.pk]), {"ready": "1", "phase": index})
    assert "Without orders: A Pacific Ocean, A Pacific Ocean." in unescape(answer.content.decode())
    england.refresh_from_db()
    assert not england.ready  # asked first, not taken
    services.submit_orders(
        england, ["A Pacific Ocean H", "A Pacific Ocean Leave", "Enter A Pacific Ocean"]
    )
    html = unescape(c.get(page).content.decode())
    assert "Without orders: A Pacific Ocean." in html  # an Enter orders no army standing
    services.submit_orders(england, ["A Pacific Ocean H"] + ["A Pacific Ocean Leave"] * 2)
    html = unescape(c.get(page).content.decode())
    assert "Every unit has an order." in html
    assert (
        c.post(reverse("ready", args=[chinese.pk]), {"ready": "1", "phase": index}).status_code
        == 302
    )


@pytest.mark.parametrize("how", ["end", "draw", "concession"])
def test_a_game_ended_by_hand_places_the_survivors_by_their_gold(make_game, seat, how):
    """Found by an adversary: ended by the moderator (or by a draw or a concession voted), a
    Chinese game's result had no gold, so every survivor below the winners tied, where the
    richer should place higher (seed 003), as at the 1950 end."""
    from games import ratings

    game = make_game("chinese")
    phase = game.current_phase
    balances = phase.carried["economy"]["balances"]
    balances.update({power: 0 for power in balances})
    balances.update({"England": -25, "Japan": -150, "Russia": 40})
    phase.save(update_fields=["carried"])
    if how == "end":
        services.end_game(game, game.creator, "Russia")
    elif how == "draw":
        services.declare_draw(game, game.creator)
    else:
        for power in set(engine.powers(game)) - {"Russia"}:
            services.vote(seat(game, power), concede_to="Russia")
    game.refresh_from_db()
    assert game.result["gold"]["England"] == -25 and game.result["gold"]["Japan"] == -150
    places = ratings.ranks(game)
    if how == "draw":  # everyone shares the draw: gold places nobody
        assert len(set(places.values())) == 1, places
    else:
        assert places["Russia"] == 1 and places["England"] < places["Japan"], places


def test_a_forming_games_page_counts_the_seats_people_play(moderator, make_user):
    """Found by an adversary: a forming Chinese game said "1 of 9 seats taken", counting the
    three factions nobody plays; it has six seats."""
    game = services.create_game(moderator, name="Forming", variant="chinese")
    player = make_user("first")
    services.join_game(game, player)
    page = client_for(player).get(reverse("game", args=[game.pk])).content.decode()
    assert "1 of 6 seats taken" in unescape(page), page
