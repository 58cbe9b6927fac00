"""What one player can learn of the press (and payments) they may not see, and the HTTP
surface around it (hardening, round 3).

- Message and payment ids are random public ids, not row ids: row ids count every message
  on the site, so the gaps between the ids a player saw (in the API, the live events' ids and
  cursors, the page's "Earlier messages" link) said how much private press others were
  sending, and when.
- A reader's press is picked by the database: every message of the game was read to keep a
  player's, so an answer's time grew with others' private press.
- A form body that is not text in its charset is a 400 (API and pages), not stored with
  U+FFFD or Latin-1 stand-ins; press a page refuses comes back in the box.
- The orders' If-Match / ETag / 412 are in the OpenAPI schema; "not in this game" is worded
  as its sibling "already in this game".
"""

from __future__ import annotations

import re

import pytest
from django.db.models.signals import post_init
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games import services, visibility
from games.models import Game, Message, Payment

pytestmark = pytest.mark.django_db

# Public ids: sixteen digits, exact as JavaScript numbers (games.models.new_public_id).
PUBLIC_ID_MIN, PUBLIC_ID_MAX = 10**15, 2**53 - 1


@pytest.fixture
def colonial(make_game) -> Game:
    return make_game("colonial")


def page_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def api_client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def events(client, game: Game, **query) -> list[dict]:
    """The events of ``?poll=1`` (the same a stream sends first), as dicts."""
    answer = client.get(reverse("game-events", args=[game.pk]), {"poll": "1", **query})
    assert answer.status_code == 200, answer.content
    blocks = answer.content.decode().strip().split("\n\n")
    out = []
    for block in filter(None, blocks):
        fields = dict(re.findall(r"^(id|event|data): ?(.*)$", block, re.M))
        out.append(fields)
    return out


def public_id_shape(number: int) -> bool:
    return PUBLIC_ID_MIN <= number <= PUBLIC_ID_MAX and len(str(number)) == 16


# -- ids -------------------------------------------------------------------------------------


def test_message_ids_say_nothing_of_the_press_a_player_cannot_read(colonial, seat):
    """Japan reads two messages with 25 private ones of others between them: with row ids it
    saw ids 1 and 27 and could count them (and, polling, time them)."""
    russia, japan = seat(colonial, "Russia"), seat(colonial, "Japan")
    first = services.send_message(colonial, russia.user, "to Japan", ["Japan"])
    for n in range(25):
        services.send_message(colonial, russia.user, f"secret {n}", ["China"])
    second = services.send_message(colonial, russia.user, "to Japan again", ["Japan"])
    listed = api_client(japan.user).get(f"/api/games/{colonial.pk}/messages/").json()
    ids = [m["id"] for m in listed["results"]]
    assert listed["count"] == 2
    assert all(public_id_shape(i) for i in ids)
    assert ids != [first.pk, second.pk] and ids[1] - ids[0] != second.pk - first.pk
    assert ids == [first.public_id, second.public_id]
    # The live events name the same ids, and the event id (the cursor) too.
    press = [e for e in events(page_client(japan.user), colonial, since="0-0") if e["event"]]
    said = [re.search(r'"id":(\d+)', e["data"])[1] for e in press if e["event"] == "press"]
    assert said == [str(first.public_id), str(second.public_id)]
    assert press[-1]["id"] == f"0-{second.public_id}"
    # A new message gets its own, unrelated to the others'.
    third = services.send_message(colonial, russia.user, "and again", ["Japan"])
    assert len({first.public_id, second.public_id, third.public_id}) == 3


