"""The browser pages. Like the API, views check who is asking and call ``games.services``;
they never write game state themselves. Every page works without JavaScript except
click-to-order on the board."""

from __future__ import annotations

import zoneinfo
from collections import defaultdict
from functools import wraps

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

import adjudication
from variants.render import power_colours, render_board

from . import engine, services, visibility
from .forms import (
    PALETTES,
    GameForm,
    JoinForm,
    MessageForm,
    ModerationForm,
    OrdersForm,
    PaymentForm,
    SettingsForm,
    SignUpForm,
)
from .models import (
    Game,
    Membership,
    ModeratorAction,
    NotificationSettings,
    Order,
    Payment,
    Phase,
)

MODERATOR_ACTIONS = {
    "start": "Start the game now; empty seats play as civil disorder.",
    "deadline": "Move the current deadline by some minutes (negative shortens it).",
    "pause": "Stop the clock; the time left is kept.",
    "resume": "Restart the clock with the time that was left.",
    "process": "Adjudicate the current phase now, whatever its deadline.",
    "rollback": "Go back to an earlier phase; every later phase is deleted.",
    "replace": "Hand a power to another user.",
    "remove": "Put a power into civil disorder, open for others to take over.",
    "draw": "End the game as a draw among the surviving powers.",
    "end": "End the game now, with a winner if one is named; a forming game is cancelled.",
}

RULES = {
    "colonial": [
        "The standard rules of Diplomacy apply, on a map of Asia in 1870, with seven powers: "
        "Britain, China, Russia, France, Holland, Japan and Turkey.",
        "Victory at 29 of the 58 supply centres; the game's options may change the figure.",
        "Hong Kong is a British home centre that counts for every power but China. When China "
        "holds it at the end of an autumn turn it becomes neutral and counts for nobody until "
        "another power takes it.",
        "The Suez Canal: the power whose unit stands in Egypt when the turn begins may add one "
        "order, “Suez permit F Mediterranean Sea” (or “F Red Sea”). That fleet, of any power, "
        "may then move straight to the sea at the other end. The board shows the permission "
        "as a blue arrow.",
        "The Trans-Siberian Railroad (Moscow, Perm, Omsk, Krasnoyarsk, Irkutsk, Vladivostok): "
        "one Russian army a turn may ride it, “A Moscow - Vladivostok via TSR”. It passes "
        "Russian units, but a foreign unit on the line closes it. The army never attacks: when "
        "blocked it stops on the last free space before the block. The board shows the ride as "
        "an orange arrow.",
    ],
    "far-east": [
        "Spring and Fall from 1991, adjustments in Winter; victory at 15 of 28 centres; builds "
        "only in a power's own home centres, still owned and empty.",
        "Oceans hold any number of fleets, and no fleet can be dislodged there.",
    ],
    "chinese": [
        "Chinese Diplomacy is played by year, and accepts full province names only: no "
        "abbreviations in orders.",
    ],
    "standard": ["The 1971/2000 rules on the classic map of Europe, the baseline the DATC tests."],
}


# -- helpers -------------------------------------------------------------------------------


def _display_settings(request: HttpRequest) -> NotificationSettings | None:
    """The signed-in viewer's settings, read once per request; None for anonymous visitors."""
    if not request.user.is_authenticated:
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


def _game_or_404(pk: int) -> Game:
    return get_object_or_404(Game.objects.select_related("creator", "current_phase"), pk=pk)


def _playing(request: HttpRequest, pk: int) -> tuple[Game, Membership]:
    """The game and the viewer's seat in it; 403 for anyone without a power there."""
    game = _game_or_404(pk)
    membership = game.membership_of(request.user)
    if membership is None or not membership.power:
        raise PermissionDenied("You do not play a power in this game.")
    return game, membership


def moderator_only(view):
    """Only the game's moderator may open the moderator pages."""

    @wraps(view)
    def wrapped(request: HttpRequest, pk: int, *args, **kwargs) -> HttpResponse:
        game = _game_or_404(pk)
        if not game.is_moderator(request.user):
            return HttpResponseForbidden("Only the moderator may do this.")
        return view(request, game, *args, **kwargs)

    return login_required(wrapped)


