"""A study file's fields as a declarative model (pydantic, unknown fields forbidden): each field's type, range,
default and meaning are written once, on the field (the documentation's table is generated from them:
`tuner.studyfile.field_table`); the validators check each field and the rules between fields, and raise
`FieldProblem`s that `tuner.studyfile.messages` words as one line."""
from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any, Literal, Optional

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic.fields import FieldInfo

from bots.contract.names import PROGRAM_PREFIX, BotSpecError
from bots.contract.paramfile import read_param_file
from bots.contract.schema import ParamError, Schema
from bots.registry import REGISTERED, schema_for, tunable
from engine.players import MAX_TIME_LIMIT_MS
from tuner.programs.program import CPP_PREFIX, ProgramBot, ProgramError
from tuner.storage.url import StorageURL, StorageURLError
from tuner.studyfile.entries import HALL_OF_FAME, check_bot_name, hall_of_fame_entry, relative_bot
from tuner.studyfile.overrides import playing_budget_values, search_overrides
from tuner.studyfile.problems import FieldProblem, show
from tuner.studyfile.program_budget import check_budget

MAX_PAIRS = 100_000
MAX_TRIALS = 10_000_000
MAX_HEARTBEAT_S = 86_400  # one day
SEED_MIN, SEED_MAX = -(2**63), 2**63 - 1
SAMPLERS = ("cmaes", "tpe", "random", "nsga2")


def field_doc(type_text: str, doc: str, allowed: Optional[str] = None, default_text: Optional[str] = None) -> dict:
    """A field's documentation: its type as the documentation shows it, what its errors say is allowed (when it
    differs) and its default as the documentation shows it (when it is not the Python default)."""
    extra = {"type_text": type_text}
    if allowed is not None:
        extra["allowed"] = allowed
    if default_text is not None:
        extra["default_text"] = default_text
    return {"description": doc, "json_schema_extra": extra}