def test_payment_ids_say_nothing_of_the_payments_of_others(make_game, seat):
    chinese = make_game("chinese")
    france, england = seat(chinese, "France"), seat(chinese, "England")
    mine = services.pay(france, "England", 5)
    for _ in range(3):
        services.pay(seat(chinese, "Russia"), "Japan", 1)  # this year's: only the two see them
    again = services.pay(france, "England", 6)
    rows = api_client(france.user).get(f"/api/games/{chinese.pk}/payments/").json()["results"]
    assert [r["id"] for r in rows] == [mine.public_id, again.public_id]
    assert all(public_id_shape(r["id"]) for r in rows)
    assert Payment.objects.get(pk=again.pk).public_id != again.pk
    seen_by_england = api_client(england.user).get(f"/api/games/{chinese.pk}/payments/").json()
    assert [r["id"] for r in seen_by_england["results"]] == [mine.public_id, again.public_id]


def test_a_cursor_names_a_message_the_viewer_reads_by_its_public_id(colonial, seat, make_game):
    """The page starts its stream at its reader's newest message, by public id; a cursor
    naming a row id, a message of another game or one the viewer may not read is the same
    400 (a made-up number tells nothing), and the press after a good one comes."""
    russia, china, japan = (seat(colonial, p) for p in ("Russia", "China", "Japan"))
    mine = services.send_message(colonial, russia.user, "to Japan", ["Japan"])
    hidden = services.send_message(colonial, russia.user, "to China", ["China"])
    later = services.send_message(colonial, russia.user, "to all")
    elsewhere = make_game("colonial")
    other = services.send_message(elsewhere, seat(elsewhere, "Russia").user, "public, elsewhere")
    client = page_client(japan.user)
    page = client.get(reverse("game", args=[colonial.pk])).content.decode()
    assert re.findall(r"\?since=([0-9-]+)", page) == [f"0-{later.public_id}"]
    after = events(client, colonial, since=f"0-{mine.public_id}")
    assert [e["id"] for e in after if e["event"] == "press"] == [f"0-{later.public_id}"]
    url = reverse("game-events", args=[colonial.pk])
    refused = [
        client.get(url, {"poll": "1", "since": f"0-{number}"})
        for number in (mine.pk, hidden.public_id, other.public_id, 10**15)
    ]
    assert [r.status_code for r in refused] == [400] * 4
    assert len({r.content for r in refused}) == 1
    assert page_client(china.user).get(
        url, {"poll": "1", "since": f"0-{hidden.public_id}"}
    ).status_code == (200)


def test_the_earlier_messages_link_names_a_public_id(colonial, seat):
    france, england = seat(colonial, "France"), seat(colonial, "Britain")
    Message.objects.bulk_create(
        Message(game=colonial, sender=france.user, sender_power="France", body=f"note {n:03}")
        for n in range(60)
    )
    html = page_client(england.user).get(reverse("game", args=[colonial.pk])).content.decode()
    before = re.search(r"before=(\d+)", html)[1]
    shown_first = Message.objects.get(body="note 010")
    assert before == str(shown_first.public_id) and public_id_shape(int(before))
    # A row id, or any number the thread does not have, shows the latest messages.
    url = reverse("game", args=[colonial.pk]) + "?thread=public"
    latest = page_client(england.user).get(f"{url}&before={shown_first.pk}").content.decode()
    assert "note 059" in latest and "Latest messages" not in latest


# -- the database picks the press ------------------------------------------------------------


@pytest.fixture
def messages_read():
    """Counts the messages read from the database (made into objects) while it is held."""
    count = {"n": 0}

    def seen(sender, instance, **kwargs):
        count["n"] += 1

    post_init.connect(seen, sender=Message)
    yield count
    post_init.disconnect(seen, sender=Message)


