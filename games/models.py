"""Games, the powers people play in them, phases, orders and press.

Models hold data and answer questions about it; every change of game state goes through
``games.services`` so that locking and the audit log live in one place.
"""

from __future__ import annotations

import secrets
import unicodedata
import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Exists, OuterRef, Q
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import adjudication

from . import reason_words
from .limits import MAX_MISSED_PHASES, MAX_PHASE_MINUTES
from .variant_words import phase_label

# A phase's minutes, as the API and the pages bound them: the admin's form checks them too.
PHASE_MINUTES = [MinValueValidator(1), MaxValueValidator(MAX_PHASE_MINUTES)]

# Characters a name may not hold: control characters (a line break in a name broke every mail
# subject it went into), format characters that are invisible or turn the text around
# (U+202E RIGHT-TO-LEFT OVERRIDE, U+200B ZERO WIDTH SPACE...), lone surrogates, and line and
# paragraph separators.
UNSEEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
# Letters and marks of other categories that draw as nothing (Hangul fillers, the combining
# grapheme joiner, Khmer inherent vowels, Mongolian variation selectors, the Braille blank): a
# name of them looks empty. (Variation selectors after an emoji stay: they change its look.)
DRAWN_AS_NOTHING = frozenset(
    map(
        chr,
        (0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, *range(0x180B, 0x1810), 0x2800, 0x3164, 0xFFA0),
    )
)


def validate_game_name(value: str) -> None:
    """A game's name is shown inline in pages and mail subjects among other words: it must
    be one line that reads as it is drawn."""
    if any(
        unicodedata.category(char) in UNSEEN_CATEGORIES or char in DRAWN_AS_NOTHING
        for char in value
    ):
        raise ValidationError(
            _(
                "A game name may not contain line breaks, control characters or invisible "
                "formatting characters."
            ),
            code="unseen_character",
        )


def shows_something(text: str) -> bool:
    """Whether the text draws anything: not only spaces, control or format characters (a
    zero-width space, bidirectional overrides and isolates) or letters drawn as nothing."""
    return any(
        not char.isspace()
        and unicodedata.category(char) not in UNSEEN_CATEGORIES
        and char not in DRAWN_AS_NOTHING
        for char in text
    )


BOT_NAME = "Bot {}"  # with a space, which no sign-up, admin form or createsuperuser allows


def is_bot_account(user) -> bool:
    """A bot's account: named like one, inactive and without a password, so it can never sign
    in (the session and token backends both refuse inactive accounts)."""
    return (
        user.username.startswith(BOT_NAME.format(""))
        and not user.is_active
        and not user.has_usable_password()
    )


