"""Compilation helpers shared by the game kernel and the bot policies.

`hot` marks a function of the hot path: compiled by Numba, cached on disk and inlined into its callers.
`kernel` marks an entry point called from Python: compiled and cached, not inlined.

The bit helpers `popcount` and `lowest_bit` are LLVM intrinsics inside compiled code. Policy code that is
also exported as plain Python (see `bots/export.py`) calls them by these names; the exported file defines
pure-Python versions instead.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

PACKAGE_ROOT = Path(__file__).resolve().parent.parent
COMPILED_PACKAGES = ("engine", "bots")


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
            if not {"tuned", "examples"} & set(relative.parts):  # exported bots and example programs are not compiled
                digest.update(str(relative).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_directory() -> Path:
    base = os.environ.get("NUMBA_CACHE_DIR") or os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "photosynthesis-tuner" / source_digest()


numba.config.CACHE_DIR = str(cache_directory())


def hot(function):
    """Compile a small hot-path function, inlined into every compiled caller."""
    return numba.njit(cache=True, inline="always", nogil=True)(function)


def kernel(function):
    """Compile a hot-path entry point (called from Python or from several compiled callers)."""
    return numba.njit(cache=True, nogil=True)(function)


@intrinsic
def popcount(typingctx, bits):
    """Number of set bits of an int64 bitboard."""

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@intrinsic
def lowest_bit(typingctx, bits):
    """Index of the lowest set bit of a non-zero int64 bitboard."""

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.int64(types.int64), codegen


def popcount_py(bits: int) -> int:
    """`popcount` for plain Python: counts the 64 bits of the int64 two's complement, as the intrinsic does."""
    return bin(bits & 0xFFFFFFFFFFFFFFFF).count("1")


def lowest_bit_py(bits: int) -> int:
    return (bits & -bits).bit_length() - 1