class StudyFile(BaseModel):
    """A study file's fields, checked; relative paths resolved against the study file's folder."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, validate_default=False)

    name: str = Field(..., **field_doc(
        "string", "study name in the storage; the same name and storage resume the study",
        allowed="a non-empty string"))
    league: int = Field(..., ge=1, le=3, **field_doc(
        "1, 2 or 3", "league the games are played in: 1 = Wood 2, 2 = Wood 1, 3 = Bronze+",
        allowed="1 (Wood 2), 2 (Wood 1) or 3 (Bronze+)"))
    seed: int = Field(..., ge=SEED_MIN, le=SEED_MAX, **field_doc(
        "integer", "seeds the sampler, the search seeds and the held-out validation seeds (reproducible runs)"))
    bot: str = Field("heuristic", **field_doc(
        "string", "bot whose parameters are tuned: a registered bot with parameters (`heuristic`, `greedy`, "
        "`sunrate`, ...: `tuner params --bot NAME`), or a program `cmd:<command line>` whose `{name}` placeholders "
        "(or `{params_file}`, a JSON file of every value) take the trial's values of `parameters`, or "
        "`cpp:SOURCE.cpp <arguments>`: a C++ source the tuner builds as CodinGame does, then runs with the arguments",
        allowed="a bot with parameters, cmd:<command line> or cpp:SOURCE.cpp <arguments>"))
    search_bot: Optional[str] = Field(None, **field_doc(
        "string", "the bot the search plays in place of the tuned one: a registered bot whose parameters are all "
        "parameters of the tuned bot (`heuristic`: the rollout policy of `mcts`, as a bot of its own), so that the "
        "search plays its cheap games; the finals, the gauntlets and the export play the tuned bot at the playing "
        "budget, which confirm what the search found where it plays. Default: the tuned bot",
        allowed="a registered bot whose parameters the tuned bot has too"))
    parameters: Optional[dict[str, Any]] = Field(None, **field_doc(
        "table", "a program bot's parameters: `NAME = { type = \"int\" or \"float\", low = ..., high = ..., "
        "default = ..., log = false }` or `NAME = { type = \"choice\", choices = [...], default = ... }` "
        "(docs/program-bots.md)", allowed="a table of NAME = { type = ..., ... }"))
    baseline: Optional[str] = Field(None, **field_doc(
        "string", "a parameter file of the tuned bot (`tuner export --params-out`; relative to the study file): "
        "the parameters the search starts from and every gain is measured against, in place of the bot's defaults "
        "(your own bot's values, or a naive start)", allowed="the path of a parameter file of the tuned bot"))
    storage: Optional[str] = Field(None, **field_doc(
        "path or URL",
        "default: `<study file name>.journal` beside the study file (Optuna's journal file, which `optuna-dashboard` "
        "opens as it is; `journal_format` for a compact one). A relative path is relative to the study file; an "
        "Optuna storage URL (`sqlite:///`, "
        "`postgresql://`, `mysql://`, `redis://`) also works: PostgreSQL for long studies and several machines "
        "(docs/storage.md)", allowed="a journal file path or a storage URL"))
    journal_format: Literal["optuna", "compact"] = Field("optuna", **field_doc(
        "string", "format of a new journal file: `optuna` (Optuna's JSON lines, about 10 kB a trial, what "
        "`optuna-dashboard` and every Optuna program read) or `compact` (about 1.5 kB a trial and a snapshot cache "
        "for fast loading, read by this tuner only: docs/storage.md); an existing journal keeps its format",
        allowed="`optuna` or `compact`"))
    artifacts: Optional[str] = Field(None, **field_doc(
        "path", "artifact store (exported bot of each new best trial); default: `<storage name>-artifacts/` beside a "
        "journal file, else `<study file name>-artifacts/` beside the study file", allowed="a non-empty string"))
    sampler: Literal["cmaes", "tpe", "random", "nsga2"] = Field("cmaes", **field_doc(
        "string", "`cmaes` (evolutionary, starts from the schema defaults), `tpe`, `random`, or `nsga2` (several "
        "objectives)", allowed="one of " + ", ".join(SAMPLERS)))
    population: Optional[int] = Field(None, ge=2, le=10_000, **field_doc(
        "integer >= 2", "population of `cmaes` (default 4 + 3 ln(number of searched parameters)) or `nsga2` "
        "(default 50); also how often the hall of fame is refreshed (tpe, random: every 10 trials)"))
    sigma: Optional[float] = Field(None, gt=0, le=1, **field_doc(
        "number in (0, 1]", "CMA-ES's initial step size, as a fraction of each searched parameter's range: small "
        "values search near the defaults first (Optuna's own default, 1/6, strays far from well-tuned defaults)",
        allowed="a number in (0, 1]", default_text="0.05"))
    trials: Optional[int] = Field(None, ge=1, le=MAX_TRIALS, **field_doc(
        f"integer >= 1, at most {MAX_TRIALS}", "total trials of the study (finished ones count on resume); "
        "`trials`, `timeout` or both", allowed=f"an integer >= 1, at most {MAX_TRIALS}"))
    timeout: Optional[float] = Field(None, gt=0, **field_doc(
        "seconds > 0", "time budget of one `tuner tune` run", allowed="a number of seconds > 0"))
    pairs: int = Field(250, ge=1, le=MAX_PAIRS, **field_doc(
        "integer >= 1", "seed pairs per opponent per trial; each seed is played twice with sides swapped, and every "
        "trial plays the same seeds (common random numbers)"))
    opponents: list[str] = Field(["heuristic"], **field_doc(
        "list of bot names", "opponent pool: bot names (`heuristic`, `greedy`, `heuristic:FILE.json`, "
        "`study:OTHER.toml`, ...) and `hall-of-fame:K`, the K best earlier trials of this study",
        allowed="a non-empty list of bot names and hall-of-fame:K"))
    opponent_shares: dict[str, float] = Field({}, **field_doc(
        "table", "`\"ENTRY\" = share` meets a pool entry on that share of the seed pairs only (evenly spread, in "
        "(0, 1]; default 1): a slow opponent (`search:N`) met on fewer pairs leaves time for more trials, and a "
        "trial's score still weighs every opponent the same (docs/how-a-study-works.md, \"Slow opponents\")",
        allowed="a table of pool entry = a number in (0, 1]"))
    objectives: Optional[Literal["mean", "min-gain", "per-opponent"]] = Field(None, **field_doc(
        "string", "`mean`: one objective, the win rate over all opponents; `min-gain`: one objective, the soft "
        "minimum over the pool's opponents of the trial's gain over the baseline on the same seeds (a gain "
        "against some opponents does not buy a loss against another; docs, \"Strength that transfers\"); "
        "`per-opponent`: a win rate per pool entry (tpe, random, nsga2). Default: `per-opponent` with nsga2, else "
        "`mean`", allowed="one of mean, min-gain, per-opponent"))
    min_gain_softness: float = Field(0.02, ge=0, le=1, **field_doc(
        "number in [0, 1]", "with `min-gain`: how soft the minimum is, in win-rate units: 0 scores a trial by its "
        "worst gain alone, larger values move toward the mean gain", allowed="a number in [0, 1]"))
    margin_weight: float = Field(0.0, ge=0, le=1, **field_doc(
        "number in [0, 1]", "a seed pair's score: its points (win 1, draw 1/2) blended with this weight with a "
        "reward of each game's score margin, 1/2 + margin / (2 (|margin| + margin_scale)); the race, the trials' "
        "gains and the finals all score pairs so. 0: points only. Above 0, a closer loss scores higher, so a search "
        "from a start that loses every game still has a direction", allowed="a number in [0, 1]"))
    margin_scale: float = Field(20.0, gt=0, le=200, **field_doc(
        "points > 0", "with `margin_weight`: the score margin that makes a game's margin reward 3/4 (a loss by as "
        "much: 1/4)", allowed="a number of points in (0, 200]"))
    race: Optional[Literal["wilcoxon", "none"]] = Field(None, **field_doc(
        "string", "`wilcoxon`: race each generation on common seeds and drop a trial that a Wilcoxon signed-rank test "
        "finds worse than the generation's leader; `none`: every trial plays every pair. Default: `wilcoxon` with "
        "one objective, else `none`", allowed="one of wilcoxon, none"))
    race_p: float = Field(0.1, gt=0, lt=1, **field_doc(
        "number in (0, 1)", "p-value under which the race drops a trial", allowed="a number in (0, 1)"))
    race_first_pairs: int = Field(20, ge=2, **field_doc(
        "integer >= 2", "seed pairs a trial plays before it can be dropped (the race's first block)"))
    finals_pairs: int = Field(500, ge=0, le=MAX_PAIRS, **field_doc(
        "integer >= 0", "held-out seed pairs (never used in the search) on which `tuner tune` re-evaluates its "
        "finalists, per validation opponent; 0: no finals"))
    validation_opponents: Optional[list[str]] = Field(None, **field_doc(
        "list of bot names", "opponents of the validation; default: the pool's bots without the hall of fame "
        "(`heuristic` if none)", allowed="a non-empty list of bot names"))
    held_out_opponents: list[str] = Field([], **field_doc(
        "list of bot names", "opponents no trial meets in the search: the finalists are chosen on them and on "
        "`validation_opponents`, the two groups weighing the same (with `min-gain` the score is the soft minimum "
        "of the groups' soft minima, with `mean` the mean of their means), and the final gauntlet reports the "
        "chosen bot's gain on each group apart: what survives against styles the tuning never saw",
        allowed="a list of bot names that are not in 'opponents'"))
    finalists: int = Field(5, ge=0, le=50, **field_doc(
        "integer >= 0", "at the end of a run, the best fully played trials re-evaluated on held-out seeds against "
        "`validation_opponents`, with the latest generations' best and CMA-ES's mean: the best of them becomes "
        "the study's exported bot (0: the best trial of the search)"))
    finals_confidence: float = Field(0.0, ge=0, lt=1, **field_doc(
        "number in [0, 1)", "how sure the finals must be that a finalist beats the baseline to choose it: the share "
        "of bootstrap resamples of the validation seed pairs in which its score is above the baseline's (0.9: nine "
        "in ten); a finalist short of it is not chosen, and with none the baseline is. 0: the best score is "
        "chosen", allowed="a number in [0, 1)"))
    first_timeout: float = Field(1000.0, gt=0, le=MAX_TIME_LIMIT_MS, **field_doc(
        f"milliseconds in (0, {MAX_TIME_LIMIT_MS}]", "time limit of a program's first answer in a game (CodinGame: "
        "1000; at most one hour)", allowed=f"a number of milliseconds in (0, {MAX_TIME_LIMIT_MS}] (at most one hour)"))
    turn_timeout: float = Field(100.0, gt=0, le=MAX_TIME_LIMIT_MS, **field_doc(
        f"milliseconds in (0, {MAX_TIME_LIMIT_MS}]", "time limit of a program's later answers (CodinGame: 100; at "
        "most one hour); a busy machine may need slack",
        allowed=f"a number of milliseconds in (0, {MAX_TIME_LIMIT_MS}] (at most one hour)"))
    budget_margin: float = Field(10.0, ge=0, le=MAX_TIME_LIMIT_MS, **field_doc(
        "milliseconds >= 0", "a program with a `time_ms` parameter (its time per move): the margin added to the "
        "limits at a budget shorter than the playing one, which scale with the budget (the study's own limits at the "
        "playing budget; docs/program-bots.md, \"A search program\"): at a few ms a move, a busy machine's scheduling "
        "delays are as long as a move", allowed=f"a number of milliseconds in [0, {MAX_TIME_LIMIT_MS}]"))
    heartbeat_interval: int = Field(10, ge=1, le=MAX_HEARTBEAT_S, **field_doc(
        f"integer >= 1, at most {MAX_HEARTBEAT_S}", "seconds between the heartbeats a running trial records in the "
        "storage (at most one day)", allowed=f"an integer >= 1, at most {MAX_HEARTBEAT_S} (seconds: one day)"))
    grace_period: int = Field(60, ge=1, le=MAX_HEARTBEAT_S, **field_doc(
        f"integer > heartbeat_interval, at most {MAX_HEARTBEAT_S}", "seconds without a heartbeat after which a "
        "running trial is taken for dead "
        "(its worker was killed or its machine lost): any worker of the study then marks it FAIL and runs its "
        "parameters again (at most one day)",
        allowed=f"an integer > heartbeat_interval, at most {MAX_HEARTBEAT_S} (seconds: one day)"))
    outage_limit: int = Field(300, ge=0, le=MAX_HEARTBEAT_S, **field_doc(
        f"integer >= 0, at most {MAX_HEARTBEAT_S}", "seconds a worker waits for its storage to come back (a database "
        "restarted or cut off, a journal's disk full) before it stops with exit status 75, its study intact (0: "
        "stop at the first failure)", allowed=f"an integer >= 0, at most {MAX_HEARTBEAT_S} (seconds: one day)"))
    search: dict[str, Any] = Field({}, **field_doc(
        "table", "search-space overrides: `name = value` fixes a parameter, `name = [low, high]` narrows its range",
        allowed="a table of parameter = value or [low, high]"))
    playing_budget: dict[str, Any] = Field({}, **field_doc(
        "table", "the playing budget: `name = value` for parameters fixed in [search] (a search bot's budget: the "
        "trials play at the short one), the values the finals and the final gauntlet play every finalist and the "
        "baseline with. A finalist whose gain at the search's budget does not hold at this one is not chosen; the "
        "gauntlet reports both budgets", allowed="a table of parameter = value, each parameter fixed in [search]"))

    _overrides: dict = PrivateAttr(default_factory=dict)
    _playing_budget: dict = PrivateAttr(default_factory=dict)
    _baseline: Optional[dict] = PrivateAttr(default=None)
    _program: Optional[ProgramBot] = PrivateAttr(default=None)

    # ---- fields -------------------------------------------------------------------------------------------
    @field_validator("name", "artifacts", mode="before")
    @classmethod
    def _non_empty_string(cls, value, info: ValidationInfo):
        if not isinstance(value, str) or not value.strip():
            raise FieldProblem(f"must be a non-empty string, got {show(value)}")
        value = value.strip()
        if info.field_name == "name" and ("\n" in value or len(value) > 200):
            raise FieldProblem("must be one line of at most 200 characters")
        return value

    @field_validator("bot", mode="before")
    @classmethod
    def _tunable_bot(cls, value):
        allowed = tunable()
        if isinstance(value, str) and value.strip().startswith((PROGRAM_PREFIX, CPP_PREFIX)):
            return value.strip()
        if not isinstance(value, str) or value.strip() not in allowed:
            close = difflib.get_close_matches(value, allowed, n=1) if isinstance(value, str) else []
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise FieldProblem(f"must be one of {', '.join(allowed)}, {PROGRAM_PREFIX}<command line> or "
                               f"{CPP_PREFIX}SOURCE.cpp <arguments>, got {show(value)}{hint}")
        return value.strip()

    @field_validator("storage", mode="before")
    @classmethod
    def _storage_url(cls, value, info: ValidationInfo):
        try:
            return StorageURL.parse(value, folder_of(info)).text
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
            raise FieldProblem(f"must be a non-empty list of {what}, got {show(value)}")
        league = info.data.get("league", 3)
        out: list[str] = []
        for entry in value:
            if not isinstance(entry, str) or not entry.strip():
                raise FieldProblem(f"entries must be bot names (strings), got {show(entry)}")
            entry = entry.strip()
            if entry.startswith(HALL_OF_FAME):
                entry = hall_of_fame_entry(entry, pool, out)
            else:
                try:
                    check_bot_name(relative_bot(entry, folder_of(info)), league)
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
            raise FieldProblem(f"must be a table of pool entry = a number in (0, 1], got {show(value)}")
        pool = info.data.get("opponents")
        out = {}
        for entry, share in value.items():
            where = f"opponent_shares.{entry}"
            if pool is not None and entry not in pool:
                raise FieldProblem(f"{entry!r} is not an entry of 'opponents' ({', '.join(pool)})", where)
            if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 < share <= 1:
                raise FieldProblem(f"must be a number in (0, 1], got {show(share)}", where)
            out[entry] = float(share)
        return out

    @field_validator("search", mode="before")
    @classmethod
    def _search_table(cls, value):
        if not isinstance(value, dict):
            raise FieldProblem(f"must be a table of parameter = value or [low, high], got {show(value)}")
        return value

    @field_validator("playing_budget", mode="before")
    @classmethod
    def _playing_budget_table(cls, value):
        if not isinstance(value, dict):
            raise FieldProblem(f"must be a table of parameter = value, got {show(value)}")
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
        if self.race == "wilcoxon" and self.objectives_resolved == "per-opponent":
            raise FieldProblem("'wilcoxon' races one objective; with objectives = 'per-opponent' use race = "
                               "'none'", "race")
        if self.grace_period <= self.heartbeat_interval:
            raise FieldProblem(f"must be an integer > heartbeat_interval ({self.heartbeat_interval}), got "
                               f"{self.grace_period}", "grace_period")
        schema = self._program_schema(folder_of(info))
        self._overrides = search_overrides(self.search, schema)
        if self._program is not None:
            check_budget(self._program.parameters, self._overrides)
        if all(name in self._overrides and self._overrides[name].fixed for name in (p.name for p in schema)):
            raise FieldProblem("every parameter is fixed; leave at least one to search", "search")
        self._playing_budget = playing_budget_values(self.playing_budget, schema, self._overrides)
        if self.search_bot is not None:
            _check_search_bot(self.search_bot, self.bot, schema)
        if self.baseline is not None:
            self._baseline = baseline_values(self.baseline, folder_of(info), self.bot, self.program is not None)
        return self

    def _program_schema(self, folder: Path) -> Schema:
        """The tuned bot's schema; a program's is its `[parameters]`, checked against its command line."""
        if not self.bot.startswith((PROGRAM_PREFIX, CPP_PREFIX)):
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
        source = self._program.source
        if source is not None and not source.is_file():
            raise FieldProblem(f"no such C++ source {source} (the first word of a {CPP_PREFIX} bot, relative to the "
                               f"study file)", "bot")
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
    def baseline_values(self) -> Optional[dict]:
        """The `baseline` parameter file's values (name -> value), or None: the bot's defaults."""
        return self._baseline

    @property
    def playing_budget_values(self) -> dict:
        """The `playing_budget` table, checked (name -> value)."""
        return self._playing_budget

    @property
    def objectives_resolved(self) -> str:
        return self.objectives or ("per-opponent" if self.sampler == "nsga2" else "mean")


def _check_search_bot(name: str, bot: str, schema: Schema) -> None:
    """FieldProblem unless `name` is a registered bot whose every parameter the tuned bot has, of the same type."""
    if bot.startswith(PROGRAM_PREFIX):
        raise FieldProblem(f"applies to a registered bot only (bot is a program: {bot!r})", "search_bot")
    if name not in REGISTERED:
        raise FieldProblem(f"unknown bot {name!r} (registered: {', '.join(REGISTERED)})", "search_bot")
    theirs = {p.name: p.type for p in schema}
    missing = [p.name for p in schema_for(name) if theirs.get(p.name) != p.type]
    if not list(schema_for(name)) or missing:
        raise FieldProblem(f"{name!r} has parameters that {bot!r} has not (of the same type): "
                           f"{', '.join(missing) or 'none at all'}; the search plays it with the trial's values of "
                           f"them", "search_bot")


def baseline_values(text: str, folder: Path, bot: str, program: bool) -> dict:
    """The values of a `baseline` parameter file, which must be the tuned bot's."""
    if program:
        raise FieldProblem("applies to an in-engine bot (a program bot's start is its [parameters]' defaults)",
                           "baseline")
    if not isinstance(text, str) or not text.strip():
        raise FieldProblem(f"must be the path of a parameter file, got {show(text)}", "baseline")
    path = Path(text.strip())
    try:
        found = read_param_file(path if path.is_absolute() else folder / path)
    except ParamError as error:
        raise FieldProblem(str(error), "baseline") from None
    if found.bot != bot:
        raise FieldProblem(f"{text} is a parameter file of bot {found.bot!r}, not of the tuned bot {bot!r}", "baseline")
    return found.params


def folder_of(info: ValidationInfo) -> Path:
    """The study file's folder, which relative paths in its fields are relative to."""
    return (info.context or {}).get("folder", Path.cwd())


FIELD_INFO: dict[str, FieldInfo] = StudyFile.model_fields


def field_texts(name: str) -> dict[str, str]:
    """A field's documentation texts (`type_text`, `allowed`, `default_text`: see `field_doc`)."""
    extra = FIELD_INFO[name].json_schema_extra
    return {key: str(value) for key, value in extra.items()} if isinstance(extra, dict) else {}

