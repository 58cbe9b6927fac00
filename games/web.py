"""The browser pages. Like the API, views check who is asking and call ``games.services``;
they never write game state themselves. Every page works without JavaScript except
click-to-order on the board."""

from __future__ import annotations

import hashlib
import json
import re
import time
import uuid
import zoneinfo
from collections import Counter, defaultdict
from datetime import datetime, timedelta
from functools import lru_cache, wraps
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.db.models.functions import Greatest
from django.forms import BaseForm
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render, resolve_url
from django.template.loader import render_to_string
from django.urls import reverse, reverse_lazy
from django.utils import timezone, translation
from django.utils.cache import patch_cache_control
from django.utils.formats import date_format
from django.utils.http import parse_etags
from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from rest_framework import exceptions as api_exceptions
from rest_framework.authtoken.models import Token
from rest_framework.request import Request

from greatgame.ratelimit import too_many_attempts
from variants import render as render_module
from variants.render import power_colours, render_board, render_orders

from . import (
    engine,
    events,
    kept_input,
    moderation,
    notifications,
    phase_guide,
    reason_words,
    seats,
    services,
    variant_words,
    visibility,
)
from .errors import error_page, method_not_allowed, token_client
from .forms import (
    INCOMPLETE_FORM,
    NO_SUCH_PHASE,
    PALETTES,
    GameForm,
    JoinForm,
    MessageForm,
    ModerationForm,
    OrdersForm,
    PaymentForm,
    SettingsForm,
    SignUpForm,
    VoteForm,
)
from .limits import ascii_index
from .models import (
    Game,
    Membership,
    Message,
    ModeratorAction,
    NotificationSettings,
    Order,
    Phase,
    PressRead,
)
from .search import with_seats
from .signed_out import author_field, signed_in_to_act, take_kept
from .throttles import ScopedThrottle
from .when import format_when

# The actions' names as the console shows them (the keys are the API's words).
ACTION_NAMES = {
    "create": pgettext_lazy("moderator action", "Create"),
    "start": pgettext_lazy("moderator action", "Start"),
    "deadline": pgettext_lazy("moderator action", "Deadline"),
    "pause": pgettext_lazy("moderator action", "Pause"),
    "resume": pgettext_lazy("moderator action", "Resume"),
    "process": pgettext_lazy("moderator action", "Process"),
    "rollback": pgettext_lazy("moderator action", "Rollback"),
    "replace": pgettext_lazy("moderator action", "Replace"),
    "remove": pgettext_lazy("moderator action", "Remove"),
    "bot": pgettext_lazy("moderator action", "Bot"),
    "draw": pgettext_lazy("moderator action", "Draw"),
    "end": pgettext_lazy("moderator action", "End"),
    "bot failed": pgettext_lazy("moderator action", "Bot failed"),
    "pay": pgettext_lazy("moderator action", "Pay"),
    "deposed": pgettext_lazy("moderator action", "Deposed"),
    "payment dropped": pgettext_lazy("moderator action", "Payment dropped"),
    "settings": pgettext_lazy("moderator action", "Settings"),
    "requirements": pgettext_lazy("moderator action", "Requirements"),
}

# The Chinese ledger's kinds of line (the engine's ``item``), as the statement shows them.
LEDGER_ITEMS = {
    "profit": pgettext_lazy("ledger", "profit"),
    "maintenance": pgettext_lazy("ledger", "maintenance"),
    "entry": pgettext_lazy("ledger", "entry"),
    "exit": pgettext_lazy("ledger", "exit"),
    "annihilation": pgettext_lazy("ledger", "annihilation"),
    "payment": pgettext_lazy("ledger", "payment"),
    "deposed": pgettext_lazy("ledger", "deposed"),
    "new leader": pgettext_lazy("ledger", "new leader"),
}
# Lines that put a power back at zero rather than make a profit or a loss of the year.
RESETS = frozenset({"deposed", "new leader"})

RULES = {
    "colonial": [
        _(
            "The standard rules of Diplomacy apply, on a map of Asia in 1870, with seven powers: "
            "Britain, China, Russia, France, Holland, Japan and Turkey."
        ),
        _("Victory at 29 of the 58 supply centres; the game's options may change the figure."),
        _(
            "Hong Kong is a British home centre that counts for every power but China. When China "
            "holds it at the end of an autumn turn it becomes neutral and counts for nobody until "
            "another power takes it."
        ),
    ],
    "far-east": [
        _(
            "Spring and Fall from 1991, adjustments in Winter; victory at 15 of 28 centres; builds "
            "only in a power's own home centres, still owned and empty."
        ),
    ],
    "chinese": [
        _(
            "Chinese Diplomacy is played by year, and accepts full province names only: no "
            "abbreviations in orders."
        ),
    ],
    "standard": ["The 1971/2000 rules on the classic map of Europe, the baseline the DATC tests."],
}


# -- helpers -------------------------------------------------------------------------------


def _display_settings(request: HttpRequest) -> NotificationSettings | None:
    """The signed-in viewer's settings, read once per request; None for anonymous visitors
    (and on an error page for a request refused before anyone was signed in: a bad host)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    if not hasattr(request, "_display_settings"):
        request._display_settings = NotificationSettings.objects.filter(user=request.user).first()
    return request._display_settings


def palette_of(request: HttpRequest) -> str:
    """The viewer's palette, stored on the account; the default colours for anonymous ones."""
    prefs = _display_settings(request)
    palette = prefs.palette if prefs else "default"
    return palette if palette in dict(PALETTES) else "default"


def time_zone_of(request: HttpRequest) -> str:
    """The viewer's time zone, stored on the account; UTC for anonymous visitors."""
    prefs = _display_settings(request)
    name = prefs.time_zone if prefs else "UTC"
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return "UTC"
    return name


def _game_or_404(pk: int, user) -> Game:
    """The game if the viewer may open it (``visibility.game_or_404``): another's sandbox is a
    404 on every page and form, as on the game page."""
    games = Game.objects.select_related("creator", "current_phase")
    return visibility.game_or_404(pk, user, games)


def _playing(request: HttpRequest, pk: int) -> tuple[Game, Membership]:
    """The game and the viewer's seat in it; 403 for anyone without a power there."""
    game = _game_or_404(pk, request.user)
    membership = game.membership_of(request.user)
    if membership is None or not membership.power:
        raise PermissionDenied("You do not play a power in this game.")
    return game, membership


def token_accepted(view):
    """A file of the site a REST client fetches too (a phase's picture, the replay): the API's
    ``Authorization: Token`` header is read as the API reads it, in place of a session. Without
    it the session is the viewer; a token the API refuses is the API's JSON 401, not a page
    saying the game does not exist, and what is not there is the API's JSON 404.

    Such a file is only read: any other method is a 405 (JSON to a REST client), before the
    CSRF check, which has nothing to guard here and answered a POST with the site's HTML 403."""

    @csrf_exempt
    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.method not in ("GET", "HEAD"):
            return method_not_allowed(request, ("GET", "HEAD"))
        if not token_client(request):
            return view(request, *args, **kwargs)
        try:
            found = seats.TokenAuthentication().authenticate(Request(request))
        except api_exceptions.AuthenticationFailed as refused:
            response = JsonResponse({"detail": str(refused.detail)}, status=401)
            response["WWW-Authenticate"] = "Token"
            return response
        if found is not None:
            request.user = found[0]
        try:
            return view(request, *args, **kwargs)
        except Http404 as missing:  # to a REST client, in the API's form rather than a page
            return JsonResponse({"detail": str(missing) or "Not found."}, status=404)

    return wrapped


def watchable(view):
    """A game's page or picture for whoever may watch it: anyone for a public game, anyone
    signed in for the rest (``visibility.can_watch``). Any other number is a 404, whether a
    game has it or not, so that nothing tells which exist; signed out, the page offers to
    sign in and come back.

    The game is read once, with its creator and current phase, and handed to the view as
    ``request.watched_game``.
    """

    @wraps(view)
    def wrapped(request: HttpRequest, pk: int, *args, **kwargs) -> HttpResponse:
        game = Game.objects.select_related("creator", "current_phase").filter(pk=pk).first()
        if game is None or not visibility.can_watch(game, request.user):
            if not request.user.is_authenticated:
                login = resolve_url(settings.LOGIN_URL)
                sign_in = f"{login}?{urlencode({'next': request.get_full_path()})}"
                context = {"sign_in": sign_in}
                return render(request, "games/not_found.html", context, status=404)
            raise Http404("no such game")
        request.watched_game = game
        return view(request, pk, *args, **kwargs)

    return wrapped


def moderator_only(view):
    """Only the game's moderator may open the moderator pages."""

    @wraps(view)
    def wrapped(request: HttpRequest, pk: int, *args, **kwargs) -> HttpResponse:
        game = _game_or_404(pk, request.user)
        if not game.is_moderator(request.user):
            return error_page(request, 403, gettext("Only the moderator may do this."))
        return view(request, game, *args, **kwargs)

    return signed_in_to_act(wrapped, back="moderate")


def _act(request: HttpRequest, action, *args, **kwargs) -> bool:
    """Run a service call; a rule it refuses becomes a message for the player."""
    try:
        action(*args, **kwargs)
    except (services.GameError, PermissionError) as error:
        messages.error(request, str(error))
        return False
    return True


def phase_name(game: Game, phase: Phase) -> str:
    """The phase in the variant's own words: "Autumn 1870 movement" in Colonial."""
    return variant_words.phase_label(game.variant, phase.season, phase.year, phase.type)


NO_BOARD = _('<p class="no-board">This map has no board drawing; use the orders box.</p>')
# A year: a board at a phase-versioned address never changes (its version is in the address).
BOARD_MAX_AGE = 365 * 24 * 3600
# The drawing code's own version: a new release draws new boards at new addresses.
RENDER_VERSION = hashlib.blake2b(Path(render_module.__file__).read_bytes(), digest_size=8)


def _board_state(phase: Phase) -> dict:
    return {
        "units": phase.units,
        "supply_centers": phase.supply_centers,
        "dislodged": phase.dislodged,
        "contested": phase.contested,
    }


