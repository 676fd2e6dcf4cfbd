"""The layers of pitkit (docs/api.md § Layers, docs/server.md), kept by walking every import.

    cards < core < games < play < bots < arena < tournaments < {adapters, server, cli}

A module may import from its own layer and the layers before it, never from
one after it. adapters, cli and server are clients of everything before
them; nothing imports adapters (the optional extra: PettingZoo, Gymnasium).
The CLI starts the server (`pitkit serve`), so cli may import server, and
server never imports cli. `pitkit.tournaments` is pure: the rules of the
games and the standard library, no I/O.

The server has sub-layers of its own, in the same way:

    ops < store < live < tournaments < web < its root modules (app, client...)

SQLAlchemy and Alembic are imported only in `store`; FastAPI, Starlette,
Pydantic and uvicorn only in `web`. No module takes part in an import
cycle, nor does any of the browser's. Every import counts, those inside
functions and under TYPE_CHECKING too, so a late import cannot hide a cycle.
"""

from __future__ import annotations

import ast
import functools
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pitkit

SRC = Path(pitkit.__file__).parent
JS = SRC / "server" / "static" / "js"
ORDER = [
    "cards",
    "core",
    "games",
    "play",
    "bots",
    "arena",
    "tournaments",
    "adapters",
    "server",
    "cli",
]
"""The layers in order; of the last two, the CLI may start the server."""
OPTIONAL = "adapters"
"""A client layer that no other layer imports: it needs the optional extra."""
SERVER_ORDER = ["ops", "store", "live", "tournaments", "web", ""]
"""The server's sub-layers in order; "" is its root modules (__init__, app, client, wire)."""
FRAMEWORKS = {
    "sqlalchemy": "store",
    "alembic": "store",
    "fastapi": "web",
    "starlette": "web",
    "pydantic": "web",
    "uvicorn": "web",
}
"""The server's frameworks, each with the one server sub-layer that may import it."""
PURE = {"cards", "core", "games", "tournaments"}
"""The layers of pitkit that `pitkit.tournaments` may import: the games' rules."""
IMPURE = {"asyncio", "socket", "threading", "httpx", "websockets", *FRAMEWORKS}
"""What `pitkit.tournaments` never imports, of the standard library or not: I/O."""

Graph = dict[str, dict[str, int]]
"""Files and the files each imports, with the line of the (first) import."""


def layer(module: str) -> str | None:
    """The layer of a pitkit module (None: the package's own __init__)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def server_layer(module: str) -> str:
    """The sub-layer of a module of the server ("": one of its root modules)."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[2] in SERVER_ORDER else ""


def module_name(path: Path) -> str:
    relative = path.relative_to(SRC.parent).with_suffix("")
    parts = list(relative.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def module_path(module: str) -> Path:
    """The file of a pitkit module or package."""
    relative = SRC.joinpath(*module.split(".")[1:])
    return relative / "__init__.py" if relative.is_dir() else relative.with_suffix(".py")


@functools.cache
def import_statements(path: Path) -> tuple[ast.Import | ast.ImportFrom, ...]:
    """Every import statement in `path`, anywhere in it (parsed once for all tests)."""
    tree = ast.parse(path.read_text(), str(path))
    return tuple(node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom))


def absolute(path: Path, node: ast.ImportFrom) -> str:
    """The module a `from ... import` takes names from, relative imports resolved."""
    if not node.level:
        return node.module or ""
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def imports(path: Path) -> Iterator[tuple[int, str]]:
    """Every module `path` imports, anywhere in it, with its line (for a
    `from m import n`, both m and m.n: n may be a module)."""
    for node in import_statements(path):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        else:
            base = absolute(path, node)
            yield node.lineno, base
            for alias in node.names:  # `from pitkit import games` imports pitkit.games
                yield node.lineno, f"{base}.{alias.name}"


def dependencies(path: Path) -> Iterator[tuple[int, str]]:
    """The pitkit modules `path` imports, with their lines: an imported package is
    its __init__, and `from package import name` is the module `name` if it is one."""
    for node in import_statements(path):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            base = absolute(path, node)
            names = [
                f"{base}.{alias.name}" if pitkit_module(f"{base}.{alias.name}") else base
                for alias in node.names
            ]
        for name in names:
            if name.startswith("pitkit.") and pitkit_module(name):
                yield node.lineno, name


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


def test_the_server_imports_only_its_earlier_sublayers() -> None:
    wrong = []
    for path in SRC.glob("server/**/*.py"):
        own = server_layer(module_name(path))
        for line, target in imports(path):
            if target.startswith("pitkit.server") and pitkit_module(target):
                other = server_layer(target)
                if SERVER_ORDER.index(other) > SERVER_ORDER.index(own):
                    wrong.append(f"{path.relative_to(SRC)}:{line} ({own}) imports {target}")
    assert not wrong, "imports against the server's sub-layers:\n" + "\n".join(sorted(wrong))


