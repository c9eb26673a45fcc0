"""A program bot a study tunes: its command line with placeholders, and the parameters it declares.

    bot = "cmd:./mybot --aggression {aggression} --max-seeds {max_seeds}"
    [parameters]
    aggression = { type = "float", low = 0.0, high = 2.0, default = 1.0 }
    max_seeds = { type = "int", low = 0, high = 5, default = 2 }
    mode = { type = "choice", choices = ["safe", "greedy"], default = "safe" }

`{name}` in the command line is replaced by the trial's value of the parameter `name`, `{params_file}` by the
path of a JSON file holding all of them (`{"aggression": 1.3, "max_seeds": 2, ...}`); `{{` and `}}` are literal
braces. A value always stays one word of the command line, wherever the placeholder is (inside quotes or not):
the template is split into words first (shell rules, `shlex`), the values are put in the words, and the words are
joined again with shell quoting.

`bot = "cpp:SOURCE.cpp ..."` names a C++ source as the program: its first word is the source, which the tuner
builds (`tuner.programs.program_build`) and runs with the other words. A parameter named `time_ms` is the program's
time per move (`tuner.studyfile.program_budget`).

Types: `int` and `float` in [low, high] (`log = true`: searched on a log scale, low > 0), `choice` (one of
`choices`: strings, numbers or booleans). Without `default`, a number's default is the middle of its range (the
geometric middle on a log scale) and a choice's its first value.

Every problem is a `ProgramError`, one line that starts with the field it is about ("bot", "parameters" or
"parameters.NAME") and says what is allowed.
"""
from __future__ import annotations

import difflib
import json
import math
import os
import re
import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Optional, Union

from pydantic import (
    BaseModel,
    ConfigDict,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    ValidationError,
    field_validator,
    model_validator,
)

from bots.contract.schema import Param, ParamError, Schema, choice_index
from engine.files import write_atomically
from tuner.programs import CPP_PREFIX, CPP_SUFFIXES

PROGRAM_PREFIX = "cmd:"
PARAMS_FILE = "params_file"
TYPES = ("int", "float", "choice")
NAME_PATTERN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PIECE = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")

Number = Union[StrictInt, StrictFloat]
Scalar = Union[StrictBool, StrictInt, StrictFloat, StrictStr]


class ProgramError(ValueError):
    """A program bot that cannot be tuned: `field` is "bot", "parameters" or "parameters.NAME"; the message
    starts with it."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field


class ParameterProblem(ValueError):
    """What is wrong inside one parameter's table, raised by ProgramParameter's validators: the message follows
    "parameters.NAME: " (a model that embeds ProgramParameter finds it as the `error` of pydantic's error context,
    as `program_error` does)."""


def _show(value) -> str:
    return json.dumps(value) if isinstance(value, (str, list, dict, bool)) else repr(value)


def format_value(value) -> str:
    """A value as a program parses it: ints as ints, floats with repr precision, booleans as true/false."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


# ---- one parameter ----------------------------------------------------------------------------------------------

