"""The walk shared by the exporters: compiled policy code gathered into one namespace, for a back end to write.

Starting from an entry function, this walks every compiled (`@hot` / `@kernel`) function it calls, reads their
Python source, strips the decorators and rewrites references to other modules' names so that everything lives
in one namespace. It collects the constants and tables the code reads (by value) and the intrinsics it calls.
The back ends write what it found: `export/python/emit.py` plain Python, `export/cpp/emit.py` C++ (with the types
Numba infers). Nothing is written twice by hand: the exported file is generated from the code the engine
compiles.

The policy code must keep to a portable subset that means the same under Numba, CPython and C++: integer and
float arithmetic, bit operations on non-negative bitboards, `range` loops, tuples, calls to other compiled
functions, reads of record fields (`s.trees[k]`, `mp.richness[c]`, `params[i]`) and the length of a record's
array field (`len(seat.memory)`: an export may size the seat's arrays otherwise than the engine), module-level
numbers and 1-D int or float tables. No numpy calls, no allocation, no strings, no `**`, no math module. The intrinsics
`popcount` and `lowest_bit` and the hook `within_budget` are provided by each back end's runtime. Code outside
the subset is refused with its file, line and function (`TranspileError`).
"""
from __future__ import annotations

import ast
import builtins
import inspect
import textwrap
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import numpy as np
from numba.core.registry import CPUDispatcher
from numba.extending import _Intrinsic

from bots.contract.budget import within_budget
from engine import jit

INTRINSICS = {"popcount": jit.popcount_py, "lowest_bit": jit.lowest_bit_py}  # name: its pure-Python version
HOOKS = {within_budget: "within_budget"}  # compiled functions a back end's runtime may replace: name
ROOT = Path(__file__).resolve().parent.parent

REFUSED = (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Global, ast.Nonlocal, ast.Try,
           ast.With, ast.Yield, ast.YieldFrom, ast.Await, ast.Raise, ast.Assert, ast.Delete, ast.Import,
           ast.ImportFrom, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.List, ast.Dict, ast.Set,
           ast.Starred, ast.Slice, ast.JoinedStr, ast.NamedExpr, ast.Match)


class TranspileError(ValueError):
    """Policy code outside the portable subset."""


@dataclass
class Function:
    """One function of the program: compiled code rewritten into the program's namespace, or an intrinsic."""

    name: str  # its name in the program
    py_func: Callable  # the Python function (for an intrinsic, its pure-Python version)
    dispatcher: Optional[CPUDispatcher] = None  # None for an intrinsic
    tree: Optional[ast.FunctionDef] = None  # decorators stripped, names resolved; None for an intrinsic
    local_names: set = field(default_factory=set)
    runtime: str = ""  # an intrinsic or hook that a back end's runtime may provide instead

    @property
    def hot(self) -> bool:
        """Inlined by LLVM in the engine (`@hot`), not only called (`@kernel`)."""
        return self.dispatcher is not None and bool(self.dispatcher.targetoptions.get("forceinline"))

    def where(self, node: Optional[ast.AST] = None) -> str:
        """`file:line (function)` of this function, or of one of its nodes, for an error message."""
        path = Path(inspect.getsourcefile(self.py_func) or "?").resolve()
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        line = getattr(node, "lineno", None) or inspect.getsourcelines(self.py_func)[1]
        return f"{shown}:{line} ({self.py_func.__qualname__})"

    def refuse(self, node: Optional[ast.AST], what: str):
        raise TranspileError(f"{self.where(node)}: {what}")


@dataclass
class Program:
    """What the walk found, in the order it found it: functions (intrinsics included) and constants."""

    functions: dict = field(default_factory=dict)  # name -> Function
    constants: dict = field(default_factory=dict)  # name -> value (a number, a 1-D array or a tuple of numbers)
    entries: list = field(default_factory=list)  # the names of the entry functions
    claimed: dict = field(default_factory=dict)  # name -> identity of what it holds
    names: dict = field(default_factory=dict)  # identity -> name

    def function_of(self, dispatcher) -> Function:
        return self.functions[self.names[("object", id(dispatcher))]]


def _identity(module: str, name: str, value) -> tuple:
    if isinstance(value, (CPUDispatcher, np.ndarray, _Intrinsic)):
        return ("object", id(value))
    return ("value", module, name)


def check_constant(value, where: str):
    """A module-level value the program may read: a number, a 1-D int or float table, a tuple of numbers."""
    if isinstance(value, (bool, np.bool_, int, np.integer, float, np.floating)):
        return value
    if isinstance(value, np.ndarray):
        if value.ndim != 1 or value.dtype.kind not in "iuf":
            raise TranspileError(f"{where}: only 1-D int or float tables can be exported")
        return value
    if isinstance(value, tuple) and all(isinstance(v, (int, float)) for v in value):
        return value
    raise TranspileError(f"{where}: a {type(value).__name__} cannot be exported")


