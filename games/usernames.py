"""Usernames that cannot pass for one another.

A name is compared by its skeleton: Unicode NFKC, case folded, and every letter that
Unicode's confusables data (the ``confusable-homoglyphs`` package) draws like a Latin letter or
digit read as that letter. ``DEMO1``, ``dеmo1`` (a Cyrillic е), ``demօ1`` (an Armenian օ) and
``dɑmo1`` against ``damo1`` (a Latin alpha) read alike, so neither may join beside the other.
Chinese, Japanese and other names stay welcome; a name may not mix Latin letters with letters
of another alphabet drawn like Latin ones. Skeletons are stored (``UsernameSkeleton``), so a
sign-up costs one indexed query however many accounts there are.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from confusable_homoglyphs import confusables
from django.contrib.auth import get_user_model
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
        return (not ascii_letter, not char.islower(), not char.isascii(), char)

    out = {}
    for members in groups.values():
        prototype = min(members, key=rank)
        out.update((char, prototype) for char in members if char != prototype)
    return out


def _read(text: str) -> str:
    prototypes = _prototypes()
    return "".join(prototypes.get(char, char) for char in text)


def skeleton(username: str) -> str:
    """What a name looks like: the same skeleton, the same name to a reader. Look-alikes are
    read before case folding (Cyrillic ``М`` is listed beside ``M``, its ``м`` beside nothing)
    and again after it."""
    read = _read(unicodedata.normalize("NFKC", username)).casefold()
    return _read(read).casefold()[:SKELETON_LENGTH]


def _latin_look_alike(char: str) -> bool:
    """A letter of another script drawn like a Latin letter or digit."""
    prototypes = _prototypes()
    return any(prototypes.get(c, "").isascii() for c in (char, char.casefold(), char.upper()))


def _mixes_alphabets(username: str) -> bool:
    """Latin letters beside letters of another script that are drawn like Latin ones."""
    latin = other = False
    for char in unicodedata.normalize("NFKC", username):
        if not char.isalpha():
            continue
        if unicodedata.name(char, "").startswith("LATIN"):
            latin = True
        elif _latin_look_alike(char):
            other = True
    return latin and other


def problem(username: str, user=None) -> str | None:
    """Why this name may not be taken (it looks like a taken one, or mixes alphabets);
    ``user``: an account being renamed, which may keep looking like itself."""
    from .models import UsernameSkeleton

    if _mixes_alphabets(username):
        return _("A username may not mix Latin letters with look-alikes from another alphabet.")
    others = get_user_model().objects.exclude(pk=getattr(user, "pk", None))
    taken = UsernameSkeleton.objects.filter(skeleton=skeleton(username), user__in=others)
    if taken.exists() or others.filter(username__iexact=username).exists():
        return _("A user with that username, or one that looks the same, already exists.")
    return None


def remember(sender, instance, update_fields=None, **kwargs) -> None:
    """Keep each account's skeleton beside it, however the account was made or renamed."""
    from .models import UsernameSkeleton

    if update_fields is not None and "username" not in update_fields:
        return  # a sign-in saving last_login, say
    UsernameSkeleton.objects.update_or_create(
        user=instance, defaults={"skeleton": skeleton(instance.username)}
    )


def connect() -> None:
    post_save.connect(remember, sender=get_user_model(), dispatch_uid="username-skeleton")
