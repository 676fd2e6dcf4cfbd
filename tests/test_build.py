"""The build step (hatch_build.py): what it compiles, and its fallback.

Compiling itself is tested by `make test-compiled`, which installs the wheel
and runs the whole suite against it; these tests check the two ways the hook
leaves a build alone: an editable install, and a machine where mypyc fails.
"""

from __future__ import annotations

import importlib.util
import subprocess
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
        raise subprocess.CalledProcessError(1, command)

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
