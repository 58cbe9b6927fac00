"""Light pages (issue #16 item 4): the game page leaves the board out and is gzipped, well
under 150 KB on the wire; the board is its own resource, at a phase-versioned address the
browser keeps a year, with an ETag; an order check fetches the order marks alone."""

from __future__ import annotations

import gzip
import re

import pytest
from django.urls import reverse
from test_play_press import client_for as signed_in

from games import services
from games.models import NotificationSettings

WIRE_LIMIT = 150 * 1024


@pytest.fixture
def colonial(make_game):
    return make_game("colonial")


def board_src(html: str) -> str:
    return re.search(r'data-src="([^"]+)"', html)[1].replace("&amp;", "&")


def test_the_game_page_weighs_under_150_kb_on_the_wire(colonial, seat, moderator):
    russia, china = seat(colonial, "Russia"), seat(colonial, "China")
    services.submit_orders(russia, ["A Moscow - Vladivostok via TSR", "A Vladivostok - Seoul"])
    for n in range(60):  # a game with some history and press
        services.send_message(colonial, china.user, f"Message {n}: " + "words " * 40)
    services.process_now(colonial, moderator)
    client = signed_in(russia.user)
    response = client.get(reverse("game", args=[colonial.pk]), HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip" and "Accept-Encoding" in response["Vary"]
    wire = len(response.content)
    html = gzip.decompress(response.content).decode()
    print(f"game page: {len(html):,} bytes of HTML, {wire:,} on the wire")
    assert wire < WIRE_LIMIT
    assert "<path" not in html  # the map is not inlined
    # The board it names is the big part, and is fetched (and kept) on its own.
    board = client.get(board_src(html), HTTP_ACCEPT_ENCODING="gzip")
    assert board["Content-Encoding"] == "gzip"
    assert len(gzip.decompress(board.content)) > 3 * len(html)


def test_the_board_is_cached_per_phase_with_an_etag(colonial, seat, moderator):
    russia = seat(colonial, "Russia")
    client = signed_in(russia.user)
    src = board_src(client.get(reverse("game", args=[colonial.pk])).content.decode())
    assert "phase=0&v=" in src
    first = client.get(src)
    assert first.status_code == 200 and first["Content-Type"] == "image/svg+xml"
    control = first["Cache-Control"]
    assert "max-age=31536000" in control and "immutable" in control and "private" in control
    etag = first["ETag"]
    again = client.get(src, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag
    # Gzipped, the ETag comes back weak; the browser sends it back so, and it still matches.
    zipped = client.get(src, HTTP_ACCEPT_ENCODING="gzip")
    assert zipped["ETag"] == "W/" + etag
    assert client.get(src, HTTP_IF_NONE_MATCH=zipped["ETag"]).status_code == 304
    # Orders do not change the versioned board: typing orders never makes it stale.
    services.submit_orders(russia, ["A Moscow - Perm"])
    assert client.get(src, HTTP_IF_NONE_MATCH=etag).status_code == 304
    # An old or forged version is answered, but not kept.
    stale = client.get(src.replace("&v=", "&v=0"))
    assert stale.status_code == 200 and "no-cache" in stale["Cache-Control"]
    # Processing draws the results: the phase's address changes with its picture.
    services.process_now(colonial, moderator)
    history = client.get(reverse("game", args=[colonial.pk]) + "?phase=0").content.decode()
    assert board_src(history) != src and "phase=0&v=" in board_src(history)
    now = board_src(client.get(reverse("game", args=[colonial.pk])).content.decode())
    assert "phase=1&v=" in now


def test_another_palette_is_another_address(colonial, seat):
    russia = seat(colonial, "Russia")
    client = signed_in(russia.user)
    before = board_src(client.get(reverse("game", args=[colonial.pk])).content.decode())
    prefs = NotificationSettings.of(russia.user)
    prefs.palette = "colour-blind"
    prefs.save()
    after = board_src(client.get(reverse("game", args=[colonial.pk])).content.decode())
    assert after != before


def test_an_order_check_fetches_only_the_order_marks(colonial, seat):
    russia, china = seat(colonial, "Russia"), seat(colonial, "China")
    services.submit_orders(russia, ["A Moscow - Vladivostok via TSR"])
    url = reverse("board", args=[colonial.pk]) + "?phase=0&part=orders"
    marks = signed_in(russia.user).get(url)
    text = marks.content.decode()
    assert marks.status_code == 200 and "no-cache" in marks["Cache-Control"] and marks["ETag"]
    assert text.startswith('<g id="order-marks">') and '<g id="order-marks-over">' in text
    assert "A Moscow - Vladivostok via TSR" in text and '<path d="M' in text
    assert len(marks.content) < 5_000  # the marks, not the 600 KB map
    assert "<title>Moscow" not in text
    # Another power's unprocessed orders are not among the marks it may fetch.
    assert "Vladivostok via TSR" not in signed_in(china.user).get(url).content.decode()
    again = signed_in(russia.user).get(url, HTTP_IF_NONE_MATCH=marks["ETag"])
    assert again.status_code == 304


def test_the_order_check_endpoint_answers_without_a_board(colonial, seat):
    russia = seat(colonial, "Russia")
    client = signed_in(russia.user)
    response = client.post(
        reverse("game-check-orders", args=[colonial.pk])
        if _has_route("game-check-orders")
        else f"/api/games/{colonial.pk}/orders/check/",
        {"orders": ["A Moscow - Perm"]},
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    assert b"<svg" not in response.content and len(response.content) < 5_000


def _has_route(name: str) -> bool:
    from django.urls import NoReverseMatch

    try:
        reverse(name, args=[1])
    except NoReverseMatch:
        return False
    return True


def test_without_javascript_the_page_shows_the_whole_board_as_an_image(colonial, seat):
    russia = seat(colonial, "Russia")
    services.submit_orders(russia, ["A Moscow - Perm"])
    client = signed_in(russia.user)
    html = client.get(reverse("game", args=[colonial.pk])).content.decode()
    image = re.search(r'<noscript><img src="([^"]+)"', html)[1].replace("&amp;", "&")
    board = client.get(image)
    assert board["Content-Type"] == "image/svg+xml" and "no-cache" in board["Cache-Control"]
    assert 'xmlns="http://www.w3.org/2000/svg"' in board.content.decode()
    assert "A Moscow - Perm" in board.content.decode()  # its own orders drawn


def test_event_streams_are_never_gzipped(colonial, seat):
    response = signed_in(seat(colonial, "Russia").user).get(
        reverse("game-events", args=[colonial.pk]), HTTP_ACCEPT_ENCODING="gzip"
    )
    assert response.status_code == 200 and not response.has_header("Content-Encoding")
    assert b"event: phase" in b"".join(response.streaming_content)


def test_the_game_page_has_one_element_of_each_id(colonial, seat):
    """The board's order marks and the page's orders panel had both been ``id="orders"``."""
    import re
    from collections import Counter

    russia = seat(colonial, "Russia")
    html = signed_in(russia.user).get(reverse("game", args=[colonial.pk])).content.decode()
    board = signed_in(russia.user).get(reverse("board", args=[colonial.pk])).content.decode()
    ids = Counter(re.findall(r'\sid="([^"]+)"', html + board))
    assert [i for i, n in ids.items() if n > 1] == []
