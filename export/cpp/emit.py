"""The C++ back end of the export: a walked program (`export/transpile.py`) written as C++17.

Each function is written once per C++ signature it is called with, from its rewritten Python syntax tree and
Numba's typing of it (`export/cpp/inferred_types.py`): parameters, locals and return values get the types Numba infers
(int64_t, double, bool, records by reference, arrays as pointers, tuples as std::tuple). Python's semantics
where C++ differs are kept by the runtime's helpers (`export/cpp/runtime.py`): `/` is a true division, `//` and
`%` round toward minus infinity, `min`/`max` return their first argument on ties. Locals are declared at the
top of their function, as Python scopes them; a record local is a reference bound where it is assigned.
Functions come callees first, so no prototypes are needed.

What the subset check of the walk lets through but C++ cannot say the same way is refused here, with its file,
line and function: a loop over anything but `range` with a constant step or a tuple written out, `and`/`or` whose
value is not a bool, a chained comparison that repeats a call, and the like.
"""
from __future__ import annotations

import ast
import inspect
import math
from dataclasses import dataclass
from typing import Optional

import numpy as np
from numba import types

from export.cpp.inferred_types import Typing, cpp_type, entry_args, infer, is_record
from export.cpp.table_pack import pack_table
from export.transpile import Function, Program, TranspileError, walk

KEYWORDS = set("""alignas alignof and and_eq asm auto bitand bitor bool break case catch char char16_t char32_t char8_t
class compl concept const consteval constexpr constinit const_cast continue co_await co_return co_yield decltype
default delete do double dynamic_cast else enum explicit export extern false float for friend goto if inline int
long mutable namespace new noexcept not not_eq nullptr operator or or_eq private protected public register
reinterpret_cast requires return short signed sizeof static static_assert static_cast struct switch template this
thread_local throw true try typedef typeid typename union unsigned using virtual void volatile wchar_t while xor
xor_eq main std abs exp log floor ceil round time rand signal index select div remainder y0 y1 yn j0 j1 jn gamma
int64_t uint64_t size_t NULL EOF assert""".split())
RUNTIME = {"py_div", "py_floordiv", "py_mod", "py_min", "py_max", "py_abs", "popcount", "lowest_bit",
           "within_budget", "unpack_table", "unpack_tables", "MAP", "STATE", "SEAT", "PARAMS", "DEADLINE",
           "LEAGUE", "LEAGUE_RULES", "TIME_MS", "FIRST_TURN_MS", "Map", "State", "Seat", "CELL_COUNT"}
RESERVED = KEYWORDS | RUNTIME

TERNARY, OR, AND, BIT_OR, BIT_XOR, BIT_AND, EQUALITY, RELATION, SHIFT, ADD, MUL, UNARY, POSTFIX, ATOM = range(1, 15)
BINARY = {ast.Add: ("+", ADD), ast.Sub: ("-", ADD), ast.Mult: ("*", MUL), ast.LShift: ("<<", SHIFT),
          ast.RShift: (">>", SHIFT), ast.BitOr: ("|", BIT_OR), ast.BitXor: ("^", BIT_XOR),
          ast.BitAnd: ("&", BIT_AND)}
HELPERS = {ast.Div: "py_div", ast.FloorDiv: "py_floordiv", ast.Mod: "py_mod"}  # Python's meaning, not C++'s
COMPARE = {ast.Eq: ("==", EQUALITY), ast.NotEq: ("!=", EQUALITY), ast.Lt: ("<", RELATION),
           ast.LtE: ("<=", RELATION), ast.Gt: (">", RELATION), ast.GtE: (">=", RELATION)}
UNARY_OPS = {ast.USub: "-", ast.UAdd: "+", ast.Invert: "~", ast.Not: "!"}
CASTS = {"int": "int64_t", "float": "double", "bool": "bool"}
PURE_BUILTINS = {"min", "max", "abs", "int", "float", "bool"}
ZERO = {"int64_t": "0", "double": "0.0", "bool": "false"}
LINE = 110


