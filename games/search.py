"""Game search (issue #19 item 3): one filter set for the API's game list and the lobby's
"Find games" page, so that both answer the same question the same way."""

from __future__ import annotations

import django_filters
from django import forms
from django.core.paginator import Paginator
from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import extend_schema_field
from rest_framework.exceptions import ValidationError

import adjudication

from . import engine, variant_words, visibility
from .limits import MAX_PHASE_MINUTES
from .models import Game, Membership
from .query import repeated

RUNNING = (Game.Status.ACTIVE, Game.Status.PAUSED)


def _seats() -> Case:
    """How many powers the game's variant has, from the engine's own description."""
    counts = [
        When(variant=v, then=Value(len(adjudication.load(v).playable_powers)))
        for v in engine.variant_ids()
    ]
    return Case(*counts, default=Value(0), output_field=IntegerField())


def with_seats(games: QuerySet[Game]) -> QuerySet[Game]:
    """Games annotated with ``seats`` (powers) and ``taken`` (seats held, bots included)."""
    held = (
        Membership.objects.filter(game=OuterRef("pk"))
        .exclude(status=Membership.Status.REPLACED)
        .exclude(power="", game__status__in=RUNNING)
        .order_by()
        .values("game")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return games.annotate(seats=_seats(), taken=Coalesce(Subquery(held), 0))


YES_NO = [("true", _("yes")), ("false", _("no"))]
MIN_RATING, MAX_RATING = -100, 100


@extend_schema_field({"type": "string", "enum": ["true", "false"]})
class YesNoFilter(django_filters.ChoiceFilter):
    """``true`` or ``false``, and nothing else: django-filter's own boolean reads any other word
    as "no filter", so that a typo would silently widen the search."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, choices=YES_NO, **kwargs)

    def filter(self, qs, value):
        if value in ("", None):
            return qs
        return super().filter(qs, yes(value))


class BoundedNumberFilter(django_filters.NumberFilter):
    """A number within the bounds it is given: django-filter's own bound (1e50) is left out,
    which said a second, contradicting limit beside ours for a number past both (``1e999``)."""

    def get_max_validator(self) -> None:
        return None


@extend_schema_field({"type": "integer", "minimum": 0, "maximum": MAX_PHASE_MINUTES})
class MinutesFilter(BoundedNumberFilter):
    """A phase length in whole minutes, within what a game may set."""

    field_class = forms.IntegerField

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, min_value=0, max_value=MAX_PHASE_MINUTES, **kwargs)


@extend_schema_field({"type": "string", "minLength": 1, "maxLength": 100})
class NameFilter(django_filters.CharFilter):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, lookup_expr="icontains", max_length=100, **kwargs)


class StrictFilters(DjangoFilterBackend):
    """django-filter's backend for the API, reading each filter as the schema states it: one
    value of its type. A filter given empty (``?open_seats=``, ``?status=``) was read as no
    filter, and one given twice as its last value, so that a client's slip silently widened
    or changed the search. Both are a 400 naming the filter. (The "Find games" page sends its
    unset fields empty and reads them as "any", as a form does.)"""

    def get_filterset_kwargs(self, request, queryset, view):
        errors = {}
        for name in self.get_filterset_class(view, queryset).base_filters:
            values = request.query_params.getlist(name)
            if len(values) > 1:
                errors[name] = [repeated(len(values))]
            elif values == [""]:
                errors[name] = ["empty: give a value, or leave it out to search every game"]
        if errors:
            raise ValidationError(errors)
        return super().get_filterset_kwargs(request, queryset, view)


def yes(value: str | bool) -> bool:
    """A YesNoFilter's value (a method filter is handed the text itself)."""
    return value in (True, "true")


class GameFilter(django_filters.FilterSet):
    """Filters of the game list; every one optional, all of them combined."""

    name = NameFilter(label=_("Name contains"))
    variant = django_filters.ChoiceFilter(
        choices=[(v, variant_words.variant_name(v)) for v in engine.variant_ids()],
        label=_("Variant"),
    )
    status = django_filters.ChoiceFilter(choices=Game.Status.choices, label=_("Status"))
    press = django_filters.ChoiceFilter(choices=Game.Press.choices, label=_("Press"))
    min_phase_minutes = MinutesFilter(
        field_name="movement_minutes",
        lookup_expr="gte",
        label=_("Movement phases of at least (minutes)"),
    )
    max_phase_minutes = MinutesFilter(
        field_name="movement_minutes",
        lookup_expr="lte",
        label=_("Movement phases of at most (minutes)"),
    )
    open_seats = YesNoFilter(
        method="filter_open_seats",
        label=_("Open seats"),
        help_text=_(
            "Yes: a forming game with a free seat, or a running one with a power in "
            "civil disorder, played by a bot, or never taken."
        ),
    )
    bots = YesNoFilter(
        method="filter_bots",
        label=_("Bots"),
        help_text=_("Yes: bots play or will fill seats; no: people only."),
    )
    max_min_rating = BoundedNumberFilter(
        method="filter_rating",
        min_value=MIN_RATING,
        max_value=MAX_RATING,
        label=_("Joinable with a rating of"),
        help_text=_("Games whose minimum rating to join is at most this, or have none."),
    )
    public = YesNoFilter(label=_("Public (anyone may watch)"))
    anonymous = YesNoFilter(label=_("Anonymous"))

    class Meta:
        model = Game
        fields = ["name", "variant", "status", "press", "public", "anonymous"]

    @extend_schema_field({"type": "string", "enum": ["true", "false"]})
    def filter_open_seats(self, games: QuerySet[Game], name: str, value: bool) -> QuerySet[Game]:
        games = with_seats(games)
        taken_over = Membership.objects.filter(game=OuterRef("pk")).filter(
            Q(bot=True) | Q(status=Membership.Status.CIVIL_DISORDER)
        )
        forming_open = Q(status=Game.Status.FORMING, taken__lt=F("seats"))
        running_open = Q(status__in=RUNNING) & (
            Q(taken__lt=F("seats")) | Q(Exists(taken_over.exclude(status="replaced")))
        )
        wanted = forming_open | running_open
        return games.filter(wanted) if yes(value) else games.exclude(wanted)

    @extend_schema_field({"type": "string", "enum": ["true", "false"]})
    def filter_bots(self, games: QuerySet[Game], name: str, value: bool) -> QuerySet[Game]:
        seated = Membership.objects.filter(game=OuterRef("pk"), bot=True).exclude(
            status=Membership.Status.REPLACED
        )
        with_bots = Q(bots_fill_empty=True) | Q(bots_take_civil_disorder=True) | Q(Exists(seated))
        return games.filter(with_bots) if yes(value) else games.exclude(with_bots)

    @extend_schema_field({"type": "number", "minimum": MIN_RATING, "maximum": MAX_RATING})
    def filter_rating(self, games: QuerySet[Game], name: str, value) -> QuerySet[Game]:
        return games.filter(
            Q(requirement__isnull=True)
            | Q(requirement__min_rating__isnull=True)
            | Q(requirement__min_rating__lte=float(value))
        )


# -- the "Find games" page -------------------------------------------------------------------

PAGE_SIZE = 20


def find_games(request: HttpRequest) -> HttpResponse:
    """The lobby's search: the API's filters as a form, the games the viewer may open, in pages
    (a signed-out visitor finds public games to watch)."""
    games = Game.objects.filter(visibility.watchable(request.user)).select_related(
        "creator", "current_phase"
    )
    search = GameFilter(request.GET or None, queryset=games)
    found = search.qs if search.is_bound and search.is_valid() else games.none()
    if not search.is_bound:
        found = games
    page = Paginator(found.order_by("-created", "-pk"), PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = {"search": search, "page": page, "query": query.urlencode()}
    return render(request, "games/find.html", context)
