"""The engine's reasons as words a server translates: every reason the engine gives carries its
template and names, every template is in the Chinese and Japanese catalogues, and players read
reasons in their language on the page and through the API."""

from __future__ import annotations

import pytest
from django.utils import translation

import adjudication
from adjudication.reasons import Reason
from games import services
from games.reason_words import say

try:
    from tests import datc
except ImportError:  # tests/ is not importable as a package: pytest put tests/ on sys.path
    import datc

LANGUAGES = ("zh-hans", "ja")


def _reasons(response: dict) -> list:
    found = []
    for item in response.get("orders", []):
        found += [item[key] for key in ("reason", "needs") if item.get(key)]
    return found


def _all_datc_reasons() -> list:
    reasons = []
    for case in datc.teddriggs_cases() + datc.godip_cases():
        previous = None
        for step in case.steps:
            request = step.build_request(previous)
            previous = adjudication.adjudicate(request)
            reasons += _reasons(previous)
            reasons += _reasons(adjudication.check(request))
    return reasons


def _translated(words: dict, language: str) -> bool:
    with translation.override(language):
        if translation.gettext(words["template"]) == words["template"]:
            return False
    return all(_translated(v, language) for v in words["args"].values() if isinstance(v, dict))


def test_every_reason_in_the_datc_has_words_and_translations() -> None:
    reasons = _all_datc_reasons()
    assert len(reasons) > 300
    plain = sorted({r for r in reasons if not isinstance(r, Reason)})
    assert plain == []
    for language in LANGUAGES:
        missing = sorted(
            {r.template for r in reasons if not _translated(adjudication.reason_words(r), language)}
        )
        assert missing == [], language


def test_words_fill_a_translation_and_fall_back_to_english() -> None:
    words = {"template": "dislodged by {unit}", "args": {"unit": "A Moscow"}}
    with translation.override("ja"):
        assert say(words, "dislodged by A Moscow") == "A Moscow に撃退されました"
    with translation.override("en"):
        assert say(words, "x") == "dislodged by A Moscow"
    assert say(None, "as the engine said") == "as the engine said"
    broken = {"template": "dislodged by {unit}", "args": {}}  # a name missing: English
    assert say(broken, "dislodged by F Kiel") == "dislodged by F Kiel"


@pytest.fixture
def bounced(make_game, seat, moderator):
    """A Colonial spring: two armies bounce in Omsk's neighbour and one order is nonsense."""
    game = make_game("colonial")
    russia = seat(game, "Russia")
    services.submit_orders(russia, ["A Moscow - Perm", "A Warsaw - Nowhere"])
    services.submit_orders(seat(game, "Britain"), ["F Bombay - Arabian Sea"])
    services.process_now(game, moderator)
    game.refresh_from_db()
    return game


