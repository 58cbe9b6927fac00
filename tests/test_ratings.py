"""Ratings and reliability (issue #19 item 1): every way a game ends moves the ratings by
exactly what openskill's own Plackett-Luce model computes for the places; reliability, the
player page, the leaderboard, and the join requirements."""

from __future__ import annotations

import re

import pytest
from conftest import deadline_passes
from django.urls import reverse
from openskill.models import PlackettLuce

from games import engine, ratings, services
from games.models import Game, JoinRequirement, Rating, RatingChange

MODEL = PlackettLuce()


def _eliminate(game: Game, power: str) -> None:
    """Take a power off the board of the current phase (as if its last unit were lost)."""
    phase = game.current_phase
    phase.refresh_from_db()
    phase.units = [u for u in phase.units if u["power"] != power]
    phase.supply_centers = {p: c for p, c in phase.supply_centers.items() if p != power}
    phase.save()


def _expected(game: Game, places: dict[str, int], book: dict) -> dict:
    """openskill's numbers for the game's rated seats from ``book``'s earlier ratings
    (user id, variant) -> (mu, sigma); ``book`` is updated like the server should."""
    seats = [m for m in game.memberships.exclude(status="replaced") if not m.bot]
    out = {}
    for variant in ("", game.variant):
        before = [book.get((m.user_id, variant)) for m in seats]
        teams = [
            [MODEL.rating() if b is None else MODEL.rating(mu=b[0], sigma=b[1])] for b in before
        ]
        after = MODEL.rate(teams, ranks=[places[m.power] for m in seats])
        for seat, [rating] in zip(seats, after, strict=True):
            book[(seat.user_id, variant)] = (rating.mu, rating.sigma)
            out[(seat.user_id, variant)] = (rating.mu, rating.sigma)
    return out


def _finished(make_game, moderator) -> Game:
    """A standard game Russia wins at four centres, two phases in."""
    game = make_game(options={"victory_centers": 4})
    services.process_now(game, moderator)
    services.process_now(game, moderator)
    game.refresh_from_db()
    return game


def _moved(game: Game, moderator) -> Game:
    """The first year played out (its Fall processed): a game ended before that is not rated."""
    while not ratings.played(game):
        services.process_now(game, moderator)
        game.refresh_from_db()
    return game


def _concede(game: Game, seat, winner: str) -> None:
    """Every other power concedes to ``winner``."""
    for power in engine.powers(game):
        if power != winner:
            services.vote(seat(game, power), concede_to=winner)
    game.refresh_from_db()


def _assert_ratings(expected: dict) -> None:
    assert expected
    for (user_id, variant), (mu, sigma) in expected.items():
        stored = Rating.objects.get(user_id=user_id, variant=variant)
        assert stored.mu == pytest.approx(mu, abs=1e-9), (user_id, variant)
        assert stored.sigma == pytest.approx(sigma, abs=1e-9), (user_id, variant)


def test_a_solo_puts_the_winner_first_and_the_survivors_level(make_game, moderator) -> None:
    game = _finished(make_game, moderator)
    assert game.result == {"kind": "victory", "powers": ["Russia"]}
    places = {p: 1 if p == "Russia" else 2 for p in engine.powers(game)}
    assert ratings.ranks(game) == places
    _assert_ratings(_expected(game, places, {}))
    winner = Rating.objects.get(user__username__startswith="p_russia", variant="")
    loser = Rating.objects.get(user__username__startswith="p_france", variant="")
    assert winner.ordinal > 0 > loser.ordinal
    assert RatingChange.objects.filter(game=game).count() == 2 * len(places)


def test_chinese_survivors_are_placed_by_their_final_gold(make_game) -> None:
    game = make_game("chinese")
    powers = engine.powers(game)
    gold = {power: 100 * n for n, power in enumerate(powers)}  # the last power the richest
    gold[powers[1]] = gold[powers[2]]  # two level
    game.result = {"kind": "victory", "powers": [powers[-1]], "gold": gold}
    places = ratings.ranks(game)
    assert places[powers[-1]] == 1
    order = sorted(powers[:-1], key=lambda p: -gold[p])
    assert [places[p] for p in order] == sorted(places[p] for p in order)
    assert places[powers[1]] == places[powers[2]] > places[powers[3]]
    assert places[powers[0]] == max(places.values())


