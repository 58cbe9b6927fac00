"""Command line: ``python -m variants.mapbuild fetch`` or ``python -m variants.mapbuild <id>``."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m variants.mapbuild", description=__doc__)
    parser.add_argument("target", help="'fetch' to remake the land derivatives, or a variant id")
    parser.add_argument("--png", help="also render the board to this PNG (needs cairosvg)")
    args = parser.parse_args(argv)
    if args.target == "fetch":
        from . import geodata

        for path in geodata.fetch():
            print(f"wrote {path}")
        return 0
    from . import build

    missing, extra = build.write(args.target)
    if args.png:
        import cairosvg

        cairosvg.svg2png(url=str(build.VARIANTS / args.target / "board.svg"), write_to=args.png)
        print(f"wrote {args.png}")
    return 1 if missing or extra else 0


if __name__ == "__main__":
    sys.exit(main())
