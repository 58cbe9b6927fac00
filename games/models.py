"""Games, the powers people play in them, phases, orders and press.

Models hold data and answer questions about it; every change of game state goes through
``games.services`` so that locking and the audit log live in one place.
"""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q


class Game(models.Model):
    class Status(models.TextChoices):
        FORMING = "forming"
        ACTIVE = "active"
        PAUSED = "paused"
        FINISHED = "finished"
        CANCELLED = "cancelled"

    class Press(models.TextChoices):
        FULL = "full", "full press"
        PUBLIC = "public", "public press only"
        NONE = "none", "no press"

    name = models.CharField(max_length=100)
    variant = models.CharField(max_length=50)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.FORMING)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_games"
    )
    movement_minutes = models.PositiveIntegerField(default=24 * 60)
    retreats_minutes = models.PositiveIntegerField(default=12 * 60)
    adjustments_minutes = models.PositiveIntegerField(default=12 * 60)
    deadline_time = models.TimeField(
        null=True,
        blank=True,
        help_text="When set, deadlines fall at this time of day (UTC), at least the phase's "
        "minutes away.",
    )
    press = models.CharField(max_length=6, choices=Press.choices, default=Press.FULL)
    anonymous = models.BooleanField(default=False)
    process_when_ready = models.BooleanField(
        default=True, help_text="Process before the deadline once every active power is ready."
    )
    options = models.JSONField(
        default=dict, blank=True, help_text="Variant rule options, e.g. victory_centers."
    )
    civil_disorder_after = models.PositiveIntegerField(
        default=2, help_text="Missed movement phases in a row before a power falls into CD."
    )
    current_phase = models.ForeignKey(
        "Phase", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    paused_remaining = models.DurationField(null=True, blank=True)
    result = models.JSONField(
        null=True, blank=True, help_text='How it ended: {"kind": ..., "powers": [...]}.'
    )
    created = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.CANCELLED)

    def minutes_for(self, phase_type: str) -> int:
        return {
            "movement": self.movement_minutes,
            "retreats": self.retreats_minutes,
            "adjustments": self.adjustments_minutes,
        }[phase_type]

    def is_moderator(self, user) -> bool:
        return user.is_authenticated and (user.pk == self.creator_id or user.is_staff)

    def membership_of(self, user) -> Membership | None:
        """The user's current seat in this game, if any (replaced seats do not count)."""
        if not user.is_authenticated:
            return None
        return self.memberships.exclude(status=Membership.Status.REPLACED).filter(user=user).first()


class Membership(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active"
        CIVIL_DISORDER = "civil_disorder"
        ELIMINATED = "eliminated"
        REPLACED = "replaced"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    power = models.CharField(max_length=50, blank=True)
    status = models.CharField(max_length=15, choices=Status.choices, default=Status.ACTIVE)
    ready = models.BooleanField(default=False)
    missed_phases = models.PositiveIntegerField(default=0)
    preferences = models.JSONField(
        default=list, blank=True, help_text="Powers in order of preference."
    )
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["power", "joined"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_seat_per_user"),
            models.UniqueConstraint(
                fields=["game", "power"],
                condition=~Q(power="") & ~Q(status="replaced"),
                name="one_player_per_power",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} as {self.power or '?'} in {self.game}"


class Phase(models.Model):
    class Type(models.TextChoices):
        MOVEMENT = "movement"
        RETREATS = "retreats"
        ADJUSTMENTS = "adjustments"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="phases")
    index = models.PositiveIntegerField()
    season = models.CharField(max_length=20)
    year = models.IntegerField()
    type = models.CharField(max_length=12, choices=Type.choices)
    units = models.JSONField(default=list)
    supply_centers = models.JSONField(default=dict)
    dislodged = models.JSONField(default=list, blank=True)
    contested = models.JSONField(default=list, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    processed_at = models.DateTimeField(null=True, blank=True)
    results = models.JSONField(null=True, blank=True, help_text="The engine's response.")
    carried = models.JSONField(
        default=dict,
        blank=True,
        help_text="Variant state carried into the engine request (Chinese gold, faction orders).",
    )
    reminders_sent = models.JSONField(
        default=list, blank=True, help_text="Deadline reminders already sent, in hours."
    )

    class Meta:
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="one_phase_per_index"),
        ]

    def __str__(self) -> str:
        return f"{self.game}: {self.name}"

    @property
    def name(self) -> str:
        return f"{self.season.title()} {self.year} {self.type}"

    def as_engine_phase(self) -> dict:
        return {"season": self.season, "year": self.year, "type": self.type}


