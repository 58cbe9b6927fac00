"""A deposed Chinese leader's power is in civil disorder like any other (seed 003, rule 6):
with ``bots_take_civil_disorder`` a bot takes the seat at once, as when a player stops
ordering or is removed; and the votes standing are settled, since the deposed seat no longer
votes."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games import services
from games.models import Game, Membership, ModeratorAction

pytestmark = pytest.mark.django_db


def _deep_in_debt(game: Game, power: str) -> None:
    """The power's balance such that the year's end leaves it more than 1,000 k oz short."""
    phase = game.current_phase
    phase.carried["economy"]["balances"][power] = -995
    phase.save(update_fields=["carried"])


def _process(game: Game) -> None:
    game.refresh_from_db()
    assert services.process_phase(game.pk, game.current_phase_id, force=True)
    game.refresh_from_db()


def _power(game: Game, power: str) -> dict:
    client = APIClient()
    client.force_authenticate(game.creator)
    powers = client.get(f"/api/games/{game.pk}/").json()["powers"]
    return next(p for p in powers if p["power"] == power)


@pytest.mark.parametrize("bots", [True, False])
def test_a_deposed_power_goes_to_a_bot_when_the_game_says_so(make_game, seat, bots) -> None:
    game = make_game("chinese", bots_take_civil_disorder=bots)
    germany = seat(game, "Germany")
    _deep_in_debt(game, "Germany")
    services.submit_orders(germany, ["Enter A Pacific Ocean"])
    _process(game)
    germany.refresh_from_db()
    assert germany.status == Membership.Status.REPLACED
    assert ModeratorAction.objects.filter(game=game, action="deposed").exists()
    shown = _power(game, "Germany")
    if bots:
        bot = game.memberships.get(power="Germany", status=Membership.Status.ACTIVE)
        assert bot.bot
        assert shown["bot"] and shown["status"] == "active"
        log = ModeratorAction.objects.get(game=game, action="bot")
        assert log.details["why"] == "deposed" and log.details["power"] == "Germany"
    else:
        assert not shown["bot"] and shown["status"] == "civil_disorder"
        assert not game.memberships.filter(power="Germany", status="active").exists()


def test_votes_are_settled_when_a_leader_is_deposed(make_game, seat) -> None:
    """Every other great power has voted for a draw; the one that did not is deposed: the
    draw passes, as when a seat is removed."""
    game = make_game("chinese")
    others = [m for m in game.memberships.all() if m.power != "Germany"]
    for membership in others:
        assert not services.vote(membership, draw=True)
    _deep_in_debt(game, "Germany")
    services.submit_orders(seat(game, "Germany"), ["Enter A Pacific Ocean"])
    _process(game)
    assert game.status == Game.Status.FINISHED
    assert game.result["kind"] == "draw"
    assert {m.power for m in others} <= set(game.result["powers"])


def test_a_deposed_leader_cannot_take_the_power_back(make_game, seat, make_user) -> None:
    """Seed 003, rule 6: the position may be offered to a new player; the deposed one may not
    take it over again himself (the moderator may still seat him)."""
    game = make_game("chinese", bots_take_civil_disorder=False)
    germany = seat(game, "Germany")
    _deep_in_debt(game, "Germany")
    services.submit_orders(germany, ["Enter A Pacific Ocean"])
    _process(game)
    with pytest.raises(services.GameError, match="deposed as leader of Germany"):
        services.take_over(game, germany.user, "Germany")
    newcomer = services.take_over(game, make_user("newcomer"), "Germany")
    assert newcomer.status == Membership.Status.ACTIVE and newcomer.power == "Germany"


def _at_deadline(game: Game) -> None:
    """Process the current phase at its deadline (not early: a phase processed early is
    missed by nobody)."""
    from datetime import timedelta

    from django.utils import timezone

    phase = game.current_phase
    phase.deadline = timezone.now() - timedelta(minutes=1)
    phase.save(update_fields=["deadline"])
    _process(game)


def test_a_deposed_leader_is_not_counted_for_the_years_after_the_seat_ended(
    make_game, seat
) -> None:
    """Reliability counts a seat up to its end. A deposed leader's seat ends at the deposition
    (seed 003, rule 6), but with nobody taking the power over it was counted on: each later
    year the power had to order in was a year its old leader "missed"."""
    from games import ratings

    game = make_game("chinese", bots_take_civil_disorder=False)
    germany = seat(game, "Germany")
    _deep_in_debt(game, "Germany")
    services.submit_orders(germany, ["Enter A Pacific Ocean"])
    _at_deadline(game)
    germany.refresh_from_db()
    assert germany.status == Membership.Status.REPLACED
    _at_deadline(game)  # Germany's army stands on, its seat empty
    _at_deadline(game)
    counted = ratings.reliability(germany.user)
    assert (counted.due, counted.ordered) == (1, 1)


def test_a_year_off_the_board_is_not_a_year_missed(make_game, seat) -> None:
    """A great power with nothing on the board need not order (it may bring armies on, or
    stay off): it never falls into civil disorder for staying off, and its player's
    reliability does not count such a year as one they had to order in."""
    from games import ratings

    game = make_game("chinese", bots_take_civil_disorder=False, civil_disorder_after=1)
    germany = seat(game, "Germany")
    _at_deadline(game)
    germany.refresh_from_db()
    assert germany.status == Membership.Status.ACTIVE and germany.missed_phases == 0
    counted = ratings.reliability(germany.user)
    assert (counted.due, counted.ordered) == (0, 0)
    services.submit_orders(germany, ["Enter A Pacific Ocean"])
    _at_deadline(game)
    _at_deadline(game)  # an army on the board now, and no orders for it: missed
    counted = ratings.reliability(germany.user)
    assert (counted.due, counted.ordered) == (2, 1)


def test_a_deposition_rolled_back_no_longer_counts(make_game, seat, make_user) -> None:
    """The moderator rolls back the phase whose processing deposed Germany's leader: the seat
    comes back with the phase, and the deposition with it. The log keeps its entry, but the
    leader, later replaced and then offered the power again (a bot had it), may take it back,
    and their reliability counts the years played after the rollback."""
    from games import ratings

    game = make_game("chinese", bots_take_civil_disorder=False)
    germany = seat(game, "Germany")
    _deep_in_debt(game, "Germany")
    services.submit_orders(germany, ["Enter A Pacific Ocean"])
    _process(game)
    assert ModeratorAction.objects.depositions().filter(game=game).count() == 1
    services.rollback(game, game.creator, 0)
    germany.refresh_from_db()
    assert germany.status == Membership.Status.ACTIVE
    assert ModeratorAction.objects.filter(game=game, action="deposed").exists()  # kept
    assert not ModeratorAction.objects.depositions().filter(game=game).exists()

    game.refresh_from_db()
    phase = game.current_phase
    phase.carried["economy"]["balances"]["Germany"] = 0  # this time the year goes well
    phase.save(update_fields=["carried"])
    services.submit_orders(germany, ["Enter A Pacific Ocean"])
    _at_deadline(game)
    _at_deadline(game)  # a year played after the rollback, its army ordered to hold
    game.refresh_from_db()
    services.replace_player(game, game.creator, "Germany", make_user("stand_in"))
    services.set_bot(game, game.creator, "Germany", True)
    counted = ratings.reliability(germany.user)
    assert counted.due == 2, counted  # both years up to the replacement
    back = services.take_over(game, germany.user, "Germany")
    assert back.pk == germany.pk and back.status == Membership.Status.ACTIVE


def test_a_deposition_after_the_rolled_back_phase_stands(make_game, seat) -> None:
    """A rollback to a later phase than the deposition's leaves the deposition standing."""
    game = make_game("chinese", bots_take_civil_disorder=False)
    germany = seat(game, "Germany")
    _deep_in_debt(game, "Germany")
    services.submit_orders(germany, ["Enter A Pacific Ocean"])
    _process(game)
    _process(game)
    game.refresh_from_db()
    services.rollback(game, game.creator, 1)
    assert ModeratorAction.objects.depositions().filter(game=game).count() == 1
    with pytest.raises(services.GameError, match="deposed as leader of Germany"):
        services.take_over(game, germany.user, "Germany")