def test_a_power_out_in_the_phase_a_solo_was_won_in_ranks_last(make_game, moderator) -> None:
    """A solo opens no phase after it, so the final board is the won phase's results: a power
    that lost its last unit and centre then is eliminated, below the other survivors."""
    game = _finished(make_game, moderator)
    won = game.current_phase
    assert won.processed_at is not None
    results = won.results
    results["units"] = [u for u in results["units"] if u["power"] != "Italy"]
    results["supply_centers"] = {**results["supply_centers"], "Italy": []}
    won.save(update_fields=["results"])
    places = {p: 1 if p == "Russia" else 2 for p in engine.powers(game)}
    assert ratings.ranks(game) == {**places, "Italy": 3}


def test_a_draw_shares_first_place_and_ranks_the_eliminated_last(
    game: Game, seat, moderator
) -> None:
    _moved(game, moderator)
    _eliminate(game, "Italy")
    for power in engine.powers(game):
        if power != "Italy":
            services.vote(seat(game, power), draw=True)
    game.refresh_from_db()
    assert game.result["kind"] == "draw" and "Italy" not in game.result["powers"]
    places = {p: 2 if p == "Italy" else 1 for p in engine.powers(game)}
    assert ratings.ranks(game) == places
    _assert_ratings(_expected(game, places, {}))


def test_a_concession_puts_the_conceded_power_first(game: Game, seat, moderator) -> None:
    _concede(_moved(game, moderator), seat, "Turkey")
    assert game.result == {"kind": "concession", "powers": ["Turkey"]}
    places = {p: 1 if p == "Turkey" else 2 for p in engine.powers(game)}
    _assert_ratings(_expected(game, places, {}))


def test_survival_orders_the_eliminated_by_how_long_they_lasted(make_game, moderator) -> None:
    game = make_game()
    services.process_now(game, moderator)
    game.refresh_from_db()
    _eliminate(game, "Italy")  # out during the second phase
    services.process_now(game, moderator)
    game.refresh_from_db()
    _eliminate(game, "Austria")  # out during the third
    services.end_game(game, moderator)
    game.refresh_from_db()
    assert game.result == {"kind": "ended", "powers": []}
    places = {p: 1 for p in engine.powers(game)} | {"Austria": 2, "Italy": 3}
    assert ratings.ranks(game) == places
    _assert_ratings(_expected(game, places, {}))


def test_ratings_carry_from_game_to_game_per_variant_and_overall(make_game, seat, moderator):
    book: dict = {}
    first = _finished(make_game, moderator)
    _expected(first, {p: 1 if p == "Russia" else 2 for p in engine.powers(first)}, book)
    # The same people again, this time conceding to England.
    second = services.create_game(moderator, name="again", variant="standard")
    for m in first.memberships.all():
        services.join_game(second, m.user, [m.power])
    _moved(second, moderator)
    _concede(second, seat, "England")
    assert second.is_over
    expected = _expected(
        second, {p: 1 if p == "England" else 2 for p in engine.powers(second)}, book
    )
    _assert_ratings(expected)
    assert Rating.objects.filter(variant="").first().games == 2


def test_bots_are_not_rated(game: Game, seat, moderator) -> None:
    england = seat(game, "England")
    england.bot = True
    england.save()
    _concede(_moved(game, moderator), seat, "Turkey")
    assert game.is_over
    assert not Rating.objects.filter(user=england.user).exists()
    places = {p: 1 if p == "Turkey" else 2 for p in engine.powers(game)}
    _assert_ratings(_expected(game, places, {}))  # six players rated, without England


def _end(game, seat, moderator, how: str) -> None:
    """End ``game`` one of the ways a game ends early: all vote a draw, a concession, the
    moderator's draw, or the moderator's end with a winner."""
    if how in ("draw", "rolled back"):
        for power in engine.powers(game):
            services.vote(seat(game, power), draw=True)
    elif how == "concession":
        _concede(game, seat, "Turkey")
    elif how == "moderator draw":
        services.declare_draw(game, moderator)
    else:
        services.end_game(game, moderator, "Italy")


@pytest.mark.parametrize("how", ["draw", "concession", "moderator draw", "end"])
def test_a_game_ended_before_its_first_year_was_out_is_not_rated(
    make_game, seat, moderator, how
) -> None:
    """Rating farming: a table that lets the first Spring be processed and then agrees a draw
    (or concedes, or has the moderator end it) in the Fall was rated, as one that had played.
    A game is rated only once its first Fall (the year's end: centres counted) is processed."""
    game = make_game()
    services.process_now(game, moderator)
    game.refresh_from_db()
    assert (game.current_phase.season, game.current_phase.type) == ("fall", "movement")
    _end(game, seat, moderator, how)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result
    assert not ratings.played(game)
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


