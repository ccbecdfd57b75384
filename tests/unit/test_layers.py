"""The package's layering: no import cycles (function-level imports included), modules of one job.

The layers, from the bottom up, each importing only what is below it:
errors, _bits · cards · actions · scoring · phases · rulesets (protocol,
steps, base, the games, lookup) · _legal · views · state · deal · engine ·
testing, cli. ``_legal`` and ``views`` are queries over a state's data and
sit below the :class:`~calabrasella.State` that offers them as methods; they
name ``State`` only for type checking (an ``if TYPE_CHECKING:`` import, which
is not executed and is left out here).

``svg`` (the pictures) sits above the core, beside ``testing`` and ``cli``.
One edge goes upwards, on purpose: ``_pictures.svg_of`` (the core classes'
``_repr_svg_``) imports ``svg`` inside the function, when a notebook asks for
a picture. It is the only such edge (:data:`CALL_TIME_UPWARD`): the graph
below leaves it out, and the tests at the end check that it stays inside
that one function and that ``import calabrasella`` does not load ``svg``.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "calabrasella"
MAX_LINES = 650
HARD_LINES = 1000


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_type_checking_block(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Name)
        and node.test.id == "TYPE_CHECKING"
    )


def runtime_imports(path: Path) -> set[str]:
    """The package modules ``path`` imports when it runs, wherever the import statement is."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = module_name(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and is_type_checking_block(node):
            for branch in node.orelse:
                visit(branch)
            return
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("calabrasella"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            if target.startswith("calabrasella"):
                if node.module or not node.level:  # ``from . import x`` names only x
                    found.add(target)
                for alias in node.names:  # ``from . import legal`` imports a module
                    candidate = f"{target}.{alias.name}"
                    if candidate in MODULES:
                        found.add(candidate)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    found.discard(module_name(path))
    return found


PATHS = sorted(PACKAGE.rglob("*.py"))
MODULES = {module_name(p) for p in PATHS}

#: The one upward edge: a core class's ``_repr_svg_`` imports the pictures at call time.
CALL_TIME_UPWARD = {("calabrasella._pictures", "calabrasella.svg")}


def graph() -> dict[str, set[str]]:
    """Each module's runtime imports of other package modules.

    A package's ``__init__`` is a node too: it imports what it re-exports,
    so a module below that imports the package closes a cycle.
    """
    edges: dict[str, set[str]] = {}
    for path in PATHS:
        name = module_name(path)
        edges[name] = {
            m for m in runtime_imports(path) if m in MODULES and (name, m) not in CALL_TIME_UPWARD
        }
    return edges


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def dfs(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state:
                cycle = dfs(nxt)
                if cycle:
                    return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state:
            cycle = dfs(node)
            if cycle:
                return cycle
    return None


def test_the_import_graph_has_no_cycle() -> None:
    """No module imports, directly or through others, a module that imports it back."""
    edges = graph()
    assert "calabrasella.state" in edges["calabrasella"]  # the re-exports are edges
    assert find_cycle(edges) is None, find_cycle(edges)


def test_the_check_sees_function_level_imports() -> None:
    """The reader counts an import inside a function (so a hidden cycle cannot pass)."""
    source = PACKAGE / "state.py"
    assert "calabrasella.views" in runtime_imports(source)
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


@pytest.mark.parametrize(
    ("lower", "upper"),
    [
        ("calabrasella.cards", "calabrasella.actions"),
        ("calabrasella.actions", "calabrasella.rulesets.steps"),
        ("calabrasella.rulesets.steps", "calabrasella.state"),
        ("calabrasella.state", "calabrasella.engine"),
        ("calabrasella.views", "calabrasella.state"),
        ("calabrasella.deal", "calabrasella.engine"),
        ("calabrasella.state", "calabrasella.svg"),
        ("calabrasella.cards", "calabrasella.svg"),
        ("calabrasella.svg", "calabrasella.cli"),
        ("calabrasella.svg", "calabrasella.bots"),
    ],
)
def test_layers_import_downwards_only(lower: str, upper: str) -> None:
    """A lower layer never reaches a higher one, directly or through others."""
    edges = graph()
    seen: set[str] = set()
    todo = [lower]
    while todo:
        node = todo.pop()
        for nxt in edges.get(node, ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    assert upper not in seen


@pytest.mark.parametrize("path", PATHS, ids=[module_name(p) for p in PATHS])
def test_no_module_is_long(path: Path) -> None:
    """One job per module: about 650 lines is a guideline, reported; 1,000 is a limit.

    A module over the guideline is named in pytest's warnings summary, not
    failed: splitting one job in two only to stay under a count makes two
    modules that import each other. Over the limit, a module holds more
    than one job.
    """
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= HARD_LINES, f"{path.name} has {lines} lines (at most {HARD_LINES})"
    if lines > MAX_LINES:
        warnings.warn(f"{module_name(path)} has {lines} lines (a guideline of {MAX_LINES})", stacklevel=1)


def test_the_one_upward_edge_is_a_call_time_import_in_one_function() -> None:
    """Only ``_pictures.svg_of`` imports ``svg`` from below it, and only inside the function.

    The layers above the pictures (the environments, the server, and the bots' deal
    analysis, whose chart the pictures draw without importing the bots) may use them.
    """
    above = ("calabrasella.svg", "calabrasella.envs", "calabrasella.server",
             "calabrasella.bots.analysis")  # fmt: skip
    importers = {
        module_name(p)
        for p in PATHS
        if "calabrasella.svg" in runtime_imports(p) and not module_name(p).startswith(above)
    }
    assert importers == {"calabrasella._pictures"}
    tree = ast.parse((PACKAGE / "_pictures.py").read_text(encoding="utf-8"))
    top_level = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert all(n.module != "svg" for n in top_level if isinstance(n, ast.ImportFrom))
    inside = [
        f.name
        for f in tree.body
        if isinstance(f, ast.FunctionDef)
        and any(isinstance(n, ast.ImportFrom) and n.module == "svg" for n in ast.walk(f))
    ]
    assert inside == ["svg_of"]


def test_importing_the_package_does_not_load_the_pictures() -> None:
    """``import calabrasella`` leaves ``calabrasella.svg`` unloaded; a picture asked for loads it."""
    code = (
        "import sys, calabrasella as cb; a = 'calabrasella.svg' in sys.modules; "
        "cb.DECK[0]._repr_svg_(); print(a, 'calabrasella.svg' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]


#: The packages built on the core: they use its public names only.
CONSUMERS = ("bots", "envs", "svg", "server", "cli")
#: Package plumbing they may share (``dir()`` of a package), no part of the core's model.
PLUMBING = {"calabrasella._public"}


def private_uses(source: str, name: str, package: bool = False) -> list[str]:
    """The private core modules and private names of core modules module ``name`` imports.

    A consumer's own private modules (``bots._hand`` from ``bots``) are its
    own business; anything private of another part of the package is not.
    """
    here = name.split(".")
    within = here if package else here[:-1]
    own = ".".join(within[:2])  # calabrasella.bots
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = within[: len(within) - (node.level - 1)]
            target = ".".join([*base, *([node.module] if node.module else [])])
        else:
            target = node.module or ""
        if not target.startswith("calabrasella") or target == own or target.startswith(own + "."):
            continue
        for used in [target, *(f"{target}.{alias.name}" for alias in node.names)]:
            private = any(p.startswith("_") for p in used.split(".")[1:])
            if private and used not in PLUMBING and not used.startswith(tuple(PLUMBING)):
                found.append(f"{name}: {used}")
    return found


def test_consumers_import_no_private_core_module_or_name() -> None:
    """Bots, environments, pictures, the server and the command line are built on the
    core's documented names: no ``calabrasella._x`` module and no ``_name`` of a core module."""
    paths = [
        p
        for p in PATHS
        if module_name(p).split(".")[1:2] and module_name(p).split(".")[1] in CONSUMERS
    ]
    assert len(paths) > 30
    found = sorted(
        use
        for p in paths
        for use in private_uses(
            p.read_text(encoding="utf-8"), module_name(p), p.name == "__init__.py"
        )
    )
    assert found == []


def test_the_private_use_check_sees_a_private_import() -> None:
    """The check above can fail: a private module and a private name are both seen."""
    source = "from .._bits import bits\nfrom ..encoding import _pick\nfrom ._hand import x\n"
    assert private_uses(source, "calabrasella.bots.probe") == [
        "calabrasella.bots.probe: calabrasella._bits",
        "calabrasella.bots.probe: calabrasella._bits.bits",
        "calabrasella.bots.probe: calabrasella.encoding._pick",
    ]
