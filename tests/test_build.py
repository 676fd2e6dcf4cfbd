"""The build step (hatch_build.py): what it compiles, and its fallback; and how
`make test` lays out its stages and makes lint and the wheel beside the tests.

Compiling itself is tested by `make test-compiled`, which installs the wheel
and runs the whole suite against it; these tests check the two ways the hook
leaves a build alone: an editable install, and a machine where mypyc fails.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.waiting import patience

ROOT = Path(__file__).resolve().parent.parent


def load_hook_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("hatch_build", ROOT / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class App:
    """What the hook says to the person building, kept to be read."""

    def __init__(self) -> None:
        self.said: list[tuple[str, str]] = []

    def display_info(self, message: str) -> None:
        self.said.append(("info", message))

    def display_warning(self, message: str) -> None:
        self.said.append(("warning", message))


def make_hook(app: App, tmp_path: Path) -> Any:
    hook_class = load_hook_module().MypycBuildHook
    config = {"compile": ["pitkit/games/pit/market.py"]}
    return hook_class(str(ROOT), config, None, None, str(tmp_path), "wheel", app)


def test_an_editable_install_compiles_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_compiler(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("an editable install must not run mypyc")

    monkeypatch.setattr(subprocess, "run", no_compiler)
    app = App()
    build_data: dict[str, Any] = {"force_include": {}}
    make_hook(app, tmp_path).initialize("editable", build_data)
    assert build_data == {"force_include": {}}
    assert app.said == []


def test_a_failed_compile_builds_a_pure_python_wheel_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing_mypyc(command: list[str], **kwargs: Any) -> None:
        assert command[1:3] == ["-m", "mypyc"]
        assert command[3:] == ["pitkit/games/pit/market.py"]
        # mypy reads the hook's settings from the folder mypyc runs in.
        assert (Path(kwargs["cwd"]) / "mypy.ini").read_text() == hook_module.MYPY_CONFIG
        raise subprocess.CalledProcessError(1, command)

    hook_module = load_hook_module()
    monkeypatch.setattr(subprocess, "run", failing_mypyc)
    app = App()
    build_data: dict[str, Any] = {"force_include": {}}
    hook = make_hook(app, tmp_path)
    hook.initialize("standard", build_data)
    assert build_data == {"force_include": {}}  # no extension, still a pure wheel
    kinds = [kind for kind, _ in app.said]
    assert kinds == ["info", "warning"]
    assert "building pure Python instead" in app.said[1][1]
    work = hook._work
    assert work is not None and (work / "pitkit" / "games" / "pit" / "market.py").exists()
    hook.finalize("standard", build_data, str(tmp_path / "pitkit.whl"))
    assert not work.exists()  # the copy of the source is cleaned up


def test_the_compiled_modules_type_check_with_no_extras_installed(tmp_path: Path) -> None:
    """`pip install .` builds in an environment of its own, without NumPy,
    Gymnasium or PettingZoo (the compiled adapters' imports): mypyc's type
    check must pass there under the hook's settings, or nothing is compiled.
    mypy run with no site-packages finds no third-party package at all."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    modules = pyproject["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"]["compile"]
    shutil.copytree(ROOT / "src" / "pitkit", tmp_path / "pitkit")
    (tmp_path / "mypy.ini").write_text(load_hook_module().MYPY_CONFIG)
    command = [sys.executable, "-m", "mypy", "--no-site-packages", "--cache-dir", "cache"]
    checked = subprocess.run(
        [*command, *modules], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


# Why each of the first stage's tests runs on the source rather than on the compiled
# build (docs/testing.md, "The two stages"); tests/extra is in neither stage.
ON_THE_SOURCE = {
    "tests/browser": "the pages and the server, which is not compiled",
    "tests/server": "the server, which is not compiled",
    "tests/test_layers.py": "reads the source tree",
    "tests/test_build.py": "builds wheels of its own",
}
HELPERS = {"tests/extra"}  # a game for the other tests, no tests of its own


def _make_list(name: str) -> set[str]:
    """The words of a `NAME := ...` list in the Makefile (with its continued lines)."""
    text = (ROOT / "Makefile").read_text().replace("\\\n", " ")
    line = next(line for line in text.splitlines() if line.startswith(f"{name} :="))
    return set(line.split(":=", 1)[1].split())


def test_every_test_folder_runs_in_one_stage() -> None:
    """A new folder of tests must be placed: on the compiled build, or on the source and
    why; none in both, none in neither."""
    compiled = _make_list("COMPILED_TESTS")
    source = _make_list("SOURCE_TESTS")
    tests = ROOT / "tests"
    found = {
        f"tests/{p.name}" for p in tests.iterdir() if p.is_dir() and (p / "__init__.py").exists()
    }
    found |= {f"tests/{p.name}" for p in tests.glob("test_*.py")}
    assert source == set(ON_THE_SOURCE)
    assert compiled.isdisjoint(source)
    assert found - HELPERS == compiled | source, found ^ (compiled | source | HELPERS)
    quick = _make_list("QUICK_TESTS")
    assert quick <= found  # `make check` names only what exists


# What the work made beside the tests does, for scripts/beside.sh's tests: say its
# niceness as it starts, and again once it has been raised from 19 (or at a deadline).
SAY_NICENESS = """
import os, time
print(os.nice(0), flush=True)
deadline = time.monotonic() + {seconds}
while os.nice(0) == 19 and time.monotonic() < deadline:
    time.sleep(0.02)
print(os.nice(0), flush=True)
"""

# The tests' side: wait until the work beside has said its first niceness.
WAIT_FOR_A_LINE = """
import pathlib, sys, time
log, deadline = pathlib.Path(sys.argv[1]), time.monotonic() + {seconds}
while not log.read_text().strip() and time.monotonic() < deadline:
    time.sleep(0.02)
"""


def _beside(log: Path, background: str, *command: str, path: str | None = None) -> Any:
    env = None if path is None else {**os.environ, "PATH": path}
    return subprocess.run(
        [str(ROOT / "scripts" / "beside.sh"), str(log), background, *command],
        capture_output=True,
        text=True,
        env=env,
        timeout=patience(120),
    )


def _niceness_beside(tmp_path: Path, path: str | None = None) -> tuple[list[str], Any]:
    said = tmp_path / "say.py"
    said.write_text(SAY_NICENESS.format(seconds=patience(30)))
    wait = tmp_path / "wait.py"
    wait.write_text(WAIT_FOR_A_LINE.format(seconds=patience(30)))
    log = tmp_path / "beside.log"
    done = _beside(log, f"{sys.executable} {said}", sys.executable, str(wait), str(log), path=path)
    return log.read_text().splitlines(), done


def test_work_beside_the_tests_yields_to_them_then_goes_on_at_the_normal_priority(
    tmp_path: Path,
) -> None:
    """Lint and the wheel run at nice 19 while the tests run; once they are done, what is
    left goes on at the priority `make test` has (beside other work, 19 would starve)."""
    lines, done = _niceness_beside(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert lines[0] == "19"
    assert lines[-1] == str(os.nice(0))
    assert "(exit 0)" in done.stdout and done.stdout.rstrip().endswith(lines[-1])


def test_work_beside_that_may_not_be_raised_is_made_again_at_the_normal_priority(
    tmp_path: Path,
) -> None:
    """Where a priority may not be raised (no root), what is left is stopped and made
    again from the start at the normal priority. A `renice` that always fails stands for
    the refusal."""
    refusing = tmp_path / "bin"
    refusing.mkdir()
    (refusing / "renice").write_text("#!/bin/sh\nexit 1\n")
    (refusing / "renice").chmod(0o755)
    lines, done = _niceness_beside(tmp_path, path=f"{refusing}:{os.environ['PATH']}")
    assert done.returncode == 0, done.stdout + done.stderr
    normal = str(os.nice(0))
    assert lines == [
        "19",
        "(stopped at nice 19 and made again at the normal priority)",
        normal,
        normal,
    ]


@pytest.mark.parametrize(
    ("background", "command", "fails"),
    [("true", "true", False), ("echo mypy says no; exit 3", "true", True), ("true", "false", True)],
)
def test_work_beside_the_tests_fails_the_run_when_either_fails(
    tmp_path: Path, background: str, command: str, fails: bool
) -> None:
    done = _beside(tmp_path / "beside.log", background, command)
    assert (done.returncode != 0) == fails
    if "mypy" in background:
        assert "mypy says no" in done.stdout  # what failed beside is shown
