"""The build step (hatch_build.py): what it compiles, and its fallback.

Compiling itself is tested by `make test-compiled`, which installs the wheel
and runs the whole suite against it; these tests check the two ways the hook
leaves a build alone: an editable install, and a machine where mypyc fails.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

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
