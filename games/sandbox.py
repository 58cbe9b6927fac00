"""The sandbox (issue #19 item 6): a practice game where one user plays every power, processes
whenever they like and undoes a phase, to try the railroad, the canal or any rule.

A sandbox is a game like any other (the engine, the services and the audit log all apply), with
three differences: every power's seat is held by a stand-in account that cannot sign in (one
account holds one seat a game), orders for any power come from the sandbox's creator, and
phases have no deadline. It is never rated and only its creator (and site moderators) see it.
"""

from __future__ import annotations

import uuid

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from . import engine, kept_input, services, variant_words
from .api import IDEMPOTENCY_KEY, pay
from .forms import INCOMPLETE_ORDERS, OneValueEach, PaymentForm
from .input_types import StrictInput
from .limits import MAX_INTEGER, MAX_ORDER_LENGTH, MAX_ORDERS, ascii_index, echoed
from .models import Game, Membership, Order
from .serializers import (
    GameSerializer,
    OrderSerializer,
    OrdersInputSerializer,
    PaymentSerializer,
)
from .signed_out import signed_in_to_act
from .throttles import ScopedThrottle

# -- services --------------------------------------------------------------------------------


@transaction.atomic
def create_sandbox(user: AbstractBaseUser, variant: str) -> Game:
    """A started practice game of ``variant``: ``user`` moderates it and orders for every power."""
    if variant not in engine.variant_ids():
        raise services.GameError(f"unknown variant {variant!r}")
    name = gettext("Sandbox: %(variant)s") % {"variant": variant_words.variant_name(variant)}
    game = services.create_game(
        user,
        name=name[:100],
        variant=variant,
        capped=True,
        sandbox=True,
        process_when_ready=False,
        civil_disorder_after=0,  # the stand-ins never fall into civil disorder
    )
    for power in engine.powers(game):
        # A stand-in that cannot sign in holds each seat; not a bot seat, so no bot plays it.
        services.join_game(game, services._bot_account(game), [power])
    game.refresh_from_db()
    return game


def seat(game: Game, user: AbstractBaseUser, power: str) -> Membership:
    """The seat of ``power`` in the user's own sandbox; PermissionError for anyone else."""
    if not game.sandbox or game.creator_id != user.pk:
        raise PermissionError("only the sandbox's creator plays its powers")
    power = engine.power_named(game, power)
    found = game.memberships.exclude(status=Membership.Status.REPLACED).filter(power=power).first()
    if found is None:
        deposed = _deposed(game, power)
        if deposed:
            raise services.GameError(deposed)
        raise services.GameError(f"no power {echoed(power)} in this game")
    return found


def _deposed(game: Game, power: str) -> str | None:
    """Why ``power`` has no seat when its leader was deposed (Chinese Diplomacy), saying when;
    None otherwise. Only sandboxes made before a deposed power got a new stand-in have such a
    power: undoing a phase gives it one (``undo``)."""
    entry = game.moderator_actions.depositions().filter(details__power=power).first()
    if entry is None:
        return None
    index = entry.details.get("phase")
    phase = game.phases.filter(index=index).first() if isinstance(index, int) else None
    if phase is None:  # logged before the phase was: the last one processed before the entry
        processed = game.phases.filter(processed_at__lte=entry.created)
        phase = processed.order_by("-processed_at").first()
    when = (
        variant_words.phase_label(game.variant, phase.season, phase.year, phase.type)
        if phase is not None
        else entry.created.date().isoformat()
    )
    return gettext(
        "%(power)s's leader was deposed in %(when)s (more than 1,000 k oz in debt) and nobody "
        "has led it since; undo a phase to give it a new leader."
    ) % {"power": power, "when": when}