class ProgramParameter(BaseModel):
    """One entry of `[parameters]`: its type, range or choices, default and scale."""

    model_config = ConfigDict(extra="forbid")

    type: str
    low: Optional[Number] = None
    high: Optional[Number] = None
    default: Optional[Scalar] = None
    log: StrictBool = False
    choices: Optional[tuple[Scalar, ...]] = None

    @field_validator("type", mode="before")
    @classmethod
    def _type(cls, value):
        if value not in TYPES:
            raise ParameterProblem(f"type {_show(value)} is unknown (allowed: {', '.join(TYPES)})")
        return value

    @field_validator("low", "high", mode="before")
    @classmethod
    def _number(cls, value, info):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ParameterProblem(f"{info.field_name} must be a number, got {_show(value)}")
        if isinstance(value, float) and not math.isfinite(value):
            raise ParameterProblem(f"{info.field_name} must be a finite number, got {value}")
        return value

    @field_validator("default", mode="before")
    @classmethod
    def _scalar(cls, value):
        if not isinstance(value, (bool, int, float, str)) or (isinstance(value, float) and not math.isfinite(value)):
            raise ParameterProblem(f"default must be a number, a string or a boolean, got {_show(value)}")
        return value

    @field_validator("log", mode="before")
    @classmethod
    def _bool(cls, value):
        if not isinstance(value, bool):
            raise ParameterProblem(f"log must be true or false, got {_show(value)}")
        return value

    @field_validator("choices", mode="before")
    @classmethod
    def _choices(cls, value):
        if not isinstance(value, (list, tuple)):
            raise ParameterProblem(f"choices must be a list of values, got {_show(value)}")
        if not value:
            raise ParameterProblem("choices is empty (give a list of at least one value)")
        seen: list = []
        for choice in value:
            if not isinstance(choice, (bool, int, float, str)) or \
                    (isinstance(choice, float) and not math.isfinite(choice)):
                raise ParameterProblem(f"choices must be strings, numbers or booleans, got {_show(choice)} in "
                               f"{_show(list(value))}")
            if choice_index(tuple(seen), choice) is not None:
                raise ParameterProblem(f"choices lists {_show(choice)} twice")
            seen.append(choice)
        return tuple(value)

    @model_validator(mode="after")
    def _consistent(self):
        if self.type == "choice":
            self._check_choice()
        else:
            self._check_range()
        return self

    def _check_choice(self) -> None:
        if self.low is not None or self.high is not None:
            raise ParameterProblem("low and high apply to int and float parameters only (a choice takes "
                                   "choices = [...])")
        if self.log:
            raise ParameterProblem("log applies to int and float parameters only")
        if self.choices is None:
            raise ParameterProblem("a choice parameter needs choices = [value, ...]")
        index = 0 if self.default is None else choice_index(self.choices, self.default)
        if index is None:
            raise ParameterProblem(f"default {_show(self.default)} is not one of the choices "
                                   f"{_show(list(self.choices))}")
        self.default = self.choices[index]

    def _check_range(self) -> None:
        if self.choices is not None:
            raise ParameterProblem(f"choices apply to choice parameters only (this one is {self.type})")
        missing = [name for name in ("low", "high") if getattr(self, name) is None]
        if missing:
            raise ParameterProblem(f"{'an' if self.type == 'int' else 'a'} {self.type} parameter needs low and high "
                           f"(missing {' and '.join(missing)})")
        if isinstance(self.default, (bool, str)):
            raise ParameterProblem(f"default {_show(self.default)} must be a number in [{self.low}, {self.high}]")
        cast: Any = float if self.type == "float" else int
        for name in ("low", "high", "default"):
            value = getattr(self, name)
            if self.type == "int" and isinstance(value, float) and not value.is_integer():
                raise ParameterProblem(f"{name} {value!r} is not an integer (an int parameter's low, high and "
                                       f"default are integers)")
            if value is not None:
                setattr(self, name, cast(value))
        low, high = cast(self.low), cast(self.high)
        if low >= high:
            what = "inverted" if low > high else "empty"
            raise ParameterProblem(f"range [{low}, {high}] is {what} (low must be below high)")
        if self.log and low <= 0:
            raise ParameterProblem(f"log = true needs low > 0, got low {low}")
        if self.default is None:
            middle = math.sqrt(low * high) if self.log else (low + high) / 2
            self.default = round(middle) if self.type == "int" else middle
        elif not low <= self.default <= high:
            raise ParameterProblem(f"default {self.default!r} is outside [{low}, {high}]")

    def param(self, name: str, doc: str = "") -> Param:
        """This parameter in the project's schema terms (`bots.contract.schema.Param`)."""
        return Param(name, self.type, self.low, self.high, self.default, doc or f"program parameter {name}",
                     log=self.log, choices=self.choices or ())


# ---- the command line -----------------------------------------------------------------------------------------------

def _marker_prefix(text: str) -> str:
    """A word-safe marker that does not occur in `text` (shlex.quote leaves [\\w@%+=:,./-] unquoted)."""
    prefix = "@tuner"
    while prefix in text:
        prefix += "@"
    return prefix


