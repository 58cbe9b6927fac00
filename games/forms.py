"""Forms of the browser pages. They only clean input; ``games.services`` acts on it."""

from __future__ import annotations

import re
import secrets
from decimal import Decimal

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from . import engine, moderation, notifications, usernames, variant_words
from .limits import (
    MAX_DEADLINE_SHIFT_MINUTES,
    MAX_INTEGER,
    MAX_MISSED_PHASES,
    MAX_ORDER_LENGTH,
    MAX_ORDERS,
    MAX_PAYMENT,
    MAX_PHASE_MINUTES,
    MAX_VICTORY_CENTERS,
    order_too_long,
    too_many_orders,
)
from .models import (
    Game,
    Message,
    NotificationSettings,
    Palette,
    time_zones,
    validate_game_name,
)
from .query import repeated

User = get_user_model()

PALETTES = Palette.choices


class OneValueEach:
    """A form field of one value given more than once in the body (``body=a&body=b``) is
    refused, as the API refuses it (``input_types``): Django's forms read the last value and
    dropped the others unseen (press sent without its first part, orders saved without the
    first box's lines). Fields of several values (ticked recipients) take each one."""

    def _clean_fields(self) -> None:
        super()._clean_fields()
        if not self.is_bound or not hasattr(self.data, "getlist"):
            return
        for name, field in self.fields.items():
            widget = field.widget
            if (
                isinstance(field, forms.MultipleChoiceField)
                or isinstance(widget, forms.MultipleHiddenInput)
                or getattr(widget, "allow_multiple_selected", False)
            ):
                continue
            given = len(self.data.getlist(self.add_prefix(name)))
            if given > 1:
                self.add_error(name, repeated(given))


class AsciiIntegerField(forms.IntegerField):
    """A whole number in the digits 0-9 alone, a minus sign before it where negatives are
    allowed. Django's IntegerField reads its text through ``int()``, which also takes other
    scripts' digits (Arabic-Indic "٣" is 3, full-width "３" too), a plus sign, spaces and
    underscores ("1_0" is 10): a hidden field's phase is never written so by a page."""

    def to_python(self, value: object) -> int | None:
        if value in self.empty_values:
            return None
        text = str(value)
        if not re.fullmatch(r"-?[0-9]{1,10}", text):
            if re.fullmatch(r"-?[0-9]{11,100}", text):  # a whole number, out of range
                below = text.startswith("-")
                limit = self.min_value if below else self.max_value
                if limit is not None:
                    code = "min_value" if below else "max_value"
                    words = self.error_messages.get(code)
                    check = MinValueValidator(limit) if below else MaxValueValidator(limit)
                    raise ValidationError(
                        words or check.message, code=code, params={"limit_value": limit}
                    )
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return int(text)


