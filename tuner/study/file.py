"""Study files (TOML): what a tuning study searches, against whom, for how long and where it is stored.

`StudyFile` is the file as a declarative model (pydantic, unknown fields forbidden): each field's type, range,
default and meaning are written once, on the field; the README's table is generated from them (a test keeps
the two in step). The whole file is checked before any storage is touched, and the first problem is one line
naming the file, the field, the value and what is allowed (`StudyFileError`, a `UserError`).

    name = "quickstart"
    league = 3
    seed = 2021
    trials = 3000
    timeout = 420
    pairs = 250
    opponents = ["heuristic"]

    [search]
    seed_first = 0              # fix a parameter
    grow_horizon = [1, 4]       # narrow its range
"""
from __future__ import annotations

import difflib
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Optional

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic.fields import FieldInfo

from bots.names import PROGRAM_PREFIX, BotSpecError, parse_bot
from bots.registry import schema_for, tunable
from bots.schema import ParamError, Schema
from tuner.errors import UserError
from tuner.storage.url import StorageURL, StorageURLError
from tuner.study.program import ProgramBot, ProgramError, program_paths_relative_to

HALL_OF_FAME = "hall-of-fame"
STUDY_PREFIX = "study:"
MAX_PAIRS = 100_000
SEED_MIN, SEED_MAX = -(2**63), 2**63 - 1
SAMPLERS = ("cmaes", "tpe", "random", "nsga2")

# The settings that decide what a trial is: a study resumes only if they are unchanged.
SEARCH_SETTINGS = ("bot", "parameters", "league", "seed", "sampler", "population", "sigma", "pairs", "opponents",
                   "opponent_shares", "objectives", "min_gain_softness", "pruner", "pruner_p", "pruner_startup_pairs",
                   "search")
# The value of a setting that studies created before it existed were run with.
SETTING_BEFORE_IT_EXISTED: dict[str, Any] = {"opponent_shares": {}, "min_gain_softness": 0.02}


class StudyFileError(UserError):
    """A study file that cannot be read or does not describe a study."""


class FieldProblem(ValueError):
    """What is wrong with a field's value: `message` follows "field 'NAME'" ("must be ..." or a sentence)."""

    def __init__(self, message: str, field: Optional[str] = None):
        super().__init__(message)
        self.field = field  # a nested field ("search.grow_horizon"), else the field being validated


def _info(type_text: str, doc: str, allowed: Optional[str] = None, default_text: Optional[str] = None) -> dict:
    """A field's documentation: its type as the README shows it, what its errors say is allowed (when it
    differs) and its default as the README shows it (when it is not the Python default)."""
    extra = {"type_text": type_text}
    if allowed is not None:
        extra["allowed"] = allowed
    if default_text is not None:
        extra["default_text"] = default_text
    return {"description": doc, "json_schema_extra": extra}


def _show(value) -> str:
    return json.dumps(value) if isinstance(value, (str, list, dict)) else repr(value)


def _type_name(value) -> str:
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "a list",
            dict: "a table"}.get(type(value), type(value).__name__)


@dataclass(frozen=True)
class Override:
    """A search-space override: a fixed value, or a narrowed range."""

    name: str
    value: Optional[float] = None  # fixed
    low: Optional[float] = None
    high: Optional[float] = None

    @property
    def fixed(self) -> bool:
        return self.value is not None

    def to_json(self):
        return self.value if self.fixed else [self.low, self.high]


