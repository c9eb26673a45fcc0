"""The bot a study tunes: a registered in-engine bot with a parameter schema (`bot = "heuristic"`), or a player's
own program (`bot = "cmd:..."` with a `[parameters]` table, `tuner.programs.program`). Both give the search space
a schema and turn a parameter set into a ready-to-play `bots.contract.names.Bot`."""
from __future__ import annotations

import atexit
import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Optional

from bots.contract.names import PROGRAM_PREFIX, Bot, bot_with_params
from bots.contract.schema import Schema
from bots.registry import schema_for
from tuner.programs.program import ProgramBot
from tuner.programs.program_build import run_binary
from tuner.studyfile.program_budget import BUDGET, ProgramBudget, program_budget


class TunedBot:
    """A registered bot tuned by its schema."""

    program: Optional[ProgramBot] = None

    def __init__(self, name: str, league: int):
        self.name = name
        self.league = league

    @property
    def schema(self) -> Schema:
        return schema_for(self.name)

    @property
    def in_engine(self) -> bool:
        return self.program is None

    def bot(self, values: dict, name: str, source: Optional[dict] = None) -> Bot:
        return bot_with_params(self.name, values, name, source or {}, self.league)


class TunedProgram(TunedBot):
    """A program tuned through its command line: `{name}` placeholders, or `{params_file}`, a JSON file of every
    value (written once per parameter set, in this process's folder of parameter files: the programs run on this
    machine). A `cpp:` program's source is built when its first bot is made (`tuner.programs.program_build`: BuildError
    if it cannot be). With a time per move (`budget`: `tuner.studyfile.program_budget`), each bot is judged by the
    limits of the budget it plays."""

    def __init__(self, program: ProgramBot, league: int, budget: Optional[ProgramBudget] = None):
        super().__init__(program.bot_name, league)
        self.program = program
        self.budget = budget

    def binary(self) -> Optional[Path]:
        """A `cpp:` program's binary, built (or found in the cache) when the run first asks for it; None for a
        `cmd:` one."""
        source = self.program.source
        return None if source is None else run_binary(source)

    @property
    def schema(self) -> Schema:
        return self.program.to_schema(self.name)

    def params_file(self, values: dict) -> Optional[Path]:
        if not self.program.uses_params_file:
            return None
        digest = hashlib.sha256(json.dumps(values, sort_keys=True).encode()).hexdigest()[:16]
        path = _params_folder() / f"params-{digest}.json"
        if not path.exists():
            self.program.write_params_file(values, path)
        return path

    def bot(self, values: dict, name: str, source: Optional[dict] = None) -> Bot:
        full = self.program.values(values)
        command = self.program.render(full, self.params_file(full), self.binary())
        limits = self.budget.limits_at(full[BUDGET]) if self.budget is not None else None
        return Bot(f"{name} ({PROGRAM_PREFIX}{command})", command=command, params=full, source=source or {},
                   limits=limits)


_FOLDERS: dict[int, Path] = {}  # process id: its folder of parameter files


def _params_folder() -> Path:
    """This process's folder of parameter files, made when first asked for and removed when the process exits. A
    study makes a TunedProgram for every trial and hall-of-fame entry: they all write here. A file's name is the
    digest of its values, which are all it holds."""
    pid = os.getpid()
    if pid not in _FOLDERS:
        _FOLDERS[pid] = Path(tempfile.mkdtemp(prefix="tuner-params-"))
        atexit.register(_remove_folder, pid)
    return _FOLDERS[pid]


def _remove_folder(pid: int) -> None:
    if os.getpid() == pid:  # not in a child forked after the folder was made: the folder is its parent's
        shutil.rmtree(_FOLDERS.pop(pid), ignore_errors=True)


def tuned_bot(config) -> TunedBot:
    """The bot a study (`tuner.studyfile.file.StudyConfig`) tunes."""
    if config.program is not None:
        return TunedProgram(config.program, config.league, program_budget(config))
    return TunedBot(config.bot, config.league)
