"""Marks the rules' words for translation without a translation library: rule objects run in
the engine, which has no Django, and the server translates the marked words when it shows
them (``makemessages`` finds them by this function's name, as it finds Django's own)."""


def gettext_noop(text: str) -> str:
    return text
