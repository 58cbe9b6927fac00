"""Write each board's precomputed layout: ``python -m variants.layout [variant ...]``.

The names' layout and the unit spots of ``variants/<id>/board.svg`` go to
``variants/<id>/layout.json`` (see ``variants.render.write_layouts``), so that a server's
first drawing of a board does not compute them. Run it after changing a board, its anchors,
its variant's abbreviations or the layout code (tests/test_render.py checks the files).
"""

from __future__ import annotations

import sys

from .render import write_layouts


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    for path in write_layouts(args or None):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