def _results(phase: Phase) -> list | None:
    return phase.results.get("orders") if phase.processed_at and phase.results else None


def _pending(phase: Phase, user) -> list[dict] | None:
    """The unprocessed orders this viewer may see, as the board draws them."""
    if phase.processed_at and phase.results:
        return None
    visible = visibility.visible_orders(phase, user).filter(valid=True)
    return [{"power": o.power, "order": o.canonical, "data": o.data} for o in visible]


def has_board(game: Game) -> bool:
    return (render_module.board_dir(game.variant) / "board.svg").exists()


def board_version(game: Game, phase: Phase, palette: str) -> str:
    """What the phase's board (without pending orders) is drawn from, hashed: its address
    changes exactly when its picture does (a processed phase, a rollback, another palette)."""
    blob = json.dumps(
        [game.variant, _board_state(phase), _results(phase), palette, translation.get_language()],
        sort_keys=True,
        separators=(",", ":"),
    )
    digest = RENDER_VERSION.copy()
    # The drawing and where its units stand (a unit's spot moved is a new picture too); both
    # are written together by variants.mapbuild.
    for name in ("board.svg", "anchors.json"):
        stat = (render_module.board_dir(game.variant) / name).stat()
        digest.update(f"{name}:{stat.st_size}:{stat.st_mtime_ns}:".encode())
    digest.update(blob.encode())
    return digest.hexdigest()


def board_url(game: Game, phase: Phase, palette: str) -> str | None:
    """The phase's board at its versioned address (cached a year), None without a drawing."""
    if not has_board(game):
        return None
    version = board_version(game, phase, palette)
    return f"{reverse('board', args=[game.pk])}?phase={phase.index}&v={version}"


def board_svg(game: Game, phase: Phase, user, palette: str, *, orders: bool = True) -> str:
    """The phase drawn for this viewer: results once processed, else (with ``orders``) the
    orders they may see."""
    pending = _pending(phase, user) if orders else None
    state, results = _board_state(phase), reason_words.said_results(_results(phase))
    try:
        svg = render_board(
            game.variant,
            state,
            orders=pending,
            results=results,
            palette=palette,
            words=reason_words.board_words(),
        )
    except ValueError:  # a variant without a board drawing (the standard map): text play only
        return NO_BOARD
    return _inline(svg, gettext("The board, %(phase)s") % {"phase": phase_name(game, phase)})


def orders_overlay(game: Game, phase: Phase, user, palette: str) -> str:
    """Only the order marks the viewer may see: what an order check changes on the board."""
    pending = _pending(phase, user)
    state, results = _board_state(phase), reason_words.said_results(_results(phase))
    try:
        return render_orders(
            game.variant,
            state,
            orders=pending,
            results=results,
            palette=palette,
            words=reason_words.board_words(),
        )
    except ValueError:
        return ""


def _inline(svg: str, label: str) -> str:
    """An SVG document made fit to sit inside HTML."""
    start = svg.find("<svg")
    return svg[start:].replace("<svg ", f'<svg id="board-svg" aria-label="{label}" ', 1)


def board_data(game: Game, phase: Phase, power: str | None) -> dict:
    """What click-to-order needs: the units to click, and where to ask the server for the
    power's legal orders (the engine's list) and to check typed ones. No map, no rule: the
    page offers only what the engine lists."""
    return {
        "power": power,
        "phase": phase.type,
        "units": phase.units,
        "dislodged": phase.dislodged,
        "options": reverse("game-options", args=[game.pk]),
        "check": reverse("game-check-orders", args=[game.pk]),
    }


def _threads(game: Game, user, power: str | None, seen: dict) -> list[dict]:
    """Press grouped by who can read it; unread counts against the last message seen."""
    threads: dict[str, dict] = {}
    bots = visibility.shows_bots(game, user)
    for message in visibility.visible_messages(game, user):
        # The bot badge, where the viewer may tell bots (an anonymous game hides them).
        message.shown_bot = message.from_bot and (bots or message.sender_id == user.pk)
        people = sorted({message.sender_power or Message.MODERATOR, *message.recipients})
        named = [gettext("Moderator") if p == Message.MODERATOR else p for p in people]
        key = events.thread_key(message)
        thread = threads.setdefault(
            key,
            {
                "key": key,
                "title": gettext("Everyone") if key == "public" else ", ".join(named),
                "messages": [],
                "unread": 0,
            },
        )
        thread["messages"].append(message)
        mine = message.sender_id == user.pk
        if user.is_authenticated and not mine and message.pk > seen.get(key, 0):
            thread["unread"] += 1
    return sorted(threads.values(), key=lambda t: (t["key"] != "public", t["title"]))


# -- accounts ------------------------------------------------------------------------------


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:  # as sign-in does: no second account made by the way
        return redirect("lobby")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        email = form.cleaned_data.get("email") or ""
        user = None
        try:
            with notifications.one_address_at_a_time(email):
                refused = notifications.address_problem(email)  # taken meanwhile?
                if refused:
                    form.add_error("email", refused)
                else:
                    user = form.save()
        except IntegrityError:  # the name was taken meanwhile, by a sign-up at the same time
            form.add_error("username", "A user with that username already exists.")
        if user is not None:
            # Mails speak the language the player signed up in until they choose another.
            NotificationSettings.for_new_account(user, translation.get_language())
            # Named: two backends are listed (Django's for sessions signed in before).
            login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
            return redirect("lobby")
    return render(request, "registration/signup.html", {"form": form})


