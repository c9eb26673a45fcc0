"""The project's packages, and a digest of their sources that every recorded result carries (`tuner.versions`).

`PACKAGES` is the one list of them: the compile cache files the compiled functions of these packages and follows
their imports (`engine.cache`), the layers check reads their imports (`tests/project/test_layers.py`), and
pyproject.toml's `include` names the same (it cannot import this: a test compares them).
"""
from __future__ import annotations

import hashlib
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "bots", "export", "tuner")  # in layer order: each imports only those before it
NOT_SOURCES = ("tuned", "examples")  # exported bots and example programs: files the project holds, not its code


def source_digest(packages: tuple = PACKAGES) -> str:
    """A digest of every source file of `packages` (by default, the whole project's): any edit of the code changes
    it, so that a result can be traced to the code that made it. The compile cache is keyed otherwise, by module
    (`engine.cache`)."""
    digest = hashlib.sha256()
    for package in packages:
        for path in sorted((PACKAGE_ROOT / package).rglob("*.py")):
            relative = path.relative_to(PACKAGE_ROOT)
            if not set(NOT_SOURCES) & set(relative.parts):
                digest.update(str(relative).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