def cpp_name(name: str) -> str:
    """A Python name as a C++ identifier: C++ keywords, C library names and the runtime's names get a `_`."""
    return name + "_" if name in RESERVED else name


def _calls(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Call) for n in ast.walk(node))


def _effects(node: ast.AST) -> bool:
    """Whether an expression may do something besides give a value: it calls a function of the program."""
    return any(isinstance(n, ast.Call) and not (isinstance(n.func, ast.Name) and n.func.id in PURE_BUILTINS)
               for n in ast.walk(node))


def _stored(nodes, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
               for node in nodes for n in ast.walk(node))


def _step(name: str, step: int) -> str:
    if step in (1, -1):
        return ("++" if step > 0 else "--") + name
    return f"{name} += {step}" if step > 0 else f"{name} -= {-step}"


def _int_constant(node) -> Optional[int]:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _int_constant(node.operand)
        return None if inner is None else -inner
    return None


@dataclass
class Signature:
    """One C++ function: a function of the program for one list of C++ parameter types."""

    function: Function
    params: tuple  # C++ types
    typing: Typing


class FunctionWriter:
    """Writes one function for one typing."""

    def __init__(self, emitter: CppEmitter, signature: Signature):
        self.emitter = emitter
        self.function = signature.function
        self.typing = signature.typing
        self.params = signature.params
        tree = self.function.tree
        assert tree is not None
        self.tree = tree
        self.arg_names = [a.arg for a in tree.args.args]
        self.loaded = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        self.loop_names = {n.target.id for n in ast.walk(tree) if isinstance(n, ast.For)
                           and isinstance(n.target, ast.Name)}
        self.parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        self.record_locals = {name for name in self.function.local_names - set(self.arg_names)
                              if name in self.loaded and is_record(self.typing.type_of(name, tree))}
        self.tuple_locals = {name for name in self.function.local_names
                             if name in self.typing.variables and isinstance(self.typing.variables[name],
                                                                              types.BaseTuple)}
        self.loose_loop_names = self._loose_loop_names()
        for name, numba_type in zip(self.arg_names, self.typing.args):
            if is_record(numba_type) and _stored([tree], name):
                self.refuse(tree, f"record parameter {name!r} is rebound (a C++ reference cannot be)")
        self.lines: list = []
        self.depth = 1

    def refuse(self, node, what: str):
        self.function.refuse(node, what)

    # ---- declarations -------------------------------------------------------------------------------

    def source(self) -> str:
        body = self.tree.body
        docstring = []
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            if self.emitter.comments:
                docstring = [f"// {line}".rstrip()
                             for line in inspect.cleandoc(str(body[0].value.value)).splitlines()]
            body = body[1:]
        self.block(body)
        return_type = cpp_type(self.typing.return_type, self.function, self.tree)
        params = []
        for name, spelled, numba_type in zip(self.arg_names, self.params, self.typing.args):
            reference = "&" if is_record(numba_type) else ""
            unused = "" if name in self.loaded else "[[maybe_unused]] "
            params.append(f"{unused}{spelled}{reference} {cpp_name(name)}")
        storage = "static inline" if self.function.hot else "static"
        head = f"{storage} {return_type} {cpp_name(self.function.name)}({', '.join(params)}) {{"
        if len(head) > LINE:
            head = f"{storage} {return_type} {cpp_name(self.function.name)}(\n        " + \
                   ",\n        ".join(params) + ") {"
        return "\n".join(docstring + [head] + self._declarations() + self.lines + ["}"])

    def _declarations(self) -> list:
        by_type: dict = {}
        for name in sorted(self.function.local_names - set(self.arg_names), key=self._first_line):
            if name not in self.loaded and name not in self.loop_names:
                continue
            spelled = cpp_type(self.typing.type_of(name, self.tree), self.function, self.tree)
            if name in self.record_locals:
                spelled += "*"  # a record local points into a record (Python rebinds the name)
            by_type.setdefault(spelled, []).append(cpp_name(name))
        lines = []
        for spelled, names in by_type.items():
            if spelled in ZERO:
                items = [f"{name} = {ZERO[spelled]}" for name in names]
                line = f"    {spelled} "
                for item in items:
                    if len(line) + len(item) > LINE:
                        lines.append(line.rstrip(", ") + ";")
                        line = f"    {spelled} "
                    line += item + ", "
                lines.append(line.rstrip(", ") + ";")
            else:
                initial = "nullptr" if spelled.endswith("*") else "{}"
                lines += [f"    {spelled} {name} = {initial};" if initial == "nullptr" else f"    {spelled} {name}{{}};"
                          for name in names]
        return lines

    def _first_line(self, name: str) -> tuple:
        lines = [n.lineno for n in ast.walk(self.tree) if isinstance(n, ast.Name) and n.id == name]
        return (min(lines) if lines else 0, name)

    def _loose_loop_names(self) -> set:
        """The loop variables read outside their loops (Python leaves them on their last value, where a C++ `for`
        leaves them one step on)."""
        inside: set = set()
        for node in ast.walk(self.tree):
            if isinstance(node, ast.For) and isinstance(node.target, ast.Name):
                inside |= {id(n) for stmt in node.body for n in ast.walk(stmt)
                           if isinstance(n, ast.Name) and n.id == node.target.id}
        return {node.id for node in ast.walk(self.tree) if isinstance(node, ast.Name) and node.id in self.loop_names
                and isinstance(node.ctx, ast.Load) and id(node) not in inside}

    # ---- statements ---------------------------------------------------------------------------------

    def line(self, text: str):
        self.lines.append("    " * self.depth + text)

    def block(self, statements):
        for statement in statements:
            self.statement(statement)

    def nested(self, statements):
        self.depth += 1
        self.block(statements)
        self.depth -= 1

    def statement(self, node):
        if isinstance(node, ast.Expr):
            if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                return
            if not isinstance(node.value, ast.Call):
                self.refuse(node, "an expression statement that is not a call")
            self.line(self.expr(node.value)[0] + ";")
        elif isinstance(node, ast.Assign):
            self.assign(node)
        elif isinstance(node, ast.AugAssign):
            self.augmented(node)
        elif isinstance(node, ast.Return):
            self.return_(node)
        elif isinstance(node, ast.If):
            self.if_(node, "if")
            self.line("}")
        elif isinstance(node, ast.While):
            if node.orelse:
                self.refuse(node, "while ... else is outside the portable subset")
            self.line(f"while ({self.condition(node.test)}) {{")
            self.nested(node.body)
            self.line("}")
        elif isinstance(node, ast.For):
            self.for_(node)
        elif isinstance(node, ast.Break):
            self.line("break;")
        elif isinstance(node, ast.Continue):
            self.line("continue;")
        elif isinstance(node, ast.Pass):
            pass
        else:
            self.refuse(node, f"{type(node).__name__} is outside the portable subset")

    def if_(self, node: ast.If, keyword: str):
        self.line(f"{keyword} ({self.condition(node.test)}) {{")
        self.nested(node.body)
        if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
            self.if_(node.orelse[0], "} else if")
        elif node.orelse:
            self.line("} else {")
            self.nested(node.orelse)

    def for_(self, node: ast.For):
        call = node.iter
        if node.orelse:
            self.refuse(node, "for ... else is outside the portable subset")
        if not isinstance(node.target, ast.Name):
            self.refuse(node, "a loop needs one variable")
        if isinstance(call, ast.Tuple):
            self.for_items(node, call.elts)
            return
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "range"
                and 1 <= len(call.args) <= 3 and not call.keywords):
            self.refuse(node, "only loops over `range(...)` or a tuple written out are portable")
        args = call.args
        start = self.expr(args[0])[0] if len(args) > 1 else "0"
        end_node = args[1] if len(args) > 1 else args[0]
        step = _int_constant(args[2]) if len(args) == 3 else 1
        if not step:
            self.refuse(node, "a range's step must be a non-zero integer constant")
        name = cpp_name(node.target.id)
        compare = "<" if step > 0 else ">"
        exact = node.target.id in self.loose_loop_names or _stored(node.body, node.target.id) or \
            not self._steady(end_node, node.body)
        if exact:
            # Python's loop to the letter: the end evaluated once, the variable set from a counter of its own
            # (the body may assign it; it keeps its last value after the loop).
            counter = f"{name}_next"
            self.line(f"for (int64_t {counter} = {start}, {name}_end = {self.expr(end_node)[0]}; "
                      f"{counter} {compare} {name}_end; {_step(counter, step)}) {{")
            self.depth += 1
            self.line(f"{name} = {counter};")
            self.block(node.body)
            self.depth -= 1
        else:
            end = self.operand(end_node, RELATION, "right")
            self.line(f"for ({name} = {start}; {name} {compare} {end}; {_step(name, step)}) {{")
            self.nested(node.body)
        self.line("}")

    def for_items(self, node: ast.For, items: list):
        """`for x in (a, b, c)`: the items evaluated once, before the loop, as Python does."""
        assert isinstance(node.target, ast.Name)
        name = cpp_name(node.target.id)
        spelled = cpp_type(self.typing.type_of(node.target.id, node), self.function, node)
        values = ", ".join(self.expr(item)[0] for item in items)
        self.line(f"for ({spelled} {name}_item : std::initializer_list<{spelled}>{{{values}}}) {{")
        self.depth += 1
        self.line(f"{name} = {name}_item;")
        self.block(node.body)
        self.depth -= 1
        self.line("}")

    def _steady(self, node, body) -> bool:
        """Whether C++ may evaluate a range's end at every step: it reads nothing the loop can change."""
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                if n.id in self.function.local_names and _stored(body, n.id):
                    return False
            elif isinstance(n, ast.Call):
                if not (isinstance(n.func, ast.Name) and n.func.id in PURE_BUILTINS):
                    return False
            elif isinstance(n, ast.Attribute):
                return False
            elif isinstance(n, ast.Subscript) and not (isinstance(n.value, ast.Name)
                                                       and n.value.id in self.emitter.program.constants):
                return False
        return True

    def assign(self, node: ast.Assign):
        if len(node.targets) != 1:
            self.refuse(node, "chained assignment is outside the portable subset")
        target, value = node.targets[0], node.value
        if isinstance(target, ast.Tuple):
            self.unpack(target.elts, value, node)
            return
        self._check_bool_value(value, target)
        if isinstance(target, ast.Name):
            name = target.id
            if name not in self.loaded:
                self.discard(value)
                return
            if name in self.record_locals:
                if isinstance(value, ast.Name) and value.id in self.record_locals:
                    self.line(f"{cpp_name(name)} = {cpp_name(value.id)};")
                else:
                    self.line(f"{cpp_name(name)} = &{self.operand(value, UNARY, 'right')};")
                return
            if isinstance(value, ast.Tuple):
                if name not in self.tuple_locals:
                    self.refuse(node, f"a tuple assigned to {name!r}, which is not a tuple")
                self.line(f"{cpp_name(name)} = {{{', '.join(self.expr(item)[0] for item in value.elts)}}};")
                return
            self.line(f"{cpp_name(name)} = {self.expr(value)[0]};")
        elif isinstance(target, (ast.Subscript, ast.Attribute)):
            self.line(f"{self.expr(target)[0]} = {self.expr(value)[0]};")
        else:
            self.refuse(node, f"assignment to {type(target).__name__} is outside the portable subset")

    def unpack(self, targets, value, node):
        names = []
        for target in targets:
            if isinstance(target, ast.Name):
                if target.id in self.record_locals:
                    self.refuse(node, "a record in a tuple assignment")
                names.append(cpp_name(target.id) if target.id in self.loaded else "std::ignore")
            elif isinstance(target, (ast.Subscript, ast.Attribute)):
                names.append(self.expr(target)[0])
            else:
                self.refuse(node, "nested tuple assignment is outside the portable subset")
        if isinstance(value, ast.Tuple):
            if len(value.elts) != len(targets):
                self.refuse(node, "a tuple assignment of another length")
            read = {n.id for item in value.elts for n in ast.walk(item) if isinstance(n, ast.Name)}
            sequential = all(isinstance(t, ast.Name) and t.id not in read for t in targets)
            if sequential:
                for spelled, item in zip(names, value.elts):
                    if spelled != "std::ignore":
                        self.line(f"{spelled} = {self.expr(item)[0]};")
                    else:
                        self.discard(item)
                return
            items = ", ".join(self.expr(item)[0] for item in value.elts)
            self.line(f"std::tie({', '.join(names)}) = std::make_tuple({items});")
            return
        if all(spelled == "std::ignore" for spelled in names):
            self.line(self.expr(value)[0] + ";")
        else:
            self.line(f"std::tie({', '.join(names)}) = {self.expr(value)[0]};")

    def discard(self, value):
        """A value stored in a variable nothing reads: only what it does is kept."""
        if isinstance(value, ast.Call) and _effects(value):
            self.line(self.expr(value)[0] + ";")
        elif _effects(value):
            self.line(f"static_cast<void>({self.expr(value)[0]});")

    def augmented(self, node: ast.AugAssign):
        target = node.target
        if isinstance(target, ast.Name) and target.id not in self.loaded:
            self.discard(node.value)
            return
        spelled = self.expr(target)[0]
        op = type(node.op)
        if op in BINARY:
            self.line(f"{spelled} {BINARY[op][0]}= {self.expr(node.value)[0]};")
        elif op in HELPERS:
            if _calls(target):
                self.refuse(node, "an augmented division of a target that calls a function")
            self.line(f"{spelled} = {HELPERS[op]}({spelled}, {self.expr(node.value)[0]});")
        else:
            self.refuse(node, f"the operator of {ast.unparse(node)!r} is outside the portable subset")

    def return_(self, node: ast.Return):
        value = node.value
        if value is None:
            self.line("return;")
        elif isinstance(value, ast.Tuple):
            self.line(f"return {{{', '.join(self.expr(item)[0] for item in value.elts)}}};")
        else:
            self._check_bool_value(value, None)
            self.line(f"return {self.expr(value)[0]};")

    def _check_bool_value(self, value, target):
        """`and`/`or` in a value: C++ gives a bool, Python an operand; the same only when the value is a bool."""
        if not isinstance(value, ast.BoolOp):
            return
        if isinstance(target, ast.Name):
            numba_type = self.typing.type_of(target.id, value)
        elif target is None:
            numba_type = self.typing.return_type
        else:
            self.refuse(value, "`and`/`or` stored in a record or an array")
        if cpp_type(numba_type, self.function, value) != "bool":
            self.refuse(value, "`and`/`or` whose value is not a bool (C++ would give a bool, Python an operand)")

    # ---- expressions --------------------------------------------------------------------------------

    def condition(self, node) -> str:
        return self.expr(node)[0]

    def operand(self, node, parent: int, side: str = "left", bitwise: bool = False) -> str:
        text, precedence = self.expr(node)
        wrap = precedence < parent or (precedence == parent and side == "right")
        if bitwise and isinstance(node, (ast.BinOp, ast.Compare)) and precedence != parent:
            wrap = True  # what -Wparentheses asks for: arithmetic or comparison inside a bit operation
        return f"({text})" if wrap else text

    def expr(self, node) -> tuple:
        """(C++ text, its precedence) of an expression."""
        if isinstance(node, ast.Constant):
            return self.constant(node), ATOM
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id in self.record_locals:
                return f"{cpp_name(node.value.id)}->{node.attr}", POSTFIX
            return f"{self.operand(node.value, POSTFIX)}.{node.attr}", POSTFIX
        if isinstance(node, ast.Subscript):
            if isinstance(node.slice, (ast.Slice, ast.Tuple)):
                self.refuse(node, "slices and multi-dimensional indexing are outside the portable subset")
            if self._is_tuple(node.value):
                index = _int_constant(node.slice)
                if index is None or index < 0:
                    self.refuse(node, "a tuple indexed by a value that is not a constant (from 0)")
                return f"std::get<{index}>({self.expr(node.value)[0]})", POSTFIX
            return f"{self.operand(node.value, POSTFIX)}[{self.expr(node.slice)[0]}]", POSTFIX
        if isinstance(node, ast.BinOp):
            return self.binary(node)
        if isinstance(node, ast.UnaryOp):
            return f"{UNARY_OPS[type(node.op)]}{self.operand(node.operand, UNARY, 'right')}", UNARY
        if isinstance(node, ast.BoolOp):
            self._check_bool_context(node)
            op, precedence = ("&&", AND) if isinstance(node.op, ast.And) else ("||", OR)
            parts = []
            for value in node.values:
                text, inner = self.expr(value)
                parts.append(f"({text})" if inner <= precedence or (inner == AND and precedence == OR) else text)
            return f" {op} ".join(parts), precedence
        if isinstance(node, ast.Compare):
            return self.compare(node)
        if isinstance(node, ast.IfExp):
            return (f"({self.operand(node.test, OR + 1)} ? {self.operand(node.body, TERNARY + 1)} : "
                    f"{self.operand(node.orelse, TERNARY + 1)})"), ATOM
        if isinstance(node, ast.Call):
            return self.call(node), POSTFIX
        if isinstance(node, ast.Tuple):
            self.refuse(node, "a tuple here (tuples are returned or unpacked) is outside the portable subset")
        self.refuse(node, f"{type(node).__name__} is outside the portable subset")
        raise AssertionError

    def _is_tuple(self, node) -> bool:
        """A tuple local, or a call of a function of the program that returns a tuple."""
        if isinstance(node, ast.Name):
            return node.id in self.tuple_locals
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            returns = [s.typing.return_type for s in self.emitter.signatures.values()
                       if s is not None and s.function.name == node.func.id]
            return bool(returns) and all(isinstance(r, types.BaseTuple) for r in returns)
        return False

    def _check_bool_context(self, node):
        parent = self.parents.get(node)
        if isinstance(parent, (ast.If, ast.While, ast.IfExp)) and parent.test is node:
            return
        if isinstance(parent, ast.BoolOp) or (isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not)):
            return
        if isinstance(parent, (ast.Assign, ast.Return)):
            return  # checked against the target's type (`_check_bool_value`)
        self.refuse(node, "`and`/`or` inside a value: C++ would give a bool where Python gives an operand")

    def constant(self, node: ast.Constant) -> str:
        value = node.value
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int):
            return int_literal(value)
        if isinstance(value, float):
            return float_literal(value, self.function, node)
        self.refuse(node, f"the constant {value!r} is outside the portable subset")
        raise AssertionError

    def name(self, node: ast.Name) -> tuple:
        name = node.id
        if name in self.record_locals:
            return f"*{cpp_name(name)}", UNARY
        if name in self.function.local_names:
            return cpp_name(name), ATOM
        if name in self.emitter.program.constants:
            self.emitter.used_constants.add(name)
            return cpp_name(name), ATOM
        self.refuse(node, f"the name {name!r} is not a local, a constant or a call")
        raise AssertionError

    def binary(self, node: ast.BinOp) -> tuple:
        op = type(node.op)
        if op in HELPERS:
            return f"{HELPERS[op]}({self.expr(node.left)[0]}, {self.expr(node.right)[0]})", POSTFIX
        if op not in BINARY:
            self.refuse(node, f"the operator of {ast.unparse(node)!r} is outside the portable subset")
        symbol, precedence = BINARY[op]
        bitwise = precedence in (BIT_OR, BIT_XOR, BIT_AND, SHIFT)
        left = self.operand(node.left, precedence, "left", bitwise)
        if _int_constant(node.left) is not None and (precedence == SHIFT or _int_constant(node.right) is not None):
            left = f"int64_t({_int_constant(node.left)})"  # C++ computes an int literal in 32 bits
        right = self.operand(node.right, precedence, "right", bitwise)
        return f"{left} {symbol} {right}", precedence

    def compare(self, node: ast.Compare) -> tuple:
        parts = []
        left = node.left
        for i, (op, right) in enumerate(zip(node.ops, node.comparators)):
            if type(op) not in COMPARE:
                self.refuse(node, f"the comparison {type(op).__name__} is outside the portable subset")
            if i > 0 and _calls(left):
                self.refuse(node, "a chained comparison around a call (C++ would call it twice)")
            symbol, precedence = COMPARE[type(op)]
            parts.append(f"{self.operand(left, precedence)} {symbol} {self.operand(right, precedence, 'right')}")
            left = right
        if len(parts) == 1:
            return parts[0], COMPARE[type(node.ops[0])][1]
        return " && ".join(parts), AND

    def call(self, node: ast.Call) -> str:
        func = node.func
        if not isinstance(func, ast.Name):
            self.refuse(node, "only calls of functions by name are portable")
        args = [self.expr(arg)[0] for arg in node.args]
        name = func.id
        program = self.emitter.program
        if name in program.functions:
            function = program.functions[name]
            if function.runtime:
                return f"{function.runtime}({', '.join(args)})"
            return f"{cpp_name(name)}({', '.join(args)})"
        if name in CASTS and len(args) == 1:
            return f"{CASTS[name]}({args[0]})"
        if name in ("min", "max") and len(args) >= 2:
            text = args[-1]
            for arg in reversed(args[:-1]):
                text = f"py_{name}({arg}, {text})"
            return text
        if name == "abs" and len(args) == 1:
            return f"py_abs({args[0]})"
        if name == "len" and len(args) == 1:
            if not isinstance(node.args[0], ast.Attribute):
                self.refuse(node, "len() of a record's array field only (`len(seat.memory)`): a local array is a "
                                  "pointer in C++")
            return f"static_cast<int64_t>(std::size({args[0]}))"
        self.refuse(node, f"the call {name}(...) is outside the portable subset")
        raise AssertionError


