"""The study a checked study file describes (`StudyConfig`): its defaults resolved, its paths absolute, its
overrides parsed, and each field typed, so that mypy catches a misspelt one (`config.pair`)."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Literal, Optional, TypeVar, overload

from tuner.programs.program import ProgramBot
from tuner.storage.url import StorageURL, StorageURLError
from tuner.studyfile.entries import HALL_OF_FAME
from tuner.studyfile.model import StudyFile, field_texts
from tuner.studyfile.overrides import Override
from tuner.studyfile.problems import StudyFileError

# The settings that decide what a trial is: a study resumes only if they are unchanged.
SEARCH_SETTINGS = ("bot", "parameters", "league", "seed", "sampler", "population", "sigma", "pairs", "opponents",
                   "opponent_shares", "objectives", "min_gain_softness", "race", "race_p", "race_first_pairs",
                   "search", "baseline")
# The value of a setting that studies created before it existed were run with.
SETTING_BEFORE_IT_EXISTED: dict[str, Any] = {"opponent_shares": {}, "min_gain_softness": 0.02, "baseline": None}

T = TypeVar("T")


class AsWritten(Generic[T]):
    """A field of the study file read through the config as the file gives it (`config.pairs` is
    `config.file.pairs`), typed `T`: the field's own type in `StudyFile` (a test checks that they agree)."""

    name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, config: None, owner: type) -> AsWritten[T]: ...

    @overload
    def __get__(self, config: StudyConfig, owner: type) -> T: ...

    def __get__(self, config, owner):
        return self if config is None else getattr(config.file, self.name)


@dataclass(frozen=True)
class StudyConfig:
    """A checked study file with its defaults resolved, its paths absolute and its overrides parsed."""

    path: Path
    text: str
    file: StudyFile
    storage: str  # an absolute journal path, or a storage URL
    artifacts: Path
    search: dict[str, Override]  # name -> Override
    storage_source: str = "field 'storage'"  # where the storage was given, for error messages
    # The bots its names describe, each built once (`tuner.results.botnames.study_bot`): a `study:` opponent's study
    # file and storage are read once per command, a `cpp:` source checked once.
    bots: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    name = AsWritten[str]()
    league = AsWritten[int]()
    seed = AsWritten[int]()
    bot = AsWritten[str]()
    search_bot = AsWritten[Optional[str]]()
    parameters = AsWritten[Optional[dict[str, Any]]]()
    sampler = AsWritten[Literal["cmaes", "tpe", "random", "nsga2"]]()
    population = AsWritten[Optional[int]]()
    trials = AsWritten[Optional[int]]()
    timeout = AsWritten[Optional[float]]()
    pairs = AsWritten[int]()
    opponents = AsWritten[list[str]]()
    opponent_shares = AsWritten[dict[str, float]]()
    min_gain_softness = AsWritten[float]()
    margin_weight = AsWritten[float]()
    margin_scale = AsWritten[float]()
    race_p = AsWritten[float]()
    race_first_pairs = AsWritten[int]()
    finals_pairs = AsWritten[int]()
    held_out_opponents = AsWritten[list[str]]()
    finalists = AsWritten[int]()
    finals_confidence = AsWritten[float]()
    first_timeout = AsWritten[float]()
    turn_timeout = AsWritten[float]()
    journal_format = AsWritten[Literal["optuna", "compact"]]()
    budget_margin = AsWritten[float]()
    heartbeat_interval = AsWritten[int]()
    grace_period = AsWritten[int]()
    outage_limit = AsWritten[int]()

    @property
    def program(self) -> Optional[ProgramBot]:
        """The program bot it tunes (its program's paths relative to the study file), or None."""
        return self.file.program

    @property
    def baseline(self) -> Optional[dict]:
        """The `baseline` file's parameters (the search's start and the gains' reference), or None: the defaults."""
        return self.file.baseline_values

    @property
    def playing_budget(self) -> dict:
        """`[playing_budget]`: the values the finals and the final gauntlet play the bot with, in place of the ones
        the search holds fixed; empty: the search's."""
        return self.file.playing_budget_values

    def pair_value(self, margins):
        """Each seed pair's score ((..., 2) margins in, (...) out): its points, blended with the margins' reward
        (`margin_weight`, `margin_scale`)."""
        from tuner.play.stats import pair_value  # numpy and the game pools: not for reading a study file

        return pair_value(margins, self.margin_weight, self.margin_scale)

    def at_playing_budget(self, params: dict) -> dict:
        """A bot's parameters as the finals play it."""
        return {**params, **self.playing_budget}

    @property
    def sigma(self) -> Optional[float]:
        if self.file.sigma is not None:
            return self.file.sigma
        return float(field_texts("sigma")["default_text"]) if self.file.sampler == "cmaes" else None

    @property
    def objectives(self) -> str:
        return self.file.objectives_resolved

    @property
    def race(self) -> str:
        return self.file.race or ("none" if self.multi_objective else "wilcoxon")

    @property
    def validation_opponents(self) -> list[str]:
        return self.file.validation_opponents or self.fixed_opponents or ["heuristic"]

    @property
    def storage_url(self) -> StorageURL:
        return StorageURL(self.storage)

    @property
    def storage_is_journal_file(self) -> bool:
        return self.storage_url.scheme == "journal"

    @property
    def fixed_opponents(self) -> list[str]:
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
        out: dict[str, Any] = {}
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
        return StudyConfig(self.path, self.text, self.file, storage, default_artifacts(self.path, storage),
                           self.search, storage_source="--storage")


def default_artifacts(path: Path, storage: str) -> Path:
    """The artifact store of a study file at `path` without an `artifacts` field: beside its journal file, else
    beside the study file."""
    journal = StorageURL(storage).file if StorageURL(storage).scheme == "journal" else None
    if journal is not None:
        return journal.with_name(f"{journal.stem}-artifacts")
    return path.parent.resolve() / f"{path.stem}-artifacts"