def test_players_read_reasons_in_their_language(api, client, bounced, seat) -> None:
    russia = seat(bounced, "Russia").user
    phase = bounced.phases.get(index=0)
    url = f"/api/games/{bounced.pk}/phases/0/"
    english = api(russia).get(url).data["orders"]
    nonsense = next(o for o in english if o["text"] == "A Warsaw - Nowhere")
    assert nonsense["reason"].startswith("there is no province called")
    assert nonsense["reason_words"]["template"] == "there is no province called '{typed}'"
    japanese = api(russia).get(url, HTTP_ACCEPT_LANGUAGE="ja").data["orders"]
    assert (
        "という地域はありません"
        in next(o for o in japanese if o["text"] == "A Warsaw - Nowhere")["reason"]
    )
    client.force_login(russia)
    page = client.get(f"/games/{bounced.pk}/?phase=0", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert "的省份" in page.content.decode() and "there is no province" not in page.content.decode()
    assert phase.orders.filter(reason_words__isnull=False).exists()


def test_a_reason_listing_routes_or_coasts_says_its_or_in_the_readers_language(
    api, make_game, seat
) -> None:
    """Found by an adversary: a reason listing the routes after 'via' (``Convoy or TSR``) kept
    its English "or" in Japanese and Chinese, the list being made as English text. The list
    is words of its own now, and so is a build's list of coasts."""
    game = make_game("colonial")
    russia = api(seat(game, "Russia").user)
    url = f"/api/games/{game.pk}/orders/check/"
    body = {"orders": ["A Moscow - Omsk via Suez"]}
    said = {
        language: russia.post(url, body, format="json", HTTP_ACCEPT_LANGUAGE=language).data[0]
        for language in ("en", "ja", "zh-hans")
    }
    assert said["en"]["reason"] == (
        "there is no route called 'SUEZ' on this map; after 'via' write Convoy or TSR, or leave "
        "'via' out"
    )
    assert said["ja"]["reason"] == (
        "このマップに「SUEZ」という経路はありません。「via」の後には Convoy か TSR と書くか、"
        "「via」を省いてください"
    )
    assert said["zh-hans"]["reason"] == (
        "此地图上没有名为“SUEZ”的路线；“via”之后请写 Convoy 或 TSR，或省略“via”"
    )
    routes = said["ja"]["reason_words"]["args"]["routes"]
    assert routes == {"template": "{first} or {last}", "args": {"first": "Convoy", "last": "TSR"}}
    # Three or more: "A, B or C", each joint in the reader's words.
    from adjudication.reasons import either

    three = adjudication.reason_words(either(["Convoy", "TSR", "Suez"]))
    assert str(either(["Convoy", "TSR", "Suez"])) == "Convoy, TSR or Suez"
    with translation.override("ja"):
        assert say(three) == "Convoy、TSR か Suez"
    # A build on a split coast lists its coasts alike.
    request = {
        "variant": "standard",
        "phase": {"season": "winter", "year": 1901, "type": "adjustments"},
        "units": [],
        "supply_centers": {"Russia": ["St Petersburg", "Moscow", "Warsaw", "Sevastopol", "Norway"]},
        "orders": [{"power": "Russia", "order": "Build F St Petersburg"}],
    }
    reason = adjudication.check(request)["orders"][0]["reason"]
    assert reason == "say which coast to build the fleet on: St Petersburg/nc or St Petersburg/sc"
    with translation.override("ja"):
        assert "St Petersburg/nc か St Petersburg/sc" in say(adjudication.reason_words(reason))


def test_the_board_speaks_the_readers_language(client, bounced, seat) -> None:
    """The legend and the orders' tooltips of a processed phase, in Japanese and in English."""
    client.force_login(seat(bounced, "Russia").user)
    url = f"/games/{bounced.pk}/board.svg?phase=0"
    japanese = client.get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "補給都市 / ユニット" in japanese and "centres / units" not in japanese
    assert "F Bombay - Arabian Sea（成功）" in japanese
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "centres / units" in english and "F Bombay - Arabian Sea (succeeds)" in english


def test_no_reason_is_written_as_an_f_string() -> None:
    """A reason made with an f-string has no template to translate: every ``OrderError`` and
    ``why`` in the engine and the rules is given its template and names."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    found = []
    for path in [*root.glob("adjudication/*.py"), *root.glob("variants/rules/*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            maker = isinstance(node, ast.Call) and getattr(node.func, "id", None)
            if maker in ("OrderError", "why") and isinstance(node.args[0], ast.JoinedStr):
                found.append(f"{path.name}:{node.lineno}")
    assert found == []


def test_a_shared_reason_is_the_one_its_names_make():
    """Reasons are made once and shared (``why``): the same template and names give the same
    reason, but names that are equal yet written differently never share one."""
    from adjudication.reasons import why

    template = "bounced with {label} ({attack} against {against})"
    first = why(template, label="A Paris", attack=1, against=1)
    assert why(template, label="A Paris", attack=1, against=1) is first
    assert (
        why(template, label="A Paris", attack=2, against=1) == "bounced with A Paris (2 against 1)"
    )
    assert why(template, label="A Paris", attack=True, against=1) == (
        "bounced with A Paris (True against 1)"
    )
    quoted = why("support cut by {unit}", unit="A Munich")
    plain = why("not given: {why}", why="support cut by A Munich")
    nested = why("not given: {why}", why=quoted)
    assert nested == plain and nested is not plain
    assert nested.words()["args"]["why"] == {
        "template": "support cut by {unit}",
        "args": {"unit": "A Munich"},
    }
    assert plain.words()["args"]["why"] == "support cut by A Munich"
    # Shared by the values given: the same values under other names are another reason.
    swapped = "{attack} against {against}"
    assert why(swapped, attack=2, against=1) == "2 against 1"
    assert why(swapped, against=2, attack=1) == "1 against 2"
    assert why(swapped, against=2, attack=1).args == {"attack": 1, "against": 2}
    # The same template given more names than before (an unused one) is a reason of its own.
    short = why("held in {dest}", dest="Paris")
    longer = why("held in {dest}", dest="Paris", by="A Burgundy")
    assert short is not longer and longer.args == {"dest": "Paris", "by": "A Burgundy"}
    assert why("held in {dest}", dest="Paris") is short
    assert why("held in {dest}", dest="Paris", by="A Burgundy") is longer


def test_a_long_name_is_not_kept_for_sharing():
    """A reason quoting a long text (an order as a player typed it) is made each time, so the
    shared reasons never hold players' long texts."""
    from adjudication.reasons import why

    typed = "x" * 101
    template = "there is no province called '{typed}'"
    assert why(template, typed=typed) is not why(template, typed=typed)
    assert why(template, typed="Paris") is why(template, typed="Paris")


def test_a_reason_listing_names_writes_the_list_in_the_readers_language(
    api, make_game, seat
) -> None:
    """ "Did you mean one of A, B, C?" kept its English commas in Japanese and Chinese, the names
    being joined as English text; they are a list of words of their own now (``listed``), as
    are the powers that share an ocean and the armies that bounce in a retreat."""
    game = make_game("far-east")
    japan = api(seat(game, "Japan").user)
    url = f"/api/games/{game.pk}/orders/check/"
    body = {"orders": ["F Tokyo - Pacific Ocean"]}
    said = {
        language: japan.post(url, body, format="json", HTTP_ACCEPT_LANGUAGE=language).data[0]
        for language in ("en", "ja", "zh-hans")
    }
    names = "Mid-Pacific Ocean, North Pacific Ocean, South Pacific Ocean"
    assert said["en"]["reason"].endswith(f"did you mean one of {names}?")
    joined = "Mid-Pacific Ocean、North Pacific Ocean、South Pacific Ocean"
    for language in ("ja", "zh-hans"):
        assert joined in said[language]["reason"], said[language]["reason"]
        assert names not in said[language]["reason"]
    from adjudication.reasons import listed

    assert listed([]) == "" and listed(["A"]) == "A"
    assert str(listed(["A", "B", "C"])) == "A, B, C"
