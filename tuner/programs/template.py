"""Export a program bot's tuned values: into its own source file (a template), or as a JSON file.

A template is the bot's source with its tunable constants marked by a comment at the end of their line:

    AGGRESSION = 1.0  # tuner: aggression
    const double aggression = 1.0; // tuner: aggression
    let max_seeds = 2 (* tuner: max_seeds *)

`fill_template` replaces the one literal on each marked line (before the comment) by the parameter's value and
keeps everything else, the comment included, so the file stays a valid program in its language and can be
filled again. The literal is a number for numbers (ints written as ints, floats with repr precision; a float
literal such as `1.0f` or `2.` stays a float literal and keeps its suffix), a quoted string for string
choices, `true`/`false` (in the line's own spelling) for boolean choices. Comment leaders: `//`, `#`, `--`,
`;`, `'`, and `/* ... */`, `(* ... *)`.

Each problem is a TemplateError, one line naming the line number or the parameter: a marked line with no
literal or several, a mark naming no parameter, a parameter that no line marks.
"""
from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Optional, Union

from bots.contract.user_files import read_user_file
from engine.files import write_atomically

MARK = re.compile(r"(?P<comment>(?://|#|--|;|')[ \t]*tuner:[ \t]*(?P<name>[^\s*)]*)[ \t]*"
                  r"|(?:/\*|\(\*)[ \t]*tuner:[ \t]*(?P<bname>[^\s*)]*)[ \t]*(?:\*/|\*\))[ \t]*)\r?$")
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'')
# A number not glued to a name (x1, int64) nor to another number's dot, with an optional suffix of letters and
# digits (1.5f, 10L, 2.0f64, 10usize); hexadecimal, octal and binary integers; digit separators `_`.
_NUMBER = re.compile(r"(?<![\w.])(?P<digits>0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+"
                     r"|(?:\d[\d_]*(?P<dot>\.(?!\.)[\d_]*)?|\.\d[\d_]*)(?P<exp>[eE][+-]?\d+)?)(?P<suffix>[A-Za-z]\w*)?"
                     r"(?![\w.])")
# A '-' glued to the number is its sign when what precedes it cannot end an operand (x = -1, f(-1), return -1).
_KEYWORD_END = re.compile(r"(?<![\w])(?:return|yield|case|in|then|else|do|and|or|not|is|await)$")
_BOOL = re.compile(r"(?<![\w.])(true|false|True|False|TRUE|FALSE)(?![\w.])")
_FLOAT_SUFFIXES = re.compile(r"[fFdDmM]|f32|f64|F32|F64")


class TemplateError(ValueError):
    """A template that cannot be filled; one line naming the line or the parameter."""


def _code_and_mark(line: str):
    """(code before the mark, the parameter's name) of a marked line, else None."""
    match = MARK.search(line)
    if match is None:
        return None
    name = match.group("name") if match.group("name") is not None else match.group("bname")
    return line[:match.start()], name


def _blank_strings(code: str) -> str:
    """The code with string literals' contents blanked, so numbers inside strings are not counted."""
    return _STRING.sub(lambda m: m.group(0)[0] + " " * (len(m.group(0)) - 2) + m.group(0)[-1], code)


def _replace_number(code: str, value, where: str) -> str:
    found = list(_NUMBER.finditer(_blank_strings(code)))
    if len(found) != 1:
        raise TemplateError(f"{where}: expected exactly one numeric literal before the comment, found {len(found)}")
    match = found[0]
    start, suffix = match.start(), match.group("suffix") or ""
    if match.group("digits")[:2].lower() in ("0x", "0b", "0o"):
        float_literal, suffix = False, ""
    else:
        float_literal = bool(match.group("dot") or match.group("exp") or _FLOAT_SUFFIXES.fullmatch(suffix))
    text = repr(float(value)) if isinstance(value, float) or float_literal else str(value)
    before = code[:start]
    if before.endswith("-"):
        rest = before[:-1].rstrip()
        if not rest or not re.search(r"[\w)\]}\"']$", rest) or _KEYWORD_END.search(rest):
            start -= 1  # the sign belongs to the literal: the value replaces both
            before = code[:start]
    if text.startswith("-") and before.endswith(("-", "+")):
        text = f"({text})"  # a-1.5 must not become a--2.5
    return before + text + suffix + code[match.end():]


