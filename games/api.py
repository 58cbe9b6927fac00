"""The REST API. Views check who is asking and translate; ``games.services`` does the work."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib.auth import get_user_model, update_session_auth_hash
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import (
    RequestDataTooBig,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils import translation
from django.utils.translation import gettext_lazy
from django.views.defaults import page_not_found
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework import exceptions, mixins, serializers, status, viewsets
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.decorators import action
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.permissions import SAFE_METHODS, AllowAny, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView
from rest_framework.views import exception_handler as drf_exception_handler

from . import engine, moderation, parsers, preconditions, reason_words, services, visibility
from . import events as live
from .input_types import StrictInput
from .limits import ascii_index
from .models import Game, Membership, NotificationSettings
from .phase_guide import either
from .query import once
from .renderers import JSONRenderer
from .schema import NO_NUL
from .search import GameFilter, StrictFilters
from .seats import SEAT_OF_USER, seat_from_row
from .serializers import (
    AuditEntrySerializer,
    GameCreateSerializer,
    GameSerializer,
    JoinSerializer,
    MessageSerializer,
    ModerationSerializer,
    ModeratorActionSerializer,
    NoBodySerializer,
    NotificationSettingsSerializer,
    OptionsSerializer,
    OrderSerializer,
    OrdersInputSerializer,
    PasswordChangeSerializer,
    PaymentSerializer,
    PhaseSerializer,
    ReadySerializer,
    SignupSerializer,
    VariantSerializer,
    VoteSerializer,
    order_answers,
    orders_input,
)
from .throttles import ScopedThrottle, SignInThrottle

MODERATOR_ACTIONS = tuple(moderation.ACTIONS)


class OrdersChanged(exceptions.APIException):
    status_code = status.HTTP_412_PRECONDITION_FAILED
    default_detail = "your orders were changed elsewhere; reload them and try again"


class PhaseChanged(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "this was meant for another phase than the current one"


class KeyReused(exceptions.APIException):
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_detail = "this Idempotency-Key named another request"


# The answers other than success that an operation can give, and why.
ERRORS = {
    "400": "The request is invalid or breaks a rule of the game; the body says which field.",
    "401": "Not signed in, or the token is wrong.",
    "403": "Not allowed to you, or a signed-in browser session sent no CSRF token.",
    "404": "No such game, phase or variant, or no such page of a list.",
    "409": "Meant for another phase than the current one (a retry after it was processed), or, "
    "for a moderator's deadline change, for a deadline that has moved since (seen_deadline).",
    "413": "The request body is too large.",
    "415": "The body is not JSON, form data or multipart.",
    "412": "If-Match named a version of your orders other than the one saved now: they were "
    "changed elsewhere (another tab or device) since; nothing was saved. GET them again. Or "
    "If-None-Match named the version saved now (with *: orders are saved).",
    "422": "The Idempotency-Key was used before for another payment (payee or amount).",
    "429": "Too many requests; the Retry-After header says when to try again.",
}
THROTTLED = {("/api/auth/token/", "post"), ("/api/auth/signup/", "post")}
PHASE_BOUND = {("/api/games/{id}/ready/", "post")}
PHASE_BOUND |= {("/api/games/{id}/moderation/{action_name}/", "post")}
PHASE_BOUND |= {("/api/games/{id}/orders/", "put"), ("/api/games/{id}/orders/check/", "post")}
PHASE_BOUND |= {("/api/games/{id}/messages/", "post"), ("/api/games/{id}/payments/", "post")}
PHASE_BOUND |= {("/api/sandbox/{id}/payments/{power}/", "post")}
PHASE_BOUND |= {("/api/sandbox/{id}/orders/{power}/", "put"), ("/api/sandbox/{id}/{step}/", "post")}
THROTTLED |= {("/api/games/{id}/orders/", "put"), ("/api/games/", "post")}
THROTTLED |= {("/api/games/{id}/join/", "post"), ("/api/games/{id}/messages/", "post")}
THROTTLED |= {("/api/games/{id}/payments/", "post")}
THROTTLED |= {("/api/games/{id}/orders/check/", "post"), ("/api/games/{id}/options/", "get")}
THROTTLED |= {("/api/sandbox/", "post"), ("/api/sandbox/{id}/orders/{power}/", "put")}
THROTTLED |= {("/api/sandbox/{id}/payments/{power}/", "post")}
# If-Match as games.preconditions reads it: * (blanks around it allowed), or a list of
# entity-tags (W/ or not), commas and blanks between and around them.
_TAG = r'(W/)?"[\x21\x23-\x7e\x80-\xff]*"'
IF_MATCH = OpenApiParameter(
    "If-Match",
    str,
    OpenApiParameter.HEADER,
    pattern=rf"^([ \t]*\*[ \t]*|[ \t,]*{_TAG}([ \t]*,[ \t,]*{_TAG})*[ \t,]*)$",
    description="Save only if your saved orders are still this version: the ETag a GET or "
    "PUT of them answered (W/ or not; several, comma-separated, pass if any is current; * "
    "for any). Otherwise nothing is saved and the answer is 412. Without it, the PUT "
    "replaces whatever is saved.",
)
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    str,
    OpenApiParameter.HEADER,
    pattern=IF_MATCH.pattern,
    description="Save only if your saved orders are not this version (several, comma-"
    "separated: none of them), or with * only if none are saved yet; otherwise nothing is "
    "saved and the answer is 412.",
)
# On a read, a value that is no list of entity-tags is not refused: it sets no condition.
IF_NONE_MATCH_READ = OpenApiParameter(
    "If-None-Match",
    str,
    OpenApiParameter.HEADER,
    description="304 with no body if your orders are still this version (an ETag, or several "
    "comma-separated).",
)
ORDERS_ETAG = OpenApiParameter(
    "ETag",
    str,
    OpenApiParameter.HEADER,
    response=[200],
    description='A player\'s own orders: their version, weak (W/"…"), to send back in '
    "If-Match. Not sent to a moderator who does not play.",
)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    pattern=r"^[!-~]([ -~]{0,62}[!-~])?$",  # 1 to 64 printable ASCII, no blank ends
    description="Your name for this payment: a repeat with the same key (a retry, "
    "a double click) pays nothing more and answers the first payment with 200; the same key "
    "with another payee or amount is refused with 422.",
)


def document_errors(result: dict, generator, request, public: bool) -> dict:
    """drf-spectacular hook: add the error answers to every operation, so that a client (and
    schemathesis) finds every status the API can give in its schema."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas["Error"] = {
        "type": "object",
        "properties": {"detail": {"type": "string"}},
        "required": ["detail"],
    }
    schemas["ValidationError"] = {
        "type": "object",
        "description": "What is wrong, by field name (or detail).",
        "additionalProperties": {},
    }
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            unsafe = method in ("post", "put", "patch", "delete")
            security = operation.get("security", [])
            codes = []
            if unsafe:
                codes += ["400", "413", "415"]
            if (path, method) in PHASE_BOUND:
                codes.append("409")
            if security:  # a wrong token is refused even where signing in is optional
                codes.append("401")
            if security and (unsafe or {} not in security):
                codes.append("403")
            paged = any(p.get("name") == "page" for p in operation.get("parameters", []))
            if paged and not unsafe:
                codes.append("400")  # page_size
            if "{" in path or paged:
                codes.append("404")
            if (path, method) in THROTTLED:
                codes.append("429")
            named = {p.get("name") for p in operation.get("parameters", [])}
            if "Idempotency-Key" in named:
                codes.append("422")
            if "If-Match" in named:
                codes.append("412")
            for code in codes:
                schema = "ValidationError" if code == "400" else "Error"
                operation["responses"].setdefault(
                    code,
                    {
                        "description": ERRORS[code],
                        "content": {
                            "application/json": {
                                "schema": {"$ref": f"#/components/schemas/{schema}"}
                            }
                        },
                    },
                )
    return result


