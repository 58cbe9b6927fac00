"""API representations. Read serializers take the viewing user in their context, because what
a game shows (orders, press, player names) depends on who is looking."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.forms import PasswordChangeForm
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError
from django.http import QueryDict
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from . import engine, moderation, notifications, usernames, visibility
from .input_types import LanguageField, PhaseIndexField, StrictInput, ZonedDateTimeField
from .limits import (
    MAX_DEADLINE_DAYS_AHEAD,
    MAX_DEADLINE_SHIFT_MINUTES,
    MAX_INTEGER,
    MAX_MISSED_PHASES,
    MAX_ORDER_LENGTH,
    MAX_ORDERS,
    MAX_PAYMENT,
    MAX_PHASE_MINUTES,
    order_too_long,
    too_many_orders,
)
from .models import (
    PUBLIC_ID_MAX,
    PUBLIC_ID_MIN,
    Game,
    Message,
    ModeratorAction,
    NotificationSettings,
    Order,
    Payment,
    Phase,
    time_zones,
)

User = get_user_model()


def _viewer(serializer: serializers.Serializer):
    return serializer.context["request"].user


def public_id_field(help_text: str) -> serializers.IntegerField:
    """A row's random public id (``models.new_public_id``), shown as its ``id``."""
    return serializers.IntegerField(
        source="public_id",
        read_only=True,
        min_value=PUBLIC_ID_MIN,
        max_value=PUBLIC_ID_MAX,
        help_text=help_text,
    )


class SignupSerializer(StrictInput, serializers.ModelSerializer):
    password = serializers.CharField(write_only=True, style={"input_type": "password"})

    class Meta:
        model = User
        fields = ["username", "email", "password"]

    def validate_username(self, value: str) -> str:
        """The name as it will be stored (Django keeps its NFKC form, which may be longer or
        hold spaces: one ``ﷺ`` is 18 characters), checked again in that form."""
        value = User.normalize_username(value)
        try:  # the model field's own checks: its length and its pattern
            User._meta.get_field("username").run_validators(value)
        except DjangoValidationError as error:
            raise serializers.ValidationError(error.messages) from None
        refused = usernames.problem(value)
        if refused:
            raise serializers.ValidationError(refused)
        return value

    def validate_email(self, value: str) -> str:
        refused = notifications.address_problem(value)
        if refused:
            raise serializers.ValidationError(refused)
        return value

    def validate(self, attrs: dict) -> dict:
        password_validation.validate_password(attrs["password"], User(**attrs))
        return attrs

    def create(self, validated_data: dict):
        return create_account(**validated_data)


def create_account(**fields):
    """A new account; the name or the address taken meanwhile (two sign-ups at once, each
    checked before the other was saved) is the same refusal as one taken before, not a
    database error nor two accounts on one mailbox."""
    email = fields.get("email") or ""
    try:
        with notifications.one_address_at_a_time(email):
            refused = notifications.address_problem(email)  # again, now that it is ours
            if refused:
                raise serializers.ValidationError({"email": [refused]})
            return User.objects.create_user(**fields)
    except IntegrityError:
        raise serializers.ValidationError(
            {"username": ["A user with that username already exists."]}
        ) from None


@extend_schema_field({"type": "string", "enum": time_zones()})
class TimeZoneField(serializers.ChoiceField):
    """An IANA time zone; the schema lists them (without a line of description for each)."""


class PasswordChangeSerializer(StrictInput):
    """The account's password now and the new one (checked by the site's password rules)."""

    old_password = serializers.CharField(write_only=True, style={"input_type": "password"})
    new_password = serializers.CharField(write_only=True, style={"input_type": "password"})

    def validate_old_password(self, value: str) -> str:
        if not self.context["user"].check_password(value):
            # Django's own words, in Django's own translations.
            wrong = PasswordChangeForm.error_messages["password_incorrect"]
            raise serializers.ValidationError(wrong)
        return value

    def validate_new_password(self, value: str) -> str:
        password_validation.validate_password(value, self.context["user"])
        return value