class Game(models.Model):
    class Status(models.TextChoices):
        FORMING = "forming", _("Forming")
        ACTIVE = "active", _("Active")
        PAUSED = "paused", _("Paused")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    class Press(models.TextChoices):
        FULL = "full", _("full press")
        PUBLIC = "public", _("public press only")
        NONE = "none", _("no press")

    name = models.CharField(max_length=100, validators=[validate_game_name])
    variant = models.CharField(max_length=50)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.FORMING)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_games"
    )
    movement_minutes = models.PositiveIntegerField(default=24 * 60, validators=PHASE_MINUTES)
    retreats_minutes = models.PositiveIntegerField(default=12 * 60, validators=PHASE_MINUTES)
    adjustments_minutes = models.PositiveIntegerField(default=12 * 60, validators=PHASE_MINUTES)
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
        default=2,
        validators=[MaxValueValidator(MAX_MISSED_PHASES)],
        help_text="Missed movement phases in a row before a power falls into CD.",
    )
    bots_fill_empty = models.BooleanField(
        default=False, help_text="When the game starts, bots play the powers nobody took."
    )
    bots_take_civil_disorder = models.BooleanField(
        default=False, help_text="A power that falls into civil disorder is handed to a bot."
    )
    public = models.BooleanField(
        default=False,
        help_text="Anyone, signed in or not, may watch: the board, processed orders and public "
        "press (never unprocessed orders, private press, or names in an anonymous game).",
    )
    sandbox = models.BooleanField(
        default=False,
        help_text="A practice game: its creator plays every power, without deadlines or ratings.",
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
        permissions = [
            ("moderate_any_game", "Can moderate every game (see all orders and press, pause, ...)")
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """Options are checked against what the engine says this variant reads, so that an
        edit (in the admin, say) cannot store one that breaks every later request."""
        if self.variant in adjudication.available():
            problems = adjudication.option_problems(self.variant, self.options)
            if problems:
                raise ValidationError({"options": problems})

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.CANCELLED)

    @property
    def abandoned(self) -> bool:
        """Cancelled as a phase was processed, nobody playing it any more (not by hand)."""
        return (self.result or {}).get("kind") == "abandoned"

    def minutes_for(self, phase_type: str) -> int:
        return {
            "movement": self.movement_minutes,
            "retreats": self.retreats_minutes,
            "adjustments": self.adjustments_minutes,
        }[phase_type]

    def is_moderator(self, user) -> bool:
        """The game's creator, a superuser, or a site moderator (the ``moderate_any_game``
        permission). Being staff (admin access) alone is not enough."""
        return user.is_authenticated and (
            user.pk == self.creator_id or user.has_perm("games.moderate_any_game")
        )

    def membership_of(self, user) -> Membership | None:
        """The user's current seat in this game, if any (replaced and removed seats do not
        count). Read from the seats given to ``know_seats``, else one query."""
        if not user.is_authenticated:
            return None
        seats = getattr(self, "_known_seats", None)
        if seats is not None:
            return next((m for m in seats if m.user_id == user.pk and m.in_play), None)
        return self.memberships.in_play().filter(user=user).first()

    def know_seats(self, seats: list[Membership]) -> None:
        """Every seat of this game, as just read: ``membership_of`` on this instance answers
        from them instead of a query each time (the game page asks four times). Only for an
        instance that lives no longer than a request that changes no seat."""
        self._known_seats = seats


class MembershipQuerySet(models.QuerySet):
    def in_play(self) -> MembershipQuerySet:
        """Seats still held: not replaced, their player not removed by the moderator (who
        then neither plays, reads the power's press nor hears of the game)."""
        return self.exclude(status=Membership.Status.REPLACED).exclude(removed=True)


class Membership(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        CIVIL_DISORDER = "civil_disorder", _("Civil disorder")
        ELIMINATED = "eliminated", _("Eliminated")
        REPLACED = "replaced", _("Replaced")

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
    bot = models.BooleanField(
        default=False,
        help_text="A bot plays this seat (its user is a bot account that cannot sign in).",
    )
    removed = models.BooleanField(
        default=False,
        help_text="Removed by the moderator: the seat is in civil disorder, open to others, and "
        "its player no longer plays, reads the power's press or comes back by ordering.",
    )
    joined = models.DateTimeField(auto_now_add=True)
    seated = models.DateTimeField(
        default=timezone.now,
        editable=False,  # set by the services as a seat is taken, never by a form
        help_text="When the seat's player last took its power: a seat row taken again (the "
        "moderator's replacement) keeps its joining time, not this.",
    )

    objects = MembershipQuerySet.as_manager()

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

    @property
    def in_play(self) -> bool:
        """The seat is still held: ``MembershipQuerySet.in_play``'s test, for a seat in hand."""
        return self.status != self.Status.REPLACED and not self.removed

    @property
    def bot_plays(self) -> bool:
        """A bot plays the seat: one taken off by the moderator keeps it (to be put back on)
        but plays nothing, its power in civil disorder."""
        return self.bot and self.status == self.Status.ACTIVE


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
    seats = models.JSONField(
        default=dict,
        blank=True,
        help_text="The seats as they were just before the phase was processed ('before': seat "
        "id -> [status, missed phases]) and the seats its processing made ('made': ids), so "
        "that a rollback to the phase restores them.",
    )

    class Meta:
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="one_phase_per_index"),
        ]

    def __str__(self) -> str:
        return f"{self.game}: {self.name}"

    @property
    def processed_early(self) -> bool:
        """Processed before its deadline (by the moderator, or with every power ready): it
        took the time to act away, so nobody missed it (civil disorder, reliability)."""
        return (
            self.deadline is not None
            and self.processed_at is not None
            and self.processed_at < self.deadline
        )

    @property
    def name(self) -> str:
        """In the variant's words ("Autumn 1870 movement" in Colonial), as mails show it."""
        return phase_label(self.game.variant, self.season, self.year, self.type)

    def as_engine_phase(self) -> dict:
        return {"season": self.season, "year": self.year, "type": self.type}