def _balance(game: Game, power: str) -> int:
    client = APIClient()
    client.force_authenticate(game.creator)
    phase = client.get(f"/api/games/{game.pk}/").json()["current_phase"]["index"]
    return client.get(f"/api/games/{game.pk}/phases/{phase}/").json()["balances"][power]


def test_a_new_player_after_a_leaderless_year_starts_at_zero(make_game, seat, make_user) -> None:
    """Seed 003, rule 6: "New players start with net zero". Found by an adversary: a deposed
    power left without a leader for a year paid its armies' upkeep, and the next player took
    it 20 k oz short. The newcomer starts at zero and the statement says why; the deposed
    leader seated again by the moderator does not."""
    game = make_game("chinese", bots_take_civil_disorder=False)
    germany = seat(game, "Germany")
    _deep_in_debt(game, "Germany")
    services.submit_orders(germany, ["Enter A Pacific Ocean", "Enter A Pacific Ocean"])
    _process(game)  # deposed, back at zero, two armies on the board
    assert _balance(game, "Germany") == 0
    _process(game)  # a year without a leader: the armies' upkeep
    assert _balance(game, "Germany") == -20
    newcomer = services.take_over(game, make_user("newcomer"), "Germany")
    assert _balance(game, "Germany") == 0  # as the page and the API show it
    services.submit_orders(newcomer, ["A Pacific Ocean Leave", "A Pacific Ocean Leave"])
    _process(game)
    phase = game.phases.get(index=game.current_phase.index - 1)
    lines = [e for e in phase.results["economy"]["ledger"] if e["power"] == "Germany"]
    assert {"item": "new leader", "amount": 20} in [
        {"item": e["item"], "amount": e["amount"]} for e in lines
    ]
    # The year: the reset, two exits (5 each) and the upkeep of the year of exit (10 each).
    assert phase.results["economy"]["balances"]["Germany"] == -20 + 20 - 2 * 5 - 2 * 10
    page = Client()
    page.force_login(newcomer.user)
    html = page.get(f"/games/{game.pk}/?phase={phase.index}").content.decode()
    assert "<td>new leader</td><td>a new player starts at net zero</td>" in html