def undo(
    game: Game, user: AbstractBaseUser, *, phase: int | None = None, over: bool | None = None
) -> None:
    """Back to the phase before the current one, as it was before it was processed.
    ``phase``: the index of the phase meant; a repeated request is refused (``PhaseChanged``).
    ``over``: whether the game was over when the request was sent; undoing an ended game
    reopens its last phase at the same index, so only this tells a repeat from a new undo."""
    with transaction.atomic():
        # Under the game's lock: a repeat, or a Process sent at the same moment, finds another
        # phase current by then and is refused, rather than undoing a phase nobody meant (the
        # processing just made would be silently lost).
        game = services.check_current_phase(game, phase)
        if over is not None and over != game.is_over:
            raise services.PhaseChanged(
                gettext("The game has changed since this was sent; reload and look first.")
            )
        current = game.current_phase
        # A game ended with its last phase (Chinese Diplomacy's 1950) keeps that phase
        # current, processed: undoing it is going back to it, as it was before it was
        # processed. One ended by hand (End, a draw) in a phase not processed reopens that
        # phase: going back one more lost it, and in its first phase nothing was undone. (A
        # sandbox cancelled as abandoned, before sandboxes never were, ended by a processing
        # that opened the phase after it: undone as any processing.)
        by_hand = game.is_over and not game.abandoned
        ended_here = current is not None and (current.processed_at or by_hand)
        back = current.index if ended_here else None
        if back is None and (current is None or current.index == 0):
            raise services.GameError("there is nothing to undo")
        services.rollback(game, user, current.index - 1 if back is None else back)
        _lead_every_power(game)


def _lead_every_power(game: Game) -> None:
    """A stand-in for every power nobody holds: in sandboxes made before a deposed power got
    a new one at once, it had none and could never be ordered again."""
    held = set(
        game.memberships.exclude(status=Membership.Status.REPLACED).values_list("power", flat=True)
    )
    for power in engine.powers(game):
        if power not in held:
            services.stand_in(game, power)


def _own(pk: int, user: AbstractBaseUser) -> Game:
    """The user's own sandbox, or a 404 (nobody learns of another's practice)."""
    game = Game.objects.select_related("current_phase").filter(pk=pk, sandbox=True).first()
    if game is None or game.creator_id != user.pk:
        raise Http404("no such sandbox")
    return game


# -- API -------------------------------------------------------------------------------------


class SandboxCreateSerializer(StrictInput, serializers.Serializer):
    variant = serializers.ChoiceField(choices=[])

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["variant"].choices = engine.variant_ids()


class SandboxStepSerializer(StrictInput, serializers.Serializer):
    phase = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_INTEGER,
        help_text="The index of the phase meant (the game's current_phase.index): a repeated "
        "request then finds another phase current and is refused with 409.",
    )
    over = serializers.BooleanField(
        required=False,
        help_text="Whether the game was over when this was sent. An ended game's undo reopens "
        "its last phase at the same index, so with phase this tells a repeated undo from a "
        "new one: refused with 409 when the game is no longer (or not yet) over.",
    )


class SandboxView(APIView):
    throttle_classes = [ScopedThrottle]
    throttle_scope = "games"  # as creating any game

    @extend_schema(
        request=SandboxCreateSerializer,
        responses={201: GameSerializer},
        summary="Start a sandbox: a practice game where you play every power",
    )
    def post(self, request: Request) -> Response:
        data = SandboxCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = create_sandbox(request.user, data.validated_data["variant"])
        answer = GameSerializer(game, context={"request": request}).data
        return Response(answer, status=status.HTTP_201_CREATED)


class SandboxOrdersView(APIView):
    throttle_classes = [ScopedThrottle]
    throttle_scope = "orders"

    @extend_schema(
        request=OrdersInputSerializer,
        responses=OrderSerializer(many=True),
        summary="Replace one power's orders in your sandbox",
    )
    def put(self, request: Request, pk: int, power: str) -> Response:
        game = _own(pk, request.user)
        data = OrdersInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        # As for any game: orders meant for a phase since processed are refused (409), never
        # stored in the next one.
        phase = game.current_phase
        if phase is not None:
            services.check_phase(phase, data.validated_data.get("phase"))
        orders = services.submit_orders(
            seat(game, request.user, power), data.validated_data["orders"], phase=phase
        )
        return Response(OrderSerializer(orders, many=True).data)