class SignOutView(auth_views.LogoutView):
    """Django's sign-out (a POST, so that no link or image can sign anyone out), which also
    answers the address typed or bookmarked: a page with the sign-out button, rather than a
    bare "not allowed"."""

    http_method_names = ["get", "post", "options"]

    def get(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect("login")
        return render(request, "registration/sign_out.html")


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's password change, which signs out the account's other sessions, and the end of
    its API token too: a leaked password or token stops working once the password changes
    (a client asks for a new token with the new password)."""

    template_name = "registration/password_change.html"
    success_url = reverse_lazy("account-settings")

    def form_valid(self, form):
        response = super().form_valid(form)
        Token.objects.filter(user=self.request.user).delete()
        messages.success(
            self.request,
            gettext("Password changed. Your other sessions and your API token have ended."),
        )
        return response


@login_required
def account_settings(request: HttpRequest) -> HttpResponse:
    """Mail preferences, time zone and palette, all stored on the account."""
    prefs = NotificationSettings.of(request.user)
    form = SettingsForm(request.POST or None, instance=prefs)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():  # all of the settings, or none if the address is taken
                form.save()
        except notifications.AddressTaken as taken:
            form.add_error("email", str(taken))
        else:
            messages.success(request, gettext("Settings saved."))
            return redirect("account-settings")
    context = {"form": form, "vapid_public_key": settings.VAPID_PUBLIC_KEY}
    return render(request, "games/settings.html", context)


# -- lobby and creating games --------------------------------------------------------------


# Games shown a page in each list of the lobby.
LOBBY_PAGE = 25


def _page(request: HttpRequest, items, param: str):
    """One page of a lobby list, chosen by ``?<param>=n``: no list grows with the site."""
    return Paginator(items, LOBBY_PAGE).get_page(ascii_index(request.GET.get(param)) or 1)


@login_required
def lobby(request: HttpRequest) -> HttpResponse:
    seats = (
        Membership.objects.filter(user=request.user)
        .exclude(status=Membership.Status.REPLACED)
        .select_related("game", "game__current_phase")
        .order_by("-game__created", "-pk")
    )
    seats = _page(request, seats, "mine")
    mine = []
    for seat in seats:
        game, phase = seat.game, seat.game.current_phase
        ordered = bool(
            phase and seat.power and Order.objects.filter(phase=phase, power=seat.power).exists()
        )
        # A game over waits for nobody's orders (its last phase may be one never processed).
        to_act = bool(phase and not game.is_over and seat.power in engine.powers_to_act(phase))
        mine.append(
            {
                "game": game,
                "seat": seat,
                "phase": phase and phase_name(game, phase),
                "ordered": ordered,
                "to_act": to_act,
                # In a running anonymous game a bot is a player like any other (shows_bots).
                "bots": game.memberships.filter(bot=True, status=Membership.Status.ACTIVE).count()
                if visibility.shows_bots(game, request.user)
                else 0,
            }
        )
    open_games = (
        with_seats(Game.objects.filter(status=Game.Status.FORMING))
        .exclude(memberships__user=request.user)
        .annotate(free=Greatest(F("seats") - F("taken"), 0))
        .select_related("creator")
    )
    moderated = Game.objects.filter(creator=request.user, sandbox=False).exclude(
        memberships__user=request.user
    )
    watch = (
        Game.objects.filter(public=True, status__in=[Game.Status.ACTIVE, Game.Status.PAUSED])
        .exclude(memberships__user=request.user)
        .select_related("current_phase")[:20]
    )
    variants = [variant_words.summary(v) for v in engine.variant_ids()]
    context = {
        "mine": mine,
        "mine_page": seats,
        "open_games": _page(request, open_games, "open"),
        "moderated": _page(request, moderated, "moderated"),
        "watch": [(game, phase_name(game, game.current_phase)) for game in watch],
        "sandboxes": Game.objects.filter(creator=request.user, sandbox=True).exclude(
            status=Game.Status.CANCELLED
        )[:20],
        "variants": variants,
        "time_zone": time_zone_of(request),
    }
    return render(request, "games/lobby.html", context)


@login_required
def create_game(request: HttpRequest) -> HttpResponse:
    form = GameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        slot = _creation_slot(request, form.cleaned_data["once"])
        if slot and not cache.add(slot, 0, timeout=CREATION_KEPT):
            return _created_already(request, slot)
        # The creation budget (the API's "games" scope) is counted here, after the form is
        # read and found new: a refused form, or one sent again (a double click, a reload of
        # the post), makes no game and spends none of it.
        throttle = ScopedThrottle()
        if not throttle.allow_request(request, SimpleNamespace(throttle_scope="games")):
            if slot:
                cache.delete(slot)
            return too_many_attempts(throttle, request)
        try:
            game = services.create_game(request.user, capped=True, **form.settings())
        except services.GameError as error:
            throttle.refund()
            if slot:
                cache.delete(slot)  # nothing made: the same form may be sent again, fixed
            form.add_error(None, str(error))
        else:
            if slot:
                cache.set(slot, game.pk, timeout=CREATION_KEPT)
            messages.success(
                request, gettext("Game created. Join it to play, or wait for players.")
            )
            return redirect("game", pk=game.pk)
    return render(request, "games/create.html", {"form": form})


CREATION_KEPT = 3600  # seconds a New game form remembers the game it made


def _creation_slot(request: HttpRequest, once: str) -> str | None:
    """The cache key naming one showing of the New game form (``GameForm.once``)."""
    return f"create-game:{request.user.pk}:{once}" if once else None


def _created_already(request: HttpRequest, slot: str) -> HttpResponse:
    """A second post of one New game form: the game the first made, once it is there (the
    first may still be making it, a double click apart)."""
    for _wait in range(30):
        made = cache.get(slot)
        if made:
            messages.info(request, gettext("This form had made this game already."))
            return redirect("game", pk=made)
        time.sleep(0.1)
    messages.info(request, gettext("This form has been sent already; see your games."))
    return redirect("lobby")


@signed_in_to_act
@require_POST
def join_game(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game_or_404(pk, request.user)
    form = JoinForm(request.POST, powers=engine.powers(game))
    if form.is_valid():
        power = request.POST.get("take_over")
        if power and request.POST.get("confirm") != "yes":
            # A seat is taken for the rest of the game: asked first, unless refused anyway.
            if _act(request, services.rehearse, services.take_over, game, request.user, power):
                return _take_over_confirm(request, game, engine.power_named(game, power))
        elif power:
            if _act(request, services.take_over, game, request.user, power):
                # Said at the top of the page it comes back to, the orders box below it.
                said = engine.power_named(game, power)
                messages.success(request, gettext("You play %(power)s now.") % {"power": said})
        else:
            _act(request, services.join_game, game, request.user, form.preferences())
    return redirect("game", pk=pk)


def _take_over_confirm(request: HttpRequest, game: Game, power: str) -> HttpResponse:
    """ "Take over Britain?": what taking a seat in a running game commits one to."""
    phase = game.current_phase
    context = {"game": game, "power": power, "phase_name": phase and phase_name(game, phase)}
    return render(request, "games/take_over_confirm.html", context)


@signed_in_to_act
@require_POST
def leave_game(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game_or_404(pk, request.user)
    membership = game.membership_of(request.user)
    if membership is not None and _act(request, services.leave_game, membership):
        return redirect("lobby")
    return redirect("game", pk=pk)


# -- the game ------------------------------------------------------------------------------


def _as_asked(phase: str) -> str:
    """A phase asked for in the address, as the page may show it: a number as it is, anything
    else in quotes, cut short, with what cannot be printed shown as �."""
    shown = "".join(c if c.isprintable() else "\ufffd" for c in phase[:20])
    return shown if shown.isascii() and shown.isdigit() else f"“{shown}”"


@watchable
def game_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The board, your orders, the press and the history. ``?phase=n`` shows a past phase."""
    game = request.watched_game
    user = request.user
    if user.is_authenticated:
        take_kept(request, game.pk)
    # Every seat, read once: the powers' table shows them, and the viewer's own is among them.
    seats = list(game.memberships.select_related("user"))
    game.know_seats(seats)
    membership = game.membership_of(user)
    power = membership.power if membership and membership.power else None
    current = game.current_phase
    if current is not None:
        current.game = game  # known: reading the phase's orders needs no query for it
    # The history's menu: each phase's name, not its board and results (ordered by index
    # alone: the model's ordering by game would join the games to sort by their date).
    fields = ("game", "index", "season", "year", "type", "processed_at")
    phases = list(game.phases.only(*fields).order_by("index"))
    phase = current
    if "phase" in request.GET and phases:
        index = ascii_index(request.GET["phase"])
        listed = next((p for p in phases if p.index == index), None)
        if listed is None:  # a link of a phase undone by a rollback, or a typo
            said = (
                gettext("This game has no phase %(phase)s; its phases are 0 to %(last)s.")
                if len(phases) > 1
                else gettext("This game has no phase %(phase)s; its only phase is 0.")
            )
            asked = {"phase": _as_asked(request.GET["phase"]), "last": phases[-1].index}
            return error_page(request, 404, said % asked, back=reverse("game", args=[pk]))
        phase = current if listed == current else game.phases.get(pk=listed.pk)
    context = {
        "game": game,
        "membership": membership,
        "power": power,
        "is_moderator": game.is_moderator(user),
        "phases": [(p, phase_name(game, p)) for p in phases],
        "phase": phase,
        "is_current": phase is not None and phase == current and not phase.processed_at,
        "variant": {
            **engine.describe(game.variant),
            "name": variant_words.variant_name(game.variant),
        },
        "rules_variant": game.variant,
        "time_zone": time_zone_of(request),
        "options": _options(game, visibility.creator_name(game, user)),
        "author": author_field(user),
    }
    if phase is None:  # forming, or cancelled before it started
        context["join_form"] = JoinForm(powers=engine.powers(game))
        # The seats are the powers people play (not Chinese Diplomacy's factions).
        context["seats"] = len(engine.powers(game))
        context["players"] = game.memberships.select_related("user")
        context["show_names"] = visibility.shows_names(game, user)
        return render(request, "games/game.html", context)
    context.update(_phase_context(request, game, phase, power))
    context.update(_press_context(request, game, power))
    # Where live updates start: this phase, and press after the latest message the viewer
    # may read now. The game's latest message would put in the page how much private press
    # others have sent (and the events endpoint refuses a cursor past the viewer's own).
    everything = visibility.sees_everything(game, user)
    start = events.Viewer(request, game).newest(game, power, everything)
    start.phase = phase.index
    context["live_cursor"] = start
    context.update(_gold_context(request, game, phase, power, context["is_current"]))
    context["powers"] = _powers(game, user, palette_of(request), seats, phase)
    context["seating"] = seating(context["powers"])
    # Not to whoever moderates the game without playing it: they have seen every power's
    # orders, and take no seat (``services._not_a_watching_moderator``).
    if not power and not game.is_over and user.is_authenticated and not game.is_moderator(user):
        # A leader deposed here is told so, and offered no power the take-over would refuse.
        own = game.memberships.select_related("user").filter(user=user).first()
        context["deposed_from"] = services.deposed_from(game, own)
        context["open_powers"] = [
            p["power"]
            for p in context["powers"]
            if p["open"] and not services.deposition_refusal(game, own, p["power"])
        ]
    if power and not game.is_over:  # the vote standing, for the vote form to show
        standing = game.votes.filter(power=power).values_list("concede_to", flat=True).first()
        context["my_vote"] = None if standing is None else (standing or "draw")
        # Bots never vote: where the viewer may know which seats bots play, a player whose
        # vote is the only one counted is told that it ends the game at once.
        phase_now = game.current_phase
        context["lone_voter"] = (
            phase_now is not None
            and visibility.shows_bots(game, user)
            and services.voters(game, phase_now, seats) == {power}
        )
    # What the last post of a form on this page said, shown beside the form (base.html leaves
    # it out of the messages at the top, which on a phone are a long way up the page).
    forms_here = {
        ORDERS: "orders_form" in context,
        VOTE: "my_vote" in context,
        GOLD: bool((context.get("gold") or {}).get("payment_form")),
    }
    said = list(messages.get_messages(request))
    context["said_here"] = {
        place: [m for m in said if m.extra_tags == place]
        for place, shown in forms_here.items()
        if shown
    }
    return render(request, "games/game.html", context)


def _options(game: Game, moderator: str | None) -> list[tuple[str, str]]:
    """The game's settings as rows of the page; ``moderator`` is None where the name is hidden."""
    victory = variant_words.victory(game.variant, game.options.get("victory_centers"))
    deadline_time = (
        game.deadline_time.strftime("%H:%M UTC") if game.deadline_time else gettext("none")
    )
    yes, no = gettext("yes"), gettext("no")

    missed = ngettext(
        "%(n)d missed movement phase", "%(n)d missed movement phases", game.civil_disorder_after
    ) % {"n": game.civil_disorder_after}
    return [
        (gettext("Press"), game.get_press_display()),
        (gettext("Anonymous"), yes if game.anonymous else no),
        (gettext("Public (anyone may watch)"), yes if game.public else no),
        (gettext("Movement phases"), length_words(game.movement_minutes)),
        (gettext("Retreat phases"), length_words(game.retreats_minutes)),
        (gettext("Adjustment phases"), length_words(game.adjustments_minutes)),
        (gettext("Deadlines at"), deadline_time),
        (gettext("Process early when all are ready"), yes if game.process_when_ready else no),
        (gettext("Civil disorder after"), missed),
        (gettext("Bots"), bots_words(game)),
        (gettext("Victory"), victory[:1].upper() + victory[1:]),
        (gettext("Moderator"), moderator or gettext("hidden until the game ends")),
    ]


def length_words(minutes: int) -> str:
    """A phase's length as people say it: "7 days", "1 day 12 hours", "90 minutes" was
    "10080 minutes" (days and hours when whole, minutes only for what is left)."""
    days, rest = divmod(minutes, 24 * 60)
    hours, rest = divmod(rest, 60)
    if not days and (rest or not hours):  # under a day, not whole hours: the minutes alone
        return ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes}
    parts = [ngettext("%(n)d day", "%(n)d days", days) % {"n": days}] if days else []
    if hours:
        parts.append(ngettext("%(n)d hour", "%(n)d hours", hours) % {"n": hours})
    if rest:
        parts.append(ngettext("%(n)d minute", "%(n)d minutes", rest) % {"n": rest})
    return " ".join(parts)


