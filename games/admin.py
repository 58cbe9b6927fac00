"""Django admin: browse everything; moderator tools run through the moderator actions' registry
(``games.moderation``) and the services, and are logged."""

from __future__ import annotations

import re

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.db.models import IntegerField, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from . import engine, moderation, services, usernames, visibility
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


def _registered(name: str, key: str = "", description: str = "", game_of=None, args_of=None):
    """An admin action (called ``key``, stable across processes) that runs the registry's
    moderator action ``name`` on each selected object (a game, or the game of a phase or a
    seat) with ``args_of(obj)``; refused as the API and the console refuse it when the game's
    state does not allow it."""
    entry = moderation.ACTIONS[name]

    @admin.action(description=description or entry.description)
    def act(modeladmin, request, queryset):
        def tool(obj, user):
            game = game_of(obj) if game_of else obj
            return moderation.perform(name, game, user, args_of(obj) if args_of else {})

        _each(modeladmin, request, queryset, tool)

    act.__name__ = key or name
    return act


start = _registered("start")


def _ask_first(
    modeladmin, request, games: list, action: str, title: str, template: str
) -> HttpResponse:
    """An admin action's confirmation, game by game (``admin/games/confirm_each.html``)."""
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "games": games,
        "action": action,
        "opts": modeladmin.model._meta,
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
    }
    return TemplateResponse(request, f"admin/games/{template}", context)


def _deadline_moved_by(key: str, description: str, minutes: int):
    """An admin action moving each selected game's deadline by ``minutes``. It asks first,
    showing each game's deadline, and the answer names those deadlines (the registry's
    ``seen_deadline``): a repeated (double-clicked) confirmation finds them moved and moves
    none of them again, as the console's does."""

    @admin.action(description=description)
    def act(modeladmin, request, queryset) -> HttpResponse | None:
        games = list(queryset.select_related("current_phase"))
        if request.POST.get("post") != "yes":
            title = f"{description}?"
            return _ask_first(modeladmin, request, games, key, title, "deadline_confirm.html")
        for game in games:
            args: dict = {"minutes": minutes}
            text = request.POST.get(f"seen-{game.pk}", "")
            if text:
                try:
                    seen = parse_datetime(text)
                except ValueError:
                    seen = None
                if seen is None or timezone.is_naive(seen):
                    modeladmin.message_user(
                        request, f"{game}: no deadline named; nothing done", "error"
                    )
                    continue
                args["seen_deadline"] = seen

            def tool(g, user, args=args):
                return moderation.perform("deadline", g, user, args)

            _each(modeladmin, request, [game], tool)
        return None

    act.__name__ = key
    return act


extend_day = _deadline_moved_by("extend_day", "Extend the deadline by a day", 1440)
shorten_hour = _deadline_moved_by("shorten_hour", "Shorten the deadline by an hour", -60)
pause = _registered("pause")
resume = _registered("resume")


@admin.action(description="Process the current phase now")
def process_now(modeladmin, request, queryset) -> HttpResponse | None:
    """Asks first, showing each game's current phase; the answer names those phases, so a
    repeated (double-clicked) confirmation finds other phases current and processes none."""
    games = list(queryset.select_related("current_phase"))
    if request.POST.get("post") != "yes":
        title = "Process the current phase now?"
        return _ask_first(modeladmin, request, games, "process_now", title, "process_confirm.html")
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


declare_draw = _registered("draw", "declare_draw")
end_game = _registered("end", "end_game", "End the game without a winner")


def _game(obj) -> Game:
    return obj.game


roll_back = _registered(
    "rollback",
    "roll_back",
    "Roll the game back to this phase",
    game_of=_game,
    args_of=lambda phase: {"phase": phase.index},
)
remove_player = _registered(
    "remove",
    "remove_player",
    "Remove the player (their power goes into civil disorder)",
    game_of=_game,
    args_of=lambda seat: {"power": seat.power},
)
put_bot = _registered(
    "bot",
    "put_bot",
    "Put a bot on the seat (the player is replaced)",
    game_of=_game,
    args_of=lambda seat: {"power": seat.power, "bot": True},
)
take_bot_off = _registered(
    "bot",
    "take_bot_off",
    "Take the bot off (the power goes into civil disorder)",
    game_of=_game,
    args_of=lambda seat: {"power": seat.power, "bot": False},
)


class NumericIdChoices(forms.ModelMultipleChoiceField):
    """Rows chosen in a list (a user's groups and permissions) by their numeric ids: an id
    too long for the column is refused as no such choice, as a missing id is; SQLite could
    not even look it up (an OverflowError, a 500)."""

    def _check_values(self, value):
        for pk in value if isinstance(value, (list, tuple)) else ():
            if isinstance(pk, str) and not re.fullmatch(r"[0-9]{1,18}", pk):
                raise ValidationError(
                    self.error_messages["invalid_pk_value"],
                    code="invalid_pk_value",
                    params={"pk": pk},
                )
        return super()._check_values(value)


