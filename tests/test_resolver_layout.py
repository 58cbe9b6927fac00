"""The resolver's object keeps CPython's compact instance layout.

``Movement`` is read attribute by attribute all through a phase. CPython shares one table of
keys among the instances of a class and specializes attribute reads on it, but only up to 30
keys: a 30th attribute (a convoy check once kept its own cache there) turned every instance's
dictionary into a plain one and made the engine run 7 % more instructions a phase. A new
piece of state belongs in an existing attribute, or in a local or a cache outside the object.
"""

from __future__ import annotations

import platform
import sys

import pytest

import adjudication.api as api
import adjudication.movement as movement
from adjudication.bench import generate
from adjudication.variant import load

pytestmark = pytest.mark.skipif(
    platform.python_implementation() != "CPython", reason="CPython's dictionary layout"
)


@pytest.mark.parametrize("variant_id", ["standard", "colonial", "far-east", "chinese"])
def test_the_resolver_keeps_shared_keys(monkeypatch, variant_id) -> None:
    import variants  # noqa: F401 - registers the Asian variants' rules

    seen: dict[str, tuple[int, int, int]] = {}
    release = movement.Movement.release

    def look(self) -> None:
        d = vars(self)
        seen["dict"] = (len(d), sys.getsizeof(d), sys.getsizeof(dict(d)))
        release(self)

    monkeypatch.setattr(movement.Movement, "release", look)
    if variant_id == "standard":
        request = generate(1, 1)[0]
    else:
        variant = load(variant_id)
        request = {
            "variant": variant_id,
            "phase": {"season": variant.seasons[0], "year": variant.start_year, "type": "movement"},
            "units": [dict(u) for u in variant.starting_units],
            "orders": [],
            **api.opening(variant_id),
        }
    assert "error" not in api.adjudicate(request)
    count, size, plain = seen["dict"]
    assert size < plain, f"{count} attributes: the instance dictionary no longer shares its keys"
