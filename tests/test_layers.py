"""The import graph keeps its layers: the rules core at the bottom, then bots, the bot
protocol, the arena, the terminal and the tournament model, the server and the learning
environments, and the command line on top. A module imports only from its own package or
from lower layers (peers in one layer stay apart), and the core imports nothing outside
the standard library."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).parents[1] / "src" / "scopa"

#: each package's layer; every top-level module (scopa/*.py) is the rules core, layer 0,
#: except the command line's entry point
LAYERS = {
    "bots": 1,
    "protocol": 2,
    "arena": 3,
    "terminal": 3,
    "tournament": 3,
    "server": 4,
    "rl": 4,
    "commands": 5,
    "cli": 5,
}
CORE = 0


def group_of(module: str) -> str:
    """``scopa.bots.search`` -> ``bots``; ``scopa.hand`` -> ``hand`` (a core module)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def layer_of(group: str) -> int:
    if group in LAYERS:
        return LAYERS[group]
    if group == "" or (SRC / f"{group}.py").is_file():
        return CORE
    raise AssertionError(f"package scopa.{group} has no layer: add it to LAYERS")


def sources() -> list[tuple[str, bool, str]]:
    """(module name, whether it is a package's ``__init__``, its source) of every module."""
    out = []
    for path in sorted(SRC.rglob("*.py")):
        parts = path.relative_to(SRC.parent).with_suffix("").parts
        init = parts[-1] == "__init__"
        out.append((".".join(parts[:-1] if init else parts), init, path.read_text("utf-8")))
    return out


def _named(base: str, name: str) -> str:
    """What ``from <base> import <name>`` imports from: a submodule of the package root
    when there is one, else ``base`` itself."""
    if base == "scopa" and ((SRC / name).is_dir() or (SRC / f"{name}.py").is_file()):
        return f"scopa.{name}"
    return base


def _relative(package: str, level: int, name: str) -> str:
    """The absolute name of ``from <level dots><name>`` in ``package``."""
    parts = package.split(".")
    return ".".join(parts[: len(parts) - level + 1] + ([name] if name else []))


#: the calls that import a module named by their first argument
DYNAMIC = frozenset({"import_module", "__import__"})


def _dynamic_call(node: ast.AST) -> ast.Call | None:
    """``importlib.import_module(...)``, ``import_module(...)`` or ``__import__(...)``."""
    if not isinstance(node, ast.Call) or not node.args:
        return None
    f = node.func
    name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
    return node if name in DYNAMIC else None


def imports(module: str, init: bool, source: str) -> list[tuple[str, int]]:
    """Every module a file imports (at any depth: lazy imports count), with its line: import
    statements, and ``import_module`` / ``__import__`` calls that name their module in a
    string literal (``".view"`` with a package argument is relative, as importlib reads it),
    so a circle hidden in a call made at run time is still seen."""
    package = module if init else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _relative(package, node.level, node.module or "") if node.level else (
                node.module or "")
            found += [(_named(base, alias.name), node.lineno) for alias in node.names]
        elif (call := _dynamic_call(node)) is not None:
            arg = call.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                name = arg.value
                level = len(name) - len(name.lstrip("."))
                target = _relative(package, level, name[level:]) if level else name
                found.append((target, call.lineno))
    return found


#: modules allowed an import by a name computed at run time, and why: the command line is
#: the top layer (nothing imports it), and it loads the command modules whose extras are
#: installed, each named in its ``COMMAND_MODULES``
COMPUTED_IMPORTS = {"scopa.cli": "COMMAND_MODULES: the optional commands, from the top layer"}


def unreadable_imports(files: list[tuple[str, bool, str]]) -> list[str]:
    """``import_module`` / ``__import__`` calls whose module is not a string literal: the
    checks above cannot see where they lead (``f".{name}"`` once hid a circle in the core)."""
    out = []
    for module, _, source in files:
        if module in COMPUTED_IMPORTS:
            continue
        for node in ast.walk(ast.parse(source)):
            call = _dynamic_call(node)
            if call is not None and not (isinstance(call.args[0], ast.Constant)
                                         and isinstance(call.args[0].value, str)):
                out.append(f"{module} line {call.lineno}: the imported module is computed")
    return out