def test_the_deposed_leader_seated_again_does_not_start_at_zero(make_game, seat) -> None:
    game = make_game("chinese", bots_take_civil_disorder=False)
    germany = seat(game, "Germany")
    _deep_in_debt(game, "Germany")
    services.submit_orders(germany, ["Enter A Pacific Ocean", "Enter A Pacific Ocean"])
    _process(game)
    _process(game)
    services.replace_player(game, game.creator, "Germany", germany.user)
    assert _balance(game, "Germany") == -20


def _germany_deposed_russia_open(make_game, seat) -> tuple[Game, Membership]:
    """Germany's leader deposed at the year's end; Russia open to take over."""
    game = make_game("chinese", bots_take_civil_disorder=False)
    germany = seat(game, "Germany")
    services.remove_player(game, game.creator, "Russia")
    _deep_in_debt(game, "Germany")
    services.submit_orders(germany, ["Enter A Pacific Ocean"])
    _process(game)
    return game, germany


def test_a_deposed_leader_takes_no_other_power_of_the_game(make_game, seat, make_user) -> None:
    """Found by an adversary: deposed, the leader took another empty power at once; paid to an
    ally before going bankrupt, the gold stayed with the ally and the loss was left behind."""
    game, germany = _germany_deposed_russia_open(make_game, seat)
    with pytest.raises(services.GameError, match="deposed as leader of Germany in this game"):
        services.take_over(game, germany.user, "Russia")
    assert services.take_over(game, make_user("newcomer"), "Russia").power == "Russia"


