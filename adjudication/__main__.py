"""Command line: ``python -m adjudication adjudicate [--batch] | variants | bench``.

Exit status 0 when every request was answered, 2 when a request was malformed.
"""

from __future__ import annotations

import argparse
import json
import sys

from .api import adjudicate, error
from .variant import available


def _answer(line: str) -> tuple[dict, bool]:
    """Adjudicate one JSON text; returns the response and whether the request was sound."""
    try:
        request = json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        return error(f"the request is not valid JSON ({e.msg} at line {e.lineno})"), False
    except RecursionError:
        return error("the request is nested too deeply to read"), False
    response = adjudicate(request)
    return response, "error" not in response


def _write(response: dict) -> None:
    sys.stdout.write(json.dumps(response, ensure_ascii=False))
    sys.stdout.write("\n")


def cmd_adjudicate(args: argparse.Namespace) -> int:
    if not args.batch:
        response, ok = _answer(sys.stdin.read())
        _write(response)
        return 0 if ok else 2
    status = 0
    for line in sys.stdin:
        if not line.strip():
            continue
        response, ok = _answer(line)
        _write(response)
        if not ok:
            status = 2
    return status


def cmd_variants(args: argparse.Namespace) -> int:
    for variant_id in available():
        print(variant_id)
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from .bench import main

    return main(args)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m adjudication", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("adjudicate", help="judge one request (JSON on stdin)")
    p.add_argument("--batch", action="store_true", help="JSON Lines in, JSON Lines out")
    p.set_defaults(func=cmd_adjudicate)
    p = sub.add_parser("variants", help="list the variant ids")
    p.set_defaults(func=cmd_variants)
    p = sub.add_parser("bench", help="time the adjudicator on generated standard-map phases")
    p.add_argument("--phases", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(func=cmd_bench)
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
