"""Parts of answers shared between answers, and so read-only (``ReplyData``).

A module of its own so that the compiled build (bench/mypyc_build.py) leaves it Python: mypyc
compiles no class that takes ``dict``'s methods over as this one does.
"""

from __future__ import annotations


class ReplyData(dict):
    """A reply's ``data`` (one per order text) or a unit in an answer's ``units`` (one per
    unit): a read-only dict shared by every answer that carries it. Copying it for each reply
    was a sixth of a phase's time; sharing is safe only because no one can change it (a copy,
    ``dict(data)``, is an ordinary dict). It serialises, compares and pickles as a plain dict."""

    __slots__ = ()

    def _read_only(self, *args: object, **kwargs: object) -> None:
        raise TypeError(
            "this part of an answer is shared between answers and read-only; copy it first"
        )

    __setitem__ = __delitem__ = _read_only  # type: ignore[assignment]
    clear = pop = popitem = setdefault = update = _read_only  # type: ignore[assignment]
    __ior__ = _read_only  # type: ignore[assignment]

    def __reduce__(self) -> tuple:
        return dict, (dict(self),)

    def __copy__(self) -> dict:
        return dict(self)

    def __deepcopy__(self, memo: dict) -> dict:
        from copy import deepcopy

        return {key: deepcopy(value, memo) for key, value in self.items()}
