"""The layers of pitkit (docs/api.md § Layers), kept by walking every import.

    cards < core < games < play < bots < arena < {adapters, cli, server}

A module may import from its own layer and the layers before it, never from
one after it. adapters, cli and server are clients of everything before
them; nothing imports adapters (the optional extra: PettingZoo, Gymnasium).
The CLI starts the server (`pitkit serve`), so cli may import server, and
server never imports cli. Every import counts, those inside functions too,
so a late import cannot hide a cycle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pitkit

SRC = Path(pitkit.__file__).parent
ORDER = ["cards", "core", "games", "play", "bots", "arena", "tournaments", "adapters", "server", "cli"]
"""The layers in order; of the last two, the CLI may start the server."""
OPTIONAL = "adapters"
"""A client layer that no other layer imports: it needs the optional extra."""


def layer(module: str) -> str | None:
    """The layer of a pitkit module (None: the package's own __init__)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def module_name(path: Path) -> str:
    relative = path.relative_to(SRC.parent).with_suffix("")
    parts = list(relative.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> Iterator[tuple[int, str]]:
    """Every pitkit module `path` imports, anywhere in it, with its line."""
    tree = ast.parse(path.read_text(), str(path))
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
            yield node.lineno, base
            for alias in node.names:  # `from pitkit import games` imports pitkit.games
                yield node.lineno, f"{base}.{alias.name}"


def sources() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def test_every_module_has_a_layer() -> None:
    for path in sources():
        name = module_name(path)
        if name != "pitkit":
            assert layer(name) in ORDER, f"{name} is in no layer; add it to docs/api.md § Layers"


def test_no_module_imports_from_a_later_layer() -> None:
    wrong = []
    for path in sources():
        own = layer(module_name(path))
        if own is None:
            continue
        for line, target in imports(path):
            if not target.startswith("pitkit.") or not pitkit_module(target):
                continue
            other = layer(target)
            if other is not None and ORDER.index(other) > ORDER.index(own):
                wrong.append(f"{path.relative_to(SRC)}:{line} ({own}) imports {target} ({other})")
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


def test_nothing_imports_the_adapters() -> None:
    wrong = [
        f"{path.relative_to(SRC)}:{line} imports {target}"
        for path in sources()
        if layer(module_name(path)) != OPTIONAL
        for line, target in imports(path)
        if target.startswith(f"pitkit.{OPTIONAL}")
    ]
    assert not wrong, "the optional adapters imported elsewhere:\n" + "\n".join(wrong)


def test_no_cycles_between_packages() -> None:
    """Inside a layer, packages do not import each other both ways (a game
    never imports another game)."""
    edges: set[tuple[str, str]] = set()
    for path in sources():
        own = package_of(module_name(path))
        for _, target in imports(path):
            if target.startswith("pitkit.") and pitkit_module(target):
                other = package_of(target)
                if other != own and not own.startswith(other + "."):
                    edges.add((own, other))
    both_ways = sorted((a, b) for a, b in edges if (b, a) in edges and a < b)
    assert not both_ways, f"packages importing each other: {both_ways}"


def test_the_engines_import_no_opponent_model() -> None:
    """A game's state machine does not import what a seat may infer
    (belief), nor its bots: the state is the rules alone."""
    for state in SRC.glob("games/*/state.py"):
        game = state.parent.name
        for line, target in imports(state):
            assert not target.startswith(
                (f"pitkit.games.{game}.belief", f"pitkit.games.{game}.bots")
            ), f"{state.relative_to(SRC)}:{line} imports {target}"


def package_of(module: str) -> str:
    """The package a module belongs to, down to a game (pitkit.games.pit)."""
    parts = module.split(".")
    depth = 3 if len(parts) > 2 and parts[1] == "games" else 2
    return ".".join(parts[:depth])


def pitkit_module(name: str) -> bool:
    """Whether `name` is a module or package of pitkit (not a name inside one)."""
    relative = Path(*name.split(".")[1:])
    return (SRC / relative).is_dir() or (SRC / relative).with_suffix(".py").is_file()
