"""``python -m bench.mypyc_build``: the optional compiled engine (``make engine-compiled``).

mypyc compiles the engine's hot modules (``MODULES``) into C extensions written next to their
.py files: one shared library (``adjudication/_engine__mypyc.*.so``) and a small one per
module, which Python then imports instead of the .py files. Everything else stays Python: the
package's ``__init__``, the registry and the rule base class the variants extend, the command
line, the bench. ``--clean`` (``make engine-pure``) removes what it built, back to the Python
engine. The answers are the same either way (tests/test_compiled.py).

Where the C compiler is GCC the build is profile-guided: compiled once with counters, the
engine judges ``TRAINING_PHASES`` generated standard-map phases through the batch, and it is
compiled again with what they counted, so that the compiler lays out and inlines the code for
the paths phases take (about 6 % less time a phase, ``docs/benchmarks.md`` round 18). The
phases come from a seed no bench uses. Code the training never ran is optimised as without a
profile (``-fprofile-partial-training``). ``--no-profile`` builds once, without.

It needs mypy, which provides mypyc (the ``compiled`` extra of pyproject.toml), setuptools and
a C compiler with the Python headers; the built engine needs none of them. It also writes
``adjudication/_compiled.json``, the sha256 of each compiled source: ``import adjudication``
refuses a build older than its sources rather than run old code.

This module imports only the standard library until it builds, so any python with mypyc can
run it on a tree (``--root``), as the test does on a copy.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import sysconfig
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "adjudication"
# Compiled: what judging a phase runs. Not: __init__ (it checks the build), registry (Rule is
# subclassed by the variants and the registry patched by tests), readonly (ReplyData takes
# dict's methods over), _mypyc, following, game_options, bench, __main__ (not hot).
MODULES = (
    "adjustments",
    "answer_json",  # the batch's writer: interpreted, its loop over the replies was half of it
    "api",
    "board",
    "movement",
    "options",
    "orders",
    "reasons",
    "retreats",
    "variant",
)
TRAINING_PHASES = 2000
TRAINING_SEED = 2027  # the benches use 1 and 100,001
GROUP = f"{PACKAGE}._engine"  # the shared library: adjudication/_engine__mypyc.*.so
MANIFEST = "_compiled.json"


def source_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def artefacts(root: Path = ROOT) -> list[Path]:
    """Every file a build leaves in the package, whichever Python built it: the engine has no
    extension modules of its own."""
    package = root / PACKAGE
    found = [*package.glob("*.so"), *package.glob("*.pyd"), package / MANIFEST]
    return sorted(p for p in found if p.exists())


def clean(root: Path = ROOT) -> list[Path]:
    """Remove the compiled engine from the tree: the Python engine runs again."""
    removed = artefacts(root)
    for path in removed:
        path.unlink()
    return removed


def build(root: Path = ROOT, jobs: int = 2, profile: bool = True) -> tuple[float, bool]:
    """Compile ``MODULES`` of the tree at ``root`` in place, profile-guided where the compiler is
    GCC and ``profile`` holds; returns the seconds it took and whether it was profile-guided.
    Should the profile-guided build fail (the training run, a compiler without these flags), what
    it left is removed, never kept half-made, and the engine is built once without a profile."""
    began = time.perf_counter()
    root = root.resolve()
    with tempfile.TemporaryDirectory(prefix="mypyc-build-") as tmp:
        profiled = profile and gcc()
        if profiled:
            try:
                _profiled(root, tmp, jobs)
            except Exception as e:  # a build with counters must never be left to run
                clean(root)
                print(f"the profile-guided build failed, building without: {e}", file=sys.stderr)
                profiled = False
            except BaseException:  # interrupted: nothing half-made is left either
                clean(root)
                raise
        if not profiled:
            _compile(root, tmp, jobs, [])
    _write_manifest(root)
    return time.perf_counter() - began, profiled


def _profiled(root: Path, tmp: str, jobs: int) -> None:
    """Build with counters, train, build again with what they counted. Both builds compile the
    same C files to the same objects, so the second finds the counts the first one's wrote."""
    counts = f"{tmp}/profile"
    _compile(root, tmp, jobs, [f"-fprofile-generate={counts}", "-fprofile-update=single"])
    _write_manifest(root)  # the instrumented engine must load to be trained
    train(root)
    used = [f"-fprofile-use={counts}", "-fprofile-partial-training", "-Wno-missing-profile"]
    _compile(root, tmp, jobs, used)