class NotificationSettingsSerializer(StrictInput, serializers.ModelSerializer):
    # The zones themselves, so that the schema lists what is accepted (an IANA name).
    time_zone = TimeZoneField(
        choices=time_zones(),
        required=False,
        help_text="Deadlines are shown in this time zone (an IANA name, e.g. Europe/Paris).",
    )
    language = LanguageField(
        choices=settings.LANGUAGES,
        required=False,
        help_text="The language of mails and push notifications (pages follow the browser); "
        "any case.",
    )
    # Kept on the account (the user), not on these settings: the address every mail goes to.
    email = serializers.EmailField(
        source="user.email",
        required=False,
        allow_blank=True,
        max_length=254,
        help_text="Where mails go; empty: no mail at all.",
    )

    class Meta:
        model = NotificationSettings
        fields = [
            "email",
            "phase_processed",
            "deadline_reminders",
            "press_digest",
            "language",
            "time_zone",
            "palette",
        ]

    def validate_email(self, value: str) -> str:
        refused = notifications.address_problem(value, self.instance and self.instance.user)
        if refused:
            raise serializers.ValidationError(refused)
        return value

    def update(self, instance: NotificationSettings, validated_data: dict) -> NotificationSettings:
        """The address goes to the account (DRF writes no dotted source by itself)."""
        account = validated_data.pop("user", None)
        if account is not None:
            try:
                notifications.set_address(instance.user, account["email"])
            except notifications.AddressTaken as taken:
                raise serializers.ValidationError({"email": [str(taken)]}) from None
        return super().update(instance, validated_data)


# hh:mm[:ss[.uuuuuu]], in ASCII digits; Django alone would also read "1:30" and "12:3".
TIME_OF_DAY = r"([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\.[0-9]{1,6})?)?"


@extend_schema_field({"type": "string", "pattern": f"^{TIME_OF_DAY}$", "example": "18:00:00"})
class TimeOfDayField(serializers.TimeField):
    """A time of day in UTC. Not OpenAPI's "time" format, which demands an offset ("Z")
    that these neither need nor carry."""

    def to_internal_value(self, value):
        if isinstance(value, str) and not re.fullmatch(TIME_OF_DAY, value):
            self.fail("invalid", format="hh:mm[:ss[.uuuuuu]]")
        return super().to_internal_value(value)


class OptionsField(serializers.JSONField):
    """A game's options: a JSON object (in form data, one written as JSON text). Its schema is
    every option some variant reads, as the engine declares them (``games.schema``)."""

    def to_internal_value(self, data):
        if isinstance(data, str) and isinstance(self.root.initial_data, QueryDict):
            try:
                data = json.loads(data)
            except ValueError:
                self.fail("invalid")
        if not isinstance(data, dict):
            raise serializers.ValidationError("options must be an object")
        return super().to_internal_value(data)