class SignInForm(OneValueEach, AuthenticationForm):
    """Django's sign-in form, saying what is true here: a name is read in any case
    (``auth_backends``), only the password's case counts."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": _(
            "Please enter a correct username and password. Note that the password is "
            "case-sensitive."
        ),
    }


class SignUpForm(OneValueEach, UserCreationForm):
    email = forms.EmailField(
        label=_("E-mail"), required=False, help_text=_("For deadline reminders; optional.")
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ["username", "email"]

    def clean_username(self) -> str:
        username = super().clean_username()
        refused = username and usernames.problem(username)
        if refused:
            raise forms.ValidationError(refused)
        return username

    def clean_email(self) -> str:
        email = self.cleaned_data.get("email") or ""
        refused = notifications.address_problem(email)
        if refused:
            raise forms.ValidationError(refused)
        return email


# What a number box sends for a whole number written with a point or an exponent.
NUMBER_BOX_WHOLE = re.compile(r"-?[0-9]{1,9}(\.[0-9]{0,9})?([eE][+-]?[0-9]{1,2})?")


class WholeNumberField(forms.IntegerField):
    """A whole number, also as a number box may send one: ``1e3`` (the browser takes it as
    1000, and refusing it as "not a whole number" told the player something untrue), or
    ``1000.0``, ``1.5e1``, ``-6e1``, ``6000e-1``. Anything with a fraction left is still refused."""

    def to_python(self, value: object) -> int | None:
        text = str(value).strip() if value is not None else ""
        if not text.lstrip("-").isdigit() and NUMBER_BOX_WHOLE.fullmatch(text):
            whole = Decimal(text)
            if whole == whole.to_integral_value() and abs(whole) < 10**12:
                return int(whole)
        return super().to_python(value)


class GameForm(OneValueEach, forms.Form):
    """A new game. The defaults are the model's, explained in the help texts."""

    name = forms.CharField(max_length=100, label=_("Name"), validators=[validate_game_name])
    variant = forms.ChoiceField(choices=[], label=_("Variant"))
    movement_minutes = WholeNumberField(
        label=_("Movement minutes"),
        min_value=1,
        max_value=MAX_PHASE_MINUTES,
        initial=24 * 60,
        help_text=_("Time for each movement phase; 1440 is a day."),
    )
    retreats_minutes = WholeNumberField(
        label=_("Retreats minutes"),
        min_value=1,
        max_value=MAX_PHASE_MINUTES,
        initial=12 * 60,
        help_text=_("Time for a retreat phase."),
    )
    adjustments_minutes = WholeNumberField(
        label=_("Adjustments minutes"),
        min_value=1,
        max_value=MAX_PHASE_MINUTES,
        initial=12 * 60,
        help_text=_("Time for a build or removal phase."),
    )
    deadline_time = forms.TimeField(
        label=_("Deadline time"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}),
        help_text=_(
            "Optional: deadlines then fall at this time of day (UTC), at least the "
            "phase's minutes away."
        ),
    )
    press = forms.ChoiceField(
        label=_("Press"),
        choices=Game.Press.choices,
        initial=Game.Press.FULL,
        help_text=_("Full press allows private messages; public press only open ones."),
    )
    anonymous = forms.BooleanField(
        label=_("Anonymous"),
        required=False,
        help_text=_("Hide who plays which power until the game ends."),
    )
    process_when_ready = forms.BooleanField(
        label=_("Process when ready"),
        required=False,
        initial=True,
        help_text=_("Process a phase early once every active power has pressed Ready."),
    )
    civil_disorder_after = forms.IntegerField(
        label=_("Civil disorder after"),
        min_value=0,
        max_value=MAX_MISSED_PHASES,
        initial=2,
        help_text=_(
            "Movement phases a power may miss in a row before it falls into civil "
            "disorder; 0 never."
        ),
    )
    bots_fill_empty = forms.BooleanField(
        label=_("Bots fill empty seats"),
        required=False,
        help_text=_(
            "When the game starts, bots play the powers nobody took: start it with as "
            "few players as you like."
        ),
    )
    bots_take_civil_disorder = forms.BooleanField(
        label=_("Bots take civil disorder"),
        required=False,
        help_text=_("A power that falls into civil disorder is handed to a bot."),
    )
    public = forms.BooleanField(
        label=_("Public"),
        required=False,
        help_text=_(
            "Anyone, signed in or not, may watch the board, the processed orders and public press."
        ),
    )
    victory_centers = forms.IntegerField(
        label=_("Victory centres"),
        min_value=1,
        max_value=MAX_VICTORY_CENTERS,
        required=False,
    )

    # This form's own name, made when it is shown: a second post of it (a double click, a
    # reload) finds the game the first made rather than making another.
    once = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["variant"].choices = [
            (v, variant_words.variant_name(v)) for v in engine.variant_ids()
        ]
        self.fields["variant"].initial = "colonial"
        self.fields["once"].initial = secrets.token_urlsafe(16)
        # Each variant's own figure, from its data: the help said "29 in Colonial" whichever
        # variant was picked.
        figures = [
            (variant_words.variant_name(v), engine.describe(v).get("victory_centers") or 0)
            for v in engine.variant_ids()
        ]
        self.fields["victory_centers"].help_text = format_lazy(
            _("Supply centres needed to win; empty keeps the variant's own figure ({figures})."),
            figures=", ".join(f"{name} {n}" for name, n in figures if n),
        )

    def clean(self) -> dict:
        data = super().clean()
        variant, threshold = data.get("variant"), data.get("victory_centers")
        if variant and threshold and not engine.describe(variant).get("victory_centers"):
            name = variant_words.variant_name(variant)
            self.add_error(
                "victory_centers",
                _("%(variant)s is not won on supply centres: leave this empty.")
                % {"variant": name},
            )
        elif variant and threshold:
            # The engine's bound, said beside the field in words (it came at the form's top as
            # "victory_centers: must be at most 28").
            rule = engine.option_schema(variant)["properties"].get("victory_centers", {})
            most, least = rule.get("maximum"), rule.get("minimum", 1)
            if threshold < least:
                self.add_error(
                    "victory_centers",
                    _(
                        "A power of %(variant)s starts with %(start)s supply centres: at least "
                        "%(least)s, or it has won before anyone moves."
                    )
                    % {
                        "variant": variant_words.variant_name(variant),
                        "start": least - 1,
                        "least": least,
                    },
                )
            elif most is not None and threshold > most:
                self.add_error(
                    "victory_centers",
                    _("%(variant)s has %(most)s supply centres: at most %(most)s.")
                    % {"variant": variant_words.variant_name(variant), "most": most},
                )
        return data

    def clean_once(self) -> str:
        """Its first 64 characters: a long one is no reason to refuse the form (its other
        errors, a NUL, show above the form, as every hidden field's do: ``form_fields.html``)."""
        return self.cleaned_data["once"][:64]

    def settings(self) -> dict:
        """Keyword arguments for ``services.create_game``."""
        data = dict(self.cleaned_data)
        data.pop("once")
        threshold = data.pop("victory_centers")
        data["options"] = {"victory_centers": threshold} if threshold else {}
        return data