@pytest.mark.parametrize("variant", ["standard", "colonial", "far-east", "chinese"])
def test_a_draw_after_the_first_year_is_rated(make_game, seat, moderator, variant) -> None:
    """The first year's end is its Fall on the maps of Spring and Fall, and Chinese
    Diplomacy's one movement phase a year: a draw after it is rated."""
    game = _moved(make_game(variant), moderator)
    movements = game.phases.filter(type="movement", processed_at__isnull=False).count()
    assert movements == (1 if variant == "chinese" else 2)
    services.declare_draw(game, moderator)
    game.refresh_from_db()
    assert RatingChange.objects.filter(game=game).exists()


@pytest.mark.parametrize("how", ["draw", "concession", "moderator draw", "end", "rolled back"])
def test_a_game_ended_before_anyone_moved_is_not_rated(make_game, seat, moderator, how) -> None:
    """Everyone votes a draw at phase 0 (or concedes, or the moderator ends the game) before
    any movement phase was processed: the game is over with its result, and nobody's rating
    moves (every rating rose: a tester's finding, a way to farm)."""
    game = make_game()
    if how == "rolled back":  # processed, then undone: nothing was played after all
        _moved(game, moderator)
        services.rollback(game, moderator, 0)
        game.refresh_from_db()
    _end(game, seat, moderator, how)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result
    assert not RatingChange.objects.exists() and not Rating.objects.exists()
    assert not ratings.played(game)


def test_a_rollback_of_a_finished_game_undoes_its_ratings(make_game, moderator) -> None:
    game = _finished(make_game, moderator)
    assert RatingChange.objects.filter(game=game).exists()
    services.rollback(game, moderator, 1)
    assert not RatingChange.objects.filter(game=game).exists()
    # Nobody has a rated game left: every player is new again, listed on no leaderboard.
    assert not Rating.objects.exists()
    fresh = MODEL.rating()
    for seat in game.memberships.all():
        for variant in ("", game.variant):
            rating = ratings.rating_of(seat.user, variant)
            assert (rating.mu, rating.sigma, rating.games) == (fresh.mu, fresh.sigma, 0)


def test_a_rolled_back_game_leaves_nobody_on_the_leaderboards(make_game, moderator, api) -> None:
    game = _moved(make_game("colonial"), moderator)
    services.end_game(game, moderator, winner="Britain")
    client = api(moderator)
    assert client.get("/api/leaderboard/?variant=colonial").json()["count"] == 7
    assert client.get("/api/leaderboard/").json()["count"] == 7
    services.rollback(game, moderator, 0)
    assert client.get("/api/leaderboard/?variant=colonial").json()["results"] == []
    assert client.get("/api/leaderboard/").json()["results"] == []
    player = game.memberships.first().user
    summary = client.get(f"/api/players/{player.username}/").json()
    assert summary["variants"] == {} and summary["rated_games"] == 0


def test_a_rating_left_with_no_game_is_not_listed(make_user, api) -> None:
    """A row already at no games (stored before rollbacks deleted them) is not listed."""
    user = make_user("ghost")
    fresh = MODEL.rating()
    for variant in ("", "colonial"):
        Rating.objects.create(user=user, variant=variant, mu=fresh.mu, sigma=fresh.sigma, games=0)
    client = api(user)
    assert client.get("/api/leaderboard/?variant=colonial").json()["results"] == []
    assert client.get("/api/leaderboard/").json()["results"] == []
    assert client.get("/api/players/ghost/").json()["variants"] == {}


def test_reliability_counts_phases_with_orders_in_and_civil_disorders(make_game, seat, moderator):
    game = make_game(civil_disorder_after=2)
    services.submit_orders(seat(game, "France"), ["A Paris H"])
    deadline_passes(game)
    deadline_passes(game)
    france = ratings.reliability(seat(game, "France").user)
    assert (france.due, france.ordered, france.percent) == (2, 1, 50)
    england = ratings.reliability(seat(game, "England").user)
    assert (england.due, england.ordered, england.civil_disorders) == (2, 0, 1)
    assert england.percent == 0


