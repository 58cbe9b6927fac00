"""What the optional compiled build reads (mypyc: ``make engine-compiled``, bench/mypyc_build.py).

``mypyc_attr`` marks a class for mypyc: ``allow_interpreted_subclasses`` for one the variants'
rules extend in Python, ``native_class=False`` for one mypyc cannot make a native class. mypyc
reads the mark from ``mypy_extensions`` when it compiles; at run time, compiled or not, the
engine gets this no-op, so it needs nothing outside the standard library.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing costs start-up time
if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr
else:

    def mypyc_attr(*attrs, **kwattrs):
        return lambda cls: cls


__all__ = ["mypyc_attr"]
