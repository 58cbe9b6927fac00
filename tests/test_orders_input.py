"""A body of orders read without the serializer when it is plain (``orders_input``): the
same data as the serializer's, and every body it is not sure of goes to the serializer,
whose words say what is wrong."""

from __future__ import annotations

from unittest import mock

import pytest
from rest_framework import serializers

from games.limits import MAX_INTEGER, MAX_ORDER_LENGTH, MAX_ORDERS
from games.serializers import OrdersInputSerializer, orders_input

BODIES = [
    {"orders": ["A Paris - Burgundy", "F Brest H"]},
    {"orders": ["  a par-bur  ", "\tF  Brest H\n"], "phase": 0},
    {"orders": [], "phase": 3},
    {"orders": ["A Paris H"], "phase": MAX_INTEGER},
    {"orders": ["x" * MAX_ORDER_LENGTH]},
    {"orders": ["A Paris H"] * MAX_ORDERS},
    {"orders": ["陸軍 パリ 保持", "A Mün H"]},
    # Refused, in the serializer's words:
    {"orders": ["x" * (MAX_ORDER_LENGTH + 1)]},
    {"orders": [" " + "x" * MAX_ORDER_LENGTH]},  # too long before it is trimmed
    {"orders": ["A Paris H"] * (MAX_ORDERS + 1)},
    {"orders": ["A Paris H", "   "]},
    {"orders": [""]},
    {"orders": ["A Paris\x00 H"]},
    {"orders": ["A Paris \ud800 H"]},
    {"orders": ["A Paris H", 5]},
    {"orders": [None]},
    {"orders": [["A Paris H"]]},
    {"orders": "A Paris H"},
    {"orders": None},
    {"orders": {"0": "A Paris H"}},
    {},
    {"phase": 0},
    {"orders": [], "phase": -1},
    {"orders": [], "phase": MAX_INTEGER + 1},
    {"orders": [], "phase": True},
    {"orders": [], "phase": 1.0},
    {"orders": [], "phase": "1"},
    {"orders": [], "phase": None},
    {"orders": [], "phaes": 1},
    {"orders": [], "phase": 1, "extra": {"deep": [1, 2]}},
    ["A Paris H"],
    "A Paris H",
    None,
]


def _serializer(body: object) -> tuple[str, object]:
    serializer = OrdersInputSerializer(data=body)
    if serializer.is_valid():
        return "valid", dict(serializer.validated_data)
    return "refused", serializer.errors


def _ours(body: object) -> tuple[str, object]:
    try:
        return "valid", dict(orders_input(body))
    except serializers.ValidationError as refused:
        return "refused", refused.detail


@pytest.mark.parametrize("body", BODIES, ids=range(len(BODIES)))
def test_the_same_answer_as_the_serializer(body) -> None:
    assert _ours(body) == _serializer(body)


def test_a_plain_body_is_read_without_building_the_serializer() -> None:
    with mock.patch.object(OrdersInputSerializer, "__init__", side_effect=AssertionError):
        data = orders_input({"orders": [" A Paris H ", "F Brest - MAO"], "phase": 2})
    assert data == {"orders": ["A Paris H", "F Brest - MAO"], "phase": 2}
    assert type(data["orders"]) is list


def test_a_body_it_is_not_sure_of_goes_to_the_serializer() -> None:
    built = []
    real = OrdersInputSerializer.__init__

    def spy(self, *args, **kwargs):
        built.append(kwargs.get("data"))
        real(self, *args, **kwargs)

    with (
        mock.patch.object(OrdersInputSerializer, "__init__", spy),
        pytest.raises(serializers.ValidationError),
    ):
        orders_input({"orders": ["A Paris H"], "phase": True})
    assert built == [{"orders": ["A Paris H"], "phase": True}]


def test_the_api_reads_a_plain_submission_without_the_serializer(api, game, seat) -> None:
    player = api(seat(game, "France").user)
    url = f"/api/games/{game.pk}/orders/"
    with mock.patch.object(OrdersInputSerializer, "__init__", side_effect=AssertionError):
        sent = player.put(url, {"orders": ["A Paris - Burgundy"], "phase": 0}, format="json")
        checked = player.post(url + "check/", {"orders": ["A Paris H"]}, format="json")
    assert sent.status_code == 200, sent.content
    assert [o["canonical"] for o in sent.json()] == ["A Paris - Burgundy"]
    assert checked.status_code == 200 and checked.json()[0]["canonical"] == "A Paris H"
    refused = player.put(url, {"orders": ["A Paris H"], "phase": "0"}, format="json")
    assert refused.status_code == 400 and "phase" in refused.json()