def test_each_framework_is_imported_in_its_own_sublayer() -> None:
    wrong = set()
    for path in sources():
        name = module_name(path)
        for line, target in imports(path):
            home = FRAMEWORKS.get(target.split(".")[0])
            if home is not None and (layer(name) != "server" or server_layer(name) != home):
                wrong.add(f"{path.relative_to(SRC)}:{line} imports {target.split('.')[0]}")
    assert not wrong, "frameworks outside their sub-layer:\n" + "\n".join(sorted(wrong))


def test_the_tournament_rules_do_no_io() -> None:
    """`pitkit.tournaments` imports the games and the standard library, and
    nothing of it that waits on the world."""
    wrong = set()
    for path in SRC.glob("tournaments/**/*.py"):
        for line, target in imports(path):
            top = target.split(".")[0]
            if top == "pitkit":
                allowed = target == "pitkit" or layer(target) in PURE
            else:
                allowed = top in sys.stdlib_module_names and top not in IMPURE
            if not allowed:
                wrong.add(f"{path.relative_to(SRC)}:{line} imports {target}")
    assert not wrong, "the tournament rules import:\n" + "\n".join(sorted(wrong))


def test_no_import_cycle_between_modules() -> None:
    graph: Graph = {}
    for path in sources():
        needs = graph.setdefault(str(path.relative_to(SRC)), {})
        for line, target in dependencies(path):
            needs.setdefault(str(module_path(target).relative_to(SRC)), line)
    cycles = [describe(graph, c) for c in strongly_connected(graph) if is_cycle(graph, c)]
    assert not cycles, "modules importing each other, in src/pitkit:\n" + "\n".join(cycles)


def test_no_import_cycle_between_the_browsers_modules() -> None:
    graph: Graph = {}
    for path in sorted(JS.rglob("*.js")):
        needs = graph.setdefault(path.relative_to(JS).as_posix(), {})
        for line, target in js_imports(path):
            resolved = (path.parent / target).resolve()
            if target.startswith(".") and resolved.is_relative_to(JS):
                needs.setdefault(resolved.relative_to(JS).as_posix(), line)
    cycles = [describe(graph, c) for c in strongly_connected(graph) if is_cycle(graph, c)]
    assert not cycles, f"modules importing each other, in {JS.relative_to(SRC)}:\n" + "\n".join(
        cycles
    )


JS_IMPORT = re.compile(
    r"""^[ \t]*(?:import|export)\b[^'";]*?\bfrom\s*['"]([^'"]+)['"]"""
    r"""|^[ \t]*import\s*['"]([^'"]+)['"]""",
    re.MULTILINE,
)
"""A static `import ... from '...'`, `export ... from '...'` or `import '...'` (not
a type in a JSDoc comment, nor a dynamic `import()`: neither runs at load time)."""


def js_imports(path: Path) -> Iterator[tuple[int, str]]:
    """The modules a browser module imports, as written, with their lines."""
    text = path.read_text()
    for match in JS_IMPORT.finditer(text):
        yield text.count("\n", 0, match.start()) + 1, match.group(1) or match.group(2)


def strongly_connected(graph: Graph) -> list[list[str]]:
    """The strongly connected components of `graph` (Tarjan's algorithm): the
    nodes of each reach one another."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph.get(node, {}):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            at = stack.index(node)
            components.append(sorted(stack[at:]))
            del stack[at:]

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return components


def is_cycle(graph: Graph, component: list[str]) -> bool:
    """Whether a component is a cycle: two nodes or more, or one that imports itself."""
    return len(component) > 1 or component[0] in graph.get(component[0], {})


def describe(graph: Graph, component: list[str]) -> str:
    """A cycle, as every import between its files."""
    lines = [f"- {len(component)} files: {', '.join(component)}"]
    for node in component:
        for other, line in sorted(graph[node].items(), key=lambda item: item[1]):
            if other in component:
                lines.append(f"    {node}:{line} imports {other}")
    return "\n".join(lines)


def package_of(module: str) -> str:
    """The package a module belongs to, down to a game (pitkit.games.pit)."""
    parts = module.split(".")
    depth = 3 if len(parts) > 2 and parts[1] == "games" else 2
    return ".".join(parts[:depth])


@functools.cache
def pitkit_module(name: str) -> bool:
    """Whether `name` is a module or package of pitkit (not a name inside one)."""
    relative = Path(*name.split(".")[1:])
    return (SRC / relative).is_dir() or (SRC / relative).with_suffix(".py").is_file()