def test_dynamic_imports_name_their_module() -> None:
    assert unreadable_imports(sources()) == []


def test_the_check_catches_a_computed_import() -> None:
    """The ``_above`` helper game.py had (``import_module(f".{name}", __package__)``)."""
    planted = 'from importlib import import_module\n\ndef _above(name):\n' \
              '    return import_module(f".{name}", __package__)\n'
    files = [(m, init, src + "\n" + planted if m == "scopa.scoring" else src)
             for m, init, src in sources()]
    assert any(v.startswith("scopa.scoring line") for v in unreadable_imports(files))


def violations(files: list[tuple[str, bool, str]]) -> list[str]:
    out = []
    for module, init, source in files:
        here = group_of(module)
        mine = layer_of(here)
        for target, line in imports(module, init, source):
            where = f"{module} line {line}"
            if target.split(".")[0] != "scopa":
                if mine == CORE and target.split(".")[0] not in sys.stdlib_module_names:
                    out.append(f"{where}: the rules core imports {target} (standard library only)")
                continue
            there = group_of(target)
            if there == here or (mine == CORE and layer_of(there) == CORE):
                continue
            if layer_of(there) >= mine:
                out.append(f"{where}: layer {mine} imports {target} (layer {layer_of(there)})")
    return out


def test_no_module_imports_a_higher_or_peer_layer() -> None:
    assert violations(sources()) == []


#: the server's own packages, bottom first: each imports only from those below it (and
#: from itself); the package's ``__init__`` (``create_app``) is above them all
SERVER_LAYERS = {"common": 0, "store": 1, "players": 2, "play": 3, "puzzles": 3, "chat": 4,
                 "tournaments": 4, "bots": 4, "ops": 5}
SERVER_TOP = len(SERVER_LAYERS)


def server_part(module: str) -> str | None:
    """``scopa.server.play.master`` -> ``play``; ``scopa.server`` -> ``""``; None outside."""
    parts = module.split(".")
    if parts[:2] != ["scopa", "server"]:
        return None
    return parts[2] if len(parts) > 2 and parts[2] in SERVER_LAYERS else ""


def server_layer(part: str, module: str) -> int:
    if part in SERVER_LAYERS:
        return SERVER_LAYERS[part]
    if module in ("scopa.server", "scopa.server.__main__"):
        return SERVER_TOP
    raise AssertionError(f"{module} is in no server package: add it to one (SERVER_LAYERS)")


def server_violations(files: list[tuple[str, bool, str]]) -> list[str]:
    out = []
    for module, init, source in files:
        here = server_part(module)
        if here is None:
            continue
        mine = server_layer(here, module)
        for target, line in imports(module, init, source):
            there = server_part(target)
            if there is None or there == here:
                continue
            if server_layer(there, target) >= mine:
                out.append(f"{module} line {line}: server.{here or '(top)'} imports {target}")
    return out


def test_the_servers_packages_keep_their_order() -> None:
    """common < store < players < play < chat < ops (see ``scopa/server/__init__.py``)."""
    assert server_violations(sources()) == []