def int_literal(value: int) -> str:
    if -(2**31) <= value < 2**31:
        return str(value)
    if not -(2**63) < value < 2**63:
        raise TranspileError(f"the integer {value} does not fit in 64 bits")
    return f"int64_t({value}LL)" if value >= 0 else f"int64_t(-{-value}LL)"


def float_literal(value: float, function: Optional[Function] = None, node=None) -> str:
    if math.isnan(value):
        if function is not None:
            function.refuse(node, "NaN is outside the portable subset")
        raise TranspileError("NaN is outside the portable subset")
    if math.isinf(value):
        return ("-" if value < 0 else "") + "std::numeric_limits<double>::infinity()"
    text = repr(float(value))
    return text if any(c in text for c in ".en") else text + ".0"


class CppEmitter:
    """A walked program typed from its entry, written as C++."""

    def __init__(self, program: Program, comments: bool = True):
        self.program = program
        self.comments = comments  # each function's docstring as a comment above it
        self.used_constants: set = set()
        self.signatures: dict = {}  # key -> Signature, callees first
        self.runtime_used: set = set()

    def type_from(self, function: Function, args: tuple) -> None:
        """Type `function` (and everything it calls) for `args`, once for each C++ signature."""
        spelled = tuple(cpp_type(a, function, function.tree) for a in args)
        key = (function.name, spelled)
        if key in self.signatures or function.runtime:
            if function.runtime:
                self.runtime_used.add(function.runtime)
            return
        typing = infer(function, args)
        self.signatures[key] = None  # in progress
        for dispatcher, callee_args in typing.callees:
            self.type_from(self.program.function_of(dispatcher), callee_args)
        del self.signatures[key]
        self.signatures[key] = Signature(function, spelled, typing)  # after its callees: the order the file needs

    def functions_source(self) -> str:
        return "\n\n".join(FunctionWriter(self, signature).source() for signature in self.signatures.values())

    def constants_source(self) -> tuple[str, str]:
        """(the constants' and tables' definitions, the body of `unpack_tables`)."""
        definitions, unpacks = [], []
        for name, value in self.program.constants.items():
            if name not in self.used_constants:
                continue
            spelled = cpp_name(name)
            if isinstance(value, (bool, np.bool_)):
                definitions.append(f"constexpr bool {spelled} = {'true' if value else 'false'};")
            elif isinstance(value, (int, np.integer)):
                definitions.append(f"constexpr int64_t {spelled} = {int_literal(int(value))};")
            elif isinstance(value, (float, np.floating)):
                definitions.append(f"constexpr double {spelled} = {float_literal(float(value))};")
            else:
                definition, unpack = table_source(spelled, np.asarray(value))
                definitions.append(definition)
                if unpack:
                    unpacks.append(unpack)
        return "\n".join(definitions), "\n".join(unpacks)