def test_reading_ones_press_reads_no_private_press_of_others(colonial, seat, messages_read):
    """Every answer that shows press read the game's every message and kept the reader's:
    its time grew with the private press of others. Now the database picks them."""
    russia, japan = seat(colonial, "Russia"), seat(colonial, "Japan")
    services.send_message(colonial, russia.user, "to Japan", ["Japan"])
    services.send_message(colonial, japan.user, "to all")
    for n in range(30):
        services.send_message(colonial, russia.user, f"secret {n}", ["China"])
    readable = 2
    for ask in (
        lambda: api_client(japan.user).get(f"/api/games/{colonial.pk}/messages/"),
        lambda: page_client(japan.user).get(reverse("game", args=[colonial.pk])),
        lambda: events(page_client(japan.user), colonial, since="0-0"),
        lambda: events(page_client(japan.user), colonial),
    ):
        messages_read["n"] = 0
        ask()
        assert messages_read["n"] <= 2 * readable, messages_read["n"]


@pytest.mark.parametrize("power", ["China", "Russia", "Japan", "", None])
def test_the_database_and_can_read_agree(colonial, seat, moderator, power):
    russia, china = seat(colonial, "Russia"), seat(colonial, "China")
    sent = [
        services.send_message(colonial, russia.user, "public"),
        services.send_message(colonial, russia.user, "to China", ["China"]),
        services.send_message(colonial, china.user, "to Russia and Japan", ["Russia", "Japan"]),
        services.send_message(colonial, moderator, "from the moderator to China", ["China"]),
        services.send_message(colonial, moderator, "from the moderator to all"),
    ]
    by_rule = {m.pk for m in sent if visibility.can_read(m, power)}
    by_database = set(
        colonial.messages.filter(visibility.readable_by(power)).values_list("pk", flat=True)
    )
    assert by_rule == by_database
    # Blank is no power: the moderator's private press (sent from no power) is not its own.
    if not power:
        assert by_rule == {sent[0].pk, sent[4].pk}


def test_the_migration_gives_old_rows_random_ids_and_their_readers(transactional_db):
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    before = [("games", "0023_heartbeat")]
    after = [("games", "0025_public_ids_unique")]
    executor.migrate(before)
    try:
        old = executor.loader.project_state(before).apps
        user = old.get_model("auth", "User").objects.create(username="old")
        game = old.get_model("games", "Game").objects.create(
            name="Old", variant="colonial", creator_id=user.pk
        )
        message_model = old.get_model("games", "Message")
        rows = [
            message_model.objects.create(game_id=game.pk, sender_id=user.pk, body="a"),
            message_model.objects.create(
                game_id=game.pk,
                sender_id=user.pk,
                sender_power="Russia",
                recipients=["Japan", "China"],
                body="b",
            ),
        ]
        executor = MigrationExecutor(connection)
        executor.migrate(after)
        new = executor.loader.project_state(after).apps.get_model("games", "Message")
        migrated = {m.pk: m for m in new.objects.all()}
        assert migrated[rows[0].pk].readers == ""
        assert migrated[rows[1].pk].readers == "|China|Japan|Russia|"
        ids = [migrated[r.pk].public_id for r in rows]
        assert all(public_id_shape(i) for i in ids) and len(set(ids)) == 2
    finally:
        MigrationExecutor(connection).migrate(
            MigrationExecutor(connection).loader.graph.leaf_nodes()
        )


# -- form bodies that are not text ------------------------------------------------------------


@pytest.mark.parametrize(
    "body, content_type",
    [
        (b"body=ab%FFc", "application/x-www-form-urlencoded"),
        (b"body=ab%ED%A0%80c", "application/x-www-form-urlencoded"),  # a surrogate, as UTF-8
        (b"body=ab\xed\xa0\x80c", "application/x-www-form-urlencoded"),  # raw, read as Latin-1
        (b"body=abc", "application/x-www-form-urlencoded; charset=no-such-charset"),
        (
            b'--x\r\nContent-Disposition: form-data; name="body"\r\n\r\nab\xffc\r\n--x--\r\n',
            "multipart/form-data; boundary=x",
        ),
    ],
)
def test_a_form_body_that_is_not_text_is_a_400(colonial, seat, body, content_type):
    """Django read these with stand-ins (U+FFFD, or Latin-1 with C1 controls) and the press
    was stored so, where the same bytes in JSON are a 400."""
    russia = seat(colonial, "Russia")
    api = APIClient()
    api.force_authenticate(russia.user)
    answer = api.generic(
        "POST", f"/api/games/{colonial.pk}/messages/", body, content_type=content_type
    )
    assert answer.status_code == 400, answer.content
    assert answer["Content-Type"].startswith("application/json") and answer.json()["detail"]
    page = Client(enforce_csrf_checks=False)
    page.force_login(russia.user)
    refused = page.generic(
        "POST", reverse("send-press", args=[colonial.pk]), body + b"&phase=0", content_type
    )
    assert refused.status_code == 400
    assert not colonial.messages.exists()


