"""Study files (TOML): what a tuning study searches, against whom, for how long and where it is stored.

The whole file is checked before any storage is touched. Every problem is one line naming the file, the
field, the value and what is allowed (`StudyFileError`, a `UserError`). `FIELDS` documents every field; the
README's table is written from it and a test keeps the two in step.

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

import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from tuner.errors import UserError

SAMPLERS = ("cmaes", "tpe", "random", "nsga2")
PRUNERS = ("wilcoxon", "none")
OBJECTIVES = ("mean", "per-opponent")
STORAGE_SCHEMES = ("sqlite", "postgresql", "mysql", "redis", "rediss")
HALL_OF_FAME = "hall-of-fame"
MAX_PAIRS = 100_000
SEED_MIN, SEED_MAX = -(2**63), 2**63 - 1
REQUIRED = object()


class StudyFileError(UserError):
    """A study file that cannot be read or does not describe a study."""


@dataclass(frozen=True)
class Field:
    name: str
    type: str  # as the README and the error messages say it
    default: Any  # REQUIRED, or the default (None: none, see the doc)
    doc: str

    @property
    def default_text(self) -> str:
        if self.default is REQUIRED:
            return "required"
        if self.default is None:
            return "-"
        return json.dumps(self.default)


FIELDS = [
    Field("name", "string", REQUIRED, "study name in the storage; the same name and storage resume the study"),
    Field("league", "1, 2 or 3", REQUIRED, "league the games are played in: 1 = Wood 2, 2 = Wood 1, 3 = Bronze+"),
    Field("seed", "integer", REQUIRED,
          "seeds the sampler, the search seeds and the held-out validation seeds (reproducible runs)"),
    Field("bot", "string", "heuristic", "bot whose parameters are tuned (its schema: `tuner params`)"),
    Field("storage", "path or URL", None,
          "default: `<study file name>.journal` beside the study file (an Optuna journal file, which "
          "optuna-dashboard opens directly). A relative path is relative to the study file; an Optuna "
          "storage URL (`sqlite:///`, `postgresql://`, `mysql://`, `redis://`) also works: PostgreSQL for long "
          "studies and several machines (README, \"Scaling out\")"),
    Field("artifacts", "path", None,
          "artifact store (exported bot of each new best trial); default: `<storage name>-artifacts/` beside a "
          "journal file, else `<study file name>-artifacts/` beside the study file"),
    Field("sampler", "string", "cmaes",
          "`cmaes` (evolutionary, starts from the schema defaults), `tpe`, `random`, or `nsga2` (several "
          "objectives)"),
    Field("population", "integer >= 2", None,
          "population of `cmaes` (default 4 + 3 ln(number of searched parameters)) or `nsga2` (default 50); "
          "also how often the hall of fame is refreshed (tpe, random: every 10 trials)"),
    Field("sigma", "number in (0, 1]", 0.05,
          "CMA-ES's initial step size, as a fraction of each searched parameter's range: small values search "
          "near the defaults first (Optuna's own default, 1/6, strays far from well-tuned defaults)"),
    Field("trials", "integer >= 1", None,
          "total trials of the study (finished ones count on resume); `trials`, `timeout` or both"),
    Field("timeout", "seconds > 0", None, "time budget of one `tuner tune` run"),
    Field("pairs", "integer >= 1", 250,
          "seed pairs per opponent per trial; each seed is played twice with sides swapped, and every trial "
          "plays the same seeds (common random numbers)"),
    Field("opponents", "list of bot names", ["heuristic"],
          "opponent pool: bot names (`heuristic`, `greedy`, `heuristic:FILE.json`, `study:OTHER.toml`, ...) and "
          "`hall-of-fame:K`, the K best earlier trials of this study"),
    Field("objectives", "string", None,
          "`mean`: one objective, the win rate over all opponents; `per-opponent`: a win rate per pool entry "
          "(tpe, random, nsga2). Default: `per-opponent` with nsga2, else `mean`"),
    Field("pruner", "string", None,
          "`wilcoxon` (Optuna's WilcoxonPruner: stop a trial clearly worse than the best on the same seeds) or "
          "`none`. Default: `wilcoxon` with one objective, else `none`"),
    Field("pruner_p", "number in (0, 1)", 0.1, "p-value under which the Wilcoxon pruner stops a trial"),
    Field("pruner_startup_pairs", "integer >= 2", 20, "seed pairs a trial plays before it can be pruned"),
    Field("validation_pairs", "integer >= 0", 500,
          "held-out seed pairs (never used in the search) on which `tuner tune` re-evaluates the best trial, "
          "per validation opponent; 0: no validation"),
    Field("validation_opponents", "list of bot names", None,
          "opponents of the validation; default: the pool's bots without the hall of fame (`heuristic` if none)"),
    Field("heartbeat_interval", "integer >= 1", 10,
          "seconds between the heartbeats a running trial records in the storage"),
    Field("grace_period", "integer > heartbeat_interval", 60,
          "seconds without a heartbeat after which a running trial is taken for dead (its worker was killed or its "
          "machine lost): any worker of the study then marks it FAIL and runs its parameters again"),
    Field("search", "table", {},
          "search-space overrides: `name = value` fixes a parameter, `name = [low, high]` narrows its range"),
]
FIELD_NAMES = [f.name for f in FIELDS]
BY_NAME = {f.name: f for f in FIELDS}

# The settings that decide what a trial is: a study resumes only if they are unchanged.
SEARCH_SETTINGS = ("bot", "league", "seed", "sampler", "population", "sigma", "pairs", "opponents", "objectives",
                   "pruner", "pruner_p", "pruner_startup_pairs", "search")


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


@dataclass
class StudyConfig:
    path: Path
    text: str
    name: str
    league: int
    seed: int
    bot: str = "heuristic"
    storage: str = ""  # an absolute journal path, or a storage URL
    storage_source: str = "field 'storage'"  # where the storage was given, for error messages
    artifacts: Path = Path()
    sampler: str = "cmaes"
    population: Optional[int] = None
    sigma: Optional[float] = None
    trials: Optional[int] = None
    timeout: Optional[float] = None
    pairs: int = 250
    opponents: list = field(default_factory=list)
    objectives: str = "mean"
    pruner: str = "wilcoxon"
    pruner_p: float = 0.1
    pruner_startup_pairs: int = 20
    validation_pairs: int = 500
    validation_opponents: list = field(default_factory=list)
    heartbeat_interval: int = 10
    grace_period: int = 60
    search: dict = field(default_factory=dict)  # name -> Override

    @property
    def storage_is_journal_file(self) -> bool:
        return "://" not in self.storage

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

    def with_storage(self, url: str) -> "StudyConfig":
        """The same study on another storage (`--storage`; a relative path is relative to the current directory)."""
        where = f"{self.path}: --storage"
        storage = _storage(url, Path.cwd(), where)
        artifacts = _default_artifacts(self.path, storage)
        return _replace(self, storage=storage, artifacts=artifacts, storage_source="--storage")


def _replace(config: StudyConfig, **changes) -> StudyConfig:
    from dataclasses import replace

    return replace(config, **changes)


# ---- field checks -------------------------------------------------------------------------------------------

def _where(path: Path, name: str) -> str:
    return f"{path}: field {name!r}"


def _type_name(value) -> str:
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "a list",
            dict: "a table"}.get(type(value), type(value).__name__)


def _show(value) -> str:
    return json.dumps(value) if isinstance(value, (str, list, dict)) else repr(value)


def _string(path, name, value) -> str:
    if not isinstance(value, str) or not value.strip():
        raise StudyFileError(f"{_where(path, name)} must be a non-empty string, got {_show(value)}")
    return value.strip()


def _integer(path, name, value, low=None, high=None) -> int:
    f = BY_NAME[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise StudyFileError(f"{_where(path, name)} must be {f.type}, got {_type_name(value)} {_show(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        allowed = f.type if high is None else f"an integer in [{low}, {high}]"
        raise StudyFileError(f"{_where(path, name)} must be {allowed}, got {value}")
    return value


def _number(path, name, value) -> float:
    f = BY_NAME[name]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise StudyFileError(f"{_where(path, name)} must be {f.type}, got {_type_name(value)} {_show(value)}")
    return float(value)


def _choice(path, name, value, allowed) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise StudyFileError(f"{_where(path, name)} must be one of {', '.join(allowed)}, got {_show(value)}")
    return value


def _bot_names(path, name, value, league: int, allow_hall_of_fame: bool) -> list:
    from bots.registry import BotSpecError, parse_bot

    what = "bot names" + (" and hall-of-fame:K" if allow_hall_of_fame else "")
    if not isinstance(value, list) or not value:
        raise StudyFileError(f"{_where(path, name)} must be a non-empty list of {what}, got {_show(value)}")
    out = []
    for entry in value:
        if not isinstance(entry, str) or not entry.strip():
            raise StudyFileError(f"{_where(path, name)}: entries must be bot names (strings), got {_show(entry)}")
        entry = entry.strip()
        if entry.startswith(HALL_OF_FAME):
            if not allow_hall_of_fame:
                raise StudyFileError(f"{_where(path, name)}: {entry!r} is allowed in 'opponents' only")
            _, sep, k = entry.partition(":")
            if entry.partition(":")[0] != HALL_OF_FAME or not sep or not k.isdigit() or not 1 <= int(k) <= 50:
                raise StudyFileError(f"{_where(path, name)}: {entry!r} must be hall-of-fame:K with K in [1, 50]")
            if any(o.startswith(HALL_OF_FAME) for o in out):
                raise StudyFileError(f"{_where(path, name)}: give hall-of-fame:K once")
            entry = f"{HALL_OF_FAME}:{int(k)}"
        else:
            try:
                bot = parse_bot(_relative_bot(entry, path), league)
            except BotSpecError as error:
                raise StudyFileError(f"{_where(path, name)}: {error}") from None
            if not bot.in_engine:
                raise StudyFileError(f"{_where(path, name)}: {entry!r} is a program; the tuner plays in-engine "
                                     f"bots only (greedy, random, wait, heuristic[:FILE.json], study:STUDY.toml)")
        if entry in out:
            raise StudyFileError(f"{_where(path, name)}: {entry!r} is listed twice")
        out.append(entry)
    return out


def _relative_bot(name: str, study_path: Path) -> str:
    """Files in bot names (`heuristic:FILE.json`, `study:OTHER.toml`) are relative to the study file."""
    kind, sep, arg = name.partition(":")
    if sep and kind in ("heuristic", "study") and arg:
        target, hash_, trial = arg.partition("#")
        if not Path(target).is_absolute():
            candidate = study_path.parent / target
            if candidate.exists() or not Path(target).exists():
                return f"{kind}:{candidate}{hash_}{trial}"
    return name


def resolve_bot_name(config: StudyConfig, name: str) -> str:
    """A bot name of the study file, its files made relative to the study file."""
    return _relative_bot(name, config.path)


def _storage(value, base: Path, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise StudyFileError(f"{where} must be a journal file path or a storage URL, got {_show(value)}")
    value = value.strip()
    if "://" in value:
        scheme = value.split("://", 1)[0].split("+", 1)[0].lower()
        if scheme not in STORAGE_SCHEMES:
            raise StudyFileError(f"{where}: unknown storage {value!r} (allowed: a journal file path, or a URL "
                                 f"starting with {', '.join(s + '://' for s in STORAGE_SCHEMES)})")
        if scheme == "sqlite" and not value.startswith("sqlite:///"):
            raise StudyFileError(f"{where}: {value!r} must be sqlite:///RELATIVE.db or sqlite:////ABSOLUTE.db")
        if scheme == "sqlite":
            db = value[len("sqlite:///"):]
            if db and not Path(db).is_absolute():
                value = "sqlite:///" + str((base / db).resolve())
        return value
    return str((base / value).resolve())


def _default_artifacts(path: Path, storage: str) -> Path:
    if "://" not in storage:
        journal = Path(storage)
        return journal.with_name(f"{journal.stem}-artifacts")
    return path.parent.resolve() / f"{path.stem}-artifacts"


def _search(path, value, bot: str) -> dict:
    from bots.tunable import schema_for

    if not isinstance(value, dict):
        raise StudyFileError(f"{_where(path, 'search')} must be a table of parameter = value or [low, high], "
                             f"got {_show(value)}")
    schema = schema_for(bot)
    out = {}
    for name, spec in value.items():
        where = f"{path}: field 'search.{name}'"
        param = schema.by_name.get(name)
        if param is None:
            raise StudyFileError(f"{where}: unknown parameter {name!r} of bot {bot!r} (see `tuner params` for its "
                                 f"{len(schema)} parameters)")
        if isinstance(spec, list):
            if len(spec) != 2 or any(isinstance(x, bool) or not isinstance(x, (int, float)) for x in spec):
                raise StudyFileError(f"{where} must be [low, high] (two numbers) or a value, got {_show(spec)}")
            low, high = spec
            if param.type == "int" and any(float(x) != int(x) for x in spec):
                raise StudyFileError(f"{where}: {param.name} is an integer parameter, got range {_show(spec)}")
            if low > high:
                raise StudyFileError(f"{where}: range {_show(spec)} is inverted (give [low, high] with low < high "
                                     f"inside {param.range_text})")
            if low == high:
                raise StudyFileError(f"{where}: range {_show(spec)} is empty (give [low, high] with low < high, or "
                                     f"`{name} = {low}` to fix the parameter)")
            if low < param.low or high > param.high:
                raise StudyFileError(f"{where}: range {_show(spec)} leaves the parameter's range "
                                     f"({param.range_text})")
            cast = int if param.type == "int" else float
            out[name] = Override(name, low=cast(low), high=cast(high))
        else:
            from bots.schema import ParamError

            try:
                fixed = param.check(spec)
            except ParamError as error:
                raise StudyFileError(f"{where}: {error} (or give a range [low, high])") from None
            out[name] = Override(name, value=fixed)
    return out


# ---- the file -----------------------------------------------------------------------------------------------

def read_study_file(path, storage: Optional[str] = None) -> StudyConfig:
    """The study a file describes, fully checked; no storage is opened. `storage` (a command's `--storage`)
    replaces the file's storage."""
    config = _read_study_file(Path(path))
    return config if storage is None else config.with_storage(storage)


def _read_study_file(path: Path) -> StudyConfig:
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
    return parse_study(data, path, text)


def parse_study(data: dict, path: Path, text: str = "") -> StudyConfig:
    unknown = [key for key in data if key not in BY_NAME]
    if unknown:
        raise StudyFileError(f"{path}: unknown field {unknown[0]!r} (allowed: {', '.join(FIELD_NAMES)})")
    for f in FIELDS:
        if f.default is REQUIRED and f.name not in data:
            raise StudyFileError(f"{path}: missing field {f.name!r} ({f.type}: {f.doc})")

    name = _string(path, "name", data["name"])
    if "\n" in name or len(name) > 200:
        raise StudyFileError(f"{_where(path, 'name')} must be one line of at most 200 characters")
    league = data["league"]
    if isinstance(league, bool) or league not in (1, 2, 3):
        raise StudyFileError(f"{_where(path, 'league')} must be 1 (Wood 2), 2 (Wood 1) or 3 (Bronze+), "
                             f"got {_show(league)}")
    seed = _integer(path, "seed", data["seed"], SEED_MIN, SEED_MAX)
    from bots.tunable import TUNABLE

    bot = _choice(path, "bot", data.get("bot", "heuristic"), tuple(TUNABLE))

    storage = _storage(data["storage"], path.parent, _where(path, "storage")) if "storage" in data else \
        str(path.parent.resolve() / f"{path.stem}.journal")
    if "artifacts" in data:
        artifacts = Path(_string(path, "artifacts", data["artifacts"]))
        artifacts = artifacts if artifacts.is_absolute() else (path.parent / artifacts).resolve()
    else:
        artifacts = _default_artifacts(path, storage)

    sampler = _choice(path, "sampler", data.get("sampler", "cmaes"), SAMPLERS)
    population = None
    if "population" in data:
        population = _integer(path, "population", data["population"], 2, 10_000)
    sigma = 0.05 if sampler == "cmaes" else None
    if "sigma" in data:
        sigma = _number(path, "sigma", data["sigma"])
        if not 0 < sigma <= 1:
            raise StudyFileError(f"{_where(path, 'sigma')} must be a number in (0, 1], got {sigma:g}")
        if sampler != "cmaes":
            raise StudyFileError(f"{_where(path, 'sigma')} applies to sampler 'cmaes' only (sampler is {sampler!r})")
    trials = _integer(path, "trials", data["trials"], 1) if "trials" in data else None
    timeout = None
    if "timeout" in data:
        timeout = _number(path, "timeout", data["timeout"])
        if timeout <= 0:
            raise StudyFileError(f"{_where(path, 'timeout')} must be a number of seconds > 0, got {timeout:g}")
    if trials is None and timeout is None:
        raise StudyFileError(f"{path}: give 'trials' (total trials of the study), 'timeout' (seconds per run) "
                             f"or both")
    pairs = _integer(path, "pairs", data.get("pairs", 250), 1, MAX_PAIRS)
    opponents = _bot_names(path, "opponents", data.get("opponents", ["heuristic"]), league, True)

    objectives = _choice(path, "objectives", data.get("objectives", "per-opponent" if sampler == "nsga2" else "mean"),
                         OBJECTIVES)
    if objectives == "per-opponent" and sampler == "cmaes":
        raise StudyFileError(f"{_where(path, 'objectives')}: 'per-opponent' needs sampler tpe, random or nsga2 "
                             f"(cmaes optimises one objective)")
    pruner = _choice(path, "pruner", data.get("pruner", "none" if objectives == "per-opponent" else "wilcoxon"),
                     PRUNERS)
    if pruner == "wilcoxon" and objectives == "per-opponent":
        raise StudyFileError(f"{_where(path, 'pruner')}: 'wilcoxon' prunes one objective; with objectives = "
                             f"'per-opponent' use pruner = 'none'")
    pruner_p = _number(path, "pruner_p", data.get("pruner_p", 0.1))
    if not 0 < pruner_p < 1:
        raise StudyFileError(f"{_where(path, 'pruner_p')} must be a number in (0, 1), got {pruner_p:g}")
    pruner_startup_pairs = _integer(path, "pruner_startup_pairs", data.get("pruner_startup_pairs", 20), 2)
    validation_pairs = _integer(path, "validation_pairs", data.get("validation_pairs", 500), 0, MAX_PAIRS)
    fixed = [o for o in opponents if not o.startswith(HALL_OF_FAME)]
    if "validation_opponents" in data:
        validation_opponents = _bot_names(path, "validation_opponents", data["validation_opponents"], league, False)
    else:
        validation_opponents = fixed or ["heuristic"]
    heartbeat_interval = _integer(path, "heartbeat_interval", data.get("heartbeat_interval", 10), 1)
    grace_period = _integer(path, "grace_period", data.get("grace_period", 60), 1)
    if grace_period <= heartbeat_interval:
        raise StudyFileError(f"{_where(path, 'grace_period')} must be an integer > heartbeat_interval "
                             f"({heartbeat_interval}), got {grace_period}")
    search = _search(path, data.get("search", {}), bot)
    from bots.tunable import schema_for

    if all(name in search and search[name].fixed for name in (p.name for p in schema_for(bot))):
        raise StudyFileError(f"{_where(path, 'search')}: every parameter is fixed; leave at least one to search")

    return StudyConfig(path=path, text=text, name=name, league=league, seed=seed, bot=bot, storage=storage,
                       artifacts=artifacts, sampler=sampler, population=population, sigma=sigma, trials=trials,
                       timeout=timeout, pairs=pairs, opponents=opponents, objectives=objectives, pruner=pruner,
                       pruner_p=pruner_p, pruner_startup_pairs=pruner_startup_pairs, validation_pairs=validation_pairs,
                       validation_opponents=validation_opponents, heartbeat_interval=heartbeat_interval,
                       grace_period=grace_period, search=search)


def fields_markdown() -> str:
    """The README's table of study-file fields."""
    rows = ["| field | type | default | meaning |", "|---|---|---|---|"]
    for f in FIELDS:
        rows.append(f"| `{f.name}` | {f.type} | {f.default_text} | {f.doc} |")
    return "\n".join(rows)
