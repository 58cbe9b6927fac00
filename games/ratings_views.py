"""Ratings on the site and in the API: player pages, leaderboards, a game's join requirements."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from . import engine, ratings, usernames, visibility
from .errors import error_page
from .forms import OneValueEach
from .input_types import StrictInput
from .models import Game, JoinRequirement
from .query import once

# -- API ----------------------------------------------------------------------------------


class RatingPointSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    variant = serializers.CharField()
    rank = serializers.IntegerField()
    rating = serializers.FloatField()
    date = serializers.DateTimeField()


class PlayerGameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    variant = serializers.CharField()
    power = serializers.CharField()
    status = serializers.CharField()
    seat = serializers.CharField()
    result = serializers.CharField(allow_null=True)
    rank = serializers.IntegerField(allow_null=True)
    rating_change = serializers.FloatField(allow_null=True)


class VariantRatingSerializer(serializers.Serializer):
    rating = serializers.FloatField()
    games = serializers.IntegerField()


class RatedPlayerSerializer(serializers.Serializer):
    """A player's rating (mu - 3 sigma, OpenSkill's two numbers beside it) and reliability."""

    username = serializers.CharField()
    rating = serializers.FloatField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    reliability = serializers.IntegerField(help_text="Percent of due phases with orders in.")
    civil_disorders = serializers.IntegerField()


class PlayerSerializer(RatedPlayerSerializer):
    """A player's overall rating, per-variant ratings, reliability, rating after each rated
    game, and games (seats in running anonymous games left out)."""

    rated_games = serializers.IntegerField()
    variants = serializers.DictField(child=VariantRatingSerializer())
    phases_due = serializers.IntegerField()
    phases_ordered = serializers.IntegerField()
    history = RatingPointSerializer(many=True)
    games = PlayerGameSerializer(many=True)


class LeaderboardRowSerializer(RatedPlayerSerializer):
    place = serializers.IntegerField()
    games = serializers.IntegerField()


class RequirementSerializer(StrictInput, serializers.Serializer):
    """What a player needs to join: overall rating (mu - 3 sigma) and reliability in percent;
    null for no minimum. The moderator changes them while the game forms."""

    min_rating = serializers.IntegerField(min_value=-100, max_value=100, allow_null=True)
    min_reliability = serializers.IntegerField(min_value=0, max_value=100, allow_null=True)


def _variant_param(value: str | None) -> str:
    """The ``variant`` query parameter: blank for overall, else a variant the engine knows."""
    if not value:
        return ratings.OVERALL
    if value not in engine.variant_ids():
        raise exceptions.ValidationError({"variant": [f"unknown variant; one of {_ids()}"]})
    return value


def _ids() -> str:
    return ", ".join(engine.variant_ids())


class PlayerView(APIView):
    @extend_schema(responses=PlayerSerializer, summary="A player's ratings and reliability")
    def get(self, request: Request, username: str) -> Response:
        user = usernames.user_named(username)
        if user is None:
            raise exceptions.NotFound("no such player")
        return Response(PlayerSerializer(ratings.player_summary(user, request.user)).data)


class LeaderboardView(GenericAPIView):
    """A list like the API's others, in pages (``games.pagination.Pages``); the places are
    the whole board's, so a tie across a page's edge keeps its place."""

    serializer_class = LeaderboardRowSerializer

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "variant",
                OpenApiTypes.STR,
                description="A variant id; left out or empty: ratings over every variant.",
            )
        ],
        responses={200: LeaderboardRowSerializer(many=True), 400: OpenApiTypes.OBJECT},
        summary="The best 100 ratings, in pages; equal ratings share a place",
        description="The best 100 ratings (μ − 3σ), best first, 20 a page. Ratings equal as "
        "shown (two decimals) share a place and the next place skips one for each: 1, 2, 2, 4.",
    )
    def get(self, request: Request) -> Response:
        variant = _variant_param(once(request, "variant"))
        page = ratings.with_reliability(self.paginate_queryset(ratings.ranking(variant)))
        return self.get_paginated_response(LeaderboardRowSerializer(page, many=True).data)


class RequirementView(APIView):
    def _game(self, pk: int) -> Game:
        return visibility.game_or_404(pk, self.request.user)  # another's sandbox: 404

    @extend_schema(responses=RequirementSerializer, summary="What joining a game needs")
    def get(self, request: Request, pk: int) -> Response:
        need = JoinRequirement.objects.filter(game=self._game(pk)).first()
        data = {"min_rating": None, "min_reliability": None}
        if need is not None:
            data = {"min_rating": need.min_rating, "min_reliability": need.min_reliability}
        return Response(RequirementSerializer(data).data)

    @extend_schema(
        request=RequirementSerializer,
        responses=RequirementSerializer,
        summary="Set what joining a game needs (its moderator, while it forms)",
    )
    def put(self, request: Request, pk: int) -> Response:
        game = self._game(pk)
        if not game.is_moderator(request.user):  # before the body: a stranger learns nothing
            raise exceptions.PermissionDenied("only the moderator may do this")
        serializer = RequirementSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            need = ratings.set_requirements(game, request.user, **serializer.validated_data)
        except ValueError as error:
            raise exceptions.ValidationError({"detail": str(error)}) from error
        except PermissionError as error:
            raise exceptions.PermissionDenied(str(error)) from error
        return Response(
            RequirementSerializer(
                {"min_rating": need.min_rating, "min_reliability": need.min_reliability}
            ).data
        )


# -- pages --------------------------------------------------------------------------------


@login_required
def player_page(request: HttpRequest, username: str) -> HttpResponse:
    """A player's games, results, reliability and rating over time."""
    user = usernames.user_named(username)
    if user is None:
        raise Http404("no such player")
    summary = ratings.player_summary(user, request.user)
    chart = mark_safe(ratings.history_chart(ratings.rating_points(user)))  # numbers only
    return render(request, "games/player.html", {"player": summary, "chart": chart})


@login_required
def leaderboard_page(request: HttpRequest) -> HttpResponse:
    """The best ratings, overall or in one variant (``?variant=``)."""
    variant = request.GET.get("variant") or ratings.OVERALL
    if variant and variant not in engine.variant_ids():
        raise Http404("no such variant")
    context = {
        "rows": ratings.leaderboard(variant),
        "variant": variant,
        "variants": engine.variant_ids(),
    }
    return render(request, "games/leaderboard.html", context)


class RequirementForm(OneValueEach, forms.Form):
    min_rating = forms.IntegerField(
        label=_("Minimum rating"),
        required=False,
        min_value=-100,
        max_value=100,
        help_text=_("Overall rating (μ − 3σ); a new player has 0. Empty: none."),
    )
    min_reliability = forms.IntegerField(
        label=_("Minimum reliability (%)"),
        required=False,
        min_value=0,
        max_value=100,
        help_text=_("Share of phases with orders in. Empty: none."),
    )


@login_required
def requirements_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The moderator's form for what joining the game needs, while it forms."""
    game = visibility.game_or_404(pk, request.user)  # another's sandbox: 404, not 403
    if not game.is_moderator(request.user):
        return error_page(request, 403, _("Only the moderator may do this."))
    need = JoinRequirement.objects.filter(game=game).first()
    initial = {
        "min_rating": need and need.min_rating,
        "min_reliability": need and need.min_reliability,
    }
    form = RequirementForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            ratings.set_requirements(game, request.user, **form.cleaned_data)
        except ValueError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("Join requirements saved."))
            return redirect("game", pk=game.pk)
    return render(request, "games/requirements.html", {"game": game, "form": form})