def bots_words(game: Game) -> str:
    """What the game's bot settings do, in a sentence."""
    if game.bots_fill_empty and game.bots_take_civil_disorder:
        return gettext("Bots fill the seats nobody took and play powers in civil disorder.")
    if game.bots_fill_empty:
        return gettext("Bots fill the seats nobody took.")
    if game.bots_take_civil_disorder:
        return gettext("Bots play powers in civil disorder.")
    return gettext("Only when the moderator puts one on a seat.")


def _powers(
    game: Game, user, palette: str, every_seat: list[Membership], shown: Phase | None = None
) -> list[dict]:
    """The powers' table; ``every_seat``: all the game's seats with their users. ``shown``:
    the phase the page shows, whose centres, units and orders the table counts (a past
    phase's beside its board, not today's); Ready is the current phase's alone."""
    phase = game.current_phase
    shown = shown or phase
    past = shown is not None and phase is not None and shown.pk != phase.pk
    show = visibility.shows_names(game, user)
    bots = visibility.shows_bots(game, user)
    seats = {m.power: m for m in every_seat if m.status != Membership.Status.REPLACED}
    alive = engine.survivors(phase) if phase else set()
    # Unordered: the model's ordering would join the phase and the game for nothing.
    powers_in = shown.orders.order_by().values_list("power", flat=True).distinct() if shown else []
    ordered = set(powers_in)
    # A past phase's as its board (and the board's legend) shows it, before its orders; the
    # current one's as it leaves it (a game won with it: the winner's centres).
    counts = {}
    if shown is not None:
        counts = engine.centres_and_units(shown, as_left=not past)
    colours = power_colours(game.variant, palette)
    # A bot's seat is open to a take-over by whoever does not play (how a newcomer joins a
    # game bots filled); to the game's own players, where bots are hidden, it is a seat
    # like any human's: "open" would tell them which.
    plays = any(m.user_id == user.pk and m.in_play for m in every_seat)
    bot_open = bots or not plays
    out = []
    for name in engine.powers(game):
        seat = seats.get(name)
        out.append(
            {
                "power": name,
                "colour": colours.get(name),
                "player": visibility.player_name(seat, user, show, bots) if seat else None,
                "status": seat.status if seat else Membership.Status.CIVIL_DISORDER,
                "status_label": seat.get_status_display() if seat else gettext("Civil disorder"),
                "ready": bool(seat and seat.ready) and not past,
                "orders": name in ordered,
                "bot": bool(visibility.is_bot(seat, user, bots)),
                "centres": counts.get(name, (0, 0))[0],
                "units": counts.get(name, (0, 0))[1],
                "open": name in alive
                and (
                    seat is None
                    or (seat.bot and bot_open)
                    or seat.status == Membership.Status.CIVIL_DISORDER
                ),
            }
        )
    return out


def seating(powers: list[dict]) -> str:
    """Who plays each power as the viewer sees it (player, bot, status, open to a take-over)
    in a few characters: the powers event carries it, and a page whose table shows other
    seats reads them again (a replacement, a take-over, a bot put on)."""
    return "|".join(
        f"{p['power']}:{p['player'] or ''}:{int(p['bot'])}:{p['status']}:{int(p['open'])}"
        for p in powers
    )


def seating_now(request: HttpRequest, game: Game, every_seat: list[Membership]) -> str:
    """``seating`` of the game's seats today (``every_seat``: all of them, with their users),
    as ``request``'s user sees them."""
    return seating(_powers(game, request.user, palette_of(request), every_seat))


def _removed_by_default(phase: Phase) -> dict | None:
    """The units a processed phase took away because their power did not order them: a
    dislodged unit left without a retreat order, a unit removed for too few removals (the
    engine's ``civil_disorder``). Without this line they would just be gone."""
    units = (phase.results or {}).get("civil_disorder") if phase.processed_at else None
    if not units:
        return None
    if phase.type == Phase.Type.RETREATS:
        label = gettext("Disbanded, no valid retreat ordered:")
    else:
        label = gettext("Removed by default, too few valid removals ordered:")
    names = [f"{u['power']} {phase_guide.unit_name(u['unit'], u['location'])}" for u in units]
    return {"label": label, "units": names}


def _faction_orders(game: Game, phase: Phase) -> list[Order]:
    """The orders the server gave the factions (Chinese Diplomacy) in a processed phase, with
    their results, as the engine judged them: not stored as players' orders, yet a great
    power's bounce makes sense only beside the Imperial army that held. Unsaved rows, shown
    as the stored ones are."""
    if not phase.processed_at or not phase.results:
        return []
    great = set(engine.powers(game))
    return [
        Order(
            power=reply.get("power", ""),
            text=reply.get("order", ""),
            canonical=reply.get("canonical") or "",
            valid=reply.get("result") != "invalid",
            result=reply.get("result", ""),
            result_reason=reply.get("reason", ""),
            result_reason_words=reply.get("reason_words"),
            stopped_at=reply.get("stopped_at") or "",
        )
        for reply in phase.results.get("orders") or []
        if isinstance(reply, dict) and reply.get("power") not in great
    ]


def _faction_events(phase: Phase) -> list[str]:
    """The year's removals, builds and annihilations by the factions (Chinese Diplomacy), in
    words: a centre that changed hands between the orders and the next year says why."""
    factions = (phase.results or {}).get("factions") if phase.processed_at else None
    events = factions.get("events") if isinstance(factions, dict) else None
    said = {
        "removed": gettext("%(faction)s army in %(location)s removed"),
        "built": gettext("%(faction)s army built in %(location)s"),
        "annihilated": gettext("%(power)s army in %(location)s annihilated by the %(faction)s"),
    }
    lines = []
    for event in events or []:
        words = said.get(event.get("event")) if isinstance(event, dict) else None
        if words:
            lines.append(words % {k: event.get(k, "") for k in ("faction", "location", "power")})
    return lines


def _phase_context(request: HttpRequest, game: Game, phase: Phase, power: str | None) -> dict:
    user = request.user
    orders = list(visibility.visible_orders(phase, user))
    mine = [o for o in orders if o.power == power]
    orders += _faction_orders(game, phase)
    context = {
        "phase_label": phase_name(game, phase),
        # The board is its own resource, cached per phase: the page stays small.
        "board_src": board_url(game, phase, palette_of(request)),
        "board": "" if has_board(game) else NO_BOARD,
        "orders": orders,
        "results": phase.results if phase.processed_at else None,
        "removed_by_default": _removed_by_default(phase),
        "faction_events": _faction_events(phase),
    }
    # A game ended in the middle of a phase (a draw, a concession, the moderator's End)
    # leaves that phase unprocessed: nothing more is ordered in it.
    playing = phase.pk == game.current_phase_id and not phase.processed_at and not game.is_over
    if playing and power:
        own = [u for u in phase.units if u["power"] == power]
        if phase.type == Phase.Type.RETREATS:
            own = [u for u in phase.dislodged if u["power"] == power]
            context["retreats"] = phase_guide.retreats(game, phase, power)
        elif phase.type == Phase.Type.ADJUSTMENTS:
            # Builds and removals are not orders to units: say how many instead.
            own = []
            context["adjustment"] = phase_guide.adjustments(game, phase, power)
        context["examples"] = variant_words.examples(game.variant, phase.type)
        unordered = without_orders(own, mine)
        context["unordered"] = [phase_guide.unit_name(u["unit"], u["location"]) for u in unordered]
        context["must_act"] = power in engine.powers_to_act(phase)
        context["has_units"] = bool(own)
        if phase.type == Phase.Type.MOVEMENT:
            context["rule_orders"] = engine.rule_orders(game, phase, power)
        unsaved = kept_input.take(request, "unsaved-orders", game.pk, str)
        version = services.orders_version(phase.pk, power, mine)
        context["orders_form"] = OrdersForm(
            initial={
                "orders": unsaved or "\n".join(o.text for o in mine),
                "version": version,
                "phase": phase.index,
            }
        )
        # The board's order menu only for a power with something to order: one told "nothing
        # to order" was also asked to click its units, beside a box and a Ready that did nothing.
        if context["must_act"]:
            context["board_data"] = board_data(game, phase, power)
            context["board_data"]["unordered"] = [u["location"] for u in unordered]
        if "adjustment" in context and context["must_act"]:
            guide = context["adjustment"]
            context["board_data"]["guide"] = guide["text"]
            context["board_data"]["builds"] = guide["builds"]
            context["board_data"]["removals"] = guide["removals"]
            guide["left"], guide["unused"] = _adjustments_left(guide, mine)
    return context


def without_orders(units: list[dict], orders: list[Order]) -> list[dict]:
    """The units no valid saved order is for. Counted in each place: an entry space or an
    ocean holds several of a power's alike units, and one order there is one unit's (three
    armies in the Pacific and one order leave two without); a Chinese army's Leave is its
    order, an Enter orders none of those standing."""
    given: Counter[str] = Counter()
    for order in orders:
        data = order.data or {}
        if order.valid and order.location:
            given[order.location] += 1
        elif order.valid and data.get("form") == "leave" and data.get("location"):
            given[data["location"]] += 1
    out = []
    for unit in units:
        if given[unit["location"]] > 0:
            given[unit["location"]] -= 1
        else:
            out.append(unit)
    return out


def _adjustments_left(guide: dict, mine: list[Order]) -> tuple[str, int]:
    """How many of the power's builds (or removals) its saved orders leave unused, in words
    and as a number; no words when it has none. A waive uses a build; an invalid order uses
    nothing."""
    allowed = guide["builds"] or guide["removals"]
    if not allowed:
        return "", 0
    spends = ("build", "waive") if guide["builds"] else ("remove",)
    used = sum(1 for o in mine if o.valid and (o.data or {}).get("kind") in spends)
    left = max(0, allowed - used)
    words = (
        gettext("Builds left: %(left)s of %(n)s.")
        if guide["builds"]
        else gettext("Removals left: %(left)s of %(n)s.")
    )
    return words % {"left": left, "n": allowed}, left


