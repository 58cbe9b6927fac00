"""Command line: ``python -m adjudication adjudicate [--batch] | variants | bench | replay``.

Exit status 0 when every request was answered, 2 when a request was malformed. ``replay``
judges again every phase of a server's ``replay.json`` (``-`` or no file: standard input) and
exits 1 when an answer differs from the stored one.

The maps come from the installed packages' ``adjudication.variants`` entry points (this
project's ``variants`` once it is installed); ``--register module:function`` calls one more
registration function first, for a variant package that is not installed.
"""

from __future__ import annotations

import gc
import json
import os
import sys
from types import SimpleNamespace

from .answer_json import answer_json
from .api import adjudicate, adjudicate_to_write, error
from .registry import load_entry_point
from .variant import available

TYPE_CHECKING = False  # not typing's: importing typing costs start-up time
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import BinaryIO, Final


def _answer(line: str) -> tuple[dict, bool]:
    """Adjudicate one JSON text; returns the response and whether the request was sound."""
    try:
        request = _decode(line)
    except json.JSONDecodeError as e:  # a str, so never a UnicodeDecodeError here
        return error(f"the request is not valid JSON ({e.msg} at line {e.lineno})"), False
    except ValueError as e:  # NaN, Infinity: Python's JSON reads them, JSON has none
        return error(f"the request is not valid JSON ({e})"), False
    except RecursionError:
        return error("the request is nested too deeply to read"), False
    response = adjudicate_to_write(request)
    return response, "error" not in response


def _no_constant(name: str) -> None:
    """NaN and Infinity are not JSON: answered in kind, the answer would not be JSON either."""
    raise ValueError(f"{name} is not a JSON value")


# One decoder for every request: ``json.loads`` with an option builds a new one per call.
_decode = json.JSONDecoder(parse_constant=_no_constant).decode


LONE_SURROGATE = (
    "the request holds text that is not Unicode: a lone surrogate, as an escape like \\ud800 "
    "writes one without its pair"
)


# Characters that JSON lets stand raw in a string but that many line readers take for a line
# end (Python's ``str.splitlines``, some editors and log tools): an answer echoing a request's
# U+2028 would otherwise read as two lines of JSON Lines, neither of them JSON. Escaped, the
# answer means the same to any JSON reader.
_LINE_BREAKS: Final = ("\u2028", "\u2029", "\x85")
_ESCAPED: Final = {ord(c): f"\\u{ord(c):04x}" for c in _LINE_BREAKS}


def _one_line(text: str) -> str:
    """``text`` with the line breaks JSON leaves raw escaped (rarely any: three quick scans)."""
    if "\u2028" in text or "\u2029" in text or "\x85" in text:
        return text.translate(_ESCAPED)
    return text


def _encoded(response: dict, encoding: str, errors: str) -> tuple[bytes, bool]:
    """The answer's JSON as the output's bytes, and whether it could be written as it is. A
    lone surrogate (a request's ``\\ud800``, echoed in an error) cannot be written in UTF-8:
    the answer says so instead, rather than stopping the batch with every answer after it."""
    try:
        return _one_line(answer_json(response)).encode(encoding, errors), True
    except UnicodeEncodeError:
        return answer_json(error(LONE_SURROGATE)).encode(encoding, errors), False


def cmd_adjudicate(args: argparse.Namespace) -> int:
    if not args.batch:
        response, ok = _answer(sys.stdin.read())
        answer, sound = _encoded(response, sys.stdout.encoding, sys.stdout.errors or "strict")
        sys.stdout.flush()
        sys.stdout.buffer.write(answer + b"\n")
        return 0 if ok and sound else 2
    status = 0
    stdout = sys.stdout
    stdout.flush()
    encoding, errors = stdout.encoding, stdout.errors or "strict"
    # The answers go out in large writes, each batch of them when the input runs dry: a
    # system call an answer (``PYTHONUNBUFFERED``, as in containers, or a flush each) cost
    # a twentieth of a phase.
    answered = 0
    with open(stdout.fileno(), "wb", buffering=1 << 16, closefd=False) as out:
        for line in _lines(out):
            if not line.strip():
                continue
            response, ok = _answer(line)
            try:  # encoded here, not by a call: the batch's Python is interpreted
                out.write(_one_line(answer_json(response)).encode(encoding, errors))
            except UnicodeEncodeError:
                out.write(_encoded(response, encoding, errors)[0])
                ok = False
            out.write(b"\n")
            if not ok:
                status = 2
            answered += 1
            if answered == 1:
                _settle_memory()
            else:
                _collect(answered)
    return status


def _lines(out: BinaryIO) -> Iterator[str]:
    """Standard input's lines, read in large pieces. Before each read that may wait for more
    input, the answers written so far are sent: a program that feeds the batch a line at a
    time and waits for each answer gets it at once."""
    stdin = sys.stdin
    fd, encoding, errors = stdin.fileno(), stdin.encoding, stdin.errors or "strict"
    start: list[bytes] = []  # the start of a line longer than one read
    while True:
        out.flush()
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            break
        # Line ends found with ``find`` (a memchr); ``split`` looked at every byte itself.
        begin = 0
        end = chunk.find(b"\n")
        if end >= 0 and start:
            yield b"".join([*start, chunk[:end]]).decode(encoding, errors)
            start = []
            begin, end = end + 1, chunk.find(b"\n", end + 1)
        while end >= 0:
            yield chunk[begin:end].decode(encoding, errors)
            begin, end = end + 1, chunk.find(b"\n", end + 1)
        if begin < len(chunk):
            start.append(chunk[begin:])
    if start:
        yield b"".join(start).decode(encoding, errors)