def test_the_player_page_words_reliability_by_the_phases_due(make_game, seat, client):
    """A player with no phase due yet read "Orders in for 0 of 0 phases (100%)"; one phase
    is one phase."""
    game = make_game()
    france = seat(game, "France")
    url = reverse("player", args=[france.user.username])
    client.force_login(france.user)
    assert "No phase has asked for orders yet." in client.get(url).content.decode()
    services.submit_orders(france, ["A Paris H"])
    deadline_passes(game)
    page = client.get(url).content.decode()
    assert "Orders in for 1 of 1 phase (100%)." in page
    assert "No phase has asked" not in page


def test_a_phase_processed_early_is_due_only_for_the_powers_that_acted(make_game, seat, moderator):
    """The README: a phase the moderator processes before its deadline is missed by nobody.
    Civil disorder read it so; reliability charged every power without orders all the same."""
    game = make_game()
    services.submit_orders(seat(game, "France"), ["A Paris H"])
    services.process_now(game, moderator)  # early: nobody had had the whole time
    france = ratings.reliability(seat(game, "France").user)
    assert (france.due, france.ordered) == (1, 1)
    england = ratings.reliability(seat(game, "England").user)
    assert (england.due, england.ordered, england.percent) == (0, 0, 100)
    deadline_passes(game)  # a deadline that passes is due for everyone
    england = ratings.reliability(seat(game, "England").user)
    assert (england.due, england.ordered, england.percent) == (1, 0, 0)


def test_ready_without_orders_counts_as_acting(make_game, seat, moderator):
    """Ready is holding everything: civil disorder counted it as sending something,
    reliability as sending nothing."""
    game = make_game(civil_disorder_after=2)
    england = seat(game, "England")
    services.set_ready(england, True, phase=0)
    deadline_passes(game)
    england.refresh_from_db()
    assert england.missed_phases == 0  # for civil disorder, Ready was acting
    kept = ratings.reliability(england.user)
    assert (kept.due, kept.ordered, kept.percent) == (1, 1, 100)
    services.set_ready(seat(game, "France"), True, phase=1)
    services.process_now(game, moderator)  # early, but France acted
    france = ratings.reliability(seat(game, "France").user)
    assert (france.due, france.ordered) == (2, 1)  # the first deadline missed, then Ready


def test_a_removed_seat_is_charged_only_up_to_its_removal(make_game, seat, moderator):
    game = make_game()
    france = seat(game, "France").user
    deadline_passes(game)  # due, not ordered
    services.remove_player(game, moderator, "France")
    services.process_now(game, moderator)
    services.process_now(game, moderator)
    assert (ratings.reliability(france).due, ratings.reliability(france).ordered) == (1, 0)


def test_a_running_anonymous_game_counts_once_it_is_over(make_game, seat, moderator):
    """Reliability is public: counting a running anonymous game would tell who plays in it."""
    game = make_game(anonymous=True)
    france = seat(game, "France")
    services.submit_orders(france, ["A Paris H"])
    services.process_now(game, moderator)
    assert ratings.reliability(france.user).due == 0
    services.declare_draw(game, moderator)
    assert (ratings.reliability(france.user).due, ratings.reliability(france.user).ordered) == (
        1,
        1,
    )


# -- join requirements ------------------------------------------------------------------


def test_join_requirements_refuse_low_rating_and_reliability(make_game, make_user, moderator, api):
    old = make_game(civil_disorder_after=1)
    deadline_passes(old)  # nobody ordered: every player 0% reliable
    unreliable = old.memberships.get(power="England").user
    forming = services.create_game(moderator, name="strict", variant="standard")
    url = f"/api/games/{forming.pk}/requirements/"
    assert (
        api(make_user("nosy"))
        .put(url, {"min_rating": 5, "min_reliability": None}, format="json")
        .status_code
        == 403
    )
    # A stranger's bad body is refused for who sends it, not for what it holds.
    stranger = api(make_user("stranger"))
    for junk in ({"min_rating": "x"}, [], {"min_reliability": 500}):
        assert stranger.put(url, junk, format="json").status_code == 403, junk
    answer = api(moderator).put(url, {"min_rating": None, "min_reliability": 60}, format="json")
    assert answer.status_code == 200, answer.json()
    assert api(moderator).get(url).json() == {"min_rating": None, "min_reliability": 60}
    refused = api(unreliable).post(f"/api/games/{forming.pk}/join/", {}, format="json")
    assert refused.status_code == 403
    assert "reliability of at least 60%" in refused.json()["detail"]
    newcomer = make_user("newcomer")  # nothing due yet: 100%
    assert (
        api(newcomer).post(f"/api/games/{forming.pk}/join/", {}, format="json").status_code == 200
    )
    # A new player's rating is 0 (mu - 3 sigma): a minimum of 1 keeps them out.
    api(moderator).put(url, {"min_rating": 1, "min_reliability": None}, format="json")
    refused = api(make_user("fresh")).post(f"/api/games/{forming.pk}/join/", {}, format="json")
    assert refused.status_code == 403 and "rating of at least 1" in refused.json()["detail"]
    assert JoinRequirement.objects.get(game=forming).min_rating == 1


