"""Usernames that cannot pass for one another.

A name is compared by its skeleton: Unicode NFKC, case folded, and the Cyrillic and Greek
letters that look like Latin ones read as those Latin letters. ``DEMO1`` and ``dеmo1`` (a
Cyrillic е) both read as ``demo1``, so neither may join beside ``demo1``. Chinese, Japanese
and other names stay welcome; a name may not mix Latin letters with Cyrillic or Greek ones.
"""

from __future__ import annotations

import unicodedata

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

# Cyrillic and Greek letters drawn like Latin ones (lower case; names are case folded first).
LOOK_ALIKES = str.maketrans(
    {
        "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o",
        "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i",
        "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l",
        "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
        "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ω": "w",
    }
)  # fmt: skip


def skeleton(username: str) -> str:
    """What a name looks like: the same skeleton, the same name to a reader."""
    return unicodedata.normalize("NFKC", username).casefold().translate(LOOK_ALIKES)


def _scripts(username: str) -> set[str]:
    found = set()
    for char in unicodedata.normalize("NFKC", username):
        if char.isalpha():
            name = unicodedata.name(char, "")
            found |= {s for s in ("LATIN", "CYRILLIC", "GREEK") if name.startswith(s)}
    return found


def problem(username: str) -> str | None:
    """Why this name may not be taken (it looks like a taken one, or mixes alphabets)."""
    if "LATIN" in _scripts(username) and _scripts(username) & {"CYRILLIC", "GREEK"}:
        return _("A username may not mix Latin letters with Cyrillic or Greek ones.")
    wanted = skeleton(username)
    names = get_user_model().objects.values_list("username", flat=True)
    if any(skeleton(name) == wanted for name in names.iterator()):
        return _("A user with that username, or one that looks the same, already exists.")
    return None
