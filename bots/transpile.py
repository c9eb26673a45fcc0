"""Turn compiled policy code into plain Python: the source of the exported single-file bot.

Starting from an entry function, this walks every compiled (`@hot` / `@kernel`) function it calls, reads
their Python source, strips the decorators and rewrites references to other modules' names so that
everything lives in one namespace. Constants and tables the code reads are emitted as literals. Nothing
is written twice by hand: the exported file is generated from the code the engine compiles.

The policy code must keep to a portable subset that means the same under Numba and CPython: integer and
float arithmetic, bit operations on non-negative bitboards, `range` loops, tuples, calls to other compiled
functions, reads of record fields (`s.trees[k]`, `mp.richness[c]`, `params[i]`), module-level numbers
and 1-D int or float tables. No numpy calls, no allocation, no strings, no `**`, no math module.
The intrinsics `popcount` and `lowest_bit` map to the pure-Python versions in `engine.jit`.
"""
from __future__ import annotations

import ast
import base64
import builtins
import inspect
import textwrap
import types
import zlib
from dataclasses import dataclass, field

import numpy as np
from numba.core.registry import CPUDispatcher
from numba.extending import _Intrinsic

from engine import jit

INTRINSICS = {"popcount": jit.popcount_py, "lowest_bit": jit.lowest_bit_py}


class TranspileError(ValueError):
    """Policy code outside the portable subset."""


@dataclass
class Emitted:
    constants: dict = field(default_factory=dict)  # emitted name -> literal source
    functions: dict = field(default_factory=dict)  # emitted name -> function source
    claimed: dict = field(default_factory=dict)  # emitted name -> identity of what it holds
    names: dict = field(default_factory=dict)  # identity -> emitted name


def _identity(module: str, name: str, value) -> tuple:
    if isinstance(value, (CPUDispatcher, np.ndarray, _Intrinsic)):
        return ("object", id(value))
    return ("value", module, name)


PACK_ABOVE = 2000  # tables longer than this are written compressed: CodinGame accepts 100,000 characters

UNPACK_SOURCE = '''def unpack_table(text, kind):
    """A table the exporter wrote compressed: little-endian int64 ('q') or float64 ('d') values."""
    import array
    import base64
    import sys
    import zlib

    values = array.array(kind, zlib.decompress(base64.b64decode(text)))
    if sys.byteorder == "big":
        values.byteswap()
    return values.tolist()
'''


def _packed(value: np.ndarray) -> str:
    kind = "q" if value.dtype.kind in "iu" else "d"
    data = value.astype("<i8" if kind == "q" else "<f8").tobytes()
    text = base64.b64encode(zlib.compress(data, 9)).decode("ascii")
    lines = [text[i:i + 110] for i in range(0, len(text), 110)]
    return "unpack_table(\n    \"" + "\"\n    \"".join(lines) + f"\",\n    {kind!r},\n)"


def _literal(value, where: str) -> str:
    if isinstance(value, (bool, np.bool_)):
        return repr(bool(value))
    if isinstance(value, (int, np.integer)):
        return repr(int(value))
    if isinstance(value, (float, np.floating)):
        return repr(float(value))
    if isinstance(value, np.ndarray):
        if value.ndim != 1 or value.dtype.kind not in "iuf":
            raise TranspileError(f"{where}: only 1-D int or float tables can be exported")
        if len(value) > PACK_ABOVE:
            return _packed(value)
        items = [repr(int(v)) if value.dtype.kind in "iu" else repr(float(v)) for v in value.tolist()]
        lines, line = [], ""
        for item in items:
            if len(line) + len(item) > 110:
                lines.append(line)
                line = ""
            line += item + ","
        lines.append(line)
        return "[\n    " + "\n    ".join(lines) + "\n]"
    if isinstance(value, tuple) and all(isinstance(v, (int, float)) for v in value):
        return repr(tuple(value))
    raise TranspileError(f"{where}: a {type(value).__name__} cannot be exported")


