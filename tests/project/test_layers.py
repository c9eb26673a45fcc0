"""The house's structure, checked on the code's own imports (top-level and inside functions, read with `ast`):

- layers: each package imports only those below it: engine < bots < export < tuner. Inside `bots`, the contract
  (with the package's face and the registry) < the shared helpers < the bots' folders (sideways among them: a search
  bot plays out another's policy) < running them, so that the contract and the helpers do not depend on any bot and
  no bot on the machinery that runs it. Inside `tuner`: base modules < storage < programs < play < league <
  studyfile < results < view < search < cli, so that the command line only calls into the rest;
- `bots/` holds no module of its own but its face (`__init__.py`) and the registry: every other is in the folder of
  its job, and the new packages' `__init__.py` import nothing (the command line imports what it needs lazily);
- no import circle between the project's modules (strongly connected components of the import graph);
- the compiled dispatch `bots/running/dispatch.py` is the one the registry generates;
- pyproject.toml packages the project's packages (`engine.sources.PACKAGES`, which it cannot import).
"""
from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

from bots.running.generate import dispatch_source
from engine.sources import NOT_SOURCES, PACKAGES
from tests.conftest import ROOT

BOT_FOLDERS = "bots.<bot>"  # the layer of every bot's folder (bots/heuristic, bots/search, ...)
LAYERS = ["engine", "bots.contract", "bots.shared", BOT_FOLDERS, "bots.running", "export", "tuner", "tuner.storage",
          "tuner.programs", "tuner.play", "tuner.league", "tuner.studyfile", "tuner.results", "tuner.view",
          "tuner.search", "tuner.cli"]
BOTS_JOBS = ("contract", "shared", "running")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict:
    return {module_name(p): p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))
            if not set(NOT_SOURCES) & set(p.relative_to(ROOT).parts)}


def imports_of(path: Path, modules: dict) -> list[tuple[int, str]]:
    """(line, imported project module) for every import in the file; `from package import name` counts as an
    import of `package.name` when that is a module, else of the package."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                found.append((node.lineno, full if full in modules else node.module))
    return [(line, name) for line, name in found if name.split(".")[0] in PACKAGES]


def layer_name(module: str) -> str:
    """The layer a module belongs to: inside `bots`, its job's folder (the package itself and the registry with the
    contract) or a bot's folder; elsewhere the deepest of LAYERS that names it or a package holding it."""
    parts = module.split(".")
    if parts[0] == "bots":
        if len(parts) == 1 or parts[1] == "registry":
            return "bots.contract"
        return f"bots.{parts[1]}" if parts[1] in BOTS_JOBS else BOT_FOLDERS
    return max((prefix for prefix in LAYERS if module == prefix or module.startswith(prefix + ".")), key=LAYERS.index)


def layer(module: str) -> int:
    return LAYERS.index(layer_name(module))


def test_every_import_points_down_or_sideways():
    modules = project_modules()
    upward = []
    for name, path in modules.items():
        for line, imported in imports_of(path, modules):
            if layer(imported) > layer(name):
                upward.append(f"{path.relative_to(ROOT)}:{line} imports {imported} ({layer_name(imported)} is above "
                              f"{layer_name(name)})")
    assert not upward, "\n".join(upward)


def import_circles(modules: dict, edges: dict) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan's algorithm)."""
    index, low, stack, on_stack, circles = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for v in modules:
        if v not in index:
            visit(v)
    return circles


def test_no_import_circle():
    modules = project_modules()
    edges = {name: {imported for _, imported in imports_of(path, modules) if imported in modules and imported != name}
             for name, path in modules.items()}
    assert not import_circles(modules, edges)


def test_the_circle_check_finds_a_circle():
    """The check itself: a graph with a circle of three modules is reported."""
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert import_circles(dict.fromkeys("abcd"), edges) == [["a", "b", "c"]]


@pytest.mark.parametrize("module, imported, upward", [
    ("engine.rules", "bots.running.dispatch", True), ("bots.contract.names", "tuner.results.picks", True),
    ("bots.contract.names", "bots.running.player", True), ("bots.contract.paramfile", "bots.registry", False),
    ("bots.registry", "bots.contract.plugin", False), ("bots", "bots.shared.cells", True),
    ("bots.shared.shortlist", "bots.heuristic.policy", True), ("bots.heuristic.policy", "bots.shared.cells", False),
    ("bots.search.simulate", "bots.sunrate.policy", False), ("bots.mcts.policy", "bots.running.arena", True),
    ("bots.running.dispatch", "bots.mcts.policy", False), ("bots.running.warmup", "bots.registry", False),
    ("bots.contract.plugin", "export.languages", True), ("bots.heuristic.policy", "export.transpile", True),
    ("export.standalone", "bots.contract.names", False), ("export.cpp.emit", "tuner.errors", True),
    ("tuner.cli.export", "export.languages", False), ("tuner.storage.open", "export.standalone", False),
    ("tuner.results.picks", "tuner.search.opponent_pool", True), ("tuner.cli.tune", "tuner.search.tune", False),
    ("tuner.view.report", "tuner.search.tune", True), ("tuner.search.best_artifacts", "tuner.view", False),
    ("tuner.play.matches", "engine.referee", False), ("tuner.storage.open", "tuner.errors", False),
    ("tuner.programs.program", "tuner.studyfile.model", True),
    ("tuner.studyfile.model", "tuner.programs.program", False), ("tuner.play.runner", "tuner.league.league", True),
    ("tuner.league.league", "tuner.play.matches", False), ("tuner.results.botnames", "tuner.studyfile.entries", False),
    ("tuner.studyfile.tunable", "tuner.results.picks", True),
])
def test_the_layer_order(module, imported, upward):
    assert (layer(imported) > layer(module)) == upward


def test_the_compiled_dispatch_is_generated_from_the_registry():
    assert (ROOT / "bots" / "running" / "dispatch.py").read_text(encoding="utf-8") == dispatch_source(), \
        "bots/running/dispatch.py is out of date: run python -m bots.running.generate"


def test_pyproject_packages_the_project_packages():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["tool"]["setuptools"]["packages"]["find"]["include"] == [f"{package}*" for package in PACKAGES]
    assert config["tool"]["ruff"]["lint"]["isort"]["known-first-party"] == [*PACKAGES, "tests"]


def test_bots_holds_its_face_and_the_registry_and_the_rest_in_folders():
    assert sorted(path.name for path in (ROOT / "bots").glob("*.py")) == ["__init__.py", "registry.py"]


@pytest.mark.parametrize("package", ["bots", "bots/contract", "bots/shared", "bots/running", "export", "export/python",
                                     "export/cpp"])
def test_a_package_face_imports_nothing(package):
    """Importing `bots.contract.plugin` or `export.languages` loads no other module of the package (no NumPy, no
    Numba for `tuner --help`)."""
    tree = ast.parse((ROOT / package / "__init__.py").read_text(encoding="utf-8"))
    assert len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr), "a docstring and nothing else"