def not_found(request: HttpRequest, exception: Exception | None) -> HttpResponse:
    """The 404 for a URL no route matches: JSON under /api/ as the API's own 404s are, so that
    API clients never get an HTML page; Django's page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found."}, status=404)
    return page_not_found(request, exception)


def exception_handler(exc: Exception, context: dict) -> Response | None:
    """Rule violations from the services are the client's mistake: 400, never 500."""
    if isinstance(exc, services.OrdersChanged):
        exc = OrdersChanged(str(exc))
    elif isinstance(exc, services.PhaseChanged):
        exc = PhaseChanged(str(exc))
    elif isinstance(exc, services.KeyReused):
        exc = KeyReused(str(exc))
    elif isinstance(exc, RequestDataTooBig):  # a multipart field over Django's cap
        exc = parsers.too_large()
    elif isinstance(exc, TooManyFieldsSent | TooManyFilesSent):
        exc = exceptions.ParseError(str(exc))
    elif isinstance(exc, services.GameError):
        exc = exceptions.ValidationError({"detail": str(exc)})
    elif isinstance(exc, PermissionError):
        exc = exceptions.PermissionDenied(str(exc))
    elif isinstance(exc, exceptions.UnsupportedMediaType):
        exc = _unsupported(exc, context.get("request"))
    elif isinstance(exc, exceptions.NotAuthenticated):
        # DRF's "Authentication credentials were not provided." told a player whose page had
        # been signed out in another tab nothing they could act on.
        exc = exceptions.NotAuthenticated(_not_signed_in(context.get("request")))
    return drf_exception_handler(exc, context)