class OrderPosition(models.PositiveIntegerField):
    """An order's place in its power's list. Having its own placeholder makes Django write a
    submission's few rows as ``VALUES`` rather than as ``UNNEST`` of one array a column, which
    psycopg builds in Python and PostgreSQL plans no faster for four rows
    (``bench.profile_orders``: a PUT's Python 2.0-2.1 -> 1.8 ms, PostgreSQL 1.05 -> 0.9 ms)."""

    def get_placeholder(self, value: object, compiler: object, connection: object) -> str:
        return "%s"


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
    data = models.JSONField(
        null=True,
        blank=True,
        help_text="The engine's reading of the order (kind, unit, location, destination, ...); "
        "none when it does not parse.",
    )
    reason = models.CharField(max_length=300, blank=True)
    reason_words = models.JSONField(
        null=True, blank=True, help_text="The engine's reason as a template and its names."
    )
    result = models.CharField(max_length=20, blank=True, help_text="Filled in when processed.")
    result_reason = models.CharField(max_length=300, blank=True)
    result_reason_words = models.JSONField(null=True, blank=True)
    needs = models.CharField(
        max_length=300,
        blank=True,
        help_text="What a valid order waits for from other powers' orders (a canal permit, "
        "the railroad move a support is for), judged at the deadline.",
    )
    needs_words = models.JSONField(null=True, blank=True)
    stopped_at = models.CharField(
        max_length=100,
        blank=True,
        help_text="Where a railroad move that ended short of its target stopped (result "
        "'stopped'), as the engine names it.",
    )
    position = OrderPosition(default=0)

    class Meta:
        # No unique (phase, power, location): in Chinese Diplomacy a power may have several
        # armies in one entry space, each with its order. One order a unit is the engine's
        # rule (it refuses a second order to a unit), and a power's orders are replaced
        # whole under the game's lock.
        ordering = ["phase", "power", "position"]

    def __str__(self) -> str:
        return f"{self.power}: {self.canonical or self.text}"

    @property
    def said_reason(self) -> str:
        """Why the order was refused, in the active language."""
        return reason_words.say(self.reason_words, self.reason)

    @property
    def said_needs(self) -> str:
        """What the order waits for from other powers, in the active language."""
        return reason_words.say(self.needs_words, self.needs)

    @property
    def said_result_reason(self) -> str:
        """Why the order did not work as given, in the active language."""
        return reason_words.say(self.result_reason_words, self.result_reason)


# Public ids of press and payments: random, so that the ids a player sees say nothing of the
# messages (or payments) they may not see. Row ids count every message on the site, so the
# gaps between one's own told how much private press others were sending, and when. Sixteen
# digits each (10**15 to 2**53 - 1): no id is told from another by its length, and every one
# is exact as a JavaScript number.
PUBLIC_ID_MIN, PUBLIC_ID_MAX = 10**15, 2**53 - 1


def new_public_id(model: type[models.Model]) -> int:
    """A public id no row of ``model`` has (the unique index settles a race, which at one
    in 8 * 10**15 never comes)."""
    while True:
        candidate = PUBLIC_ID_MIN + secrets.randbelow(PUBLIC_ID_MAX - PUBLIC_ID_MIN + 1)
        if not model.objects.filter(public_id=candidate).exists():
            return candidate


def new_message_id() -> int:
    return new_public_id(Message)


def new_payment_id() -> int:
    return new_public_id(Payment)


def new_audit_id() -> int:
    return new_public_id(ModeratorAction)


def public_id_field(default) -> models.PositiveBigIntegerField:
    return models.PositiveBigIntegerField(
        default=default,
        unique=True,
        editable=False,
        help_text="The id the API and the pages show: random, so that it tells nothing of "
        "the rows a viewer may not see.",
    )


