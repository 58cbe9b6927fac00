"""Django admin: browse everything; moderator tools run through the services and are logged."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.template.response import TemplateResponse

from . import engine, services
from .limits import ascii_index
from .models import (
    DrawVote,
    Game,
    Membership,
    Message,
    ModeratorAction,
    NotificationSettings,
    Order,
    Phase,
)


def _each(modeladmin, request: HttpRequest, queryset: QuerySet, tool, *args) -> None:
    """Run a moderator tool on each selected object, reporting rule violations as messages."""
    for obj in queryset:
        try:
            tool(obj, request.user, *args)
        except (services.GameError, PermissionError) as e:
            modeladmin.message_user(request, f"{obj}: {e}", messages.ERROR)


@admin.action(description="Start (empty seats play as civil disorder)")
def start(modeladmin, request, queryset):
    _each(modeladmin, request, queryset, services.start_game)


@admin.action(description="Extend the deadline by a day")
def extend_day(modeladmin, request, queryset):
    _each(
        modeladmin,
        request,
        queryset,
        lambda game, user: services.change_deadline(game, user, minutes=24 * 60),
    )


@admin.action(description="Shorten the deadline by an hour")
def shorten_hour(modeladmin, request, queryset):
    _each(
        modeladmin,
        request,
        queryset,
        lambda game, user: services.change_deadline(game, user, minutes=-60),
    )


@admin.action(description="Pause")
def pause(modeladmin, request, queryset):
    _each(modeladmin, request, queryset, services.pause)


@admin.action(description="Resume")
def resume(modeladmin, request, queryset):
    _each(modeladmin, request, queryset, services.resume)


@admin.action(description="Process the current phase now")
def process_now(modeladmin, request, queryset) -> HttpResponse | None:
    """Asks first, showing each game's current phase; the answer names those phases, so a
    repeated (double-clicked) confirmation finds other phases current and processes none."""
    games = list(queryset.select_related("current_phase"))
    if request.POST.get("post") != "yes":
        context = {
            **modeladmin.admin_site.each_context(request),
            "title": "Process the current phase now?",
            "games": games,
            "opts": modeladmin.model._meta,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/games/process_confirm.html", context)
    for game in games:
        index = ascii_index(request.POST.get(f"phase-{game.pk}"))
        if index is None:
            modeladmin.message_user(request, f"{game}: no phase named; nothing done", "error")
            continue
        _each(
            modeladmin,
            request,
            [game],
            lambda g, user, index=index: services.process_now(g, user, phase=index),
        )
    return None


@admin.action(description="Declare a draw among the survivors")
def declare_draw(modeladmin, request, queryset):
    _each(modeladmin, request, queryset, services.declare_draw)


@admin.action(description="End the game")
def end_game(modeladmin, request, queryset):
    _each(modeladmin, request, queryset, services.end_game)


@admin.action(description="Roll the game back to this phase")
def roll_back(modeladmin, request, queryset):
    _each(
        modeladmin,
        request,
        queryset,
        lambda phase, user: services.rollback(phase.game, user, phase.index),
    )


@admin.action(description="Remove the player (their power goes into civil disorder)")
def remove_player(modeladmin, request, queryset):
    _each(
        modeladmin,
        request,
        queryset,
        lambda seat, user: services.remove_player(seat.game, user, seat.power),
    )


def _bot_action(on: bool, description: str):
    """An admin action that puts a bot on each selected seat, or takes it off."""

    @admin.action(description=description)
    def act(modeladmin, request, queryset):
        _each(
            modeladmin,
            request,
            queryset,
            lambda seat, user: services.set_bot(seat.game, user, seat.power, on),
        )

    act.__name__ = "put_bot" if on else "take_bot_off"
    return act


put_bot = _bot_action(True, "Put a bot on the seat (the player is replaced)")
take_bot_off = _bot_action(False, "Take the bot off (the power goes into civil disorder)")


class NumericIdsAdmin(admin.ModelAdmin):
    """An action's chosen rows are named by their ids; anything but digits (a forged or broken
    form) is a 400, not the database's error."""

    def response_action(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        chosen = request.POST.getlist(helpers.ACTION_CHECKBOX_NAME)
        if any(ascii_index(pk) is None for pk in chosen):
            return HttpResponseBadRequest("Rows are chosen by their numeric ids.")
        return super().response_action(request, queryset)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    readonly_fields = ["user", "power", "status", "bot", "ready", "missed_phases", "preferences"]
    can_delete = False


class ModeratorActionInline(admin.TabularInline):
    model = ModeratorAction
    extra = 0
    readonly_fields = ["created", "user", "action", "details"]
    can_delete = False


@admin.register(Game)
class GameAdmin(NumericIdsAdmin):
    list_display = ["name", "variant", "status", "creator", "current_phase", "created"]
    list_filter = ["status", "variant"]
    search_fields = ["name"]
    # State changes go through the actions; only settings are edited directly.
    readonly_fields = ["status", "current_phase", "paused_remaining", "result", "finished_at"]
    inlines = [MembershipInline, ModeratorActionInline]
    actions = [
        start,
        extend_day,
        shorten_hour,
        pause,
        resume,
        process_now,
        declare_draw,
        end_game,
    ]

    def formfield_for_dbfield(self, db_field, request: HttpRequest, **kwargs):
        """The variant is chosen from those the engine knows, as on the site's form."""
        if db_field.name == "variant":
            choices = [(v, engine.describe(v)["name"]) for v in engine.variant_ids()]
            return forms.ChoiceField(choices=choices, label=db_field.verbose_name.capitalize())
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    def get_readonly_fields(self, request: HttpRequest, obj: Game | None = None) -> list[str]:
        """A started game's variant is fixed: its phases and orders are on that map, and the
        services refuse the change too."""
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None and obj.status != Game.Status.FORMING:
            fields.append("variant")
        return fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        """Games are created on the site or through the API, by the player who moderates them."""
        return False

    def has_change_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        """Admin access alone does not moderate a game: a game's settings are edited only by
        whoever moderates it (its creator, a superuser or a site moderator)."""
        allowed = super().has_change_permission(request, obj)
        return allowed and (obj is None or obj.is_moderator(request.user))

    def save_model(self, request: HttpRequest, obj: Game, form, change: bool) -> None:
        """Through the services, so the change is checked, locked and in the audit log."""
        changes = {field: form.cleaned_data[field] for field in form.changed_data}
        services.change_settings(obj, request.user, **changes)


@admin.register(Phase)
class PhaseAdmin(NumericIdsAdmin):
    list_display = ["game", "index", "season", "year", "type", "deadline", "processed_at"]
    list_filter = ["type"]
    readonly_fields = [f.name for f in Phase._meta.fields]
    actions = [roll_back]


@admin.register(Membership)
class MembershipAdmin(NumericIdsAdmin):
    list_display = ["game", "user", "power", "status", "bot", "ready", "missed_phases"]
    list_filter = ["status", "bot"]
    readonly_fields = ["game", "user", "power", "status", "bot", "ready", "missed_phases"]
    actions = [remove_player, put_bot, take_bot_off]


@admin.register(Order)
class OrderAdmin(NumericIdsAdmin):
    list_display = ["phase", "power", "canonical", "valid", "result"]
    readonly_fields = [f.name for f in Order._meta.fields]


@admin.register(Message)
class MessageAdmin(NumericIdsAdmin):
    list_display = ["game", "sender_power", "recipients", "created"]
    readonly_fields = [f.name for f in Message._meta.fields]


@admin.register(ModeratorAction)
class ModeratorActionAdmin(NumericIdsAdmin):
    list_display = ["game", "action", "user", "created"]
    list_filter = ["action"]
    readonly_fields = ["game", "user", "action", "details", "created"]


admin.site.register(DrawVote, NumericIdsAdmin)
admin.site.register(NotificationSettings, NumericIdsAdmin)
