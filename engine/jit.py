"""Compilation helpers shared by the game kernel and the bot policies.

`hot` marks a small function of the hot path: compiled once for each signature it is called with and inlined by
LLVM into its compiled callers (Numba's `forceinline`), so it costs no call at run time, and no second typing
at compile time as an inlining of Numba's own IR would (once per call site).
`kernel` marks a larger unit (a bot's policy, a playout, an entry point called from Python): compiled once per
signature and called, not inlined, so that each caller links the compiled code instead of compiling it again.

Both are typed without literal arguments: a call `policy(mp, s, 0, seat)` compiles the policy for an int64
player, where Numba by default compiles one copy for the constant 0 and another for 1.

Compiled code is cached on disk, one folder per module and content (`engine.cache`). `rebound` compiles a
variant of a compiled function: the same code calling other functions, cached apart.

The bit helpers `popcount` and `lowest_bit` are LLVM intrinsics inside compiled code. Policy code that is
also exported as plain Python (see `export/transpile.py`) calls them by these names; the exported file defines
pure-Python versions instead.
"""
from __future__ import annotations

import types as pytypes

import numba
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from engine import cache

cache.install()
numba.config.CACHE_DIR = str(cache.cache_root())


def typed_without_literals(dispatcher):
    """Resolve calls from compiled code with the arguments' general types (int64, not Literal[int](0))."""
    resolve = dispatcher.get_call_template

    def get_call_template(args, kws):
        return resolve(tuple(types.unliteral(a) for a in args), {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


def hot(function):
    """Compile a small hot-path function, inlined (by LLVM) into every compiled caller."""
    return typed_without_literals(numba.njit(cache=True, nogil=True, forceinline=True)(function))


def kernel(function):
    """Compile a hot-path unit: called from Python or from compiled callers, compiled once per signature."""
    return typed_without_literals(numba.njit(cache=True, nogil=True)(function))


def rebound(dispatcher, variant: str, replaced: dict):
    """`dispatcher`'s function compiled with the same options, with the globals in `replaced` (name: value)
    rebound, and cached apart from it under the name `variant`: the arena for a few bots is the arena's code
    calling a dispatch that reaches only their policies."""
    function = dispatcher.py_func
    copy = pytypes.FunctionType(function.__code__, {**function.__globals__, **replaced}, function.__name__,
                                function.__defaults__, function.__closure__)
    copy.__qualname__, copy.__module__, copy.__doc__ = function.__qualname__, function.__module__, function.__doc__
    setattr(copy, cache.VARIANT, variant)
    return typed_without_literals(numba.jit(cache=True, **dispatcher.targetoptions)(copy))


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