def test_form_bodies_that_are_text_still_pass(colonial, seat):
    russia = seat(colonial, "Russia")
    api = APIClient()
    api.force_authenticate(russia.user)
    url = f"/api/games/{colonial.pk}/messages/"
    for body, content_type, expected in [
        (b"body=caf%C3%A9+ok", "application/x-www-form-urlencoded", "café ok"),
        ("body=raw café".encode(), "application/x-www-form-urlencoded", "raw café"),
        (b"body=ab%FFc", "application/x-www-form-urlencoded; charset=latin-1", "abÿc"),
    ]:
        answer = api.generic("POST", url, body, content_type=content_type)
        assert answer.status_code == 201, answer.content
        assert answer.json()["body"] == expected


# -- press a page refuses is kept ----------------------------------------------------------


def box(html: str) -> str:
    return re.search(r'<textarea[^>]*name="body"[^>]*>(.*?)</textarea>', html, re.S)[1].strip()


def test_press_the_page_refuses_comes_back_in_the_box(colonial, seat):
    """Press written to oneself alone, or past the length limit, was refused and the words
    typed were lost; the orders box keeps them, and so does the press box now."""
    russia = seat(colonial, "Russia")
    client = page_client(russia.user)
    url = reverse("send-press", args=[colonial.pk])
    form = {"body": "only to me", "recipients": ["Russia"], "phase": "0"}
    shown = client.post(url, form, follow=True).content.decode()
    assert "someone other than yourself" in shown and box(shown) == "only to me"
    long = "a long letter " + "x" * 5000
    shown = client.post(url, {"body": long, "recipients": ["China"], "phase": "0"}, follow=True)
    html = shown.content.decode()
    assert box(html) == long
    assert re.findall(r'<input[^>]*value="(\w+)"[^>]*checked', html) == ["China"]
    assert not colonial.messages.exists()
    # Once shown, it is not shown again.
    assert box(client.get(reverse("game", args=[colonial.pk])).content.decode()) == ""


# -- the schema and the words ---------------------------------------------------------------


def test_the_schema_describes_if_match_the_etag_and_412(client):
    schema = client.get("/api/schema/?format=json").json()
    orders = schema["paths"]["/api/games/{id}/orders/"]
    put = orders["put"]
    if_match = next(p for p in put["parameters"] if p["name"] == "If-Match")
    assert if_match["in"] == "header" and not if_match.get("required")
    pattern = re.compile(if_match["schema"]["pattern"])
    for accepted in ['W/"3.2.abc"', '"3.2.abc"', "*", " * ", 'W/"a", "b"', ',W/"a",']:
        assert pattern.fullmatch(accepted), accepted
    for refused in ["abc", 'W/"a" "b"', "", '"a"b"']:
        assert not pattern.fullmatch(refused), refused
    assert put["responses"]["412"]["content"]["application/json"]
    for method in ("get", "put"):
        assert "ETag" in orders[method]["responses"]["200"]["headers"]
    message_id = schema["components"]["schemas"]["Message"]["properties"]["id"]
    assert "Random" in message_id["description"]