class Order(models.Model):
    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="orders")
    power = models.CharField(max_length=50)
    membership = models.ForeignKey(
        Membership, null=True, blank=True, on_delete=models.SET_NULL, related_name="orders"
    )
    text = models.CharField(max_length=200)
    canonical = models.CharField(max_length=200, blank=True)
    location = models.CharField(
        max_length=100, null=True, blank=True, help_text="The unit's location for valid orders."
    )
    valid = models.BooleanField(default=False)
    reason = models.CharField(max_length=300, blank=True)
    result = models.CharField(max_length=20, blank=True, help_text="Filled in when processed.")
    result_reason = models.CharField(max_length=300, blank=True)
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["phase", "power", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["phase", "power", "location"],
                condition=Q(location__isnull=False),
                name="one_order_per_unit",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.power}: {self.canonical or self.text}"


class Message(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="messages")
    phase = models.ForeignKey(
        Phase, null=True, blank=True, on_delete=models.SET_NULL, related_name="messages"
    )
    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sent_messages"
    )
    sender_power = models.CharField(max_length=50, blank=True, help_text="Blank: the moderator.")
    recipients = models.JSONField(default=list, blank=True, help_text="Powers; empty: everyone.")
    body = models.TextField(max_length=5000)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "pk"]

    def __str__(self) -> str:
        return f"{self.sender_power or 'Moderator'}: {self.body[:40]}"

    @property
    def is_public(self) -> bool:
        return not self.recipients


class DrawVote(models.Model):
    """A standing vote of one power: for a draw, or to concede to ``concede_to``."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="votes")
    power = models.CharField(max_length=50)
    concede_to = models.CharField(max_length=50, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "power"], name="one_vote_per_power"),
        ]

    def __str__(self) -> str:
        return f"{self.power}: {'concede to ' + self.concede_to if self.concede_to else 'draw'}"


class ModeratorAction(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moderator_actions")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=30)
    details = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"{self.game}: {self.action} by {self.user}"


def time_zones() -> list[str]:
    """The IANA time zones a player may choose from, sorted."""
    return sorted(zoneinfo.available_timezones() - {"localtime"})


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones() or value == "localtime":
        raise ValidationError(f"{value!r} is not a known time zone.")


class Palette(models.TextChoices):
    DEFAULT = "default", "Default colours"
    COLOUR_BLIND = "colour-blind", "Colour-blind safe (Okabe and Ito)"


class NotificationSettings(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_settings"
    )
    phase_processed = models.BooleanField(default=True)
    deadline_reminders = models.BooleanField(default=True)
    press_digest = models.BooleanField(default=True)
    last_digest = models.DateTimeField(null=True, blank=True)
    # Display choices, kept on the account so that they follow the player to any browser.
    time_zone = models.CharField(
        max_length=64,
        default="UTC",
        validators=[validate_time_zone],
        help_text="Deadlines are shown in this time zone (an IANA name, e.g. Europe/Paris).",
    )
    palette = models.CharField(
        max_length=20,
        choices=Palette.choices,
        default=Palette.DEFAULT,
        help_text="Colours of the powers on the board.",
    )

    def __str__(self) -> str:
        return f"notifications for {self.user}"

    @classmethod
    def of(cls, user) -> NotificationSettings:
        return cls.objects.get_or_create(user=user)[0]


class Payment(models.Model):
    """Gold paid from one great power to another (Chinese Diplomacy), kept in a ledger."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="payments")
    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="payments")
    payer = models.CharField(max_length=50)
    payee = models.CharField(max_length=50)
    amount = models.PositiveIntegerField(help_text="Thousands of ounces of gold.")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "pk"]

    def __str__(self) -> str:
        return f"{self.payer} pays {self.payee} {self.amount} k oz"

    def as_engine(self) -> dict:
        return {"from": self.payer, "to": self.payee, "amount": self.amount}