class NumericIdsAdmin(admin.ModelAdmin):
    """An action's chosen rows are named by their ids; anything but digits (a forged or broken
    form) is a 400, not the database's error. So are the rows a form's list chooses
    (``NumericIdChoices``)."""

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        if isinstance(db_field.remote_field.model._meta.pk, IntegerField):
            kwargs.setdefault("form_class", NumericIdChoices)
        return super().formfield_for_manytomany(db_field, request, **kwargs)

    def response_action(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        chosen = request.POST.getlist(helpers.ACTION_CHECKBOX_NAME)
        if any(ascii_index(pk) is None for pk in chosen):
            return HttpResponseBadRequest("Rows are chosen by their numeric ids.")
        return super().response_action(request, queryset)


class RecordsAdmin(NumericIdsAdmin):
    """A model the services alone make (phases, orders, seats, press, the log): browsed and
    acted on here, never added, since the add form asks for none of the fields a row needs
    (each add was the database's refusal, a 500)."""

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


class RecordsInline(admin.TabularInline):
    """Rows shown under their game, every field read-only: none added there either (a form
    count forged in the post made one, empty, and the database refused it: a 500)."""

    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


# A seat's every field: who plays it and how is changed by the moderator's actions alone, which
# are logged (a seat's "removed" ticked off here let its player back without a word in the log).
SEAT_FIELDS = ["user", "power", "status", "bot", "ready", "missed_phases", "preferences"]
SEAT_FIELDS += ["removed", "joined"]


class MembershipInline(RecordsInline):
    model = Membership
    readonly_fields = SEAT_FIELDS


class ModeratorActionInline(RecordsInline):
    model = ModeratorAction
    readonly_fields = ["created", "user", "action", "details"]


@admin.register(Game)
class GameAdmin(NumericIdsAdmin):
    list_display = ["name", "variant", "status", "creator", "current_phase", "created"]
    list_filter = ["status", "variant"]
    search_fields = ["name"]
    # State changes go through the actions; only settings are edited directly.
    # ``sandbox`` is fixed when the game is made: a practice game has one player for every
    # power and is never rated, so ticking it on a real game would rewrite who may order.
    readonly_fields = [
        "status",
        "current_phase",
        "paused_remaining",
        "result",
        "finished_at",
        "sandbox",
    ]
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

    def get_object(self, request: HttpRequest, object_id: str, from_field=None) -> Game | None:
        """The game as its page shows it: its options without the seed of its chance, which
        nobody sees before the game is over (``visibility.shown_options``), staff neither; a
        change of options keeps the seed (``services.change_settings``)."""
        game = super().get_object(request, object_id, from_field)
        if game is not None:
            game.options = visibility.shown_options(game)
        return game

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
class PhaseAdmin(RecordsAdmin):
    list_display = ["game", "index", "season", "year", "type", "deadline", "processed_at"]
    list_filter = ["type"]
    readonly_fields = [f.name for f in Phase._meta.fields]
    actions = [roll_back]


@admin.register(Membership)
class MembershipAdmin(RecordsAdmin):
    list_display = ["game", "user", "power", "status", "bot", "ready", "missed_phases"]
    list_filter = ["status", "bot"]
    # Preferences too: blank or ``null`` there was stored as NULL, which the column refuses.
    readonly_fields = ["game", *SEAT_FIELDS]
    actions = [remove_player, put_bot, take_bot_off]


@admin.register(Order)
class OrderAdmin(RecordsAdmin):
    list_display = ["phase", "power", "canonical", "valid", "result"]
    readonly_fields = [f.name for f in Order._meta.fields]


@admin.register(Message)
class MessageAdmin(RecordsAdmin):
    list_display = ["game", "sender_power", "recipients", "created"]
    readonly_fields = [f.name for f in Message._meta.fields]


@admin.register(ModeratorAction)
class ModeratorActionAdmin(RecordsAdmin):
    list_display = ["game", "action", "user", "created"]
    list_filter = ["action"]
    readonly_fields = ["game", "user", "action", "details", "created"]


admin.site.register(DrawVote, NumericIdsAdmin)
admin.site.register(NotificationSettings, NumericIdsAdmin)


class _UsernameCheck:
    """The admin's user forms refuse the names sign-up refuses (``games.usernames``)."""

    def clean_username(self):
        parent = getattr(super(), "clean_username", None)
        username = parent() if parent else self.cleaned_data.get("username")
        account = self.instance if self.instance.pk else None
        if account is not None and username == account.username:
            return username  # unchanged: an account's other fields may always be edited
        refused = username and usernames.problem(username, account)
        if refused:
            raise forms.ValidationError(refused)
        return username


class CheckedUserChangeForm(_UsernameCheck, UserChangeForm):
    pass


class CheckedUserCreationForm(_UsernameCheck, AdminUserCreationForm):
    pass


class CheckedUserAdmin(NumericIdsAdmin, UserAdmin):
    form = CheckedUserChangeForm
    add_form = CheckedUserCreationForm


class NumericIdsGroupAdmin(NumericIdsAdmin, GroupAdmin):
    """Django's groups, their actions' rows checked as every other model's (a 500 before)."""


admin.site.unregister(get_user_model())
admin.site.register(get_user_model(), CheckedUserAdmin)
admin.site.unregister(Group)
admin.site.register(Group, NumericIdsGroupAdmin)