def test_a_requirement_given_twice_in_a_form_is_refused_even_empty(moderator, api) -> None:
    """Found by a review: ``min_rating=50&min_rating=`` skipped the check of a field given
    twice (a field that may be null read its last value, empty, as none), and the requirement
    was quietly dropped."""
    forming = services.create_game(moderator, name="strict", variant="standard")
    url = f"/api/games/{forming.pk}/requirements/"
    form = "application/x-www-form-urlencoded"
    ok = api(moderator).put(url, "min_rating=50&min_reliability=10", content_type=form)
    assert ok.status_code == 200, ok.content
    for body in ("min_rating=50&min_rating=&min_reliability=10", "min_rating=&min_rating=50"):
        twice = api(moderator).put(url, body, content_type=form)
        assert twice.status_code == 400, twice.content
        assert twice.json()["min_rating"] == ["given 2 times: give it once, or leave it out"]
    assert JoinRequirement.objects.get(game=forming).min_rating == 50


def test_join_requirements_are_checked_as_input(make_game, moderator, api) -> None:
    forming = services.create_game(moderator, name="strict", variant="standard")
    url = f"/api/games/{forming.pk}/requirements/"
    for bad in (
        {"min_rating": "5", "min_reliability": None},
        {"min_rating": None, "min_reliability": 101},
        {"min_rating": True, "min_reliability": 1},
    ):
        assert api(moderator).put(url, bad, format="json").status_code == 400, bad
    started = make_game()
    answer = api(moderator).put(
        f"/api/games/{started.pk}/requirements/",
        {"min_rating": 1, "min_reliability": None},
        format="json",
    )
    assert answer.status_code == 400 and "forms" in answer.json()["detail"]
    assert api(moderator).get("/api/games/999999/requirements/").status_code == 404


def test_taking_over_a_seat_meets_the_requirements_too(make_game, make_user, moderator) -> None:
    game = make_game(civil_disorder_after=1)
    JoinRequirement.objects.create(game=game, min_rating=3)
    services.process_now(game, moderator)
    with pytest.raises(PermissionError, match="rating of at least 3"):
        services.take_over(game, make_user("late"), "Turkey")


# -- API and pages ----------------------------------------------------------------------


def test_player_and_leaderboard_in_the_api(make_game, moderator, api) -> None:
    game = _finished(make_game, moderator)
    winner = game.memberships.get(power="Russia").user
    player = api(moderator).get(f"/api/players/{winner.username}/").json()
    stored = Rating.objects.get(user=winner, variant="")
    assert player["rating"] == pytest.approx(stored.ordinal, abs=0.01)
    assert player["variants"]["standard"]["games"] == 1
    assert player["games"][0] | {"rank": 1, "result": "victory"} == player["games"][0]
    assert [h["game"] for h in player["history"]] == [game.pk]
    board = api(moderator).get("/api/leaderboard/?variant=standard").json()["results"]
    assert board[0]["username"] == winner.username
    assert [r["rating"] for r in board] == sorted((r["rating"] for r in board), reverse=True)
    assert len(board) == len(engine.powers(game))
    assert api(moderator).get("/api/leaderboard/?variant=nowhere").status_code == 400
    assert api(moderator).get("/api/players/nobody-at-all/").status_code == 404
    schema = api(moderator).get("/api/schema/?format=json").json()
    for path in ("/api/players/{username}/", "/api/leaderboard/", "/api/games/{id}/requirements/"):
        assert path in schema["paths"], path