def parse_template(command: str) -> tuple[list, list]:
    """(words, names): the command's words, each a list of str pieces and ("name",) placeholders, and the
    placeholder names in order. ProgramError (field "bot") for a broken template."""
    prefix = _marker_prefix(command)
    names: list = []
    out = []
    position = 0
    for match in _PIECE.finditer(command):
        out.append(command[position:match.start()])
        piece = match.group(0)
        if piece in ("{{", "}}"):
            out.append(piece[0])
        elif piece in ("{", "}"):
            raise ProgramError("bot", f"unmatched {piece!r} at character {match.start() + 1} of the command line "
                                      f"(write {piece * 2} for a literal brace)")
        else:
            name = match.group(1).strip()
            if not name:
                raise ProgramError("bot", "empty placeholder {} in the command line (write {NAME} with a parameter's "
                                          "name, or {params_file})")
            if not NAME_PATTERN.fullmatch(name):
                raise ProgramError("bot", f"placeholder {piece} is not a parameter name (letters, digits and _, not "
                                          f"starting with a digit)")
            out.append(f"{prefix}{len(names)}{prefix}")
            names.append(name)
        position = match.end()
    out.append(command[position:])
    try:
        raw_words = shlex.split("".join(out))
    except ValueError as error:
        raise ProgramError("bot", f"cannot split the command line into words ({error})") from None
    if not raw_words:
        raise ProgramError("bot", "the command line is empty (write cmd:<program> [arguments with {NAME}])")
    marker = re.compile(re.escape(prefix) + r"(\d+)" + re.escape(prefix))
    words = []
    for raw in raw_words:
        pieces: list = []
        position = 0
        for match in marker.finditer(raw):
            if match.start() > position:
                pieces.append(raw[position:match.start()])
            pieces.append((names[int(match.group(1))],))
            position = match.end()
        if position < len(raw) or not pieces:
            pieces.append(raw[position:])
        words.append(pieces)
    return words, names


def _template_text(words: list) -> str:
    """Words back into a command template: shell-quoted, literal braces doubled, placeholders as {name}."""
    prefix = _marker_prefix(json.dumps(words))
    names: list = []
    flat = []
    for word in words:
        text = ""
        for piece in word:
            if isinstance(piece, tuple):
                text += f"{prefix}{len(names)}{prefix}"
                names.append(piece[0])
            else:
                text += piece.replace("{", "{{").replace("}", "}}")
        flat.append(text)
    joined = shlex.join(flat)
    return re.sub(re.escape(prefix) + r"(\d+)" + re.escape(prefix), lambda m: "{" + names[int(m.group(1))] + "}",
                  joined)


# ---- the program bot ----------------------------------------------------------------------------------------------