class SandboxPaymentsView(APIView):
    throttle_classes = [ScopedThrottle]
    throttle_scope = "payments"

    @extend_schema(
        request=PaymentSerializer,
        responses={201: PaymentSerializer, 200: PaymentSerializer},
        parameters=[IDEMPOTENCY_KEY],
        summary="Pay gold from one power of your sandbox to another (Chinese Diplomacy)",
    )
    def post(self, request: Request, pk: int, power: str) -> Response:
        return pay(request, seat(_own(pk, request.user), request.user, power))


class SandboxStepView(APIView):
    """Process the current phase now, or undo the last one."""

    @extend_schema(
        request=SandboxStepSerializer,
        responses=GameSerializer,
        summary="Process or undo a phase",
        operation_id="sandbox_step",
        parameters=[OpenApiParameter("step", str, OpenApiParameter.PATH, enum=["process", "undo"])],
    )
    def post(self, request: Request, pk: int, step: str) -> Response:
        game = _own(pk, request.user)
        if step not in ("process", "undo"):
            raise exceptions.NotFound("process or undo")
        data = SandboxStepSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        meant = data.validated_data.get("phase")
        if step == "process":
            services.process_now(game, request.user, phase=meant)
        else:
            undo(game, request.user, phase=meant, over=data.validated_data.get("over"))
        game = _own(pk, request.user)
        return Response(GameSerializer(game, context={"request": request}).data)


# -- pages -----------------------------------------------------------------------------------


class SandboxForm(OneValueEach, forms.Form):
    variant = forms.ChoiceField(label=_("Variant"), choices=[])

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["variant"].choices = [
            (v, variant_words.variant_name(v)) for v in engine.variant_ids()
        ]


@login_required
def new_sandbox(request: HttpRequest) -> HttpResponse:
    form = SandboxForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            game = create_sandbox(request.user, form.cleaned_data["variant"])
        except services.GameError as error:  # e.g. too many unfinished games
            form.add_error(None, str(error))
        else:
            return redirect("sandbox", pk=game.pk)
    return render(request, "games/sandbox_new.html", {"form": form})


@login_required
def sandbox_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Every power's orders in one page, the board, and Process and Undo buttons."""
    from .web import NO_BOARD, _gold_context, board_url, palette_of, phase_name  # the page's

    game = _own(pk, request.user)
    phase = game.current_phase
    orders = Order.objects.filter(phase=phase).order_by("power", "position")
    to_act = engine.powers_to_act(phase) if phase and not phase.processed_at else set()
    powers = [
        {
            "power": power,
            "acts": power in to_act,
            "text": kept_input.take(request, "unsaved-sandbox", f"{pk}-{power}", str)
            or "\n".join(o.text for o in orders if o.power == power),
            "orders": [o for o in orders if o.power == power],
        }
        for power in engine.powers(game)
    ]
    context = {
        "game": game,
        "phase": phase,
        "phase_label": phase_name(game, phase) if phase else "",
        "board_src": board_url(game, phase, palette_of(request)) if phase else None,
        "no_board": NO_BOARD,
        "powers": powers,
        "running": game.status == Game.Status.ACTIVE,
        "rules_variant": game.variant,
    }
    if phase is not None:
        # Chinese Diplomacy: the gold as the game page shows it, and a payment form a power.
        context.update(_gold_context(request, game, phase, None, True))
        if "gold" in context and context["running"]:
            names = [p["power"] for p in powers]
            for p in powers:
                others = [name for name in names if name != p["power"]]
                initial = {"key": uuid.uuid4().hex, "phase": phase.index}
                p["pay_form"] = PaymentForm(powers=others, initial=initial, prefix=p["power"])
    return render(request, "games/sandbox.html", context)