def _act(request: HttpRequest, action, *args, **kwargs) -> bool:
    """Run a service call; a rule it refuses becomes a message for the player."""
    try:
        action(*args, **kwargs)
    except (services.GameError, PermissionError) as error:
        messages.error(request, str(error))
        return False
    return True


def phase_name(game: Game, phase: Phase) -> str:
    names = engine.describe(game.variant).get("season_names", {})
    season = names.get(phase.season, phase.season.title())
    return f"{season} {phase.year} {phase.type}"


def board_svg(game: Game, phase: Phase, user, palette: str) -> str:
    """The phase drawn for this viewer: results once processed, else the orders they may see."""
    state = {
        "units": phase.units,
        "supply_centers": phase.supply_centers,
        "dislodged": phase.dislodged,
        "contested": phase.contested,
    }
    orders, results = None, None
    if phase.processed_at and phase.results:
        results = phase.results.get("orders")
    else:
        visible = visibility.visible_orders(phase, user).filter(valid=True)
        orders = [{"power": o.power, "order": o.canonical} for o in visible]
    try:
        svg = render_board(game.variant, state, orders=orders, results=results, palette=palette)
    except ValueError:  # a variant without a board drawing (the standard map): text play only
        return '<p class="no-board">This map has no board drawing; use the orders box.</p>'
    return _inline(svg, f"The board, {phase_name(game, phase)}")


def _inline(svg: str, label: str) -> str:
    """An SVG document made fit to sit inside HTML."""
    start = svg.find("<svg")
    return svg[start:].replace("<svg ", f'<svg id="board-svg" aria-label="{label}" ', 1)


def board_data(game: Game, phase: Phase, power: str | None) -> dict:
    """What click-to-order needs to offer legal orders: units and the map's borders."""
    variant = adjudication.load(game.variant)
    rail = variant.rule_data.get("trans_siberian_railroad")
    suez = variant.rule_data.get("suez_canal")
    return {
        "power": power,
        "phase": phase.type,
        "units": phase.units,
        "dislodged": phase.dislodged,
        "centres": phase.supply_centers,
        "homes": {p.name: list(p.home_centers) for p in variant.powers.values()},
        "provinces": {
            n: {"type": p.type, "abbreviation": p.abbreviation}
            for n, p in variant.provinces.items()
        },
        "army": {k: sorted(v) for k, v in variant.army_adj.items()},
        "fleet": {k: sorted(v) for k, v in variant.fleet_adj.items()},
        "rail": rail if "trans_siberian_railroad" in variant.rules else None,
        "suez": suez if "suez_canal" in variant.rules else None,
    }


def _threads(game: Game, user, power: str | None, seen: dict) -> list[dict]:
    """Press grouped by who can read it; unread counts against the last message seen."""
    threads: dict[str, dict] = {}
    for message in visibility.visible_messages(game, user):
        people = sorted({message.sender_power or "Moderator", *message.recipients})
        key = "public" if message.is_public else "|".join(people)
        thread = threads.setdefault(
            key,
            {
                "key": key,
                "title": "Everyone" if key == "public" else ", ".join(people),
                "messages": [],
                "unread": 0,
            },
        )
        thread["messages"].append(message)
        mine = message.sender_id == user.pk
        if not mine and message.pk > seen.get(key, 0):
            thread["unread"] += 1
    return sorted(threads.values(), key=lambda t: (t["key"] != "public", t["title"]))


# -- accounts ------------------------------------------------------------------------------


def signup(request: HttpRequest) -> HttpResponse:
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        return redirect("lobby")
    return render(request, "registration/signup.html", {"form": form})


@login_required
def account_settings(request: HttpRequest) -> HttpResponse:
    """Mail preferences, time zone and palette, all stored on the account."""
    prefs = NotificationSettings.of(request.user)
    form = SettingsForm(request.POST or None, instance=prefs)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Settings saved.")
        return redirect("account-settings")
    return render(request, "games/settings.html", {"form": form})


# -- lobby and creating games --------------------------------------------------------------


