"""Django's messages are made for pages only (``games.middleware.PageMessageMiddleware``)."""

from __future__ import annotations

from unittest import mock

from django.contrib.messages import middleware as messages_middleware
from django.core import checks


def test_an_api_request_makes_no_message_storage(api, game, seat) -> None:
    player = api(seat(game, "France").user)
    url = f"/api/games/{game.pk}/orders/"
    with mock.patch.object(
        messages_middleware, "default_storage", side_effect=AssertionError("made")
    ) as storage:
        sent = player.put(url, {"orders": ["A Paris H"]}, format="json")
    assert sent.status_code == 200, sent.content
    assert not storage.called


def test_a_page_still_has_its_messages(client) -> None:
    made = []
    real = messages_middleware.default_storage

    def spy(request):
        made.append(request.path)
        return real(request)

    with mock.patch.object(messages_middleware, "default_storage", spy):
        page = client.get("/accounts/login/")
    assert page.status_code == 200
    assert made == ["/accounts/login/"]


def test_the_admin_finds_the_messages_middleware() -> None:
    assert not [e for e in checks.run_checks() if e.id == "admin.E409"]