NOT_SIGNED_IN = gettext_lazy(
    "You are not signed in: sign in again (reload the page), or send an API token "
    "(Authorization: Token …)."
)
# What a game page shows (its scripts call the API with the browser's session): a player
# signed out in another tab is told what to do, not about tokens.
SIGNED_OUT_PAGE = gettext_lazy(
    "You have been signed out, perhaps in another tab: reload the page and sign in again."
)


def _not_signed_in(request: Request | None) -> str:
    """A browser (it holds the site's CSRF cookie and sends no token) is told as a page
    tells a person; any other client how to sign in to the API."""
    if (
        request is not None
        and "Authorization" not in request.headers
        and settings.CSRF_COOKIE_NAME in request.COOKIES
    ):
        return str(SIGNED_OUT_PAGE)
    return str(NOT_SIGNED_IN)


def _unsupported(
    exc: exceptions.UnsupportedMediaType, request: Request | None
) -> exceptions.UnsupportedMediaType:
    """DRF's 415, saying which types the endpoint reads; and, for a body sent without any
    Content-Type, that none was given (DRF named the type as an empty string)."""
    accepted = [parser.media_type for parser in getattr(request, "parsers", None) or []]
    if not accepted:
        return exc
    given = (getattr(request, "content_type", "") or "").split(";")[0].strip()
    send = "send it as " + either(accepted)
    if not given:
        return exceptions.UnsupportedMediaType("", f"The body has no Content-Type; {send}.")
    shown = json.dumps(given[:100], ensure_ascii=False)
    return exceptions.UnsupportedMediaType(given, f"Unsupported media type {shown}; {send}.")


CURSOR_PATTERN = f"^{live.CURSOR}$"
# One server-sent event as the stream sends it; ``data`` holds the event's JSON.
EVENT_SCHEMA = {
    "type": "object",
    "properties": {
        "event": {
            "type": "string",
            "enum": [
                "phase",
                "clock",
                "powers",
                "orders",
                "press",
                "processed",
                "reset",
                "reconnect",
                "seat",
                "seats",
            ],
            "description": 'seat: the reader\'s own power ({"power": ""} once they no '
            'longer play it); seats: a forming game\'s seats taken ({"taken": n}); powers: '
            "each power's ready, orders in, centres and units, and seating: who plays each "
            "power as the reader may see it, which changes when a seat changes hands.",
        },
        "id": {
            "type": "string",
            "pattern": CURSOR_PATTERN,
            "description": "phase-message: the current phase's index and the id of the last "
            "message sent to this reader (a message's random id, as in the messages list; 0: "
            "none), to send back in Last-Event-ID or since.",
        },
        "data": {"type": "string", "description": "The event's JSON, as text."},
        "retry": {"type": "integer"},
    },
}


class EventStreamNegotiation(BaseContentNegotiation):
    """The event stream is answered as itself; its errors (401, 404, 429) in JSON, whatever
    the client accepts (an EventSource accepts text/event-stream alone)."""

    def select_parser(self, request, parsers):
        return parsers[0] if parsers else None

    def select_renderer(self, request, renderers, format_suffix=None):
        return JSONRenderer(), JSONRenderer.media_type


class JSONErrors:
    """A view whose own answers are not JSON (the schema in YAML, the docs' HTML) that refuses
    in JSON, as every other view under /api/ does: the schema's 405 to a POST was its error
    object written as OpenAPI YAML, ``string:`` and ``code:`` and all. The answer to OPTIONS
    (DRF's description of the view) is JSON too: the docs' HTML renderer, given it with no
    template, was a 500."""

    def _in_json(self, response):
        self.request.accepted_renderer = JSONRenderer()
        self.request.accepted_media_type = JSONRenderer.media_type
        return response

    def handle_exception(self, exc):
        return self._in_json(super().handle_exception(exc))

    def options(self, request, *args, **kwargs):
        return self._in_json(super().options(request, *args, **kwargs))


class SchemaView(JSONErrors, SpectacularAPIView):
    pass


class DocsView(JSONErrors, SpectacularSwaggerSplitView):
    pass


class TokenSerializer(StrictInput, AuthTokenSerializer):
    """A username and password for a token (DRF's fields, read strictly). The name is read
    as accounts store it (NFKC, as Django's sign-in form does): ``ｚｅｔａ１`` is ``zeta1``."""

    def validate(self, attrs: dict) -> dict:
        attrs["username"] = AbstractBaseUser.normalize_username(attrs.get("username") or "")
        return super().validate(attrs)