class Message(models.Model):
    # The recipient that is no power: the game's moderator, when they do not play (they read
    # all press; this makes a thread of a power and the moderator alone).
    MODERATOR = "Moderator"

    public_id = public_id_field(new_message_id)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="messages")
    phase = models.ForeignKey(
        Phase, null=True, blank=True, on_delete=models.SET_NULL, related_name="messages"
    )
    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sent_messages"
    )
    sender_power = models.CharField(max_length=50, blank=True, help_text="Blank: the moderator.")
    recipients = models.JSONField(
        default=list, blank=True, help_text="Powers, or Moderator; empty: everyone."
    )
    readers = models.TextField(
        blank=True,
        editable=False,
        help_text="The powers who may read it, each between bars (|China|Russia|), from its "
        "sender and recipients; empty: everyone. Set when it is saved, so that the database "
        "picks a reader's press (visibility.readable_by) and none other is read.",
    )
    body = models.TextField(max_length=5000)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "pk"]

    def __str__(self) -> str:
        return f"{self.sender_power or 'Moderator'}: {self.body[:40]}"

    @staticmethod
    def readers_of(sender_power: str, recipients: list[str]) -> str:
        """``readers`` for press from ``sender_power`` (blank: the moderator) to
        ``recipients`` (none: everyone)."""
        if not recipients:
            return ""
        powers = sorted({*recipients, sender_power} - {""})
        return "|" + "|".join(powers) + "|"

    def save(self, *args, **kwargs) -> None:
        self.readers = self.readers_of(self.sender_power, list(self.recipients or []))
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "readers"}
        super().save(*args, **kwargs)

    @property
    def is_public(self) -> bool:
        return not self.recipients

    @property
    def from_bot(self) -> bool:
        return is_bot_account(self.sender)


class PressRead(models.Model):
    """How far an account has read one press thread of a game, so that unread counts follow
    the player to any browser or device rather than living in one browser's session."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="press_reads"
    )
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="press_reads")
    thread = models.CharField(
        max_length=500, help_text="'public' or the sorted powers, '|'-joined."
    )
    last_read = models.PositiveBigIntegerField(default=0, help_text="The last message read.")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game", "thread"], name="one_marker_per_thread")
        ]

    def __str__(self) -> str:
        return f"{self.user} read {self.thread} of {self.game} to {self.last_read}"

    @classmethod
    def mark(cls, user, game: Game, thread: str, message_pk: int) -> None:
        """Move the marker forward to ``message_pk``; never back (an older tab may load late)."""
        marker, _ = cls.objects.get_or_create(user=user, game=game, thread=thread)
        if message_pk > marker.last_read:
            cls.objects.filter(pk=marker.pk, last_read__lt=message_pk).update(last_read=message_pk)


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


class ModeratorActionQuerySet(models.QuerySet):
    def depositions(self) -> ModeratorActionQuerySet:
        """The depositions (Chinese Diplomacy) that still stand. A rollback to the phase whose
        processing deposed a leader, or to an earlier one, undid that deposition: the seat came
        back with the phase. The log keeps both entries, as it keeps every act."""
        # Both entries' phase as a whole number: a JSON key's lookup takes no OuterRef.
        phase = Cast(KT("details__phase"), models.IntegerField())
        undone = ModeratorAction.objects.annotate(logged_phase=phase).filter(
            game=OuterRef("game"),
            action="rollback",
            pk__gt=OuterRef("pk"),
            logged_phase__lte=OuterRef("logged_phase"),
        )
        return self.filter(action="deposed").annotate(logged_phase=phase).exclude(Exists(undone))

    def deposed_leaders(self, game: Game) -> set[tuple[str, str]]:
        """The game's standing depositions, as (power, player's username)."""
        return {
            (d.details.get("power"), d.details.get("player"))
            for d in self.depositions().filter(game=game)
        }

    def deposed_seats(self, game: Game) -> set[int]:
        """The game's seats whose leaders were deposed and not seated there since: a replaced
        seat whose power and player a standing deposition names."""
        logged = self.deposed_leaders(game)
        if not logged:
            return set()
        replaced = game.memberships.filter(status=Membership.Status.REPLACED).select_related("user")
        return {m.pk for m in replaced if (m.power, m.user.get_username()) in logged}


class ModeratorAction(models.Model):
    public_id = public_id_field(new_audit_id)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moderator_actions")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=30)
    details = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    objects = ModeratorActionQuerySet.as_manager()

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
    DEFAULT = "default", _("Default colours")
    COLOUR_BLIND = "colour-blind", _("Colour-blind safe (checked for deuteranopia)")


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
        help_text=_("Colours of the powers on the board."),
    )
    language = models.CharField(
        max_length=10,
        choices=settings.LANGUAGES,
        default=settings.LANGUAGE_CODE,
        help_text=_("The language of mails and push notifications (pages follow the browser)."),
    )

    def __str__(self) -> str:
        return f"notifications for {self.user}"

    @classmethod
    def of(cls, user) -> NotificationSettings:
        return cls.objects.get_or_create(user=user)[0]

    @classmethod
    def for_new_account(cls, user, language: str | None) -> NotificationSettings:
        """A new account's settings: mail in the language the player signed up in."""
        if language not in dict(settings.LANGUAGES):
            language = settings.LANGUAGE_CODE
        return cls.objects.update_or_create(user=user, defaults={"language": language})[0]


