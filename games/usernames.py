"""Usernames that cannot pass for one another.

A name is compared by its skeleton: Unicode NFKC, then every character read as one prototype
of the group Unicode's confusables data (the ``confusable-homoglyphs`` package) puts it in,
whatever its case. ``DEMO1``, ``dеmo1`` (a Cyrillic е), ``dem0I`` and ``ｄｅｍｏ１`` read alike,
so none may join beside another. Chinese, Japanese and other names stay welcome; a name keeps
to one of the alphabets whose letters are drawn alike (Latin, Cyrillic, Greek...) and holds no
letter drawn as nothing. Skeletons are stored in a unique column (``UsernameSkeleton``), so a
sign-up costs two indexed queries however many accounts there are, and two look-alikes signing
up at once cannot both succeed.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from confusable_homoglyphs import confusables
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Q
from django.db.models.signals import post_save
from django.utils.translation import gettext as _

# Longer skeletons are compared by their beginning (NFKC may lengthen a name 18 times).
SKELETON_LENGTH = 300


@cache
def _prototypes() -> dict[str, str]:
    """Each character Unicode lists as confusable, mapped to one character of its group.

    The confusables data pairs characters that look alike; a group is everything joined by
    such pairs (``l``, ``I``, ``1``, Greek ``Ι``, Cyrillic ``Ӏ``... are one group, ``O`` and
    ``0`` another). The group's prototype is its ASCII letter (lower case first), else its
    ASCII digit, else its first character, so that every member reads the same."""
    parent: dict[str, str] = {}

    def root(char: str) -> str:
        while parent.get(char, char) != char:
            char = parent[char]
        return char

    for char, entries in confusables.confusables_data.items():
        for entry in entries:
            if len(char) == 1 and len(entry["c"]) == 1:
                a, b = root(char), root(entry["c"])
                if a != b:
                    parent[a] = b
    groups: dict[str, list[str]] = {}
    for char in parent.keys() | set(parent.values()):
        groups.setdefault(root(char), []).append(char)

    def rank(char: str) -> tuple:
        ascii_letter = char.isascii() and char.isalpha()
        return (not ascii_letter, not char.isascii(), not char.islower(), char)

    out = {}
    for members in groups.values():
        prototype = min(members, key=rank)
        out.update((char, prototype) for char in members if char != prototype)
    return out


@cache
def _reading(char: str) -> str:
    """How one character reads, whatever its case. An ASCII character reads as its group's
    prototype, case folded (``I`` as ``l``, ``0`` as ``o``). Any other reads as the ASCII
    character one of its cases is drawn like (the data often lists only the capital: Cyrillic
    ``Т`` beside ``T``, not ``т``), else as its cases' first prototype, so that ``Тимур``,
    ``тимур`` and ``ТИМУР`` read alike."""
    prototypes = _prototypes()
    if char.isascii():
        return prototypes.get(char, char).casefold()
    cases = {c for c in (char, char.upper(), char.lower(), char.casefold()) if len(c) == 1}
    read = {prototypes.get(c, c) for c in cases}
    latin = sorted(r for r in read if r.isascii())
    if latin:
        return _reading(latin[0])
    return min(r.casefold() for r in read)


@cache
def _ascii_sequences() -> tuple[tuple[str, str], ...]:
    """ASCII letters the data draws like a sequence of others (``m`` like ``rn``)."""
    pairs = set()
    for char, entries in confusables.confusables_data.items():
        for entry in entries:
            for one, many in ((char, entry["c"]), (entry["c"], char)):
                if len(one) == 1 and one.isalnum() and len(many) > 1 and (one + many).isascii():
                    pairs.add(("".join(map(_reading, many)), one))
    return tuple(sorted(pairs))


def user_named(username: str) -> AbstractBaseUser | None:
    """The account of that name, in any case (``/players/DEMO1/`` is demo1's page, ``DEMO1``
    signs in as demo1, and names demo1 for a moderator's replacement): names are unique
    whatever their case. The exact name wins if two accounts made before that rule differ only
    in case; otherwise such a name names nobody. The name is read as sign-in reads it (NFKC):
    ``ｄｅｍｏ１``, typed with an input method in full width, is demo1 too.

    Case is Unicode's (``Тимур`` is ``тимур``, ``Straße`` is ``STRASSE``), compared here
    rather than by the database, whose ``iexact`` folds only ASCII on SQLite and refuses a
    pattern past 50,000 bytes: candidates are the account holding the name's skeleton (one at
    most) and, for accounts made before skeletons were unique, those the database matches."""
    username = AbstractBaseUser.normalize_username(username)
    model = get_user_model()
    if len(username) > model._meta.get_field(model.USERNAME_FIELD).max_length:
        return None  # no account's name is longer
    users = model.objects
    exact = users.filter(username=username).first()
    if exact is not None:
        return exact
    folded = username.casefold()
    nearby = users.filter(
        Q(username_skeleton__skeleton=skeleton(username)) | Q(username__iexact=username)
    )
    alike = {u.pk: u for u in nearby[:10] if u.username.casefold() == folded}
    return next(iter(alike.values())) if len(alike) == 1 else None


def skeleton(username: str) -> str:
    """What a name looks like: the same skeleton, the same name to a reader."""
    text = "".join(_reading(char) for char in unicodedata.normalize("NFKC", username))
    for many, one in _ascii_sequences():
        text = text.replace(many, _reading(one))
    return text[:SKELETON_LENGTH]


# Alphabets whose letters are drawn alike: a name keeps to one of them.
ALPHABETS = ("LATIN", "CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE", "COPTIC", "GEORGIAN")

# Letters drawn as nothing at all (Hangul fillers): two names would differ by one unseen.
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0")


def _alphabets(text: str) -> set[str]:
    found = set()
    for char in text:
        if char.isalpha():
            name = unicodedata.name(char, "")
            found.update(a for a in ALPHABETS if name.startswith(a))
    return found


def problem(username: str, user=None) -> str | None:
    """Why this name may not be taken (it looks like a taken one, or mixes alphabets);
    ``user``: an account being renamed, which may keep looking like itself."""
    from .models import UsernameSkeleton

    text = unicodedata.normalize("NFKC", username)
    if text and not text.strip("."):
        # "." and ".." are path segments a browser resolves away: /players/../ is the lobby.
        return _("A username may not be made of dots alone: its profile page could not be found.")
    if INVISIBLE & set(text):
        return _("A username may not contain letters that are drawn as nothing.")
    if len(_alphabets(text)) > 1:
        return _("A username may not mix letters of different alphabets (Latin, Cyrillic, Greek…).")
    account = getattr(user, "pk", None)
    taken = UsernameSkeleton.objects.filter(skeleton=skeleton(text)).exclude(user_id=account)
    same = get_user_model().objects.filter(username__iexact=username).exclude(pk=account)
    if taken.exists() or same.exists():
        return _("A user with that username, or one that looks the same, already exists.")
    return None


def remember(sender, instance, created=False, update_fields=None, **kwargs) -> None:
    """Keep each account's skeleton beside it, however the account was made or renamed. A
    new account's is inserted: a look-alike made at the same moment breaks the unique column,
    and the sign-up is refused. An older account whose skeleton another holds (made before
    skeletons were unique) keeps none, and can still be saved."""
    from .models import UsernameSkeleton

    if not created and update_fields is not None and "username" not in update_fields:
        return  # a sign-in saving last_login, say
    wanted = skeleton(instance.username)
    if created:
        UsernameSkeleton.objects.create(user=instance, skeleton=wanted)
    elif UsernameSkeleton.objects.filter(skeleton=wanted).exclude(user=instance).exists():
        UsernameSkeleton.objects.filter(user=instance).delete()
    else:
        UsernameSkeleton.objects.update_or_create(user=instance, defaults={"skeleton": wanted})


def recompute_all(apps, schema_editor) -> None:
    """Every account's skeleton made again, with a migration's models (``RunPython``), when the
    reading changes. Accounts made before skeletons had to be unique may share one: the oldest
    keeps it, the others keep their accounts and names (a sign-up still finds it taken)."""
    users = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    skeletons = apps.get_model("games", "UsernameSkeleton")
    skeletons.objects.all().delete()
    seen, rows = set(), []
    for pk, name in users.objects.order_by("pk").values_list("pk", "username").iterator():
        found = skeleton(name)
        if found not in seen:
            seen.add(found)
            rows.append(skeletons(user_id=pk, skeleton=found))
    skeletons.objects.bulk_create(rows)


def connect() -> None:
    post_save.connect(remember, sender=get_user_model(), dispatch_uid="username-skeleton")