def test_a_player_is_found_in_any_case(make_game, moderator, api, client) -> None:
    """Names are unique whatever their case, yet /api/players/DEMO1/ was a 404."""
    game = _finished(make_game, moderator)
    winner = game.memberships.get(power="Russia").user
    exact = api(moderator).get(f"/api/players/{winner.username}/").json()
    shouted = api(moderator).get(f"/api/players/{winner.username.upper()}/")
    assert shouted.status_code == 200 and shouted.json() == exact
    assert shouted.json()["username"] == winner.username
    client.force_login(moderator)
    assert client.get(f"/players/{winner.username.upper()}/").status_code == 200
    # In full width, as an input method types it (sign-in reads it so: NFKC).
    wide = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in winner.username)
    assert api(moderator).get(f"/api/players/{wide}/").json() == exact


def test_an_empty_variant_is_the_overall_leaderboard(make_game, moderator, api) -> None:
    _finished(make_game, moderator)
    overall = api(moderator).get("/api/leaderboard/").json()
    assert overall["results"] and api(moderator).get("/api/leaderboard/?variant=").json() == overall


def test_equal_ratings_share_a_place_on_every_page(make_user, api, client) -> None:
    """Two players with the same rating were 2nd and 3rd; they share 2nd and the next is 4th
    (standard competition ranking), in the API, whose list comes in pages as every list of
    it does, and on the page. A tie across a page's edge keeps its place."""
    for name, mu in (("ann", 30.0), ("bob", 28.0), ("cy", 28.0), ("dee", 25.0)):
        Rating.objects.create(user=make_user(name), variant="", mu=mu, sigma=5.0, games=1)
    reader = api(make_user("reader"))
    board = reader.get("/api/leaderboard/").json()
    assert board["count"] == 4 and board["next"] is None and board["previous"] is None
    rows = board["results"]
    assert [(r["username"], r["place"]) for r in rows] == [
        ("ann", 1), ("bob", 2), ("cy", 2), ("dee", 4)
    ]  # fmt: skip
    assert rows[1]["rating"] == rows[2]["rating"] == 13.0
    second = reader.get("/api/leaderboard/?page=2&page_size=2").json()
    assert [(r["username"], r["place"]) for r in second["results"]] == [("cy", 2), ("dee", 4)]
    assert second["previous"] and second["next"] is None
    assert reader.get("/api/leaderboard/?page=3&page_size=2").status_code == 404
    client.force_login(make_user("viewer"))
    html = client.get("/leaderboard/").content.decode()
    places = re.findall(r"<tr><td>(\d+)</td><td><a [^>]*>(\w+)</a>", html)
    assert places == [("1", "ann"), ("2", "bob"), ("2", "cy"), ("4", "dee")]


def test_player_page_and_leaderboard_page(make_game, moderator, client) -> None:
    game = _finished(make_game, moderator)
    winner = game.memberships.get(power="Russia").user
    client.force_login(moderator)
    page = client.get(f"/players/{winner.username}/")
    assert page.status_code == 200
    html = page.content.decode()
    main = html.split("<main")[-1].split("</main>")[0]  # the page's own, not the header's menu
    assert '<svg class="rating-chart"' in main and "<script" not in main
    assert f'href="/games/{game.pk}/"' in html
    # The rating as the leaderboard and the API give it: two decimals (it showed one).
    rating = winner.ratings.get(variant="")  # overall
    assert f"Rating {rating.ordinal:.2f} (" in html, html
    board = client.get("/leaderboard/?variant=standard").content.decode()
    assert board.index(winner.username) < board.index(
        game.memberships.get(power="France").user.username
    )
    assert client.get("/leaderboard/?variant=nowhere").status_code == 404


def test_anonymous_running_games_stay_off_other_players_pages(make_game, moderator, api) -> None:
    game = make_game(anonymous=True)
    france = game.memberships.get(power="France").user
    assert api(moderator).get(f"/api/players/{france.username}/").json()["games"] == []
    assert [
        g["id"] for g in api(france).get(f"/api/players/{france.username}/").json()["games"]
    ] == [game.pk]


