"""Webhooks (the moderator's, per game) and web push subscriptions (each player's), in the API
and on the pages. The sending is ``games.reach``."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Mapping

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from . import kept_input, reach, visibility
from .errors import error_page
from .input_types import LanguageField, StrictInput
from .models import Game, PushSubscription, Webhook
from .parsers import JSONParser
from .signed_out import signed_in_to_act


class WebhookSerializer(StrictInput, serializers.ModelSerializer):
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=Webhook.EVENTS),
        required=False,
        max_length=len(Webhook.EVENTS),
        help_text="processed, deadline (an hour before), over; empty or left out: every one.",
    )
    language = LanguageField(
        choices=settings.LANGUAGES,
        required=False,
        help_text="The language of the posts (a channel is shared: one language for all); "
        "any case.",
    )
    secret = serializers.CharField(
        read_only=True,
        allow_null=True,
        help_text="Signs each body; in the answer that adds the hook only, null ever after.",
    )

    class Meta:
        model = Webhook
        fields = ["id", "url", "events", "language", "secret", "last_status", "failures", "created"]
        read_only_fields = ["id", "secret", "last_status", "failures", "created"]

    def validate_url(self, value: str) -> str:
        try:
            reach.check_url(value, resolve=False)  # resolved again at every delivery
        except reach.UnsafeAddress as error:
            raise serializers.ValidationError(str(error)) from error
        return value

    def to_representation(self, hook: Webhook) -> dict:
        """The secret is shown once, in the answer that adds the hook; never again after."""
        data = super().to_representation(hook)
        if not self.context.get("new"):
            data["secret"] = None
        return data


def _moderated(pk: int, user) -> Game:
    game = visibility.game_or_404(pk, user)  # another's sandbox: 404, not 403
    if not game.is_moderator(user):
        raise exceptions.PermissionDenied("only the moderator may manage the game's webhooks")
    return game


@transaction.atomic
def add_webhook(game: Game, url: str, events: list[str], language: str | None = None) -> Webhook:
    """A new webhook; it posts in ``language``, or the language of the request that adds it.
    The game's row is locked while the hooks are counted, so that hooks added at once cannot
    pass the limit together."""
    Game.objects.select_for_update().filter(pk=game.pk).first()
    if game.sandbox or game.is_over:  # a hook that could never fire, and its secret
        raise serializers.ValidationError(
            {"url": [_("a practice game or a game that is over sends no webhooks")]}
        )
    if game.webhooks.count() >= reach.MAX_HOOKS_PER_GAME:
        raise serializers.ValidationError(
            {"url": [f"at most {reach.MAX_HOOKS_PER_GAME} webhooks a game"]}
        )
    if language not in dict(settings.LANGUAGES):
        language = translation.get_language()
    if language not in dict(settings.LANGUAGES):
        language = settings.LANGUAGE_CODE
    return game.webhooks.create(
        url=url, events=list(dict.fromkeys(events)), secret=reach.new_secret(), language=language
    )


class WebhooksView(APIView):
    """A game's webhooks: the moderator lists and adds them (the secret signs each body)."""

    @extend_schema(responses=WebhookSerializer(many=True), summary="A game's webhooks")
    def get(self, request: Request, pk: int) -> Response:
        game = _moderated(pk, request.user)
        return Response(WebhookSerializer(game.webhooks.all(), many=True).data)

    @extend_schema(
        request=WebhookSerializer, responses={201: WebhookSerializer}, summary="Add a webhook"
    )
    def post(self, request: Request, pk: int) -> Response:
        game = _moderated(pk, request.user)
        data = WebhookSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        valid = data.validated_data
        hook = add_webhook(game, valid["url"], valid.get("events", []), valid.get("language"))
        shown = WebhookSerializer(hook, context={"new": True}).data
        return Response(shown, status=status.HTTP_201_CREATED)


class WebhookView(APIView):
    @extend_schema(responses={204: None}, summary="Remove a webhook")
    def delete(self, request: Request, pk: int, hook: int) -> Response:
        game = _moderated(pk, request.user)
        get_object_or_404(game.webhooks, pk=hook).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class PushKeysSerializer(StrictInput, serializers.Serializer):
    p256dh = serializers.CharField(
        max_length=200, help_text="The browser's P-256 public key, base64url (65 bytes)."
    )
    auth = serializers.CharField(
        max_length=100, help_text="The browser's auth secret, base64url (16 bytes)."
    )

    def validate_p256dh(self, value: str) -> str:
        key = _base64url(value)
        if key is None or len(key) != 65 or key[0] != 4:
            raise serializers.ValidationError(
                "must be the browser's P-256 public key: 65 bytes, base64url"
            )
        return value

    def validate_auth(self, value: str) -> str:
        secret = _base64url(value)
        if secret is None or len(secret) != 16:
            raise serializers.ValidationError(
                "must be the browser's auth secret: 16 bytes, base64url"
            )
        return value


def _base64url(text: str) -> bytes | None:
    """The bytes of base64url text (padding optional), or None when it is not that."""
    if not re.fullmatch(r"[A-Za-z0-9_-]+={0,2}", text):
        return None
    try:
        bare = text.rstrip("=")
        return base64.urlsafe_b64decode(bare + "=" * (-len(bare) % 4))
    except (ValueError, binascii.Error):
        return None


class PushEndpointSerializer(StrictInput, serializers.Serializer):
    """Which browser's subscription to end: its endpoint, as given when opting in."""

    endpoint = serializers.CharField(max_length=1000)