def after_payments(phase: Phase, power: str) -> int:
    """What ``power`` holds going into the year, less what it has paid this year and plus what
    it has been paid (both listed on its page): its balance before the year's income and
    costs. A power warned of deposition while 100,000 paid to it stood in its own list was
    told something untrue."""
    opening = (engine.opening_balances(phase) or {}).get(power, 0)
    moved = phase.payments.filter(Q(payer=power) | Q(payee=power)).values_list("payer", "amount")
    return opening + sum(-amount if payer == power else amount for payer, amount in moved)


def _gold_context(
    request: HttpRequest, game: Game, phase: Phase, power: str | None, is_current: bool
) -> dict:
    """Chinese Diplomacy's gold: balances, payments, published faction orders, the statement."""
    economy = phase.carried.get("economy")
    if economy is None:
        return {}
    powers = engine.powers(game)
    gold = {
        "balances": [(p, (engine.opening_balances(phase) or {}).get(p, 0)) for p in powers],
        "payments": list(visibility.visible_payments(game, request.user).filter(phase=phase)),
        "faction_orders": [],
        "statement": [],
    }
    if is_current:
        gold["faction_orders"] = [
            o
            for o in phase.carried.get("faction_orders", [])
            if o.get("published") and o.get("power") != "Communists"
        ]
        if power and not game.is_over:
            others = [p for p in powers if p != power]
            initial = {"key": uuid.uuid4().hex, "phase": phase.index}
            unpaid = kept_input.take(request, "unpaid", game.pk, dict)
            if unpaid:  # refused (``pay``): back in the form
                initial.update({k: v for k, v in unpaid.items() if k in ("to", "amount") and v})
            gold["payment_form"] = PaymentForm(powers=others, initial=initial)
            gold["payer"], gold["after_payments"] = power, after_payments(phase, power)
            limit = engine.deposition_limit(game.variant)
            if limit is not None:
                gold["limit"] = f"{limit:,}"
                gold["past_limit"] = gold["after_payments"] < limit
    results = (phase.results or {}).get("economy") if phase.processed_at else None
    if results and phase.pk == game.current_phase_id:
        # The game ended with this phase (Chinese Diplomacy's 1950): no year follows to carry
        # the gold, so the balances shown are the final ones, the result's.
        final = results.get("balances") or {}
        gold["balances"] = [(p, final.get(p, 0)) for p in powers]
        gold["final"] = True
    if results:
        deposed = set(results.get("deposed") or [])
        lines: dict[str, list[dict]] = {}
        for entry in results.get("ledger", []):
            said = {
                "item": LEDGER_ITEMS.get(entry.get("item"), entry.get("item")),
                "detail": reason_words.say(entry.get("detail_words"), entry.get("detail", "")),
            }
            lines.setdefault(entry["power"], []).append({**entry, **said})
        names = [p for p in powers if p in lines or p in deposed]
        names += sorted((set(lines) | deposed) - set(names))
        closing = results.get("balances") or {}

        def statement(name: str) -> dict:
            # The year's profit or loss is its lines but the deposition's: that line only
            # puts the power back at zero for its new leader, after the total (a leader who
            # lost 215 k oz and was deposed from -990 did not make a profit of 990).
            # So does a new leader's start at zero (rule 6): no profit or loss of the year.
            mine = lines.get(name, [])
            year = [e for e in mine if e.get("item") not in RESETS]
            return {
                "power": name,
                "lines": year,
                "total": sum(e["amount"] for e in year),
                "after_total": [e for e in mine if e.get("item") in RESETS],
                "balance": closing.get(name),
                "deposed": name in deposed,
            }

        gold["statement"] = [statement(name) for name in names]
        gold["statement_processed"] = True
    return {"gold": gold}


# Messages of a thread shown at once; earlier ones are a link away.
PRESS_PAGE = 50


def _press_page(thread: dict, before: str) -> None:
    """Cut the thread to its latest ``PRESS_PAGE`` messages (before message ``before``, its
    public id, when given and in the thread), so that a flood of press cannot make every
    reader's page megabytes long."""
    messages = thread["messages"]
    given = int(before) if re.fullmatch(r"[0-9]{1,18}", before) else None
    at = next((i for i, m in enumerate(messages) if m.public_id == given), None)
    thread["paged"] = at is not None
    if at is not None:
        messages = messages[:at]
    shown = messages[-PRESS_PAGE:]
    thread["messages"] = shown
    thread["earlier"] = shown[0].public_id if len(messages) > len(shown) else None


def _press_context(request: HttpRequest, game: Game, power: str | None) -> dict:
    # Read markers live on the account, so unread counts agree on every device; a signed-out
    # spectator has none (everything is read).
    signed_in = request.user.is_authenticated
    markers = PressRead.objects.filter(user=request.user, game=game) if signed_in else None
    seen = dict(markers.values_list("thread", "last_read")) if signed_in else {}
    threads = _threads(game, request.user, power, seen)
    selected = request.GET.get("thread")
    if selected is None and threads:
        selected = threads[0]["key"]
    thread = next((t for t in threads if t["key"] == selected), None)
    newest = max(m.pk for m in thread["messages"]) if thread is not None else 0
    if thread is not None and signed_in and seen.get(thread["key"], 0) < newest:
        # Read from now on; this page still shows how many were new when it opened.
        PressRead.mark(request.user, game, thread["key"], newest)
    if thread is not None:
        _press_page(thread, request.GET.get("before", ""))
    can_send = game.status not in (Game.Status.FORMING, Game.Status.CANCELLED) and (
        power is not None or game.is_moderator(request.user)
    )
    # A player may write to a moderator who does not play, whatever the game's press.
    moderator = [Message.MODERATOR] if power and services.moderator_reads(game) else []
    others = [p for p in engine.powers(game) if p != power]
    no_press = game.press == Game.Press.NONE and bool(power) and not game.is_over
    if game.press == Game.Press.PUBLIC and power and not game.is_over:
        # Players write publicly (or to the moderator); a moderator who does not play may
        # still answer one power privately, in its thread.
        others = []
    elif no_press:
        others = []
        can_send = can_send and bool(moderator)
    others += moderator
    # A private thread shown ticks its members, to reply there: when it is opened and right
    # after sending in it, so that a follow-up stays in the conversation. A public message
    # is a deliberate choice: the public thread, or unticking everyone.
    ticked = None
    if thread and thread["key"] != "public":
        ticked = tuple(p for p in thread["key"].split("|") if p in others)
    language = translation.get_language()
    fields = _press_fields(language, tuple(others), ticked, no_press) if can_send else ""
    unsent = kept_input.take(request, "unsent-press", game.pk, dict) if signed_in else None
    if can_send and unsent is not None:  # refused (``_keep_press``): back in the box
        form = MessageForm(powers=others, initial=unsent, no_press=no_press)
        fields = render_to_string("form_fields.html", {"form": form})
    refused = kept_input.take(request, "press-refused", game.pk, list) if signed_in else None
    return {
        "press_refused": refused or [],
        "threads": threads,
        "thread": thread,
        "can_send": can_send,
        "message_fields": fields,
        # The phase the press form is shown in, sent back with it (``send_press``).
        "press_phase": game.current_phase.index if game.current_phase else None,
    }


@lru_cache(maxsize=1024)
def _press_fields(
    language: str,
    others: tuple[str, ...],
    ticked: tuple[str, ...] | None,
    no_press: bool = False,
) -> str:
    """The press form's fields as HTML (``form_fields.html``), made once per process for each
    language, choice of recipients, ticked thread and kind of press: the form is never bound
    on the page, so nothing else changes them, and Django's widget templates cost 2.5 ms a
    page."""
    form = MessageForm(powers=list(others), no_press=no_press)
    if ticked is not None and "recipients" in form.fields and not no_press:
        form.initial["recipients"] = list(ticked)
        form.fields["recipients"].help_text = gettext(
            "Ticked to reply in this thread; untick everyone for a public message."
        )
    return render_to_string("form_fields.html", {"form": form})


@watchable
def board(request: HttpRequest, pk: int) -> HttpResponse:
    """The board as its own resource, in three forms:

    - ``?phase=n&v=<version>`` (the page's address, from ``board_url``): the phase without
      pending orders, results drawn once processed. Kept a year by the browser, since a new
      picture gets a new version; an old or wrong version is answered with ``no-cache``.
    - ``?phase=n&part=orders``: only the order marks the viewer may see (a few kilobytes), which
      the page lays over the board after each order check.
    - ``?phase=n``: the whole board with those orders (the page without JavaScript shows it).

    Every form has an ETag and answers 304 to a matching If-None-Match.
    """
    game = request.watched_game
    phase = game.current_phase
    if "phase" in request.GET:
        index = ascii_index(request.GET["phase"])
        if index is None:
            raise Http404("no such phase")
        phase = get_object_or_404(game.phases, index=index)
    if phase is None:
        raise Http404("the game has not started")
    palette = palette_of(request)
    if request.GET.get("part") == "orders":
        body = orders_overlay(game, phase, request.user, palette)
        return _cached(request, body, "image/svg+xml", forever=False)
    if "v" in request.GET and has_board(game):
        version = board_version(game, phase, palette)
        svg = board_svg(game, phase, request.user, palette, orders=False)
        fixed = request.GET["v"] == version
        return _cached(request, svg, "image/svg+xml", forever=fixed, etag=version)
    svg = board_svg(game, phase, request.user, palette)
    return _cached(request, svg, "image/svg+xml", forever=False)


def _cached(
    request: HttpRequest, body: str, content_type: str, *, forever: bool, etag: str = ""
) -> HttpResponse:
    """An answer the viewer's browser may keep: a year when its address says its version,
    else revalidated each time (304 when unchanged). Private: the board may show the
    viewer's own orders and palette."""
    etag = etag or hashlib.blake2b(body.encode(), digest_size=12).hexdigest()
    # Weakly compared: gzip (CompressionMiddleware) makes the ETag a weak one, W/"...".
    sent = {tag.removeprefix("W/") for tag in parse_etags(request.headers.get("If-None-Match", ""))}
    if f'"{etag}"' in sent:
        response = HttpResponse(status=304)
    else:
        response = HttpResponse(body, content_type=content_type)
    response["ETag"] = f'"{etag}"'
    if forever:
        patch_cache_control(response, private=True, max_age=BOARD_MAX_AGE, immutable=True)
    else:
        patch_cache_control(response, private=True, no_cache=True)
    return response