class ProgramBot(BaseModel):
    """A command template (without "cmd:" or "cpp:") and the parameters it declares, checked against each other.
    `cpp`: the template's first word is a C++ source, which the tuner builds and runs (`cpp:SOURCE.cpp ...`)."""

    model_config = ConfigDict(extra="forbid")

    command: str
    parameters: dict[str, ProgramParameter]
    cpp: StrictBool = False

    @field_validator("command", mode="before")
    @classmethod
    def _command(cls, value):
        if not isinstance(value, str):
            raise ProgramError("bot", f"must be cmd:<command line>, got {_show(value)}")
        value = value.strip()
        if value.startswith(PROGRAM_PREFIX):
            value = value[len(PROGRAM_PREFIX):].strip()
        parse_template(value)
        return value

    @field_validator("parameters", mode="before")
    @classmethod
    def _table(cls, value):
        if not isinstance(value, Mapping):
            raise ProgramError("parameters", f"must be a table of NAME = {{ type = ..., ... }}, got {_show(value)}")
        if not value:
            raise ProgramError("parameters", "a program bot needs at least one parameter to tune "
                                             "(NAME = { type = \"float\", low = ..., high = ..., default = ... })")
        for name in value:
            if name == PARAMS_FILE:
                raise ProgramError(f"parameters.{name}", f"the name {PARAMS_FILE} is reserved: {{{PARAMS_FILE}}} is "
                                                         f"the path of the file holding every value")
            if not NAME_PATTERN.fullmatch(name):
                raise ProgramError(f"parameters.{name}", "a parameter's name is letters, digits and _, not starting "
                                                         "with a digit")
        return dict(value)

    @model_validator(mode="after")
    def _placeholders(self):
        words, names = parse_template(self.command)
        known = list(self.parameters)
        for name in names:
            if name != PARAMS_FILE and name not in self.parameters:
                close = difflib.get_close_matches(name, known, n=1)
                hint = f"did you mean {{{close[0]}}}? " if close else ""
                raise ProgramError("bot", f"placeholder {{{name}}} names no parameter ({hint}parameters: "
                                          f"{', '.join(known)}; {{{PARAMS_FILE}}} is the parameter file)")
        if PARAMS_FILE not in names:
            for name in known:
                if name not in names:
                    raise ProgramError(f"parameters.{name}", f"is used nowhere in the command line (write {{{name}}} "
                                                             f"or {{{PARAMS_FILE}}} in bot)")
        if self.cpp:
            first = words[0]
            if len(first) != 1 or isinstance(first[0], tuple) or not first[0].lower().endswith(CPP_SUFFIXES):
                raise ProgramError("bot", f"the first word of a {CPP_PREFIX} command line is the C++ source the "
                                          f"tuner builds (SOURCE{', SOURCE'.join(CPP_SUFFIXES)}, no placeholder), got "
                                          f"{_template_text([first])!r}")
        return self

    # ---- building one --------------------------------------------------------------------------------------
    @classmethod
    def parse(cls, bot: Any, parameters: Any) -> ProgramBot:
        """The program bot of a study file's `bot` (cmd:... or cpp:...) and `[parameters]` table, or one
        ProgramError."""
        cpp = isinstance(bot, str) and bot.strip().startswith(CPP_PREFIX)
        if cpp:
            bot = bot.strip()[len(CPP_PREFIX):].strip()
        try:
            return cls.model_validate({"command": bot, "parameters": parameters, "cpp": cpp})
        except ValidationError as error:
            raise program_error(error) from None

    # ---- what it is ------------------------------------------------------------------------------------------
    @property
    def bot_name(self) -> str:
        return (CPP_PREFIX if self.cpp else PROGRAM_PREFIX) + self.command

    @property
    def source(self) -> Optional[Path]:
        """The C++ source of a `cpp:` program (its command line's first word), else None."""
        return Path(parse_template(self.command)[0][0][0]) if self.cpp else None

    @property
    def placeholders(self) -> list:
        """The names the command line uses, in order (with repeats)."""
        return parse_template(self.command)[1]

    @property
    def uses_params_file(self) -> bool:
        return PARAMS_FILE in self.placeholders

    def to_schema(self, bot: str = "program") -> Schema:
        """The parameters as the project's schema (`bots.contract.schema.Schema`), in the order they are declared."""
        return Schema(bot, [p.param(name) for name, p in self.parameters.items()])

    def defaults(self) -> dict:
        return {name: p.default for name, p in self.parameters.items()}

    def values(self, values: Mapping, where: str = "") -> dict:
        """Every parameter's value, checked: the given ones (ints as ints, floats as floats, choices as declared)
        and the defaults of the others. ParamError for an unknown name or a value out of range."""
        schema = self.to_schema()
        return {**self.defaults(), **schema.validate(values, where, complete=False)}

    # ---- running it ---------------------------------------------------------------------------------------------
    def render(self, values: Mapping, params_file_path: Optional[Union[str, Path]] = None,
               program: Optional[Union[str, Path]] = None) -> str:
        """The command line for these values (missing ones take their defaults): each {name} replaced by its
        value, {params_file} by `params_file_path`, the first word by `program` if given (a `cpp:` source's
        binary); every word shell-quoted as needed."""
        full = self.values(values)
        texts = {name: format_value(value) for name, value in full.items()}
        if self.uses_params_file:
            if params_file_path is None:
                raise ValueError(f"the command line uses {{{PARAMS_FILE}}}: give the parameter file's path")
            texts[PARAMS_FILE] = str(params_file_path)
        words, _ = parse_template(self.command)
        if program is not None:
            words[0] = [str(program)]
        return shlex.join("".join(texts[p[0]] if isinstance(p, tuple) else p for p in word) for word in words)

    def write_params_file(self, values: Mapping, path: Union[str, Path]) -> dict:
        """Write every parameter's value as one JSON object (name: value) to `path`; returns the values."""
        full = self.values(values)
        write_atomically(Path(path), json.dumps(full, indent=2) + "\n")
        return full

    def with_program_paths(self, folder: Union[str, Path]) -> ProgramBot:
        """The same bot with its program's paths relative to `folder` (a study file's folder): see
        `program_paths_relative_to` (a `cpp:` source always is)."""
        return self.model_copy(update={"command": program_paths_relative_to(self.command, folder, self.cpp)})


