"""The project's sources, digested: what the compile cache and every recorded result are keyed to."""
from __future__ import annotations

import hashlib
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parent.parent
COMPILED_PACKAGES = ("engine", "bots")
NOT_COMPILED = ("tuned", "examples")  # exported bots and example programs are never compiled


def source_digest(packages: tuple = COMPILED_PACKAGES) -> str:
    """A digest of every source file of `packages` (by default, all that the compiled code can come from).

    Numba's cache only notices a change to the file of the function it cached, while the kernels inline
    functions from many files: after an edit to a policy, a kernel would keep running the old one. Keying
    the cache directory to all the sources makes any edit recompile.
    """
    digest = hashlib.sha256()
    for package in packages:
        for path in sorted((PACKAGE_ROOT / package).rglob("*.py")):
            relative = path.relative_to(PACKAGE_ROOT)
            if not set(NOT_COMPILED) & set(relative.parts):
                digest.update(str(relative).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