# The tag of the orders form's own messages: shown in the orders panel, beside the box the
# page comes back to (``#orders``), not at the top, off the screen (base.html skips them).
# Messages of a form's post that the page shows beside the form (``said_here``).
ORDERS = "orders"
VOTE = "vote"
GOLD = "gold"


@signed_in_to_act
@require_POST
def submit_orders(request: HttpRequest, pk: int) -> HttpResponse:
    """The orders box without JavaScript: replace the orders, then show how each fared."""
    game, membership = _playing(request, pk)
    form = OrdersForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            messages.error(request, " ".join(errors) + " " + gettext("Nothing was saved."), ORDERS)
        text = request.POST.get("orders", "")
        if len(text) <= form.fields["orders"].max_length:  # kept to be fixed, if not huge
            kept_input.keep(request, "unsaved-orders", pk, text)
        return redirect(reverse("game", args=[pk]) + "#orders")
    version = form.cleaned_data["version"] or None
    current = game.current_phase
    try:
        if current is None or form.cleaned_data["phase"] != current.index:
            raise services.PhaseChanged("the box was filled for another phase")
        services.submit_orders(membership, form.lines(), version=version, phase=current)
    except services.PhaseChanged:
        # Typed for a phase processed since (or a page without the phase): never stored in
        # the next phase; the text comes back to be looked at against the new board. A phase
        # after the current one was never processed: the game does not have it (made up, or
        # undone by a rollback), and saying it was processed would send the player looking
        # for a phase that is not there.
        asked = form.cleaned_data["phase"]
        if current is not None and asked is not None and asked > current.index:
            why = gettext(
                "This page names a phase this game does not have, so nothing was saved. Your "
                "text is still in the box; look at the board again first."
            )
        else:
            why = gettext(
                "This page was loaded for a phase that has been processed since, so nothing was "
                "saved. Your text is still in the box; look at the board again first.",
            )
        _not_saved(request, pk, form, why)
    except services.OrdersChanged:
        # Saved from another tab meanwhile: keep both. This box comes back as typed, next to
        # the orders now saved, to be saved again.
        _not_saved(
            request,
            pk,
            form,
            gettext(
                "Your orders were changed in another tab since this page was loaded, so nothing "
                "was saved. Your text is still in the box; the orders saved now are listed below.",
            ),
        )
    except services.GameError as error:
        messages.error(request, str(error), ORDERS)
    else:
        saved = list(membership.orders.filter(phase_id=game.current_phase_id))
        bad = sum(1 for o in saved if not o.valid)
        if bad == 1:
            said = gettext("Orders saved, but 1 of %(all)s is invalid: it will not be carried out.")
        elif bad:
            said = gettext(
                "Orders saved, but %(bad)s of %(all)s are invalid: they will not be carried out."
            )
        if bad:
            messages.warning(request, said % {"bad": bad, "all": len(saved)}, ORDERS)
        else:
            messages.success(request, gettext("Orders saved."), ORDERS)
    return redirect(reverse("game", args=[pk]) + "#orders")


def _not_saved(request: HttpRequest, pk: int, form: OrdersForm, why: str) -> None:
    """The box's text kept for the page to show again, and why nothing was saved."""
    kept_input.keep(request, "unsaved-orders", pk, form.cleaned_data["orders"])
    messages.error(request, why, ORDERS)


@signed_in_to_act
@require_POST
def add_order(request: HttpRequest, pk: int) -> HttpResponse:
    """One order added to the saved ones by a button (Chinese Diplomacy's Enter and Leave, a
    Suez permit); the engine checks it like any other."""
    game, membership = _playing(request, pk)
    # Never cut short: the cut text can be another order (``A Tongking - Yunnan`` and, past
    # the limit, `` H``); one that long is refused for its length, as the API refuses it.
    text = "".join(engine.order_lines([request.POST.get("order", "")]))
    index = ascii_index(request.POST.get("phase"))
    current = game.current_phase
    if text and (index is None or current is None or index != current.index):
        # A button of a page shown before the phase was processed: never the next phase's.
        messages.error(
            request, gettext("That button belonged to an old page; reload and try again.")
        )
    elif text:
        mine = Order.objects.filter(phase_id=game.current_phase_id, power=membership.power)
        saved = list(mine.order_by("position"))
        texts = [o.text for o in saved] + [text]
        # Added to the orders read here: if they change meanwhile, nothing is overwritten.
        version = services.orders_version(game.current_phase_id, membership.power, saved)
        try:
            added = services.submit_orders(membership, texts, version=version)[-1]
        except services.OrdersChanged:
            messages.error(
                request, gettext("Your orders were changed elsewhere; nothing was added.")
            )
        except services.GameError as error:
            messages.error(request, str(error))
        else:
            if added.valid:
                messages.success(
                    request,
                    gettext("Added “%(order)s” to your orders.") % {"order": added.canonical},
                )
            else:
                messages.warning(
                    request,
                    gettext("“%(order)s” is invalid: %(reason)s")
                    % {"order": text, "reason": added.said_reason},
                )
    return redirect(reverse("game", args=[pk]) + "#orders")


@signed_in_to_act
@require_POST
def ready(request: HttpRequest, pk: int) -> HttpResponse:
    """Ready (or not) for the phase the button was shown in, and only for that one."""
    game, membership = _playing(request, pk)
    phase = ascii_index(request.POST.get("phase"))
    if phase is None:
        messages.error(
            request, gettext("That button belonged to an old page; reload and try again.")
        )
    else:
        ready = request.POST.get("ready") != "0"
        current = game.current_phase
        undone = _left_undone(game, membership) if ready else []
        stale = current is None or current.index != phase
        if undone and request.POST.get("confirm") != "yes" and not stale:
            # The page with JavaScript asks before Ready; without it, this page asks: once
            # every power is ready the phase is processed at once, too late to change a thing.
            context = {"game": game, "phase": current, "undone": undone}
            context["phase_name"] = phase_name(game, current)
            return render(request, "games/ready_confirm.html", context)
        _act(request, services.set_ready, membership, ready, phase=phase)
    return redirect(reverse("game", args=[pk]) + "#orders")


def _left_undone(game: Game, membership: Membership) -> list[str]:
    """What Ready would leave undone in the current phase, in words (as board.js says it
    before Ready): saved orders the engine refused, units without a valid order, builds or
    removals unused."""
    phase = game.current_phase
    power = membership.power
    if phase is None or phase.processed_at or not power:
        return []
    saved = list(phase.orders.filter(power=power))
    said = []
    bad = sum(1 for o in saved if not o.valid)
    if bad == 1:
        said.append(
            gettext("1 of your %(all)s saved orders is invalid and will not be carried out.")
            % {"all": len(saved)}
        )
    elif bad:
        said.append(
            gettext("%(bad)s of your %(all)s saved orders are invalid and will not be carried out.")
            % {"bad": bad, "all": len(saved)}
        )
    if power not in engine.powers_to_act(phase):
        return said
    due = []
    if phase.type == Phase.Type.MOVEMENT:
        due = [u for u in phase.units if u["power"] == power]
    elif phase.type == Phase.Type.RETREATS:
        due = [u for u in phase.dislodged if u["power"] == power]
    else:
        guide = phase_guide.adjustments(game, phase, power)
        words, unused = _adjustments_left(guide, saved)
        if unused:
            said.append(words)
    missing = [phase_guide.unit_name(u["unit"], u["location"]) for u in without_orders(due, saved)]
    if missing:
        said.append(gettext("Without orders: %(units)s.") % {"units": ", ".join(missing)})
    return said


def _keep_press(request: HttpRequest, pk: int, form: MessageForm) -> list[str]:
    """Press refused (too long, a recipient who is no power, nobody but oneself to read it,
    a game that takes public press only) comes back in the box, as the orders box does: the
    words typed are never lost to a refusal. Only the recipients that are powers are ticked
    again. A text far past the size cap (no page's box sends one) comes back cut at twice
    the cap, for the session's sake: the box is never empty after a refusal."""
    body = form.data.get("body", "").replace("\x00", "")  # a NUL, refused, is not kept
    body = body[: 2 * form.fields["body"].max_length]
    field = form.fields.get("recipients")
    powers = {value for value, _label in field.choices} if field else set()
    recipients = [p for p in form.data.getlist("recipients") if p in powers]
    # The recipients too when there was nothing to send: ticking them again is work lost.
    kept_input.keep(request, "unsent-press", pk, {"body": body, "recipients": recipients})
    return recipients


def _press_refused(request: HttpRequest, pk: int, said: list[str]) -> None:
    """Why press was not sent, for the game page to show beside the press form (the page's
    messages stand at its top, off the screen of a phone scrolled down to the form)."""
    kept_input.keep(request, "press-refused", pk, [str(text)[:500] for text in said][:10])


def _back_to_thread(membership, recipients: list[str]) -> str:
    """The thread a message to ``recipients`` belongs to, as the game page names it."""
    if not recipients:
        return ""
    me = membership.power if membership and membership.power else "Moderator"
    return "|".join(sorted({me, *recipients}))