def _replace_string(code: str, value: str, where: str) -> str:
    found = list(_STRING.finditer(code))
    if len(found) != 1:
        raise TemplateError(f"{where}: expected exactly one string literal before the comment, found {len(found)}")
    match = found[0]
    quote = match.group(0)[0]
    escaped = value.replace("\\", "\\\\").replace(quote, "\\" + quote)
    return code[:match.start()] + quote + escaped + quote + code[match.end():]


def _replace_bool(code: str, value: bool, where: str) -> str:
    found = list(_BOOL.finditer(_blank_strings(code)))
    if len(found) != 1:
        raise TemplateError(f"{where}: expected exactly one boolean literal (true/false) before the comment, "
                            f"found {len(found)}")
    match = found[0]
    old = match.group(0)
    text = "true" if value else "false"
    if old[0].isupper():
        text = text.upper() if old.isupper() else text.capitalize()
    return code[:match.start()] + text + code[match.end():]


def template_marks(source_text: str) -> list:
    """(line number, parameter name) of every marked line."""
    out = []
    for number, line in enumerate(source_text.splitlines(), 1):
        found = _code_and_mark(line)
        if found is not None:
            out.append((number, found[1]))
    return out


def fill_template(source_text: str, values: Mapping, where: str = "") -> str:
    """The source with each marked line's literal replaced by its parameter's value; TemplateError (one line,
    prefixed with `where`, e.g. the file's name) for a broken mark or a parameter no line marks."""
    prefix = f"{where}:" if where else "line "
    lines = source_text.splitlines(keepends=True)
    marked = set()
    for i, line in enumerate(lines):
        body = line.rstrip("\r\n")
        ending = line[len(body):]
        found = _code_and_mark(body)
        if found is None:
            continue
        code, name = found
        here = f"{prefix}{i + 1}"
        if not NAME.fullmatch(name):
            raise TemplateError(f"{here}: the mark 'tuner: {name}' does not name a parameter (tuner: NAME with "
                                f"letters, digits and _)")
        if name not in values:
            raise TemplateError(f"{here}: the mark 'tuner: {name}' names no parameter (parameters: "
                                f"{', '.join(values)})")
        value = values[name]
        if isinstance(value, bool):
            code = _replace_bool(code, value, here)
        elif isinstance(value, str):
            code = _replace_string(code, value, here)
        elif isinstance(value, (int, float)):
            code = _replace_number(code, value, here)
        else:
            raise TemplateError(f"{here}: parameter {name!r} has the value {value!r}, not a number, string or "
                                f"boolean")
        lines[i] = code + body[len(found[0]):] + ending
        marked.add(name)
    unmarked = [name for name in values if name not in marked]
    if unmarked:
        where_text = f"{where}: " if where else ""
        raise TemplateError(f"{where_text}no line is marked '# tuner: {unmarked[0]}' (or '// tuner: "
                            f"{unmarked[0]}') for parameter {unmarked[0]!r}"
                            + (f" (nor for {', '.join(unmarked[1:])})" if len(unmarked) > 1 else ""))
    return "".join(lines)


def write_filled_template(template: Union[str, Path], values: Mapping, output: Union[str, Path]) -> str:
    """Fill the template file with the values and write the result to `output`; returns the text."""
    template = Path(template)
    text = read_user_file(template, "template file", TemplateError)
    filled = fill_template(text, values, str(template))
    mode = template.stat().st_mode & 0o777
    write_atomically(Path(output), filled, mode)
    return filled


def write_program_params(path: Union[str, Path], values: Mapping, source: Optional[dict] = None) -> dict:
    """Write a program bot's chosen values and where they came from as JSON:

        {"params": {"aggression": 1.3, ...}, "source": {"study": ..., "trial": 12, "win_rate": ..., "date": ...}}

    (the example bot's `--params FILE` reads it, and any program can read "params"). Returns the object."""
    data = {"params": dict(values), "source": dict(source or {})}
    write_atomically(Path(path), json.dumps(data, indent=2) + "\n")
    return data


__all__ = ["TemplateError", "fill_template", "template_marks", "write_filled_template", "write_program_params"]