class GameCreateSerializer(StrictInput, serializers.ModelSerializer):
    variant = serializers.ChoiceField(choices=[])
    options = OptionsField(
        required=False,
        help_text="Variant rule options; the variant decides which it reads and their ranges "
        "(GET /api/variants/{id}/ shows them as option_schema).",
    )
    deadline_time = TimeOfDayField(
        required=False,
        allow_null=True,
        help_text="When set, deadlines fall at this time of day (UTC), at least the phase's "
        "minutes away.",
    )

    class Meta:
        model = Game
        fields = [
            "id",
            "name",
            "variant",
            "movement_minutes",
            "retreats_minutes",
            "adjustments_minutes",
            "deadline_time",
            "press",
            "anonymous",
            "process_when_ready",
            "options",
            "civil_disorder_after",
            "bots_fill_empty",
            "bots_take_civil_disorder",
            "public",
        ]
        extra_kwargs = {
            "movement_minutes": {"min_value": 1, "max_value": MAX_PHASE_MINUTES},
            "retreats_minutes": {"min_value": 1, "max_value": MAX_PHASE_MINUTES},
            "adjustments_minutes": {"min_value": 1, "max_value": MAX_PHASE_MINUTES},
            "civil_disorder_after": {"min_value": 0, "max_value": MAX_MISSED_PHASES},
        }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["variant"].choices = engine.variant_ids()

    def validate_options(self, value) -> dict:
        if not isinstance(value, dict):
            raise serializers.ValidationError("options must be an object")
        return value

    def validate(self, attrs: dict) -> dict:
        """Options as the engine declares them for the chosen variant: an option of the wrong
        type would otherwise break every order check and every processing of the game."""
        options = attrs.get("options", {})
        problems = engine.option_problems(attrs["variant"], options)
        threshold = options.get("victory_centers")
        if not problems and threshold is not None:
            least = engine.fewest_centres_to_win(attrs["variant"])
            if threshold < least:
                problems.append(
                    f"victory_centers: must be at least {least}: a power starts with "
                    f"{least - 1} centres, so a smaller figure is won before anyone moves"
                )
        if problems:
            raise serializers.ValidationError({"options": problems})
        return attrs


class PowerSerializer(serializers.Serializer):
    power = serializers.CharField()
    player = serializers.CharField(allow_null=True)
    status = serializers.CharField()
    bot = serializers.BooleanField(
        allow_null=True,
        help_text="A bot plays this power (player is its name); null where the viewer may not "
        "know: in an anonymous game still running, another player's seat, unless the viewer "
        "moderates the game.",
    )
    ready = serializers.BooleanField()
    supply_centers = serializers.IntegerField()
    units = serializers.IntegerField()


class BoardSerializer(serializers.ModelSerializer):
    balances = serializers.SerializerMethodField(help_text="Gold per power (Chinese Diplomacy).")
    faction_orders = serializers.SerializerMethodField(
        help_text="The Chinese factions' orders published before the deadline."
    )

    class Meta:
        model = Phase
        fields = [
            "index",
            "season",
            "year",
            "type",
            "deadline",
            "processed_at",
            "units",
            "supply_centers",
            "dislodged",
            "contested",
            "balances",
            "faction_orders",
        ]

    def get_balances(self, phase: Phase) -> dict[str, int] | None:
        return engine.opening_balances(phase)

    @extend_schema_field(serializers.ListField(child=serializers.DictField()))
    def get_faction_orders(self, phase: Phase) -> list[dict]:
        """Published ones only, until the phase is processed; then its results show them all."""
        return [
            {"power": o["power"], "order": o["order"]}
            for o in phase.carried.get("faction_orders", [])
            if o.get("published")
        ]


class PaymentSerializer(StrictInput, serializers.ModelSerializer):
    phase = PhaseIndexField(
        help_text="The index of the phase it was paid in. In a request, optional: the phase "
        "it is meant for (the game's current_phase.index); for any other phase nothing is "
        "paid and the answer is 409."
    )
    to = serializers.CharField(source="payee", max_length=50)
    id = public_id_field(
        "Random: it names this payment and tells nothing of others, nor of when it was paid "
        "(the ledger's order does)."
    )

    class Meta:
        model = Payment
        fields = ["id", "phase", "payer", "to", "amount", "created"]
        read_only_fields = ["id", "payer", "created"]
        extra_kwargs = {"amount": {"min_value": 1, "max_value": MAX_PAYMENT}}


@extend_schema_field(
    {"type": "string", "format": "duration", "nullable": True, "example": "P0DT01H30M00S"}
)
class IsoDurationField(serializers.DurationField):
    """A length of time as ISO 8601 writes it (the settings' ``DURATION_FORMAT``), said so in
    the schema, which gave a plain string."""


