"""The optional compiled engine (mypyc, ``make engine-compiled``) answers as the Python engine.

The engine is compiled once into a copy of the package (bench/mypyc_build.py: twice, with a
training run between, where the compiler is GCC; about 3.5 minutes on two slow cores) and both
engines, each in a process of its own, answer the same calls (tests/engine_answers.py: the DATC
cases' requests, bench phases, malformed requests and a game on every variant, judged, checked,
garbled and listed as options), compared as JSON with the reasons' words. A compiled engine
already built in this tree changes nothing here: both copies start from the .py files.

The build needs a python with mypyc (the ``compiled`` extra): ``$MYPYC_PYTHON``, this one, or
/tmp/mypycvenv (``$MYPYC_VENV``). Without one the test is skipped, except in CI (``$CI`` set),
where that venv is made here (a pip install of mypy, under a minute) and the test must run.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench import mypyc_build

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "adjudication"


def _copy(to: Path) -> Path:
    """The engine's sources alone (no build of this tree's), as the package of the tree ``to``."""
    (to / "adjudication").mkdir(parents=True)
    for source in PACKAGE.glob("*.py"):
        shutil.copy(source, to / "adjudication" / source.name)
    return to


def _run(
    tree: Path, *args: str, python: str = sys.executable, timeout: int = 600
) -> subprocess.CompletedProcess:
    """A python with ``tree``'s engine first on its path (then this project: variants, bots)."""
    env = {**os.environ, "PYTHONPATH": f"{tree}{os.pathsep}{ROOT}", "PYTHONHASHSEED": "0"}
    return subprocess.run(
        [python, *args], cwd=tree, env=env, capture_output=True, text=True, timeout=timeout
    )


@pytest.fixture(scope="module")
def trees(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the Python engine, the compiled engine), each a tree with its own package."""
    builder = mypyc_build.builder_python(create=bool(os.environ.get("CI")))
    if builder is None:
        if os.environ.get("CI"):
            pytest.fail("CI: could not make a venv with mypyc for the compiled engine's test")
        pytest.skip("no python with mypyc (set MYPYC_PYTHON, or make /tmp/mypycvenv)")
    base = tmp_path_factory.mktemp("engines")
    python, compiled = _copy(base / "python"), _copy(base / "compiled")
    build = ["-m", "bench.mypyc_build", "--root", str(compiled)]
    built = _run(ROOT, *build, python=builder, timeout=1800)  # two builds: minutes on two cores
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    # Built as ``make engine-compiled`` builds it: with GCC, guided by a training run's profile.
    assert ("profile-guided" in built.stdout) == mypyc_build.gcc(), built.stdout[-500:]
    return python, compiled


def _answers(tree: Path, mode: str, calls: Path) -> list[str]:
    done = _run(tree, str(ROOT / "tests" / "engine_answers.py"), mode, str(calls))
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.splitlines()


def test_the_compiled_engine_gives_the_python_engines_answers(trees: tuple[Path, Path]) -> None:
    python, compiled = trees
    calls = python / "calls.jsonl"
    expected = _answers(python, "play", calls)
    got = _answers(compiled, "answer", calls)
    assert json.loads(expected[0]) == {"engine": "python"}
    assert json.loads(got[0]) == {"engine": "compiled"}, "the compiled engine did not load"
    requests = calls.read_text(encoding="utf-8").splitlines()
    assert len(requests) > 1500 and len(got) == len(expected) == len(requests) + 1
    differing = [n for n, (a, b) in enumerate(zip(expected[1:], got[1:], strict=True)) if a != b]
    shown = "\n".join(
        f"call {n}: {requests[n][:300]}\n  python:   {expected[n + 1][:600]}\n"
        f"  compiled: {got[n + 1][:600]}"
        for n in differing[:3]
    )
    assert not differing, f"{len(differing)} of {len(requests)} calls differ:\n{shown}"
    written = [n for n, line in enumerate(got[1:]) if line.startswith('{"written differs"')]
    assert not written, f"the batch's text differs from the whole answer's: calls {written[:5]}"


def test_a_compiled_engine_older_than_its_sources_is_refused(
    trees: tuple[Path, Path], tmp_path: Path
) -> None:
    stale = tmp_path / "stale"
    shutil.copytree(trees[1], stale)
    source = stale / "adjudication" / "movement.py"
    source.write_text(source.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    refused = _run(stale, "-c", "import adjudication")
    assert refused.returncode != 0
    assert "make engine-compiled" in refused.stderr and "movement.py" in refused.stderr
    cleaned = _run(ROOT, "-m", "bench.mypyc_build", "--clean", "--root", str(stale))
    assert cleaned.returncode == 0, cleaned.stderr
    assert not list((stale / "adjudication").glob("*.so"))
    python = _run(stale, "-c", "import adjudication; print(adjudication.compiled())")
    assert python.stdout.split() == ["False"], python.stderr


_ORDERS_FROZEN = """
import dataclasses
from adjudication import compiled, load
from adjudication.orders import _NATIVE, Order, parse, shared_order

order = parse(load("standard"), "A Paris S A Burgundy - Marseilles", "movement")
shared = shared_order("hold", "A", "Paris")
for o in (order, shared, Order("move", "A", "Paris", destination="Burgundy")):
    try:
        o.location = "Rome"
    except dataclasses.FrozenInstanceError:
        pass
    else:
        raise SystemExit("an order could be changed")
assert order == Order("support", "A", "Paris", "A", "Burgundy", "Marseilles"), order
assert (shared.canonical, shared.data["kind"]) == ("A Paris H", "hold"), shared
print(compiled(), _NATIVE)
"""


def test_orders_stay_frozen_and_alike_in_both_engines(trees: tuple[Path, Path]) -> None:
    """Compiled, an order's fields are stored past its frozen ``__setattr__``
    (``orders._NATIVE``); from outside it must stay unchangeable, in both engines."""
    python, compiled = trees
    for tree, expected in ((python, "False False"), (compiled, "True True")):
        done = _run(tree, "-c", _ORDERS_FROZEN)
        assert done.returncode == 0, done.stderr[-3000:] + done.stdout
        assert done.stdout.split() == expected.split()
