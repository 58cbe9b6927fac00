"""Forms of the browser pages. They only clean input; ``games.services`` acts on it."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm

from . import engine, moderation
from .limits import (
    MAX_DEADLINE_SHIFT_MINUTES,
    MAX_INTEGER,
    MAX_MISSED_PHASES,
    MAX_ORDER_LENGTH,
    MAX_ORDERS,
    MAX_PHASE_MINUTES,
    MAX_VICTORY_CENTERS,
)
from .models import Game, NotificationSettings, Palette, time_zones

User = get_user_model()

PALETTES = Palette.choices


class SignUpForm(UserCreationForm):
    email = forms.EmailField(required=False, help_text="For deadline reminders; optional.")

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ["username", "email"]


class GameForm(forms.Form):
    """A new game. The defaults are the model's, explained in the help texts."""

    name = forms.CharField(max_length=100)
    variant = forms.ChoiceField(choices=[])
    movement_minutes = forms.IntegerField(
        min_value=1,
        max_value=MAX_PHASE_MINUTES,
        initial=24 * 60,
        help_text="Time for each movement phase; 1440 is a day.",
    )
    retreats_minutes = forms.IntegerField(
        min_value=1,
        max_value=MAX_PHASE_MINUTES,
        initial=12 * 60,
        help_text="Time for a retreat phase.",
    )
    adjustments_minutes = forms.IntegerField(
        min_value=1,
        max_value=MAX_PHASE_MINUTES,
        initial=12 * 60,
        help_text="Time for a build or removal phase.",
    )
    deadline_time = forms.TimeField(
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}),
        help_text="Optional: deadlines then fall at this time of day (UTC), at least the "
        "phase's minutes away.",
    )
    press = forms.ChoiceField(
        choices=Game.Press.choices,
        initial=Game.Press.FULL,
        help_text="Full press allows private messages; public press only open ones.",
    )
    anonymous = forms.BooleanField(
        required=False, help_text="Hide who plays which power until the game ends."
    )
    process_when_ready = forms.BooleanField(
        required=False,
        initial=True,
        help_text="Process a phase early once every active power has pressed Ready.",
    )
    civil_disorder_after = forms.IntegerField(
        min_value=0,
        max_value=MAX_MISSED_PHASES,
        initial=2,
        help_text="Movement phases a power may miss in a row before it falls into civil "
        "disorder; 0 never.",
    )
    bots_fill_empty = forms.BooleanField(
        required=False,
        help_text="When the game starts, bots play the powers nobody took: start it with as "
        "few players as you like.",
    )
    bots_take_civil_disorder = forms.BooleanField(
        required=False, help_text="A power that falls into civil disorder is handed to a bot."
    )
    victory_centers = forms.IntegerField(
        min_value=1,
        max_value=MAX_VICTORY_CENTERS,
        required=False,
        help_text="Supply centres needed to win; empty keeps the variant's own figure "
        "(29 in Colonial).",
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["variant"].choices = [
            (v, engine.describe(v)["name"]) for v in engine.variant_ids()
        ]
        self.fields["variant"].initial = "colonial"

    def settings(self) -> dict:
        """Keyword arguments for ``services.create_game``."""
        data = dict(self.cleaned_data)
        threshold = data.pop("victory_centers")
        data["options"] = {"victory_centers": threshold} if threshold else {}
        return data


class JoinForm(forms.Form):
    first = forms.ChoiceField(label="First choice", required=False)
    second = forms.ChoiceField(label="Second choice", required=False)

    def __init__(self, *args, powers: list[str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "any power"), *((p, p) for p in powers)]
        self.fields["first"].choices = choices
        self.fields["second"].choices = choices

    def preferences(self) -> list[str]:
        return [p for p in (self.cleaned_data["first"], self.cleaned_data["second"]) if p]


class OrdersForm(forms.Form):
    # The version of the saved orders this box was filled from (see services.orders_version).
    version = forms.CharField(required=False, widget=forms.HiddenInput)
    orders = forms.CharField(
        required=False,
        # Room for the most lines of the longest orders, with their line breaks.
        max_length=MAX_ORDERS * (MAX_ORDER_LENGTH + 2),
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false", "autocomplete": "off"}),
        help_text=f"One order a line, at most {MAX_ORDERS}; the game page shows examples for "
        "its variant.",
    )

    def clean_orders(self) -> str:
        """The API's limits: as many orders, as long, whichever way they come in."""
        text = self.cleaned_data["orders"]
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        if len(lines) > MAX_ORDERS:
            raise forms.ValidationError(f"At most {MAX_ORDERS} orders; this has {len(lines)}.")
        long = next((n for n, line in enumerate(lines, 1) if len(line) > MAX_ORDER_LENGTH), None)
        if long is not None:
            raise forms.ValidationError(
                f"Order {long} is longer than {MAX_ORDER_LENGTH} characters."
            )
        return text

    def lines(self) -> list[str]:
        return [line.strip() for line in self.cleaned_data["orders"].splitlines() if line.strip()]


class MessageForm(forms.Form):
    recipients = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="Tick nobody for a public message.",
    )
    body = forms.CharField(max_length=5000, widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args, powers: list[str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["recipients"].choices = [(p, p) for p in powers]


class PaymentForm(forms.Form):
    """Gold for another great power (Chinese Diplomacy); the service checks the rules."""

    to = forms.ChoiceField(label="To")
    amount = forms.IntegerField(
        label="Amount (k oz)",
        min_value=1,
        max_value=MAX_INTEGER,
        help_text="Thousands of ounces of gold.",
    )

    def __init__(self, *args, powers: list[str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["to"].choices = [(p, p) for p in powers]


class ModerationForm(forms.Form):
    """The console's inputs of every moderator action; which ones an action needs is the
    registry's (``games.moderation``)."""

    minutes = forms.IntegerField(
        required=False,
        min_value=-MAX_DEADLINE_SHIFT_MINUTES,
        max_value=MAX_DEADLINE_SHIFT_MINUTES,
        help_text="Negative shortens the deadline.",
    )
    deadline = forms.DateTimeField(required=False, help_text="In your time zone.")
    phase = forms.IntegerField(required=False, min_value=0, max_value=MAX_INTEGER)
    power = forms.CharField(required=False, max_length=50)
    username = forms.CharField(required=False, max_length=150)
    winner = forms.CharField(required=False, max_length=50)
    bot = forms.TypedChoiceField(
        required=False,
        choices=[("on", "put a bot on the seat"), ("off", "take the bot off")],
        coerce=lambda value: value == "on",
        empty_value=None,
    )

    def __init__(self, *args, action: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.action = action

    def clean_deadline(self):
        value = self.cleaned_data.get("deadline")
        problem = moderation.deadline_problem(value)
        if problem:
            raise forms.ValidationError(problem)
        return value

    def clean(self) -> dict:
        data = super().clean()
        for name in moderation.ACTIONS[self.action].missing(data):
            if name not in self.errors:
                self.add_error(name, "This field is required.")
        username = data.get("username")
        if username:
            data["user"] = User.objects.filter(username=username).first()
            if data["user"] is None:
                self.add_error("username", "No such user.")
        return data


class SettingsForm(forms.ModelForm):
    """The account's settings: mail preferences, and how the pages show deadlines and colours."""

    time_zone = forms.ChoiceField(choices=[], help_text="Deadlines are shown in this time zone.")

    class Meta:
        model = NotificationSettings
        fields = ["phase_processed", "deadline_reminders", "press_digest", "time_zone", "palette"]
        labels = {
            "phase_processed": "Mail me when a phase is processed",
            "deadline_reminders": "Remind me 24 hours and 1 hour before a deadline without orders",
            "press_digest": "Send a daily digest of press",
        }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].choices = [(z, z) for z in time_zones()]