class GameSerializer(serializers.ModelSerializer):
    creator = serializers.SerializerMethodField()
    paused_remaining = IsoDurationField(
        read_only=True,
        allow_null=True,
        help_text="A paused game's time left on its deadline, when it resumes; else null.",
    )
    current_phase = BoardSerializer(read_only=True, allow_null=True)
    deadline_time = TimeOfDayField(read_only=True, allow_null=True)
    powers = serializers.SerializerMethodField()
    my_power = serializers.SerializerMethodField()
    is_moderator = serializers.SerializerMethodField()
    players = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = [
            *GameCreateSerializer.Meta.fields,
            "status",
            "creator",
            "created",
            "finished_at",
            "result",
            "paused_remaining",
            "sandbox",
            "players",
            "my_power",
            "is_moderator",
            "current_phase",
            "powers",
        ]

    def to_representation(self, game: Game) -> dict:
        data = super().to_representation(game)
        if "options" in data:
            request = self.context.get("request")
            data["options"] = visibility.shown_options(game, getattr(request, "user", None))
        return data

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_creator(self, game: Game) -> str | None:
        """Null in an anonymous game still running, unless the viewer is its moderator."""
        return visibility.creator_name(game, _viewer(self))

    def get_players(self, game: Game) -> int:
        return game.memberships.exclude(status="replaced").count()

    def get_my_power(self, game: Game) -> str | None:
        membership = game.membership_of(_viewer(self))
        return membership.power or None if membership else None

    def get_is_moderator(self, game: Game) -> bool:
        return game.is_moderator(_viewer(self))

    @extend_schema_field(PowerSerializer(many=True))
    def get_powers(self, game: Game) -> list[dict]:
        phase = game.current_phase
        if phase is None:
            return []
        user = _viewer(self)
        show = visibility.shows_names(game, user)
        bots = visibility.shows_bots(game, user)
        seats = {
            m.power: m for m in game.memberships.exclude(status="replaced").select_related("user")
        }
        out = []
        board = engine.final_board(phase)  # a game won with its phase: the winner's centres
        for power in engine.powers(game):
            seat = seats.get(power)
            out.append(
                {
                    "power": power,
                    "player": visibility.player_name(seat, user, show, bots) if seat else None,
                    "status": seat.status if seat else "civil_disorder",
                    "bot": visibility.is_bot(seat, user, bots),
                    "ready": bool(seat and seat.ready),
                    "supply_centers": len(board.supply_centers.get(power, [])),
                    "units": sum(1 for u in board.units if u["power"] == power),
                }
            )
        return out


_TEXT = {"type": "string"}
ORDER_DATA_SCHEMA = {
    "type": "object",
    "description": "The engine's reading of an order, so that nobody has to parse its text.",
    "properties": {
        "kind": {
            "type": "string",
            "enum": [
                "hold",
                "move",
                "support",
                "convoy",
                "retreat",
                "disband",
                "build",
                "remove",
                "waive",
                "special",
            ],
        },
        "order": {**_TEXT, "description": "The canonical text."},
        "unit": {**_TEXT, "enum": ["A", "F"]},
        "location": {**_TEXT, "description": "Where the unit stands (a build: where it is built)."},
        "destination": {
            **_TEXT,
            "description": "A move's or retreat's end, or the supported or convoyed move's.",
        },
        "coast": _TEXT,
        "via": {**_TEXT, "description": "convoy, or a rule's route such as TSR."},
        "target_unit": {**_TEXT, "enum": ["A", "F"]},
        "target_power": {**_TEXT, "description": "Whose unit, where one space holds several."},
        "target_number": {"type": "integer", "description": "Its number there (F2: second)."},
        "target": {**_TEXT, "description": "The supported or convoyed unit's location."},
        "words": {"type": "array", "items": {}, "description": "A rule's own order's words."},
        "rule": {**_TEXT, "description": "The rule a special order belongs to (suez_canal, ...)."},
        "form": {**_TEXT, "description": "Which of the rule's orders it is (permit, enter, ...)."},
        "needs": {
            **_TEXT,
            "description": "Options only (an order's own is beside its data): what it waits "
            "for from other powers.",
        },
        "once": {
            **_TEXT,
            "description": "Options only: the rule that allows one such order a turn "
            "(trans_siberian_railroad, suez_canal); a second refuses both.",
        },
    },
}


