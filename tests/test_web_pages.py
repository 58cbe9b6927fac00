"""The browser pages through Django's test client: who sees what, and that forms reach the
services. Every page's HTML must also be well formed."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import (
    Game,
    Membership,
    Message,
    ModeratorAction,
    NotificationSettings,
    Order,
    Payment,
)
from variants.render import power_colours

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
VOID |= {"track", "wbr"}


class Balance(HTMLParser):
    """Fails on a closing tag that does not match the open one; SVG may self-close."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, tuple]] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))

    def handle_startendtag(self, tag, attrs) -> None:
        pass

    def handle_endtag(self, tag) -> None:
        if tag in VOID:
            return
        if not self.stack or self.stack[-1][0] != tag:
            opened = self.stack[-1] if self.stack else None
            self.errors.append(f"</{tag}> at {self.getpos()} closes {opened}")
            return
        self.stack.pop()


def assert_html(response) -> str:
    html = response.content.decode()
    assert html.startswith("<!DOCTYPE html>")
    parser = Balance()
    parser.feed(html)
    parser.close()
    assert not parser.errors, parser.errors[:5]
    assert not parser.stack, f"unclosed: {parser.stack[:5]}"
    return html


def client_for(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def colonial(make_game):
    return make_game("colonial")


@pytest.fixture
def russia(colonial, seat):
    return seat(colonial, "Russia")


def test_anonymous_is_sent_to_sign_in(client, colonial):
    for url in [
        reverse("lobby"),
        reverse("create-game"),
        reverse("moderate", args=[colonial.pk]),
        reverse("account-settings"),
    ]:
        response = client.get(url)
        assert response.status_code == 302
        assert response.url.startswith(reverse("login"))
    # A private game's page is a 404 to a stranger (nothing tells it exists) that offers to sign in.
    game_page = client.get(reverse("game", args=[colonial.pk]))
    assert (
        game_page.status_code == 404 and reverse("login") + "?next=" in game_page.content.decode()
    )


def test_sign_up_and_sign_in(client, db):
    response = client.get(reverse("signup"))
    assert "csrfmiddlewaretoken" in assert_html(response)
    response = client.post(
        reverse("signup"),
        {
            "username": "ada",
            "email": "",
            "password1": "a long passphrase",
            "password2": "a long passphrase",
        },
    )
    assert response.status_code == 302
    assert_html(client.get(reverse("lobby")))
    client.logout()
    assert "csrfmiddlewaretoken" in assert_html(client.get(reverse("login")))
    response = client.post(reverse("login"), {"username": "ada", "password": "a long passphrase"})
    assert response.status_code == 302 and response.url == reverse("lobby")


def test_create_join_and_start(make_user):
    ada, bob = make_user("ada"), make_user("bob")
    a, b = client_for(ada), client_for(bob)
    assert "csrfmiddlewaretoken" in assert_html(a.get(reverse("create-game")))
    response = a.post(
        reverse("create-game"),
        {
            "name": "Tea and railways",
            "variant": "colonial",
            "movement_minutes": 60,
            "retreats_minutes": 30,
            "adjustments_minutes": 30,
            "press": "full",
            "process_when_ready": "on",
            "civil_disorder_after": 2,
            "victory_centers": 20,
        },
    )
    game = Game.objects.get(name="Tea and railways")
    assert response.url == reverse("game", args=[game.pk])
    assert game.creator == ada and game.options["victory_centers"] == 20
    assert "Join" in assert_html(a.get(response.url))
    a.post(reverse("join", args=[game.pk]), {"first": "Russia"})
    assert "Tea and railways" in assert_html(b.get(reverse("lobby")))
    b.post(reverse("join", args=[game.pk]), {"first": "China", "second": "Japan"})
    assert game.memberships.count() == 2
    # Starting asks once more before it acts.
    url = reverse("moderate-action", args=[game.pk, "start"])
    assert "Yes, start" in assert_html(a.post(url))
    assert Game.objects.get(pk=game.pk).status == Game.Status.FORMING
    a.post(url, {"confirm": "yes"})
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert {m.user.username: m.power for m in game.memberships.all()} == {
        "ada": "Russia",
        "bob": "China",
    }
    html = assert_html(a.get(reverse("lobby")))
    assert "missing" in html  # Russia has not ordered yet


def test_game_page_for_player(colonial, russia):
    c = client_for(russia.user)
    html = assert_html(c.get(reverse("game", args=[colonial.pk])))
    # The board is its own resource (games.web.board), at the address the page names.
    src = re.search(r'data-src="([^"]+)"', html)[1].replace("&amp;", "&")
    board = c.get(src).content.decode()
    assert 'id="board-svg"' in board and "<title>Moscow" in board
    assert 'id="board-data"' in html and "Without orders" in html
    assert 'name="orders"' in html and "Victory</dt>" in html


def test_no_js_order_form_calls_the_service(colonial, russia):
    c = client_for(russia.user)
    url = reverse("submit-orders", args=[colonial.pk])
    response = c.post(
        url,
        {
            "orders": "A Moscow - Vladivostok via TSR\nA vla - seo\nA Omsk - Peking",
            "phase": colonial.current_phase.index,
        },
    )
    assert response.status_code == 302
    orders = Order.objects.filter(phase=colonial.current_phase, power="Russia")
    assert [(o.canonical, o.valid) for o in orders] == [
        ("A Moscow - Vladivostok via TSR", True),
        ("A Vladivostok - Seoul", True),
        ("A Omsk - Peking", False),
    ]
    html = assert_html(c.get(reverse("game", args=[colonial.pk])))
    assert "invalid" in html and "A Vladivostok - Seoul" in html


def test_no_js_save_and_ready_say_what_is_invalid_or_missing(colonial, russia):
    """Found by a UI tester: saving invalid lines said only "N orders are invalid", and Ready
    was taken without a word about them or the units left without orders."""
    c = client_for(russia.user)
    index = colonial.current_phase.index
    c.post(
        reverse("submit-orders", args=[colonial.pk]),
        {"orders": "A Moscow - Perm\nA Omsk - Peking\nF Odessa H", "phase": index},
    )
    html = assert_html(c.get(reverse("game", args=[colonial.pk])))
    assert "Orders saved, but 1 of 3 is invalid: it will not be carried out." in html
    # Without JavaScript, Ready asks first too (a page of its own): once every power is ready
    # the phase may be processed at once, too late to change anything.
    html = assert_html(c.post(reverse("ready", args=[colonial.pk]), {"ready": "1", "phase": index}))
    assert "Ready with things left undone?" in html
    assert "1 of your 3 saved orders is invalid and will not be carried out." in html
    assert "Without orders: A Vladivostok, A Omsk, F Port Arthur." in html
    assert 'name="confirm" value="yes"' in html
    russia.refresh_from_db()
    assert not russia.ready  # asked, not taken
    confirmed = {"ready": "1", "phase": index, "confirm": "yes"}
    assert c.post(reverse("ready", args=[colonial.pk]), confirmed).status_code == 302
    russia.refresh_from_db()
    assert russia.ready  # the API is unchanged: it never asks
    # Every unit ordered and nothing invalid: Ready is taken at once.
    c.post(reverse("ready", args=[colonial.pk]), {"ready": "0", "phase": index})
    every = "A Moscow H\nA Vladivostok H\nA Omsk H\nF Odessa H\nF Port Arthur H"
    c.post(reverse("submit-orders", args=[colonial.pk]), {"orders": every, "phase": index})
    assert "Orders saved." in assert_html(c.get(reverse("game", args=[colonial.pk])))
    answer = c.post(reverse("ready", args=[colonial.pk]), {"ready": "1", "phase": index})
    assert answer.status_code == 302
    russia.refresh_from_db()
    assert russia.ready


def test_no_js_order_form_does_not_overwrite_another_tabs_orders(colonial, russia):
    c = client_for(russia.user)
    page = assert_html(c.get(reverse("game", args=[colonial.pk])))
    version = re.search(r'name="version" value="([^"]+)"', page).group(1)
    services.submit_orders(russia, ["A Moscow - Perm"])  # another tab saves meanwhile
    url = reverse("submit-orders", args=[colonial.pk])
    index = colonial.current_phase.index
    c.post(url, {"orders": "F Odessa H", "version": version, "phase": index})
    orders = Order.objects.filter(phase=colonial.current_phase, power="Russia")
    assert [o.text for o in orders] == ["A Moscow - Perm"]
    html = assert_html(c.get(reverse("game", args=[colonial.pk])))
    assert "changed in another tab" in html
    box = re.search(r"<textarea[^>]*>(.*?)</textarea>", html, re.S).group(1)
    assert box.strip() == "F Odessa H"  # the text sent comes back, to be saved again
    fresh = re.search(r'name="version" value="([^"]+)"', html).group(1)
    c.post(url, {"orders": "A Moscow - Perm\nF Odessa H", "version": fresh, "phase": index})
    assert sorted(o.text for o in orders.all()) == ["A Moscow - Perm", "F Odessa H"]


@pytest.mark.parametrize("sent", ["the page's phase", "no phase"])
def test_no_js_order_form_never_saves_into_a_phase_processed_since(
    colonial, russia, moderator, sent
):
    """A box filled before the phase was processed says so and stores nothing in the new
    phase (a post without the page's phase says it came incomplete); the text comes back to
    be looked at again."""
    c = client_for(russia.user)
    page = assert_html(c.get(reverse("game", args=[colonial.pk])))
    version = re.search(r'name="version" value="([^"]+)"', page).group(1)
    index = re.search(r'name="phase" value="(\d+)"', page).group(1)
    services.process_now(colonial, moderator)
    colonial.refresh_from_db()
    post = {"orders": "A Moscow - Perm", "version": version}
    if sent == "the page's phase":
        post["phase"] = index
    c.post(reverse("submit-orders", args=[colonial.pk]), post)
    assert not Order.objects.filter(phase=colonial.current_phase, power="Russia").exists()
    html = assert_html(c.get(reverse("game", args=[colonial.pk])))
    if sent == "the page's phase":
        assert "processed since, so nothing was saved" in html
    else:
        assert "came incomplete" in html and "processed since" not in html
    assert "changed in another tab" not in html
    box = re.search(r"<textarea[^>]*>(.*?)</textarea>", html, re.S).group(1)
    assert box.strip() == "A Moscow - Perm"


def test_no_js_order_form_for_a_phase_the_game_never_had_says_so(colonial, russia):
    """phase=99 (never reached) said the page's phase "has been processed since": the box
    names a phase this game does not have, and nothing is saved."""
    c = client_for(russia.user)
    page = assert_html(c.get(reverse("game", args=[colonial.pk])))
    version = re.search(r'name="version" value="([^"]+)"', page).group(1)
    post = {"orders": "A Moscow - Perm", "version": version, "phase": 99}
    c.post(reverse("submit-orders", args=[colonial.pk]), post)
    assert not Order.objects.filter(phase=colonial.current_phase, power="Russia").exists()
    html = assert_html(c.get(reverse("game", args=[colonial.pk])))
    assert "a phase this game does not have, so nothing was saved" in html
    assert "processed since" not in html
    box = re.search(r"<textarea[^>]*>(.*?)</textarea>", html, re.S).group(1)
    assert box.strip() == "A Moscow - Perm"


def test_other_players_cannot_see_your_orders(colonial, russia, seat):
    services.submit_orders(russia, ["A Moscow - Perm"])
    china = seat(colonial, "China")
    html = assert_html(client_for(china.user).get(reverse("game", args=[colonial.pk])))
    assert "A Moscow - Perm" not in html
    board = client_for(china.user).get(reverse("board", args=[colonial.pk])).content.decode()
    assert "A Moscow - Perm" not in board
    assert (
        "A Moscow - Perm"
        in client_for(russia.user).get(reverse("board", args=[colonial.pk])).content.decode()
    )
    # A stranger sees the board but no orders and no post forms.
    assert (
        client_for(china.user)
        .post(reverse("submit-orders", args=[colonial.pk]), {"orders": ""})
        .status_code
        == 302
    )


def test_outsiders_cannot_order_or_moderate(colonial, make_user):
    stranger = client_for(make_user("stranger"))
    html = assert_html(stranger.get(reverse("game", args=[colonial.pk])))
    assert 'data-src="' in html and 'name="orders"' not in html and "board-data" not in html
    assert (
        stranger.post(
            reverse("submit-orders", args=[colonial.pk]), {"orders": "A Moscow H"}
        ).status_code
        == 403
    )
    assert stranger.get(reverse("moderate", args=[colonial.pk])).status_code == 403
    assert (
        stranger.post(
            reverse("moderate-action", args=[colonial.pk, "pause"]), {"confirm": "yes"}
        ).status_code
        == 403
    )
    assert Game.objects.get(pk=colonial.pk).status == Game.Status.ACTIVE


def test_ready_and_history(colonial, russia, moderator):
    c = client_for(russia.user)
    alone = c.get(reverse("game", args=[colonial.pk]), {"phase": "1"})
    assert alone.status_code == 404
    assert "This game has no phase 1; its only phase is 0." in alone.content.decode()
    services.submit_orders(russia, ["A Vladivostok - Seoul", "A Moscow - Vladivostok via TSR"])
    c.post(reverse("ready", args=[colonial.pk]), {"ready": "1", "phase": "0", "confirm": "yes"})
    russia.refresh_from_db()
    assert russia.ready
    services.process_now(colonial, moderator)
    html = assert_html(c.get(reverse("game", args=[colonial.pk]) + "?phase=0"))
    assert "succeeds" in html and "history" in html
    src = re.search(r'data-src="([^"]+)"', html)[1].replace("&amp;", "&")
    assert 'class="order tsr"' in c.get(src).content.decode()  # the railroad arrow
    assert_html(c.get(reverse("game", args=[colonial.pk])))
    # A phase the game lacks (a typo, a link to a phase undone by a rollback) says so, and
    # links back to the game.
    for asked in ("9", "abc", "-1", "1e3", ""):
        missing = c.get(reverse("game", args=[colonial.pk]), {"phase": asked})
        assert missing.status_code == 404, asked
        said = missing.content.decode()
        assert "This game has no phase" in said and "its phases are 0 to 1" in said, asked
        assert f'href="{reverse("game", args=[colonial.pk])}"' in said
    # What was asked is shown as typed, not as Python writes a string: a number bare, anything
    # else in quotes, what cannot be printed replaced.
    for asked, shown in (
        ("9", "phase 9;"),
        ("abc", "phase \u201cabc\u201d;"),
        ("a\x07b", "\u201ca\ufffdb\u201d"),
    ):
        said = c.get(reverse("game", args=[colonial.pk]), {"phase": asked}).content.decode()
        assert shown in said and "&#x27;" not in said, asked


def test_press_threads_and_unread(colonial, russia, seat):
    china = seat(colonial, "China")
    r, ch = client_for(russia.user), client_for(china.user)
    r.post(
        reverse("send-press", args=[colonial.pk]),
        {"phase": "0", "body": "Peace in Manchuria?", "recipients": ["China"]},
    )
    r.post(reverse("send-press", args=[colonial.pk]), {"phase": "0", "body": "Hello all"})
    assert Message.objects.filter(game=colonial).count() == 2
    html = assert_html(ch.get(reverse("game", args=[colonial.pk]) + "?thread=public"))
    assert 'class="unread"' in html and "China, Russia" in html
    html = assert_html(ch.get(reverse("game", args=[colonial.pk]) + "?thread=China|Russia"))
    assert "Peace in Manchuria?" in html
    britain = seat(colonial, "Britain")
    html = assert_html(client_for(britain.user).get(reverse("game", args=[colonial.pk])))
    assert "Peace in Manchuria?" not in html and "Hello all" in html


def test_a_players_game_page_reads_each_thing_once(colonial, russia, seat) -> None:
    """The page reads the game, its seats and its phases once each (not once per question
    asked of them), and a thread already read is not marked read again."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    services.send_message(colonial, seat(colonial, "China").user, "Hello all")
    c = client_for(russia.user)
    assert_html(c.get(reverse("game", args=[colonial.pk])))  # marks the public thread read
    with CaptureQueriesContext(connection) as queries:
        html = assert_html(c.get(reverse("game", args=[colonial.pk])))
    assert "Hello all" in html and 'class="unread"' not in html
    sql = [q["sql"] for q in queries.captured_queries]
    # session, user, game, seats, phases, 2 x permissions, settings, orders, read markers,
    # press, the latest message's id, powers with orders, the player's standing vote:
    # nothing written.
    assert len(sql) <= 14, "\n".join(sql)
    assert not [q for q in sql if q.startswith(("INSERT", "UPDATE", "DELETE"))]
    for table in ("games_game", "games_membership", "games_phase"):
        assert sum(f'FROM "{table}"' in q for q in sql) == 1, table


def test_moderator_console(colonial, moderator):
    c = client_for(moderator)
    html = assert_html(c.get(reverse("moderate", args=[colonial.pk])))
    for action in ("deadline", "pause", "process", "end"):
        assert reverse("moderate-action", args=[colonial.pk, action]) in html
    url = reverse("moderate-action", args=[colonial.pk, "deadline"])
    assert "Yes, deadline" in assert_html(c.post(url, {"minutes": "30", "phase": "0"}))
    c.post(url, {"minutes": "30", "phase": "0", "confirm": "yes"})
    c.post(reverse("moderate-action", args=[colonial.pk, "pause"]), {"confirm": "yes"})
    assert Game.objects.get(pk=colonial.pk).status == Game.Status.PAUSED
    c.post(reverse("moderate-action", args=[colonial.pk, "remove"]), {"confirm": "yes"})  # no power
    html = assert_html(c.get(reverse("moderate", args=[colonial.pk])))
    assert (
        "Paused the clock" in html  # the audit log, in words
        and ModeratorAction.objects.filter(game=colonial, action="deadline").exists()
    )


def test_variant_page(client, db):
    html = assert_html(client.get(reverse("variant", args=["colonial"])))
    assert "Trans-Siberian" in html and 'id="board-svg"' in html and "Britain" in html
    assert client.get(reverse("variant", args=["nowhere"])).status_code == 404


def test_settings_palette_and_time_zone(colonial, russia):
    c = client_for(russia.user)
    assert "csrfmiddlewaretoken" in assert_html(c.get(reverse("account-settings")))
    response = c.post(
        reverse("account-settings"),
        {"phase_processed": "on", "time_zone": "Asia/Tokyo", "palette": "colour-blind"},
    )
    assert response.status_code == 302
    assert not response.cookies.keys() & {"gg_tz", "gg_palette"}  # nothing kept in the browser
    prefs = NotificationSettings.of(russia.user)
    assert prefs.phase_processed and not prefs.deadline_reminders and not prefs.press_digest
    assert (prefs.time_zone, prefs.palette) == ("Asia/Tokyo", "colour-blind")
    # Another browser: a fresh client with no cookies but the session's sees the same choices.
    other = client_for(russia.user)
    html = assert_html(other.get(reverse("game", args=[colonial.pk])))
    assert "UTC+9" in html  # the deadline in the viewer's time zone (games.when)
    assert power_colours("colonial", "colour-blind")["Russia"] in html  # the colour-blind palette
    form = assert_html(other.get(reverse("account-settings")))
    assert '<option value="Asia/Tokyo" selected>' in form
    assert '<option value="colour-blind" selected>' in form


def test_settings_page_sets_changes_and_clears_the_email_address(russia):
    """The settings page had mail toggles but no address: a player who signed up without one
    could never be mailed. The address is in the form, checked, and may be cleared."""
    user = russia.user
    c = client_for(user)
    form = {"time_zone": "UTC", "palette": "default", "phase_processed": "on"}
    html = assert_html(c.get(reverse("account-settings")))
    assert 'name="email"' in html and 'type="email"' in html
    assert (
        c.post(reverse("account-settings"), {**form, "email": "me@Example.org"}).status_code == 302
    )
    user.refresh_from_db()
    assert user.email == "me@example.org"
    assert 'value="me@example.org"' in assert_html(c.get(reverse("account-settings")))
    refused = c.post(reverse("account-settings"), {**form, "email": "not an address"})
    assert refused.status_code == 200 and 'name="email"' in refused.content.decode()
    user.refresh_from_db()
    assert user.email == "me@example.org"
    assert c.post(reverse("account-settings"), form).status_code == 302  # left out: kept
    user.refresh_from_db()
    assert user.email == "me@example.org"
    assert c.post(reverse("account-settings"), {**form, "email": ""}).status_code == 302
    user.refresh_from_db()
    assert user.email == ""


def test_settings_reject_an_unknown_time_zone(russia):
    c = client_for(russia.user)
    response = c.post(
        reverse("account-settings"), {"time_zone": "Mars/Olympus", "palette": "default"}
    )
    assert response.status_code == 200 and "Mars/Olympus" in response.content.decode()
    assert NotificationSettings.of(russia.user).time_zone == "UTC"


def test_anonymous_visitors_get_the_default_palette(colonial, russia, client):
    """Display settings belong to an account; a visitor who is not signed in gets defaults."""
    prefs = NotificationSettings.of(russia.user)
    prefs.time_zone, prefs.palette = "Asia/Tokyo", "colour-blind"
    prefs.save()
    html = assert_html(client.get(reverse("variant", args=["colonial"])))
    assert power_colours("colonial", "colour-blind")["Russia"] not in html


def test_cancelled_game_page(make_user, moderator):
    game = services.create_game(moderator, name="Never played", variant="colonial")
    services.end_game(game, moderator)
    html = assert_html(client_for(make_user("ada")).get(reverse("game", args=[game.pk])))
    assert "Cancelled before it started" in html and 'name="first"' not in html


# -- Chinese Diplomacy's gold --------------------------------------------------------------


@pytest.fixture
def chinese(make_game):
    return make_game("chinese")


def test_chinese_page_shows_gold_and_published_faction_orders(chinese, seat):
    assert "Imperials" not in services.engine.powers(chinese)
    england = seat(chinese, "England")
    phase = chinese.current_phase
    carried = dict(phase.carried)
    carried["faction_orders"] = [
        *carried["faction_orders"],
        {"power": "Kuomintang", "order": "A Kweichow H", "action": "Sta", "published": True},
        {"power": "Kuomintang", "order": "A Hunan H", "action": "Sta", "published": False},
        {"power": "Communists", "order": "A Kiangsi H", "action": "Sta", "published": True},
    ]
    phase.carried = carried
    phase.save(update_fields=["carried"])
    imperial = next(o["order"] for o in carried["faction_orders"] if o["power"] == "Imperials")
    html = assert_html(client_for(england.user).get(reverse("game", args=[chinese.pk])))
    assert 'id="gold"' in html and "Balances, 1900" in html
    assert imperial in html  # the Imperials' published orders
    assert "A Kweichow H" in html  # the Kuomintang's, once published
    assert "A Hunan H" not in html and "A Kiangsi H" not in html
    assert reverse("pay", args=[chinese.pk]) in html and 'name="amount"' in html


def test_a_played_chinese_year_shows_the_factions_orders_and_events(chinese, seat, moderator):
    """Found by an adversary: the API's results held the Imperials' orders and their results
    and the year's faction events; the page's history only the great powers' orders, so a
    bounce against an Imperial army made no sense there."""
    services.process_now(chinese, moderator)
    played = chinese.phases.get(index=0)
    replies = [o for o in played.results["orders"] if o["power"] == "Imperials"]
    assert replies
    # Nobody took an Imperial centre in 1900, so none was removed: the engine's events as it
    # writes them when the Imperials shrink and a faction builds on a great power's army.
    played.results["factions"]["events"] = [
        {"faction": "Imperials", "event": "removed", "location": "Shansi"},
        {"faction": "Kuomintang", "event": "annihilated", "location": "Hunan", "power": "Japan"},
    ]
    played.save(update_fields=["results"])
    html = assert_html(
        client_for(seat(chinese, "Japan").user).get(
            reverse("game", args=[chinese.pk]), {"phase": 0}
        )
    )
    history = html[html.index('id="order-status"') :]
    for reply in replies:
        line = f'<span class="power-tag">Imperials</span> {reply["canonical"] or reply["order"]}'
        assert line in history, line
    said = history.split("The factions:", 1)[1].split("</p>")[0]
    assert said == (
        " Imperials army in Shansi removed; Japan army in Hunan annihilated by the Kuomintang."
    )


def test_a_railroad_ride_stopped_short_says_where_on_the_page(colonial, russia, moderator):
    """Found by an adversary: the API said where a blocked railroad ride stopped
    (``stopped_at``); the page only that it stopped."""
    phase = colonial.current_phase
    phase.units = [
        u for u in phase.units if u["location"] not in ("Irkutsk", "Omsk", "Akmolinsk")
    ] + [{"power": "China", "unit": "A", "location": "Irkutsk"}]
    phase.save(update_fields=["units"])
    services.submit_orders(russia, ["A Moscow - Irkutsk via TSR"])
    services.process_now(colonial, moderator)
    order = colonial.phases.get(index=0).orders.get(power="Russia")
    assert order.result == "stopped" and order.stopped_at
    html = assert_html(
        client_for(russia.user).get(reverse("game", args=[colonial.pk]), {"phase": 0})
    )
    assert f"<strong>stopped</strong> at {order.stopped_at}:" in html


def test_payment_through_the_page(chinese, seat, make_user):
    england = seat(chinese, "England")
    c = client_for(england.user)
    url = reverse("pay", args=[chinese.pk])
    assert c.get(url).status_code == 405
    response = c.post(url, {"to": "Russia", "amount": "30", "phase": "0"})
    assert response.status_code == 302
    payment = Payment.objects.get(game=chinese)
    assert (payment.payer, payment.payee, payment.amount) == ("England", "Russia", 30)
    russia = client_for(seat(chinese, "Russia").user)
    html = assert_html(russia.get(reverse("game", args=[chinese.pk])))
    assert "England pays Russia <strong>30</strong> k oz" in html
    # The form says before the first payment that it is final and that debt is allowed (seed
    # 003, rule 6), up to the limit that deposes.
    help_text = re.search(r'<small class="help" id="pay-help">(.*?)</small>', html)[1]
    assert "cannot be taken back" in help_text and "may go into debt" in help_text
    assert "-1,000" in help_text
    # Invalid amounts and payees are refused with a message; nothing is recorded.
    html = assert_html(c.post(url, {"to": "Russia", "amount": "0", "phase": "0"}, follow=True))
    assert "Amount (k oz): Ensure this value is greater than or equal to 1." in html
    html = assert_html(c.post(url, {"to": "Russia", "amount": "many", "phase": "0"}, follow=True))
    assert "Amount (k oz): Enter a whole number." in html
    html = assert_html(c.post(url, {"to": "England", "amount": "5", "phase": "0"}, follow=True))
    assert "England is not one of the available choices" in html
    assert Payment.objects.filter(game=chinese).count() == 1
    # Only players may pay.
    stranger = client_for(make_user("stranger"))
    assert stranger.post(url, {"to": "Russia", "amount": "5"}).status_code == 403
    assert "pay-form" not in assert_html(stranger.get(reverse("game", args=[chinese.pk])))


def test_a_payer_sees_the_balance_after_its_payments_and_is_warned_past_the_limit(chinese, seat):
    """Found by an adversary: England paid Japan 30, 30 and then 1,000 (a number box's "1e3")
    and learned only from the year's statement that it was deposed: the page showed the
    balance at the year's start and each payment said only "Paid". The panel gives the
    balance after the year's payments, and a payment that takes it below the limit that
    deposes (seed 003, rule 6: more than 1,000 lost) says so; paying stays allowed."""
    c = client_for(seat(chinese, "England").user)
    url, page = reverse("pay", args=[chinese.pk]), reverse("game", args=[chinese.pk])
    for amount in ("30", "30"):
        said = assert_html(
            c.post(url, {"to": "Japan", "amount": amount, "phase": "0"}, follow=True)
        )
        assert "deposes" not in said
    assert (
        "England after this year's payments, yours and those to you: <strong>-60</strong> k oz"
        in said
    )
    said = assert_html(c.post(url, {"to": "Japan", "amount": "1e3", "phase": "0"}, follow=True))
    assert "Paid Japan 1000 k oz." in said
    assert (
        "After this year&#x27;s payments, to it and from it, England stands at -1,060 k oz, "
        "before the year&#x27;s income and costs: a balance below -1,000 at the year&#x27;s end "
        "deposes its leader."
    ) in said
    html = assert_html(c.get(page))
    assert "<strong>-1060</strong> k oz" in html
    assert "A balance below -1,000 at the year's end deposes you." in html
    assert Payment.objects.filter(game=chinese, payer="England").count() == 3
    # Japan, paid, sees the payments to it listed, and counted in its figure (found by an
    # adversary: warned of deposition with 100,000 paid to it, it ended the year in credit).
    japan = client_for(seat(chinese, "Japan").user)
    html = assert_html(japan.get(page))
    assert "Japan after this year's payments, yours and those to you: <strong>1060</strong>" in html
    said = assert_html(
        japan.post(url, {"to": "France", "amount": "2000", "phase": "0"}, follow=True)
    )
    assert "deposes its leader" not in said and "<strong>-940</strong>" in said


def test_a_payment_form_of_a_phase_since_processed_pays_nothing(chinese, seat, api):
    """The payment form sends the phase it was shown in: sent after that phase was processed
    it pays nothing in the next one, and says so; a form naming no phase is an old page's.
    The API's phase is optional, but null is no phase (400)."""
    england = seat(chinese, "England")
    c = client_for(england.user)
    html = assert_html(c.get(reverse("game", args=[chinese.pk])))
    form = html[html.index('class="pay-form"') :]
    assert 'name="phase" value="0"' in form[: form.index("</form>")]
    assert services.process_phase(chinese.pk, chinese.current_phase_id, force=True)
    url = reverse("pay", args=[chinese.pk])
    html = assert_html(c.post(url, {"to": "Russia", "amount": "30", "phase": "0"}, follow=True))
    assert "nothing was paid" in html
    assert_html(c.post(url, {"to": "Russia", "amount": "30"}, follow=True))
    assert not Payment.objects.filter(game=chinese).exists()
    payments = f"/api/games/{chinese.pk}/payments/"
    null = api(england.user).post(
        payments, {"to": "Russia", "amount": 5, "phase": None}, format="json"
    )
    assert null.status_code == 400 and "Null names no phase" in null.json()["phase"][0]
    assert not Payment.objects.filter(game=chinese).exists()
    c.post(url, {"to": "Russia", "amount": "30", "phase": "1"})
    assert Payment.objects.get(game=chinese).amount == 30


def test_statement_after_processing(chinese, seat):
    england = seat(chinese, "England")
    services.submit_orders(england, ["Enter A Pacific Ocean"])
    services.pay(england, "Russia", 30)
    phase = chinese.current_phase
    assert services.process_phase(chinese.pk, phase.pk, force=True)
    c = client_for(england.user)
    html = assert_html(c.get(reverse("game", args=[chinese.pk]) + "?phase=0"))
    assert "Statement for 1900" in html
    assert "entry" in html and "maintenance" in html and "to Russia" in html
    html = assert_html(c.get(reverse("game", args=[chinese.pk])))
    assert "Balances, 1901" in html and "Statement for" not in html


def test_a_deposed_powers_statement_totals_its_year_not_its_reset(chinese, seat):
    """Seed 003, rule 6: the statement is the year's profit and loss. A leader deposed from
    -990 after losing 215 k oz had "Total 990": the line putting the power back at zero for
    its new leader was summed in as if it were a profit. The total is the year's own lines;
    the deposition and the balance it leaves follow it."""
    england = seat(chinese, "England")
    phase = chinese.current_phase
    phase.carried["economy"]["balances"]["England"] = -990
    phase.save(update_fields=["carried"])
    services.submit_orders(england, ["Enter A Pacific Ocean"])
    services.pay(england, "Russia", 200)
    assert services.process_phase(chinese.pk, phase.pk, force=True)
    c = client_for(seat(chinese, "Russia").user)
    html = assert_html(c.get(reverse("game", args=[chinese.pk]) + "?phase=0"))
    table = html[html.index("England <small>(deposed)</small>") :]
    table = table[: table.index("</table>")]
    foot = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", table[table.index("<tfoot>") :]))
    assert foot.split() == ["Total", "-215", "deposed", "new", "leader", "1205", "Balance", "0"]
    russia = html[html.index("<caption>Russia") :]
    russia = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", russia[: russia.index("</table>")]))
    assert "Total 200 Balance 200" in russia


def test_a_game_without_gold_shows_none_of_it(colonial, russia):
    """Colonial stands in for a standard game: the standard map has no board drawing."""
    c = client_for(russia.user)
    html = assert_html(c.get(reverse("game", args=[colonial.pk])))
    assert 'id="gold"' not in html and "k oz" not in html and "pay-form" not in html
    response = c.post(
        reverse("pay", args=[colonial.pk]), {"to": "China", "amount": "5", "phase": "0"}
    )
    html = assert_html(c.get(response.url))
    assert "there is no gold in this variant" in html
    assert not Payment.objects.filter(game=colonial).exists()


def test_a_map_without_a_board_drawing_is_played_by_text(client, make_game, seat):
    """The standard map has no board drawing: the page says so and keeps the orders box."""
    game = make_game("standard")
    client.force_login(seat(game, "France").user)
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "no board drawing" in page
    assert 'name="orders"' in page


def _new_game_form(**fields) -> dict:
    """The New game form as a browser posts it, a Colonial game, with ``fields`` changed."""
    return {
        "variant": "colonial",
        "movement_minutes": 1440,
        "retreats_minutes": 720,
        "adjustments_minutes": 720,
        "press": "full",
        "civil_disorder_after": 2,
        **fields,
    }


def test_a_new_game_form_sent_twice_makes_one_game(client, make_user):
    """A double click on Create game (or a reload of its post) had made two games."""
    from games.models import Game

    client.force_login(make_user("host"))
    page = client.get(reverse("create-game")).content.decode()
    once = re.search(r'name="once" value="([^"]+)"', page).group(1)
    form = _new_game_form(name="Twice", once=once)
    first, second = (
        client.post(reverse("create-game"), form),
        client.post(reverse("create-game"), form),
    )
    assert Game.objects.filter(name="Twice").count() == 1
    game = Game.objects.get(name="Twice")
    assert first.url == second.url == reverse("game", args=[game.pk])
    # Another showing of the form is another game.
    again = client.get(reverse("create-game")).content.decode()
    form["once"] = re.search(r'name="once" value="([^"]+)"', again).group(1)
    client.post(reverse("create-game"), form)
    assert Game.objects.filter(name="Twice").count() == 2


def test_a_new_game_form_refused_may_be_sent_again_fixed(client, make_user):
    client.force_login(make_user("host"))
    form = _new_game_form(name="Fixed", once="k1", victory_centers=70)
    refused = client.post(reverse("create-game"), form)
    assert refused.status_code == 200  # refused, shown again
    # Beside the field, in words (an adversary's finding: "victory_centers: must be at most
    # 58" at the form's top, the field below the fold).
    assert refused.context["form"].errors["victory_centers"] == [
        "Colonial Diplomacy has 58 supply centres: at most 58."
    ]
    assert "victory_centers:" not in refused.content.decode()
    form["victory_centers"] = 30
    assert client.post(reverse("create-game"), form).status_code == 302


def test_a_new_game_form_with_a_long_or_edited_once_still_answers(client, make_user):
    """A forged 65-character ``once`` was refused with an error no page showed; a form sent
    again with other settings lands on the game it made, and says so."""
    from games.models import Game

    client.force_login(make_user("host"))
    form = _new_game_form(name="Long", once="x" * 65)
    first = client.post(reverse("create-game"), form)
    assert first.status_code == 302 and Game.objects.filter(name="Long").count() == 1
    form["name"] = "Long, edited"
    again = client.post(reverse("create-game"), form, follow=True)
    assert Game.objects.filter(name="Long, edited").count() == 0
    assert "This form had made this game already." in again.content.decode()


@pytest.mark.parametrize("once", ["\x00", "k\x00"])
def test_a_new_game_form_with_a_bad_once_says_so(client, make_user, once):
    """A NUL in the hidden ``once`` refused the form with an error no page showed: a 200 with
    the form as sent and nothing to say why. The hidden field's error shows above the form."""
    from games.models import Game

    client.force_login(make_user("host"))
    answer = client.post(reverse("create-game"), _new_game_form(name="Bad once", once=once))
    assert answer.status_code == 200
    html = answer.content.decode()
    assert 'class="errors" role="alert"' in html and "reload the page" in html
    assert "Null characters are not allowed" in html
    assert not Game.objects.filter(name="Bad once").exists()


def test_the_lobby_asks_no_orders_of_a_game_over(make_game, seat):
    """Found by an adversary: a finished game stayed "Orders: missing" in its players' lobby,
    in the warning colour, for good."""
    game = make_game("standard")
    france = seat(game, "France")
    page = Client()
    page.force_login(france.user)
    lobby = page.get(reverse("lobby")).content.decode()
    assert '<span class="warn">missing</span>' in lobby
    services.end_game(game, game.creator)
    lobby = page.get(reverse("lobby")).content.decode()
    assert '<span class="warn">missing</span>' not in lobby and "nothing to order" in lobby


def test_a_past_phases_page_counts_that_phase_in_the_powers_table(make_game, seat, moderator):
    """Found by an adversary: the history's page showed today's powers' table beside the old
    board: today's centres and units, the orders in and Ready of the current phase."""
    import re

    from django.test import Client

    from games import services

    game = make_game("standard")
    russia = seat(game, "Russia")
    services.submit_orders(russia, ["A Moscow - Ukraine"])
    services.process_now(game, moderator)
    services.set_ready(seat(game, "England"))
    page = Client()
    page.force_login(russia.user)

    def row(html: str, power: str) -> str:
        return re.search(rf'<tr data-power="{power}">.*?</tr>', html, re.S).group(0)

    now = page.get(f"/games/{game.pk}/").content.decode()
    assert 'class="orders-in"></td>' in row(now, "Russia")  # no orders yet this phase
    assert 'class="ready">yes' in row(now, "England")
    assert "the players are today" not in now
    then = page.get(f"/games/{game.pk}/?phase=0").content.decode()
    assert 'class="orders-in">in</td>' in row(then, "Russia")
    assert 'class="ready"></td>' in row(then, "England")
    assert "the players are today" in then


def test_a_past_phases_table_counts_what_its_board_shows(colonial, russia, moderator):
    """Found by an adversary: beside a past phase's board, whose legend counts the units and
    centres the phase began with, the powers' table counted those it ended with (one centre
    more in the table than in the legend, for the Fall that took Seoul)."""
    services.submit_orders(russia, ["A Vladivostok - Seoul"])
    services.process_now(colonial, moderator)
    services.submit_orders(russia, ["A Seoul H"])
    services.process_now(colonial, moderator)  # Fall 1870: Russia takes Seoul
    page = client_for(russia.user)

    def table(html: str) -> tuple[int, int]:
        row = re.search(r'<tr data-power="Russia">.*?</tr>', html, re.S).group(0)
        found = re.search(r'"centres">(\d+)</span> / <span class="units">(\d+)<', row)
        return int(found.group(1)), int(found.group(2))

    fall = colonial.phases.get(season="fall", type="movement").index
    then = table(page.get(reverse("game", args=[colonial.pk]), {"phase": fall}).content.decode())
    svg = page.get(reverse("board", args=[colonial.pk]), {"phase": fall}).content.decode()
    legend = re.search(
        r'class="legend-power" data-power="Russia">.*?>(\d+) / (\d+)</text></g>', svg, re.S
    )
    assert then == (int(legend.group(1)), int(legend.group(2)))
    now = table(page.get(reverse("game", args=[colonial.pk])).content.decode())
    assert now == (then[0] + 1, then[1]), (then, now)


def test_a_refused_payment_comes_back_in_its_form_and_a_number_box_exponent_pays(chinese, seat):
    """Found by an adversary: "1e3", which the number box takes as 1000, was refused as not a
    whole number, and the form came back empty with the payee reset."""
    england = seat(chinese, "England")
    c = client_for(england.user)
    url = reverse("pay", args=[chinese.pk])
    html = assert_html(c.post(url, {"to": "Russia", "amount": "0", "phase": "0"}, follow=True))
    assert "Ensure this value is greater than or equal to 1." in html
    assert re.search(r'<option value="Russia" selected>', html)
    assert re.search(r'name="amount" value="0"', html)
    again = assert_html(c.get(reverse("game", args=[chinese.pk])))
    assert not re.search(r'<option value="Russia" selected>', again)  # given back once
    assert c.post(url, {"to": "Russia", "amount": "1e3", "phase": "0"}).status_code == 302
    assert Payment.objects.get(game=chinese).amount == 1000
    html = assert_html(c.post(url, {"to": "Russia", "amount": "1.5e1", "phase": "0"}, follow=True))
    assert "Enter a whole number." not in html  # 15: whole, and paid
    html = assert_html(c.post(url, {"to": "Russia", "amount": "1.25", "phase": "0"}, follow=True))
    assert "Amount (k oz): Enter a whole number." in html
    paid = Payment.objects.filter(game=chinese).values_list("amount", flat=True)
    assert sorted(paid) == [15, 1000]


def test_what_the_orders_form_said_stands_beside_it(colonial, russia) -> None:
    """An adversary's finding: without JavaScript, a refused save went back to the page's
    orders panel (``#orders``) while its reason stood at the page's top, off the screen."""
    c = client_for(russia.user)
    index = colonial.current_phase.index
    long = "A Moscow H\n" + "A Omsk H " + "x" * 220
    c.post(reverse("submit-orders", args=[colonial.pk]), {"orders": long, "phase": index})
    html = assert_html(c.get(reverse("game", args=[colonial.pk])))
    said = "Order 2 is longer than 200 characters. Nothing was saved."
    beside = html[html.index('id="orders-said"') : html.index('id="orders-form"')]
    assert said in beside
    assert html.count(said) == 1  # not at the top as well
    assert "x" * 220 in html  # the text is back in the box
    c.post(reverse("submit-orders", args=[colonial.pk]), {"orders": "A Moscow H", "phase": index})
    html = assert_html(c.get(reverse("game", args=[colonial.pk])))
    assert "Orders saved." in html[html.index('id="orders-said"') : html.index('id="orders-form"')]


def test_a_forming_games_console_offers_end_without_a_phase_or_a_winner(moderator) -> None:
    """An adversary's finding: End's box read "Phase ; if another phase is current..." and
    offered a winner for a game that End cancels."""
    forming = services.create_game(moderator, name="Forming", variant="standard")
    html = assert_html(client_for(moderator).get(reverse("moderate", args=[forming.pk])))
    assert "Phase ;" not in html
    assert 'name="winner"' not in html
    assert reverse("moderate-action", args=[forming.pk, "end"]) in html


def test_a_power_with_nothing_to_order_is_not_asked_to_order(colonial, russia, seat, moderator):
    """Found by an adversary: in a retreat phase only China's army has to retreat, yet
    Turkey's page said "Click one of your units" above "Turkey has nothing to order this
    phase.", with an order box, Save orders and a Ready that nothing waited for. Only the
    note now; China's page has all it needs."""
    services.submit_orders(
        russia, ["A Vladivostok - Manchuria", "F Port Arthur S A Vladivostok - Manchuria"]
    )
    services.process_now(colonial, moderator)
    colonial.refresh_from_db()
    assert colonial.current_phase.type == "retreats"
    assert [u["power"] for u in colonial.current_phase.dislodged] == ["China"]
    turkey = assert_html(client_for(seat(colonial, "Turkey").user).get(f"/games/{colonial.pk}/"))
    assert "Turkey has nothing to order this phase." in turkey
    for part in ('id="orders-form"', 'id="ready-button"', 'id="board-data"', 'id="order-menu"'):
        assert part not in turkey, part
    china = assert_html(client_for(seat(colonial, "China").user).get(f"/games/{colonial.pk}/"))
    for part in ('id="orders-form"', 'id="ready-button"', 'id="board-data"', 'id="order-menu"'):
        assert part in china, part
    assert "Without orders: A Manchuria." in china


@pytest.mark.parametrize(
    "minutes, said",
    [
        (10080, "7 days"),
        (2160, "1 day 12 hours"),
        (1440, "1 day"),
        (720, "12 hours"),
        (90, "90 minutes"),
        (5, "5 minutes"),
        (1470, "1 day 30 minutes"),
    ],
)
def test_a_phase_length_is_said_in_days_and_hours(minutes: int, said: str) -> None:
    from games.web import length_words

    assert length_words(minutes) == said


def test_the_game_page_says_its_phase_lengths_as_people_do(colonial, russia):
    """The options table said "10080 minutes" for a week (a reader on a phone saw it wrap)."""
    Game.objects.filter(pk=colonial.pk).update(movement_minutes=10080, retreats_minutes=2160)
    html = assert_html(client_for(russia.user).get(reverse("game", args=[colonial.pk])))
    assert "7 days" in html and "1 day 12 hours" in html and "10080" not in html


def test_taking_over_a_bots_power_says_so(make_game, make_user, moderator):
    """The take-over came back to the game page with nothing said: a stranger could not tell
    whether it had worked (the page had scrolled; the orders box was further down)."""
    game = make_game("standard")
    services.set_bot(game, moderator, "Italy", True)
    c = client_for(make_user("newcomer"))
    sure = {"take_over": "italy", "confirm": "yes"}
    html = c.post(reverse("join", args=[game.pk]), sure, follow=True)
    assert "You play Italy now." in assert_html(html)
    again = c.post(reverse("join", args=[game.pk]), {"take_over": "Italy"}, follow=True)
    assert "You play Italy now." not in again.content.decode()
    assert "already in this game" in again.content.decode()


def test_a_take_over_is_confirmed_first(make_game, make_user, moderator):
    """Found by an adversary: one click on "Take over" seated a stranger in a running game for
    good (a running game cannot be left). The page asks first, saying so; nothing is done
    until the player confirms, and a take-over that would be refused is refused at once."""
    game = make_game("standard")
    services.set_bot(game, moderator, "Italy", True)
    c = client_for(make_user("newcomer"))
    logged = game.moderator_actions.count()
    asked = c.post(reverse("join", args=[game.pk]), {"take_over": "italy"})
    html = assert_html(asked)
    assert asked.status_code == 200 and 'id="take-over-confirm"' in html
    assert "Take over Italy?" in html and "cannot be left" in html
    assert 'name="take_over" value="Italy"' in html and 'name="confirm" value="yes"' in html
    italy = game.memberships.get(power="Italy", status=Membership.Status.ACTIVE)
    assert italy.bot  # nothing done yet: the bot still plays, no log, no task
    assert game.moderator_actions.count() == logged
    refused = c.post(reverse("join", args=[game.pk]), {"take_over": "Atlantis"}, follow=True)
    assert 'id="take-over-confirm"' not in refused.content.decode()
    done = c.post(reverse("join", args=[game.pk]), {"take_over": "Italy", "confirm": "yes"})
    assert done.status_code == 302
    assert game.memberships.get(power="Italy", status=Membership.Status.ACTIVE).user.username == (
        "newcomer"
    )
