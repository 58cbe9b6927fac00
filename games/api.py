"""The REST API. Views check who is asking and translate; ``games.services`` does the work."""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.views.defaults import page_not_found
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import exceptions, mixins, serializers, status, viewsets
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView
from rest_framework.views import exception_handler as drf_exception_handler

from . import engine, services, visibility
from .models import Game, Membership, NotificationSettings
from .serializers import (
    GameCreateSerializer,
    GameSerializer,
    JoinSerializer,
    MessageSerializer,
    ModerationSerializer,
    NotificationSettingsSerializer,
    OrderSerializer,
    OrdersInputSerializer,
    PaymentSerializer,
    PhaseSerializer,
    ReadySerializer,
    SignupSerializer,
    VariantSerializer,
    VoteSerializer,
)

MODERATOR_ACTIONS = (
    "start",
    "deadline",
    "pause",
    "resume",
    "process",
    "rollback",
    "replace",
    "remove",
    "draw",
    "end",
)


class OrdersChanged(exceptions.APIException):
    status_code = status.HTTP_412_PRECONDITION_FAILED
    default_detail = "your orders were changed elsewhere; reload them and try again"


# The answers other than success that an operation can give, and why.
ERRORS = {
    "400": "The request is invalid or breaks a rule of the game; the body says which field.",
    "401": "Not signed in, or the token is wrong.",
    "403": "Not allowed to you, or a signed-in browser session sent no CSRF token.",
    "404": "No such game, phase or variant.",
    "415": "The body is not JSON, form data or multipart.",
    "429": "Too many requests; the Retry-After header says when to try again.",
}
THROTTLED = {("/api/auth/token/", "post"), ("/api/auth/signup/", "post")}
THROTTLED |= {("/api/games/{id}/orders/", "put")}


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
                codes += ["400", "415"]
            if security:  # a wrong token is refused even where signing in is optional
                codes.append("401")
            if security and (unsafe or {} not in security):
                codes.append("403")
            if "{" in path:
                codes.append("404")
            if (path, method) in THROTTLED:
                codes.append("429")
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


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The 404 for a URL no route matches: JSON under /api/ as the API's own 404s are, so that
    API clients never get an HTML page; Django's page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found."}, status=404)
    return page_not_found(request, exception)


def exception_handler(exc: Exception, context: dict) -> Response | None:
    """Rule violations from the services are the client's mistake: 400, never 500."""
    if isinstance(exc, services.OrdersChanged):
        exc = OrdersChanged(str(exc))
    elif isinstance(exc, services.GameError):
        exc = exceptions.ValidationError({"detail": str(exc)})
    elif isinstance(exc, PermissionError):
        exc = exceptions.PermissionDenied(str(exc))
    return drf_exception_handler(exc, context)


class ScopedThrottle(ScopedRateThrottle):
    """DRF's scoped throttle, reading its rate on every request rather than once at import, so
    that settings overridden later (in tests) apply. Signed-in callers count per user."""

    def get_rate(self) -> str | None:
        try:
            return api_settings.DEFAULT_THROTTLE_RATES[self.scope]
        except KeyError:
            raise ImproperlyConfigured(f"no throttle rate for scope {self.scope!r}") from None


class SignInThrottle(ScopedThrottle):
    """Sign-in and sign-up count per client address, signed in or not: the address is what a
    password guesser cannot cheaply change."""

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class TokenView(ObtainAuthToken):
    """DRF's token view (username and password for a token), rate limited."""

    throttle_classes = [SignInThrottle]
    throttle_scope = "auth"


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
        token = Token.objects.create(user=user)
        return Response({"username": user.username, "token": token.key}, status=201)


class NotificationSettingsView(APIView):
    @extend_schema(responses=NotificationSettingsSerializer)
    def get(self, request: Request) -> Response:
        return Response(NotificationSettingsSerializer(NotificationSettings.of(request.user)).data)

    @extend_schema(request=NotificationSettingsSerializer, responses=NotificationSettingsSerializer)
    def put(self, request: Request) -> Response:
        serializer = NotificationSettingsSerializer(
            NotificationSettings.of(request.user), data=request.data, partial=True
        )
        serializer.is_valid(raise_exception=True)
        serializer.save()
        return Response(serializer.data)


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
        return Response(engine.describe(pk))


