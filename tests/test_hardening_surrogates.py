"""A lone surrogate escape (``"\\ud800"``) in a JSON body: a clear 400, never a 500.

Python's JSON decoder reads ``"\\ud800"`` as a string no UTF-8 encoder can write; a
validation error that echoed it made the JSON renderer raise ``UnicodeEncodeError``.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import Game

pytestmark = pytest.mark.django_db

SURROGATE = "\\ud800"  # as written in the JSON text


def client_of(user=None) -> APIClient:
    client = APIClient(raise_request_exception=False)
    if user is not None:
        client.force_authenticate(user)
    return client


def send(client, method: str, url: str, body_text: str):
    return getattr(client, method)(url, body_text, content_type="application/json")


def assert_clear_400(response) -> dict:
    assert response.status_code == 400, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json")
    body = json.loads(response.content)
    assert "surrogate" in json.dumps(body).lower(), body
    return body


BODIES = [
    ("put", "/api/auth/notifications/", '{"time_zone": "%s"}'),
    ("put", "/api/auth/notifications/", '{"language": "%s"}'),
    ("put", "/api/auth/notifications/", '{"palette": "%s"}'),
    ("post", "/api/games/", '{"name": "x", "variant": "%s"}'),
    ("post", "/api/games/", '{"name": "x", "variant": "standard", "press": "%s"}'),
    ("post", "/api/games/", '{"name": "x%s", "variant": "standard"}'),
    ("post", "/api/sandbox/", '{"variant": "%s"}'),
    ("post", "/api/sandbox/", '{"variant": "colonial", "%s": 1}'),
    ("put", "/api/games/{game}/orders/", '{"%s": 1, "orders": []}'),
    ("put", "/api/games/{game}/orders/", '{"orders": ["A Paris H%s"]}'),
    ("post", "/api/games/{game}/messages/", '{"body": "hi", "recipients": [["%s"]]}'),
    (
        "post",
        "/api/games/{game}/webhooks/",
        '{"url": "https://example.com/", "events": ["%s"]}',
    ),
    ("post", "/api/games/", '{"name": "x", "variant": "standard", "options": {"a": {"%s": 1}}}'),
]


@pytest.mark.parametrize("method, path, template", BODIES, ids=lambda v: str(v))
def test_a_lone_surrogate_anywhere_in_a_json_body_is_a_400(
    game, seat, moderator, method, path, template
) -> None:
    user = moderator if "webhooks" in path else seat(game, "France").user
    response = send(client_of(user), method, path.format(game=game.pk), template % SURROGATE)
    assert_clear_400(response)


def test_a_lone_surrogate_is_refused_before_any_view_sees_it(game, seat) -> None:
    """Refused by the parser: nothing of the body is stored."""
    france = seat(game, "France")
    response = send(
        client_of(france.user),
        "put",
        f"/api/games/{game.pk}/orders/",
        '{"orders": ["A Paris H"], "x": "\\udfff"}',
    )
    assert_clear_400(response)
    assert not france.orders.exists()


def test_a_surrogate_pair_is_one_character_and_welcome(game, seat) -> None:
    """``"\\ud83d\\ude00"`` is a pair: one emoji, not a lone surrogate."""
    response = send(
        client_of(seat(game, "France").user),
        "post",
        f"/api/games/{game.pk}/messages/",
        '{"body": "hi \\ud83d\\ude00"}',
    )
    assert response.status_code == 201, response.content[:300]
    assert json.loads(response.content)["body"] == "hi \U0001f600"


def test_an_error_never_echoes_an_unencodable_value(rf) -> None:
    """Whatever reaches the renderer, its answer is written: a lone surrogate is escaped."""
    from games.renderers import JSONRenderer

    text = JSONRenderer().render({"variant": ['"\ud800" is not a valid choice.']})
    assert json.loads(text) == {"variant": ['"\ud800" is not a valid choice.']}


@pytest.mark.parametrize(
    "name, data",
    [
        ("create-game", "name=x&variant=%ED%A0%80"),
        ("create-game", "name=%ED%A0%80&variant=standard"),
        ("account-settings", "time_zone=%ED%A0%80&palette=%ED%A0%80"),
    ],
)
def test_web_forms_with_an_encoded_surrogate_are_no_server_error(make_user, name, data) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(make_user("u"))
    response = client.post(reverse(name), data, content_type="application/x-www-form-urlencoded")
    assert response.status_code < 500, response.content[:300]


def test_an_encoded_surrogate_in_a_form_post_to_the_api_is_no_server_error(make_user) -> None:
    response = client_of(make_user("u")).post(
        "/api/games/",
        "name=x&variant=%ED%A0%80",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 400, response.content[:300]
    assert not Game.objects.filter(name="x").exists()
