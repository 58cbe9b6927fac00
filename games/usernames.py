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
def _latin_look_alike(char: str) -> str | None:
    """The ASCII letter or digit a non-ASCII letter is drawn like, if any."""
    for found in confusables.is_confusable(char, greedy=True) or ():
        for glyph in found["homoglyphs"]:
            if len(glyph["c"]) == 1 and glyph["c"].isascii() and glyph["c"].isalnum():
                return glyph["c"].casefold()
    return None


def skeleton(username: str) -> str:
    """What a name looks like: the same skeleton, the same name to a reader."""
    folded = unicodedata.normalize("NFKC", username).casefold()
    out = [c if c.isascii() else (_latin_look_alike(c) or c) for c in folded]
    return "".join(out)[:SKELETON_LENGTH]


def _mixes_alphabets(username: str) -> bool:
    """Latin letters beside letters of another script that are drawn like Latin ones."""
    latin = other = False
    for char in unicodedata.normalize("NFKC", username):
        if not char.isalpha():
            continue
        if unicodedata.name(char, "").startswith("LATIN"):
            latin = True
        elif _latin_look_alike(char.casefold()) or _latin_look_alike(char):
            other = True
    return latin and other


def problem(username: str) -> str | None:
    """Why this name may not be taken (it looks like a taken one, or mixes alphabets)."""
    from .models import UsernameSkeleton

    if _mixes_alphabets(username):
        return _("A username may not mix Latin letters with look-alikes from another alphabet.")
    taken = UsernameSkeleton.objects.filter(skeleton=skeleton(username)).exists()
    if taken or get_user_model().objects.filter(username__iexact=username).exists():
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