class TokenView(ObtainAuthToken):
    """DRF's token view (username and password for a token), rate limited; DELETE ends the
    caller's token."""

    serializer_class = TokenSerializer
    throttle_classes = [SignInThrottle]
    throttle_scope = "auth"
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES  # DRF's view names its own, unbounded

    def get_permissions(self) -> list:
        """Anyone may ask for a token; ending one takes being signed in."""
        return [IsAuthenticated()] if self.request.method == "DELETE" else [AllowAny()]

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request) -> Response:
        """End the token the caller signs in with (or their session's account's): a leaked
        token stops working. POST asks for a new one."""
        Token.objects.filter(user=request.user).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordView(APIView):
    """Change the account's password, as the settings page does: the account's other sessions
    and its token end, and the answer carries a new token."""

    throttle_classes = [SignInThrottle]
    throttle_scope = "auth"

    @extend_schema(
        request=PasswordChangeSerializer,
        responses={200: inline_serializer("PasswordChanged", {"token": serializers.CharField()})},
    )
    def post(self, request: Request) -> Response:
        with transaction.atomic():
            # Under the account's row lock: changes sent at once each checked the old password
            # and each answered a token, all but the last one dead.
            user = get_user_model().objects.select_for_update().get(pk=request.user.pk)
            serializer = PasswordChangeSerializer(data=request.data, context={"user": user})
            serializer.is_valid(raise_exception=True)
            user.set_password(serializer.validated_data["new_password"])
            user.save(update_fields=["password"])
            Token.objects.filter(user=user).delete()
            token = Token.objects.create(user=user)
        if request.auth is None:  # signed in by the session: it stays signed in
            update_session_auth_hash(request._request, user)
        return Response({"token": token.key})


class SignupView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = [SignInThrottle]
    throttle_scope = "auth"

    @extend_schema(
        request=SignupSerializer,
        responses={
            201: inline_serializer(
                "SignupResult",
                {"username": serializers.CharField(), "token": serializers.CharField()},
            )
        },
    )
    def post(self, request: Request) -> Response:
        serializer = SignupSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = serializer.save()
        NotificationSettings.for_new_account(user, translation.get_language())
        token = Token.objects.create(user=user)
        return Response({"username": user.username, "token": token.key}, status=201)


class NotificationSettingsView(APIView):
    @extend_schema(responses=NotificationSettingsSerializer)
    def get(self, request: Request) -> Response:
        return Response(NotificationSettingsSerializer(NotificationSettings.of(request.user)).data)

    @extend_schema(request=NotificationSettingsSerializer, responses=NotificationSettingsSerializer)
    def put(self, request: Request) -> Response:
        """Change the settings given; every field is optional (the schema requires none), so
        ``{}`` changes nothing. Documented in the README."""
        serializer = NotificationSettingsSerializer(
            NotificationSettings.of(request.user), data=request.data, partial=True
        )
        serializer.is_valid(raise_exception=True)
        serializer.save()
        return Response(serializer.data)

    @extend_schema(request=NotificationSettingsSerializer, responses=NotificationSettingsSerializer)
    def patch(self, request: Request) -> Response:
        """The same as PUT, which already changes only the fields given."""
        return self.put(request)


class VariantViewSet(viewsets.ViewSet):
    """The variants the engine can adjudicate; the detail is the whole map description."""

    permission_classes = [AllowAny]
    lookup_value_regex = "[a-z0-9-]+"

    @extend_schema(responses=VariantSerializer(many=True))
    def list(self, request: Request) -> Response:
        summaries = []
        for variant_id in engine.variant_ids():
            facts = engine.describe(variant_id)
            summaries.append(
                {key: facts[key] for key in ("id", "name", "powers", "start", "victory_centers")}
            )
        return Response(summaries)

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def retrieve(self, request: Request, pk: str) -> Response:
        if pk not in engine.variant_ids():
            raise exceptions.NotFound(f"unknown variant {pk!r}")
        return Response({**engine.describe(pk), "option_schema": engine.option_schema(pk)})


def _seat(game: Game, user) -> Membership:
    membership = game.membership_of(user)
    if membership is None or not membership.power:
        raise exceptions.PermissionDenied("you do not play a power in this game")
    return membership


def _player_or_moderator(game: Game, user, *, spectators: bool = False) -> None:
    """``spectators``: anyone may read this of a public game (visibility says how much)."""
    if spectators and game.public:
        return
    if game.membership_of(user) is None and not game.is_moderator(user):
        raise exceptions.PermissionDenied("only the game's players and moderator may see this")


class SignedInOrWatching(BasePermission):
    """Signed in for everything; signed out, only reading (a public game, as the queryset
    allows: any other game is a 404)."""

    WATCHING = {"list", "retrieve", "events", "phases", "phase", "messages", "orders", "payments"}

    def has_permission(self, request: Request, view) -> bool:
        if request.user.is_authenticated:
            return True
        return request.method in SAFE_METHODS and getattr(view, "action", None) in self.WATCHING