class JoinForm(OneValueEach, forms.Form):
    first = forms.ChoiceField(label=_("First choice"), required=False)
    second = forms.ChoiceField(label=_("Second choice"), required=False)

    def __init__(self, *args, powers: list[str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", _("any power")), *((p, p) for p in powers)]
        self.fields["first"].choices = choices
        self.fields["second"].choices = choices

    def preferences(self) -> list[str]:
        return [p for p in (self.cleaned_data["first"], self.cleaned_data["second"]) if p]


# A hidden phase no page writes: nothing the player typed is wrong, the page is.
NO_SUCH_PHASE = _("This form names a phase no page of this game writes; reload the page.")
INCOMPLETE_FORM = _("This form came incomplete; reload the page.")
# A form the page always sends whole came without one of its fields (the box or its phase).
INCOMPLETE_ORDERS = _(
    "This form came incomplete, without its orders box or its phase; reload the page."
)


def _phase_field() -> forms.Field:
    """The hidden index of the phase a form was shown in: what it sends for a phase processed
    since is refused, never taken in the next one."""
    return AsciiIntegerField(
        required=False,
        min_value=0,
        max_value=MAX_INTEGER,
        widget=forms.HiddenInput,
        error_messages=dict.fromkeys(("invalid", "min_value", "max_value"), NO_SUCH_PHASE),
    )


class OrdersForm(OneValueEach, forms.Form):
    # The version of the saved orders this box was filled from (see services.orders_version).
    version = forms.CharField(required=False, widget=forms.HiddenInput)
    # The index of the phase the box was filled for: orders typed for a phase processed since
    # are never stored in the next one.
    phase = _phase_field()
    orders = forms.CharField(
        label=_("Orders"),
        required=False,
        # Room for the most lines of the longest orders, with their line breaks.
        max_length=MAX_ORDERS * (MAX_ORDER_LENGTH + 2),
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false", "autocomplete": "off"}),
        help_text=format_lazy(
            _("One order a line, at most {max}; the game page shows examples for its variant."),
            max=MAX_ORDERS,
        ),
    )

    def clean_orders(self) -> str:
        """The API's limits: as many orders, as long, whichever way they come in."""
        text = self.cleaned_data["orders"]
        lines = engine.order_lines(text.splitlines())
        if len(lines) > MAX_ORDERS:
            raise forms.ValidationError(too_many_orders(len(lines)))
        long = next((n for n, line in enumerate(lines, 1) if len(line) > MAX_ORDER_LENGTH), None)
        if long is not None:
            raise forms.ValidationError(order_too_long(long))
        return text

    def clean(self) -> dict:
        """The page always sends the box and its phase: without the box the orders would all
        be deleted (an empty box deletes them, a missing one must not), and without the phase
        nothing says which phase the box was filled for."""
        cleaned = super().clean()
        if self.is_bound and (
            "orders" not in self.data or not str(self.data.get("phase", "")).strip()
        ):
            raise forms.ValidationError(INCOMPLETE_ORDERS, code="incomplete")
        return cleaned

    def lines(self) -> list[str]:
        return engine.order_lines(self.cleaned_data["orders"].splitlines())


class VoteForm(OneValueEach, forms.Form):
    """The game page's vote: none (withdraw), ``draw``, or the name of a power to concede to
    (the page's select offers every power but the voter's own). Anything else, a NUL
    included, is refused without being repeated back."""

    vote = forms.ChoiceField(
        required=False,
        error_messages={
            "invalid_choice": _("That vote is none the page offers; reload the page."),
        },
    )

    def __init__(self, *args, powers: list[str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["vote"].choices = [("", ""), ("draw", "draw")] + [(p, p) for p in powers]

    def clean(self) -> dict:
        cleaned = super().clean()
        if self.is_bound and "vote" not in self.data:  # the page's select always sends one
            raise forms.ValidationError(INCOMPLETE_FORM, code="incomplete")
        return cleaned


class MessageForm(OneValueEach, forms.Form):
    recipients = forms.MultipleChoiceField(
        label=_("Recipients"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Tick nobody for a public message."),
    )
    body = forms.CharField(
        label=_("Message"), max_length=5000, widget=forms.Textarea(attrs={"rows": 3})
    )

    def __init__(self, *args, powers: list[str], no_press: bool = False, **kwargs) -> None:
        """``powers``: who may be ticked (``Message.MODERATOR`` among them: the moderator);
        ``no_press``: a player of a no-press game, who may write to the moderator alone."""
        super().__init__(*args, **kwargs)
        if not powers:  # public press only: nobody to tick, so no "Recipients" to show
            del self.fields["recipients"]
            return
        field = self.fields["recipients"]
        field.choices = [(p, _("Moderator") if p == Message.MODERATOR else p) for p in powers]
        if no_press:
            field.required = True
            field.help_text = _("In a no-press game you may write to the moderator alone.")


class PaymentForm(OneValueEach, forms.Form):
    """Gold for another great power (Chinese Diplomacy); the service checks the rules."""

    to = forms.ChoiceField(label=_("To"))
    amount = WholeNumberField(
        label=_("Amount (k oz)"),
        min_value=1,
        max_value=MAX_PAYMENT,
        help_text=_("Thousands of ounces of gold."),
    )
    # A fresh name for each payment form shown: sent twice (a double click), it pays once.
    key = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)
    # The index of the phase the form was shown in: a payment meant for a phase processed
    # since is never paid in the next one (``services.pay``); without it, an old page.
    phase = _phase_field()

    def __init__(self, *args, powers: list[str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["to"].choices = [(p, p) for p in powers]


class ModerationForm(OneValueEach, forms.Form):
    """The console's inputs of every moderator action; which ones an action needs is the
    registry's (``games.moderation``)."""

    minutes = WholeNumberField(
        label=_("Minutes"),
        required=False,
        min_value=-MAX_DEADLINE_SHIFT_MINUTES,
        max_value=MAX_DEADLINE_SHIFT_MINUTES,
        help_text=_("Negative shortens the deadline."),
    )
    deadline = forms.DateTimeField(required=False, help_text="In your time zone.")
    # The deadline the console showed, with its offset (``moderation.SEEN_DEADLINE``).
    seen_deadline = forms.DateTimeField(required=False)
    phase = AsciiIntegerField(required=False, min_value=0, max_value=MAX_INTEGER)
    power = forms.CharField(required=False, max_length=50)
    username = forms.CharField(required=False, max_length=150)
    winner = forms.CharField(required=False, max_length=50)
    bot = forms.TypedChoiceField(
        required=False,
        choices=[("on", _("put a bot on the seat")), ("off", _("take the bot off"))],
        coerce=lambda value: value == "on",
        empty_value=None,
    )

    def __init__(self, *args, action: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.action = action

    def _named(self, names: list[str]) -> str:
        """Inputs of the action as the console labels them (``minutes, or the new deadline``)."""
        labels = {f.name: str(f.label) for f in moderation.ACTIONS[self.action].fields}
        return ", ".join(labels.get(name, name).lower() for name in names)

    def clean(self) -> dict:
        data = super().clean()
        for name in moderation.ACTIONS[self.action].foreign(data):
            self.add_error(name, _("Not an input of this action."))
        for name in moderation.ACTIONS[self.action].missing(data):
            if name not in self.errors:
                self.add_error(name, _("This field is required."))
        wanted = moderation.ACTIONS[self.action].lacks_one_of(data)
        if wanted and not set(wanted) & set(self.errors):  # one was given, and refused
            self.add_error(
                None, _("Give one of these: %(names)s.") % {"names": self._named(wanted)}
            )
        both = moderation.ACTIONS[self.action].conflicting(data)
        if both:
            self.add_error(
                None, _("Give only one of these: %(names)s.") % {"names": self._named(both)}
            )
        # After "only one": minutes beside a date too far off were refused for the date.
        problem = None if both else moderation.deadline_problem(data.get("deadline"))
        if problem:
            self.add_error("deadline", problem)
        username = data.get("username")
        if username:
            data["user"] = usernames.user_named(username)
            if data["user"] is None:
                self.add_error("username", _("No such user."))
        return data


class SettingsForm(OneValueEach, forms.ModelForm):
    """The account's settings: the mail address and preferences, and how the pages show
    deadlines and colours."""

    # The account's own field (the user's), shown here as the only place to change it.
    email = forms.EmailField(
        label=_("E-mail"),
        required=False,
        max_length=254,
        help_text=_("Where mails are sent; empty: no mail."),
    )
    time_zone = forms.ChoiceField(
        label=_("Time zone"), choices=[], help_text=_("Deadlines are shown in this time zone.")
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
        labels = {
            "phase_processed": _("Mail me when a phase is processed"),
            "deadline_reminders": _(
                "Remind me 24 hours and 1 hour before a deadline without orders"
            ),
            "press_digest": _("Send a daily digest of press"),
            "language": _("Language of mails and push notifications"),
            "palette": _("Palette"),
        }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].choices = [(z, z) for z in time_zones()]
        self.fields["language"].required = False  # left out: the language stays as it was
        self.fields["email"].initial = self.instance.user.email

    def clean_language(self) -> str:
        return self.cleaned_data.get("language") or self.instance.language

    def clean_email(self) -> str:
        email = self.cleaned_data.get("email") or ""
        refused = notifications.address_problem(email, self.instance.user)
        if refused:
            raise forms.ValidationError(refused)
        return email

    def save(self, commit: bool = True) -> NotificationSettings:
        """The settings, and the address on the account (left out of the form: kept as it
        was, as the language is; sent empty: cleared)."""
        prefs = super().save(commit=commit)
        if commit and "email" in self.data:
            notifications.set_address(prefs.user, self.cleaned_data["email"])
        return prefs
