"""Where compiled code is cached: one folder per module and content, shared by every copy of the project.

Numba caches each compiled function on disk, by default next to the path of its source file and checked
against that file alone. Compiled code here links the functions it calls from other modules, so a cached
kernel must be invalidated by an edit to any module it uses, and a second checkout (a fresh clone, a test's
copy of the project) should find what the first compiled. `ContentLocator` files a function of the project
under ``<root>/<package path>/<module>-<digest>/``, the digest covering the module's source and every project
module it imports, directly or not: an edited policy recompiles that policy and what calls it (the dispatch and
the arena), nothing else, and any copy with the same sources reuses the cache. A variant of a function (the same
code with some of its globals rebound, `engine.jit.rebound`) is filed in a folder of its own, named for it.
"""
from __future__ import annotations

import ast
import hashlib
import os
from functools import cache
from pathlib import Path
from typing import Optional

from numba.core.caching import CacheImpl, _CacheLocator

from engine.sources import PACKAGE_ROOT, PACKAGES


def cache_root() -> Path:
    """The cache's root: $NUMBA_CACHE_DIR, $XDG_CACHE_HOME or ~/.cache, then photosynthesis-tuner/."""
    base = os.environ.get("NUMBA_CACHE_DIR") or os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "photosynthesis-tuner"


def _module_file(root: Path, dotted: str) -> Optional[Path]:
    parts = dotted.split(".")
    if parts[0] not in PACKAGES:
        return None
    for candidate in (root.joinpath(*parts).with_suffix(".py"), root.joinpath(*parts, "__init__.py")):
        if candidate.is_file():
            return candidate
    return None


@cache
def _imports(path: Path, root: Path) -> tuple[Path, ...]:
    """The project modules that `path` imports (`import a.b`, `from a import b`, `from a.b import c`)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        for name in names:
            module = _module_file(root, name)
            if module is not None and module != path:
                found.add(module)
    return tuple(sorted(found))


def _closure(path: Path, root: Path) -> list[Path]:
    """The module at `path` and every project module it imports, directly or not, sorted."""
    seen: set[Path] = set()
    pending = [Path(path).resolve()]
    while pending:
        module = pending.pop()
        if module not in seen:
            seen.add(module)
            pending.extend(_imports(module, root.resolve()))
    return sorted(seen)


def source_size(path, root: Path = PACKAGE_ROOT) -> int:
    """The bytes of source a module compiles from (its closure): a rough measure of its compile time."""
    return sum(module.stat().st_size for module in _closure(Path(path), root))


@cache
def module_digest(path: Path, root: Path = PACKAGE_ROOT) -> str:
    """A digest of the module at `path` and of every project module it imports, directly or not (read once a
    process)."""
    digest = hashlib.sha256()
    for module in _closure(path, root):
        digest.update(str(module.relative_to(root.resolve())).encode())
        digest.update(module.read_bytes())
    return digest.hexdigest()[:16]


@cache
def _writable(directory: Path) -> bool:
    try:
        directory.mkdir(parents=True, exist_ok=True)
        return os.access(directory, os.W_OK)
    except OSError:
        return False


VARIANT = "__cache_variant__"  # the attribute naming a function's variant (`engine.jit.rebound`)


def is_cached(dispatcher) -> bool:
    """Whether the cache holds the compiled function for these sources (its index file exists)."""
    try:
        return os.path.exists(dispatcher._cache._cache_file._index_path)
    except AttributeError:  # another Numba's internals: compile lazily, as Numba would
        return True


class ContentLocator(_CacheLocator):
    """Numba's cache locator for the project's compiled functions (see the module's docstring)."""

    def __init__(self, py_func, py_file: Path):
        self._py_file = str(py_file)  # Numba's warnings about uncachable functions name it
        self._lineno = py_func.__code__.co_firstlineno
        self._digest = module_digest(py_file)
        relative = py_file.resolve().relative_to(PACKAGE_ROOT.resolve())
        variant = getattr(py_func, VARIANT, None)
        folder = f"{relative.stem}-{self._digest}" + (f"-{variant}" if variant else "")
        self._path = cache_root().joinpath(*relative.parent.parts, folder)

    def get_cache_path(self) -> str:
        return str(self._path)

    def get_source_stamp(self) -> str:
        return self._digest

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file):
        path = Path(py_file)
        try:
            relative = path.resolve().relative_to(PACKAGE_ROOT.resolve())
        except ValueError:
            return None
        if relative.parts[0] not in PACKAGES:
            return None
        locator = cls(py_func, path)
        return locator if _writable(locator._path) else None


def install() -> None:
    """Make Numba file the project's functions with `ContentLocator` (once a process)."""
    if ContentLocator not in CacheImpl._locator_classes:
        CacheImpl._locator_classes.insert(0, ContentLocator)
