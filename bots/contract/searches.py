"""Whether a compiled policy searches: whether it asks the budget hook `within_budget`, itself or through the
functions it calls. Kept apart from the hook's module, which the search bots' compiled code depends on: an edit
here recompiles none of them."""
from __future__ import annotations

from types import CodeType, ModuleType

from bots.contract.budget import within_budget


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