def test_the_page_tells_a_deposed_leader_and_offers_no_power_they_cannot_take(
    make_game, seat, make_user
) -> None:
    """Found by an adversary: deposed, the leader's page said nothing of it (the order tools
    were just gone), and the take-over form still offered every open power, each refused on
    submission. The page says so and offers no take-over; to anyone else it offers them."""
    game, germany = _germany_deposed_russia_open(make_game, seat)
    client = Client()
    client.force_login(germany.user)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "You were deposed as leader of Germany" in html
    assert 'id="take-over-form"' not in html
    client.force_login(make_user("newcomer"))
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "You were deposed" not in html
    offered = html.split('id="take-over"', 1)[1].split("</select>", 1)[0]
    assert "<option>Germany</option>" in offered and "<option>Russia</option>" in offered


def test_a_deposed_leader_is_rated_last(make_game, seat, make_user) -> None:
    """Bankrupt on purpose, the leader was left out of the rating (a replaced seat): a loss
    escaped. A deposition ends the seat as elimination ends another's, and places it last,
    below every power, the one it led included (now led by a newcomer)."""
    from games import ratings
    from games.models import RatingChange

    game = make_game("chinese", bots_take_civil_disorder=False)
    germany = seat(game, "Germany")
    _deep_in_debt(game, "Germany")
    services.submit_orders(germany, ["Enter A Pacific Ocean"])
    _process(game)  # 1900: deposed
    newcomer = services.take_over(game, make_user("newcomer"), "Germany")
    services.end_game(game, game.creator)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=game, variant="")}
    places = ratings.ranks(game)
    assert changes[germany.user_id].rank == max(places.values()) + 1
    assert changes[germany.user_id].mu < changes[germany.user_id].mu_before
    assert changes[newcomer.user_id].rank == places["Germany"]


def test_the_moderator_seats_a_deposed_leader_on_no_other_power(
    make_game, seat, make_user, api
) -> None:
    """Found by an adversary: refused a take-over of another power, the deposed leader was
    seated on it by the moderator (two accounts in collusion: any user may make a game and
    moderate it), and the loss paid away to an ally was left behind. The moderator may still
    seat them on their own power again."""
    game = make_game("chinese", bots_take_civil_disorder=False)
    germany = seat(game, "Germany")
    services.remove_player(game, game.creator, "Russia")
    _deep_in_debt(game, "Germany")
    services.submit_orders(germany, ["Enter A Pacific Ocean"])
    _process(game)
    answer = api(game.creator).post(
        f"/api/games/{game.pk}/moderation/replace/",
        {"power": "Russia", "username": germany.user.username},
        format="json",
    )
    assert answer.status_code == 400, answer.content
    said = str(answer.json())
    assert f"{germany.user.username} was deposed as leader of Germany in this game" in said
    assert not game.memberships.filter(user=germany.user, power="Russia").exists()
    back = services.replace_player(game, game.creator, "Germany", germany.user)
    assert back.pk == germany.pk and back.status == Membership.Status.ACTIVE


def test_a_rollback_drops_the_payments_of_a_leader_who_no_longer_leads(
    make_game, seat, make_user
) -> None:
    """Found by an adversary: Germany's leader paid his gold away and was deposed; a newcomer
    took Germany, and the moderator rolled the year back. Judged again, the payment the
    newcomer could neither have made nor take back deposed the newcomer, barred from the
    game's other powers and rated last. The old leader's payments in that year go, logged;
    the newcomer's own stay."""
    game = make_game("chinese", bots_take_civil_disorder=False)
    germany = seat(game, "Germany")
    services.pay(germany, "Russia", 1200, phase=0)
    _process(game)
    assert ModeratorAction.objects.depositions().filter(game=game).count() == 1
    newcomer = services.take_over(game, make_user("newcomer"), "Germany")
    services.rollback(game, game.creator, 0)
    game.refresh_from_db()
    assert not game.payments.exists()
    dropped = ModeratorAction.objects.get(game=game, action="payment dropped")
    assert dropped.details == {"power": "Germany", "to": "Russia", "amount": 1200, "phase": 0}
    services.pay(newcomer, "Russia", 5, phase=0)
    _process(game)
    newcomer.refresh_from_db()
    assert newcomer.status == Membership.Status.ACTIVE
    assert not ModeratorAction.objects.depositions().filter(game=game).exists()
    assert list(game.payments.values_list("payer", "amount")) == [("Germany", 5)]
    page = Client()
    page.force_login(game.creator)
    console = page.get(f"/games/{game.pk}/moderate/").content.decode()
    assert "Dropped Germany&#x27;s payment of 1200 k oz to Russia in phase 0" in console