def _compile(root: Path, tmp: str, jobs: int, flags: list[str]) -> None:
    """One build of the extensions in place, with these extra compiler (and linker) flags."""
    from mypyc.build import mypycify  # only here: the rest of the module is standard library
    from setuptools import Distribution  # type: ignore[import-untyped]

    clean(root)
    here = os.getcwd()
    os.chdir(root)  # setuptools puts an in-place extension where its package is, from here
    try:
        paths = [f"{PACKAGE}/{name}.py" for name in MODULES]
        extensions = mypycify(
            [*paths, f"--cache-dir={tmp}/mypy"],
            opt_level="3",
            group_name=GROUP,
            target_dir=f"{tmp}/c",
        )
        for extension in extensions:
            extension.extra_compile_args = [*(extension.extra_compile_args or []), *flags]
            extension.extra_link_args = [*(extension.extra_link_args or []), *flags]
        dist = Distribution({"name": "adjudication-compiled", "ext_modules": extensions})
        command = dist.get_command_obj("build_ext")
        command.inplace = True
        command.force = True  # the C files are the same both times: compiled again regardless
        command.build_temp = f"{tmp}/temp"
        command.build_lib = f"{tmp}/lib"
        command.parallel = jobs
        dist.run_command("build_ext")
    finally:
        os.chdir(here)


def _write_manifest(root: Path) -> None:
    package = root / PACKAGE
    manifest = {
        "modules": {name: source_digest(package / f"{name}.py") for name in MODULES},
        "python": sys.version.split()[0],
    }
    (package / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")


def gcc() -> bool:
    """Whether the C compiler extensions are built with is GCC (whose profile flags are used)."""
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    try:
        done = subprocess.run(
            [*compiler, "--version"], capture_output=True, text=True, timeout=60, check=False
        )
    except OSError:
        return False
    return done.returncode == 0 and "Free Software Foundation" in done.stdout


# Writes the training phases as JSON lines (the tree's own generator, on this project's maps).
_TRAINING = """
import json, sys
from variants import register
from adjudication.bench import generate
register()
sys.stdout.writelines(json.dumps(r) + "\\n" for r in generate(int(sys.argv[1]), int(sys.argv[2])))
"""


def train(root: Path) -> None:
    """The engine at ``root`` judges the training phases through the batch, as the benches and a
    tool feed it; raises RuntimeError if it does not answer them all."""
    path = {"PYTHONPATH": os.pathsep.join([str(root), str(ROOT)])}

    def run(args: list[str], given: str = "", **env: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            args,
            input=given,
            cwd=root,
            env={**os.environ, **path, **env},
            capture_output=True,
            text=True,
            timeout=600,
        )

    with tempfile.TemporaryDirectory(prefix="mypyc-discard-") as discard:
        # Making the phases runs the engine too (the maps' tables): its counts go elsewhere.
        made = [sys.executable, "-c", _TRAINING, str(TRAINING_PHASES), str(TRAINING_SEED)]
        phases = run(made, GCOV_PREFIX=discard)
    if phases.returncode != 0:
        raise RuntimeError(f"the training phases could not be made: {phases.stderr[-2000:]}")
    batch = [sys.executable, "-m", PACKAGE, "--register", "variants:register"]
    done = run([*batch, "adjudicate", "--batch"], phases.stdout)
    if done.returncode != 0 or done.stdout.count("\n") != TRAINING_PHASES:
        raise RuntimeError(f"the training batch failed: {done.stderr[-2000:]}")


def requirements(root: Path = ROOT) -> list[str]:
    """What building needs: the ``compiled`` extra of pyproject.toml."""
    with open(root / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]["optional-dependencies"]["compiled"]


def builder_python(create: bool = False) -> str | None:
    """A python that can build (has mypyc and setuptools): ``$MYPYC_PYTHON``, this one, else
    the venv at ``$MYPYC_VENV`` (/tmp/mypycvenv). With ``create`` that venv is made from this
    python, so that what it builds loads here, when missing. None when there is none."""
    given = os.environ.get("MYPYC_PYTHON")
    if given:
        return given if _can_build(given) else None
    if _can_build(sys.executable):
        return sys.executable
    venv = Path(os.environ.get("MYPYC_VENV", "/tmp/mypycvenv"))
    python = str(venv / "bin" / "python")
    if _can_build(python):
        return python
    if not create:
        return None
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    subprocess.run([python, "-m", "pip", "install", "-q", *requirements()], check=True, timeout=600)
    return python if _can_build(python) else None


def _can_build(python: str) -> bool:
    if not Path(python).exists():
        return False
    done = subprocess.run(
        [python, "-c", "import mypyc.build, setuptools"],
        capture_output=True,
        timeout=60,
        check=False,
    )
    return done.returncode == 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.mypyc_build", description=__doc__)
    parser.add_argument("--clean", action="store_true", help="remove the compiled engine")
    parser.add_argument("--root", type=Path, default=ROOT, help="the tree (default: this one)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--no-profile", action="store_true", help="build once, without a training run's profile"
    )
    args = parser.parse_args(argv)
    if args.clean:
        removed = clean(args.root)
        print(f"removed {len(removed)} files: the engine is Python again")
        return 0
    seconds, profiled = build(args.root, args.jobs, profile=not args.no_profile)
    how = f"profile-guided by {TRAINING_PHASES} phases" if profiled else "without a profile"
    print(f"compiled {', '.join(MODULES)} {how} in {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