@extend_schema_field({**ORDER_DATA_SCHEMA, "nullable": True})
class OrderDataField(serializers.JSONField):
    """An order as the engine's data (the engine's ``order_data``), read only."""

    def __init__(self, **kwargs) -> None:
        super().__init__(read_only=True, **kwargs)


class OrderSerializer(serializers.Serializer):
    """An order as stored and, once processed, judged. Declared by hand rather than from the
    model: every order submission answers with it, and a model serializer rebuilds its fields
    from the model each time."""

    power = serializers.CharField(read_only=True)
    text = serializers.CharField(read_only=True)
    canonical = serializers.CharField(read_only=True)
    valid = serializers.BooleanField(read_only=True)
    data = OrderDataField()
    reason = serializers.CharField(
        source="said_reason", read_only=True, help_text="In the request's language."
    )
    reason_words = serializers.JSONField(
        read_only=True, help_text="The reason as the engine's template and the names it quotes."
    )
    result = serializers.CharField(read_only=True, help_text="Filled in when processed.")
    result_reason = serializers.CharField(
        source="said_result_reason", read_only=True, help_text="In the request's language."
    )
    result_reason_words = serializers.JSONField(read_only=True)
    needs = serializers.CharField(
        source="said_needs",
        read_only=True,
        help_text="What a valid order waits for from other powers' orders (a canal permit, the "
        "railroad move a support is for), judged with them at the deadline; empty when nothing. "
        "In the request's language.",
    )
    needs_words = serializers.JSONField(read_only=True)
    stopped_at = serializers.CharField(
        read_only=True,
        help_text="Where a railroad move that ended short of its target stopped (result "
        "'stopped'); empty otherwise.",
    )


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def order_answers(orders: Iterable[Order]) -> list[dict]:
    """``OrderSerializer(orders, many=True).data``, made directly: the serializer copies its
    thirteen fields for every answer, which was a tenth of an order submission's CPU. Same keys,
    same values (``tests/test_api_order_model.py`` compares the two)."""
    return [
        {
            "power": _text(o.power),
            "text": _text(o.text),
            "canonical": _text(o.canonical),
            "valid": None if o.valid is None else bool(o.valid),
            "data": o.data,
            "reason": _text(o.said_reason),
            "reason_words": o.reason_words,
            "result": _text(o.result),
            "result_reason": _text(o.said_result_reason),
            "result_reason_words": o.result_reason_words,
            "needs": _text(o.said_needs),
            "needs_words": o.needs_words,
            "stopped_at": _text(o.stopped_at),
        }
        for o in orders
    ]


class OrderLines(serializers.ListField):
    """A power's order lines. Too many are refused in the words the order form uses ("At
    most 100 orders; this has 101."), counted before any line is read, rather than in DRF's
    ("Ensure this field has no more than 100 elements."), which the order box shows as is."""

    def too_many(self, count: int) -> str:
        """The refusal of ``count`` lines, past ``max_length`` (``StrictInput`` asks for it)."""
        return too_many_orders(count, self.max_length)

    def item_problem(self, number: int, item: object, problem: str) -> str:
        """A line refused, in the order form's words ("Order 8 is longer than 200
        characters."), not the generic list's ("Item 8: Ensure this field has no more than
        200 characters."), which the order box showed as is."""
        if isinstance(item, str) and len(item.strip()) > MAX_ORDER_LENGTH:
            return order_too_long(number)
        return gettext("Order %(number)s: %(problem)s") % {"number": number, "problem": problem}

    def run_child_validation(self, data: list) -> list:
        if self.max_length is not None and len(data) > self.max_length:
            raise serializers.ValidationError(self.too_many(len(data)), code="max_length")
        return super().run_child_validation(data)