def test_a_rollback_drops_the_old_leaders_payment_when_the_newcomer_held_a_seat_before(
    make_game, seat, make_user
) -> None:
    """Found by an adversary: the newcomer on Germany had played Russia earlier in the game
    (replaced), so their seat row, taken again, kept its old joining time, and the rollback
    took the deposed leader's payment for the newcomer's: judged again, it deposed them."""
    game = make_game("chinese", bots_take_civil_disorder=False)
    germany, russia = seat(game, "Germany"), seat(game, "Russia")
    services.replace_player(game, game.creator, "Russia", make_user("stand_in"))
    services.pay(germany, "Japan", 1200, phase=0)
    _process(game)
    services.replace_player(game, game.creator, "Germany", russia.user)
    services.rollback(game, game.creator, 0)
    assert not game.payments.exists()
    assert ModeratorAction.objects.filter(game=game, action="payment dropped").count() == 1
    _process(game)
    assert not ModeratorAction.objects.depositions().filter(game=game).exists()


def test_a_deposed_leader_seated_again_and_removed_is_seated_on_no_other_power(
    make_game, seat, make_user
) -> None:
    """Found by an adversary: seated again on their own power, then removed from it, the
    deposed leader's seat was no longer a replaced one, and the moderator could seat them on
    another power after all."""
    game = make_game("chinese", bots_take_civil_disorder=False)
    germany = seat(game, "Germany")
    _deep_in_debt(game, "Germany")
    services.submit_orders(germany, ["Enter A Pacific Ocean"])
    _process(game)
    services.replace_player(game, game.creator, "Germany", germany.user)
    services.remove_player(game, game.creator, "Germany")
    with pytest.raises(services.GameError, match="was deposed as leader of Germany"):
        services.replace_player(game, game.creator, "Russia", germany.user)


def test_a_leader_in_civil_disorder_and_deposed_in_one_phase_is_the_one_deposed(
    make_game, seat
) -> None:
    """Germany's leader sends nothing (civil disorder after one phase missed: a bot takes the
    seat) in the phase that leaves Germany deep in debt: the deposition named the bot just
    seated, not the leader, who was then neither refused Germany back nor rated last, and a
    second bot replaced the first."""
    from datetime import timedelta

    from django.utils import timezone

    game = make_game("chinese", bots_take_civil_disorder=True, civil_disorder_after=1)
    leader = seat(game, "Germany")
    services.submit_orders(leader, ["Enter A Pacific Ocean"])
    _process(game)
    while game.current_phase.type != "movement":
        _process(game)
    phase = game.current_phase
    _deep_in_debt(game, "Germany")
    phase.deadline = timezone.now() - timedelta(seconds=1)  # missed: not processed early
    phase.save(update_fields=["deadline"])
    _process(game)
    leader.refresh_from_db()
    assert leader.status == Membership.Status.REPLACED
    assert services._deposed(game, leader)
    deposed = ModeratorAction.objects.filter(game=game, action="deposed")
    assert [a.details["player"] for a in deposed] == [leader.user.username]
    germany = game.memberships.filter(power="Germany").exclude(pk=leader.pk)
    assert [(m.bot, m.status) for m in germany] == [(True, Membership.Status.ACTIVE)]
    # Rolled back: the leader plays again, and the bot goes.
    services.rollback(game, game.creator, phase.index)
    leader.refresh_from_db()
    assert leader.status == Membership.Status.ACTIVE and not germany.all().exists()