def test_moderator_sets_requirements_on_the_site_and_joiners_see_them(
    moderator, make_user, client
) -> None:
    forming = services.create_game(moderator, name="strict", variant="standard")
    client.force_login(make_user("nosy"))
    assert client.post(f"/games/{forming.pk}/requirements/", {"min_rating": "3"}).status_code == 403
    client.force_login(moderator)
    assert "requirements/" in client.get(f"/games/{forming.pk}/").content.decode()
    answer = client.post(
        f"/games/{forming.pk}/requirements/", {"min_rating": "3", "min_reliability": ""}
    )
    assert answer.status_code == 302
    assert JoinRequirement.objects.get(game=forming).min_rating == 3
    assert (
        client.post(f"/games/{forming.pk}/requirements/", {"min_reliability": "150"}).status_code
        == 200
    )
    newcomer = make_user("newcomer")
    client.force_login(newcomer)
    page = client.get(f"/games/{forming.pk}/").content.decode()
    assert "Joining needs a rating of at least 3." in page
    joined = client.post(f"/games/{forming.pk}/join/", {}, follow=True).content.decode()
    assert "needs a rating of at least 3; yours is 0.0" in joined
    assert not forming.memberships.filter(user=newcomer).exists()


def test_a_failing_rating_never_stops_the_game_ending(make_game, moderator, monkeypatch) -> None:
    class Broken:
        """openskill's model whose rate fails after the first ratings were read."""

        def rating(self):
            return MODEL.rating()

        def create_rating(self, values):
            return MODEL.create_rating(values)

        def rate(self, *args, **kwargs):
            raise RuntimeError("openskill broke")

    monkeypatch.setattr(ratings, "MODEL", Broken())
    game = _finished(make_game, moderator)
    assert game.status == Game.Status.FINISHED
    assert not RatingChange.objects.filter(game=game).exists()
    assert not Rating.objects.exists()


def test_a_seat_taken_over_counts_for_each_player_only_their_own_phases(
    make_game, seat, moderator, make_user
) -> None:
    game = make_game(civil_disorder_after=1)
    deadline_passes(game)  # nobody ordered: every power falls into disorder
    old = seat(game, "England").user
    newcomer = make_user("newcomer")
    services.take_over(game, newcomer, "England")
    services.submit_orders(seat(game, "England"), ["F London H"])
    services.process_now(game, moderator)
    left = ratings.reliability(old)
    assert (left.due, left.ordered, left.civil_disorders) == (1, 0, 1)
    came = ratings.reliability(newcomer)
    assert (came.due, came.ordered, came.civil_disorders, came.percent) == (1, 1, 0, 100)


def _bot_game(moderator, people: list) -> Game:
    game = services.create_game(moderator, name="bots", variant="standard", bots_fill_empty=True)
    powers = engine.powers(game)
    for user, power in zip(people, powers, strict=False):
        services.join_game(game, user, [power])
    services.start_game(game, moderator)
    game.refresh_from_db()
    assert game.memberships.filter(bot=True).count() == len(powers) - len(people)
    return game


def test_a_game_with_bot_seats_rates_only_its_people(moderator, make_user) -> None:
    people = [make_user(name) for name in ("ann", "bob", "cat", "dan")]  # 4 of 7 seats
    game = _bot_game(moderator, people)
    winner = game.memberships.get(user=people[1]).power
    services.end_game(_moved(game, moderator), moderator, winner=winner)
    assert set(Rating.objects.values_list("user__username", flat=True)) == {
        "ann",
        "bob",
        "cat",
        "dan",
    }
    _assert_ratings(_expected(game, {p: 1 if p == winner else 2 for p in engine.powers(game)}, {}))


def test_two_accounts_and_a_table_of_bots_farm_no_rating(moderator, make_user) -> None:
    """Two people and five bots agree a result: nothing is rated, whoever is declared winner."""
    game = _moved(_bot_game(moderator, [make_user("alt1"), make_user("alt2")]), moderator)
    services.end_game(game, moderator, winner=game.memberships.get(user__username="alt1").power)
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_a_rollback_of_an_old_game_keeps_what_its_players_earned_since(make_game, seat, moderator):
    """The adversary's case: a rating earned in a later game survives the rollback of an
    earlier one; only the earlier game's own change is taken out."""
    first = _finished(make_game, moderator)
    second = services.create_game(moderator, name="again", variant="standard")
    for m in first.memberships.all():
        services.join_game(second, m.user, [m.power])
    _moved(second, moderator)
    _concede(second, seat, "England")
    england = seat(second, "England").user
    after_both = Rating.objects.get(user=england, variant="")
    own = RatingChange.objects.get(game=first, user=england, variant="")
    services.rollback(first, moderator, 1)
    now = Rating.objects.get(user=england, variant="")
    assert now.games == 1
    assert now.mu == pytest.approx(after_both.mu - (own.mu - own.mu_before))
    assert now.mu != pytest.approx(MODEL.rating().mu)  # the second game's win is kept
    assert now.sigma >= after_both.sigma