class OrdersInputSerializer(StrictInput, serializers.Serializer):
    orders = OrderLines(
        child=serializers.CharField(max_length=MAX_ORDER_LENGTH, trim_whitespace=True),
        max_length=MAX_ORDERS,
        allow_empty=True,
    )
    phase = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_INTEGER,
        help_text="The index of the phase these orders are for (the game's "
        "current_phase.index); for any other phase nothing is stored and the answer is 409. "
        "Without it the orders go to whatever phase is current when they arrive.",
    )


def orders_input(data: object) -> dict:
    """A body of orders (``OrdersInputSerializer``) read and checked: a plain JSON body whose
    every line and phase is fine is read here directly, as the serializer would read it
    (orders are the busiest request, and the serializer's per-request copy of its fields
    cost a twentieth of a submission); any other goes through the serializer, which says
    what is wrong with it in its own words."""
    plain = _plain_orders(data)
    if plain is not None:
        return plain
    serializer = OrdersInputSerializer(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _plain_orders(data: object) -> dict | None:
    """The validated data of a JSON body the serializer would take as it is, or None."""
    if type(data) is not dict or not data.keys() <= _ORDERS_INPUT_KEYS:
        return None
    lines = data.get("orders")
    if type(lines) is not list or len(lines) > MAX_ORDERS:
        return None
    orders = []
    for line in lines:
        if type(line) is not str or len(line) > MAX_ORDER_LENGTH or "\x00" in line:
            return None
        if not line.isascii():
            try:
                line.encode()  # DRF refuses surrogates
            except UnicodeEncodeError:
                return None
        trimmed = line.strip()
        if not trimmed:
            return None
        orders.append(trimmed)
    if "phase" not in data:
        return {"orders": orders}
    phase = data["phase"]
    if type(phase) is not int or not 0 <= phase <= MAX_INTEGER:
        return None
    return {"orders": orders, "phase": phase}


_ORDERS_INPUT_KEYS = frozenset({"orders", "phase"})


class OptionsSerializer(serializers.Serializer):
    """Every legal order of one power this phase, from the engine (``adjudication.options``)."""

    power = serializers.CharField(read_only=True)
    phase = serializers.DictField(read_only=True, help_text="season, year and type")
    orders = serializers.ListField(child=OrderDataField(), read_only=True)
    adjustment = serializers.IntegerField(
        read_only=True, help_text="Builds (positive) or removals (negative) due; else 0."
    )


class PhaseSerializer(BoardSerializer):
    orders = serializers.SerializerMethodField()
    results = serializers.SerializerMethodField()

    class Meta(BoardSerializer.Meta):
        fields = [*BoardSerializer.Meta.fields, "orders", "results"]

    @extend_schema_field(OrderSerializer(many=True))
    def get_orders(self, phase: Phase) -> list[dict]:
        return OrderSerializer(visibility.visible_orders(phase, _viewer(self)), many=True).data

    def get_results(self, phase: Phase) -> dict | None:
        if not phase.processed_at:
            return None
        user = getattr(self.context.get("request"), "user", None)
        if user is not None and visibility.sees_everything(phase.game, user):
            return phase.results
        return visibility.shown_results(phase.results)


class MessageSerializer(StrictInput, serializers.ModelSerializer):
    id = public_id_field(
        "Random: it names this message and tells nothing of the press the viewer may not "
        "read, nor of the order messages were sent in (the list's order and `created` do). "
        "Ids are 16 digits, exact as JavaScript numbers; the live events' ids end with one."
    )
    sender = serializers.SerializerMethodField()
    sender_bot = serializers.SerializerMethodField(
        help_text="A bot's account sent it; null where the viewer may not know (an anonymous "
        "game still running)."
    )
    phase = PhaseIndexField(
        allow_null=True,
        help_text="The index of the phase it was sent in (null: a phase since rolled back). In "
        "a request, optional: the phase it is meant for (the game's current_phase.index); for "
        "any other phase nothing is sent and the answer is 409.",
    )
    recipients = serializers.ListField(
        child=serializers.CharField(max_length=50),
        required=False,
        max_length=20,
        help_text="The powers who read it (none: public press), and Moderator for a player "
        "writing to a moderator who does not play: always allowed, in a no-press or "
        "public-press game too, when the moderator alone is written to.",
    )
    body = serializers.CharField(max_length=5000)

    class Meta:
        model = Message
        fields = [
            "id",
            "sender_power",
            "sender",
            "sender_bot",
            "recipients",
            "body",
            "phase",
            "created",
        ]
        read_only_fields = ["id", "sender_power", "sender", "sender_bot", "created"]

    @extend_schema_field(serializers.BooleanField(allow_null=True))
    def get_sender_bot(self, message: Message) -> bool | None:
        """Null in an anonymous game still running, unless the viewer may see its bots (its
        moderator) or sent it."""
        user = _viewer(self)
        if message.sender_id == user.pk or visibility.shows_bots(message.game, user):
            return message.from_bot
        return None

    def get_sender(self, message: Message) -> str | None:
        """Hidden in an anonymous game still running, the moderator's own press as well."""
        user, game = _viewer(self), message.game
        if message.sender_id == user.pk or visibility.shows_names(game, user):
            return message.sender.username
        if not message.sender_power and visibility.creator_name(game, user) is not None:
            return message.sender.username  # a moderator's press where moderators are named
        return None


class JoinSerializer(StrictInput, serializers.Serializer):
    preferences = serializers.ListField(
        child=serializers.CharField(max_length=50), required=False, max_length=20
    )
    power = serializers.CharField(
        max_length=50, required=False, help_text="Take over this power in a running game."
    )


class NoBodySerializer(StrictInput, serializers.Serializer):
    """A request that takes no body (leaving a game): one sent is read all the same, and any
    key in it refused, rather than the request done on a body nobody read."""


class ReadySerializer(StrictInput, serializers.Serializer):
    # Required, as the phase is: a body that forgot it (or misspelt it, refused as unknown)
    # was taken as a ready, which may process the phase at once, past undoing.
    ready = serializers.BooleanField(
        help_text="True: ready for the phase; false: not ready.",
        error_messages={"required": "Say whether you are ready: true or false."},
    )
    phase = serializers.IntegerField(
        min_value=0,
        max_value=MAX_INTEGER,
        help_text="The index of the phase this is meant for (the game's current_phase.index); "
        "for any other phase the request is refused with 409 and changes nothing.",
        error_messages={
            "required": "Name the phase this is meant for: the game's current_phase.index."
        },
    )


class VoteSerializer(StrictInput, serializers.Serializer):
    draw = serializers.BooleanField(default=False, help_text="Vote for a draw; false withdraws.")
    concede_to = serializers.CharField(max_length=50, required=False, default="", allow_blank=True)


class ModerationSerializer(StrictInput, serializers.Serializer):
    """Arguments of every moderator action; each action reads the ones it needs."""

    minutes = serializers.IntegerField(
        required=False,
        min_value=-MAX_DEADLINE_SHIFT_MINUTES,
        max_value=MAX_DEADLINE_SHIFT_MINUTES,
        help_text="deadline: move by this much",
    )
    deadline = ZonedDateTimeField(
        required=False,
        help_text=f"deadline: set to this, at most {MAX_DEADLINE_DAYS_AHEAD} days ahead; with "
        "its time zone (Z or an offset such as +09:00)",
    )
    seen_deadline = ZonedDateTimeField(
        required=False,
        help_text="deadline: the current phase's deadline as you last saw it "
        "(current_phase.deadline); if it is another by the time this arrives (this request "
        "repeated, another moderator's change), the request is refused with 409 and nothing "
        "changes",
    )
    phase = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_INTEGER,
        help_text="rollback: to this index; process: the current phase's index (required: a "
        "repeated request finds another phase current and is refused with 409); deadline: "
        "the current phase's index (required for a deadline now or past, which processes "
        "the phase at once); pause, resume, replace, remove, bot, draw, end: optionally the "
        "current phase's index, refused with 409 if another phase is current by then",
    )
    power = serializers.CharField(required=False, max_length=50, help_text="replace, remove, bot")
    username = serializers.CharField(required=False, max_length=150, help_text="replace")
    winner = serializers.CharField(required=False, max_length=50, allow_blank=True, help_text="end")
    bot = serializers.BooleanField(
        required=False, help_text="bot: true puts a bot on the power's seat, false takes it off"
    )

    def input_names(self) -> list[str] | None:
        """The fields of the action asked for, which an unknown field's refusal lists (this
        body serves every action; ``input_types.unknown_fields``)."""
        action = moderation.ACTIONS.get(self.context.get("action", ""))
        return None if action is None else [f.name for f in action.fields]

    def validate(self, attrs: dict) -> dict:
        action = self.context["action"]
        foreign = moderation.ACTIONS[action].foreign(attrs)
        if foreign:
            said = gettext("not an input of %(action)s") % {"action": action}
            raise serializers.ValidationError({f: said for f in foreign})
        missing = moderation.ACTIONS[action].missing(attrs)
        if missing:
            # A rule of the action, not of the schema (one body serves every action).
            said = gettext("%(action)s needs this field") % {"action": action}
            raise serializers.ValidationError({f: said for f in missing})
        wanted = moderation.ACTIONS[action].lacks_one_of(attrs)
        if wanted:
            said = gettext("%(action)s needs one of %(names)s") % {
                "action": action,
                "names": ", ".join(wanted),
            }
            raise serializers.ValidationError({name: said for name in wanted})
        both = moderation.ACTIONS[action].conflicting(attrs)
        if both:
            said = moderation.not_both(both)
            raise serializers.ValidationError({name: said for name in both})
        # After "not both": a deadline too far off beside minutes was refused for its date.
        problem = moderation.deadline_problem(attrs["deadline"]) if "deadline" in attrs else None
        if problem:
            raise serializers.ValidationError({"deadline": [problem]})
        if "username" in attrs:
            user = usernames.user_named(attrs["username"])
            if user is None:
                raise serializers.ValidationError({"username": "No such user."})
            attrs["user"] = user
        return attrs


