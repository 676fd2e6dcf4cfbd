"""The build step that compiles the games' engines and the adapters'
encodings with mypyc.

Every wheel built from this project (``pip install .``, ``python -m build``)
compiles the modules listed under ``compile`` in
``[tool.hatch.build.targets.wheel.hooks.custom]`` (pyproject.toml) and ships
them beside their source, which they take precedence over on import; every
other module stays Python. Editable installs (``pip install -e .``, what
``make`` makes for development) run the source as written, and so does a
wheel built without the hook::

    HATCH_BUILD_NO_HOOKS=true pip install .

Compiling needs a C compiler and the Python headers. Without them the build
warns and makes a pure-Python wheel: the same behaviour, up to 1.8 times
slower. docs/performance.md says what compiling gains.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

MYPY_CONFIG = """\
[mypy]
ignore_missing_imports = True
"""
"""What mypyc type-checks the compiled modules with: the project's own
checks are `make lint`'s, and a module missing from the build's environment
is typed Any rather than failing the build."""


class MypycBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    """Compiles the configured modules into the wheel (not an editable one)."""

    _work: Path | None = None

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        modules: list[str] = self.config.get("compile", [])
        # A copy, so no compiled module ever lands in the source tree, where
        # an editable install would load it instead of the code being edited.
        self._work = work = Path(tempfile.mkdtemp(prefix="pitkit-mypyc-"))
        shutil.copytree(Path(self.root, "src", "pitkit"), work / "pitkit")
        # mypy reads mypy.ini from the folder it runs in. The build's own
        # environment has no NumPy, Gymnasium or PettingZoo (what the
        # compiled adapters import): their types are taken as Any there.
        (work / "mypy.ini").write_text(MYPY_CONFIG)
        self.app.display_info(f"Compiling with mypyc: {', '.join(modules)}")
        try:
            subprocess.run([sys.executable, "-m", "mypyc", *modules], cwd=work, check=True)
        except (OSError, subprocess.CalledProcessError) as exc:
            # Most likely no C compiler: a slower wheel beats no install at all.
            self.app.display_warning(f"mypyc failed ({exc}); building pure Python instead")
            return
        # mypyc puts each module beside its source, and the runtime the
        # modules share at the top level.
        built = [p for s in EXTENSION_SUFFIXES for p in work.glob(f"*{s}")]
        built += [p for s in EXTENSION_SUFFIXES for p in (work / "pitkit").rglob(f"*{s}")]
        for path in built:
            build_data["force_include"][str(path)] = str(path.relative_to(work))
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if self._work is not None:
            shutil.rmtree(self._work, ignore_errors=True)