@login_required
def lobby(request: HttpRequest) -> HttpResponse:
    seats = (
        Membership.objects.filter(user=request.user)
        .exclude(status=Membership.Status.REPLACED)
        .select_related("game", "game__current_phase")
    )
    mine = []
    for seat in seats:
        game, phase = seat.game, seat.game.current_phase
        ordered = bool(
            phase and seat.power and Order.objects.filter(phase=phase, power=seat.power).exists()
        )
        to_act = bool(phase and seat.power in engine.powers_to_act(phase))
        mine.append(
            {
                "game": game,
                "seat": seat,
                "phase": phase and phase_name(game, phase),
                "ordered": ordered,
                "to_act": to_act,
            }
        )
    open_games = (
        Game.objects.filter(status=Game.Status.FORMING)
        .exclude(memberships__user=request.user)
        .select_related("creator")
    )
    moderated = Game.objects.filter(creator=request.user).exclude(memberships__user=request.user)
    variants = [engine.describe(v) for v in engine.variant_ids()]
    context = {
        "mine": mine,
        "open_games": open_games,
        "moderated": moderated,
        "variants": variants,
        "time_zone": time_zone_of(request),
    }
    return render(request, "games/lobby.html", context)


@login_required
def create_game(request: HttpRequest) -> HttpResponse:
    form = GameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.create_game(request.user, **form.settings())
        except services.GameError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, "Game created. Join it to play, or wait for players.")
            return redirect("game", pk=game.pk)
    return render(request, "games/create.html", {"form": form})


