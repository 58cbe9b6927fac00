"""A password rule Django lacks: a longest length. A 100,000-character password was taken and
hashed at every sign-in; nobody types one, and the forms and the API answer it plainly."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import ngettext


class MaximumLengthValidator:
    """Refuse a password longer than ``max_length`` characters (listed in
    ``AUTH_PASSWORD_VALIDATORS``, so sign-up and password changes, page and API, check it)."""

    def __init__(self, max_length: int = 1024) -> None:
        self.max_length = max_length

    def validate(self, password: str, user: object = None) -> None:
        if len(password) > self.max_length:
            raise ValidationError(self.get_help_text(), code="password_too_long")

    def get_help_text(self) -> str:
        return ngettext(
            "Your password can be at most %(max)d character long.",
            "Your password can be at most %(max)d characters long.",
            self.max_length,
        ) % {"max": self.max_length}