class _Rewriter(ast.NodeTransformer):
    """Replaces references to module globals (`name`, `module.name`) with their emitted names."""

    def __init__(self, transpiler: Transpiler, function, local_names: set):
        self.t = transpiler
        self.function = function
        self.globals = function.__globals__
        self.locals = local_names

    def _resolve(self, value, module_name: str, name: str, node):
        return ast.copy_location(ast.Name(id=self.t.emit(value, module_name, name), ctx=ast.Load()), node)

    def visit_Name(self, node):
        if not isinstance(node.ctx, ast.Load) or node.id in self.locals:
            return node
        if node.id in self.globals:
            value = self.globals[node.id]
            if isinstance(value, types.ModuleType):
                raise TranspileError(f"{self.function.__qualname__}: module {node.id} used as a value")
            return self._resolve(value, self.function.__module__, node.id, node)
        if hasattr(builtins, node.id):
            return node
        raise TranspileError(f"{self.function.__qualname__}: unknown name {node.id!r}")

    def visit_Attribute(self, node):
        base = node.value
        if isinstance(base, ast.Name) and base.id not in self.locals and isinstance(
                self.globals.get(base.id), types.ModuleType):
            module = self.globals[base.id]
            if not hasattr(module, node.attr):
                raise TranspileError(f"{self.function.__qualname__}: {base.id}.{node.attr} does not exist")
            return self._resolve(getattr(module, node.attr), module.__name__, node.attr, node)
        self.generic_visit(node)
        return node


def _local_names(tree: ast.FunctionDef) -> set:
    names = {a.arg for a in tree.args.args + tree.args.kwonlyargs + tree.args.posonlyargs}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
    return names


class Transpiler:
    def __init__(self):
        self.out = Emitted()

    def _claim(self, value, module_name: str, name: str) -> tuple:
        identity = _identity(module_name, name, value)
        if identity in self.out.names:
            return self.out.names[identity], False
        emitted = name
        if emitted in self.out.claimed and self.out.claimed[emitted] != identity:
            emitted = f"{module_name.rsplit('.', 1)[-1]}_{name}"
        self.out.claimed[emitted] = identity
        self.out.names[identity] = emitted
        return emitted, True

    def emit(self, value, module_name: str, name: str) -> str:
        """Emit `value` (reached as module.name) once; return the name the generated code uses for it."""
        if isinstance(value, _Intrinsic):
            py_name = value._name if hasattr(value, "_name") else name
            if py_name not in INTRINSICS:
                raise TranspileError(f"{module_name}.{name}: no pure-Python version of intrinsic {py_name}")
            emitted, new = self._claim(value, "engine.jit", py_name)
            if new:
                source = textwrap.dedent(inspect.getsource(INTRINSICS[py_name]))
                self.out.functions[emitted] = source.replace(f"def {INTRINSICS[py_name].__name__}(",
                                                             f"def {emitted}(", 1)
            return emitted
        if isinstance(value, CPUDispatcher):
            emitted, new = self._claim(value, value.py_func.__module__, value.py_func.__name__)
            if new:
                self.out.functions[emitted] = ""  # reserve the slot before recursing (mutual calls)
                self.out.functions[emitted] = self._function(value.py_func, emitted)
            return emitted
        emitted, new = self._claim(value, module_name, name)
        if new:
            self.out.constants[emitted] = _literal(value, f"{module_name}.{name}")
        return emitted

    def _function(self, function, emitted: str) -> str:
        source = textwrap.dedent(inspect.getsource(function))
        module = ast.parse(source)
        tree = module.body[0]
        if not isinstance(tree, ast.FunctionDef):
            raise TranspileError(f"{function.__qualname__}: not a plain function")
        tree.decorator_list = []
        tree.name = emitted
        for node in ast.walk(tree):
            if isinstance(node, (ast.Lambda, ast.FunctionDef, ast.ClassDef, ast.Global, ast.Nonlocal, ast.Try,
                                 ast.With, ast.Yield, ast.Await)) and node is not tree:
                raise TranspileError(f"{function.__qualname__}: {type(node).__name__} is outside the portable subset")
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
                raise TranspileError(f"{function.__qualname__}: '**' is outside the portable subset")
        _Rewriter(self, function, _local_names(tree)).visit(tree)
        ast.fix_missing_locations(tree)
        return ast.unparse(tree)

    def source(self) -> str:
        constants = "\n".join(f"{name} = {literal}" for name, literal in self.out.constants.items())
        functions = "\n\n\n".join(self.out.functions.values())
        unpack = UNPACK_SOURCE + "\n\n" if "unpack_table(" in constants else ""
        return unpack + constants + "\n\n\n" + functions + "\n"


def transpile(*entries) -> tuple[str, list]:
    """Plain-Python source for the compiled functions `entries` and everything they use; and the names the
    entries have in that source."""
    transpiler = Transpiler()
    names = [transpiler.emit(entry, entry.py_func.__module__, entry.py_func.__name__) for entry in entries]
    return transpiler.source(), names