@signed_in_to_act
@require_POST
def send_press(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game_or_404(pk, request.user)
    membership = game.membership_of(request.user)
    # Every power, one's own too, as the API takes them: the service drops the sender and says
    # why when nobody else is left.
    form = MessageForm(request.POST, powers=[*engine.powers(game), Message.MODERATOR])
    thread = ""
    if form.is_valid():
        recipients = form.cleaned_data.get("recipients", [])
        # The phase the form was shown in: press written before the phase was processed is
        # not sent in the next one unseen; it comes back in the box, with why.
        written = request.POST.get("phase", "")
        phase = ascii_index(written)
        current = game.current_phase
        try:
            if phase is None:  # every press form names its phase
                raise services.PhaseChanged("the press form names no phase")
            sent = services.send_message(
                game, request.user, form.cleaned_data["body"], recipients, phase=phase
            )
        except services.PhaseChanged:
            sent = None
            kept_input.keep(
                request,
                "unsent-press",
                pk,
                {"body": form.cleaned_data["body"], "recipients": recipients},
            )
            # Only a page of this game's past phases was written before one was processed;
            # a phase the game does not have (made up, or undone by a rollback) was not, nor
            # a form without its phase (the page always sends one).
            kept = gettext("Your message is still in the box.")
            if not written.strip():
                said = str(INCOMPLETE_FORM) + " " + kept
            elif phase is None or (current is not None and phase > current.index):
                said = str(NO_SUCH_PHASE) + " " + kept
            else:
                said = gettext(
                    "This message was written for a phase that has been processed since, so "
                    "it was not sent. It is still in the box: look at the board again, then "
                    "send it if it still holds."
                )
            _press_refused(request, pk, [said])
            thread = _back_to_thread(membership, recipients)
        except (services.GameError, PermissionError) as error:
            sent = None
            _keep_press(request, pk, form)
            _press_refused(request, pk, [str(error)])
            thread = _back_to_thread(membership, recipients)
        if sent:
            thread = _back_to_thread(membership, recipients) or "public"
    else:
        kept = _keep_press(request, pk, form)
        _press_refused(request, pk, _said_errors(form))
        thread = _back_to_thread(membership, kept)
    url = reverse("game", args=[pk])
    return redirect(f"{url}?{urlencode({'thread': thread})}#press" if thread else f"{url}#press")


@signed_in_to_act
@require_POST
def pay(request: HttpRequest, pk: int) -> HttpResponse:
    """Gold for another great power, without JavaScript; the service checks the rules."""
    game, membership = _playing(request, pk)
    others = [p for p in engine.powers(game) if p != membership.power]
    form = PaymentForm(request.POST, powers=others)
    paid = gettext("Paid %(to)s %(amount)s k oz.")
    if not pay_from_form(request, membership, form, paid, GOLD):
        # Refused: the payee and the amount come back in the form, to be mended.
        amount = str(request.POST.get("amount", ""))[:20]
        to = request.POST.get("to", "")
        kept_input.keep(
            request,
            "unpaid",
            pk,
            {
                "to": to if to in others else "",
                "amount": amount if re.fullmatch(r"-?[0-9.eE+]{1,20}", amount) else "",
            },
        )
    return redirect(reverse("game", args=[pk]) + "#gold")


def form_errors(request: HttpRequest, form: BaseForm, place: str = "") -> None:
    """Each field's refusal as a message, under the field's label: what is wrong, not a guess.
    ``place``: the form's, where the page shows what its post said (``said_here``)."""
    for text in _said_errors(form):
        messages.error(request, text, place)


def _said_errors(form: BaseForm) -> list[str]:
    """Each field's refusal under the field's label."""
    said = []
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else None
        text = " ".join(errors)
        said.append(f"{label}: {text}" if label else text)
    return said


def pay_from_form(
    request: HttpRequest, membership, form: PaymentForm, paid: str, place: str = ""
) -> bool:
    """Pay as a payment form says (the game page's, a sandbox's) and tell the player how it
    went; ``paid`` says it was paid, from ``%(power)s``, ``%(to)s`` and ``%(amount)s``;
    ``place``: the form's, where the page shows what was said (``said_here``).
    Whether it was paid (or had been, the same form sent again)."""
    if not form.is_valid():
        form_errors(request, form, place)
        return False
    data = form.cleaned_data
    try:
        if data["phase"] is None:  # every payment form names its phase: an old page's
            raise services.PhaseChanged("the payment form names no phase")
        payment = services.pay(
            membership, data["to"], data["amount"], key=data["key"], phase=data["phase"]
        )
    except services.PhaseChanged:
        messages.error(
            request,
            gettext(
                "This payment form was shown for a phase that has been processed since, so "
                "nothing was paid. Look at the new balances, then pay again if you still mean to."
            ),
            place,
        )
        return False
    except services.GameError as error:
        messages.error(request, str(error), place)
        return False
    if payment.repeated:
        messages.info(
            request, gettext("That payment was already made; nothing more was paid."), place
        )
    else:
        words = {"power": membership.power, "to": data["to"], "amount": data["amount"]}
        messages.success(request, paid % words, place)
    _warn_past_the_limit(request, membership, place)
    return True


def _warn_past_the_limit(request: HttpRequest, membership, place: str) -> None:
    """A warning when this year's payments alone take the power past the balance that deposes
    its leader at the year's end (seed 003, rule 6): paying is allowed, debt too, but nobody
    should learn of a deposition only from the statement."""
    limit = engine.deposition_limit(membership.game.variant)
    phase = membership.game.current_phase
    if limit is None or phase is None:
        return
    left = after_payments(phase, membership.power)
    if left < limit:
        messages.warning(
            request,
            gettext(
                "After this year's payments, to it and from it, %(power)s stands at %(left)s "
                "k oz, before the year's income and costs: a balance below %(limit)s at the "
                "year's end deposes its leader."
            )
            % {"power": membership.power, "left": f"{left:,}", "limit": f"{limit:,}"},
            place,
        )


@signed_in_to_act
@require_POST
def vote(request: HttpRequest, pk: int) -> HttpResponse:
    game, membership = _playing(request, pk)
    form = VoteForm(request.POST, powers=[p for p in engine.powers(game) if p != membership.power])
    back = redirect(reverse("game", args=[pk]) + "#vote")
    if not form.is_valid():
        for errors in form.errors.values():
            messages.error(request, " ".join(errors), VOTE)
        return back
    choice = form.cleaned_data["vote"]
    if choice == "draw":
        cast = {"draw": True}
        said = gettext("Your vote: a draw. It stays until you change or withdraw it.")
    elif choice:
        cast = {"concede_to": choice}
        said = gettext(
            "Your vote: to concede to %(power)s. It stays until you change or withdraw it."
        ) % {"power": choice}
    else:
        cast = {}
        said = gettext("You have no vote standing.")
    try:
        services.vote(membership, **cast)
    except (services.GameError, PermissionError) as error:
        messages.error(request, str(error), VOTE)
        return back
    game.refresh_from_db()
    if game.is_over:  # the last vote needed: the game ended with it (no vote form now)
        messages.success(request, gettext("Your vote ended the game."))
        return redirect("game", pk=pk)
    messages.success(request, said, VOTE)
    return back


# -- moderation ----------------------------------------------------------------------------


def _when(value: str | None, zone: str) -> str:
    """An ISO time from the audit log, in the viewer's time zone."""
    if not value:
        return gettext("none")
    moment = datetime.fromisoformat(value).astimezone(zoneinfo.ZoneInfo(zone))
    return date_format(moment, "D j M H:i T")


def audit_words(entry: ModeratorAction, phase_names: dict[int, str], zone: str) -> str:
    """One audit-log entry as a sentence, rather than the raw details it was stored with."""
    d = entry.details or {}
    phase = d.get("phase")
    if phase in phase_names:
        phase_text = gettext("phase %(index)s (%(name)s)") % {
            "index": phase,
            "name": phase_names[phase],
        }
    else:
        phase_text = gettext("phase %(index)s") % {"index": phase}
    left = int(d.get("remaining_seconds") or 0)
    power, player, new = d.get("power"), d.get("player"), d.get("new")
    words = {
        "create": lambda: (
            gettext("Created the game (%(variant)s).")
            % {"variant": variant_words.variant_name(d.get("variant"))}
        ),
        "start": lambda: (
            gettext("Started the game with %(players)s players.") % {"players": d.get("players")}
        ),
        "deadline": lambda: (
            gettext("Moved the deadline from %(old)s to %(new)s.")
            % {"old": _when(d.get("old"), zone), "new": _when(d.get("new"), zone)}
        ),
        "pause": lambda: (
            gettext("Paused the clock with %(hours)s h %(minutes)s min left.")
            % {"hours": left // 3600, "minutes": left % 3600 // 60}
        ),
        "resume": lambda: (
            gettext("Restarted the clock; deadline %(deadline)s.")
            % {"deadline": _when(d.get("deadline"), zone)}
        ),
        "process": lambda: gettext("Processed %(phase)s at once.") % {"phase": phase_text},
        "rollback": lambda: gettext("Rolled back to %(phase)s.") % {"phase": phase_text},
        "replace": lambda: (
            gettext("Handed %(power)s from %(old)s to %(new)s.")
            % {"power": power, "old": d["old"], "new": new}
            if d.get("old")
            else gettext("Gave %(power)s to %(new)s.") % {"power": power, "new": new}
        ),
        "remove": lambda: (
            gettext("Put %(power)s (%(player)s) into civil disorder.")
            % {"power": power, "player": player}
        ),
        "draw": lambda: (
            gettext("Declared a draw among %(powers)s.")
            % {"powers": ", ".join(d.get("powers") or []) or gettext("nobody")}
        ),
        "end": lambda: (
            gettext("Ended the game with %(winner)s as the winner.") % {"winner": d["winner"]}
            if d.get("winner")
            else gettext("Ended the game without a winner.")
        ),
        "bot": lambda: bot_words(d),
        "bot failed": lambda: (
            gettext("The bot could not play %(power)s in %(phase)s; the seat holds.")
            % {"power": power, "phase": phase_text}
        ),
        "pay": lambda: (
            gettext("Paid %(payee)s %(amount)s k oz of gold.")
            % {"payee": d.get("payee"), "amount": d.get("amount")}
        ),
        "payment dropped": lambda: (
            gettext(
                "Dropped %(power)s's payment of %(amount)s k oz to %(payee)s in %(phase)s: an "
                "earlier leader made it, and the power has another now."
            )
            % {"power": power, "amount": d.get("amount"), "payee": d.get("to"), "phase": phase_text}
        ),
        "deposed": lambda: (
            gettext(
                "%(power)s's leader (%(player)s) was deposed, more than 1,000 k oz in debt; the "
                "power is open to a new player."
            )
            % {"power": power, "player": player}
        ),
    }
    if entry.action in words:
        return words[entry.action]()
    return "; ".join(f"{key.replace('_', ' ')}: {value}" for key, value in d.items()) or "—"


def bot_words(d: dict) -> str:
    """An audit-log entry of a bot put on or taken off a seat."""
    power, player = d.get("power"), d.get("player")
    if not d.get("bot") and d.get("why") == "taken":
        return gettext("%(player)s took %(power)s over from its bot.") % {
            "power": power,
            "player": player,
        }
    if not d.get("bot"):
        return gettext("Took the bot off %(power)s; the power is in civil disorder.") % {
            "power": power
        }
    if d.get("why") == "cd":
        return gettext("%(power)s fell into civil disorder (%(player)s); a bot plays it now.") % {
            "power": power,
            "player": player,
        }
    if player:
        return gettext("Put a bot on %(power)s in place of %(player)s.") % {
            "power": power,
            "player": player,
        }
    return gettext("Put a bot on %(power)s.") % {"power": power}


# Audit-log entries shown a page of the moderator's console (newest first).
AUDIT_PAGE = 50


@moderator_only
def moderate(request: HttpRequest, game: Game) -> HttpResponse:
    phases = list(game.phases.all())
    names = {p.index: phase_name(game, p) for p in phases}
    zone = time_zone_of(request)
    entries = visibility.audit_log(game, request.user)
    log = Paginator(entries, AUDIT_PAGE).get_page(ascii_index(request.GET.get("log")) or 1)
    # What a refused action's form held (``moderate_action``), given back to its boxes: taken
    # only by this game's console, so that another game's, opened first, leaves it waiting.
    kept = request.session.get(REFUSED_ACTION)
    typed, action_typed = {}, None
    if isinstance(kept, dict) and kept.get("game") == game.pk:
        del request.session[REFUSED_ACTION]
        typed, action_typed = kept.get("values") or {}, kept.get("action")
    context = {
        "game": game,
        "actions": [
            (a, [(f, typed.get(f.name, "") if a.name == action_typed else "") for f in a.fields])
            for a in moderation.possible(game)
        ],
        "powers": engine.powers(game),
        # Rollback's choices: the current phase is no earlier one (the service refuses it),
        # unless the game is over: then it is the phase the game ended in, to go back to.
        "earlier_phases": [
            (p, names[p.index]) for p in phases if p.pk != game.current_phase_id or game.is_over
        ],
        "log": [
            (entry, ACTION_NAMES.get(entry.action, entry.action), audit_words(entry, names, zone))
            for entry in visibility.hide_logged_names(
                log, game, request.user, placeholder=gettext("an anonymous player")
            )
        ],
        "log_page": log,
        "time_zone": zone,
        "rules_variant": game.variant,
        "webhooks": list(game.webhooks.all()),
        # A refused webhook (``reach_views.webhook_add``): its address and why, by its form.
        "webhook_refused": kept_input.take(request, "webhook-refused", game.pk, dict) or {},
    }
    return render(request, "games/moderate.html", context)


# The session key of a refused action's inputs, how much of each is kept, and what a value of
# a number or date box must look like to be shown in it again.
REFUSED_ACTION = "moderation_refused"
TYPED_KEPT = 200
KEPT_SHAPES = {
    "minutes": re.compile(r"-?\d{1,12}"),
    "deadline": re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,3})?)?"),
}