def program_error(error: ValidationError) -> ProgramError:
    """The first problem of a ProgramBot's validation, as one ProgramError naming its field."""
    first = error.errors()[0]
    problem = (first.get("ctx") or {}).get("error")
    if isinstance(problem, ProgramError):
        return problem
    loc = [str(part) for part in first["loc"]]
    if loc[:1] == ["command"]:
        field, inner = "bot", None
    elif len(loc) >= 2:
        field, inner = f"parameters.{loc[1]}", (loc[2] if len(loc) > 2 else None)
    else:
        field, inner = "parameters", None
    if isinstance(problem, ParameterProblem):
        return ProgramError(field, str(problem))
    kind = first["type"]
    allowed = ", ".join(ProgramParameter.model_fields)
    if kind == "extra_forbidden" and inner is not None:
        close = difflib.get_close_matches(inner, list(ProgramParameter.model_fields), n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        return ProgramError(field, f"unknown field {inner!r} ({hint}allowed: {allowed})")
    if kind == "missing" and inner is not None:
        return ProgramError(field, f"missing field {inner!r}" + (f" ({', '.join(TYPES)})" if inner == "type" else ""))
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return ProgramError(field, "must be a table { type = ..., low = ..., high = ..., default = ... }, got "
                                   f"{_show(first.get('input'))}")
    return ProgramError(field, f"{inner + ': ' if inner else ''}{first['msg']}")


# ---- paths ----------------------------------------------------------------------------------------------------------

def program_paths_relative_to(command: str, folder: Union[str, Path], source_first: bool = False) -> str:
    """The command template with its program's paths made relative to `folder` (a study file's folder), so the
    study runs the same program from any working directory:

    - the first word (the program), if it is a relative path: it contains a '/' (`./mybot`, `bin/mybot`) or
      names a file in `folder`;
    - any later word that names an existing file in `folder` (`python3 mybot.py`, `java -jar bot.jar`).

    Words with placeholders, options (`-...`) and absolute paths are left as they are. Paths become absolute
    (`folder` itself is made absolute). With `source_first` (a `cpp:` command line), the first word is a file
    relative to `folder` whether it exists or not (a missing source is reported with its full path)."""
    folder = Path(os.path.abspath(folder))
    words, _ = parse_template(command)
    changed = False
    for i, word in enumerate(words):
        if len(word) != 1 or isinstance(word[0], tuple):
            continue
        text = word[0]
        if not text or text.startswith("-") or os.path.isabs(text):
            continue
        candidate = folder / text
        if (i == 0 and (source_first or "/" in text or candidate.is_file())) or (i > 0 and candidate.is_file()):
            words[i] = [os.path.normpath(candidate)]
            changed = True
    return _template_text(words) if changed else command


__all__ = ["CPP_PREFIX", "CPP_SUFFIXES", "PARAMS_FILE", "PROGRAM_PREFIX", "ParamError", "ParameterProblem",
           "ProgramBot", "ProgramError", "ProgramParameter", "format_value", "parse_template", "program_error",
           "program_paths_relative_to"]