class PushSubscriptionSerializer(StrictInput, serializers.Serializer):
    """The browser's PushSubscription, as its toJSON() gives it."""

    endpoint = serializers.URLField(max_length=1000)
    keys = PushKeysSerializer()
    expirationTime = serializers.IntegerField(  # noqa: N815 (the browser's own name)
        required=False, allow_null=True, min_value=0, max_value=2**53
    )

    def validate_endpoint(self, value: str) -> str:
        try:
            reach.check_url(value, resolve=False)  # resolved again at every delivery
        except reach.UnsafeAddress as error:
            raise serializers.ValidationError(str(error)) from error
        return value


class PushKeyView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses=inline_serializer("PushKey", {"public_key": serializers.CharField()}),
        summary="The server's VAPID public key to subscribe with (empty: push is off)",
    )
    def get(self, request: Request) -> Response:
        return Response({"public_key": settings.VAPID_PUBLIC_KEY})


class PushOff(exceptions.APIException):
    """A subscription while this server sends no push (no VAPID key): stored, it would look
    like a promise the server never keeps."""

    status_code = status.HTTP_409_CONFLICT
    default_detail = "web push is off on this server (it has no VAPID key); nothing was stored"
    default_code = "push_off"


class PushSubscriptionsView(APIView):
    parser_classes = [JSONParser]  # a subscription is nested JSON, as the browser makes it

    @extend_schema(
        request=PushSubscriptionSerializer,
        responses={201: None, 409: OpenApiTypes.OBJECT},
        summary="Opt in to web push from this browser",
    )
    def post(self, request: Request) -> Response:
        data = PushSubscriptionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if not reach.vapid_ready():
            raise PushOff()
        keys = data.validated_data["keys"]
        PushSubscription.objects.update_or_create(
            endpoint=data.validated_data["endpoint"],
            defaults={"user": request.user, "p256dh": keys["p256dh"], "auth": keys["auth"]},
        )
        return Response(status=status.HTTP_201_CREATED)

    @extend_schema(
        request=PushEndpointSerializer,
        responses={204: None},
        summary="Opt out of web push (one browser, or all of yours)",
        description='With a body {"endpoint": "https://..."}, the subscription of that '
        "browser, as it was sent when opting in; with no body at all, every subscription of "
        "yours (an OpenAPI document lists no body for a DELETE). Answers 204 whether or not "
        "anything was subscribed.",
    )
    def delete(self, request: Request) -> Response:
        mine = PushSubscription.objects.filter(user=request.user)
        if not request.body:
            mine.delete()
            return Response(status=status.HTTP_204_NO_CONTENT)
        if not isinstance(request.data, Mapping):
            raise serializers.ValidationError({"detail": 'the body is an object: {"endpoint"}'})
        data = PushEndpointSerializer(data=request.data)
        data.is_valid(raise_exception=True)  # a wrong type, another key, none named: a 400
        mine.filter(endpoint=data.validated_data["endpoint"]).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


# -- pages ---------------------------------------------------------------------------------


@signed_in_to_act(back="moderate")
@require_POST
def webhook_add(request: HttpRequest, pk: int) -> HttpResponse:
    """The moderator console's form: add a webhook (its secret is shown once, on the console)."""
    game = visibility.game_or_404(pk, request.user)  # another's sandbox: 404, not 403
    if not game.is_moderator(request.user):
        return error_page(request, 403, _("Only the moderator may do this."))
    # As sent: an address cut to the column's 500 characters was checked and stored, and
    # the hook posted to another address than the one given.
    given = {"url": request.POST.get("url", "")}
    if request.POST.get("language"):
        given["language"] = request.POST["language"]
    data = WebhookSerializer(data=given)
    if not data.is_valid():
        return _webhook_refused(request, pk, [str(e) for v in data.errors.values() for e in v])
    try:
        hook = add_webhook(
            game, data.validated_data["url"], [], data.validated_data.get("language")
        )
    except serializers.ValidationError as error:
        return _webhook_refused(request, pk, [str(e) for e in error.detail["url"]])
    messages.success(
        request,
        _("Webhook added. Its bodies are signed with this secret: %(secret)s")
        % {"secret": hook.secret},
    )
    return redirect("moderate", pk=pk)


def _webhook_refused(request: HttpRequest, pk: int, said: list[str]) -> HttpResponse:
    """The console again, the address typed back in its box and why it was refused beside
    the form (an adversary's finding: the box came back empty, the reason at the top)."""
    url = request.POST.get("url", "")
    # Past the box's 500 characters it is not given back cut short, as if that were it.
    url = "".join(c for c in url if c.isprintable()) if len(url) <= 500 else ""
    language = request.POST.get("language", "")[:20]
    kept = {"url": url, "language": language, "said": [t[:300].rstrip(". ") for t in said][:5]}
    kept_input.keep(request, "webhook-refused", pk, kept)
    return redirect(reverse("moderate", args=[pk]) + "#webhooks")


@login_required
@require_POST
def webhook_remove(request: HttpRequest, pk: int, hook: int) -> HttpResponse:
    game = visibility.game_or_404(pk, request.user)  # another's sandbox: 404, not 403
    if not game.is_moderator(request.user):
        return error_page(request, 403, _("Only the moderator may do this."))
    game.webhooks.filter(pk=hook).delete()
    messages.success(request, _("Webhook removed."))
    return redirect("moderate", pk=pk)
