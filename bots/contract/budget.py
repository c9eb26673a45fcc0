"""The hook that ends a search bot's work on a move: a count of work in the engine, the clock in an export.

A search bot's loop asks `within_budget(count)` before each unit of work (a playout, an iteration), `count`
being the work its budget still allows. In the engine, and in an export without a time limit, the answer is
`count > 0`: the bot spends its fixed budget and plays the same game. The C++ export's runtime replaces this
function (`export/transpile.py` HOOKS): with `--time-ms T` it answers whether the move's wall-clock deadline is
still ahead, whatever the count.
"""
from __future__ import annotations

from types import CodeType, ModuleType

from engine.jit import hot


@hot
def within_budget(count):
    """Whether a search may do one more unit of work on this move."""
    return count > 0


def asks_within_budget(policy) -> bool:
    """Whether a compiled policy asks `within_budget`, itself or through the compiled functions it calls: a search
    bot, whose budget of work a C++ export can spend as time. Read from the functions' code objects (the names they
    use, resolved in their modules) and not from their source, so that it answers for the code this process runs
    even after its file was edited, and in microseconds where transpiling takes seconds."""
    seen: set = set()
    todo = [policy]
    while todo:
        function = getattr(todo.pop(), "py_func", None)
        if function is None or function in seen:
            continue
        seen.add(function)
        names = _names_used(function.__code__)
        for name in names:
            value = function.__globals__.get(name)
            reached = [getattr(value, attr, None) for attr in names] if isinstance(value, ModuleType) else [value]
            if any(found is within_budget for found in reached):
                return True
            todo += [found for found in reached if hasattr(found, "py_func")]
    return False


def _names_used(code: CodeType) -> set:
    names = set(code.co_names)
    for constant in code.co_consts:
        if isinstance(constant, CodeType):
            names |= _names_used(constant)
    return names