@login_required
@require_POST
def join_game(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game_or_404(pk)
    form = JoinForm(request.POST, powers=engine.powers(game))
    if form.is_valid():
        power = request.POST.get("take_over")
        if power:
            _act(request, services.take_over, game, request.user, power)
        else:
            _act(request, services.join_game, game, request.user, form.preferences())
    return redirect("game", pk=pk)


@login_required
@require_POST
def leave_game(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game_or_404(pk)
    membership = game.membership_of(request.user)
    if membership is not None and _act(request, services.leave_game, membership):
        return redirect("lobby")
    return redirect("game", pk=pk)


# -- the game ------------------------------------------------------------------------------


@login_required
def game_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The board, your orders, the press and the history. ``?phase=n`` shows a past phase."""
    game = _game_or_404(pk)
    user = request.user
    membership = game.membership_of(user)
    power = membership.power if membership and membership.power else None
    current = game.current_phase
    phases = list(game.phases.all())
    phase = current
    if "phase" in request.GET and phases:
        try:
            phase = next(p for p in phases if p.index == int(request.GET["phase"]))
        except (ValueError, StopIteration):
            raise Http404("no such phase") from None
    context = {
        "game": game,
        "membership": membership,
        "power": power,
        "is_moderator": game.is_moderator(user),
        "phases": [(p, phase_name(game, p)) for p in phases],
        "phase": phase,
        "is_current": phase is not None and phase == current and not phase.processed_at,
        "variant": engine.describe(game.variant),
        "time_zone": time_zone_of(request),
        "options": _options(game),
    }
    if phase is None:  # forming, or cancelled before it started
        context["join_form"] = JoinForm(powers=engine.powers(game))
        context["players"] = game.memberships.select_related("user")
        context["show_names"] = visibility.shows_names(game, user)
        return render(request, "games/game.html", context)
    context.update(_phase_context(request, game, phase, power))
    context.update(_press_context(request, game, power))
    context.update(_gold_context(game, phase, power, context["is_current"]))
    context["powers"] = _powers(game, user, palette_of(request))
    if not power and not game.is_over:
        context["open_powers"] = [p["power"] for p in context["powers"] if p["open"]]
    return render(request, "games/game.html", context)


def _options(game: Game) -> list[tuple[str, str]]:
    victory = game.options.get("victory_centers") or engine.describe(game.variant).get(
        "victory_centers"
    )
    deadline_time = game.deadline_time.strftime("%H:%M UTC") if game.deadline_time else "none"
    return [
        ("Press", game.get_press_display()),
        ("Anonymous", "yes" if game.anonymous else "no"),
        ("Movement phases", f"{game.movement_minutes} minutes"),
        ("Retreat phases", f"{game.retreats_minutes} minutes"),
        ("Adjustment phases", f"{game.adjustments_minutes} minutes"),
        ("Deadlines at", deadline_time),
        ("Process early when all are ready", "yes" if game.process_when_ready else "no"),
        ("Civil disorder after", f"{game.civil_disorder_after} missed movement phases"),
        ("Victory at", f"{victory} supply centres"),
        ("Moderator", game.creator.username),
    ]


def _powers(game: Game, user, palette: str) -> list[dict]:
    phase = game.current_phase
    show = visibility.shows_names(game, user)
    seats = {m.power: m for m in game.memberships.exclude(status="replaced").select_related("user")}
    alive = engine.survivors(phase) if phase else set()
    colours = power_colours(game.variant, palette)
    out = []
    for name in engine.powers(game):
        seat = seats.get(name)
        out.append(
            {
                "power": name,
                "colour": colours.get(name),
                "player": visibility.player_name(seat, user, show) if seat else None,
                "status": seat.status if seat else Membership.Status.CIVIL_DISORDER,
                "status_label": seat.get_status_display() if seat else "Civil disorder",
                "ready": bool(seat and seat.ready),
                "centres": len(phase.supply_centers.get(name, [])) if phase else 0,
                "units": sum(1 for u in phase.units if u["power"] == name) if phase else 0,
                "open": name in alive
                and (seat is None or seat.status == Membership.Status.CIVIL_DISORDER),
            }
        )
    return out


def _phase_context(request: HttpRequest, game: Game, phase: Phase, power: str | None) -> dict:
    user = request.user
    orders = list(visibility.visible_orders(phase, user))
    mine = [o for o in orders if o.power == power]
    context = {
        "phase_label": phase_name(game, phase),
        "board": board_svg(game, phase, user, palette_of(request)),
        "orders": orders,
        "results": phase.results if phase.processed_at else None,
    }
    if phase.pk == game.current_phase_id and not phase.processed_at and power:
        ordered = {o.location for o in mine if o.valid}
        own = [u for u in phase.units if u["power"] == power]
        if phase.type == Phase.Type.RETREATS:
            own = [u for u in phase.dislodged if u["power"] == power]
        context["unordered"] = [
            f"{u['unit']} {u['location']}" for u in own if u["location"] not in ordered
        ]
        context["must_act"] = power in engine.powers_to_act(phase)
        unsaved = request.session.pop(f"unsaved-orders-{game.pk}", None)
        version = services.orders_version(phase.pk, power, mine)
        context["orders_form"] = OrdersForm(
            initial={"orders": unsaved or "\n".join(o.text for o in mine), "version": version}
        )
        context["board_data"] = board_data(game, phase, power)
        context["board_data"]["unordered"] = [
            u["location"] for u in own if u["location"] not in ordered
        ]
    return context


def _gold_context(game: Game, phase: Phase, power: str | None, is_current: bool) -> dict:
    """Chinese Diplomacy's gold: balances, payments, published faction orders, the statement."""
    economy = phase.carried.get("economy")
    if economy is None:
        return {}
    powers = engine.powers(game)
    gold = {
        "balances": [(p, economy.get("balances", {}).get(p, 0)) for p in powers],
        "payments": list(Payment.objects.filter(phase=phase)),
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
            gold["payment_form"] = PaymentForm(powers=[p for p in powers if p != power])
    results = (phase.results or {}).get("economy") if phase.processed_at else None
    if results:
        deposed = set(results.get("deposed") or [])
        lines: dict[str, list[dict]] = {}
        for entry in results.get("ledger", []):
            lines.setdefault(entry["power"], []).append(entry)
        names = [p for p in powers if p in lines or p in deposed]
        names += sorted((set(lines) | deposed) - set(names))
        gold["statement"] = [
            {
                "power": name,
                "lines": lines.get(name, []),
                "total": sum(e["amount"] for e in lines.get(name, [])),
                "deposed": name in deposed,
            }
            for name in names
        ]
        gold["statement_processed"] = True
    return {"gold": gold}


def _press_context(request: HttpRequest, game: Game, power: str | None) -> dict:
    seen_key = f"press-seen-{game.pk}"
    seen = request.session.get(seen_key, {})
    threads = _threads(game, request.user, power, seen)
    selected = request.GET.get("thread")
    if selected is None and threads:
        selected = threads[0]["key"]
    thread = next((t for t in threads if t["key"] == selected), None)
    if thread is not None:
        seen[thread["key"]] = max(m.pk for m in thread["messages"])
        request.session[seen_key] = seen
    can_send = game.status not in (Game.Status.FORMING, Game.Status.CANCELLED) and (
        power is not None or game.is_moderator(request.user)
    )
    others = [p for p in engine.powers(game) if p != power]
    if game.press == Game.Press.PUBLIC and not game.is_over:
        others = []
    elif game.press == Game.Press.NONE and power and not game.is_over:
        can_send = False
    initial = {}
    if thread and thread["key"] != "public":
        initial["recipients"] = [p for p in thread["key"].split("|") if p in others]
    return {
        "threads": threads,
        "thread": thread,
        "can_send": can_send,
        "message_form": MessageForm(powers=others, initial=initial),
    }


@login_required
def board(request: HttpRequest, pk: int) -> HttpResponse:
    """The board alone, so that the page can redraw it after orders change."""
    game = _game_or_404(pk)
    phase = game.current_phase
    if "phase" in request.GET:
        phase = get_object_or_404(game.phases, index=request.GET["phase"])
    if phase is None:
        raise Http404("the game has not started")
    return HttpResponse(board_svg(game, phase, request.user, palette_of(request)))


@login_required
@require_POST
def submit_orders(request: HttpRequest, pk: int) -> HttpResponse:
    """The orders box without JavaScript: replace the orders, then show how each fared."""
    game, membership = _playing(request, pk)
    form = OrdersForm(request.POST)
    if not form.is_valid():
        return redirect(reverse("game", args=[pk]) + "#orders")
    version = form.cleaned_data["version"] or None
    try:
        services.submit_orders(membership, form.lines(), version=version)
    except services.OrdersChanged:
        # Saved from another tab meanwhile: keep both. This box comes back as typed, next to
        # the orders now saved, to be saved again.
        request.session[f"unsaved-orders-{pk}"] = form.cleaned_data["orders"]
        messages.error(
            request,
            "Your orders were changed in another tab since this page was loaded, so nothing "
            "was saved. Your text is still in the box; the orders saved now are listed below.",
        )
    except services.GameError as error:
        messages.error(request, str(error))
    else:
        invalid = membership.orders.filter(phase_id=game.current_phase_id, valid=False)
        if invalid.exists():
            messages.warning(request, f"{invalid.count()} order(s) are invalid; see why below.")
        else:
            messages.success(request, "Orders saved.")
    return redirect(reverse("game", args=[pk]) + "#orders")


@login_required
@require_POST
def ready(request: HttpRequest, pk: int) -> HttpResponse:
    game, membership = _playing(request, pk)
    _act(request, services.set_ready, membership, request.POST.get("ready") != "0")
    return redirect(reverse("game", args=[pk]) + "#orders")


@login_required
@require_POST
def send_press(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game_or_404(pk)
    membership = game.membership_of(request.user)
    powers = [p for p in engine.powers(game) if not membership or p != membership.power]
    form = MessageForm(request.POST, powers=powers)
    thread = ""
    if form.is_valid():
        recipients = form.cleaned_data["recipients"]
        sent = _act(
            request,
            services.send_message,
            game,
            request.user,
            form.cleaned_data["body"],
            recipients,
        )
        if sent:
            me = membership.power if membership and membership.power else "Moderator"
            thread = "|".join(sorted({me, *recipients})) if recipients else "public"
    else:
        messages.error(request, "A message needs some text.")
    url = reverse("game", args=[pk])
    return redirect(f"{url}?thread={thread}#press" if thread else f"{url}#press")


@login_required
@require_POST
def pay(request: HttpRequest, pk: int) -> HttpResponse:
    """Gold for another great power, without JavaScript; the service checks the rules."""
    game, membership = _playing(request, pk)
    others = [p for p in engine.powers(game) if p != membership.power]
    form = PaymentForm(request.POST, powers=others)
    if not form.is_valid():
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else "Payment"
            messages.error(request, f"{label}: {' '.join(errors)}")
    else:
        data = form.cleaned_data
        if _act(request, services.pay, membership, data["to"], data["amount"]):
            messages.success(request, f"Paid {data['to']} {data['amount']} k oz.")
    return redirect(reverse("game", args=[pk]) + "#gold")


@login_required
@require_POST
def vote(request: HttpRequest, pk: int) -> HttpResponse:
    game, membership = _playing(request, pk)
    choice = request.POST.get("vote", "")
    if choice == "draw":
        _act(request, services.vote, membership, draw=True)
    elif choice:
        _act(request, services.vote, membership, concede_to=choice)
    else:
        _act(request, services.vote, membership)
    return redirect("game", pk=pk)


# -- moderation ----------------------------------------------------------------------------


@moderator_only
def moderate(request: HttpRequest, game: Game) -> HttpResponse:
    context = {
        "game": game,
        "actions": MODERATOR_ACTIONS,
        "powers": engine.powers(game),
        "phases": [(p, phase_name(game, p)) for p in game.phases.all()],
        "log": ModeratorAction.objects.filter(game=game).select_related("user"),
        "time_zone": time_zone_of(request),
    }
    return render(request, "games/moderate.html", context)


@moderator_only
@require_POST
def moderate_action(request: HttpRequest, game: Game, action: str) -> HttpResponse:
    """Every action asks once more before it acts: the first post shows what will happen."""
    if action not in MODERATOR_ACTIONS:
        raise Http404("no such action")
    form = ModerationForm(request.POST, action=action)
    if not form.is_valid():
        for errors in form.errors.values():
            messages.error(request, f"{action}: {' '.join(errors)}")
        return redirect("moderate", pk=game.pk)
    if request.POST.get("confirm") != "yes":
        context = {
            "game": game,
            "action": action,
            "description": MODERATOR_ACTIONS[action],
            "fields": {k: v for k, v in form.cleaned_data.items() if v not in (None, "")},
        }
        context["fields"].pop("user", None)
        return render(request, "games/moderate_confirm.html", context)
    args = form.cleaned_data
    user = request.user
    calls = {
        "start": lambda: services.start_game(game, user),
        "deadline": lambda: services.change_deadline(game, user, minutes=args["minutes"]),
        "pause": lambda: services.pause(game, user),
        "resume": lambda: services.resume(game, user),
        "process": lambda: services.process_now(game, user),
        "rollback": lambda: services.rollback(game, user, args["phase"]),
        "replace": lambda: services.replace_player(game, user, args["power"], args["user"]),
        "remove": lambda: services.remove_player(game, user, args["power"]),
        "draw": lambda: services.declare_draw(game, user),
        "end": lambda: services.end_game(game, user, args.get("winner") or ""),
    }
    if _act(request, calls[action]):
        messages.success(request, f"Done: {action}.")
    return redirect("moderate", pk=game.pk)


# -- variants ------------------------------------------------------------------------------


def variant_page(request: HttpRequest, variant_id: str) -> HttpResponse:
    if variant_id not in engine.variant_ids():
        raise Http404("no such variant")
    facts = engine.describe(variant_id)
    start = engine.starting_phase(variant_id)
    colours = power_colours(variant_id, palette_of(request))
    units = defaultdict(list)
    for unit in start["units"]:
        units[unit["power"]].append(f"{unit['unit']} {unit['location']}")
    powers = [
        {**p, "colour": colours.get(p["name"]), "units": units[p["name"]]} for p in facts["powers"]
    ]
    try:
        svg = render_board(variant_id, start, palette=palette_of(request))
    except ValueError:
        svg = ""
    context = {
        "variant": facts,
        "rules": RULES.get(variant_id, []),
        "powers": powers,
        "board": _inline(svg, f"The {facts['name']} board at the start") if svg else "",
    }
    return render(request, "games/variant.html", context)
