"""Ratings and reliability (issue #19 item 1).

A player's rating is OpenSkill's Plackett-Luce model, kept overall and per variant, and moved
once when a game ends: the places come from the result (a solo winner first, a draw's powers
sharing first place, a concession's winner first, and in a game ended without a winner every
survivor shares first), then the other survivors (in Chinese Diplomacy by their final gold),
then the eliminated, the later out the better, and last a leader deposed for debt (Chinese
Diplomacy). Bots and other replaced seats are not rated, and a game is rated only when people
sat in at least half of its seats (otherwise two accounts of one person and a table of bots
could agree a result and farm a rating) and it ended after its first year was played out: the
movement phase after which centres are counted and builds come (Fall 1901 on the standard map)
processed. A table that agrees a draw, a concession or the moderator's end before then has
played too little to be measured by (every rating rose when it drew at once, or right after
the first Spring). A rollback of a finished game undoes its change.

Reliability is counted from the games themselves: the share of phases a player's power had
something to order in that it sent orders for (or said Ready in: holding everything is acting,
as for civil disorder), and how many seats the player left in civil disorder. As for civil
disorder, a phase processed before its deadline is missed by nobody: it counts only for the
powers that had acted in it.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils.html import escape
from django.utils.translation import ngettext
from openskill.models import PlackettLuce

from . import engine
from .models import (
    Game,
    JoinRequirement,
    Membership,
    ModeratorAction,
    Order,
    Phase,
    Rating,
    RatingChange,
)

logger = logging.getLogger(__name__)
MODEL = PlackettLuce()
OVERALL = ""


# -- places -------------------------------------------------------------------------------


def _last_alive(game: Game) -> dict[str, int]:
    """Power -> index of the last phase it was still in the game (eliminated powers' order)."""
    last: dict[str, int] = {}
    phases = list(game.phases.order_by("index"))
    for phase in phases:
        for power in engine.survivors(phase):
            last[power] = phase.index
    if phases and phases[-1].processed_at is not None:
        # The game ended with its last phase (a solo opens none after it): who survived that
        # phase's processing lasted past it; a power it eliminated did not.
        for power in engine.survivors(engine.final_board(phases[-1])):
            last[power] = phases[-1].index + 1
    return last


def ranks(game: Game) -> dict[str, int]:
    """Power -> place (1 is best, ties share) from the game's result and who survived."""
    result = game.result or {}
    kind, named = result.get("kind"), set(result.get("powers") or [])
    last = _last_alive(game)
    final = max(last.values(), default=0)
    survivors = {p for p, index in last.items() if index == final}
    if kind == "ended" or not named:  # ended without a winner: every survivor shares first
        named = set(survivors)
    # Chinese Diplomacy's goal is the largest profit (seed 003): its result's final gold
    # places the survivors below the richest, the richer the better.
    gold = result.get("gold") or {}
    # Sort keys: the named powers, then survivors, then the eliminated by how long they lasted.
    keys = {}
    for power in engine.powers(game):
        if power in named:
            keys[power] = (0, 0)
        elif power in survivors:
            keys[power] = (1, -gold.get(power, 0))
        else:
            keys[power] = (2, -last.get(power, -1))
    places = sorted(set(keys.values()))
    return {power: places.index(key) + 1 for power, key in keys.items()}


def rated_seats(game: Game) -> list[Membership]:
    """The seats a finished game rates: held by a person (not a bot) at the end, and a leader
    deposed (Chinese Diplomacy), whose seat a loss ended, as elimination ends another's
    (``ModeratorAction.objects.deposed_seats``: placed last). Unrated, a leader about to be
    deposed escaped the loss by paying the gold away to an ally."""
    seats = game.memberships.exclude(power="").select_related("user")
    deposed = ModeratorAction.objects.deposed_seats(game)
    return [
        m
        for m in seats
        if not m.bot and (m.status != Membership.Status.REPLACED or m.pk in deposed)
    ]


def played_by_people(game: Game) -> bool:
    """Whether people sat in at least half of the game's seats (a bot's seat a person took over
    counts as a person's; a seat only ever a bot's does not)."""
    people = game.memberships.filter(bot=False).exclude(power="").values("power").distinct().count()
    return 2 * people >= len(engine.powers(game))


def played(game: Game) -> bool:
    """Whether the game lasted long enough to measure anyone: its first year was played out,
    the movement phase after which centres are counted and builds come (Fall 1901 on the
    standard map; ``engine.counting_season``) processed before it ended. A table that agrees
    a draw after the first Spring (in its retreats, or in the Fall) has shown no more than one
    that agrees it at once (a rollback undoes it too: later phases go, the phase unprocessed)."""
    year_end = engine.counting_season(game.variant)
    moved = game.phases.filter(
        type=Phase.Type.MOVEMENT, season=year_end, processed_at__isnull=False
    )
    return moved.exists()


# -- updating -----------------------------------------------------------------------------


def _current(user_id: int, variant: str) -> Rating:
    rating = Rating.objects.select_for_update().filter(user_id=user_id, variant=variant).first()
    if rating is None:
        fresh = MODEL.rating()
        rating = Rating(user_id=user_id, variant=variant, mu=fresh.mu, sigma=fresh.sigma)
    return rating


@transaction.atomic
def rate_game(game: Game) -> list[RatingChange]:
    """Move the ratings of a finished game's players, overall and in its variant, once."""
    if game.sandbox or game.rating_changes.exists():  # practice is never rated
        return []
    seats = rated_seats(game)
    if len(seats) < 2 or not played_by_people(game):  # nobody to be measured against
        return []
    if not played(game):  # ended before its first year was out: nothing to measure
        return []
    places = ranks(game)
    deposed = ModeratorAction.objects.deposed_seats(game)
    last = max(places.values(), default=0) + 1  # below every power's place, the deposed's own
    place = {m.pk: last if m.pk in deposed else places[m.power] for m in seats}
    changes = []
    for variant in (OVERALL, game.variant):
        ratings = [_current(m.user_id, variant) for m in seats]
        teams = [[MODEL.create_rating([r.mu, r.sigma])] for r in ratings]
        new = MODEL.rate(teams, ranks=[place[m.pk] for m in seats])
        for seat, rating, [after] in zip(seats, ratings, new, strict=True):
            changes.append(
                RatingChange(
                    game=game,
                    user_id=seat.user_id,
                    variant=variant,
                    power=seat.power,
                    rank=place[seat.pk],
                    mu_before=rating.mu,
                    sigma_before=rating.sigma,
                    mu=after.mu,
                    sigma=after.sigma,
                )
            )
            rating.mu, rating.sigma, rating.games = after.mu, after.sigma, rating.games + 1
            rating.save()
    return RatingChange.objects.bulk_create(changes)


@transaction.atomic
def unrate_game(game: Game) -> None:
    """Undo a game's rating changes (a moderator rolled a finished game back).

    When the game was a player's last rated one, the rating goes back to what it was before.
    Otherwise the games rated since stay: only this game's own change is taken out (its
    change of mu subtracted, the variance it took away given back), so that rolling back an
    old game never wipes what its players earned elsewhere since. A rating left with no rated
    game is deleted: the player is new again in that variant (``rating_of``), and no
    leaderboard lists them."""
    for change in game.rating_changes.all():
        rating = (
            Rating.objects.select_for_update()
            .filter(user_id=change.user_id, variant=change.variant)
            .first()
        )
        if rating is None:
            continue
        if (rating.mu, rating.sigma) == (change.mu, change.sigma):  # nothing rated since
            rating.mu, rating.sigma = change.mu_before, change.sigma_before
        else:
            rating.mu -= change.mu - change.mu_before
            variance = rating.sigma**2 + change.sigma_before**2 - change.sigma**2
            rating.sigma = math.sqrt(max(variance, 1e-6))
        rating.games = max(rating.games - 1, 0)
        if rating.games:
            rating.save()
        else:
            rating.delete()
    game.rating_changes.all().delete()


@receiver(post_save, sender=Game, dispatch_uid="games.ratings.on_game_saved")
def on_game_saved(sender: type[Game], instance: Game, **kwargs: object) -> None:
    """Every way a game ends saves it finished with a result; a rollback saves it active.
    A rating that fails is logged: it must never stop the game's own change (each runs in a
    savepoint, so nothing half-rated is kept). A save that writes neither the status nor the
    result (a processing that goes on to the next phase) changes nothing rated."""
    saved = kwargs.get("update_fields")
    if saved is not None and not {"status", "result"} & set(saved):
        return
    try:
        if instance.status == Game.Status.FINISHED and instance.result:
            rate_game(instance)
        elif (
            instance.status in (Game.Status.ACTIVE, Game.Status.PAUSED)
            and instance.rating_changes.exists()
        ):
            unrate_game(instance)
    except Exception:
        logger.exception("rating game %s failed", instance.pk)


# -- reliability --------------------------------------------------------------------------


@dataclass
class Reliability:
    """Phases a player's power had to order in, how many it sent orders for, and seats left
    in civil disorder."""

    due: int = 0
    ordered: int = 0
    civil_disorders: int = 0

    @property
    def percent(self) -> int:
        """Share of due phases with orders in; 100 for a player with none due yet."""
        return round(100 * self.ordered / self.due) if self.due else 100


def _left_in_disorder(seat: Membership) -> bool:
    """In civil disorder now, or taken over after missing phases enough to fall into it (a seat
    replaced keeps its count of phases missed in a row)."""
    if seat.status == Membership.Status.CIVIL_DISORDER:
        return True
    after = seat.game.civil_disorder_after
    return seat.status == Membership.Status.REPLACED and bool(after) and seat.missed_phases >= after


def reliability(user: AbstractBaseUser) -> Reliability:
    """Count over every seat the user held: a replaced seat up to its replacement's arrival
    (a deposed leader's up to the deposition), a removed one up to its removal. A running
    anonymous game counts once it is over: until then the figures would tell who plays in it.
    Five queries whatever the number of games (a leaderboard asks for a hundred players)."""
    out = Reliability()
    seats = [
        seat
        # A sandbox's seats are its creator's stand-ins (bot accounts): practice, not play.
        for seat in Membership.objects.filter(user=user)
        .exclude(power="")
        .exclude(game__sandbox=True)
        .select_related("game")
        if not (seat.game.anonymous and not seat.game.is_over)
    ]
    if not seats:
        return out
    games = {seat.game_id for seat in seats}
    arrivals: dict[tuple[int, str], list] = {}
    for game_id, power, joined in Membership.objects.filter(game_id__in=games).values_list(
        "game_id", "power", "joined"
    ):
        arrivals.setdefault((game_id, power), []).append(joined)
    removals: dict[tuple[int, str], list] = {}
    # A deposed leader's seat (Chinese Diplomacy) ends at the deposition, whoever comes next.
    depositions: dict[tuple[int, str, str], list] = {}
    logged = ModeratorAction.objects.filter(game_id__in=games)
    for game_id, action, details, created in (
        logged.filter(action="remove") | logged.depositions()
    ).values_list("game_id", "action", "details", "created"):
        if action == "remove":
            removals.setdefault((game_id, details.get("power")), []).append(created)
        else:
            key = (game_id, details.get("power"), details.get("player"))
            depositions.setdefault(key, []).append(created)
    phases: dict[int, list[Phase]] = {}
    for phase in Phase.objects.filter(game_id__in=games, processed_at__isnull=False):
        phases.setdefault(phase.game_id, []).append(phase)
    ordered = set(
        Order.objects.filter(
            phase__game_id__in=games, power__in={seat.power for seat in seats}
        ).values_list("phase_id", "power")
    )
    for seat in seats:
        out.civil_disorders += _left_in_disorder(seat)
        key = (seat.game_id, seat.power)
        ends = []  # when the seat stopped being this player's
        if seat.status == Membership.Status.REPLACED:
            ends += [t for t in arrivals.get(key, []) if t > seat.joined]
            deposed = depositions.get((*key, user.get_username()), [])
            ends += [t for t in deposed if t > seat.joined]
        if seat.removed:
            ends += [t for t in removals.get(key, []) if t > seat.joined]
        until = min(ends, default=None)
        for phase in phases.get(seat.game_id, []):
            if phase.processed_at < seat.joined or (until and phase.processed_at >= until):
                continue
            acted = (phase.pk, seat.power) in ordered or seat.power in (phase.seats or {}).get(
                "ready", ()
            )
            # As for civil disorder: a Chinese great power with nothing on the board need not
            # order (a year it brings an army on counts, as it acted).
            if seat.power not in engine.powers_bound_to_act(phase) and not (
                acted and seat.power in engine.powers_to_act(phase)
            ):
                continue
            if not acted and phase.processed_early:
                continue  # the moderator took the time to act away: missed by nobody
            out.due += 1
            out.ordered += acted
    return out


# -- reading ------------------------------------------------------------------------------


def rating_of(user: AbstractBaseUser, variant: str = OVERALL) -> Rating:
    """The stored rating, or a new player's (unsaved) if the user has played no rated game."""
    rating = Rating.objects.filter(user=user, variant=variant).first()
    if rating is None:
        fresh = MODEL.rating()
        rating = Rating(user=user, variant=variant, mu=fresh.mu, sigma=fresh.sigma)
    return rating


def leaderboard(variant: str = OVERALL, limit: int = 100) -> list[dict]:
    """The best ratings first (by mu - 3 sigma), with each player's reliability: players with
    a rated game in the variant (overall: in any), no one else."""
    return with_reliability(ranking(variant, limit))


def ranking(variant: str = OVERALL, limit: int = 100) -> list[dict]:
    """The best ratings first, each row with its place, without reliability (which costs
    queries a player: ``with_reliability`` adds it to the rows shown). Equal ratings, as shown
    (two decimals), share a place and the next place skips: 1, 2, 2, 4."""
    ranked = (
        Rating.objects.filter(variant=variant, games__gt=0)
        .select_related("user")
        .annotate(score=F("mu") - 3 * F("sigma"))
        .order_by("-score", "user__username")[:limit]
    )
    out: list[dict] = []
    for position, rating in enumerate(ranked, start=1):
        shown = round(rating.ordinal, 2)
        tied = out and out[-1]["rating"] == shown  # rounding keeps equal ratings together
        out.append(
            {
                "place": out[-1]["place"] if tied else position,
                "username": rating.user.username,
                "rating": shown,
                "mu": round(rating.mu, 3),
                "sigma": round(rating.sigma, 3),
                "games": rating.games,
                "user": rating.user,
            }
        )
    return out


def with_reliability(rows: list[dict]) -> list[dict]:
    """``ranking``'s rows with each player's reliability and civil disorders."""
    for row in rows:
        kept = reliability(row.pop("user"))
        row["reliability"] = kept.percent
        row["civil_disorders"] = kept.civil_disorders
    return rows


def player_summary(user: AbstractBaseUser, viewer: AbstractBaseUser) -> dict:
    """A player's ratings, reliability, rating history and games, as the viewer may see them:
    a seat in an anonymous game still running is left out, and a sandbox's always."""
    kept = reliability(user)
    ratings = {r.variant: r for r in Rating.objects.filter(user=user, games__gt=0)}
    overall = ratings.get(OVERALL) or rating_of(user)
    history = [
        {
            "game": c.game_id,
            "variant": c.variant or "overall",
            "rank": c.rank,
            "rating": round(c.ordinal, 2),
            "date": c.created.isoformat(),
        }
        for c in RatingChange.objects.filter(user=user, variant=OVERALL).select_related("game")
    ]
    games = []
    seats = (
        Membership.objects.filter(user=user)
        .exclude(power="")
        .exclude(game__sandbox=True)  # nobody learns of another's practice game
        .select_related("game")
        .order_by("-game__created")
    )
    changes = {c.game_id: c for c in RatingChange.objects.filter(user=user, variant=OVERALL)}
    for seat in seats:
        game = seat.game
        if game.anonymous and not game.is_over and viewer.pk != user.pk:
            continue
        change = changes.get(game.pk)
        games.append(
            {
                "id": game.pk,
                "name": game.name,
                "variant": game.variant,
                "power": seat.power,
                "status": game.status,
                "seat": seat.status,
                "result": (game.result or {}).get("kind"),
                "rank": change.rank if change else None,
                "rating_change": round(change.ordinal - _ordinal_before(change), 2)
                if change
                else None,
            }
        )
    return {
        "username": user.username,
        "rating": round(overall.ordinal, 2),
        "mu": round(overall.mu, 3),
        "sigma": round(overall.sigma, 3),
        "rated_games": overall.games,
        "variants": {
            v: {"rating": round(r.ordinal, 2), "games": r.games}
            for v, r in sorted(ratings.items())
            if v != OVERALL
        },
        "reliability": kept.percent,
        "phases_due": kept.due,
        "phases_ordered": kept.ordered,
        "civil_disorders": kept.civil_disorders,
        "history": history,
        "games": games,
    }


def _ordinal_before(change: RatingChange) -> float:
    return change.mu_before - 3 * change.sigma_before


def rating_points(user: AbstractBaseUser) -> list[float]:
    """The overall rating before the first rated game, then after each (oldest first)."""
    changes = list(RatingChange.objects.filter(user=user, variant=OVERALL))
    if not changes:
        return []
    return [_ordinal_before(changes[0])] + [c.ordinal for c in changes]


def history_chart(values: list[float], width: int = 360, height: int = 120) -> str:
    """The rating over time as a small inline SVG line (no script, so no CSP question)."""
    if len(values) < 2:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    left, right, top, bottom = 40, 8, 8, 8
    step = (width - left - right) / (len(values) - 1)

    def y(v: float) -> float:
        return top + (high - v) / span * (height - top - bottom)

    points = " ".join(f"{left + i * step:.1f},{y(v):.1f}" for i, v in enumerate(values))
    dots = "".join(
        f'<circle cx="{left + i * step:.1f}" cy="{y(v):.1f}" r="2.5"/>'
        for i, v in enumerate(values)
    )
    games = len(values) - 1
    label = escape(
        ngettext(
            "Rating over %(games)s rated game, from %(first)s to %(last)s",
            "Rating over %(games)s rated games, from %(first)s to %(last)s",
            games,
        )
        % {"games": games, "first": f"{values[0]:.1f}", "last": f"{values[-1]:.1f}"}
    )
    grid = "".join(
        f'<line x1="{left}" x2="{width - right}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
        f'stroke="currentColor" stroke-opacity="0.2"/>'
        f'<text x="{left - 4}" y="{y(v) + 3:.1f}" font-size="10" text-anchor="end" '
        f'fill="currentColor">{v:.1f}</text>'
        for v in ((high, low) if high != low else (high,))
    )
    return (
        f'<svg class="rating-chart" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="img" aria-label="{label}"><title>{label}</title>{grid}'
        f'<polyline fill="none" stroke="currentColor" stroke-width="1.5" points="{points}"/>'
        f'<g fill="currentColor">{dots}</g></svg>'
    )


# -- joining ------------------------------------------------------------------------------


def check_requirements(game: Game, user: AbstractBaseUser) -> None:
    """Refuse a seat to a player below the game's minimum rating or reliability (403)."""
    need = JoinRequirement.objects.filter(game=game).first()
    if need is None:
        return
    if need.min_rating is not None:
        have = rating_of(user).ordinal
        if have < need.min_rating:
            raise PermissionError(
                f"this game needs a rating of at least {need.min_rating:g}; yours is {have:.1f}"
            )
    if need.min_reliability is not None:
        have_percent = reliability(user).percent
        if have_percent < need.min_reliability:
            raise PermissionError(
                f"this game needs a reliability of at least {need.min_reliability}%; "
                f"yours is {have_percent}%"
            )


def set_requirements(
    game: Game, by: AbstractBaseUser, *, min_rating: float | None, min_reliability: int | None
) -> JoinRequirement:
    """The moderator sets what joining needs while the game forms (seats taken stay)."""
    if not game.is_moderator(by):
        raise PermissionError("only the moderator may do this")
    if game.status != Game.Status.FORMING:
        raise ValueError("join requirements can be changed only while the game forms")
    if min_reliability is not None and not 0 <= min_reliability <= 100:
        raise ValueError("minimum reliability is a percentage from 0 to 100")
    need, _ = JoinRequirement.objects.update_or_create(
        game=game, defaults={"min_rating": min_rating, "min_reliability": min_reliability}
    )
    return need