class GameViewSet(
    mixins.ListModelMixin,
    mixins.CreateModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet,
):
    """Games: anyone signed in may list, create, look at, join and (before they start) leave
    them; anyone at all may watch a public one."""

    queryset = Game.objects.select_related("creator", "current_phase")
    lookup_value_regex = "[0-9]+"  # ASCII digits only: "²".isdigit() is true too
    permission_classes = [SignedInOrWatching]
    filter_backends = [StrictFilters]
    filterset_class = GameFilter
    throttle_classes = [ScopedThrottle]

    # What fills the database is rate limited per user: games created, joins, press, orders.
    THROTTLE_SCOPES = {
        ("create", "POST"): "games",
        ("join", "POST"): "joins",
        ("messages", "POST"): "press",
        ("orders", "PUT"): "orders",
        ("payments", "POST"): "payments",
        # Checking and listing store nothing, but each runs the engine: a budget of their own,
        # so that checking while typing never spends the saves'.
        ("check_orders", "POST"): "checks",
        ("legal_orders", "GET"): "checks",
    }

    # A game is counted once its settings are valid, and given back when the caps refuse it:
    # only a game made spends the creation budget.
    counted_after_validation = frozenset({("create", "POST")})
    validated = False

    @property
    def throttle_scope(self) -> str | None:
        key = (self.action, self.request.method)
        if key in self.counted_after_validation and not self.validated:
            return None
        return self.THROTTLE_SCOPES.get(key)

    def get_serializer_class(self):
        return GameCreateSerializer if self.action == "create" else GameSerializer

    def get_queryset(self):
        return super().get_queryset().filter(visibility.watchable(self.request.user))

    def filter_queryset(self, queryset):
        """The list's search filters (games.search); a single game is found by its id alone."""
        return super().filter_queryset(queryset) if self.action == "list" else queryset

    @extend_schema(request=GameCreateSerializer, responses={201: GameSerializer})
    def create(self, request: Request) -> Response:
        serializer = GameCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        self.validated = True
        throttle = ScopedThrottle()
        if not throttle.allow_request(request, self):
            self.throttled(request, throttle.wait())
        try:
            game = services.create_game(request.user, capped=True, **serializer.validated_data)
        except services.GameError:
            throttle.refund()  # refused by the caps: nothing made, nothing spent
            raise
        return Response(self._game(game), status=status.HTTP_201_CREATED)

    def _game(self, game: Game) -> dict:
        game = Game.objects.select_related("creator", "current_phase").get(pk=game.pk)
        return GameSerializer(game, context=self.get_serializer_context()).data

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "Last-Event-ID",
                str,
                OpenApiParameter.HEADER,
                pattern=CURSOR_PATTERN,
                description="Resume after this event (the browser sends it by itself).",
            ),
            OpenApiParameter(
                "since", str, pattern=CURSOR_PATTERN, description="Like Last-Event-ID."
            ),
            OpenApiParameter(
                "poll",
                int,
                enum=[1],
                description="1: the events of the moment at once, then the answer ends (no "
                "stream held, so never a 429): for a client refused a stream, polling.",
            ),
        ],
        responses={
            (200, "text/event-stream"): EVENT_SCHEMA,
            (400, "application/json"): OpenApiTypes.OBJECT,
            (429, "application/json"): OpenApiTypes.OBJECT,
        },
    )
    @action(detail=True, methods=["get"], content_negotiation_class=EventStreamNegotiation)
    def events(self, request: Request, pk: str) -> HttpResponse:
        """Server-sent events of what the caller may see: phase, clock, powers' ready and
        orders-in flags, press they may read, their own seat, a forming game's seats taken
        (see games.events). Ends after a few minutes; the client reconnects with
        Last-Event-ID."""
        return live.response(request, self.get_object())

    @extend_schema(request=JoinSerializer, responses=GameSerializer)
    @action(detail=True, methods=["post"])
    def join(self, request: Request, pk: str) -> Response:
        """Join a forming game, or take over a power in civil disorder or played by a bot in a
        running one."""
        game = self.get_object()
        serializer = JoinSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        if "power" in serializer.validated_data:
            services.take_over(game, request.user, serializer.validated_data["power"])
        else:
            prefs = serializer.validated_data.get("preferences", [])
            services.join_game(game, request.user, prefs)
        return Response(self._game(game))

    @extend_schema(request=None, responses=GameSerializer)
    @action(detail=True, methods=["post"])
    def leave(self, request: Request, pk: str) -> Response:
        """Leave a game that has not started, as the game page's Leave button does: a started
        game, or one you are not in (or have just left), is refused with 400."""
        # It takes no body; one sent is read all the same, so that a malformed one, or one
        # with keys, is the 400 every other endpoint gives it rather than a seat given up on a
        # body nobody read.
        NoBodySerializer(data=request.data).is_valid(raise_exception=True)
        game = self.get_object()
        membership = game.membership_of(request.user)
        if membership is None:
            raise exceptions.ValidationError({"detail": services.NOT_IN_GAME})
        services.leave_game(membership)
        return Response(self._game(game))

    @extend_schema(
        methods=["GET"],
        responses={200: OrderSerializer(many=True), 304: None},
        parameters=[IF_NONE_MATCH_READ, ORDERS_ETAG],
        description="Orders this phase.",
    )
    @extend_schema(
        methods=["PUT"],
        request=OrdersInputSerializer,
        responses=OrderSerializer(many=True),
        parameters=[IF_MATCH, IF_NONE_MATCH, ORDERS_ETAG],
    )
    @action(detail=True, methods=["get", "put"], pagination_class=None, filter_backends=[])
    def orders(self, request: Request, pk: str) -> Response:
        """Your orders for the current phase; PUT replaces them all and answers each one.

        A player's answers carry a weak ``ETag`` (``W/"…"``, gzipped or not); a PUT with
        ``If-Match: <that ETag>`` is refused with 412 if the orders were changed since (in
        another tab), instead of overwriting them. ``If-Match`` is read as RFC 9110 says
        (``games.preconditions``): ``*`` for any version, or a list of tags; a value that is
        neither is a 400. ``If-None-Match`` is the converse: a PUT is refused with 412 if the
        saved orders are one of the versions it lists (with ``*``, if any are saved), and a GET
        of the version it lists is a 304.
        """
        if request.method == "PUT":
            return self._submit(request, pk)
        game = self.get_object()
        _player_or_moderator(game, request.user, spectators=True)
        if game.current_phase is None:
            return Response([])
        orders = list(visibility.visible_orders(game.current_phase, request.user))
        response = self._versioned(Response(order_answers(orders)), game, orders)
        if "ETag" in response:
            try:
                refused = preconditions.if_none_match(request.headers.get("If-None-Match"))
            except exceptions.ValidationError:  # on a read it only saves sending the body
                refused = None
            version = response["ETag"][3:-1]  # W/"…"
            if preconditions.none_match(refused, version, saved=True):  # the client has them
                unchanged = Response(status=status.HTTP_304_NOT_MODIFIED)
                unchanged["ETag"] = response["ETag"]
                return unchanged
        return response

    @extend_schema(
        request=OrdersInputSerializer,
        responses=OrderSerializer(many=True),
        description="Answers exactly as the PUT would (same limits, same answer) and stores "
        "nothing: the order box checks with it while the player types.",
    )
    @action(
        detail=True,
        methods=["post"],
        url_path="orders/check",
        pagination_class=None,
        filter_backends=[],
    )
    def check_orders(self, request: Request, pk: str) -> Response:
        """Check your orders for the current phase without saving them."""
        membership = self._membership(pk)
        data = orders_input(request.data)
        phase = self._phase_meant(membership, data.get("phase"))
        orders = services.check_orders(membership, data["orders"], phase=phase)
        return Response(order_answers(orders))

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "power",
                str,
                pattern=NO_NUL,
                description="A moderator who does not play: the power whose options to list.",
            )
        ],
        responses={200: OptionsSerializer, 400: OpenApiTypes.OBJECT},
    )
    # Not named ``options``: DRF answers the HTTP OPTIONS method with the view's ``options``.
    @action(
        detail=True, methods=["get"], pagination_class=None, url_path="options", url_name="options"
    )
    def legal_orders(self, request: Request, pk: str) -> Response:
        """Every legal order of your power this phase, as the engine lists them (the board's
        click menu is built from it); a moderator who does not play names any ``?power=``."""
        game = self.get_object()
        membership = game.membership_of(request.user)
        wanted = once(request, "power")
        wanted = None if wanted is None else engine.power_named(game, wanted)
        if membership is not None and membership.power:
            if wanted not in (None, membership.power):
                raise exceptions.PermissionDenied("you may list only your own power's orders")
            power = membership.power
        elif game.is_moderator(request.user):
            if wanted not in engine.powers(game):
                raise exceptions.ValidationError({"power": ["name one of the game's powers"]})
            power = wanted
        else:
            raise exceptions.PermissionDenied("you do not play a power in this game")
        phase = game.current_phase
        if phase is None or phase.processed_at:
            raise exceptions.ValidationError({"detail": "the game has no phase to order in"})
        if game.status not in (Game.Status.ACTIVE, Game.Status.PAUSED):
            # Ended (a draw, a concession, the moderator's end) with its last phase unprocessed:
            # nothing may be ordered any more, as the orders' check and PUT answer.
            raise exceptions.ValidationError({"detail": "the game is not running"})
        return Response(reason_words.said_needs(engine.options(game, phase, power)))

    # Actions that read the caller's seat with ``_membership``: with a token, the
    # authentication reads it too, in the same query (``TokenAuthentication``).
    seat_actions = frozenset({"orders", "check_orders"})
    seat: Membership | None = None

    def _membership(self, pk: str) -> Membership:
        """The caller's seat with its game and the current phase, read in one query (orders
        are the busiest requests of all), or with the token that signed in; only when there is
        no seat is the game looked up, to say why."""
        membership = self.seat
        game = ascii_index(pk)
        if membership is None and game is not None:
            rows = SEAT_OF_USER.run(self.request.user.pk, game)
            membership = seat_from_row(rows[0]) if rows else None
        if membership is None or membership.game_id != game:
            membership = _seat(self.get_object(), self.request.user)
        return membership

    def _phase_meant(self, membership: Membership, index: int | None):
        """The current phase, as read with the seat; a 409 when the request names another
        (``phase`` in the body): orders typed for a phase since processed never land in the
        next one."""
        phase = membership.game.current_phase
        if index is not None and phase is not None:
            services.check_phase(phase, index)
        return phase

    def _submit(self, request: Request, pk: str) -> Response:
        """PUT orders: replace the power's orders with these, each answered."""
        membership = self._membership(pk)
        game = membership.game
        data = orders_input(request.data)
        orders = services.submit_orders(
            membership,
            data["orders"],
            version=preconditions.if_match(request.headers.get("If-Match")),
            unless=preconditions.if_none_match(request.headers.get("If-None-Match")),
            phase=self._phase_meant(membership, data.get("phase")),
        )
        return self._versioned(Response(order_answers(orders)), game, orders, membership)

    def _versioned(
        self, response: Response, game: Game, orders: list, membership: Membership | None = None
    ) -> Response:
        """The ETag of the player's own orders as answered (none for a moderator who isn't)."""
        membership = membership or game.membership_of(self.request.user)
        if membership is not None and membership.power and game.current_phase_id:
            own = [o for o in orders if o.power == membership.power]
            version = services.orders_version(game.current_phase_id, membership.power, own)
            response["ETag"] = preconditions.weak_etag(version)
        return response

    @extend_schema(request=ReadySerializer, responses=ReadySerializer)
    @action(detail=True, methods=["post"])
    def ready(self, request: Request, pk: str) -> Response:
        """Ready (or not) for the phase named; a ready for any other phase is a 409."""
        seat = _seat(self.get_object(), request.user)
        serializer = ReadySerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        services.set_ready(seat, data["ready"], phase=data["phase"])
        return Response(data)

    def _page(self, items, serializer_class, **context) -> Response:
        """One page of a list, as ``Pages`` cuts it."""
        page = self.paginate_queryset(items)
        context = {**self.get_serializer_context(), **context}
        data = serializer_class(page, many=True, context=context).data
        return self.get_paginated_response(data)

    @extend_schema(responses=PhaseSerializer(many=True))
    @action(detail=True, methods=["get"], filter_backends=[])
    def phases(self, request: Request, pk: str) -> Response:
        """Every phase, oldest first, in pages."""
        game = self.get_object()
        return self._page(game.phases.select_related("game"), PhaseSerializer)

    @extend_schema(responses=PhaseSerializer)
    @action(detail=True, methods=["get"], url_path=r"phases/(?P<index>[0-9]+)")
    def phase(self, request: Request, pk: str, index: str) -> Response:
        game = self.get_object()
        phase = get_object_or_404(game.phases.select_related("game"), index=int(index))
        return Response(PhaseSerializer(phase, context=self.get_serializer_context()).data)

    @extend_schema(methods=["GET"], responses=MessageSerializer(many=True))
    @extend_schema(
        methods=["POST"],
        request=MessageSerializer,
        responses={201: MessageSerializer, 200: MessageSerializer},
    )
    @action(detail=True, methods=["get", "post"], filter_backends=[])
    def messages(self, request: Request, pk: str) -> Response:
        """Press: public, or private to the listed powers."""
        game = self.get_object()
        _player_or_moderator(game, request.user, spectators=request.method == "GET")
        context = self.get_serializer_context()
        if request.method == "GET":
            return self._page(visibility.visible_messages(game, request.user), MessageSerializer)
        serializer = MessageSerializer(data=request.data, context=context)
        serializer.is_valid(raise_exception=True)
        message = services.send_message(
            game,
            request.user,
            serializer.validated_data["body"],
            serializer.validated_data.get("recipients", []),
            phase=serializer.validated_data.get("phase"),
        )
        answer = status.HTTP_200_OK if message.repeated else status.HTTP_201_CREATED
        return Response(MessageSerializer(message, context=context).data, status=answer)

    @extend_schema(methods=["GET"], responses=PaymentSerializer(many=True))
    @extend_schema(
        methods=["POST"],
        request=PaymentSerializer,
        responses={201: PaymentSerializer, 200: PaymentSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    @action(detail=True, methods=["get", "post"], filter_backends=[])
    def payments(self, request: Request, pk: str) -> Response:
        """The gold ledger between great powers (Chinese Diplomacy); POST pays another power."""
        game = self.get_object()
        if request.method == "GET":
            payments = visibility.visible_payments(game, request.user)
            return self._page(payments, PaymentSerializer)
        return pay(request, _seat(game, request.user))

    @extend_schema(
        request=VoteSerializer,
        responses=inline_serializer("VoteResult", {"game_over": serializers.BooleanField()}),
    )
    @action(detail=True, methods=["post"])
    def draw(self, request: Request, pk: str) -> Response:
        """Vote for a draw (or to concede to a power). Votes stay secret unless they pass."""
        game = self.get_object()
        membership = _seat(game, request.user)
        serializer = VoteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        over = services.vote(membership, **serializer.validated_data)
        return Response({"game_over": over})

    @extend_schema(responses=AuditEntrySerializer(many=True))
    @action(detail=True, methods=["get"], filter_backends=[])
    def log(self, request: Request, pk: str) -> Response:
        """The game's audit log, newest first, in pages: the moderator's only."""
        game = self.get_object()
        if not game.is_moderator(request.user):
            raise exceptions.PermissionDenied("only the moderator may read the audit log")
        entries = visibility.audit_log(game, request.user)
        page = visibility.hide_logged_names(self.paginate_queryset(entries), game, request.user)
        data = AuditEntrySerializer(page, many=True, context=self.get_serializer_context()).data
        return self.get_paginated_response(data)

    @extend_schema(responses=ModeratorActionSerializer(many=True))
    @action(
        detail=True,
        methods=["get"],
        url_path="moderation",
        pagination_class=None,
        filter_backends=[],
    )
    def moderation_actions(self, request: Request, pk: str) -> Response:
        """The moderator actions the game's state allows now, with the inputs each takes: the
        same list the moderator console shows. Any other action is refused with its reason."""
        game = self.get_object()
        if not game.is_moderator(request.user):
            raise exceptions.PermissionDenied("only the moderator may do this")
        return Response(ModeratorActionSerializer(moderation.possible(game), many=True).data)

    @extend_schema(
        request=ModerationSerializer,
        responses=GameSerializer,
        parameters=[
            OpenApiParameter("action_name", str, OpenApiParameter.PATH, enum=MODERATOR_ACTIONS)
        ],
    )
    @action(
        detail=True,
        methods=["post"],
        url_path=rf"moderation/(?P<action_name>{'|'.join(MODERATOR_ACTIONS)})",
    )
    def moderation(self, request: Request, pk: str, action_name: str) -> Response:
        """Moderator tools (``games.moderation``); every use is written to the game's audit
        log. An action the game's state does not allow now is refused (400) with the reason."""
        game = self.get_object()
        if not game.is_moderator(request.user):
            raise exceptions.PermissionDenied("only the moderator may do this")
        # The body first: a malformed one is told as such (400 naming the field, 415), not as
        # the game's state, which a client fixing the body would otherwise meet next.
        serializer = ModerationSerializer(data=request.data, context={"action": action_name})
        serializer.is_valid(raise_exception=True)
        reason = moderation.ACTIONS[action_name].why_not(game)
        if reason:
            raise exceptions.ValidationError({"detail": reason})
        moderation.perform(action_name, game, request.user, serializer.validated_data)
        return Response(self._game(game))


def pay(request: Request, membership: Membership) -> Response:
    """A payment POSTed for ``membership``'s power (a game's seat, or a sandbox's): 201, or
    200 with the first payment when its ``Idempotency-Key`` was used already."""
    serializer = PaymentSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    key = request.headers.get("Idempotency-Key")
    if key is not None and not key.strip():  # sent, but empty: not the same as none at all
        raise exceptions.ValidationError({"Idempotency-Key": ["must not be empty"]})
    key = key or ""
    if len(key) > 64:
        raise exceptions.ValidationError({"Idempotency-Key": ["at most 64 characters"]})
    if not key.isascii() or not key.isprintable():
        raise exceptions.ValidationError(
            {"Idempotency-Key": ["printable ASCII characters only (no tab, no control character)"]}
        )
    data = serializer.validated_data
    payment = services.pay(
        membership, data["payee"], data["amount"], key=key, phase=data.get("phase")
    )
    answer = status.HTTP_200_OK if payment.repeated else status.HTTP_201_CREATED
    return Response(PaymentSerializer(payment).data, status=answer)