class UsernameSkeleton(models.Model):
    """What a username looks like (``games.usernames.skeleton``), kept so that a new name is
    compared with every taken one in one indexed query."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="username_skeleton"
    )
    skeleton = models.CharField(max_length=300, unique=True)

    def __str__(self) -> str:
        return self.skeleton


class Payment(models.Model):
    """Gold paid from one great power to another (Chinese Diplomacy), kept in a ledger."""

    public_id = public_id_field(new_payment_id)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="payments")
    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="payments")
    payer = models.CharField(max_length=50)
    payee = models.CharField(max_length=50)
    amount = models.PositiveIntegerField(help_text="Thousands of ounces of gold.")
    key = models.CharField(
        max_length=64, blank=True, help_text="The payer's name for it: the same key pays once."
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "payer", "key"], condition=~Q(key=""), name="one_payment_per_key"
            )
        ]

    def __str__(self) -> str:
        return f"{self.payer} pays {self.payee} {self.amount} k oz"

    def as_engine(self) -> dict:
        return {"from": self.payer, "to": self.payee, "amount": self.amount}


# -- ratings (games.ratings) ---------------------------------------------------------------


class Rating(models.Model):
    """A player's OpenSkill rating (Plackett-Luce), overall (blank variant) or in one variant."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    variant = models.CharField(max_length=50, blank=True, help_text="Blank: every variant.")
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "variant"], name="one_rating_per_variant")
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.variant or 'overall'}: {self.ordinal:.1f}"

    @property
    def ordinal(self) -> float:
        """The conservative rating shown and compared: mu less three sigma."""
        return self.mu - 3 * self.sigma


class RatingChange(models.Model):
    """One finished game's effect on one rating: the history a player page draws, and what a
    rollback of that game undoes."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    variant = models.CharField(max_length=50, blank=True, help_text="Blank: every variant.")
    power = models.CharField(max_length=50)
    rank = models.PositiveIntegerField(help_text="1 is best; equal ranks share the result.")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "user", "variant"], name="one_rating_change_per_game"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.game}: rank {self.rank}"

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


class JoinRequirement(models.Model):
    """What a player needs to join a game: a minimum rating and reliability (games.ratings)."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="requirement")
    min_rating = models.FloatField(
        null=True, blank=True, help_text="Overall rating (mu - 3 sigma) needed; blank: none."
    )
    min_reliability = models.PositiveIntegerField(
        null=True, blank=True, help_text="Percent of phases with orders in; blank: none."
    )

    def __str__(self) -> str:
        return f"{self.game}: rating {self.min_rating}, reliability {self.min_reliability}"


# -- webhooks and web push (games.reach) ------------------------------------------------------


class Webhook(models.Model):
    """A game's webhook: Discord-compatible JSON posted when a phase is processed, an hour before
    a deadline and when the game ends; signed with HMAC-SHA256 of the body under ``secret``."""

    EVENTS = ("processed", "deadline", "over")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=500)
    secret = models.CharField(max_length=64)
    events = models.JSONField(default=list, blank=True, help_text="Empty: every event.")
    language = models.CharField(
        max_length=10,
        choices=settings.LANGUAGES,
        default=settings.LANGUAGE_CODE,
        help_text="The language of the posts (a channel is shared: one language for all).",
    )
    created = models.DateTimeField(auto_now_add=True)
    last_status = models.CharField(max_length=100, blank=True)
    failures = models.PositiveIntegerField(default=0, help_text="Deliveries given up on in a row.")

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.game}: {self.url}"

    def wants(self, event: str) -> bool:
        return not self.events or event in self.events


class PushSubscription(models.Model):
    """One browser's Push API subscription (opt-in on the settings page)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"push for {self.user}"

    def as_subscription(self) -> dict:
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class Heartbeat(models.Model):
    """When a background duty last ran, for ``/healthz``: ``sweep`` is written by the sweep
    task, which Celery beat sends every minute and a worker runs, so a fresh one says that
    deadlines are being processed (``games.health``)."""

    name = models.CharField(max_length=40, primary_key=True)
    at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} at {self.at:%Y-%m-%d %H:%M:%S}"
