"""A canonical order text is read by its parts (``orders._canonical``) rather than the long way
(``orders.read``): the two must give the same order for every text the first one reads, on
every map where it is used."""

from __future__ import annotations

import random

import pytest

from adjudication import available, load
from adjudication.bench import generate
from adjudication.orders import OrderError, _canonical, parse, read

PLAIN_MAPS = [v for v in sorted(available()) if not load(v).rules_read_orders]


def test_the_maps_whose_rules_read_orders_of_their_own_read_every_text_the_long_way():
    assert {"standard", "far-east"} <= set(PLAIN_MAPS)
    for variant_id in ("colonial", "chinese"):
        variant = load(variant_id)
        assert variant.rules_read_orders
        # ``Suez permit F Red Sea`` or ``Enter A Siberia`` reach the rule, as before.
    assert parse(load("colonial"), "Suez permit F Red Sea").kind == "special"


def _texts(variant_id: str, seed: int) -> list[str]:
    """Every hold and move of either kind of unit on the map, and supports and convoys between
    random locations (the long way takes about 20 us a text)."""
    locations = sorted(load(variant_id).locations)
    rnd = random.Random(seed)
    texts = []
    for here in locations:
        for unit in "AF":
            texts.append(f"{unit} {here} H")
            texts += [f"{unit} {here} - {there}" for there in locations]
            texts.append(f"{unit} {here} - {rnd.choice(locations)} via Convoy")
    for _ in range(4000):
        here, there, end = (rnd.choice(locations) for _ in range(3))
        unit, other = rnd.choice("AF"), rnd.choice("AF")
        texts += [
            f"{unit} {here} S {other} {there}",
            f"{unit} {here} S {other} {there} - {end}",
            f"{unit} {here} C {other} {there} - {end}",
        ]
    return texts


@pytest.mark.parametrize("variant_id", PLAIN_MAPS)
def test_every_canonical_text_reads_as_the_long_way_reads_it(variant_id):
    variant = load(variant_id)
    texts = _texts(variant_id, seed=len(variant_id))
    for text in texts:
        order = _canonical(variant, text)
        assert order is not None, text
        assert order == read(variant, text), text
        assert order.text() == text
    assert len(texts) > 20000


def _sloppy(text: str, rnd: random.Random) -> str:
    """The text a little changed, as a player might type it: each such text is read the long
    way (``_canonical`` gives None) or read alike."""
    changes = [
        str.lower,
        str.upper,
        lambda t: t.replace(" ", "  ", 1),
        lambda t: f" {t}",
        lambda t: f"{t} ",
        lambda t: t.replace(" - ", "-"),
        lambda t: t.replace(" via Convoy", " via convoy"),
        lambda t: t.replace("/", " /"),
        lambda t: t[:-1],
        lambda t: f"{t}x",
        lambda t: t.replace(" H", " h"),
        lambda t: t.replace(" H", ""),
        lambda t: t.replace("A ", "A2 ", 1),
        lambda t: t.replace(" S ", " S France "),
        lambda t: t.replace(" - ", " - - "),
        lambda t: f"{t} - Paris",
        lambda t: t.replace("F ", "F\t", 1),
        lambda t: t.replace(" C ", " C C "),
    ]
    for _ in range(rnd.randint(1, 2)):
        text = rnd.choice(changes)(text)
    return text


@pytest.mark.parametrize("variant_id", PLAIN_MAPS)
def test_a_text_almost_canonical_reads_as_the_long_way_reads_it(variant_id):
    variant = load(variant_id)
    rnd = random.Random(7)
    texts = _texts(variant_id, seed=3)
    read_by_parts = 0
    for text in rnd.sample(texts, 6000):
        sloppy = _sloppy(text, rnd)
        order = _canonical(variant, sloppy)
        if order is None:
            continue
        read_by_parts += 1
        try:
            assert order == read(variant, sloppy), sloppy
        except OrderError as e:  # pragma: no cover - the failure's message
            pytest.fail(f"{sloppy!r} read by its parts, refused the long way: {e}")
    assert 0 < read_by_parts < 6000


def test_the_bench_phases_are_read_by_their_parts_and_alike():
    for request in generate(100, seed=5):
        variant = load(request["variant"])
        for entry in request["orders"]:
            order = _canonical(variant, entry["order"])
            assert order is not None and order == read(variant, entry["order"])
