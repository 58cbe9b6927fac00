"""API representations. Read serializers take the viewing user in their context, because what
a game shows (orders, press, player names) depends on who is looking."""

from __future__ import annotations

from django.contrib.auth import get_user_model, password_validation
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from . import engine, visibility
from .models import Game, Message, NotificationSettings, Payment, Phase

User = get_user_model()


def _viewer(serializer: serializers.Serializer):
    return serializer.context["request"].user


class SignupSerializer(serializers.ModelSerializer):
    password = serializers.CharField(write_only=True, style={"input_type": "password"})

    class Meta:
        model = User
        fields = ["username", "email", "password"]

    def validate(self, attrs: dict) -> dict:
        password_validation.validate_password(attrs["password"], User(**attrs))
        return attrs

    def create(self, validated_data: dict):
        return User.objects.create_user(**validated_data)


class NotificationSettingsSerializer(serializers.ModelSerializer):
    class Meta:
        model = NotificationSettings
        fields = ["phase_processed", "deadline_reminders", "press_digest", "time_zone", "palette"]


@extend_schema_field(
    {"type": "string", "pattern": r"^\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?$", "example": "18:00:00"}
)
class TimeOfDayField(serializers.TimeField):
    """A time of day in UTC. Not OpenAPI's "time" format, which demands an offset ("Z")
    that these neither need nor carry."""


class GameCreateSerializer(serializers.ModelSerializer):
    variant = serializers.ChoiceField(choices=[])
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
        ]
        extra_kwargs = {
            "movement_minutes": {"min_value": 1},
            "retreats_minutes": {"min_value": 1},
            "adjustments_minutes": {"min_value": 1},
        }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["variant"].choices = engine.variant_ids()

    def validate_options(self, value) -> dict:
        if not isinstance(value, dict):
            raise serializers.ValidationError("options must be an object")
        threshold = value.get("victory_centers")
        if threshold is not None and (not isinstance(threshold, int) or threshold < 1):
            raise serializers.ValidationError("victory_centers must be a positive whole number")
        return value


class PowerSerializer(serializers.Serializer):
    power = serializers.CharField()
    player = serializers.CharField(allow_null=True)
    status = serializers.CharField()
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
        economy = phase.carried.get("economy")
        return economy["balances"] if economy else None

    @extend_schema_field(serializers.ListField(child=serializers.DictField()))
    def get_faction_orders(self, phase: Phase) -> list[dict]:
        """Published ones only, until the phase is processed; then its results show them all."""
        return [
            {"power": o["power"], "order": o["order"]}
            for o in phase.carried.get("faction_orders", [])
            if o.get("published")
        ]


class PaymentSerializer(serializers.ModelSerializer):
    phase = serializers.IntegerField(source="phase.index", read_only=True)
    to = serializers.CharField(source="payee", max_length=50)

    class Meta:
        model = Payment
        fields = ["id", "phase", "payer", "to", "amount", "created"]
        read_only_fields = ["id", "phase", "payer", "created"]


class GameSerializer(serializers.ModelSerializer):
    creator = serializers.CharField(source="creator.username", read_only=True)
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
            "players",
            "my_power",
            "is_moderator",
            "current_phase",
            "powers",
        ]

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
        seats = {
            m.power: m for m in game.memberships.exclude(status="replaced").select_related("user")
        }
        out = []
        for power in engine.powers(game):
            seat = seats.get(power)
            out.append(
                {
                    "power": power,
                    "player": visibility.player_name(seat, user, show) if seat else None,
                    "status": seat.status if seat else "civil_disorder",
                    "ready": bool(seat and seat.ready),
                    "supply_centers": len(phase.supply_centers.get(power, [])),
                    "units": sum(1 for u in phase.units if u["power"] == power),
                }
            )
        return out


class OrderSerializer(serializers.Serializer):
    """An order as stored and, once processed, judged. Declared by hand rather than from the
    model: every order submission answers with it, and a model serializer rebuilds its fields
    from the model each time."""

    power = serializers.CharField(read_only=True)
    text = serializers.CharField(read_only=True)
    canonical = serializers.CharField(read_only=True)
    valid = serializers.BooleanField(read_only=True)
    reason = serializers.CharField(read_only=True)
    result = serializers.CharField(read_only=True, help_text="Filled in when processed.")
    result_reason = serializers.CharField(read_only=True)


class OrdersInputSerializer(serializers.Serializer):
    orders = serializers.ListField(
        child=serializers.CharField(max_length=200, trim_whitespace=True),
        max_length=100,
        allow_empty=True,
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
        return phase.results if phase.processed_at else None


class MessageSerializer(serializers.ModelSerializer):
    sender = serializers.SerializerMethodField()
    phase = serializers.IntegerField(source="phase.index", read_only=True, allow_null=True)
    recipients = serializers.ListField(
        child=serializers.CharField(max_length=50), required=False, max_length=20
    )
    body = serializers.CharField(max_length=5000)

    class Meta:
        model = Message
        fields = ["id", "sender_power", "sender", "recipients", "body", "phase", "created"]
        read_only_fields = ["id", "sender_power", "sender", "phase", "created"]

    def get_sender(self, message: Message) -> str | None:
        user = _viewer(self)
        if not message.sender_power or visibility.shows_names(message.game, user):
            return message.sender.username
        return message.sender.username if message.sender_id == user.pk else None


class JoinSerializer(serializers.Serializer):
    preferences = serializers.ListField(
        child=serializers.CharField(max_length=50), required=False, max_length=20
    )
    power = serializers.CharField(
        max_length=50, required=False, help_text="Take over this power in a running game."
    )


class ReadySerializer(serializers.Serializer):
    ready = serializers.BooleanField(default=True)


class VoteSerializer(serializers.Serializer):
    draw = serializers.BooleanField(default=False, help_text="Vote for a draw; false withdraws.")
    concede_to = serializers.CharField(max_length=50, required=False, default="", allow_blank=True)


class ModerationSerializer(serializers.Serializer):
    """Arguments of every moderator action; each action reads the ones it needs."""

    minutes = serializers.IntegerField(required=False, help_text="deadline: move by this much")
    deadline = serializers.DateTimeField(required=False, help_text="deadline: set to this")
    phase = serializers.IntegerField(required=False, min_value=0, help_text="rollback: index")
    power = serializers.CharField(required=False, max_length=50, help_text="replace, remove")
    username = serializers.CharField(required=False, max_length=150, help_text="replace")
    winner = serializers.CharField(required=False, max_length=50, allow_blank=True, help_text="end")

    REQUIRED = {"rollback": ["phase"], "replace": ["power", "username"], "remove": ["power"]}

    def validate(self, attrs: dict) -> dict:
        action = self.context["action"]
        missing = [f for f in self.REQUIRED.get(action, []) if f not in attrs]
        if action == "deadline" and not ({"minutes", "deadline"} & set(attrs)):
            missing.append("minutes")
        if missing:
            raise serializers.ValidationError({f: "This field is required." for f in missing})
        if "username" in attrs:
            user = User.objects.filter(username=attrs["username"]).first()
            if user is None:
                raise serializers.ValidationError({"username": "No such user."})
            attrs["user"] = user
        return attrs


class VariantSerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    powers = serializers.ListField(child=serializers.DictField())
    start = serializers.DictField()
    victory_centers = serializers.IntegerField()
