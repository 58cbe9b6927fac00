"""Dates and times are written one way (``games.when``): in the page's language, in the reader's
time zone, the same from a template and from the live script (``static/when.js``). The lobby
wrote "Fri 4 Dec 13:59 UTC", the game page "01:59 PM UTC" in the browser's language whatever
the page's, press "27 Nov 14:15" but a live reply "Nov 27, 02:15 PM"."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.utils import translation

from games import when
from games.models import NotificationSettings

AT = datetime(2026, 12, 4, 13, 59, tzinfo=UTC)
WHEN_JS = Path(__file__).resolve().parent.parent / "static" / "when.js"


@pytest.mark.parametrize(
    "language, zone, kind, expected",
    [
        ("en", "UTC", "long", "Fri 4 Dec 2026, 13:59 UTC"),
        ("en", "Asia/Tokyo", "long", "Fri 4 Dec 2026, 22:59 UTC+9"),
        ("en", "Asia/Kolkata", "short", "4 Dec, 19:29"),
        ("en", "America/St_Johns", "long", "Fri 4 Dec 2026, 10:29 UTC-3:30"),
        ("ja", "Asia/Tokyo", "long", "2026年12月4日(金) 22:59 UTC+9"),
        ("ja", "UTC", "short", "12月4日 13:59"),
        ("zh-hans", "Asia/Shanghai", "long", "2026年12月4日 周五 21:59 UTC+8"),
        ("zh-hans", "Asia/Shanghai", "short", "12月4日 21:59"),
    ],
)
def test_format(language, zone, kind, expected) -> None:
    with translation.override(language):
        assert when.format_when(AT, kind, zone) == expected


@pytest.mark.skipif(not os.path.exists("/usr/bin/node"), reason="needs node")
def test_the_script_writes_what_the_server_writes(tmp_path) -> None:
    """when.js, run by node on the same instants, languages and zones, agrees with Python."""
    import subprocess

    cases = []
    instants = [AT, datetime(2026, 3, 29, 0, 30, tzinfo=UTC), datetime(2027, 1, 1, tzinfo=UTC)]
    for language in ("en", "ja", "zh-hans"):
        for zone in ("UTC", "Asia/Tokyo", "Europe/London", "America/New_York", "Asia/Kolkata"):
            for instant in instants:
                for kind in ("long", "short"):
                    with translation.override(language):
                        expected = when.format_when(instant, kind, zone)
                        patterns = {**when.patterns(), "zone": zone}
                    cases.append([patterns, instant.isoformat(), kind, expected])
    script = (
        "const cases = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8'));\n"
        "const code = require('fs').readFileSync(process.argv[3], 'utf8');\n"
        "const out = cases.map(([patterns, iso, kind]) => {\n"
        "  global.window = {};\n"
        "  global.document = {getElementById: () => ({textContent: JSON.stringify(patterns)})};\n"
        "  eval(code);\n"
        "  return window.ggWhen(iso, kind);\n"
        "});\n"
        "console.log(JSON.stringify(out));\n"
    )
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    (tmp_path / "run.js").write_text(script)
    done = subprocess.run(
        ["node", str(tmp_path / "run.js"), str(tmp_path / "cases.json"), str(WHEN_JS)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(done.stdout) == [case[3] for case in cases]


@pytest.mark.django_db
def test_pages_write_times_in_the_readers_zone_and_language(client, make_game, moderator):
    game = make_game("colonial")
    NotificationSettings.objects.update_or_create(
        user=moderator, defaults={"time_zone": "Asia/Tokyo"}
    )
    client.force_login(moderator)
    client.cookies["django_language"] = "ja"
    with translation.override("ja"):
        expected = when.format_when(game.current_phase.deadline, "long", "Asia/Tokyo")
    assert expected.endswith("UTC+9") and "(" in expected
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert expected in page
    assert "when.js" in page
    patterns = page.split('id="when-patterns" type="application/json">')[1].split("</script>")[0]
    assert json.loads(patterns)["zone"] == "Asia/Tokyo"
    assert json.loads(patterns)["wd"][4] == "金"