@moderator_only
@require_POST
def moderate_action(request: HttpRequest, game: Game, action: str) -> HttpResponse:
    """Every action asks once more before it acts: the first post shows what will happen.
    An action the game's state does not allow now is refused with its reason."""
    entry = moderation.ACTIONS.get(action)
    if entry is None:
        raise Http404("no such action")
    reason = entry.why_not(game)
    if reason:
        messages.error(request, reason)
        return redirect("moderate", pk=game.pk)
    with timezone.override(time_zone_of(request)):  # a deadline typed is in the viewer's zone
        form = ModerationForm(request.POST, action=action)
        valid = form.is_valid()
    if not valid:
        # Under the action's and the field's labels, as the console shows them.
        labels = {f.name: f.label for f in entry.fields}
        for field, errors in form.errors.items():
            where = (
                [str(entry.label), str(labels.get(field, field))]
                if field in form.fields
                else [str(entry.label)]
            )
            messages.error(request, f"{': '.join(where)}: {' '.join(errors)}")
        _keep_refused(request, game, entry)
        return redirect("moderate", pk=game.pk)
    # A deadline change for a deadline that moved since the console showed it (another tab,
    # another moderator) is refused at once, before its confirmation: that page would show a
    # new deadline reckoned from one the moderator never saw, to be refused when confirmed.
    if action == "deadline" and _deadline_moved(game, form.cleaned_data):
        moved = game.current_phase.deadline
        written = format_when(moved, zone=time_zone_of(request)) if moved else gettext("none")
        messages.error(request, services.deadline_moved_message(written))
        _keep_refused(request, game, entry)
        return redirect("moderate", pk=game.pk)
    due = _new_deadline(game, action, form.cleaned_data)
    # A deadline the confirmation showed ahead that has passed by the confirming (minutes added
    # to a deadline another tab or moderator moved meanwhile) is asked about again: confirmed
    # as it stands, it would process the phase at once, which the page never said.
    # (Meant for another phase, it is refused as such below.)
    meant = form.cleaned_data.get("phase")
    current = game.current_phase.index if game.current_phase_id else None
    unsaid = (
        bool(due and due["passed"])
        and request.POST.get("passed") != "yes"
        and (meant is None or meant == current)
    )
    if request.POST.get("confirm") != "yes" or unsaid:
        # As typed, to be sent again with the confirmation and checked again then; the
        # deadline seen goes back unshown (the new deadline is what the page says).
        typed = [
            (f.label, f.name, request.POST[f.name], f.kind != "current_deadline")
            for f in entry.fields
            if request.POST.get(f.name, "") != ""
        ]
        context = {
            "game": game,
            "action": entry,
            "new_deadline": due,
            "time_zone": time_zone_of(request),
            "fields": [(label, name, value) for label, name, value, _shown in typed],
            "shown": [(label, name, value) for label, name, value, shown in typed if shown],
        }
        return render(request, "games/moderate_confirm.html", context)
    if _act(request, moderation.perform, action, game, request.user, form.cleaned_data):
        messages.success(request, gettext("Done: %(action)s.") % {"action": entry.label.lower()})
        if due and due["passed"]:
            messages.info(request, gettext("That time had passed: the phase is being processed."))
    else:
        _keep_refused(request, game, entry)
    return redirect("moderate", pk=game.pk)


def _deadline_moved(game: Game, args: dict) -> bool:
    """Whether the current deadline is another than the one the console showed (its hidden
    ``seen_deadline``). A change meant for another phase is refused as such instead."""
    phase = game.current_phase
    if phase is None or args.get("phase") not in (None, phase.index):
        return False
    return services.deadline_moved(phase.deadline, args.get("seen_deadline"))


def _new_deadline(game: Game, action: str, args: dict) -> dict | None:
    """What a Deadline action would set, for its confirmation to show: the new deadline, and
    whether it has passed (confirming then processes the phase at once). None for another
    action, or a game without a running deadline."""
    if action != "deadline":
        return None
    phase = game.current_phase
    now = timezone.now()
    when = args.get("deadline")
    if when is None:
        if phase is None:
            return None
        when = (phase.deadline or now) + timedelta(minutes=args.get("minutes") or 0)
    return {"at": when, "passed": when <= now}


def _keep_refused(request: HttpRequest, game: Game, entry: moderation.Action) -> None:
    """What a refused action's form held, for the console to give back to its boxes and
    lists (``moderate``), to be mended rather than typed or picked again. A value its box
    could not show (letters in a number box) is not kept: the browser would drop it."""
    values = {}
    for field in entry.fields:
        value = request.POST.get(field.name, "")[:TYPED_KEPT]
        value = "".join(c for c in value if c.isprintable())  # a NUL is no HTML
        shape = KEPT_SHAPES.get(field.kind)
        if field.kind not in ("current_phase", "current_deadline") and (
            shape is None or shape.fullmatch(value)
        ):
            values[field.name] = value
    request.session[REFUSED_ACTION] = {"game": game.pk, "action": entry.name, "values": values}


# -- variants ------------------------------------------------------------------------------


def variant_page(request: HttpRequest, variant_id: str) -> HttpResponse:
    if variant_id not in engine.variant_ids():
        raise Http404("no such variant")
    facts = {**engine.describe(variant_id), "name": variant_words.variant_name(variant_id)}
    start = engine.starting_phase(variant_id)
    colours = power_colours(variant_id, palette_of(request))
    units = defaultdict(list)
    for unit in start["units"]:
        units[unit["power"]].append(phase_guide.unit_name(unit["unit"], unit["location"]))
    powers = [
        {**p, "colour": colours.get(p["name"]), "units": units[p["name"]]} for p in facts["powers"]
    ]
    try:
        svg = render_board(
            variant_id, start, palette=palette_of(request), words=reason_words.board_words()
        )
    except ValueError:
        svg = ""
    context = {
        "variant": facts,
        "rules_variant": variant_id,
        "starts": variant_words.starts(
            variant_id,
            facts["start"]["season"],
            facts["start"]["year"],
            variant_words.victory(variant_id),
        ),
        "examples": [
            (capfirst(variant_words.PHASE_WORDS[kind]), variant_words.examples(variant_id, kind))
            for kind in ("movement", "retreats", "adjustments")
            if variant_words.examples(variant_id, kind)
        ],
        "abbreviations": variant_words.abbreviations_allowed(variant_id),
        "rules": [str(paragraph) for paragraph in RULES.get(variant_id, [])]
        + [gettext(summary) for summary in engine.rule_summaries(variant_id)],
        "powers": powers,
        "board": _inline(
            svg, gettext("The %(variant)s board at the start") % {"variant": facts["name"]}
        )
        if svg
        else "",
    }
    return render(request, "games/variant.html", context)
