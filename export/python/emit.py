"""The Python back end of the export: a walked program (`export/transpile.py`) written as plain Python.

Functions are the compiled code's own source, rewritten into one namespace (`ast.unparse`); intrinsics are
their pure-Python versions (`engine.jit`); constants are literals, long tables compressed.
"""
from __future__ import annotations

import ast
import base64
import inspect
import textwrap
import zlib

import numpy as np

from export.transpile import Program, walk

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


def _literal(value) -> str:
    if isinstance(value, (bool, np.bool_)):
        return repr(bool(value))
    if isinstance(value, (int, np.integer)):
        return repr(int(value))
    if isinstance(value, (float, np.floating)):
        return repr(float(value))
    if isinstance(value, tuple):
        return repr(tuple(value))
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


def _function_source(function) -> str:
    if function.tree is not None:
        return ast.unparse(function.tree)
    source = textwrap.dedent(inspect.getsource(function.py_func))
    return source.replace(f"def {function.py_func.__name__}(", f"def {function.name}(", 1)


def python_source(program: Program) -> str:
    constants = "\n".join(f"{name} = {_literal(value)}" for name, value in program.constants.items())
    functions = "\n\n\n".join(_function_source(f) for f in program.functions.values())
    unpack = UNPACK_SOURCE + "\n\n" if "unpack_table(" in constants else ""
    return unpack + constants + "\n\n\n" + functions + "\n"


def transpile(*entries) -> tuple[str, list]:
    """Plain-Python source for the compiled functions `entries` and everything they use; and the names the
    entries have in that source."""
    program = walk(*entries)
    return python_source(program), list(program.entries)
