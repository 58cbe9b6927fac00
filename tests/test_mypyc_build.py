"""How bench/mypyc_build.py goes about a profile-guided build, with the compiler and the
training run replaced by fakes (tests/test_compiled.py builds the engine for real)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import mypyc_build


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, list[list[str]]]:
    """A tree with the compiled modules' sources, whose builds only record their flags and leave
    a library named by their number."""
    package = tmp_path / mypyc_build.PACKAGE
    package.mkdir()
    for name in mypyc_build.MODULES:
        (package / f"{name}.py").write_text(f"# {name}\n", encoding="utf-8")
    builds: list[list[str]] = []

    def compile_(root: Path, tmp: str, jobs: int, flags: list[str]) -> None:
        builds.append(flags)
        (root / mypyc_build.PACKAGE / f"_engine__mypyc.{len(builds)}.so").write_bytes(b"")

    monkeypatch.setattr(mypyc_build, "_compile", compile_)
    monkeypatch.setattr(mypyc_build, "gcc", lambda: True)
    return tmp_path, builds


def _libraries(root: Path) -> list[str]:
    return sorted(p.name for p in (root / mypyc_build.PACKAGE).glob("*.so"))


def test_built_with_counters_trained_and_built_again_with_the_profile(tree, monkeypatch):
    root, builds = tree
    trained = []

    def train(at: Path) -> None:  # the counting build is in place and loads (its manifest)
        assert _libraries(at) == ["_engine__mypyc.1.so"]
        assert (at / mypyc_build.PACKAGE / mypyc_build.MANIFEST).exists()
        trained.append(at)

    monkeypatch.setattr(mypyc_build, "train", train)
    _, profiled = mypyc_build.build(root, 1)
    assert profiled and trained == [root.resolve()]
    generate, use = builds
    assert generate[0].startswith("-fprofile-generate=") and "-fprofile-update=single" in generate
    assert use[0] == generate[0].replace("generate", "use") and "-fprofile-partial-training" in use
    manifest = json.loads((root / mypyc_build.PACKAGE / mypyc_build.MANIFEST).read_text())
    assert sorted(manifest["modules"]) == sorted(mypyc_build.MODULES)


def test_a_failed_training_leaves_no_counting_engine_behind(tree, monkeypatch):
    """A build with counters left in place would run slower and write counts at every run:
    it is removed, and the engine built once without a profile."""
    root, builds = tree

    def train(at: Path) -> None:
        raise RuntimeError("the training batch failed")

    monkeypatch.setattr(mypyc_build, "train", train)
    _, profiled = mypyc_build.build(root, 1)
    assert not profiled
    assert builds[0][0].startswith("-fprofile-generate=") and builds[1] == []
    assert _libraries(root) == ["_engine__mypyc.2.so"]


def test_a_compiler_refusing_the_profile_flags_gets_a_build_without(tree, monkeypatch):
    root, builds = tree
    compile_ = mypyc_build._compile

    def refusing(root: Path, tmp: str, jobs: int, flags: list[str]) -> None:
        compile_(root, tmp, jobs, flags)
        if any("-fprofile-use" in f for f in flags):
            raise RuntimeError("gcc: error: unrecognized option -fprofile-partial-training")

    monkeypatch.setattr(mypyc_build, "_compile", refusing)
    monkeypatch.setattr(mypyc_build, "train", lambda at: None)
    _, profiled = mypyc_build.build(root, 1)
    assert not profiled and builds[2] == []
    assert _libraries(root) == ["_engine__mypyc.3.so"]


def test_without_gcc_or_when_asked_one_build_without_a_profile(tree, monkeypatch):
    root, builds = tree
    monkeypatch.setattr(mypyc_build, "train", lambda at: pytest.fail("trained"))
    assert mypyc_build.build(root, 1, profile=False)[1] is False
    monkeypatch.setattr(mypyc_build, "gcc", lambda: False)
    assert mypyc_build.build(root, 1)[1] is False
    assert builds == [[], []]


def test_an_interrupted_build_leaves_nothing_counting(tree, monkeypatch):
    root, _ = tree

    def train(at: Path) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(mypyc_build, "train", train)
    with pytest.raises(KeyboardInterrupt):
        mypyc_build.build(root, 1)
    assert _libraries(root) == []