def _seat(game: Game, user) -> Membership:
    membership = game.membership_of(user)
    if membership is None or not membership.power:
        raise exceptions.PermissionDenied("you do not play a power in this game")
    return membership


def _player_or_moderator(game: Game, user) -> None:
    if game.membership_of(user) is None and not game.is_moderator(user):
        raise exceptions.PermissionDenied("only the game's players and moderator may see this")


class GameViewSet(
    mixins.ListModelMixin,
    mixins.CreateModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet,
):
    """Games: anyone signed in may list, create, look at and join them."""

    queryset = Game.objects.select_related("creator", "current_phase")
    permission_classes = [IsAuthenticated]
    throttle_classes = [ScopedThrottle]

    @property
    def throttle_scope(self) -> str | None:
        """Only order submissions are rate limited (per user); nothing else here is."""
        if self.action == "orders" and self.request.method == "PUT":
            return "orders"
        return None

    def get_serializer_class(self):
        return GameCreateSerializer if self.action == "create" else GameSerializer

    def get_queryset(self):
        games = super().get_queryset()
        wanted = self.request.query_params.get("status")
        return games.filter(status=wanted) if wanted else games

    @extend_schema(request=GameCreateSerializer, responses={201: GameSerializer})
    def create(self, request: Request) -> Response:
        serializer = GameCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        game = services.create_game(request.user, **serializer.validated_data)
        return Response(self._game(game), status=status.HTTP_201_CREATED)

    def _game(self, game: Game) -> dict:
        game = Game.objects.select_related("creator", "current_phase").get(pk=game.pk)
        return GameSerializer(game, context=self.get_serializer_context()).data

    @extend_schema(request=JoinSerializer, responses=GameSerializer)
    @action(detail=True, methods=["post"])
    def join(self, request: Request, pk: str) -> Response:
        """Join a forming game, or take over a power in civil disorder in a running one."""
        game = self.get_object()
        serializer = JoinSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        if "power" in serializer.validated_data:
            services.take_over(game, request.user, serializer.validated_data["power"])
        else:
            prefs = serializer.validated_data.get("preferences", [])
            services.join_game(game, request.user, prefs)
        return Response(self._game(game))

    @extend_schema(
        methods=["GET"], responses=OrderSerializer(many=True), description="Orders this phase."
    )
    @extend_schema(
        methods=["PUT"], request=OrdersInputSerializer, responses=OrderSerializer(many=True)
    )
    @action(detail=True, methods=["get", "put"])
    def orders(self, request: Request, pk: str) -> Response:
        """Your orders for the current phase; PUT replaces them all and answers each one.

        A player's answers carry an ``ETag``; a PUT with ``If-Match: <that ETag>`` is refused
        with 412 if the orders were changed since (in another tab), instead of overwriting them.
        """
        if request.method == "PUT":
            return self._submit(request, pk)
        game = self.get_object()
        _player_or_moderator(game, request.user)
        if game.current_phase is None:
            return Response([])
        orders = list(visibility.visible_orders(game.current_phase, request.user))
        return self._versioned(Response(OrderSerializer(orders, many=True).data), game, orders)

    def _submit(self, request: Request, pk: str) -> Response:
        """PUT orders: the busiest request of all, so the seat, its game and the current phase
        are read in one query; only when there is no seat is the game looked up, to say why."""
        membership = (
            Membership.objects.select_related("game__current_phase")
            .exclude(status=Membership.Status.REPLACED)
            .filter(game_id=pk if pk.isdigit() else None, user=request.user)
            .first()
        )
        if membership is None:
            membership = _seat(self.get_object(), request.user)
        game = membership.game
        serializer = OrdersInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        match = request.headers.get("If-Match", "").removeprefix("W/").strip('" ')
        orders = services.submit_orders(
            membership,
            serializer.validated_data["orders"],
            version=match.strip("*") or None,
            phase=game.current_phase,
        )
        data = OrderSerializer(orders, many=True).data
        return self._versioned(Response(data), game, orders, membership)

    def _versioned(
        self, response: Response, game: Game, orders: list, membership: Membership | None = None
    ) -> Response:
        """The ETag of the player's own orders as answered (none for a moderator who isn't)."""
        membership = membership or game.membership_of(self.request.user)
        if membership is not None and membership.power and game.current_phase_id:
            own = [o for o in orders if o.power == membership.power]
            version = services.orders_version(game.current_phase_id, membership.power, own)
            response["ETag"] = f'"{version}"'
        return response

    @extend_schema(request=ReadySerializer, responses=ReadySerializer)
    @action(detail=True, methods=["post"])
    def ready(self, request: Request, pk: str) -> Response:
        game = self.get_object()
        serializer = ReadySerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.set_ready(_seat(game, request.user), serializer.validated_data["ready"])
        return Response(serializer.validated_data)

    @extend_schema(responses=PhaseSerializer(many=True))
    @action(detail=True, methods=["get"])
    def phases(self, request: Request, pk: str) -> Response:
        game = self.get_object()
        phases = game.phases.select_related("game").prefetch_related("orders")
        context = self.get_serializer_context()
        return Response(PhaseSerializer(phases, many=True, context=context).data)

    @extend_schema(responses=PhaseSerializer)
    @action(detail=True, methods=["get"], url_path=r"phases/(?P<index>[0-9]+)")
    def phase(self, request: Request, pk: str, index: str) -> Response:
        game = self.get_object()
        phase = get_object_or_404(game.phases.select_related("game"), index=int(index))
        return Response(PhaseSerializer(phase, context=self.get_serializer_context()).data)

    @extend_schema(methods=["GET"], responses=MessageSerializer(many=True))
    @extend_schema(methods=["POST"], request=MessageSerializer, responses={201: MessageSerializer})
    @action(detail=True, methods=["get", "post"])
    def messages(self, request: Request, pk: str) -> Response:
        """Press: public, or private to the listed powers."""
        game = self.get_object()
        _player_or_moderator(game, request.user)
        context = self.get_serializer_context()
        if request.method == "GET":
            messages = visibility.visible_messages(game, request.user)
            return Response(MessageSerializer(messages, many=True, context=context).data)
        serializer = MessageSerializer(data=request.data, context=context)
        serializer.is_valid(raise_exception=True)
        message = services.send_message(
            game,
            request.user,
            serializer.validated_data["body"],
            serializer.validated_data.get("recipients", []),
        )
        return Response(MessageSerializer(message, context=context).data, status=201)

    @extend_schema(methods=["GET"], responses=PaymentSerializer(many=True))
    @extend_schema(methods=["POST"], request=PaymentSerializer, responses={201: PaymentSerializer})
    @action(detail=True, methods=["get", "post"])
    def payments(self, request: Request, pk: str) -> Response:
        """The gold ledger between great powers (Chinese Diplomacy); POST pays another power."""
        game = self.get_object()
        if request.method == "GET":
            return Response(
                PaymentSerializer(game.payments.select_related("phase"), many=True).data
            )
        membership = _seat(game, request.user)
        serializer = PaymentSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        payment = services.pay(
            membership, serializer.validated_data["payee"], serializer.validated_data["amount"]
        )
        return Response(PaymentSerializer(payment).data, status=201)

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
        """Moderator tools; every use is written to the game's audit log."""
        game = self.get_object()
        if not game.is_moderator(request.user):
            raise exceptions.PermissionDenied("only the moderator may do this")
        serializer = ModerationSerializer(data=request.data, context={"action": action_name})
        serializer.is_valid(raise_exception=True)
        args = serializer.validated_data
        user = request.user
        match action_name:
            case "start":
                services.start_game(game, user)
            case "deadline":
                services.change_deadline(
                    game, user, minutes=args.get("minutes"), deadline=args.get("deadline")
                )
            case "pause":
                services.pause(game, user)
            case "resume":
                services.resume(game, user)
            case "process":
                services.process_now(game, user)
            case "rollback":
                services.rollback(game, user, args["phase"])
            case "replace":
                services.replace_player(game, user, args["power"], args["user"])
            case "remove":
                services.remove_player(game, user, args["power"])
            case "draw":
                services.declare_draw(game, user)
            case "end":
                services.end_game(game, user, args.get("winner", ""))
        return Response(self._game(game))
