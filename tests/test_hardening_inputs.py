"""Hostile and careless input (issue #15 items 1, 3 and 4): every way in keeps the same limits,
bad input is a clear 4xx (JSON under /api/) and never a 500, and a "ready" or a moderator's
"process" acts only on the phase it names.

Run on SQLite by default and on PostgreSQL with ``DATABASE_URL``: some of these were 500s on
PostgreSQL only (a NUL in a string, an integer past 2**31, an order line past 200 characters).
"""

from __future__ import annotations

import json
import re
from datetime import UTC, timedelta

import pytest
from django.conf import settings as django_settings
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from rest_framework import serializers
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import engine, limits, services
from games.models import DrawVote, Game, Membership, ModeratorAction, Order

pytestmark = pytest.mark.django_db

HUGE = 2**31  # one past PostgreSQL's integer
HUGER = 10**30  # past every database's integer


def browser(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def token_client(user=None) -> APIClient:
    """An API client that answers a server error as a 500 rather than raising it."""
    client = APIClient(raise_request_exception=False)
    if user is not None:
        client.force_authenticate(user)
    return client


def assert_json_4xx(response, *statuses: int) -> dict:
    """A client error with a JSON body (what every refusal under /api/ must be)."""
    assert response.status_code in (statuses or range(400, 500)), (
        response.status_code,
        response.content[:300],
    )
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    return json.loads(response.content)


def flashed(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


@pytest.fixture
def france(game, seat) -> Membership:
    return seat(game, "France")


# -- 1. the limits on orders hold for every way in ---------------------------------------


def test_the_add_button_refuses_an_order_too_long_rather_than_cutting_it(game, france) -> None:
    """Found by an adversary: the button's order was cut at 200 characters, so the words past
    them were dropped and what was left could be another, legal order (``A Paris - Burgundy``
    saved for ``A Paris - Burgundy`` followed by spaces and ``H H H``)."""
    services.submit_orders(france, ["F Brest - English Channel"])
    text = "A Paris - Burgundy" + " " * 200 + "H H H"
    response = browser(france.user).post(
        reverse("add-order", args=[game.pk]), {"order": text, "phase": "0"}
    )
    assert response.status_code == 302

    def stored() -> list[str]:
        mine = Order.objects.filter(phase=game.current_phase, power="France")
        return [o.text for o in mine.order_by("position")]

    assert stored() == ["F Brest - English Channel"]
    assert any(f"longer than {limits.MAX_ORDER_LENGTH} characters" in m for m in flashed(response))
    # One within the limit is added as before.
    response = browser(france.user).post(
        reverse("add-order", args=[game.pk]), {"order": "A Paris - Burgundy", "phase": "0"}
    )
    assert flashed(response) == ["Added “A Paris - Burgundy” to your orders."]
    assert stored() == ["F Brest - English Channel", "A Paris - Burgundy"]


def test_web_form_refuses_more_orders_than_the_api(game, france) -> None:
    lines = "\n".join(["A Paris H"] * (limits.MAX_ORDERS + 1))
    response = browser(france.user).post(
        reverse("submit-orders", args=[game.pk]), {"orders": lines}
    )
    assert response.status_code == 302
    assert not Order.objects.filter(phase=game.current_phase).exists()
    assert any(f"{limits.MAX_ORDERS}" in m for m in flashed(response))


def test_web_form_refuses_a_line_longer_than_the_api(game, france) -> None:
    line = "A Paris H " + "x" * limits.MAX_ORDER_LENGTH
    response = browser(france.user).post(reverse("submit-orders", args=[game.pk]), {"orders": line})
    assert response.status_code == 302
    assert not Order.objects.filter(phase=game.current_phase).exists()
    assert any(str(limits.MAX_ORDER_LENGTH) in m for m in flashed(response))


def test_web_form_within_the_limits_still_saves(game, france) -> None:
    lines = "\n".join(["A Paris - Burgundy", "A Marseilles H", "", "F Brest - Mid-Atlantic Ocean"])
    response = browser(france.user).post(
        reverse("submit-orders", args=[game.pk]),
        {"orders": lines, "phase": game.current_phase.index},
    )
    assert response.status_code == 302
    assert Order.objects.filter(phase=game.current_phase, power="France").count() == 3


ZERO_WIDTH = ["\u200b", "\u200b\u200d\ufeff", " \u2060\u200c "]


def test_web_form_drops_a_line_of_zero_width_characters_as_an_empty_one(game, france) -> None:
    """Found by an adversary: a line of nothing but zero-width characters (pasted) was stored
    as an invalid order, where an empty line is dropped."""
    lines = "\n".join(["A Paris - Burgundy", *ZERO_WIDTH, "A Marseilles H"])
    response = browser(france.user).post(
        reverse("submit-orders", args=[game.pk]),
        {"orders": lines, "phase": game.current_phase.index},
    )
    assert response.status_code == 302
    saved = Order.objects.filter(phase=game.current_phase, power="France").order_by("position")
    assert [o.text for o in saved] == ["A Paris - Burgundy", "A Marseilles H"]


@pytest.mark.parametrize("path", ["orders/", "orders/check/"])
def test_an_order_of_zero_width_characters_is_dropped_as_an_empty_line(game, france, path):
    """The same through the API, saving and checking alike (the page's box drops such a line
    before it sends, as it drops empty ones; a client that sends it has it dropped here)."""
    client = token_client(france.user)
    send = client.put if path == "orders/" else client.post
    body = {"orders": ["A Paris - Burgundy", *ZERO_WIDTH, "\u200bA Marseilles H"]}
    response = send(f"/api/games/{game.pk}/{path}", body, format="json")
    assert response.status_code == 200, response.content
    assert [(o["text"], o["valid"]) for o in response.json()] == [
        ("A Paris - Burgundy", True),
        ("\u200bA Marseilles H", True),  # an order with one in it is an order
    ]
    stored = Order.objects.filter(phase=game.current_phase, power="France").count()
    assert stored == (2 if path == "orders/" else 0)
    # Alone, they are no orders at all: the PUT deletes the orders, as an empty list does.
    response = send(f"/api/games/{game.pk}/{path}", {"orders": ZERO_WIDTH}, format="json")
    assert response.status_code == 200 and response.json() == []
    assert not Order.objects.filter(phase=game.current_phase, power="France").exists()


def test_web_form_without_its_orders_box_deletes_nothing(game, france) -> None:
    """An empty box deletes the orders; a POST with no box at all deleted them too and said
    "Orders saved." It is refused as an incomplete form, and the orders stay."""
    services.submit_orders(france, ["A Paris H", "A Marseilles H"])
    url = reverse("submit-orders", args=[game.pk])
    for data in ({"phase": game.current_phase.index}, {"phase": "0", "version": ""}):
        response = browser(france.user).post(url, data)
        assert response.status_code == 302
        said = flashed(response)
        assert not any("Orders saved" in m for m in said), said
        assert any("incomplete" in m and "Nothing was saved." in m for m in said), said
        assert Order.objects.filter(phase=game.current_phase, power="France").count() == 2


def test_web_form_without_its_phase_says_it_is_incomplete(game, france) -> None:
    """Not "loaded for a phase that has been processed since": nothing was processed."""
    client = browser(france.user)
    response = client.post(reverse("submit-orders", args=[game.pk]), {"orders": "A Paris H"})
    assert response.status_code == 302
    said = flashed(response)
    assert not any("processed since" in m for m in said), said
    assert any("incomplete" in m and "Nothing was saved." in m for m in said), said
    assert not Order.objects.filter(phase=game.current_phase).exists()
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "A Paris H</textarea>" in page  # the text comes back to be sent again


def test_the_sandbox_form_without_its_orders_box_deletes_nothing(make_user) -> None:
    ada = make_user("ada")
    client = browser(ada)
    client.post(reverse("sandbox-new"), {"variant": "colonial"})
    game = Game.objects.get(sandbox=True)
    url = reverse("sandbox-orders", args=[game.pk])
    client.post(url, {"power": "Britain", "orders": "F Bombay H", "phase": 0})
    assert Order.objects.filter(phase__game=game, power="Britain").count() == 1
    response = client.post(url, {"power": "Britain", "phase": 0})
    said = flashed(response)
    assert any("incomplete" in m and "Nothing was saved." in m for m in said), said
    assert Order.objects.filter(phase__game=game, power="Britain").count() == 1


@pytest.mark.parametrize("hostile", ["\x00", "Narnia", "draw\x00", "France", "concede:England"])
def test_the_vote_form_takes_only_what_the_page_offers(game, france, hostile) -> None:
    """Any value but "draw" was a power to concede to, repeated back raw in the message
    ("\x00 is not a surviving power"). Only the page's choices are taken (none, a draw, a
    power other than the voter's), and what was sent is never repeated back."""
    client = browser(france.user)
    url = reverse("vote", args=[game.pk])
    response = client.post(url, {"vote": hostile})
    assert response.status_code == 302
    said = flashed(response)
    assert said and all(hostile not in m and "\x00" not in m for m in said), said
    assert any("reload the page" in m for m in said), said
    assert not DrawVote.objects.filter(game=game).exists()


def test_the_vote_form_still_votes_and_withdraws(game, france) -> None:
    client = browser(france.user)
    url = reverse("vote", args=[game.pk])
    client.post(url, {"vote": "England"})
    assert DrawVote.objects.get(game=game, power="France").concede_to == "England"
    client.post(url, {"vote": "draw"})
    assert DrawVote.objects.get(game=game, power="France").concede_to == ""
    refused = client.post(url, {})  # the page's select always sends a value
    assert any("incomplete" in m for m in flashed(refused))
    assert DrawVote.objects.filter(game=game, power="France").exists()
    client.post(url, {"vote": ""})
    assert not DrawVote.objects.filter(game=game).exists()


def test_the_vote_that_ends_the_game_says_so_and_the_page_stops_taking_orders(
    game, france, seat
) -> None:
    """An adversary's finding: the last vote needed said the vote "stays until you change or
    withdraw it", and the finished game's page still offered the orders box and Ready."""
    for power in engine.powers(game):
        if power != "France":
            services.vote(seat(game, power), draw=True)
    client = browser(france.user)
    page = reverse("game", args=[game.pk])
    assert 'id="orders-form"' in client.get(page).content.decode()
    response = client.post(reverse("vote", args=[game.pk]), {"vote": "draw"})
    assert response["Location"] == page
    assert flashed(response) == ["Your vote ended the game."]
    html = client.get(page).content.decode()
    assert 'id="orders-form"' not in html and 'id="board-data"' not in html
    assert 'id="vote-form"' not in html


def _vote_shown(html: str) -> str:
    """The option the page's vote menu has chosen, and the line beside it."""
    form = html[html.index('id="vote-form"') :]
    form = form[: form.index("</form>")]
    chosen = re.search(r'<option value="([^"]*)" selected>', form)
    standing = re.search(r'class="help vote-standing">([^<]*)<', form).group(1)
    return f"{chosen.group(1) if chosen else ''}|{standing}"


def test_a_vote_says_it_was_taken_and_the_menu_shows_it(game, france) -> None:
    """An adversary's finding: voting reloaded the page with no word, the menu back on "no
    vote", so that pressing Vote again withdrew the vote unseen."""
    client = browser(france.user)
    url, page = reverse("vote", args=[game.pk]), reverse("game", args=[game.pk])
    assert _vote_shown(client.get(page).content.decode()) == "|You have no vote now."
    response = client.post(url, {"vote": "draw"})
    assert response["Location"].endswith("#vote")
    assert flashed(response) == ["Your vote: a draw. It stays until you change or withdraw it."]
    assert _vote_shown(client.get(page).content.decode()) == "draw|Your vote now: a draw."
    said = flashed(client.post(url, {"vote": "England"}))
    assert said == ["Your vote: to concede to England. It stays until you change or withdraw it."]
    shown = _vote_shown(client.get(page).content.decode())
    assert shown == "England|Your vote now: to concede to England."
    assert flashed(client.post(url, {"vote": ""})) == ["You have no vote standing."]
    assert _vote_shown(client.get(page).content.decode()) == "|You have no vote now."


def _said(html: str) -> dict[str, list[str]]:
    """The messages a page shows, by where: the list at the top, and beside each form."""
    out = {}
    for where in ("top", "vote-said", "gold-said", "orders-said"):
        start = (
            html.find('<ul class="messages" role="status">')
            if where == "top"
            else html.find(f'id="{where}"')
        )
        if start < 0:
            continue
        block = html[start : html.index("</ul>", start)]
        out[where] = re.findall(r'<li class="\w+">([^<]*)</li>', block)
    return out


def test_a_vote_and_a_payment_are_answered_beside_their_forms(
    game, france, make_game, seat
) -> None:
    """An adversary's finding: on a phone the answer to a vote or a payment stood in the
    messages at the top of the page, some 2,400 px above the form it answered (the page came
    back at the form). They stand beside the form now, as the orders form's do; a message
    of another form still goes at the top."""
    client = browser(france.user)
    page = client.post(reverse("vote", args=[game.pk]), {"vote": "draw"}, follow=True)
    said = _said(page.content.decode())
    assert said.get("vote-said") == ["Your vote: a draw. It stays until you change or withdraw it."]
    assert not said.get("top"), said
    chinese = make_game("chinese")
    japan = seat(chinese, "Japan")
    client = browser(japan.user)
    form = {"to": "France", "amount": "0", "phase": "0", "key": "k1"}
    page = client.post(reverse("pay", args=[chinese.pk]), form, follow=True)
    said = _said(page.content.decode())
    assert said.get("gold-said") == [
        "Amount (k oz): Ensure this value is greater than or equal to 1."
    ], said
    assert not said.get("top"), said
    page = client.post(reverse("pay", args=[chinese.pk]), {**form, "amount": "5"}, follow=True)
    assert _said(page.content.decode()).get("gold-said") == ["Paid France 5 k oz."]
    joined = client.post(reverse("join", args=[chinese.pk]), {"take_over": "Russia"}, follow=True)
    assert _said(joined.content.decode()).get("top"), "a take-over's refusal goes at the top"


def test_the_only_player_who_votes_is_told_a_vote_ends_the_game(make_game, seat) -> None:
    """An adversary's finding: alone with five bots, a player voted for a draw, read "a draw
    needs every surviving power", and the game ended at once (bots never vote). Where the
    player may know which seats bots play, the page says so before the vote; in an anonymous
    game it does not, which would tell who the bots are."""
    for anonymous in (False, True):
        game = make_game("chinese", players=1, anonymous=anonymous)
        player = seat(game, game.memberships.get(bot=False).power)
        for power in engine.powers(game):
            if power != player.power:
                services.set_bot(game, game.creator, power, True)
        html = browser(player.user).get(reverse("game", args=[game.pk])).content.decode()
        warned = 'id="lone-voter"' in html
        assert warned is not anonymous, (anonymous, html[html.find('id="vote-form"') :][:900])
        if not anonymous:
            assert "a vote for a draw or to concede ends the game at once" in html
        else:
            assert "bots never vote" in html


ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
FULL_WIDTH = str.maketrans("0123456789", "０１２３４５６７８９")


@pytest.mark.parametrize(
    "written",
    [
        lambda n: str(n).translate(ARABIC_INDIC),
        lambda n: str(n).translate(FULL_WIDTH),
        lambda n: f"+{n}",
        lambda n: f" {n}",
        lambda n: f"{n}\n",
        lambda n: f"0_{n}",
        lambda n: f"{n}.0",
    ],
    ids=["arabic-indic", "full-width", "plus", "space", "newline", "underscore", "decimal"],
)
def test_web_form_reads_its_phase_in_ascii_digits_only(make_game, seat, moderator, written):
    """The hidden phase went through int(): Arabic-Indic "٣" was phase 3, and the orders were
    saved. Only the digits 0-9 a page writes are read; anything else saves nothing and says
    why, as any other refused box does."""
    game = make_game()
    services.process_now(game, moderator)  # phase 1 (or later): not 0, whose digit is plain
    game.refresh_from_db()
    phase = game.current_phase
    assert phase.index > 0
    france = seat(game, "France")
    url = reverse("submit-orders", args=[game.pk])
    unit = next(u for u in phase.units if u["power"] == "France")
    order = f"{unit['unit']} {unit['location']} H"
    response = browser(france.user).post(url, {"orders": order, "phase": written(phase.index)})
    assert response.status_code == 302
    assert not Order.objects.filter(phase=phase).exists()
    said = flashed(response)
    assert any("reload the page" in m and "Nothing was saved." in m for m in said), said
    # Written as a page writes it, the same box is saved.
    saved = browser(france.user).post(url, {"orders": order, "phase": str(phase.index)})
    assert saved.status_code == 302
    assert Order.objects.filter(phase=phase, power="France").count() == 1


def test_the_moderator_console_reads_its_phase_in_ascii_digits_only(game, moderator) -> None:
    """The console's process action names the current phase in a hidden field, as the orders
    box does: "٠" is not phase 0, and nothing is processed."""
    url = reverse("moderate-action", args=[game.pk, "process"])
    phase = game.current_phase
    response = browser(moderator).post(url, {"phase": "٠", "confirm": "yes"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert (
        game.current_phase_id == phase.pk
        and not Game.objects.get(pk=game.pk).phases.filter(processed_at__isnull=False).exists()
    )
    assert any("Phase: " in m for m in flashed(response))  # under its label
    browser(moderator).post(url, {"phase": "0", "confirm": "yes"})
    game.refresh_from_db()
    assert game.current_phase_id != phase.pk  # written plainly, it is processed


@pytest.mark.parametrize(
    "texts",
    [["A Paris H"] * (100 + 1), ["A Paris H" + " " * 195 + "x"], ["A Paris H\x00"]],
    ids=["too many", "too long", "NUL"],
)
def test_the_service_itself_keeps_the_limits(game, france, texts) -> None:
    """Whatever else stores orders (a bot, a script, a future endpoint) meets the same limits."""
    with pytest.raises(services.GameError):
        services.submit_orders(france, texts)
    assert not Order.objects.filter(phase=game.current_phase).exists()


def test_api_limits_are_the_shared_limits() -> None:
    from games.serializers import OrdersInputSerializer

    field = OrdersInputSerializer().fields["orders"]
    assert field.max_length == limits.MAX_ORDERS
    assert field.child.max_length == limits.MAX_ORDER_LENGTH


@pytest.mark.parametrize("path", ["orders/", "orders/check/"])
def test_a_null_order_is_refused_as_order_n_like_any_other(game, france, path) -> None:
    """A null in the list was refused as DRF keys it, ``{"orders": {"0": [...]}}`` counted
    from 0, where every other line's refusal says "Order 1: ..."."""
    client = token_client(france.user)
    url = f"/api/games/{game.pk}/{path}"
    send = client.put if path == "orders/" else client.post
    said = assert_json_4xx(send(url, {"orders": [None]}, format="json"), 400)
    assert said == {"orders": ["Order 1: This field may not be null."]}
    said = assert_json_4xx(send(url, {"orders": ["A Paris H", None]}, format="json"), 400)
    assert said == {"orders": ["Order 2: This field may not be null."]}
    # A line too long, in the order form's words (the page without JavaScript says the same)
    said = assert_json_4xx(send(url, {"orders": ["A Paris H", "x" * 201]}, format="json"), 400)
    assert said == {"orders": ["Order 2 is longer than 200 characters."]}
    said = assert_json_4xx(send(url, {"orders": ["A Paris H", 7]}, format="json"), 400)
    assert said == {"orders": ["Order 2: Not a valid string."]}
    assert not Order.objects.filter(phase=game.current_phase).exists()


@pytest.mark.parametrize("path", ["orders/", "orders/check/"])
def test_too_many_orders_are_refused_in_the_products_words(game, france, path) -> None:
    """The order box shows the API's words as they are: the order form's own, translated,
    not DRF's "Ensure this field has no more than 100 elements."."""
    client = token_client(france.user)
    url = f"/api/games/{game.pk}/{path}"
    body = {"orders": ["A Paris H"] * (limits.MAX_ORDERS + 1)}
    send = client.put if path == "orders/" else client.post
    said = assert_json_4xx(send(url, body, format="json"), 400)
    assert said == {"orders": [f"At most {limits.MAX_ORDERS} orders; this has 101."]}
    japanese = assert_json_4xx(send(url, body, format="json", HTTP_ACCEPT_LANGUAGE="ja"), 400)
    assert japanese == {"orders": ["命令は最大 100 件です。ここには 101 件あります。"]}
    assert not Order.objects.filter(phase=game.current_phase).exists()
    # The field says it alone too, read by a serializer without StrictInput's checks.
    from rest_framework.exceptions import ValidationError

    from games.serializers import OrderLines

    with translation.override("en"), pytest.raises(ValidationError, match="At most 2 orders"):
        OrderLines(child=serializers.CharField(), max_length=2).run_validation(["x"] * 3)


def test_request_size_is_capped() -> None:
    # The largest honest request (100 orders, or 5,000 characters of press) is far below this.
    assert django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE <= 256 * 1024
    assert django_settings.DATA_UPLOAD_MAX_NUMBER_FIELDS <= 1000


def test_an_oversized_form_post_stores_nothing(game, france) -> None:
    body = "F Bombay H\n" * (django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 11 + 10)
    response = browser(france.user).post(reverse("submit-orders", args=[game.pk]), {"orders": body})
    assert response.status_code in (400, 413)
    assert not Order.objects.filter(phase=game.current_phase).exists()


def test_an_oversized_api_body_is_a_413_in_json(game, france) -> None:
    orders = ["F Bombay H"] * (django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 10)
    response = token_client(france.user).put(
        f"/api/games/{game.pk}/orders/", {"orders": orders}, format="json"
    )
    assert "too large" in assert_json_4xx(response, 413)["detail"]
    assert not Order.objects.filter(phase=game.current_phase).exists()


def test_an_oversized_api_form_post_is_a_413_in_json(game, france) -> None:
    big = "x" * (django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    response = token_client(france.user).post(
        f"/api/games/{game.pk}/messages/", {"body": big}, format="multipart"
    )
    assert_json_4xx(response, 413)


def test_too_many_form_fields_is_a_400_in_json(game, france) -> None:
    fields = {f"f{n}": "1" for n in range(django_settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1)}
    response = token_client(france.user).post(
        f"/api/games/{game.pk}/messages/", fields, format="multipart"
    )
    assert_json_4xx(response, 400, 413)


# -- 3. reachable 500s --------------------------------------------------------------------


def _nested(depth: int) -> str:
    return '{"username": ' + "[" * depth + "]" * depth + ', "password": "x"}'


@pytest.mark.parametrize("path", ["/api/auth/token/", "/api/auth/signup/"])
@pytest.mark.parametrize("depth", [1_100, 100_000])
def test_deeply_nested_json_is_a_400_without_signing_in(path, depth) -> None:
    response = token_client().post(path, _nested(depth), content_type="application/json")
    assert_json_4xx(response, 400)


def test_deep_but_parsable_json_is_refused_too(game, france) -> None:
    response = token_client(france.user).put(
        f"/api/games/{game.pk}/orders/",
        '{"orders": ' + "[" * 200 + "]" * 200 + "}",
        content_type="application/json",
    )
    assert_json_4xx(response, 400)


@pytest.mark.parametrize(
    ("action", "listed"),
    [
        ("process", "Not a field of this request (its fields: phase)."),
        ("replace", "Not a field of this request (its fields: power, username, phase)."),
    ],
)
def test_a_moderator_actions_unknown_field_lists_that_actions_fields(
    game, moderator, action, listed
) -> None:
    """One body serves every action: the refusal lists the fields of the action asked for,
    not every action's."""
    client = token_client(moderator)
    body = {"phase": game.current_phase.index, "extra": 1}
    response = client.post(f"/api/games/{game.pk}/moderation/{action}/", body, format="json")
    assert assert_json_4xx(response, 400)["extra"] == [listed]


def test_an_action_without_fields_says_it_takes_none(moderator) -> None:
    from games import services

    waiting = services.create_game(moderator, name="Not started", variant="standard")
    response = token_client(moderator).post(
        f"/api/games/{waiting.pk}/moderation/start/", {"extra": 1}, format="json"
    )
    assert assert_json_4xx(response, 400)["extra"] == [
        "Not a field of this request, which takes none."
    ]


def test_a_misspelt_field_is_refused_not_ignored(game, france) -> None:
    """ "phaes" for "phase": dropped silently, the orders would be stored without the phase
    check the client asked for."""
    client = token_client(france.user)
    body = {"orders": ["A Paris H"], "phaes": game.current_phase.index, "x" * 60: 1}
    answer = assert_json_4xx(client.put(f"/api/games/{game.pk}/orders/", body, format="json"), 400)
    assert set(answer) == {"phaes", "x" * 50}
    assert "Not a field of this request (its fields: orders, phase)" in answer["phaes"][0]
    assert not Order.objects.filter(phase=game.current_phase).exists()
    # Nested requests too, and the schema says so.
    answer = assert_json_4xx(
        client.post("/api/auth/token/", {"username": "u", "password": "p", "otp": 1}, "json"), 400
    )
    assert "otp" in answer
    ok = client.put(f"/api/games/{game.pk}/orders/", {"orders": ["A Paris H"]}, format="json")
    assert ok.status_code == 200, ok.content


@pytest.mark.parametrize("form", [False, True])
def test_a_read_only_field_is_refused_not_ignored(make_game, seat, form) -> None:
    """A payment naming its ``payer`` and ``id``, press naming its ``sender_power``: the
    server sets those, and dropping them unseen let a client believe it had (a tester's
    finding). Refused, in JSON and in form data, with a message that says so."""
    from games import engine
    from games.models import Message, Payment

    game = make_game("chinese")
    payer, payee, other = engine.powers(game)[:3]
    client = token_client(seat(game, payer).user)
    fmt = "multipart" if form else "json"
    body = {"to": payee, "amount": 1, "payer": other, "id": 5}
    answer = assert_json_4xx(client.post(f"/api/games/{game.pk}/payments/", body, fmt), 400)
    assert set(answer) == {"payer", "id"}
    assert "Read-only" in answer["payer"][0]
    body = {"body": "x", "sender_power": other}
    answer = assert_json_4xx(client.post(f"/api/games/{game.pk}/messages/", body, fmt), 400)
    assert set(answer) == {"sender_power"}
    assert not Payment.objects.exists() and not Message.objects.exists()
    ok = client.post(f"/api/games/{game.pk}/payments/", {"to": payee, "amount": 1}, fmt)
    assert ok.status_code == 201 and ok.json()["payer"] == payer


def test_payments_and_press_check_the_phase_they_name(make_game, seat, moderator) -> None:
    """``phase`` in a payment or a press works as in orders: the current index is accepted,
    any other is a 409 and nothing is stored (a payment retried after its phase was
    processed was paid in the next one); without it, no check."""
    from games import engine
    from games.models import Message, Payment

    game = make_game("chinese")
    payer, payee = engine.powers(game)[:2]
    client = token_client(seat(game, payer).user)
    pay, press = f"/api/games/{game.pk}/payments/", f"/api/games/{game.pk}/messages/"
    paid = client.post(pay, {"to": payee, "amount": 1, "phase": 0}, format="json")
    assert paid.status_code == 201 and paid.json()["phase"] == 0
    sent = client.post(press, {"body": "x", "phase": 0}, format="json")
    assert sent.status_code == 201 and sent.json()["phase"] == 0
    services.process_now(game, moderator, phase=0)
    assert_json_4xx(client.post(pay, {"to": payee, "amount": 2, "phase": 0}, format="json"), 409)
    assert_json_4xx(client.post(press, {"body": "y", "phase": 0}, format="json"), 409)
    assert Payment.objects.count() == 1 and Message.objects.count() == 1
    # A payment repeated with its Idempotency-Key is answered as before, whatever the phase.
    again = client.post(
        pay, {"to": payee, "amount": 5, "phase": 1}, format="json", HTTP_IDEMPOTENCY_KEY="k"
    )
    assert again.status_code == 201 and again.json()["phase"] == 1
    repeat = client.post(
        pay, {"to": payee, "amount": 5, "phase": 0}, format="json", HTTP_IDEMPOTENCY_KEY="k"
    )
    assert repeat.status_code == 200 and repeat.json()["id"] == again.json()["id"]
    assert client.post(press, {"body": "z"}, format="json").status_code == 201
    # The key sent again with another payment pays nothing and says so, never answers the
    # first as if this one were made.
    other = engine.powers(game)[2]
    for changed in ({"to": other, "amount": 5}, {"to": payee, "amount": 6}):
        refused = client.post(pay, changed, format="json", HTTP_IDEMPOTENCY_KEY="k")
        assert_json_4xx(refused, 422)
        assert "new key" in refused.json()["detail"]
    assert Payment.objects.count() == 2


def test_the_schema_says_request_bodies_hold_no_other_keys(client) -> None:
    schemas = client.get("/api/schema/?format=json").json()["components"]["schemas"]
    requests = [name for name in schemas if name.endswith("Request")]
    assert "OrdersInputRequest" in requests and "PushKeysRequest" in requests
    for name in requests:
        body = schemas[name]
        for choice in body.get("oneOf", [body]):
            assert choice["additionalProperties"] is False, name


def test_malformed_json_is_a_400_in_json() -> None:
    response = token_client().post("/api/auth/token/", "{", content_type="application/json")
    assert_json_4xx(response, 400)


@pytest.mark.parametrize("status", ["\x00", "nonsense", "ACTIVE"])
def test_unknown_status_filter_is_a_400(make_user, status) -> None:
    response = token_client(make_user("u")).get("/api/games/", {"status": status})
    body = assert_json_4xx(response, 400)
    assert "status" in body or "NUL" in body["detail"]


def test_known_status_filter_still_filters(game, make_user) -> None:
    client = token_client(make_user("u"))
    assert client.get("/api/games/", {"status": "active"}).status_code == 200
    # Empty is no value of the filter's: a 400 naming it, not a silently wider search.
    empty = client.get("/api/games/", {"status": ""})
    assert empty.status_code == 400 and "status" in empty.json()


@pytest.mark.parametrize("pk", ["²", "١", "1²", str(HUGER), "-1", "0x1"])
@pytest.mark.parametrize("method", ["get", "put"])
def test_odd_game_ids_in_api_paths_are_404s(france, pk, method) -> None:
    client = token_client(france.user)
    response = getattr(client, method)(f"/api/games/{pk}/orders/", {"orders": []}, format="json")
    assert_json_4xx(response, 404)
    assert_json_4xx(client.get(f"/api/games/{pk}/"), 404)


def test_odd_phase_indexes_in_api_paths_are_404s(game, france) -> None:
    client = token_client(france.user)
    for index in ["²", str(HUGER), str(HUGE)]:
        assert_json_4xx(client.get(f"/api/games/{game.pk}/phases/{index}/"), 404)


@pytest.mark.parametrize("path", ["/games/{pk}/", "/games/{pk}/board.svg"])
@pytest.mark.parametrize("pk", ["²", str(HUGER)])
def test_odd_game_ids_in_page_paths_are_404s(france, path, pk) -> None:
    response = browser(france.user).get(path.format(pk=pk))
    assert response.status_code == 404


@pytest.mark.parametrize("phase", ["abc", "1.5", "\x00", "²", str(HUGER), "-1", "", "99"])
def test_board_with_an_odd_phase_is_a_404(game, france, phase) -> None:
    response = browser(france.user).get(reverse("board", args=[game.pk]), {"phase": phase})
    assert response.status_code == (400 if "\x00" in phase else 404)


def test_board_of_a_past_phase_still_draws(game, france, moderator) -> None:
    services.process_now(game, moderator)
    response = browser(france.user).get(reverse("board", args=[game.pk]), {"phase": "0"})
    assert response.status_code == 200
    assert b"<svg" in response.content or b"no-board" in response.content


@pytest.mark.parametrize("phase", ["\x00", str(HUGER), "1.5"])
def test_game_page_with_an_odd_phase_is_a_404(game, france, phase) -> None:
    response = browser(france.user).get(reverse("game", args=[game.pk]), {"phase": phase})
    assert response.status_code == (400 if "\x00" in phase else 404)


@pytest.mark.parametrize(
    "url",
    [
        "/admin/games/game/?status__exact=%00",
        "/admin/games/membership/?status__exact=%00",
        "/admin/games/phase/?type__exact=%00",
        "/admin/games/moderatoraction/?action__exact=%00",
    ],
)
def test_a_nul_in_an_admin_filter_is_a_400(make_user, url) -> None:
    admin = make_user("root", is_staff=True, is_superuser=True)
    assert browser(admin).get(url).status_code == 400


def test_a_nul_in_an_api_url_is_a_400_in_json(france) -> None:
    client = token_client(france.user)
    assert_json_4xx(client.get("/api/games/?page=%00"), 400)
    assert_json_4xx(client.get("/api/variants/%00/"), 400)


MINUTE_FIELDS = ["movement_minutes", "retreats_minutes", "adjustments_minutes"]


@pytest.mark.parametrize("field", [*MINUTE_FIELDS, "civil_disorder_after"])
@pytest.mark.parametrize("value", [HUGE, HUGER, -1])
def test_api_creation_bounds_every_integer(make_user, field, value) -> None:
    response = token_client(make_user("u")).post(
        "/api/games/", {"name": "n", "variant": "standard", field: value}, format="json"
    )
    assert field in assert_json_4xx(response, 400)
    assert not Game.objects.exists()


@pytest.mark.parametrize("field", [*MINUTE_FIELDS, "civil_disorder_after", "victory_centers"])
@pytest.mark.parametrize("value", [HUGE, HUGER])
def test_form_creation_bounds_every_integer(make_user, field, value) -> None:
    from games.forms import GameForm

    defaults = {name: f.initial for name, f in GameForm().fields.items() if f.initial is not None}
    data = {**defaults, "name": "n", field: value}
    response = browser(make_user("u")).post(reverse("create-game"), data)
    assert response.status_code == 200  # the form again, with the error
    assert field in response.context["form"].errors
    assert not Game.objects.exists()


def test_a_week_long_phase_is_still_allowed(make_user) -> None:
    response = token_client(make_user("u")).post(
        "/api/games/",
        {"name": "n", "variant": "standard", "movement_minutes": 7 * 24 * 60},
        format="json",
    )
    assert response.status_code == 201, response.content


@pytest.mark.parametrize("minutes", [5_000_000_000, -5_000_000_000, HUGER])
def test_moderator_deadline_minutes_are_bounded(game, moderator, minutes) -> None:
    deadline = game.current_phase.deadline
    response = token_client(moderator).post(
        f"/api/games/{game.pk}/moderation/deadline/", {"minutes": minutes}, format="json"
    )
    assert "minutes" in assert_json_4xx(response, 400)
    game.current_phase.refresh_from_db()
    assert game.current_phase.deadline == deadline


@pytest.mark.parametrize("minutes", [str(5_000_000_000), str(-5_000_000_000)])
def test_moderator_page_deadline_minutes_are_bounded(game, moderator, minutes) -> None:
    deadline = game.current_phase.deadline
    response = browser(moderator).post(
        reverse("moderate-action", args=[game.pk, "deadline"]),
        {"minutes": minutes, "confirm": "yes"},
    )
    assert response.status_code == 302
    assert any("Deadline: Minutes: " in m for m in flashed(response))  # under its labels
    game.current_phase.refresh_from_db()
    assert game.current_phase.deadline == deadline


def test_a_refused_console_action_gives_back_what_was_typed(game, moderator) -> None:
    """The moderator mends the minutes refused rather than typing them again; only that
    action's box gets them, and only once."""
    client = browser(moderator)
    client.post(reverse("moderate-action", args=[game.pk, "deadline"]), {"minutes": "99999999"})
    page = client.get(reverse("moderate", args=[game.pk])).content.decode()
    assert page.count('value="99999999"') == 1
    assert (
        'id="minutes-deadline" type="number" name="minutes" placeholder="60" value="99999999"'
        in page
    )
    again = client.get(reverse("moderate", args=[game.pk])).content.decode()
    assert 'value="99999999"' not in again


def test_a_refused_console_action_keeps_nothing_for_another_game(game, moderator, make_game):
    """Nor does another game's console, opened first, throw it away."""
    other = make_game()
    client = browser(moderator)
    client.post(reverse("moderate-action", args=[game.pk, "deadline"]), {"minutes": "99999999"})
    elsewhere = client.get(reverse("moderate", args=[other.pk])).content.decode()
    assert 'value="99999999"' not in elsewhere
    assert 'value="99999999"' in client.get(reverse("moderate", args=[game.pk])).content.decode()


def test_a_refused_replace_keeps_the_power_picked_and_the_name_typed(game, moderator) -> None:
    """Refused after the confirmation (no such player): the power picked stays picked, so
    mending the name does not send it for the list's first power."""
    client = browser(moderator)
    sent = {"power": "Italy", "username": "nobody_here", "phase": "0", "confirm": "yes"}
    client.post(reverse("moderate-action", args=[game.pk, "replace"]), sent)
    page = client.get(reverse("moderate", args=[game.pk])).content.decode()
    assert 'value="nobody_here"' in page
    assert page.count("<option selected>Italy</option>") == 1


def test_a_value_its_box_cannot_show_is_not_given_back(game, moderator) -> None:
    client = browser(moderator)
    client.post(reverse("moderate-action", args=[game.pk, "deadline"]), {"minutes": "12abc"})
    page = client.get(reverse("moderate", args=[game.pk])).content.decode()
    assert "12abc" not in page
    client.post(
        reverse("moderate-action", args=[game.pk, "replace"]),
        {"power": "Italy", "username": "de\x00mo", "phase": "0", "confirm": "yes"},
    )
    page = client.get(reverse("moderate", args=[game.pk])).content.decode()
    assert 'value="demo"' in page and "\x00" not in page


def test_a_console_phase_too_large_is_refused_as_out_of_range(game, moderator) -> None:
    """Found by an adversary: 23 digits were "Enter a whole number." (it is one)."""
    response = browser(moderator).post(
        reverse("moderate-action", args=[game.pk, "pause"]),
        {"phase": "9" * 23, "confirm": "yes"},
    )
    assert any("less than or equal to" in m for m in flashed(response))
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_the_deadline_confirmation_shows_the_new_deadline_and_warns_when_it_has_passed(
    game, moderator
) -> None:
    """Found by an adversary: confirming "-99999 minutes" processed the phase with nothing
    said beforehand but "Minutes -99999"; the confirmation now shows the deadline it sets, in
    the moderator's time zone, and that a passed one processes the phase at once."""
    client = browser(moderator)
    url = reverse("moderate-action", args=[game.pk, "deadline"])
    later = client.post(url, {"minutes": "60"}).content.decode()
    assert "The new deadline:" in later and " UTC." in later
    assert "UTC (UTC)" not in later  # found by an adversary: the zone said twice
    assert "That time has passed" not in later
    past = client.post(url, {"minutes": "-99999"}).content.decode()
    assert "That time has passed: confirming processes the phase now." in past
    game.current_phase.refresh_from_db()
    assert game.current_phase.processed_at is None  # nothing done before the confirmation
    assert 'name="passed" value="yes"' in past  # the confirmation says it has passed
    done = client.post(url, {"minutes": "-99999", "phase": "0", "confirm": "yes", "passed": "yes"})
    said = flashed(done)
    assert "Done: deadline." in said
    assert "That time had passed: the phase is being processed." in said


def test_moderator_deadline_far_in_the_future_is_refused(game, moderator) -> None:
    response = token_client(moderator).post(
        f"/api/games/{game.pk}/moderation/deadline/",
        {"deadline": "9999-12-31T23:59:59Z"},
        format="json",
    )
    assert "deadline" in assert_json_4xx(response, 400)


def test_a_moderators_deadline_without_a_time_zone_is_refused(game, moderator) -> None:
    """Found by an adversary: a deadline sent without its time zone was taken as UTC, so a
    moderator who sent local time set a deadline hours off without a word. It is refused with
    what to add; with Z or an offset it is read as meant."""
    client = token_client(moderator)
    path = f"/api/games/{game.pk}/moderation/deadline/"
    game.current_phase.refresh_from_db()
    before = game.current_phase.deadline
    ahead = (timezone.now() + timedelta(days=3)).replace(microsecond=0, tzinfo=None)
    refused = client.post(path, {"deadline": ahead.isoformat(), "phase": 0}, format="json")
    assert "offset such as +09:00" in assert_json_4xx(refused, 400)["deadline"][0]
    game.current_phase.refresh_from_db()
    assert game.current_phase.deadline == before
    tokyo = f"{ahead.isoformat()}+09:00"
    assert client.post(path, {"deadline": tokyo, "phase": 0}, format="json").status_code == 200
    game.current_phase.refresh_from_db()
    assert game.current_phase.deadline == ahead.replace(tzinfo=UTC) - timedelta(hours=9)


def test_moderator_deadline_pushed_again_and_again_stays_within_a_year(game, moderator) -> None:
    """Minutes add to the deadline as it stands: two pushes of 200 days put it 400 days
    ahead (past the year a deadline set outright may be), and enough of them past year 9999,
    a 500. The push that would pass the year is refused; the deadline stays as it was."""
    client = token_client(moderator)
    path = f"/api/games/{game.pk}/moderation/deadline/"
    assert client.post(path, {"minutes": 200 * 24 * 60}, format="json").status_code == 200
    game.current_phase.refresh_from_db()
    deadline = game.current_phase.deadline
    response = client.post(path, {"minutes": 200 * 24 * 60}, format="json")
    assert "days from now" in assert_json_4xx(response, 400)["detail"]
    game.current_phase.refresh_from_db()
    assert game.current_phase.deadline == deadline
    assert client.post(path, {"minutes": -60}, format="json").status_code == 200


def test_a_moderators_malformed_body_is_told_before_the_games_state(game, moderator) -> None:
    """Found by an adversary: with the game paused, a pause whose body was not JSON, or not
    JSON at all, and a rollback naming no phase, were all answered "not possible while the
    game is Paused", so the client fixed the wrong thing first."""
    client = token_client(moderator)
    path = f"/api/games/{game.pk}/moderation/"
    assert client.post(path + "pause/", {}, format="json").status_code == 200
    broken = client.post(path + "pause/", "[[[[", content_type="application/json")
    assert "JSON parse error" in assert_json_4xx(broken, 400)["detail"]
    assert client.post(path + "pause/", "pause", content_type="text/plain").status_code == 415
    named = client.post(path + "rollback/", {"phase": "a"}, format="json")
    assert "phase" in assert_json_4xx(named, 400)
    again = client.post(path + "pause/", {}, format="json")  # a sound body: the state's reason
    assert "Paused" in assert_json_4xx(again, 400)["detail"]


def test_replace_with_an_unknown_power_is_a_400(game, moderator, make_user) -> None:
    make_user("spare")
    seats = game.memberships.count()
    response = token_client(moderator).post(
        f"/api/games/{game.pk}/moderation/replace/",
        {"power": "Atlantis", "username": "spare"},
        format="json",
    )
    assert "Atlantis" in assert_json_4xx(response, 400)["detail"]
    assert game.memberships.count() == seats


def test_replace_on_the_page_with_an_unknown_power_is_refused(game, moderator, make_user) -> None:
    make_user("spare")
    seats = game.memberships.count()
    response = browser(moderator).post(
        reverse("moderate-action", args=[game.pk, "replace"]),
        {"power": "Atlantis", "username": "spare", "confirm": "yes"},
    )
    assert response.status_code == 302
    assert game.memberships.count() == seats


def test_admin_cannot_change_a_started_games_variant(game, make_user) -> None:
    admin = make_user("root", is_staff=True, is_superuser=True)
    client = browser(admin)
    url = reverse("admin:games_game_change", args=[game.pk])
    page = client.get(url)
    assert page.status_code == 200
    form = page.context["adminform"].form
    assert "variant" not in form.fields
    data = {
        "name": game.name,
        "variant": "colonial",
        "creator": game.creator_id,
        "movement_minutes": game.movement_minutes,
        "retreats_minutes": game.retreats_minutes,
        "adjustments_minutes": game.adjustments_minutes,
        "press": game.press,
        "options": json.dumps(game.options),
        "civil_disorder_after": game.civil_disorder_after,
        "process_when_ready": "on",
        "memberships-TOTAL_FORMS": "0",
        "memberships-INITIAL_FORMS": "0",
        "moderator_actions-TOTAL_FORMS": "0",
        "moderator_actions-INITIAL_FORMS": "0",
    }
    assert client.post(url, {**data, "movement_minutes": 61}).status_code == 302  # saved
    game.refresh_from_db()
    assert game.variant == "standard" and game.movement_minutes == 61
    assert services.process_now(game, game.creator).index == 1


def test_admin_offers_only_known_variants(make_user, moderator) -> None:
    game = services.create_game(moderator, name="g", variant="standard")
    admin = make_user("root", is_staff=True, is_superuser=True)
    client = browser(admin)
    url = reverse("admin:games_game_change", args=[game.pk])
    data = {
        "name": game.name,
        "variant": "nonsense",
        "creator": moderator.pk,
        "movement_minutes": 60,
        "retreats_minutes": 60,
        "adjustments_minutes": 60,
        "press": "full",
        "options": "{}",
        "civil_disorder_after": 2,
        "memberships-TOTAL_FORMS": "0",
        "memberships-INITIAL_FORMS": "0",
        "moderator_actions-TOTAL_FORMS": "0",
        "moderator_actions-INITIAL_FORMS": "0",
    }
    response = client.post(url, data)
    assert response.status_code == 200  # the form again, with the error
    assert "variant" in response.context["adminform"].form.errors
    game.refresh_from_db()
    assert game.variant == "standard"
    response = client.post(url, {**data, "variant": "colonial"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.variant == "colonial"


def test_a_forming_games_variant_may_still_change(make_user, moderator) -> None:
    game = services.create_game(moderator, name="g", variant="standard")
    services.change_settings(game, moderator, variant="colonial")
    game.refresh_from_db()
    assert game.variant == "colonial"


def test_the_service_refuses_a_started_games_variant_change(game, moderator) -> None:
    with pytest.raises(services.GameError):
        services.change_settings(game, moderator, variant="colonial")
    game.refresh_from_db()
    assert game.variant == "standard"


# -- 3, the hunt: every endpoint, hostile bodies --------------------------------------------

HOSTILE_BODIES = [
    [],
    "text",
    42,
    None,
    {"orders": "A Paris H"},
    {"orders": [["A Paris H"]]},
    {"orders": [{"text": "A Paris H"}]},
    {"orders": ["A Paris H\x00"]},
    {"ready": "maybe", "phase": 0},
    {"ready": True, "phase": HUGER},
    {"ready": True, "phase": "²"},
    {"ready": True, "phase": [0]},
    {"body": "\x00", "recipients": ["France\x00"]},
    {"body": "hi", "recipients": "France"},
    {"body": {"x": 1}},
    {"to": "Italy", "amount": HUGER},
    {"to": "Italy", "amount": HUGE},
    {"to": ["Italy"], "amount": "1"},
    {"draw": "yes", "concede_to": ["Italy"]},
    {"concede_to": "\x00"},
    {"power": "\x00"},
    {"power": ["Italy"]},
    {"preferences": "France"},
    {"preferences": ["\x00"]},
    {"minutes": HUGER, "phase": HUGER, "power": "\x00", "username": "\x00", "winner": "\x00"},
    {"deadline": "\x00"},
    {"deadline": "99999-01-01T00:00:00Z"},
    {"name": "\x00", "variant": "standard"},
    {"name": "n", "variant": "standard", "options": {"x": "\x00"}},
    {"name": "n", "variant": "standard", "options": {"\x00": 1}},
    {"name": "n", "variant": "standard", "options": [1]},
    {"name": "n", "variant": "standard", "deadline_time": "\x00"},
    {"name": "n", "variant": "\x00"},
    {"name": "n", "variant": ["standard"]},
    {"name": "n", "variant": "standard", "press": HUGER},
    {"username": "\x00", "password": "\x00"},
    {"username": ["x"], "password": {"x": 1}},
    {"username": "new", "password": "long-enough-pw-42", "email": "\x00@example.com"},
    {"time_zone": "\x00", "palette": HUGER},
    {"phase_processed": "\x00"},
    {"orders": [None, 1, 1.5, True]},
    {"ready": None, "phase": True},
    {"ready": True, "phase": -1},
    {"ready": True, "phase": 1.5},
    {"minutes": "1e9", "deadline": 123},
    {"minutes": 1.5, "deadline": [2030]},
    {"minutes": 1e308},
    {"body": "hi", "recipients": [1, None]},
    {"preferences": [None], "power": 1},
    {"name": "n", "variant": "standard", "deadline_time": 123},
    {"name": "n", "variant": "standard", "deadline_time": [1]},
    {"name": "n", "variant": "standard", "anonymous": "maybe", "press": [1]},
    {"name": "n" * 10_000, "variant": "standard"},
    {"body": "x" * 10_000},
    {"username": "u" * 10_000, "password": "p" * 10_000},
]

ENDPOINTS = [
    ("post", "/api/auth/token/"),
    ("post", "/api/auth/signup/"),
    ("put", "/api/auth/notifications/"),
    ("post", "/api/games/"),
    ("post", "/api/games/{game}/join/"),
    ("put", "/api/games/{game}/orders/"),
    ("post", "/api/games/{game}/ready/"),
    ("post", "/api/games/{game}/messages/"),
    ("post", "/api/games/{game}/payments/"),
    ("post", "/api/games/{game}/draw/"),
    *[
        ("post", f"/api/games/{{game}}/moderation/{action}/")
        for action in ("deadline", "process", "rollback", "replace", "remove", "end")
    ],
]


@pytest.mark.parametrize("method, path", ENDPOINTS, ids=lambda v: str(v))
def test_no_hostile_body_is_a_server_error(game, seat, make_user, moderator, method, path) -> None:
    """Every endpoint that takes a body, as its player and as the moderator: a clear answer."""
    make_user("new")
    url = path.format(game=game.pk)
    for user in (seat(game, "France").user, moderator):
        client = token_client(user)
        for body in HOSTILE_BODIES:
            response = getattr(client, method)(
                url, json.dumps(body), content_type="application/json"
            )
            assert response.status_code < 500, (body, response.status_code, response.content[:300])
            if response.status_code >= 400:
                assert_json_4xx(response)


@pytest.mark.parametrize("param", ["status", "page", "phase", "limit", "offset"])
@pytest.mark.parametrize("value", ["\x00", str(HUGER), "-1", "²", "[]"])
def test_no_hostile_query_is_a_server_error(game, france, param, value) -> None:
    client = token_client(france.user)
    for path in ["/api/games/", f"/api/games/{game.pk}/phases/", f"/api/games/{game.pk}/messages/"]:
        response = client.get(path, {param: value})
        assert response.status_code < 500, (path, response.content[:300])


@pytest.mark.parametrize(
    "path, query",
    [
        ("/api/games/{pk}/options/", "power=France&power=England"),
        ("/api/games/", "page=1&page=2"),
        ("/api/games/", "page_size=5&page_size=50"),
        ("/api/leaderboard/", "variant=standard&variant=colonial"),
    ],
)
def test_a_query_parameter_given_twice_is_refused_naming_it(game, moderator, path, query) -> None:
    """Found by an adversary: ``?power=China&power=Russia`` answered for Russia, the last
    value, while the game search refused a repeated filter. Every parameter is read once."""
    client = token_client(moderator if "options" in path else game.memberships.first().user)
    response = client.get(path.format(pk=game.pk) + "?" + query)
    name = query.split("=")[0]
    body = assert_json_4xx(response, 400)
    assert body[name] == ["given 2 times: give it once, or leave it out"], body
    once = query.split("&")[0]
    assert client.get(path.format(pk=game.pk) + "?" + once).status_code == 200


@pytest.mark.parametrize(
    ("language", "words"),
    [("ja", "2 回指定されています"), ("zh-hans", "给出了 2 次"), ("en", "given 2 times")],
)
def test_a_parameter_given_twice_is_refused_in_the_askers_language(game, language, words) -> None:
    """The refusal of a repeated parameter was English whatever the language asked for."""
    client = token_client(game.memberships.first().user)
    response = client.get("/api/games/?page=1&page=2", HTTP_ACCEPT_LANGUAGE=language)
    body = assert_json_4xx(response, 400)
    assert words in body["page"][0], body


def test_a_form_fields_second_value_is_refused_not_dropped(game, france) -> None:
    """Found by an adversary: ``amount=10&amount=3`` paid 3, the first value dropped unseen,
    where JSON naming a key twice is a 400. A list field (``orders``) still takes many."""
    client = token_client(france.user)
    url = f"/api/games/{game.pk}/orders/"
    form = "application/x-www-form-urlencoded"
    twice = client.put(url, "orders=A+Paris+H&phase=0&phase=1", content_type=form)
    body = assert_json_4xx(twice, 400)
    assert body["phase"] == ["given 2 times: give it once, or leave it out"], body
    assert not Order.objects.filter(phase=game.current_phase).exists()
    many = client.put(url, "orders=A+Paris+H&orders=A+Marseilles+H&phase=0", content_type=form)
    assert many.status_code == 200, many.content
    assert [o["canonical"] for o in many.json()] == ["A Paris H", "A Marseilles H"]


PAGE_POSTS = [
    ("create-game", {"name": "\x00", "variant": "\x00", "movement_minutes": "²"}),
    ("join", {"take_over": "\x00", "first": "\x00"}),
    ("submit-orders", {"orders": "A Paris H\x00", "version": "\x00"}),
    ("add-order", {"order": "A Paris H\x00"}),
    ("add-order", {"order": "A Paris H" * 100}),
    ("ready", {"ready": "\x00", "phase": "\x00"}),
    ("ready", {"ready": "1", "phase": str(HUGER)}),
    ("send-press", {"body": "\x00", "recipients": ["\x00"]}),
    ("pay", {"to": "\x00", "amount": str(HUGER)}),
    ("vote", {"vote": "\x00"}),
    ("leave", {}),
]


@pytest.mark.parametrize("name, data", PAGE_POSTS, ids=lambda v: str(v))
def test_no_hostile_page_post_is_a_server_error(game, france, name, data) -> None:
    url = reverse(name) if name == "create-game" else reverse(name, args=[game.pk])
    response = browser(france.user).post(url, data)
    assert response.status_code < 500, response.content[:300]


@pytest.mark.parametrize("action", ["deadline", "process", "rollback", "replace", "remove", "end"])
def test_no_hostile_moderator_page_post_is_a_server_error(game, moderator, action) -> None:
    hostile = {"minutes": str(HUGER), "phase": str(HUGER), "power": "\x00"}
    hostile |= {"username": "\x00", "winner": "\x00", "confirm": "yes"}
    response = browser(moderator).post(reverse("moderate-action", args=[game.pk, action]), hostile)
    assert response.status_code < 500, response.content[:300]


def test_no_hostile_account_post_is_a_server_error(make_user) -> None:
    client = browser(make_user("u"))
    response = client.post(reverse("account-settings"), {"time_zone": "\x00", "palette": "\x00"})
    assert response.status_code < 500
    anonymous = Client(raise_request_exception=False)
    for data in ({"username": "\x00", "password1": "\x00", "password2": "\x00"},):
        assert anonymous.post(reverse("signup"), data).status_code < 500
    assert anonymous.post(reverse("login"), {"username": "\x00", "password": "x"}).status_code < 500


# -- 4. "ready" and "process" name their phase ------------------------------------------------


def _all_ready(client_of, game, phase) -> list:
    return [
        client_of(m.user).post(
            f"/api/games/{game.pk}/ready/", {"ready": True, "phase": phase}, format="json"
        )
        for m in game.memberships.filter(status="active")
    ]


def test_a_repeated_ready_does_not_process_the_next_phase(game) -> None:
    first = game.current_phase
    assert all(r.status_code == 200 for r in _all_ready(token_client, game, 0))
    assert services.process_phase(game.pk, first.pk)  # every power is ready: it processes
    game.refresh_from_db()
    second = game.current_phase
    assert second.index == 1
    assert not game.memberships.filter(ready=True).exists()  # cleared when the phase opened

    answers = _all_ready(token_client, game, 0)  # the same requests, retried
    assert {r.status_code for r in answers} == {409}
    assert "phase" in assert_json_4xx(answers[0], 409)["detail"]
    assert not game.memberships.filter(ready=True).exists()
    assert not services.process_phase(game.pk, second.pk)  # not due, and nobody is ready
    game.refresh_from_db()
    assert game.current_phase.index == 1


def test_ready_without_a_phase_is_a_clear_400(game, france) -> None:
    response = token_client(france.user).post(
        f"/api/games/{game.pk}/ready/", {"ready": True}, format="json"
    )
    assert "phase" in assert_json_4xx(response, 400)
    france.refresh_from_db()
    assert not france.ready


def test_ready_for_a_future_phase_is_refused(game, france) -> None:
    response = token_client(france.user).post(
        f"/api/games/{game.pk}/ready/", {"ready": True, "phase": 5}, format="json"
    )
    assert_json_4xx(response, 409)
    france.refresh_from_db()
    assert not france.ready


def test_ready_answers_what_it_set(game, france) -> None:
    client = token_client(france.user)
    response = client.post(
        f"/api/games/{game.pk}/ready/", {"ready": True, "phase": 0}, format="json"
    )
    assert response.status_code == 200 and response.json() == {"ready": True, "phase": 0}
    france.refresh_from_db()
    assert france.ready
    client.post(f"/api/games/{game.pk}/ready/", {"ready": False, "phase": 0}, format="json")
    france.refresh_from_db()
    assert not france.ready


def test_the_service_refuses_a_ready_for_another_phase(game, france) -> None:
    with pytest.raises(services.PhaseChanged):
        services.set_ready(france, True, phase=1)
    france.refresh_from_db()
    assert not france.ready


def test_a_repeated_moderator_process_is_refused(game, moderator) -> None:
    client = token_client(moderator)
    url = f"/api/games/{game.pk}/moderation/process/"
    first = client.post(url, {"phase": 0}, format="json")
    assert first.status_code == 200, first.content
    assert first.json()["current_phase"]["index"] == 1
    again = client.post(url, {"phase": 0}, format="json")
    assert_json_4xx(again, 409)
    game.refresh_from_db()
    assert game.current_phase.index == 1
    assert ModeratorAction.objects.filter(game=game, action="process").count() == 1


def test_moderator_process_without_a_phase_is_a_clear_400(game, moderator) -> None:
    response = token_client(moderator).post(
        f"/api/games/{game.pk}/moderation/process/", {}, format="json"
    )
    assert "phase" in assert_json_4xx(response, 400)
    game.refresh_from_db()
    assert game.current_phase.index == 0


def test_the_ready_button_names_its_phase(game, france) -> None:
    client = browser(france.user)
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    form = html[html.index('class="ready"') :]
    form = form[: form.index("</form>")]
    assert 'name="phase" value="0"' in form
    client.post(reverse("ready", args=[game.pk]), {"ready": "1", "phase": "0", "confirm": "yes"})
    france.refresh_from_db()
    assert france.ready


def test_a_stale_ready_button_does_nothing(game, france, moderator) -> None:
    services.process_now(game, moderator)
    response = browser(france.user).post(
        reverse("ready", args=[game.pk]), {"ready": "1", "phase": "0"}
    )
    assert response.status_code == 302
    assert any("phase" in m for m in flashed(response))
    france.refresh_from_db()
    assert not france.ready


def test_a_ready_button_without_its_phase_does_nothing(game, france) -> None:
    response = browser(france.user).post(reverse("ready", args=[game.pk]), {"ready": "1"})
    assert response.status_code == 302
    france.refresh_from_db()
    assert not france.ready


def test_a_stale_moderator_process_page_does_nothing(game, moderator) -> None:
    client = browser(moderator)
    html = client.get(reverse("moderate", args=[game.pk])).content.decode()
    process_form = html[html.index(reverse("moderate-action", args=[game.pk, "process"])) :]
    assert 'name="phase" value="0"' in process_form[: process_form.index("</form>")]
    url = reverse("moderate-action", args=[game.pk, "process"])
    client.post(url, {"phase": "0", "confirm": "yes"})
    client.post(url, {"phase": "0", "confirm": "yes"})  # a double click
    game.refresh_from_db()
    assert game.current_phase.index == 1


@pytest.mark.parametrize("amount", [HUGE, HUGER])
def test_huge_payments_are_refused_everywhere(make_game, seat, amount) -> None:
    from games import engine
    from games.models import Payment

    game = make_game("chinese")
    payer, payee = engine.powers(game)[:2]
    user = seat(game, payer).user
    response = token_client(user).post(
        f"/api/games/{game.pk}/payments/", {"to": payee, "amount": amount}, format="json"
    )
    assert "amount" in assert_json_4xx(response, 400)
    response = browser(user).post(
        reverse("pay", args=[game.pk]), {"to": payee, "amount": amount, "phase": "0"}
    )
    assert response.status_code == 302
    assert not Payment.objects.exists()


@pytest.mark.parametrize("amount", ["5", 5.0, 5.5, "5.0", True])
def test_a_payment_amount_is_a_json_integer(make_game, seat, amount) -> None:
    """5.0 was paid as 5 while "5" was refused: a JSON integer is written in digits."""
    from games import engine
    from games.models import Payment

    game = make_game("chinese")
    payer, payee = engine.powers(game)[:2]
    client = token_client(seat(game, payer).user)
    url = f"/api/games/{game.pk}/payments/"
    refused = client.post(url, {"to": payee, "amount": amount}, format="json")
    assert assert_json_4xx(refused, 400)["amount"] == ["A valid integer is required."]
    assert not Payment.objects.exists()
    assert client.post(url, {"to": payee, "amount": 5}, format="json").status_code == 201


def test_every_integer_field_refuses_a_whole_float(game, france) -> None:
    client = token_client(france.user)
    ready = client.post(
        f"/api/games/{game.pk}/ready/", {"ready": True, "phase": 0.0}, format="json"
    )
    assert "phase" in assert_json_4xx(ready, 400)
    saved = client.put(
        f"/api/games/{game.pk}/orders/", {"orders": ["A Paris H"], "phase": 0.0}, format="json"
    )
    assert "phase" in assert_json_4xx(saved, 400)
    assert not france.orders.exists()


# -- a URL without its final slash ---------------------------------------------------------


@pytest.mark.parametrize("debug", [False, True])
def test_a_missing_final_slash_reaches_the_view_with_its_body(game, france, settings, debug):
    """Django would redirect (the body lost) or, debugging, fail with a 500."""
    settings.DEBUG = debug
    client = token_client(france.user)
    url = f"/api/games/{game.pk}/orders"
    saved = client.put(url, {"orders": ["A Paris - Burgundy"]}, format="json")
    assert saved.status_code == 200, saved.content[:300]
    assert list(france.orders.values_list("text", flat=True)) == ["A Paris - Burgundy"]
    assert client.get(f"/api/games/{game.pk}").status_code == 200
    assert_json_4xx(client.put("/api/games/999999/orders", {"orders": []}, format="json"), 404)
    page = browser(france.user).post(f"/games/{game.pk}/orders", {"orders": "A Marseilles H"})
    assert page.status_code == 302 and page["Location"].endswith("#orders")


# -- usernames that pass for others ------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    # Cyrillic е/о, full-width letters, an Armenian օ, a Cherokee Ꭰ, a Latin dotless ı and alpha
    ["DEMO1", "Demo1", "dеmo1", "ｄｅｍｏ１", "dеmо1", "demօ1", "Ꭰemo1"],
)
def test_a_name_that_looks_like_a_taken_one_is_refused(make_user, name) -> None:
    make_user("demo1")
    api = token_client()
    answer = api.post(
        "/api/auth/signup/", {"username": name, "password": "a-Long-pass-77"}, format="json"
    )
    said = assert_json_4xx(answer, 400)["username"][0]
    assert "already exists" in said or "may not mix" in said
    page = Client().post(
        "/accounts/signup/",
        {"username": name, "password1": "a-Long-pass-77", "password2": "a-Long-pass-77"},
    )
    html = page.content.decode()
    assert page.status_code == 200 and ("already exists" in html or "may not mix" in html)


@pytest.mark.parametrize(("taken", "name"), [("ivan", "ıvan"), ("anna", "ɑnnɑ"), ("olga", "օլga")])
def test_latin_look_alikes_of_any_script_read_as_the_latin_letter(make_user, taken, name) -> None:
    make_user(taken)
    answer = token_client().post(
        "/api/auth/signup/", {"username": name, "password": "a-Long-pass-77"}, format="json"
    )
    said = assert_json_4xx(answer, 400)["username"][0]
    assert "already exists" in said or "may not mix" in said


def test_a_sign_up_looks_names_up_instead_of_reading_them_all(make_user) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games import usernames

    for n in range(30):
        make_user(f"player{n}")
    renamed = make_user("someone")
    renamed.username = "dmitri"
    renamed.save()
    for name, taken in (("plɑyer7", True), ("someone", False)):
        with CaptureQueriesContext(connection) as queries:
            assert (usernames.problem(name) is not None) is taken
        assert len(queries) <= 2 and all("WHERE" in q["sql"] for q in queries.captured_queries)
    assert usernames.problem("DMITRI") is not None


@pytest.mark.parametrize(
    ("taken", "name"),
    [
        ("MATH", "МАТН"),
        ("MATH", "ΜΑΤΗ"),
        ("TOMBA", "ТОМВА"),
        ("demo", "ԀЕМО"),
        ("demo1", "dem0l"),
        ("Тимур", "тимур"),  # the data lists the capital Т beside T, not its small т
        ("Нина", "НИНА"),
        ("Κώστας", "κώστας"),
        ("mario", "rnario"),  # Unicode lists "rn" beside "m"
    ],
)
def test_capital_look_alikes_and_ascii_ones_are_read_too(make_user, taken, name) -> None:
    """Cyrillic and Greek capitals are listed beside Latin ones, their small letters often
    not: the skeleton reads look-alikes before folding case. 0/O and 1/l/I read alike."""
    make_user(taken)
    answer = token_client().post(
        "/api/auth/signup/", {"username": name, "password": "a-Long-pass-77"}, format="json"
    )
    assert "already exists" in assert_json_4xx(answer, 400)["username"][0]


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("ΗИНА", "may not mix"),  # a Greek Eta before Cyrillic letters
        ("userЗ", "may not mix"),  # a Cyrillic Ze drawn like a 3
        ("12345\u3164", "drawn as nothing"),  # a Hangul filler
        ("иван\u3164", "drawn as nothing"),
    ],
)
def test_mixed_alphabets_and_invisible_letters_are_refused(name, said) -> None:
    answer = token_client().post(
        "/api/auth/signup/", {"username": name, "password": "a-Long-pass-77"}, format="json"
    )
    assert said in assert_json_4xx(answer, 400)["username"][0]


def test_an_account_sharing_a_skeleton_from_before_can_still_be_saved(make_user) -> None:
    """Accounts made before skeletons were unique may look alike; the younger keeps no
    skeleton (migration 0017) and may still be saved and edited in the admin."""
    from django.contrib.auth import get_user_model

    User = get_user_model()
    make_user("demo1")
    (older,) = User.objects.bulk_create([User(username="demoI", email="d@example.com")])
    older.set_password("a-Long-pass-77")
    older.save()
    older.username = "demoI"
    older.is_active = False
    older.save()
    boss = User.objects.create_superuser("boss", "boss@example.com", "pw-Long-77")
    admin = Client()
    admin.force_login(boss)
    form = {"username": "demoI", "date_joined_0": "2026-01-01", "date_joined_1": "00:00:00"}
    assert admin.post(f"/admin/auth/user/{older.pk}/change/", form).status_code == 302


def test_a_token_with_a_nul_or_odd_characters_is_a_401_not_an_error(make_user) -> None:
    client = APIClient()
    for key in ("abc\x00def", "x" * 41, "a;b", "a\tb"):
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        assert client.get("/api/games/").status_code == 401, key


def test_a_name_is_checked_as_it_will_be_stored(make_user) -> None:
    """Django stores a name's NFKC form: one ﷺ is 18 characters with spaces in them."""
    api = token_client()
    for name in ("ﷺ" * 9, "ﷺ"):
        answer = api.post(
            "/api/auth/signup/", {"username": name, "password": "a-Long-pass-77"}, format="json"
        )
        assert_json_4xx(answer, 400)
    made = api.post(
        "/api/auth/signup/", {"username": "ｚｅｔａ９", "password": "a-Long-pass-77"}, format="json"
    )
    assert made.status_code == 201 and made.json()["username"] == "zeta9"
    token = api.post("/api/auth/token/", {"username": "ｚｅｔａ９", "password": "a-Long-pass-77"})
    assert token.status_code == 200 and token.json()["token"] == made.json()["token"]


def test_look_alikes_signing_up_at_once_get_a_refusal_not_an_error(make_user, monkeypatch) -> None:
    """The check and the insert are apart: the stored skeleton is unique, so the second of
    two look-alikes made at the same moment is refused by the database, as a 400."""
    from games import usernames

    make_user("coco7x")
    monkeypatch.setattr(usernames, "problem", lambda name, user=None: None)  # the race window
    answer = token_client().post(
        "/api/auth/signup/", {"username": "сосо7х", "password": "a-Long-pass-77"}, format="json"
    )
    assert "already exists" in assert_json_4xx(answer, 400)["username"][0]
    page = Client().post(
        "/accounts/signup/",
        {"username": "сосо7х", "password1": "a-Long-pass-77", "password2": "a-Long-pass-77"},
    )
    assert page.status_code == 200 and "already exists" in page.content.decode()


def test_the_admin_may_not_rename_a_user_to_a_look_alike(make_user) -> None:
    from django.contrib.auth import get_user_model

    make_user("demo1")
    other = make_user("olga")
    boss = get_user_model().objects.create_superuser("boss", "boss@example.com", "pw-Long-77")
    admin = Client()
    admin.force_login(boss)
    url = f"/admin/auth/user/{other.pk}/change/"
    form = {
        "username": "ԁеmо1",
        "date_joined_0": "2026-01-01",
        "date_joined_1": "00:00:00",
        "is_active": "on",
    }
    page = admin.post(url, form)
    assert page.status_code == 200, page
    assert "may not mix" in page.content.decode(), page.context["adminform"].form.errors
    page = admin.post(url, {**form, "username": "DEMO1"})
    assert "already exists" in page.content.decode(), page.context["adminform"].form.errors
    other.refresh_from_db()
    assert other.username == "olga"
    assert admin.post(url, {**form, "username": "Olga"}).status_code == 302  # itself: fine
    added = admin.post(
        "/admin/auth/user/add/",
        {"username": "DEMO1", "usable_password": "false"},
    )
    assert added.status_code == 200 and "already exists" in added.content.decode()


def test_names_in_any_one_alphabet_are_welcome_but_not_mixed(make_user) -> None:
    make_user("demo1")
    api = token_client()
    for name in ("李白", "さくら", "Дмитрий", "demo2"):
        made = api.post(
            "/api/auth/signup/", {"username": name, "password": "a-Long-pass-77"}, format="json"
        )
        assert made.status_code == 201, (name, made.content)
    mixed = api.post(
        "/api/auth/signup/", {"username": "pаypal", "password": "a-Long-pass-77"}, format="json"
    )
    assert "mix" in assert_json_4xx(mixed, 400)["username"][0]


# -- game names that break a line or turn the text around ------------------------------------

UNSEEN_IN_NAMES = [
    "Line\nbreak",
    "Carriage\rreturn",
    "Tab\tbed",
    "Right\u202eto left",
    "Zero\u200bwidth",
    "Isolate\u2066d\u2069",
    "Line\u2028separator",
    # Letters and marks that draw as nothing (found by a second adversary)
    "a\u3164b",
    "\u3164\u3164\u3164",
    "\u115fx",
    "x\uffa0",
    "a\u034fb",
    "a\u180bb",
    "a\u17b4b",
    "\u2800",
]


def _game_form(name: str) -> dict:
    return {
        "name": name,
        "variant": "standard",
        "movement_minutes": 60,
        "retreats_minutes": 30,
        "adjustments_minutes": 30,
        "press": "full",
        "process_when_ready": "on",
        "civil_disorder_after": 2,
    }


@pytest.mark.parametrize("name", UNSEEN_IN_NAMES)
def test_a_game_name_with_control_or_invisible_characters_is_refused(make_user, name) -> None:
    """A line break in a name made every mail about the game fail (its subject is a header);
    a right-to-left override scrambles the lobby. The API, the page and the services refuse
    them."""
    creator = make_user("maker")
    answer = token_client(creator).post(
        "/api/games/", {"name": name, "variant": "standard"}, format="json"
    )
    assert "line breaks" in assert_json_4xx(answer, 400)["name"][0]
    page = browser(creator).post(reverse("create-game"), _game_form(name))
    assert page.status_code == 200 and "line breaks" in page.content.decode()
    with pytest.raises(services.GameError, match="line breaks"):
        services.create_game(creator, name=name, variant="standard")
    assert not Game.objects.exists()


def test_ordinary_names_in_any_script_are_still_welcome(make_user) -> None:
    client = token_client(make_user("maker"))
    for name in (
        "Tea & railways",
        "外交ゲーム",
        "لعبة الدبلوماسية",
        "Ελλάδα 1901 ☕",
        "한국 ❤\ufe0f",
    ):
        made = client.post("/api/games/", {"name": name, "variant": "standard"}, format="json")
        assert made.status_code == 201 and made.json()["name"] == name, made.content


def test_the_admin_may_not_give_a_game_a_name_with_a_line_break(make_user) -> None:
    from django.contrib.auth import get_user_model

    boss = get_user_model().objects.create_superuser("boss", "boss@example.com", "pw-Long-77")
    game = services.create_game(boss, name="Plain", variant="standard")
    form = {
        **_game_form("Two\nlines"),
        "options": json.dumps(game.options),
        "creator": boss.pk,
        "memberships-TOTAL_FORMS": 0,
        "memberships-INITIAL_FORMS": 0,
        "moderator_actions-TOTAL_FORMS": 0,
        "moderator_actions-INITIAL_FORMS": 0,
    }
    page = browser(boss).post(reverse("admin:games_game_change", args=[game.pk]), form)
    assert page.status_code == 200
    assert list(page.context["adminform"].form.errors) == ["name"]
    game.refresh_from_db()
    assert game.name == "Plain"


def test_mail_about_a_game_whose_stored_name_has_a_line_break_is_still_sent(
    game, seat, moderator
) -> None:
    """Names stored before they were checked: the subject is made one line, not refused."""
    from django.core import mail

    from games import notifications

    Game.objects.filter(pk=game.pk).update(name="Bad\r\nname\x85here")
    game.refresh_from_db()
    services.process_now(game, moderator)
    mail.outbox.clear()
    phase = game.phases.order_by("index").first()
    assert notifications.phase_processed(phase) == len(mail.outbox) > 0
    assert all(m.subject.startswith("[Bad name here] ") for m in mail.outbox)
    assert notifications.one_line("[a\n\nb]\tc\u2028") == "[a b] c"


def test_the_lobby_isolates_each_name_from_the_words_around_it(make_user, game, moderator) -> None:
    """A right-to-left name (or one stored before names were checked, with an override in
    it) would reorder the rest of its line: each is shown in a <bdi>."""
    from django.utils.html import escape

    forming = services.create_game(moderator, name="لعبة 7", variant="standard")
    Game.objects.filter(pk=game.pk).update(name="old\u202eeman")
    html = browser(moderator).get(reverse("lobby")).content.decode()
    for name in ("لعبة 7", "old\u202eeman"):
        assert f"<bdi>{escape(name)}</bdi></a>" in html, name
    assert "by <bdi>mod</bdi>" in html  # the open game's moderator
    assert "Sign out <bdi>mod</bdi>" in html
    assert forming.name in html


@pytest.mark.parametrize("name", [".", "..", "..."])
def test_a_username_of_dots_alone_is_refused(name) -> None:
    """/players/../ is not a profile page: a browser resolves the dots away."""
    answer = token_client().post(
        "/api/auth/signup/", {"username": name, "password": "a-Long-pass-77"}, format="json"
    )
    assert "dots alone" in assert_json_4xx(answer, 400)["username"][0]
    page = Client().post(
        "/accounts/signup/",
        {"username": name, "password1": "a-Long-pass-77", "password2": "a-Long-pass-77"},
    )
    assert page.status_code == 200 and "dots alone" in page.content.decode()
    made = token_client().post(
        "/api/auth/signup/", {"username": "j.r.r", "password": "a-Long-pass-77"}, format="json"
    )
    assert made.status_code == 201  # dots among other characters are fine


# -- a key given twice in one JSON object ------------------------------------------------------


def test_a_key_given_twice_is_refused_not_half_read(game, france, make_user) -> None:
    """``{"orders": [...], "orders": [...]}`` kept the last list and dropped the first unseen."""
    url = f"/api/games/{game.pk}/orders/"
    body = '{"orders": ["A Paris - Burgundy"], "orders": ["A Paris - Picardy"]}'
    token = Token.objects.create(user=france.user).key
    by_token = APIClient(raise_request_exception=False, HTTP_AUTHORIZATION=f"Token {token}")
    session = Client(raise_request_exception=False, enforce_csrf_checks=False)
    session.force_login(france.user)
    for client in (by_token, session, token_client(france.user)):
        answer = assert_json_4xx(client.put(url, body, content_type="application/json"), 400)
        assert answer == {"detail": 'The key "orders" is given twice in one JSON object.'}
    assert not Order.objects.filter(phase=game.current_phase).exists()
    # The same key however it is written (escaped), and at any depth.
    escaped = '{"orders": [], "\\u006frders": []}'
    assert (
        "orders"
        in assert_json_4xx(by_token.put(url, escaped, content_type="application/json"))["detail"]
    )
    deep = '{"name": "x", "variant": "standard", "options": {"a": [{"b": {"c": 1, "c": 2}}]}}'
    answer = assert_json_4xx(
        by_token.post("/api/games/", deep, content_type="application/json"), 400
    )
    assert answer == {"detail": 'The key "c" is given twice in one JSON object.'}
    # Signed out too, before anything else is read; a long key is cut in the answer.
    key = "k" * 300
    answer = assert_json_4xx(
        token_client().post(
            "/api/auth/token/", f'{{"{key}": 1, "{key}": 2}}', content_type="application/json"
        )
    )
    assert answer["detail"] == f'The key "{"k" * 50}…" is given twice in one JSON object.'
    answer = assert_json_4xx(
        by_token.put(url, body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="ja"), 400
    )
    assert '"orders"' in answer["detail"] and "twice" not in answer["detail"]


def test_the_same_key_in_different_objects_or_cases_is_no_repeat(game, france) -> None:
    client = token_client(france.user)
    body = '{"name": "x", "variant": "standard", "options": {"a": {"k": 1}, "b": {"k": 1}}}'
    answer = client.post("/api/games/", body, content_type="application/json")
    assert "twice" not in str(answer.content)
    sent = client.put(
        f"/api/games/{game.pk}/orders/",
        '{"orders": ["A Paris H"]}',
        content_type="application/json",
    )
    assert sent.status_code == 200, sent.content


@pytest.mark.parametrize(
    "body",
    [
        '{"a": ' * 100_000 + "1" + "}" * 100_000,  # objects, read through the key check
        '{"a": ' * 100 + '{"b": 1, "b": 2}' + "}" * 100,  # deep, and a key repeated inside
        '{"orders": [' + '"A Paris H", ' * 30_000 + '"A Paris H"], "orders": []}',
    ],
)
def test_deep_or_huge_objects_are_still_a_clean_4xx(game, france, body: str) -> None:
    response = token_client(france.user).put(
        f"/api/games/{game.pk}/orders/", body, content_type="application/json"
    )
    assert_json_4xx(response, 400, 413)


def test_a_body_of_a_type_not_read_is_told_which_types_are(game, seat) -> None:
    """A 415 names what the endpoint reads. Before, a body sent with no Content-Type was
    refused as media type "" (Django's development server calls it "text/plain")."""
    client = token_client(seat(game, "France").user)
    path = f"/api/games/{game.pk}/orders/"
    body = b'{"orders": ["A Paris H"]}'
    bare = assert_json_4xx(client.generic("PUT", path, body, content_type=""), 415)
    assert bare["detail"].startswith("The body has no Content-Type; send it as application/json")
    plain = client.generic("PUT", path, body, content_type="text/plain; charset=utf-8")
    detail = assert_json_4xx(plain, 415)["detail"]
    assert detail.startswith('Unsupported media type "text/plain"; send it as application/json')
    assert detail.endswith("application/x-www-form-urlencoded or multipart/form-data.")
    assert client.generic("PUT", path, body, content_type="application/json").status_code == 200


def test_json_sent_as_a_form_is_refused_saying_so(game, france) -> None:
    """Found by an adversary: ``curl -d '{"orders": [...]}'`` (a form's Content-Type) was
    answered "orders: This field is required.", which sent the client looking at its JSON."""
    response = token_client(france.user).generic(
        "PUT",
        f"/api/games/{game.pk}/orders/",
        json.dumps({"orders": ["A Paris H"]}),
        content_type="application/x-www-form-urlencoded",
    )
    detail = assert_json_4xx(response, 400)
    assert "Content-Type: application/json" in str(detail)
    # A real form is still read as one.
    response = token_client(france.user).generic(
        "PUT",
        f"/api/games/{game.pk}/orders/",
        "orders=A+Paris+H",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 200, response.content


def test_a_format_no_renderer_has_is_answered_in_json(game, france) -> None:
    """Found by an adversary: ``?format=xml`` answered 404 "Not found." of a game that exists."""
    response = token_client(france.user).get(f"/api/games/{game.pk}/?format=xml")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    assert response.json()["id"] == game.pk


def test_a_number_of_thousands_of_digits_is_refused_in_the_clients_terms(game, france) -> None:
    """Found by an adversary: a phase of 5,001 digits was a 400 that told the client to call
    ``sys.set_int_max_str_digits()``, the server's business. Refused the same, in its terms;
    a long number short of that is still read, for the view to judge."""
    url = f"/api/games/{game.pk}/orders/"
    token = Token.objects.create(user=france.user).key
    client = APIClient(raise_request_exception=False, HTTP_AUTHORIZATION=f"Token {token}")
    for digits in ("1" * 5001, "-" + "9" * 101):
        body = '{"orders": ["A Paris H"], "phase": ' + digits + "}"
        detail = assert_json_4xx(client.put(url, body, content_type="application/json"))["detail"]
        assert "digits: at most 100 are read" in detail and "sys." not in detail, detail
    body = '{"orders": ["A Paris H"], "phase": ' + "1" * 100 + "}"
    answer = assert_json_4xx(client.put(url, body, content_type="application/json"), 400)
    assert list(answer) == ["phase"]  # the view's own answer: no such phase number
    assert not Order.objects.filter(phase=game.current_phase).exists()


def test_a_number_past_what_a_float_holds_is_refused_for_that(make_user) -> None:
    """Found by an adversary: a game option of ``1e309`` was "Value must be valid JSON." (it
    is JSON; Python read it as infinity). Refused as too large, whatever the field."""
    token = Token.objects.create(user=make_user("maker")).key
    client = APIClient(raise_request_exception=False, HTTP_AUTHORIZATION=f"Token {token}")
    for number in ("1e309", "-1E+400", "1" * 400 + ".5"):
        body = '{"name": "x", "variant": "colonial", "options": {"seed": ' + number + "}}"
        answer = assert_json_4xx(client.post("/api/games/", body, content_type="application/json"))
        assert "is too large to read" in answer["detail"], answer
    small = '{"name": "x", "variant": "colonial", "movement_minutes": 1e-400}'
    answer = assert_json_4xx(client.post("/api/games/", small, content_type="application/json"))
    assert "movement_minutes" in answer  # 0.0, a number the field judges itself
