"""Issue #14 item 1, "Done when": only the engine (``adjudication/``) and the rule objects
(``variants/rules/``) read order text; everything else reads the engine's data of an order.
And the page's script holds no map and no rule: its menu comes from the options endpoint."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games import web

ROOT = Path(__file__).resolve().parent.parent
BOARD_JS = ROOT / "static" / "board.js"

# Ways order text was read outside the engine before, each once found in the code.
PARSING = {
    "the engine's parser imported": r"adjudication\.orders|from adjudication import orders",
    "a rule's tag matched": r"(?<!“)Suez permit F|[\"']Enter A[\"' ]|special:A\b",
    "a prefix sliced off": r"startswith\([\"'](Enter A|Build|Remove|Suez)|\[len\([\"']",
    "a move's text split": r"split\([\"'] - [\"']\)|canonical\.split\(|canonical\[",
    "the order words listed": r"_ORDER_WORDS|\{\"H\", \"-\", \"S\"",
    "an order grammar in a regular expression": r"\[AF\]\\s|HOLD\|-\|->",
}


def outside_the_engine() -> list[Path]:
    """Code that is neither the engine nor a rule object: the server, the bots, the board
    drawing, the page's scripts."""
    files = [p for p in (ROOT / "games").rglob("*.py") if "migrations" not in p.parts]
    files += list((ROOT / "bots").glob("*.py"))
    files += [p for p in (ROOT / "variants").glob("*.py")]
    files += list((ROOT / "static").glob("*.js"))
    return files


@pytest.mark.parametrize("what", sorted(PARSING))
def test_no_order_text_is_parsed_outside_the_engine_and_the_rules(what):
    pattern = re.compile(PARSING[what])
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in outside_the_engine()
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    assert not found, f"{what}:\n" + "\n".join(found)


def test_the_patterns_find_what_they_are_for():
    """Each pattern matches the code it was written against, so a pass above means something."""
    before = {
        "the engine's parser imported": "from adjudication import orders as order_parser",
        "a rule's tag matched": 'var text = "Suez permit F " + unitAt(place).location;',
        "a prefix sliced off": 'if canonical.startswith("Enter A "):',
        "a move's text split": 'sea = permit.split(" - ")[0][2:]',
        "the order words listed": '_ORDER_WORDS = {"H", "-", "S", "C", "R", "D"}',
        "an order grammar in a regular expression": r"var m = /^(?:build\s+)?[AF]\s+(.+?)$/",
    }
    assert set(before) == set(PARSING)
    for what, line in before.items():
        assert re.search(PARSING[what], line), what


def test_board_js_holds_no_map_and_no_rule():
    js = BOARD_JS.read_text()
    for table in ("army", "fleet", "rail", "suez", "provinces", "homes", "centres"):
        assert not re.search(rf"data\.{table}\b", js), table
    for rule in ("adjacen", "via TSR", "Build A", "Suez", "reach("):
        assert rule not in js, rule
    assert "data.options" in js and "data.check" in js  # the menu and the checks: the server


def test_the_page_context_carries_no_map(make_game, seat):
    game = make_game("colonial")
    data = web.board_data(game, game.current_phase, seat(game, "Russia").power)
    assert set(data) == {"power", "phase", "units", "dislodged", "options", "check"}
    assert data["options"] == f"/api/games/{game.pk}/options/"
    assert data["check"] == f"/api/games/{game.pk}/orders/check/"