class _Rewriter(ast.NodeTransformer):
    """Replaces references to module globals (`name`, `module.name`) with their names in the program."""

    def __init__(self, walk: Walk, function: Function):
        self.walk = walk
        self.function = function
        self.globals = function.py_func.__globals__

    def _resolve(self, value, module_name: str, name: str, node):
        try:
            emitted = self.walk.emit(value, module_name, name)
        except TranspileError as error:
            if str(error).startswith(self.function.where(node)):
                raise
            self.function.refuse(node, str(error))
        return ast.copy_location(ast.Name(id=emitted, ctx=ast.Load()), node)

    def visit_Name(self, node):
        if not isinstance(node.ctx, ast.Load) or node.id in self.function.local_names:
            return node
        if node.id in self.globals:
            value = self.globals[node.id]
            if isinstance(value, types.ModuleType):
                self.function.refuse(node, f"module {node.id} used as a value")
            return self._resolve(value, self.function.py_func.__module__, node.id, node)
        if hasattr(builtins, node.id):
            return node
        self.function.refuse(node, f"unknown name {node.id!r}")

    def visit_Attribute(self, node):
        base = node.value
        if isinstance(base, ast.Name) and base.id not in self.function.local_names and isinstance(
                self.globals.get(base.id), types.ModuleType):
            module = self.globals[base.id]
            if not hasattr(module, node.attr):
                self.function.refuse(node, f"{base.id}.{node.attr} does not exist")
            return self._resolve(getattr(module, node.attr), module.__name__, node.attr, node)
        self.generic_visit(node)
        return node


def _local_names(tree: ast.FunctionDef) -> set:
    names = {a.arg for a in tree.args.args + tree.args.kwonlyargs + tree.args.posonlyargs}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
    return names


def _check_subset(function: Function, tree: ast.FunctionDef):
    args = tree.args
    if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs or args.defaults:
        function.refuse(tree, "only plain positional parameters are portable")
    for node in ast.walk(tree):
        if isinstance(node, REFUSED) and node is not tree:
            function.refuse(node, f"{type(node).__name__} is outside the portable subset")
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Pow, ast.MatMult)):
            function.refuse(node, f"'{ast.unparse(node)}': this operator is outside the portable subset")
        if isinstance(node, ast.Constant) and not isinstance(node.value, (bool, int, float)) and not (
                isinstance(node.value, str) and _is_docstring(tree, node)):
            function.refuse(node, f"the constant {node.value!r} is outside the portable subset")
        if isinstance(node, ast.Call) and node.keywords:
            function.refuse(node, "keyword arguments are outside the portable subset")


def _is_docstring(tree: ast.FunctionDef, node: ast.Constant) -> bool:
    first = tree.body[0]
    return isinstance(first, ast.Expr) and first.value is node


class Walk:
    def __init__(self):
        self.program = Program()

    def _claim(self, value, module_name: str, name: str) -> tuple:
        identity = _identity(module_name, name, value)
        out = self.program
        if identity in out.names:
            return out.names[identity], False
        emitted = name
        if emitted in out.claimed and out.claimed[emitted] != identity:
            emitted = f"{module_name.rsplit('.', 1)[-1]}_{name}"
        out.claimed[emitted] = identity
        out.names[identity] = emitted
        return emitted, True

    def emit(self, value, module_name: str, name: str) -> str:
        """Take `value` (reached as module.name) into the program once; return its name there."""
        if isinstance(value, _Intrinsic):
            py_name = getattr(value, "_name", name)
            if py_name not in INTRINSICS:
                raise TranspileError(f"{module_name}.{name}: no portable version of intrinsic {py_name}")
            emitted, new = self._claim(value, "engine.jit", py_name)
            if new:
                self.program.functions[emitted] = Function(emitted, INTRINSICS[py_name], runtime=py_name)
            return emitted
        if isinstance(value, CPUDispatcher):
            emitted, new = self._claim(value, value.py_func.__module__, value.py_func.__name__)
            if new:
                function = Function(emitted, value.py_func, value, runtime=HOOKS.get(value, ""))
                self.program.functions[emitted] = function  # in place before recursing (mutual calls)
                self._read(function)
            return emitted
        emitted, new = self._claim(value, module_name, name)
        if new:
            self.program.constants[emitted] = check_constant(value, f"{module_name}.{name}")
        return emitted

    def _read(self, function: Function):
        lines, first = inspect.getsourcelines(function.py_func)
        tree = ast.parse(textwrap.dedent("".join(lines))).body[0]
        if not isinstance(tree, ast.FunctionDef):
            function.refuse(None, "not a plain function")
        ast.increment_lineno(tree, first - 1)
        tree.decorator_list = []
        tree.name = function.name
        function.local_names = _local_names(tree)
        function.tree = tree
        _check_subset(function, tree)
        _Rewriter(self, function).visit(tree)
        ast.fix_missing_locations(tree)


def walk(*entries) -> Program:
    """The compiled functions `entries` and everything they use, in one namespace."""
    walker = Walk()
    for entry in entries:
        walker.program.entries.append(walker.emit(entry, entry.py_func.__module__, entry.py_func.__name__))
    return walker.program