# The batch's own passes of the garbage collector (``_collect``): the young generation once it
# holds this many objects made since its last pass and still alive; all generations every
# ``FULL_EVERY`` answers.
YOUNG_LIMIT = 256
FULL_EVERY = 16384


def _settle_memory() -> None:
    """After the first answer (the maps and rules now loaded): what is loaded stays for the whole
    batch, so the garbage collector stops looking through it (``gc.freeze``). A phase's objects
    hold no cycles and are freed as soon as its answer is written, so the collector's automatic
    passes, which come in the middle of a phase, only looked through the phase under way (a
    quarter of the batch's misses of the processor's second-level cache); they are switched off,
    and ``_collect`` runs the collector between answers instead."""
    gc.freeze()
    gc.disable()


def _collect(answered: int) -> None:
    """The collector between two answers, for whatever cycles an unusual request may leave.

    What outlives a phase is mostly what the engine caches (orders read, legal orders). Looked
    through a little at a time, soon after it was made, it is still in the processor's caches:
    one pass every 1,024 answers looked through all of it at once, from memory, and took as long
    as 50 answers (``docs/benchmarks.md``, round 18).
    """
    if answered % FULL_EVERY == 0:
        gc.collect(2)
        return
    if gc.get_count()[0] >= YOUNG_LIMIT:
        # What survives a pass between answers is kept on purpose (a cache's entries), so it is
        # looked through again only by the full pass. The engine's cycles (an error's traceback)
        # never outlive an answer (tests/test_cli.py); a rule that kept one alive for a while
        # would have it freed by the full pass. Looking through the survivors more often (every
        # tenth pass, as CPython does) cost as much as the one pass this replaces.
        gc.collect(0)


def cmd_variants(args: argparse.Namespace) -> int:
    for variant_id in available():
        print(variant_id)
    return 0


def _differences(ours: object, theirs: object, where: str = "") -> list[str]:
    """Where two JSON values differ, as paths ("orders[3].result"); at most a few."""
    if isinstance(ours, dict) and isinstance(theirs, dict):
        out = []
        for key in sorted(set(ours) | set(theirs)):
            if key not in ours or key not in theirs:
                out.append(f"{where}.{key}".lstrip(".") + (" missing" if key in theirs else " new"))
            else:
                out.extend(_differences(ours[key], theirs[key], f"{where}.{key}"))
        return out
    if isinstance(ours, list) and isinstance(theirs, list) and len(ours) == len(theirs):
        out = []
        for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            out.extend(_differences(a, b, f"{where}[{i}]"))
        return out
    return [] if ours == theirs else [where.lstrip(".") or "the answer"]


def replay(game: dict) -> list[tuple[str, list[str]]]:
    """Each phase's name and where our answer differs from the stored one (empty: the same)."""
    out = []
    for number, phase in enumerate(game.get("phases") or []):
        if not isinstance(phase, dict) or not isinstance(phase.get("request"), dict):
            out.append((f"entry {number}", ["no request"]))
            continue
        # Through JSON as the stored answer went, so tuples and lists compare alike.
        ours = json.loads(json.dumps(adjudicate(phase["request"])))
        out.append(
            (
                str(phase.get("name") or phase.get("index")),
                _differences(ours, phase.get("response")),
            )
        )
    return out


def _read_replay(path: str | None) -> object:
    if path in (None, "-"):
        return json.load(sys.stdin)
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        game = _read_replay(args.file)
    except (json.JSONDecodeError, UnicodeDecodeError, OSError) as e:
        print(f"cannot read the replay ({e})", file=sys.stderr)
        return 2
    if not isinstance(game, dict) or not isinstance(game.get("phases"), list):
        print("a replay is an object with a list of phases", file=sys.stderr)
        return 2
    differing = 0
    for name, differences in replay(game):
        if differences:
            differing += 1
            print(f"{name}: differs at {', '.join(differences[:5])}")
        else:
            print(f"{name}: same")
    print(f"{len(game['phases'])} phases replayed, {differing} differ")
    return 1 if differing else 0


def cmd_bench(args: argparse.Namespace) -> int:
    from .bench import main

    return main(args)


# The command lines servers start again and again, answered without building the parser: its
# help texts are looked up in the translations, a quarter of the batch's start-up.
_PLAIN_ADJUDICATE = {("adjudicate",): False, ("adjudicate", "--batch"): True}


def main(argv: list[str] | None = None) -> int:
    batch = _PLAIN_ADJUDICATE.get(tuple(sys.argv[1:] if argv is None else argv))
    if batch is not None:
        try:
            return cmd_adjudicate(SimpleNamespace(batch=batch))  # type: ignore[arg-type]
        except BrokenPipeError:
            return 0
    import argparse  # only here: importing it is a part of the batch's start-up too

    parser = argparse.ArgumentParser(
        prog="python -m adjudication",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--register",
        action="append",
        default=[],
        metavar="MODULE:FUNCTION",
        help="call this variant registration function first (for a package not installed)",
    )
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
    p = sub.add_parser("replay", help="judge again every phase of a game's replay.json")
    p.add_argument("file", nargs="?", help="the replay (default: standard input)")
    p.set_defaults(func=cmd_replay)
    args = parser.parse_args(argv)
    for spec in args.register:
        try:  # resolved like an entry point of the group, so it behaves as an installed one
            load_entry_point(spec)()
        except Exception as e:
            print(f"cannot register {spec!r}: {type(e).__name__}: {e}", file=sys.stderr)
            return 2
    try:
        return args.func(args)
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