@signed_in_to_act(back="sandbox")
@require_POST
def sandbox_orders(request: HttpRequest, pk: int) -> HttpResponse:
    game = _own(pk, request.user)
    power = request.POST.get("power", "")
    if "orders" not in request.POST:
        # Not an empty box (which deletes the power's orders): no box at all, deletes nothing.
        messages.error(request, f"{INCOMPLETE_ORDERS} {gettext('Nothing was saved.')}")
        return redirect(reverse("sandbox", args=[pk]) + f"#power-{power}")
    text = request.POST.get("orders", "")
    lines = engine.order_lines(text.splitlines())
    try:
        # The phase the form was shown in: orders typed for a phase since processed (in
        # another tab) are refused, never stored in the next one.
        index = ascii_index(request.POST.get("phase"))
        if index is None or game.current_phase is None:
            raise services.GameError(gettext("That form belonged to an old page; try again."))
        services.check_phase(game.current_phase, index)
        # With the phase checked, so that one processed meanwhile is a conflict too.
        saved = services.submit_orders(
            seat(game, request.user, power), lines, phase=game.current_phase
        )
    except services.PhaseChanged:
        messages.error(
            request,
            gettext("That phase was processed since the page was loaded; nothing was saved.")
            + " "
            + gettext("Your text is still in the box."),
        )
        _keep_unsaved(request, pk, power, text)
    except (services.GameError, PermissionError) as error:
        messages.error(request, str(error) + " " + gettext("Your text is still in the box."))
        _keep_unsaved(request, pk, power, text)
    else:
        bad = sum(not o.valid for o in saved)
        if bad:
            messages.warning(
                request, gettext("%(power)s: some orders are invalid.") % {"power": power}
            )
        else:
            messages.success(request, gettext("%(power)s: orders saved.") % {"power": power})
    return redirect(reverse("sandbox", args=[pk]) + f"#power-{power}")


def _keep_unsaved(request: HttpRequest, pk: int, power: str, text: str) -> None:
    """A refused box comes back as typed, to be fixed (unless it is huge)."""
    if len(text) <= MAX_ORDERS * (MAX_ORDER_LENGTH + 2):  # the game page's box, as OrdersForm
        kept_input.keep(request, "unsaved-sandbox", f"{pk}-{power}", text)


@signed_in_to_act(back="sandbox")
@require_POST
def sandbox_pay(request: HttpRequest, pk: int) -> HttpResponse:
    """Gold from one of the sandbox's powers to another; the service checks the rules."""
    from .web import pay_from_form  # the game page's own payment form handling

    game = _own(pk, request.user)
    power = request.POST.get("power", "")
    others = [name for name in engine.powers(game) if name != power]
    form = PaymentForm(request.POST, powers=others, prefix=power)
    try:
        membership = seat(game, request.user, power)
    except (services.GameError, PermissionError) as error:
        messages.error(request, str(error))
    else:
        paid = gettext("%(power)s paid %(to)s %(amount)s k oz.")
        pay_from_form(request, membership, form, paid)
    return redirect(reverse("sandbox", args=[pk]) + "#gold")


@signed_in_to_act(back="sandbox")
@require_POST
def sandbox_step(request: HttpRequest, pk: int, step: str) -> HttpResponse:
    game = get_object_or_404(Game, pk=_own(pk, request.user).pk)
    if step not in ("process", "undo"):
        raise Http404("process or undo")
    # The phase the button was shown in: a double click or an old page does nothing twice.
    index = ascii_index(request.POST.get("phase"))
    try:
        if index is None or game.current_phase is None:
            raise services.GameError(gettext("That button belonged to an old page; try again."))
        if step == "process":
            services.process_now(game, request.user, phase=index)  # each checks the phase
        else:
            over = {"1": True, "0": False}.get(request.POST.get("over", ""))
            undo(game, request.user, phase=index, over=over)
    except (services.GameError, PermissionError) as error:
        messages.error(request, str(error))
    return redirect("sandbox", pk=pk)
