"""Game lifecycle through games.services: forming, orders, processing, disorder, endings."""

from __future__ import annotations

import importlib
import random
from datetime import UTC, datetime, time, timedelta
from unittest import mock

import pytest
from conftest import deadline_passes
from django.contrib.auth.models import Permission
from django.utils import timezone

from games import engine, services
from games.models import DrawVote, Game, Membership, ModeratorAction, Order, Phase

pytestmark = pytest.mark.django_db


def current(game: Game) -> Phase:
    game.refresh_from_db()
    return game.current_phase


def unit_at(phase: Phase, location: str) -> dict | None:
    return next((u for u in phase.units if u["location"] == location), None)


# -- forming ----------------------------------------------------------------------------


def test_game_starts_when_the_last_seat_is_taken(game: Game, enqueued: list) -> None:
    assert game.status == Game.Status.ACTIVE
    assert sorted(game.memberships.values_list("power", flat=True)) == sorted(engine.powers(game))
    phase = game.current_phase
    assert (phase.index, phase.season, phase.year, phase.type) == (0, "spring", 1901, "movement")
    assert len(phase.units) == 22
    assert phase.supply_centers["Russia"] == ["Moscow", "Sevastopol", "St Petersburg", "Warsaw"]
    assert phase.deadline > timezone.now() + timedelta(hours=23)
    # The processing task is queued for the deadline (once the transaction commits).


def test_phase_processing_is_scheduled_at_the_deadline(
    moderator, make_user, django_capture_on_commit_callbacks, enqueued
) -> None:
    game = services.create_game(moderator, name="g", variant="standard", movement_minutes=30)
    with django_capture_on_commit_callbacks(execute=True):
        for n in range(7):
            services.join_game(game, make_user(f"u{n}"))
    game.refresh_from_db()
    assert enqueued == [
        ("games.tasks.process_phase", (game.pk, game.current_phase_id), {"eta": mock.ANY})
    ]
    assert enqueued[0][2]["eta"] == game.current_phase.deadline


def test_assignment_prefers_preferences_then_random(moderator, make_user) -> None:
    game = services.create_game(moderator, name="g", variant="standard")
    members = [
        game.memberships.create(user=make_user(f"u{n}"), preferences=prefs)
        for n, prefs in enumerate([["France"], ["England", "France"], [], ["France"]])
    ]
    seats = services.assign_powers(engine.powers(game), members, random.Random(3))
    assert len(set(seats.values())) == 4
    assert seats[members[1].pk] == "England"
    assert "France" in (seats[members[0].pk], seats[members[3].pk])


def test_unknown_variant_and_preferences_are_refused(moderator, make_user) -> None:
    with pytest.raises(services.GameError):
        services.create_game(moderator, name="g", variant="atlantis")
    game = services.create_game(moderator, name="g", variant="colonial")
    with pytest.raises(services.GameError, match="^unknown powers Austria; choose from Britain"):
        services.join_game(game, make_user("u"), ["Austria"])


def test_joining_twice_or_after_the_start_is_refused(game: Game, make_user) -> None:
    with pytest.raises(services.GameError):
        services.join_game(game, make_user("late"))
    with pytest.raises(services.GameError):
        services.join_game(game, game.memberships.first().user)


def test_moderator_can_start_early(moderator, make_user) -> None:
    game = services.create_game(moderator, name="g", variant="colonial")
    services.join_game(game, make_user("only"), ["Japan"])
    services.start_game(game, moderator)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.memberships.get().power == "Japan"
    assert game.current_phase.year == 1870
    assert ModeratorAction.objects.filter(game=game, action="start").exists()


def test_fixed_time_of_day_deadline() -> None:
    game = Game(movement_minutes=60, deadline_time=time(20, 0))
    now = datetime(2024, 5, 1, 19, 30, tzinfo=UTC)
    assert services.deadline_after(game, "movement", now) == datetime(2024, 5, 2, 20, 0, tzinfo=UTC)
    now = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
    assert services.deadline_after(game, "movement", now) == datetime(2024, 5, 1, 20, 0, tzinfo=UTC)


# -- orders -----------------------------------------------------------------------------


def test_orders_are_checked_by_the_engine_and_replaced(game: Game, seat) -> None:
    france = seat(game, "France")
    orders = services.submit_orders(
        france, ["a par - bur", "A Vienna H", "nonsense", "F Brest - MAO"]
    )
    assert [(o.canonical, o.valid) for o in orders] == [
        ("A Paris - Burgundy", True),
        ("A Vienna H", False),
        ("", False),
        ("F Brest - Mid-Atlantic Ocean", True),
    ]
    assert "Austria" in orders[1].reason
    assert orders[0].location == "Paris"
    services.submit_orders(france, ["A Marseilles - Spain"])
    assert list(Order.objects.values_list("canonical", flat=True)) == ["A Marseilles - Spain"]