class StudyFile(BaseModel):
    """A study file's fields, checked; relative paths resolved against the study file's folder."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, validate_default=False)

    name: str = Field(..., **_info("string", "study name in the storage; the same name and storage resume the study",
                                   allowed="a non-empty string"))
    league: int = Field(..., ge=1, le=3, **_info(
        "1, 2 or 3", "league the games are played in: 1 = Wood 2, 2 = Wood 1, 3 = Bronze+",
        allowed="1 (Wood 2), 2 (Wood 1) or 3 (Bronze+)"))
    seed: int = Field(..., ge=SEED_MIN, le=SEED_MAX, **_info(
        "integer", "seeds the sampler, the search seeds and the held-out validation seeds (reproducible runs)"))
    bot: str = Field("heuristic", **_info(
        "string", "bot whose parameters are tuned: a registered bot with parameters (`heuristic`, `greedy`, "
        "`sunrate`, ...: `tuner params --bot NAME`), or a program `cmd:<command line>` whose `{name}` placeholders "
        "(or `{params_file}`, a JSON file of every value) take the trial's values of `parameters`",
        allowed="a bot with parameters or cmd:<command line>"))
    parameters: Optional[dict[str, Any]] = Field(None, **_info(
        "table", "a program bot's parameters: `NAME = { type = \"int\" or \"float\", low = ..., high = ..., "
        "default = ..., log = false }` or `NAME = { type = \"choice\", choices = [...], default = ... }` "
        "(README, \"Tune your own bot\")", allowed="a table of NAME = { type = ..., ... }"))
    storage: Optional[str] = Field(None, **_info(
        "path or URL",
        "default: `<study file name>.journal` beside the study file (a compact journal file, ~2 kB a trial; an "
        "existing plain Optuna journal file keeps its format). A relative path is relative to the study file; an "
        "Optuna storage URL (`sqlite:///`, "
        "`postgresql://`, `mysql://`, `redis://`) also works: PostgreSQL for long studies and several machines "
        "(README, \"Scaling out\")", allowed="a journal file path or a storage URL"))
    artifacts: Optional[str] = Field(None, **_info(
        "path", "artifact store (exported bot of each new best trial); default: `<storage name>-artifacts/` beside a "
        "journal file, else `<study file name>-artifacts/` beside the study file", allowed="a non-empty string"))
    sampler: Literal["cmaes", "tpe", "random", "nsga2"] = Field("cmaes", **_info(
        "string", "`cmaes` (evolutionary, starts from the schema defaults), `tpe`, `random`, or `nsga2` (several "
        "objectives)", allowed="one of " + ", ".join(SAMPLERS)))
    population: Optional[int] = Field(None, ge=2, le=10_000, **_info(
        "integer >= 2", "population of `cmaes` (default 4 + 3 ln(number of searched parameters)) or `nsga2` "
        "(default 50); also how often the hall of fame is refreshed (tpe, random: every 10 trials)"))
    sigma: Optional[float] = Field(None, gt=0, le=1, **_info(
        "number in (0, 1]", "CMA-ES's initial step size, as a fraction of each searched parameter's range: small "
        "values search near the defaults first (Optuna's own default, 1/6, strays far from well-tuned defaults)",
        allowed="a number in (0, 1]", default_text="0.05"))
    trials: Optional[int] = Field(None, ge=1, **_info(
        "integer >= 1", "total trials of the study (finished ones count on resume); `trials`, `timeout` or both"))
    timeout: Optional[float] = Field(None, gt=0, **_info(
        "seconds > 0", "time budget of one `tuner tune` run", allowed="a number of seconds > 0"))
    pairs: int = Field(250, ge=1, le=MAX_PAIRS, **_info(
        "integer >= 1", "seed pairs per opponent per trial; each seed is played twice with sides swapped, and every "
        "trial plays the same seeds (common random numbers)"))
    opponents: list[str] = Field(["heuristic"], **_info(
        "list of bot names", "opponent pool: bot names (`heuristic`, `greedy`, `heuristic:FILE.json`, "
        "`study:OTHER.toml`, ...) and `hall-of-fame:K`, the K best earlier trials of this study",
        allowed="a non-empty list of bot names and hall-of-fame:K"))
    opponent_shares: dict[str, float] = Field({}, **_info(
        "table", "`\"ENTRY\" = share` meets a pool entry on that share of the seed pairs only (evenly spread, in "
        "(0, 1]; default 1): a slow opponent (`search:N`) met on fewer pairs leaves time for more trials, and a "
        "trial's score still weighs every opponent the same (README, \"Slow opponents\")",
        allowed="a table of pool entry = a number in (0, 1]"))
    objectives: Optional[Literal["mean", "min-gain", "per-opponent"]] = Field(None, **_info(
        "string", "`mean`: one objective, the win rate over all opponents; `min-gain`: one objective, the soft "
        "minimum over the pool's opponents of the trial's gain over the baseline on the same seeds (a gain "
        "against some opponents does not buy a loss against another; docs, \"Strength that transfers\"); "
        "`per-opponent`: a win rate per pool entry (tpe, random, nsga2). Default: `per-opponent` with nsga2, else "
        "`mean`", allowed="one of mean, min-gain, per-opponent"))
    min_gain_softness: float = Field(0.02, ge=0, le=1, **_info(
        "number in [0, 1]", "with `min-gain`: how soft the minimum is, in win-rate units: 0 scores a trial by its "
        "worst gain alone, larger values move toward the mean gain", allowed="a number in [0, 1]"))
    pruner: Optional[Literal["wilcoxon", "none"]] = Field(None, **_info(
        "string", "`wilcoxon`: race each generation on common seeds and drop a trial that a Wilcoxon signed-rank test "
        "finds worse than the generation's leader; `none`: every trial plays every pair. Default: `wilcoxon` with "
        "one objective, else `none`", allowed="one of wilcoxon, none"))
    pruner_p: float = Field(0.1, gt=0, lt=1, **_info(
        "number in (0, 1)", "p-value under which the race drops a trial", allowed="a number in (0, 1)"))
    pruner_startup_pairs: int = Field(20, ge=2, **_info(
        "integer >= 2", "seed pairs a trial plays before it can be dropped (the race's first block)"))
    validation_pairs: int = Field(500, ge=0, le=MAX_PAIRS, **_info(
        "integer >= 0", "held-out seed pairs (never used in the search) on which `tuner tune` re-evaluates its "
        "finalists, per validation opponent; 0: no validation"))
    validation_opponents: Optional[list[str]] = Field(None, **_info(
        "list of bot names", "opponents of the validation; default: the pool's bots without the hall of fame "
        "(`heuristic` if none)", allowed="a non-empty list of bot names"))
    held_out_opponents: list[str] = Field([], **_info(
        "list of bot names", "opponents no trial meets in the search: the finalists are chosen on them and on "
        "`validation_opponents` (each group weighing half), and the final gauntlet reports the chosen bot's gain "
        "on each group apart: what survives against styles the tuning never saw",
        allowed="a list of bot names that are not in 'opponents'"))
    finalists: int = Field(5, ge=0, le=50, **_info(
        "integer >= 0", "at the end of a run, the best fully played trials re-evaluated on held-out seeds against "
        "`validation_opponents`, with the latest generations' best and CMA-ES's mean: the best of them becomes "
        "the study's exported bot (0: the best trial of the search)"))
    first_timeout: float = Field(1000.0, gt=0, **_info(
        "milliseconds > 0", "time limit of a program's first answer in a game (CodinGame: 1000)",
        allowed="a number of milliseconds > 0"))
    turn_timeout: float = Field(100.0, gt=0, **_info(
        "milliseconds > 0", "time limit of a program's later answers (CodinGame: 100); a busy machine may need "
        "slack", allowed="a number of milliseconds > 0"))
    heartbeat_interval: int = Field(10, ge=1, **_info(
        "integer >= 1", "seconds between the heartbeats a running trial records in the storage"))
    grace_period: int = Field(60, ge=1, **_info(
        "integer > heartbeat_interval", "seconds without a heartbeat after which a running trial is taken for dead "
        "(its worker was killed or its machine lost): any worker of the study then marks it FAIL and runs its "
        "parameters again"))
    search: dict[str, Any] = Field({}, **_info(
        "table", "search-space overrides: `name = value` fixes a parameter, `name = [low, high]` narrows its range",
        allowed="a table of parameter = value or [low, high]"))

    _overrides: dict = PrivateAttr(default_factory=dict)
    _program: Optional[ProgramBot] = PrivateAttr(default=None)

    # ---- fields -------------------------------------------------------------------------------------------
    @field_validator("name", "artifacts", mode="before")
    @classmethod
    def _non_empty_string(cls, value, info: ValidationInfo):
        if not isinstance(value, str) or not value.strip():
            raise FieldProblem(f"must be a non-empty string, got {_show(value)}")
        value = value.strip()
        if info.field_name == "name" and ("\n" in value or len(value) > 200):
            raise FieldProblem("must be one line of at most 200 characters")
        return value

    @field_validator("bot", mode="before")
    @classmethod
    def _tunable_bot(cls, value):
        allowed = tunable()
        if isinstance(value, str) and value.strip().startswith(PROGRAM_PREFIX):
            return value.strip()
        if not isinstance(value, str) or value.strip() not in allowed:
            close = difflib.get_close_matches(value, allowed, n=1) if isinstance(value, str) else []
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise FieldProblem(f"must be one of {', '.join(allowed)} or {PROGRAM_PREFIX}<command line>, got "
                               f"{_show(value)}{hint}")
        return value.strip()

    @field_validator("storage", mode="before")
    @classmethod
    def _storage_url(cls, value, info: ValidationInfo):
        try:
            return StorageURL.parse(value, _folder(info)).text
        except StorageURLError as error:
            raise FieldProblem(str(error)) from None

    @field_validator("opponents", "validation_opponents", "held_out_opponents", mode="before")
    @classmethod
    def _bot_names(cls, value, info: ValidationInfo):
        pool = info.field_name == "opponents"
        what = "bot names" + (" and hall-of-fame:K" if pool else "")
        if info.field_name == "held_out_opponents" and value == []:
            return value
        if not isinstance(value, list) or not value:
            raise FieldProblem(f"must be a non-empty list of {what}, got {_show(value)}")
        league = info.data.get("league", 3)
        out: list[str] = []
        for entry in value:
            if not isinstance(entry, str) or not entry.strip():
                raise FieldProblem(f"entries must be bot names (strings), got {_show(entry)}")
            entry = entry.strip()
            if entry.startswith(HALL_OF_FAME):
                entry = _hall_of_fame_entry(entry, pool, out)
            else:
                try:
                    check_bot_name(_relative_bot(entry, _folder(info)), league)
                except BotSpecError as error:
                    raise FieldProblem(str(error)) from None
            if entry in out:
                raise FieldProblem(f"{entry!r} is listed twice")
            out.append(entry)
        return out

    @field_validator("opponent_shares", mode="before")
    @classmethod
    def _shares(cls, value, info: ValidationInfo):
        if not isinstance(value, dict):
            raise FieldProblem(f"must be a table of pool entry = a number in (0, 1], got {_show(value)}")
        pool = info.data.get("opponents")
        out = {}
        for entry, share in value.items():
            where = f"opponent_shares.{entry}"
            if pool is not None and entry not in pool:
                raise FieldProblem(f"{entry!r} is not an entry of 'opponents' ({', '.join(pool)})", where)
            if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 < share <= 1:
                raise FieldProblem(f"must be a number in (0, 1], got {_show(share)}", where)
            out[entry] = float(share)
        return out

    @field_validator("search", mode="before")
    @classmethod
    def _search_table(cls, value):
        if not isinstance(value, dict):
            raise FieldProblem(f"must be a table of parameter = value or [low, high], got {_show(value)}")
        return value

    # ---- rules between fields ---------------------------------------------------------------------------------
    @model_validator(mode="after")
    def _between_fields(self, info: ValidationInfo):
        if self.sigma is not None and self.sampler != "cmaes":
            raise FieldProblem(f"applies to sampler 'cmaes' only (sampler is {self.sampler!r})", "sigma")
        if self.trials is None and self.timeout is None:
            raise FieldProblem("give 'trials' (total trials of the study), 'timeout' (seconds per run) or both", "")
        if self.objectives == "per-opponent" and self.sampler == "cmaes":
            raise FieldProblem("'per-opponent' needs sampler tpe, random or nsga2 (cmaes optimises one objective)",
                               "objectives")
        if self.objectives == "min-gain" and self.sampler == "nsga2":
            raise FieldProblem("'min-gain' is one objective; nsga2 needs several (use cmaes, tpe or random)",
                               "objectives")
        for entry in self.held_out_opponents:
            for field in ("opponents", "validation_opponents"):
                if entry in (getattr(self, field) or []):
                    raise FieldProblem(f"{entry!r} is also in {field!r}: a held-out opponent is one no trial meets, "
                                       f"reported apart from the pool's", "held_out_opponents")
        if self.pruner == "wilcoxon" and self.objectives_resolved == "per-opponent":
            raise FieldProblem("'wilcoxon' prunes one objective; with objectives = 'per-opponent' use pruner = "
                               "'none'", "pruner")
        if self.grace_period <= self.heartbeat_interval:
            raise FieldProblem(f"must be an integer > heartbeat_interval ({self.heartbeat_interval}), got "
                               f"{self.grace_period}", "grace_period")
        schema = self._program_schema(_folder(info))
        self._overrides = search_overrides(self.search, schema)
        if all(name in self._overrides and self._overrides[name].fixed for name in (p.name for p in schema)):
            raise FieldProblem("every parameter is fixed; leave at least one to search", "search")
        return self

    def _program_schema(self, folder: Path) -> Schema:
        """The tuned bot's schema; a program's is its `[parameters]`, checked against its command line."""
        if not self.bot.startswith(PROGRAM_PREFIX):
            if self.parameters is not None:
                raise FieldProblem(f"applies to a program bot only (bot is {self.bot!r}: its parameters are "
                                   f"`tuner params --bot {self.bot}`)", "parameters")
            return schema_for(self.bot)
        if self.parameters is None:
            raise FieldProblem("a program bot needs a [parameters] table: NAME = { type = \"float\", low = ..., "
                               "high = ..., default = ... } for each {NAME} of its command line", "parameters")
        try:
            self._program = ProgramBot.parse(self.bot, self.parameters).with_program_paths(folder)
        except ProgramError as error:
            raise FieldProblem(str(error)[len(error.field) + 2:], error.field) from None
        return self._program.to_schema(self.bot)

    @property
    def program(self) -> Optional[ProgramBot]:
        """The program bot it tunes (its program's paths relative to the study file), or None."""
        return self._program

    @property
    def overrides(self) -> dict:
        """The `search` table as Overrides (name -> Override)."""
        return self._overrides

    @property
    def objectives_resolved(self) -> str:
        return self.objectives or ("per-opponent" if self.sampler == "nsga2" else "mean")


def _folder(info: ValidationInfo) -> Path:
    return (info.context or {}).get("folder", Path.cwd())


def _hall_of_fame_entry(entry: str, pool: bool, earlier: list) -> str:
    if not pool:
        raise FieldProblem(f"{entry!r} is allowed in 'opponents' only")
    kind, sep, k = entry.partition(":")
    if kind != HALL_OF_FAME or not sep or not k.isdigit() or not 1 <= int(k) <= 50:
        raise FieldProblem(f"{entry!r} must be hall-of-fame:K with K in [1, 50]")
    if any(o.startswith(HALL_OF_FAME) for o in earlier):
        raise FieldProblem("give hall-of-fame:K once")
    return f"{HALL_OF_FAME}:{int(k)}"


def check_bot_name(name: str, league: int):
    """The bot a study file's name describes, checked without opening any study: None for `study:` names (their
    file must exist; the study is opened when the run starts)."""
    if name.startswith(STUDY_PREFIX):
        target = name[len(STUDY_PREFIX):].rpartition("#")[0] if "#" in name else name[len(STUDY_PREFIX):]
        if not target:
            raise BotSpecError(f"bot {name!r}: expected study:STUDY.toml or study:STUDY.toml#TRIAL")
        if not Path(target).is_file():
            raise BotSpecError(f"bot {name!r}: no such study file {target}")
        return None
    return parse_bot(name, league, extra_known=(f"{STUDY_PREFIX}STUDY.toml[#N]",))


def _relative_bot(name: str, folder: Path) -> str:
    """Files in bot names (`heuristic:FILE.json`, `study:OTHER.toml`, a program's own path in `cmd:...`) are
    relative to the study file's folder."""
    if name.startswith(PROGRAM_PREFIX):
        command = name[len(PROGRAM_PREFIX):].strip()
        return PROGRAM_PREFIX + program_paths_relative_to(command, folder) if command else name
    kind, sep, arg = name.partition(":")
    if sep and arg and name + ":" != PROGRAM_PREFIX and kind + ":" != PROGRAM_PREFIX and \
            (kind + ":" == STUDY_PREFIX or arg.endswith(".json")):
        target, hash_, trial = arg.partition("#")
        if not Path(target).is_absolute():
            candidate = folder / target
            if candidate.exists() or not Path(target).exists():
                return f"{kind}:{candidate}{hash_}{trial}"
    return name


def search_overrides(value: dict, schema: Schema) -> dict:
    """The `search` table as Overrides, checked against the tuned bot's schema."""
    bot = schema.bot
    out = {}
    for name, spec in value.items():
        where = f"search.{name}"
        param = schema.by_name.get(name)
        if param is None:
            raise FieldProblem(f"unknown parameter {name!r} of bot {bot!r} (see `tuner params` for its "
                               f"{len(schema)} parameters)", where)
        if isinstance(spec, list):
            if len(spec) != 2 or any(isinstance(x, bool) or not isinstance(x, (int, float)) for x in spec):
                raise FieldProblem(f"must be [low, high] (two numbers) or a value, got {_show(spec)}", where)
            low, high = spec
            if param.type == "int" and any(float(x) != int(x) for x in spec):
                raise FieldProblem(f"{param.name} is an integer parameter, got range {_show(spec)}", where)
            if low > high:
                raise FieldProblem(f"range {_show(spec)} is inverted (give [low, high] with low < high inside "
                                   f"{param.range_text})", where)
            if low == high:
                raise FieldProblem(f"range {_show(spec)} is empty (give [low, high] with low < high, or "
                                   f"`{name} = {low}` to fix the parameter)", where)
            if low < param.low or high > param.high:
                raise FieldProblem(f"range {_show(spec)} leaves the parameter's range ({param.range_text})", where)
            cast = int if param.type == "int" else float
            out[name] = Override(name, low=cast(low), high=cast(high))
        else:
            try:
                fixed = param.check(spec)
            except ParamError as error:
                raise FieldProblem(f"{error} (or give a range [low, high])", where) from None
            out[name] = Override(name, value=fixed)
    return out


# ---- the study a file describes ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class StudyConfig:
    """A checked study file with its defaults resolved, its paths absolute and its overrides parsed."""

    path: Path
    text: str
    file: StudyFile
    storage: str  # an absolute journal path, or a storage URL
    artifacts: Path
    search: dict  # name -> Override
    storage_source: str = "field 'storage'"  # where the storage was given, for error messages

    def __getattr__(self, name: str):
        """The file's other fields, as written (`config.pairs`, `config.opponents`, ...)."""
        return getattr(self.file, name)

    @property
    def sigma(self) -> Optional[float]:
        if self.file.sigma is not None:
            return self.file.sigma
        return float(_texts("sigma")["default_text"]) if self.file.sampler == "cmaes" else None

    @property
    def objectives(self) -> str:
        return self.file.objectives_resolved

    @property
    def pruner(self) -> str:
        return self.file.pruner or ("none" if self.multi_objective else "wilcoxon")

    @property
    def validation_opponents(self) -> list:
        return self.file.validation_opponents or self.fixed_opponents or ["heuristic"]

    @property
    def storage_url(self) -> StorageURL:
        return StorageURL(self.storage)

    @property
    def storage_is_journal_file(self) -> bool:
        return self.storage_url.scheme == "journal"

    @property
    def fixed_opponents(self) -> list:
        return [o for o in self.opponents if not o.startswith(HALL_OF_FAME)]

    @property
    def hall_of_fame(self) -> int:
        """K of `hall-of-fame:K` in the pool, 0 without one."""
        for entry in self.opponents:
            if entry.startswith(HALL_OF_FAME):
                return int(entry.partition(":")[2])
        return 0

    @property
    def multi_objective(self) -> bool:
        return self.objectives == "per-opponent"

    def search_settings(self) -> dict:
        """The settings a resumed study must share with the study it continues (JSON values)."""
        out = {}
        for name in SEARCH_SETTINGS:
            value = getattr(self, name)
            if name == "search":
                value = {k: o.to_json() for k, o in sorted(value.items())}
            out[name] = value
        return json.loads(json.dumps(out))

    def with_storage(self, url: str) -> StudyConfig:
        """The same study on another storage (`--storage`; a relative path is relative to the current directory)."""
        try:
            storage = StorageURL.parse(url, Path.cwd()).text
        except StorageURLError as error:
            raise StudyFileError(f"{self.path}: --storage {error}") from None
        return StudyConfig(self.path, self.text, self.file, storage, _default_artifacts(self.path, storage),
                           self.search, storage_source="--storage")


def resolve_bot_name(config: StudyConfig, name: str) -> str:
    """A bot name of the study file, its files made relative to the study file."""
    return _relative_bot(name, config.path.parent)


def _default_artifacts(path: Path, storage: str) -> Path:
    journal = StorageURL(storage).file if StorageURL(storage).scheme == "journal" else None
    if journal is not None:
        return journal.with_name(f"{journal.stem}-artifacts")
    return path.parent.resolve() / f"{path.stem}-artifacts"


# ---- reading a file ----------------------------------------------------------------------------------------------

FIELD_INFO: dict[str, FieldInfo] = StudyFile.model_fields


def _texts(name: str) -> dict[str, str]:
    """A field's documentation texts (`type_text`, `allowed`, `default_text`: see `_info`)."""
    extra = FIELD_INFO[name].json_schema_extra
    return {key: str(value) for key, value in extra.items()} if isinstance(extra, dict) else {}


RANGE_ERRORS = ("greater_than", "greater_than_equal", "less_than", "less_than_equal")


def _allowed(name: str, error) -> str:
    """What a field's type or range error says is allowed: its own words, else an integer's range."""
    info = FIELD_INFO[name]
    extra = _texts(name)
    if error["type"] in RANGE_ERRORS and "allowed" not in extra:
        low = next((m.ge for m in info.metadata if getattr(m, "ge", None) is not None), None)
        high = next((m.le for m in info.metadata if getattr(m, "le", None) is not None), None)
        if low is not None and high is not None:
            return f"an integer in [{low}, {high}]"
    return extra.get("allowed", extra["type_text"])


def _message(path: Path, error, data: dict) -> str:
    loc = [str(part) for part in error["loc"]]
    name = loc[0] if loc else ""
    if error["type"] == "extra_forbidden":
        close = difflib.get_close_matches(name, list(FIELD_INFO), n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        return f"{path}: unknown field {name!r} ({hint}allowed: {', '.join(FIELD_INFO)})"
    if error["type"] == "missing":
        return f"{path}: missing field {name!r} ({_texts(name)['type_text']}: {FIELD_INFO[name].description})"
    problem = (error.get("ctx") or {}).get("error")
    if isinstance(problem, FieldProblem):
        field = problem.field if problem.field is not None else name
        text = str(problem)
        if field == "":
            return f"{path}: {text}"
        return f"{path}: field {field!r}" + (" " if text.startswith("must") else ": ") + text
    value = data.get(name)
    if error["type"] in RANGE_ERRORS:
        shown = f"{value:g}" if isinstance(value, float) else value
        return f"{path}: field {name!r} must be {_allowed(name, error)}, got {shown}"
    return f"{path}: field {name!r} must be {_allowed(name, error)}, got {_type_name(value)} {_show(value)}"


def parse_study(data: dict, path: Path, text: str = "") -> StudyConfig:
    """The study `data` (a study file's TOML) describes, or StudyFileError with one line."""
    folder = path.parent
    try:
        model = StudyFile.model_validate(data, context={"folder": folder})
    except ValidationError as error:
        errors = sorted(error.errors(), key=lambda e: (e["type"] != "extra_forbidden", e["type"] != "missing",
                                                        _field_order(e)))
        raise StudyFileError(_message(path, errors[0], data)) from None
    storage = model.storage or str(folder.resolve() / f"{path.stem}.journal")
    if model.artifacts is not None:
        artifacts = Path(model.artifacts)
        artifacts = artifacts if artifacts.is_absolute() else (folder / artifacts).resolve()
    else:
        artifacts = _default_artifacts(path, storage)
    return StudyConfig(path, text, model, storage, artifacts, model.overrides)


def _field_order(error) -> int:
    names = list(FIELD_INFO)
    loc = error["loc"]
    return names.index(loc[0]) if loc and loc[0] in names else len(names)


def read_study_file(path, storage: Optional[str] = None) -> StudyConfig:
    """The study a file describes, fully checked; no storage is opened. `storage` (a command's `--storage`)
    replaces the file's storage."""
    path = Path(path)
    if path.suffix != ".toml":
        raise StudyFileError(f"{path}: a study file is a .toml file")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise StudyFileError(f"{path}: no such study file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise StudyFileError(f"{path}: cannot read ({error})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise StudyFileError(f"{path}: not valid TOML ({error})") from None
    config = parse_study(data, path, text)
    return config if storage is None else config.with_storage(storage)


# ---- the README's table -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class FieldDoc:
    name: str
    type: str
    default_text: str
    doc: str


def _default_text(name: str) -> str:
    info = FIELD_INFO[name]
    if "default_text" in _texts(name):
        return _texts(name)["default_text"]
    if info.is_required():
        return "required"
    return "-" if info.default is None else json.dumps(info.default)


FIELDS = [FieldDoc(name, _texts(name)["type_text"], _default_text(name), info.description or "")
          for name, info in FIELD_INFO.items()]


def fields_markdown() -> str:
    """The README's table of study-file fields."""
    rows = ["| field | type | default | meaning |", "|---|---|---|---|"]
    rows += [f"| `{f.name}` | {f.type} | {f.default_text} | {f.doc} |" for f in FIELDS]
    return "\n".join(rows)


__all__ = ["FIELDS", "HALL_OF_FAME", "STUDY_PREFIX", "Override", "StudyConfig", "StudyFile", "StudyFileError",
           "check_bot_name", "fields_markdown", "parse_study", "read_study_file", "resolve_bot_name",
           "search_overrides"]