class ModeratorActionFieldSerializer(serializers.Serializer):
    name = serializers.CharField()
    kind = serializers.CharField(
        help_text="minutes, deadline, phase, current_phase (the current phase's index), "
        "current_deadline (the current phase's deadline as last read), power, ..."
    )
    label = serializers.CharField()
    required = serializers.BooleanField()
    help = serializers.CharField()


class ModeratorActionSerializer(serializers.Serializer):
    """One moderator action possible now (``games.moderation``): POST its inputs to
    ``moderation/{name}/``; ``one_of``: inputs of which exactly one is needed."""

    name = serializers.CharField()
    label = serializers.CharField()
    description = serializers.CharField()
    inputs = ModeratorActionFieldSerializer(many=True, source="fields")
    one_of = serializers.ListField(child=serializers.CharField())


class VariantSerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    powers = serializers.ListField(child=serializers.DictField())
    start = serializers.DictField()
    victory_centers = serializers.IntegerField()


class AuditEntrySerializer(serializers.ModelSerializer):
    """One entry of a game's audit log: who did what, with the details it was stored with."""

    # Random, as press's and payments' ids: row ids would count the entries a moderator who
    # plays may not read (others' payments of the year not yet played).
    id = serializers.IntegerField(source="public_id", read_only=True)
    user = serializers.CharField(source="user.username", read_only=True, allow_null=True)

    class Meta:
        model = ModeratorAction
        fields = ["id", "action", "user", "details", "created"]
        read_only_fields = fields