def test_a_submission_is_written_as_rows_of_values(game: Game, seat) -> None:
    """A submission's few orders go in as one INSERT of VALUES, not as PostgreSQL's UNNEST of
    an array a column (``OrderPosition``), which cost more to build and to plan."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        services.submit_orders(seat(game, "France"), ["A Paris H", "F Brest H", "A Marseilles H"])
    inserts = [q["sql"] for q in queries if q["sql"].startswith('INSERT INTO "games_order"')]
    assert len(inserts) == 1
    assert "UNNEST" not in inserts[0] and "VALUES" in inserts[0]
    assert Order.objects.filter(power="France").count() == 3


def test_a_second_order_for_a_unit_is_invalid(game: Game, seat) -> None:
    orders = services.submit_orders(seat(game, "France"), ["A Paris H", "A Paris - Picardy"])
    assert [o.valid for o in orders] == [True, False]


def test_an_order_refused_for_its_unit_kind_stays_refused_at_the_deadline(
    game: Game, seat, moderator
) -> None:
    """ "F Paris - Picardy" for France's army was stored with the engine's echo "A Paris -
    Picardy", and the deadline sends the stored echo: the army moved. The echo keeps the
    kind the player wrote, so the order is refused again."""
    orders = services.submit_orders(seat(game, "France"), ["F Paris - Picardy"])
    assert [(o.canonical, o.valid) for o in orders] == [("F Paris - Picardy", False)]
    phase = current(game)
    services.process_now(game, moderator)
    phase.refresh_from_db()
    assert phase.orders.get(power="France").result == "invalid"
    assert unit_at(current(game), "Paris") is not None
    assert unit_at(current(game), "Picardy") is None


def test_orders_for_a_finished_phase_are_refused(game: Game, seat, moderator) -> None:
    # Read as the API reads it (the seat with its game and current phase), and then the phase
    # is processed before the submission takes its lock.
    france = Membership.objects.select_related("game__current_phase").get(
        pk=seat(game, "France").pk
    )
    services.process_now(game, moderator)
    with pytest.raises(services.PhaseChanged, match="just been processed"):
        services.submit_orders(france, ["A Paris H"], phase=france.game.current_phase)
    assert not Order.objects.filter(power="France", text="A Paris H").exists()


# -- processing -------------------------------------------------------------------------


def test_processing_moves_units_and_opens_the_next_phase(game: Game, seat, moderator) -> None:
    services.submit_orders(seat(game, "France"), ["A Paris - Burgundy"])
    services.submit_orders(seat(game, "Germany"), ["A Munich - Burgundy"])
    services.submit_orders(seat(game, "Italy"), ["A Venice - Tyrolia"])
    phase = current(game)
    services.process_now(game, moderator)
    phase.refresh_from_db()
    assert phase.processed_at is not None
    assert phase.results["next_phase"] == {"season": "fall", "year": 1901, "type": "movement"}
    results = dict(phase.orders.values_list("canonical", "result"))
    assert results == {
        "A Paris - Burgundy": "fails",
        "A Munich - Burgundy": "fails",
        "A Venice - Tyrolia": "succeeds",
    }
    nxt = current(game)
    assert (nxt.index, nxt.season) == (1, "fall")
    assert unit_at(nxt, "Tyrolia")["power"] == "Italy"
    assert "Burgundy" in nxt.contested or unit_at(nxt, "Burgundy") is None


def test_missing_orders_default_hold_disband_and_waive(game: Game, seat, moderator) -> None:
    services.submit_orders(seat(game, "Germany"), ["A Munich - Tyrolia"])
    services.process_now(game, moderator)
    services.submit_orders(seat(game, "Germany"), ["A Tyrolia - Venice"])
    services.submit_orders(seat(game, "Austria"), ["F Trieste S A Tyrolia - Venice"])
    services.process_now(game, moderator)  # Italy sent nothing: A Venice held, dislodged

    retreats = current(game)
    assert (retreats.season, retreats.type) == ("fall", "retreats")
    assert [(d["power"], d["location"]) for d in retreats.dislodged] == [("Italy", "Venice")]
    services.process_now(game, moderator)  # no retreat order: the unit disbands

    adjustments = current(game)
    assert adjustments.type == "adjustments"
    assert not [u for u in adjustments.units if u["location"] == "Venice" and u["power"] == "Italy"]
    assert "Venice" in adjustments.supply_centers["Germany"]
    services.process_now(game, moderator)  # Germany's build is waived

    spring = current(game)
    assert (spring.season, spring.year, spring.type) == ("spring", 1902, "movement")
    assert sum(u["power"] == "Germany" for u in spring.units) == 3


def test_processing_is_exactly_once(game: Game) -> None:
    phase = current(game)
    Phase.objects.filter(pk=phase.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert services.process_phase(game.pk, phase.pk) is True
    assert services.process_phase(game.pk, phase.pk) is False
    assert game.phases.count() == 2


def test_a_phase_before_its_deadline_is_not_processed(game: Game) -> None:
    phase = current(game)
    assert services.process_phase(game.pk, phase.pk) is False
    assert services.process_phase(game.pk, phase.pk, force=True) is True


def test_a_crash_mid_processing_leaves_the_phase_intact(game: Game, seat) -> None:
    services.submit_orders(seat(game, "France"), ["A Paris - Burgundy"])
    phase = current(game)
    crash = mock.patch.object(services, "_open_phase", side_effect=RuntimeError("power cut"))
    with crash, pytest.raises(RuntimeError):
        services.process_phase(game.pk, phase.pk, force=True)
    phase.refresh_from_db()
    assert phase.processed_at is None and phase.results is None
    assert current(game).pk == phase.pk
    assert game.phases.count() == 1
    assert phase.orders.get().result == ""
    assert services.process_phase(game.pk, phase.pk, force=True) is True


def test_all_ready_processes_early_only_when_allowed(make_game, seat, enqueued) -> None:
    game = make_game(process_when_ready=True)
    phase = current(game)
    for membership in game.memberships.all():
        services.set_ready(membership)
    assert services.process_phase(game.pk, phase.pk) is True

    game = make_game(process_when_ready=False)
    phase = current(game)
    for membership in game.memberships.all():
        services.set_ready(membership)
    assert services.process_phase(game.pk, phase.pk) is False


def _processed_at_once(enqueued: list, game: Game, phase: Phase) -> bool:
    """Whether processing the phase was sent without an ``eta`` (at once, not at the
    deadline), and it then processes it."""
    sent = [
        args
        for name, args, options in enqueued
        if name == "games.tasks.process_phase" and options.get("eta") is None
    ]
    return (game.pk, phase.pk) in sent and services.process_phase(game.pk, phase.pk)


def _all_ready_but(game: Game, seat, power: str) -> None:
    for membership in game.memberships.exclude(power=power):
        services.set_ready(seat(game, membership.power))


def test_resuming_a_game_everyone_got_ready_in_processes_it(
    make_game, seat, moderator, enqueued, django_capture_on_commit_callbacks
) -> None:
    """The last player says ready while the game is paused: the resume processes the phase
    (it waited for the old deadline: a tester's finding)."""
    game = make_game(process_when_ready=True)
    phase = current(game)
    services.pause(game, moderator)
    with django_capture_on_commit_callbacks(execute=True):
        _all_ready_but(game, seat, "")
    assert not _processed_at_once(enqueued, game, phase)
    with django_capture_on_commit_callbacks(execute=True):
        services.resume(game, moderator)
    assert _processed_at_once(enqueued, game, phase)
    assert current(game).index == 1


@pytest.mark.parametrize("how", ["remove", "bot off"])
def test_the_last_unready_seat_leaving_play_processes_the_phase(
    make_game, seat, moderator, enqueued, django_capture_on_commit_callbacks, how
) -> None:
    """Every other seat is ready, and the one that is not stops playing (the moderator removes
    its player, or takes its bot off): the phase is processed at once, as a ready would."""
    game = make_game(process_when_ready=True)
    phase = current(game)
    if how == "bot off":
        services.set_bot(game, moderator, "Turkey", True)  # its bot has not played yet
    with django_capture_on_commit_callbacks(execute=True):
        _all_ready_but(game, seat, "Turkey")
    assert not _processed_at_once(enqueued, game, phase)
    with django_capture_on_commit_callbacks(execute=True):
        if how == "remove":
            services.remove_player(game, moderator, "Turkey")
        else:
            services.set_bot(game, moderator, "Turkey", False)
    assert _processed_at_once(enqueued, game, phase)


def _france_dislodged(game: Game, seat) -> Phase:
    """Germany dislodges France's army from Burgundy (it may retreat): a retreat phase in which
    France alone has something to do."""
    phase = current(game)
    phase.units = [
        {"power": "France", "unit": "A", "location": "Burgundy"},
        {"power": "Germany", "unit": "A", "location": "Munich"},
        {"power": "Germany", "unit": "A", "location": "Ruhr"},
        {"power": "England", "unit": "F", "location": "London"},
    ]
    phase.save(update_fields=["units"])
    germany = seat(game, "Germany")
    services.submit_orders(germany, ["A Munich - Burgundy", "A Ruhr S A Munich - Burgundy"])
    assert services.process_phase(game.pk, phase.pk, force=True)
    retreats = current(game)
    assert retreats.type == "retreats" and services.engine.powers_to_act(retreats) == {"France"}
    return retreats


def test_a_unit_with_nowhere_to_retreat_is_gone_from_the_next_phase(game: Game, seat) -> None:
    """Found by an adversary: a unit dislodged with nowhere to retreat (no retreat phase
    opens: it is simply gone) was still drawn in the next phase, ringed as dislodged, and the
    API listed it there. Only a retreat phase holds dislodged units. France's army in
    Burgundy, German armies all around it, cannot retreat."""
    phase = current(game)
    phase.units = [
        {"power": "France", "unit": "A", "location": "Burgundy"},
        *(
            {"power": "Germany", "unit": "A", "location": place}
            for place in ("Munich", "Ruhr", "Belgium", "Picardy", "Gascony", "Marseilles", "Paris")
        ),
        {"power": "England", "unit": "F", "location": "London"},
    ]
    phase.save(update_fields=["units"])
    germany = seat(game, "Germany")
    services.submit_orders(germany, ["A Munich - Burgundy", "A Ruhr S A Munich - Burgundy"])
    assert services.process_phase(game.pk, phase.pk, force=True)
    phase.refresh_from_db()
    gone = [d for d in phase.results["dislodged"] if d["location"] == "Burgundy"]
    assert gone and gone[0]["retreats"] == []  # dislodged, with nowhere to go
    following = current(game)
    assert following.type == "movement" and following.dislodged == []
    assert not [u for u in following.units if u["power"] == "France"]


def test_the_ghosts_already_stored_are_cleared_by_the_migration(game: Game) -> None:
    """Phases opened before the mend keep their ghost: the migration clears dislodged units
    from every phase but a retreat phase, whose are real."""
    from django.apps import apps

    cleared = importlib.import_module("games.migrations.0029_no_dislodged_outside_retreats")
    ghost = [{"power": "France", "unit": "A", "location": "Burgundy", "retreats": []}]
    opened = current(game)
    Phase.objects.filter(pk=opened.pk).update(dislodged=ghost)
    retreats = Phase.objects.create(
        game=game, index=99, season="fall", year=1901, type="retreats", dislodged=ghost
    )
    cleared.clear_dislodged(apps, None)
    assert Phase.objects.get(pk=opened.pk).dislodged == []
    assert Phase.objects.get(pk=retreats.pk).dislodged == ghost


def test_a_power_with_nothing_to_order_in_a_retreat_phase_is_refused(game: Game, seat) -> None:
    """Found by an adversary: Japan, with no dislodged unit, saved "F Canton R Fukien"; the
    order was stored (invalid) and every player saw Japan as having ordered. Orders from a
    power with nothing to order are refused, with why; sending none stays allowed."""
    retreats = _france_dislodged(game, seat)
    germany = seat(game, "Germany")
    for sent in (["A Burgundy - Ruhr"], ["A Munich H"]):
        with pytest.raises(services.GameError, match="Germany has nothing to order this phase"):
            services.submit_orders(germany, sent)
        with pytest.raises(services.GameError, match="nothing to order"):
            services.check_orders(germany, sent)
    assert services.submit_orders(germany, []) == []
    assert not retreats.orders.exists()
    france = seat(game, "France")
    assert services.submit_orders(france, ["A Burgundy - Paris"])[0].valid


def test_a_retreat_left_to_a_seat_removed_is_processed_at_once(
    make_game, seat, moderator, enqueued, django_capture_on_commit_callbacks
) -> None:
    """Found by an adversary: the only power to retreat was removed, nobody else had anything
    to do, and the phase waited its deadline; all ready counted only phases where some seat in
    play had something to do."""
    game = make_game(process_when_ready=True)
    retreats = _france_dislodged(game, seat)
    assert not _processed_at_once(enqueued, game, retreats)
    with django_capture_on_commit_callbacks(execute=True):
        services.remove_player(game, moderator, "France")
    assert _processed_at_once(enqueued, game, retreats)


def test_a_retreat_phase_nobody_in_play_acts_in_is_processed_as_it_opens(
    make_game, seat, moderator, enqueued, django_capture_on_commit_callbacks
) -> None:
    """France is in civil disorder already when its army is dislodged: the retreat phase has
    nobody in play to wait for and is processed as soon as it opens."""
    game = make_game(process_when_ready=True, bots_take_civil_disorder=False)
    services.remove_player(game, moderator, "France")
    with django_capture_on_commit_callbacks(execute=True):
        retreats = _france_dislodged(game, seat)
    assert _processed_at_once(enqueued, game, retreats)


def test_a_rollback_to_a_retreat_phase_nobody_in_play_acts_in_processes_it_at_once(
    make_game, seat, moderator, enqueued, django_capture_on_commit_callbacks
) -> None:
    """Found by an adversary: gone back to, the same retreat phase waited for its deadline,
    which may be days away, where it had been processed as it opened."""
    game = make_game(process_when_ready=True, bots_take_civil_disorder=False)
    services.remove_player(game, moderator, "France")
    retreats = _france_dislodged(game, seat)
    assert services.process_phase(game.pk, retreats.pk, force=True)
    enqueued.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.rollback(game, moderator, retreats.index)
    assert _processed_at_once(enqueued, game, current(game))


def test_a_rollback_to_a_retreat_phase_someone_acts_in_waits(
    make_game, seat, moderator, enqueued, django_capture_on_commit_callbacks
) -> None:
    game = make_game(process_when_ready=True)
    retreats = _france_dislodged(game, seat)
    assert services.process_phase(game.pk, retreats.pk, force=True)
    enqueued.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.rollback(game, moderator, retreats.index)
    assert current(game).pk == retreats.pk
    assert not _processed_at_once(enqueued, game, retreats)


def test_switching_process_when_ready_on_processes_a_phase_everyone_is_ready_in(
    make_game, seat, moderator, enqueued, django_capture_on_commit_callbacks
) -> None:
    game = make_game(process_when_ready=False)
    phase = current(game)
    _all_ready_but(game, seat, "")
    with django_capture_on_commit_callbacks(execute=True):
        services.change_settings(game, moderator, process_when_ready=True)
    assert _processed_at_once(enqueued, game, phase)


def test_a_seat_that_must_act_stops_the_phase_processing_early(
    make_game, seat, moderator, make_user, enqueued, django_capture_on_commit_callbacks
) -> None:
    """A new player on a seat (replaced, taken over) is not ready yet: nothing is processed."""
    game = make_game(process_when_ready=True)
    phase = current(game)
    _all_ready_but(game, seat, "Turkey")
    services.remove_player(game, moderator, "Turkey")
    enqueued.clear()
    services.pause(game, moderator)
    with django_capture_on_commit_callbacks(execute=True):
        services.take_over(game, make_user("newcomer"), "Turkey")
        services.replace_player(game, moderator, "France", make_user("another"))
        services.resume(game, moderator)
    assert not _processed_at_once(enqueued, game, phase)


def test_a_game_left_to_bots_is_not_processed_early(
    make_game, seat, moderator, enqueued, django_capture_on_commit_callbacks
) -> None:
    """Bots are ready only while a person plays; the last person removed while the bots are
    ready leaves the phase to its deadline, as a game left to bots always is."""
    game = make_game(process_when_ready=True, players=1)
    (person,) = game.memberships.all()
    for power in engine.powers(game):
        if power != person.power:
            services.set_bot(game, moderator, power, True)
    with django_capture_on_commit_callbacks(execute=True):
        for membership in game.memberships.filter(bot=True):
            services.set_ready(membership)
        services.remove_player(game, moderator, person.power)
    phase = current(game)
    assert not _processed_at_once(enqueued, game, phase)


def test_ready_flags_reset_with_each_phase(game: Game, seat, moderator) -> None:
    services.set_ready(seat(game, "France"))
    services.process_now(game, moderator)
    assert not seat(game, "France").ready


def test_victory_finishes_the_game(make_game, moderator) -> None:
    game = make_game(options={"victory_centers": 4})
    services.process_now(game, moderator)
    services.process_now(game, moderator)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result == {"kind": "victory", "powers": ["Russia"]}
    assert game.current_phase.deadline is None
    assert services.process_phase(game.pk, game.current_phase_id, force=True) is False


@pytest.mark.parametrize("variant", ["standard", "colonial", "far-east"])
def test_a_solo_ends_the_game_with_its_phase(make_game, moderator, api, variant) -> None:
    """A solo opens no phase after it: the phase it was won in stays the current one,
    processed, without a deadline, and the winner's centres are its results' (an empty next
    phase used to open, and a rollback offered it)."""
    game = make_game(variant)
    phase = current(game)
    homes = {power: len(centres) for power, centres in phase.supply_centers.items()}
    leader = max(homes, key=homes.get)
    owned = {c for centres in phase.supply_centers.values() for c in centres}
    neutral = next(c for c in engine.describe(variant)["supply_centers"] if c not in owned)
    centres = {**phase.supply_centers, leader: [*phase.supply_centers[leader], neutral]}
    Phase.objects.filter(pk=phase.pk).update(supply_centers=centres)
    Game.objects.filter(pk=game.pk).update(
        options={**game.options, "victory_centers": homes[leader] + 1}
    )
    while game.status == Game.Status.ACTIVE and game.phases.count() < 6:
        services.process_now(game, moderator)
        game.refresh_from_db()
    assert game.result == {"kind": "victory", "powers": [leader]}
    won = game.current_phase
    assert won.processed_at is not None and won.deadline is None
    assert game.phases.count() == won.index + 1  # nothing opened after it
    assert not Phase.objects.filter(game=game, processed_at__isnull=True).exists()
    assert services.process_phase(game.pk, won.pk, force=True) is False
    powers = {p["power"]: p for p in api(moderator).get(f"/api/games/{game.pk}/").json()["powers"]}
    assert powers[leader]["supply_centers"] == homes[leader] + 1
    # Rolled back to the phase it was won in, the game plays on from before the solo.
    services.rollback(game, moderator, won.index)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.current_phase.processed_at is None


def test_a_game_won_shows_the_winners_final_centres(make_game, seat, moderator, api) -> None:
    """The powers' centres and units of a game won are those its last phase left (the won
    phase's own board is from before the winning move)."""
    game = make_game(options={"victory_centers": 5})
    services.submit_orders(seat(game, "Russia"), ["F Sevastopol - Rumania"])
    services.process_now(game, moderator)
    services.process_now(game, moderator)  # Rumania is Russia's fifth centre
    game.refresh_from_db()
    assert game.result == {"kind": "victory", "powers": ["Russia"]}
    assert len(game.current_phase.supply_centers["Russia"]) == 4
    powers = {p["power"]: p for p in api(moderator).get(f"/api/games/{game.pk}/").json()["powers"]}
    assert powers["Russia"]["supply_centers"] == 5 and powers["Russia"]["units"] == 4
    client = api(moderator)
    client.force_login(moderator)
    page = client.get(f"/games/{game.pk}/").content.decode()
    row = page[page.index('<tr data-power="Russia">') :]
    assert '<span class="centres">5</span>' in row[: row.index("</tr>")]


# -- civil disorder ---------------------------------------------------------------------


def test_missed_movement_phases_lead_to_civil_disorder(make_game, seat, moderator) -> None:
    game = make_game(civil_disorder_after=2)
    services.submit_orders(seat(game, "France"), ["A Paris H"])
    deadline_passes(game)
    assert seat(game, "England").missed_phases == 1
    assert seat(game, "France").missed_phases == 0
    deadline_passes(game)
    england = seat(game, "England")
    assert england.status == Membership.Status.CIVIL_DISORDER
    assert seat(game, "France").status == Membership.Status.ACTIVE
    assert seat(game, "France").missed_phases == 1


def test_ready_or_an_early_processing_is_no_missed_phase(make_game, seat, moderator) -> None:
    """Ready with no orders is holding everything, on purpose; a phase the moderator processed
    before its deadline took the time to order away (both put players into civil disorder)."""
    game = make_game(civil_disorder_after=1)
    services.process_now(game, moderator)  # early: nobody misses it
    assert {m.missed_phases for m in game.memberships.all()} == {0}
    services.set_ready(seat(game, "England"), True)
    deadline_passes(game)
    assert seat(game, "England").missed_phases == 0
    assert seat(game, "England").status == Membership.Status.ACTIVE
    assert seat(game, "France").status == Membership.Status.CIVIL_DISORDER


def test_a_power_in_civil_disorder_can_be_taken_over(make_game, seat, moderator, make_user):
    game = make_game(civil_disorder_after=1)
    services.submit_orders(seat(game, "France"), ["A Paris H"])
    deadline_passes(game)
    old = seat(game, "Turkey")
    assert old.status == Membership.Status.CIVIL_DISORDER
    with pytest.raises(services.GameError, match="not in civil disorder"):
        services.take_over(game, make_user("x"), "France")
    newcomer = make_user("newcomer")
    membership = services.take_over(game, newcomer, "Turkey")
    old.refresh_from_db()
    assert old.status == Membership.Status.REPLACED
    assert membership.status == Membership.Status.ACTIVE
    assert game.membership_of(newcomer) == membership
    assert game.membership_of(old.user) is None


def test_orders_from_a_player_in_disorder_bring_them_back(make_game, seat, moderator) -> None:
    game = make_game(civil_disorder_after=1)
    services.process_now(game, moderator)
    services.submit_orders(seat(game, "France"), ["A Paris H"])
    assert seat(game, "France").status == Membership.Status.ACTIVE


def test_ready_from_a_player_in_disorder_brings_them_back(make_game, seat, api) -> None:
    """Ready is holding everything (README): a player in civil disorder who says it plays
    again and has missed nothing, as one who sends orders; not ready changes nothing."""
    game = make_game(civil_disorder_after=1)
    services.submit_orders(seat(game, "France"), ["A Paris H"])
    deadline_passes(game)
    england = seat(game, "England")
    assert england.status == Membership.Status.CIVIL_DISORDER
    client = api(england.user)
    url = f"/api/games/{game.pk}/ready/"
    index = game.current_phase.index
    assert client.post(url, {"ready": False, "phase": index}, format="json").status_code == 200
    assert seat(game, "England").status == Membership.Status.CIVIL_DISORDER
    assert client.post(url, {"ready": True, "phase": index}, format="json").status_code == 200
    england = seat(game, "England")
    assert england.status == Membership.Status.ACTIVE and england.missed_phases == 0


def test_ready_without_saying_ready_is_a_400(make_game, seat, api) -> None:
    """{"phase": n} alone was taken as a ready, which may process the phase at once: a
    missing ready is refused as a missing phase is, and nothing changes."""
    game = make_game()
    client = api(seat(game, "England").user)
    url = f"/api/games/{game.pk}/ready/"
    index = game.current_phase.index
    refused = client.post(url, {"phase": index}, format="json")
    assert refused.status_code == 400 and "ready" in refused.data, refused.data
    assert not seat(game, "England").ready
    assert client.post(url, {"ready": True}, format="json").status_code == 400


def test_empty_seats_are_open_for_take_over(moderator, make_user) -> None:
    game = services.create_game(moderator, name="g", variant="standard")
    services.join_game(game, make_user("a"), ["France"])
    services.start_game(game, moderator)
    services.take_over(game, make_user("b"), "England")
    assert game.memberships.filter(power="England").exists()


# -- draws and endings ------------------------------------------------------------------


def test_a_draw_needs_every_surviving_active_power(game: Game, seat) -> None:
    powers = engine.powers(game)
    for power in powers[:-1]:
        assert services.vote(seat(game, power), draw=True) is False
    services.vote(seat(game, powers[0]))  # withdrawn
    assert DrawVote.objects.count() == len(powers) - 2
    services.vote(seat(game, powers[0]), draw=True)
    assert services.vote(seat(game, powers[-1]), draw=True) is True
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result == {"kind": "draw", "powers": sorted(powers)}


def test_players_in_civil_disorder_do_not_block_a_draw(game: Game, seat, moderator) -> None:
    services.remove_player(game, moderator, "Turkey")
    for power in engine.powers(game):
        if power != "Turkey":
            services.vote(seat(game, power), draw=True)
    game.refresh_from_db()
    assert game.result["kind"] == "draw"
    assert "Turkey" in game.result["powers"]


@pytest.mark.parametrize("how", ["remove", "bot"])
def test_votes_are_counted_again_when_the_last_voter_stops_voting(
    game: Game, seat, moderator, how
) -> None:
    """Six vote for a draw, then the seventh is removed (or handed to a bot): the draw is
    carried then, not only at the next vote (an adversary's finding)."""
    for power in engine.powers(game):
        if power != "Turkey":
            services.vote(seat(game, power), draw=True)
    game.refresh_from_db()
    assert not game.is_over
    if how == "remove":
        services.remove_player(game, moderator, "Turkey")
    else:
        services.set_bot(game, moderator, "Turkey", True)
    game.refresh_from_db()
    assert game.result and game.result["kind"] == "draw"


@pytest.mark.parametrize("how", ["replace", "take over"])
def test_a_vote_is_its_players_and_goes_when_the_seat_changes_hands(
    game: Game, seat, moderator, make_user, how
) -> None:
    """An adversary's finding: France voted for a draw and was replaced; the newcomer, who had
    cast no vote (and could not see the secret one standing), was counted for the draw."""
    services.vote(seat(game, "France"), draw=True)
    newcomer = make_user("newcomer")
    if how == "replace":
        services.replace_player(game, moderator, "France", newcomer)
    else:
        services.remove_player(game, moderator, "France")
        services.take_over(game, newcomer, "France")
    assert not DrawVote.objects.filter(game=game, power="France").exists()
    for power in engine.powers(game):
        if power != "France":
            services.vote(seat(game, power), draw=True)
    game.refresh_from_db()
    assert not game.is_over  # France's new player has not voted
    assert services.vote(seat(game, "France"), draw=True) is True


def test_a_replace_refused_names_no_power_in_an_anonymous_game(make_game, seat, moderator):
    """An adversary's finding: a moderator who plays an anonymous game learnt who plays each
    power from the refusal ("demo2 already plays China"), trying every name."""
    game = make_game(anonymous=True)
    china_player = seat(game, "Russia").user
    playing_moderator = seat(game, "France").user
    playing_moderator.user_permissions.add(Permission.objects.get(codename="moderate_any_game"))
    playing_moderator = type(playing_moderator).objects.get(pk=playing_moderator.pk)
    with pytest.raises(services.GameError) as refused:
        services.replace_player(game, playing_moderator, "England", china_player)
    assert str(refused.value) == f"{china_player.username} already plays a power in this game"
    with pytest.raises(services.GameError) as refused:  # who moderates without playing sees
        services.replace_player(game, moderator, "England", china_player)
    assert str(refused.value) == f"{china_player.username} already plays Russia in this game"


def test_a_bot_taken_off_is_not_ready(game: Game, moderator) -> None:
    services.set_bot(game, moderator, "Turkey", True)
    game.memberships.filter(power="Turkey", bot=True).update(ready=True)
    seat = services.set_bot(game, moderator, "Turkey", False)
    seat.refresh_from_db()
    assert seat.status == Membership.Status.CIVIL_DISORDER and not seat.ready


def test_a_bot_taken_off_is_shown_as_nobody(game: Game, moderator, api, seat) -> None:
    """Once taken off, no bot plays the seat: the API and the page say civil disorder, with no
    bot's name or tag; put back on, the bot is shown again."""
    services.set_bot(game, moderator, "Turkey", True)
    services.set_bot(game, moderator, "Turkey", False)
    viewer = seat(game, "France").user
    turkey = next(p for p in api(viewer).get(f"/api/games/{game.pk}/").json()["powers"]
                  if p["power"] == "Turkey")  # fmt: skip
    assert turkey["bot"] is False and turkey["player"] is None
    assert turkey["status"] == "civil_disorder"
    client = api(viewer)
    client.force_login(viewer)
    page = client.get(f"/games/{game.pk}/").content.decode()
    row = page[page.index('<tr data-power="Turkey">') :]
    row = row[: row.index("</tr>")]
    assert "badge bot" not in row and "Bot " not in row
    services.set_bot(game, moderator, "Turkey", True)
    turkey = next(p for p in api(viewer).get(f"/api/games/{game.pk}/").json()["powers"]
                  if p["power"] == "Turkey")  # fmt: skip
    assert turkey["bot"] is True and turkey["player"].startswith("Bot")


def test_concession(game: Game, seat) -> None:
    with pytest.raises(services.GameError):
        services.vote(seat(game, "France"), concede_to="France")
    for power in engine.powers(game):
        if power != "France":
            services.vote(seat(game, power), concede_to="France")
    game.refresh_from_db()
    assert game.result == {"kind": "concession", "powers": ["France"]}


def test_moderator_declares_a_draw_or_ends_the_game(make_game, moderator) -> None:
    game = make_game()
    services.declare_draw(game, moderator)
    game.refresh_from_db()
    assert game.result["kind"] == "draw" and len(game.result["powers"]) == 7
    game = make_game()
    services.end_game(game, moderator, "Italy")
    game.refresh_from_db()
    assert game.result == {"kind": "victory", "powers": ["Italy"]}
    forming = services.create_game(moderator, name="g", variant="standard")
    services.end_game(forming, moderator)
    forming.refresh_from_db()
    assert forming.status == Game.Status.CANCELLED


# -- moderation -------------------------------------------------------------------------


def test_only_the_moderator_moderates(game: Game, seat) -> None:
    with pytest.raises(PermissionError):
        services.pause(game, seat(game, "France").user)


def test_pause_keeps_the_remaining_time(game: Game, moderator) -> None:
    phase = current(game)
    left = phase.deadline - timezone.now()
    services.pause(game, moderator)
    game.refresh_from_db()
    assert game.status == Game.Status.PAUSED
    assert current(game).deadline is None
    assert services.process_phase(game.pk, phase.pk, force=True) is False
    services.resume(game, moderator)
    phase.refresh_from_db()
    assert abs((phase.deadline - timezone.now()) - left) < timedelta(seconds=5)
    actions = list(ModeratorAction.objects.values_list("action", flat=True))
    assert actions[:2] == ["resume", "pause"]


def test_a_game_paused_after_its_deadline_passed_is_due_when_resumed(game: Game, moderator) -> None:
    """A pause that lands after the deadline passed, before the worker processed the phase
    (a past deadline set, then a pause at once), keeps no time left: resumed, the phase is
    due at once, not given its whole time again (a week slipped)."""
    phase = current(game)
    services.change_deadline(game, moderator, minutes=-(10**6), phase=phase.index)
    services.pause(game, moderator)
    game.refresh_from_db()
    assert game.paused_remaining == timedelta(0)
    services.resume(game, moderator)
    phase.refresh_from_db()
    assert phase.deadline <= timezone.now()
    assert services.process_phase(game.pk, phase.pk) is True


def test_deadline_changes_are_rescheduled(
    game: Game, moderator, django_capture_on_commit_callbacks, enqueued
) -> None:
    phase = current(game)
    old = phase.deadline
    with django_capture_on_commit_callbacks(execute=True):
        services.change_deadline(game, moderator, minutes=-60)
    phase.refresh_from_db()
    assert phase.deadline == old - timedelta(hours=1)
    assert enqueued[-1][2]["eta"] == phase.deadline
    with pytest.raises(services.GameError, match="name the phase"):
        services.change_deadline(game, moderator, minutes=-(10**6))  # processes: which phase?
    services.change_deadline(game, moderator, minutes=-(10**6), phase=phase.index)
    phase.refresh_from_db()
    assert phase.deadline <= timezone.now()
    log = ModeratorAction.objects.filter(action="deadline").first()
    assert set(log.details) == {"old", "new"}


def test_rollback_restores_an_earlier_phase(make_game, seat, moderator) -> None:
    game = make_game(options={"victory_centers": 4})
    services.submit_orders(seat(game, "France"), ["A Paris - Burgundy"])
    services.process_now(game, moderator)
    services.process_now(game, moderator)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    phase = services.rollback(game, moderator, 0)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.result is None
    assert game.current_phase == phase
    assert phase.processed_at is None and phase.results is None
    assert game.phases.count() == 1
    assert phase.orders.get().result == ""
    with pytest.raises(services.GameError):
        services.rollback(game, moderator, 0)
    # How far the game had gone is logged too: a live stream's cursor may still name it.
    assert ModeratorAction.objects.get(action="rollback").details == {"phase": 0, "furthest": 1}


def _seat_state(game: Game) -> list[tuple]:
    """(power, player, status, missed phases) of every seat, replaced ones included."""
    rows = game.memberships.order_by("power", "pk")
    return list(rows.values_list("power", "user__username", "status", "missed_phases"))


def test_rollback_restores_missed_phases_and_civil_disorder(make_game, seat, moderator) -> None:
    """A rollback goes back to the phase as it was before it was processed: the seats too.
    Missed phases counted and civil disorder fallen into since are undone."""
    game = make_game(civil_disorder_after=2)
    for power in engine.powers(game):
        if power != "England":
            services.set_ready(seat(game, power), True, phase=0)
    deadline_passes(game)  # England misses one
    at_one = _seat_state(game)
    assert seat(game, "England").missed_phases == 1
    deadline_passes(game)  # autumn: everyone misses it, England a second time
    assert seat(game, "England").status == Membership.Status.CIVIL_DISORDER
    assert seat(game, "England").missed_phases == 2
    services.rollback(game, moderator, 1)
    game.refresh_from_db()
    assert _seat_state(game) == at_one
    england = seat(game, "England")
    assert england.status == Membership.Status.ACTIVE and england.missed_phases == 1
    services.rollback(game, moderator, 0)
    assert seat(game, "England").missed_phases == 0


def test_rollback_takes_back_a_bot_seated_for_civil_disorder(make_game, seat, moderator) -> None:
    game = make_game(civil_disorder_after=1, bots_take_civil_disorder=True)
    before = _seat_state(game)
    deadline_passes(game)  # nobody orders: every power in civil disorder, a bot on each
    assert game.memberships.filter(bot=True).count() == 7
    services.rollback(game, moderator, 0)
    assert _seat_state(game) == before
    assert not game.memberships.filter(bot=True).exists()


def test_rollback_keeps_a_power_taken_over_since(make_game, seat, moderator, make_user) -> None:
    """A person who took over a power in civil disorder keeps it: a rollback restores the
    counts of the seat they replaced, which stays replaced (the moderator may seat its player
    again by replacing)."""
    game = make_game(civil_disorder_after=1)
    deadline_passes(game)
    old = seat(game, "Italy")
    assert old.status == Membership.Status.CIVIL_DISORDER
    newcomer = make_user("newcomer")
    services.take_over(game, newcomer, "Italy")
    services.rollback(game, moderator, 0)
    assert seat(game, "Italy").user == newcomer
    old.refresh_from_db()
    assert old.status == Membership.Status.REPLACED and old.missed_phases == 0
    assert seat(game, "France").status == Membership.Status.ACTIVE


def test_rollback_keeps_a_player_seated_again_since(make_game, seat, moderator, make_user):
    game = make_game()
    first = seat(game, "Italy")
    services.replace_player(game, moderator, "Italy", make_user("sub"))
    services.process_now(game, moderator)
    services.replace_player(game, moderator, "Italy", first.user)  # back on the seat
    services.rollback(game, moderator, 0)
    assert seat(game, "Italy").user == first.user
    assert game.memberships.filter(power="Italy").exclude(status="replaced").count() == 1


def test_a_paused_game_rolled_back_stays_paused(make_game, moderator) -> None:
    """It went on running with a fresh deadline and no word of a resume (an adversary)."""
    game = make_game()
    services.process_now(game, moderator)
    services.pause(game, moderator)
    phase = services.rollback(game, moderator, 0)
    game.refresh_from_db()
    assert game.status == Game.Status.PAUSED and phase.deadline is None
    full = services.deadline_after(game, phase.type, timezone.now()) - timezone.now()
    assert abs((game.paused_remaining - full).total_seconds()) < 60
    services.resume(game, moderator)
    phase.refresh_from_db()
    assert phase.deadline is not None and game.current_phase_id == phase.pk


def test_replace_and_remove_players(game: Game, seat, moderator, make_user) -> None:
    old = seat(game, "Italy")
    sub = make_user("sub")
    services.replace_player(game, moderator, "Italy", sub)
    assert seat(game, "Italy").user == sub
    old.refresh_from_db()
    assert old.status == Membership.Status.REPLACED
    services.remove_player(game, moderator, "Italy")
    assert seat(game, "Italy").status == Membership.Status.CIVIL_DISORDER
    with pytest.raises(services.GameError):
        services.remove_player(game, moderator, "Italy")
    assert ModeratorAction.objects.filter(action__in=["replace", "remove"]).count() == 2


def test_eliminated_powers_are_marked(game: Game, seat, moderator) -> None:
    phase = current(game)
    phase.units = [u for u in phase.units if u["power"] != "Turkey"]
    phase.supply_centers["Turkey"] = []
    phase.save()
    services.process_now(game, moderator)
    assert seat(game, "Turkey").status == Membership.Status.ELIMINATED


def test_rule_orders_are_kept_per_phase_and_answer_as_the_engine_does(make_game) -> None:
    """The game page's rule orders come from a cache by phase: the same as listing them
    afresh, a new list each time, and nothing kept where payments count (Chinese)."""
    engine._RULE_ORDERS.clear()
    game = make_game("colonial")
    phase = game.current_phase
    fresh = {
        power: [
            o["order"]
            for o in engine.options(game, phase, power)["orders"]
            if o["kind"] == "special"
        ]
        for power in engine.powers(game)
    }
    for power in engine.powers(game):
        first = engine.rule_orders(game, phase, power)
        assert first == fresh[power]
        first.append("mutated")
        assert engine.rule_orders(game, phase, power) == fresh[power]
    assert len(engine._RULE_ORDERS) == len(engine.powers(game))
    chinese = make_game("chinese")
    for power in engine.powers(chinese):
        engine.rule_orders(chinese, chinese.current_phase, power)
    assert all(key[0] != chinese.current_phase_id for key in engine._RULE_ORDERS)


def test_no_concession_to_a_power_eliminated_since_the_votes(game: Game) -> None:
    """Votes to concede to Turkey stand; Turkey then loses its last unit and centre: the
    votes no longer end the game (nobody is left to win it)."""
    phase = game.current_phase
    others = [p for p in engine.powers(game) if p != "Turkey"]
    for power in others:
        DrawVote.objects.create(game=game, power=power, concede_to="Turkey")
    services._settle_votes(game, phase)  # Turkey does not vote for itself: carried
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result["powers"] == ["Turkey"]

    other = services.create_game(game.creator, name="g2", variant="standard")
    for member in game.memberships.all():
        services.join_game(other, member.user)
    other.refresh_from_db()
    phase = other.current_phase
    phase.units = [u for u in phase.units if u["power"] != "Turkey"]
    phase.supply_centers = {**phase.supply_centers, "Turkey": []}
    phase.save()
    for power in others:
        DrawVote.objects.create(game=other, power=power, concede_to="Turkey")
    services._settle_votes(other, phase)
    other.refresh_from_db()
    assert other.status == Game.Status.ACTIVE


def test_a_movement_phase_nobody_in_play_has_units_in_waits_for_its_deadline(
    make_game, seat, moderator, enqueued, django_capture_on_commit_callbacks
) -> None:
    """Found by an adversary reading the change that processes a retreat nobody in play acts
    in: a movement phase in which no seat in play has a unit waits, since a player away may
    come back before its deadline."""
    game = make_game(process_when_ready=True, bots_take_civil_disorder=False)
    phase = current(game)
    phase.units = [u for u in phase.units if u["power"] == "Turkey"]
    phase.save(update_fields=["units"])
    services.remove_player(game, moderator, "Turkey")
    with django_capture_on_commit_callbacks(execute=True):
        services.set_ready(seat(game, "France"))
    assert not _processed_at_once(enqueued, game, phase)


def test_a_processing_writes_only_the_current_phase_of_a_game_that_runs_on(game: Game) -> None:
    """The storm's cost: a phase processed saves of the game row only its current phase (no
    UPDATE of every column), asks no question of the ratings (nothing rated changed), and
    reads the seats once; a game the phase ends is still saved whole and rated."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    # Renamed meanwhile (the moderator, before the lock): a save of every column undid it.
    Game.objects.filter(pk=game.pk).update(name="renamed meanwhile")
    phase = game.current_phase
    with CaptureQueriesContext(connection) as queries:
        assert services.process_phase(game.pk, phase.pk, force=True)
    sql = [q["sql"] for q in queries.captured_queries]
    game_updates = [s for s in sql if s.startswith('UPDATE "games_game"')]
    assert len(game_updates) == 1 and '"name"' not in game_updates[0], game_updates
    assert '"current_phase_id"' in game_updates[0]
    assert not [s for s in sql if "games_ratingchange" in s]
    # The seats read once (not again for the seats made, nor for anyone still playing).
    seat_reads = [s for s in sql if s.startswith("SELECT") and 'FROM "games_membership"' in s]
    assert len([s for s in seat_reads if '"bot"' not in s.split("WHERE")[-1]]) == 1, seat_reads
    # BEGIN; the game, its phase, its seats, its orders; the results; the phase; the next
    # phase; the seats' flags; whether bots play; the votes; the game; COMMIT.
    assert len(sql) <= 13, sql
    game.refresh_from_db()
    assert game.current_phase.index == 1 and game.name == "renamed meanwhile"

    # Ended by the processing: status and result saved, and rated.
    # (Four centres, which Russia holds from the start: it wins at the first autumn's count.)
    Game.objects.filter(pk=game.pk).update(options={**game.options, "victory_centers": 4})
    with mock.patch("games.ratings.rate_game") as rated:
        for _ in range(3):
            services.process_phase(game.pk, game.current_phase_id, force=True)
            game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result["kind"] == "victory"
    assert rated.called