def table_source(name: str, values: np.ndarray) -> tuple[str, str]:
    """A table's definition, and the line of `unpack_tables` that fills it when it is written packed."""
    if values.dtype.kind in "iub":
        if values.size and (values.max() >= 2**63 or values.min() < -(2**63)):
            raise TranspileError(f"table {name}: values outside int64")
        spelled, items = "int64_t", [int_literal(int(v)) for v in values.tolist()]
    else:
        spelled, items = "double", [float_literal(float(v)) for v in values.tolist()]
    listed = f"static {spelled} {name}[{len(values)}] = {{\n"
    line = "    "
    for item in items:
        if len(line) + len(item) > LINE:
            listed += line.rstrip() + "\n"
            line = "    "
        line += item + ", "
    listed += line.rstrip(", ") + "\n};"
    packed = pack_table(values)
    if len(packed) + 60 < len(listed):
        kind = "int64_t" if spelled == "int64_t" else "double"
        chunks = [packed[i:i + LINE] for i in range(0, len(packed), LINE)]
        text = "\n        \"" + "\"\n        \"".join(chunks) + "\""
        return f"static {kind} {name}[{len(values)}];", f"    unpack_table({name}, {len(values)},{text});"
    return listed, ""


@dataclass
class CppProgram:
    """The generated part of a C++ export."""

    code: str  # constants, tables and functions, callees first
    unpack: str  # the body of `unpack_tables()`
    entry: str  # the entry's C++ name
    searches: bool  # it calls `within_budget`: a wall-clock budget can replace its count


def cpp_program(policy, args: Optional[tuple] = None, comments: bool = True) -> CppProgram:
    """The C++ of a compiled policy `policy(mp, s, p, seat)` and everything it calls; `args`: the entry's Numba
    argument types, if it is not a policy; `comments`: the docstrings as comments."""
    program = walk(policy)
    emitter = CppEmitter(program, comments)
    entry = program.functions[program.entries[0]]
    emitter.type_from(entry, args if args is not None else entry_args())
    functions = emitter.functions_source()
    constants, unpack = emitter.constants_source()
    return CppProgram("\n\n".join(part for part in (constants, functions) if part) + "\n", unpack, cpp_name(entry.name),
                      "within_budget" in emitter.runtime_used)