def test_the_refusals_of_joining_twice_and_leaving_unjoined_are_worded_alike(moderator, make_user):
    forming = services.create_game(moderator, name="Forming", variant="colonial")
    ada = make_user("ada")
    api = api_client(ada)
    url = f"/api/games/{forming.pk}/"
    assert api.post(url + "leave/").json() == {"detail": "you are not in this game"}
    assert api.post(url + "join/", {}, format="json").status_code == 200
    assert api.post(url + "join/", {}, format="json").json() == {
        "detail": "you are already in this game"
    }


@pytest.mark.parametrize("path", ["/api/schema/", "/api/docs/"])
def test_the_schema_and_the_docs_refuse_in_json(client, path):
    """Their 405 was the error object written as OpenAPI YAML (``string:``, ``code:``) or an
    HTML page, where every other refusal under /api/ is JSON; a bad token too."""
    for method in ("post", "put", "delete"):
        refused = getattr(client, method)(path)
        assert refused.status_code == 405
        assert refused["Content-Type"] == "application/json"
        assert refused.json() == {"detail": f'Method "{method.upper()}" not allowed.'}
    bad_token = client.get(path, HTTP_AUTHORIZATION="Token nonsense")
    assert bad_token.status_code == 401 and bad_token.json()["detail"]
    assert client.get(path).status_code == 200


def test_a_webhook_address_too_long_is_refused_not_cut(colonial, moderator):
    """The console cut the address to the column's 500 characters and checked and stored
    that: the hook then posted to another address than the one given."""
    client = page_client(moderator)
    url = reverse("webhook-add", args=[colonial.pk])
    given = "https://example.com/" + "a" * 480 + "/the-part-that-names-the-channel"
    shown = client.post(url, {"url": given}, follow=True).content.decode()
    assert "no more than 500 characters" in shown
    assert not colonial.webhooks.exists()
    client.post(url, {"url": "https://example.com/hook"})
    assert list(colonial.webhooks.values_list("url", flat=True)) == ["https://example.com/hook"]


def test_a_refused_webhook_address_comes_back_in_its_box_with_why(colonial, moderator):
    """An adversary's finding: an http address was refused at the top of the console, in
    lower case, and the box came back empty."""
    client = page_client(moderator)
    url = reverse("webhook-add", args=[colonial.pk])
    answer = client.post(url, {"url": "http://example.com/my/hook", "language": "ja"})
    assert answer["Location"] == reverse("moderate", args=[colonial.pk]) + "#webhooks"
    shown = client.get(answer["Location"]).content.decode()
    beside = shown[shown.index('id="webhook-refused"') : shown.index('id="webhook-url"')]
    assert "The webhook was not added:" in beside
    assert "<li>The address must be an https URL.</li>" in beside
    assert 'value="http://example.com/my/hook"' in shown
    assert '<option value="ja" selected>' in shown
    assert not colonial.webhooks.exists()
    again = client.get(reverse("moderate", args=[colonial.pk])).content.decode()
    assert "webhook-refused" not in again and 'value="http://example.com' not in again


@pytest.mark.parametrize(
    "query",
    [
        "open_seats=",
        "status=",
        "variant=",
        "name=",
        "min_phase_minutes=",
        "public=",
        "status=active&status=forming",
        "open_seats=true&open_seats=false",
    ],
)
def test_a_search_filter_given_empty_or_twice_is_a_400(client, query):
    """``?open_seats=`` (the schema: true or false) was read as no filter, and a filter given
    twice as its last value: a client's slip silently widened or changed the search. Found by
    schemathesis's long run."""
    refused = client.get(f"/api/games/?{query}")
    assert refused.status_code == 400, refused.content
    name = query.split("=")[0]
    assert list(refused.json()) == [name]
    assert client.get("/api/games/?open_seats=true&status=forming").status_code == 200


def test_the_find_games_page_still_reads_empty_fields_as_any(client, make_user):
    client.force_login(make_user("finder"))
    page = client.get("/games/?open_seats=&status=&variant=&name=")
    assert page.status_code == 200