def test_the_servers_tests_follow_its_packages() -> None:
    """``tests/server/<package>/`` for each server package, and no test module loose at
    ``tests/server/`` (its helpers and fixtures stay there, for every package's tests)."""
    tests = Path(__file__).parent / "server"
    loose = sorted(p.name for p in tests.glob("test_*.py"))
    assert loose == [], f"put these under tests/server/<package>/: {loose}"
    folders = {p.name for p in tests.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders <= set(SERVER_LAYERS), folders - set(SERVER_LAYERS)
    packages = {p.name for p in (SRC / "server").iterdir() if (p / "__init__.py").exists()}
    assert packages == set(SERVER_LAYERS)
    assert all(any((tests / name).glob("test_*.py")) for name in SERVER_LAYERS), \
        [name for name in SERVER_LAYERS if not any((tests / name).glob("test_*.py"))]


def test_no_test_module_imports_another() -> None:
    """Shared steps and fixtures live in helper modules (``*_helpers.py``, ``services.py``
    ...), never in a test module another imports by its bare name:
    ``tests/server/play/test_matches.py`` and ``tests/web/test_matches.py`` share a name,
    so such an import found the wrong one when both folders ran in one pytest."""
    found = []
    for path in sorted((Path(__file__).parent).rglob("*.py")):
        if "node_modules" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            # (a relative import, ``from .test_properties import``, names its package)
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level \
                else [a.name for a in node.names] if isinstance(node, ast.Import) else []
            found += [f"{path.name} imports {n}" for n in names
                      if n.split(".")[0].startswith(("test_", "conftest"))]
    assert found == []


def cycles(files: list[tuple[str, bool, str]]) -> list[list[str]]:
    """The import circles between modules (every import at any depth counts, lazy and
    type-checking ones too: a circle hidden in a function is still a circle)."""
    known = {m for m, _, _ in files}
    graph: dict[str, set[str]] = {}
    for module, init, source in files:
        graph[module] = set()
        for target, _ in imports(module, init, source):
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != module and not module.startswith(target + "."):
                graph[module].add(target)
    # Tarjan's strongly connected components
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    sys.setrecursionlimit(max(10000, sys.getrecursionlimit()))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_circles() -> None:
    assert cycles(sources()) == []


def test_the_circle_check_catches_a_planted_circle() -> None:
    files = [(m, init, src + "\nfrom .cluster import Cluster\n"
              if m == "scopa.server.play.workers" else src) for m, init, src in sources()]
    assert ["scopa.server.play.cluster", "scopa.server.play.workers"] in cycles(files)


@pytest.mark.parametrize(
    "call",
    [
        'importlib.import_module(".view", __package__)',
        'importlib.import_module("scopa.view")',
        'import_module(".view", package=__package__)',
        '__import__("scopa.view")',
    ],
)
def test_the_circle_check_catches_a_circle_through_importlib(call: str) -> None:
    """A core module that imports ``view`` at call time (``view`` imports it): the circle
    ``_above`` once hid, planted in a copy of ``scoring`` (which ``view`` imports through the
    engine), inside a function as it was."""
    planted = f"\n\ndef _late():\n    import importlib\n    return {call}\n"
    files = [(m, init, src + planted if m == "scopa.scoring" else src)
             for m, init, src in sources()]
    assert any({"scopa.scoring", "scopa.view"} <= set(c) for c in cycles(files)), call
    clean = [(m, init, src) for m, init, src in sources()]
    assert not any("scopa.scoring" in c for c in cycles(clean))


def test_the_circle_check_sees_a_synthetic_importlib_circle() -> None:
    """On a graph of three made-up modules, one leg an ``import_module`` call."""
    files = [
        ("scopa.a", False, "from .b import x\n"),
        ("scopa.b", False, "from .c import f\n"),
        ("scopa.c", False, "import importlib\n\ndef f():\n"
                           "    return importlib.import_module('.a', __package__)\n"),
    ]
    assert cycles(files) == [["scopa.a", "scopa.b", "scopa.c"]]
    files[2] = ("scopa.c", False, "def f():\n    return 1\n")
    assert cycles(files) == []


@pytest.mark.parametrize(
    "module, line, words",
    [
        ("scopa.terminal.session", "from ..arena.play import derive_seed", "layer 3"),
        ("scopa.server", "from ..commands.server import serve", "layer 5"),
        ("scopa.hand", "import typer", "standard library only"),
        ("scopa.bots.greedy", "from scopa import server", "layer 4"),
        ("scopa.record", "from .bots import greedy", "layer 1"),
        ("scopa.server.store.models", "from ..players import ratings", "server.store"),
        ("scopa.server.players.friends", "from ..play.lobby import master_of", "server.players"),
    ],
)
def test_the_check_catches_a_bad_import(module: str, line: str, words: str) -> None:
    """The checker itself: a bad import planted in a copy of a module is reported."""
    files = [(m, init, src + "\n" + line + "\n" if m == module else src)
             for m, init, src in sources()]
    assert any(words in v for v in violations(files) + server_violations(files)), line
