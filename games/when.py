"""One way of writing a date and time on every page, per language, the same from a template
(``{{ value|when }}``, ``{{ value|when:"short" }}``) and from the scripts (``static/when.js``,
which reads these patterns from the page): the reader's language, the reader's time zone (the
account's setting, UTC otherwise) and a 24-hour clock. The zone is written as its offset
("UTC", "UTC+9", "UTC-4:30"), which the scripts can compute as the server does.

``long`` is for deadlines and logs, ``short`` for press. The patterns name their parts:
{y} year, {m} month number, {mon} month name, {d} day, {wd} weekday, {H}:{i} the time (two
digits each) and {tz} the zone."""

from __future__ import annotations

import zoneinfo
from datetime import datetime

from django.utils import timezone
from django.utils.translation import get_language

ENGLISH = {
    "long": "{wd} {d} {mon} {y}, {H}:{i} {tz}",
    "short": "{d} {mon}, {H}:{i}",
    "wd": ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
    "mon": ["Jan", "Feb", "Mar", "Apr", "May", "Jun"] + ["Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
}
FORMATS: dict[str, dict] = {
    "en": ENGLISH,
    "ja": {
        "long": "{y}年{m}月{d}日({wd}) {H}:{i} {tz}",
        "short": "{m}月{d}日 {H}:{i}",
        "wd": ["月", "火", "水", "木", "金", "土", "日"],
        "mon": ENGLISH["mon"],
    },
    "zh-hans": {
        "long": "{y}年{m}月{d}日 {wd} {H}:{i} {tz}",
        "short": "{m}月{d}日 {H}:{i}",
        "wd": ["周一", "周二", "周三", "周四", "周五", "周六", "周日"],
        "mon": ENGLISH["mon"],
    },
}


def patterns(language: str | None = None) -> dict:
    """The patterns and names of ``language`` (the active one when not given)."""
    return FORMATS.get((language or get_language() or "en").lower(), ENGLISH)


def zone_label(value: datetime) -> str:
    """``value``'s UTC offset as "UTC", "UTC+9", "UTC-4:30"."""
    offset = value.utcoffset()
    minutes = round(offset.total_seconds() / 60) if offset else 0
    if not minutes:
        return "UTC"
    sign = "+" if minutes > 0 else "-"
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "")


def format_when(value: datetime, kind: str = "long", zone: str | None = None) -> str:
    """``value`` written in the active language, in ``zone`` (the current time zone when not
    given: a page's ``{% timezone %}``)."""
    tz = zoneinfo.ZoneInfo(zone) if zone else timezone.get_current_timezone()
    local = value.astimezone(tz) if timezone.is_aware(value) else value.replace(tzinfo=tz)
    words = patterns()
    return words.get(kind, words["long"]).format(
        y=local.year,
        m=local.month,
        mon=words["mon"][local.month - 1],
        d=local.day,
        wd=words["wd"][local.weekday()],
        H=f"{local.hour:02d}",
        i=f"{local.minute:02d}",
        tz=zone_label(local),
    )
