"""The types of the C++ export: what Numba infers for the compiled code, spelt in C++.

Each function of a walked program is typed by Numba's own front end and type inference (no code generation) for
each signature it is called with, starting from the entry's. The result gives every variable's type (unified
over its SSA versions, as one C++ variable holds them all), the return type and the functions it calls with
their signatures. The records the code reads (`engine/records.py`, `bots/contract/seat.py`) become C++ structs written
from their numpy dtypes.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Optional

import numpy as np
from numba import typeof, types
from numba.core import ir
from numba.core.compiler import CompilerBase, DefaultPassBuilder, Flags
from numba.core.compiler_machinery import FunctionPass, register_pass
from numba.core.errors import NumbaError
from numba.core.registry import cpu_target
from numba.core.typed_passes import NopythonTypeInference

from bots.contract.seat import SEAT_DTYPE
from engine.records import MAP_DTYPE, STATE_DTYPE
from export.transpile import Function, TranspileError

# The records compiled code passes around, in the order their structs are written (a field's struct first).
RECORDS = (("Map", MAP_DTYPE), ("State", STATE_DTYPE), ("Seat", SEAT_DTYPE))
RECORD_NAMES = {typeof(np.zeros(1, dtype)[0]): name for name, dtype in RECORDS}
SCALARS = {"i8": "int64_t", "f8": "double", "b1": "bool"}
VERSION = re.compile(r"(.+)\.\d+")


@register_pass(mutates_CFG=False, analysis_only=True)
class _Typed(FunctionPass):
    """The end of the pipeline: the types are known, no code is generated."""

    _name = "typed_only"

    def __init__(self):
        FunctionPass.__init__(self)

    def run_pass(self, state):
        state.cr = True
        return False


class _TypeOnly(CompilerBase):
    """Numba's pipeline up to type inference: the same typing as a compile, without generating code."""

    def define_pipelines(self):
        passes = DefaultPassBuilder.define_untyped_pipeline(self.state)
        passes.add_pass(NopythonTypeInference, "nopython frontend")
        passes.add_pass(_Typed, "typed only")
        passes.finalize()
        return [passes]


@dataclass
class Typing:
    """One function typed for one signature."""

    function: Function
    args: tuple  # Numba types
    return_type: object
    variables: dict = field(default_factory=dict)  # name -> Numba type, over all its SSA versions
    callees: list = field(default_factory=list)  # (dispatcher, argument types) of each call, in order

    def type_of(self, name: str, node=None):
        if name not in self.variables:
            self.function.refuse(node, f"Numba gives no type for {name!r} (code it removed as dead?)")
        return self.variables[name]


def infer(function: Function, args: tuple) -> Typing:
    """Numba's typing of `function` for argument types `args` (typed once a process: exports share callees)."""
    try:
        variables, return_type, callees = _typed(function.dispatcher, tuple(args))
    except NumbaError as error:
        function.refuse(None, f"Numba cannot type it for {args}: {str(error).splitlines()[0]}")
    except _Unified as error:
        function.refuse(None, str(error))
    return Typing(function, tuple(args), return_type, variables, callees)


class _Unified(ValueError):
    """A variable whose versions have no common type."""


@functools.cache
def _typed(dispatcher, args: tuple) -> tuple:
    typing_context = cpu_target.typing_context
    target_context = cpu_target.target_context
    typing_context.refresh()
    target_context.refresh()
    flags = Flags()
    flags.nrt = True
    pipeline = _TypeOnly(typing_context, target_context, None, args, None, flags, {})
    pipeline.compile_extra(dispatcher.py_func)
    state = pipeline.state
    versions: dict = {}
    for name, numba_type in state.typemap.items():
        if name.startswith(("$", "arg.")):
            continue
        match = VERSION.fullmatch(name)
        versions.setdefault(match.group(1) if match else name, []).append(types.unliteral(numba_type))
    variables = {}
    for name, found in versions.items():
        unified = typing_context.unify_types(*found)
        if unified is None:
            raise _Unified(f"variable {name!r} holds values of types {sorted(set(map(str, found)))}: one C++ "
                           f"variable cannot")
        variables[name] = unified
    callees = []
    for expr, signature in state.calltypes.items():
        if isinstance(expr, ir.Expr) and expr.op == "call":
            callee = state.typemap[expr.func.name]
            if isinstance(callee, types.Dispatcher):
                callees.append((callee.dispatcher, tuple(types.unliteral(a) for a in signature.args)))
    return variables, types.unliteral(state.return_type), callees


def cpp_type(numba_type, function: Optional[Function] = None, node=None) -> str:
    """The C++ spelling of a Numba type: records by name (passed by reference), 1-D arrays as pointers."""
    t = types.unliteral(numba_type)
    if isinstance(t, types.Boolean):
        return "bool"
    if isinstance(t, types.Integer) and t.signed and t.bitwidth == 64:
        return "int64_t"
    if isinstance(t, types.Float) and t.bitwidth == 64:
        return "double"
    if isinstance(t, types.Record) and t in RECORD_NAMES:
        return RECORD_NAMES[t]
    if isinstance(t, (types.Array, types.NestedArray)) and t.ndim == 1:
        return cpp_type(t.dtype, function, node) + "*"
    if isinstance(t, types.BaseTuple):
        return "std::tuple<" + ", ".join(cpp_type(item, function, node) for item in t) + ">"
    if t == types.none:
        return "void"
    what = f"the type {t} has no C++ counterpart in the export"
    if function is None:
        raise TranspileError(what)
    function.refuse(node, what)
    raise AssertionError


def is_record(numba_type) -> bool:
    return isinstance(types.unliteral(numba_type), types.Record)


def struct_source(name: str, dtype: np.dtype) -> str:
    """A record's C++ struct, field by field from its numpy dtype."""
    by_dtype = {d: n for n, d in RECORDS}
    lines = [f"struct {name} {{"]
    for field_name in dtype.names:
        sub = dtype.fields[field_name][0]
        base = sub.base
        if base.names is not None:
            if base not in by_dtype:
                raise TranspileError(f"record {name}: field {field_name} is a record the export does not know")
            spelled = by_dtype[base]
        elif base.str[1:] in SCALARS:
            spelled = SCALARS[base.str[1:]]
        else:
            raise TranspileError(f"record {name}: field {field_name} of type {base} has no C++ counterpart")
        dims = "".join(f"[{n}]" for n in sub.shape)
        lines.append(f"    {spelled} {field_name}{dims};")
    return "\n".join(lines + ["};"])


def structs_source(seat: np.dtype = SEAT_DTYPE) -> str:
    """The records' structs, the seat's from `seat` (a timed export's may have larger arrays than the engine's:
    the code reads the same fields)."""
    return "\n\n".join(struct_source(name, seat if name == "Seat" else dtype) for name, dtype in RECORDS)


def entry_args() -> tuple:
    """The Numba types a policy is called with: `policy(mp, s, p, seat)` on records, p an int64."""
    from bots.contract.seat import new_seat_array
    from engine.records import new_map_array, new_state_array

    return (typeof(new_map_array()[0]), typeof(new_state_array()[0]), types.int64, typeof(new_seat_array()[0]))
