"""Compilation helpers shared by the game kernel and the bot policies.

`hot` marks a function of the hot path: compiled by Numba, cached on disk and inlined into its callers.
`kernel` marks an entry point called from Python: compiled and cached, not inlined.

The bit helpers `popcount` and `lowest_bit` are LLVM intrinsics inside compiled code. Policy code that is
also exported as plain Python (see `bots/export.py`) calls them by these names; the exported file defines
pure-Python versions instead.
"""
from __future__ import annotations

import os
from pathlib import Path

import numba
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from engine.sources import source_digest


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
