"""The end of a run as typed records, written and read here only: the chosen bot (`ChosenRecord`, the study's
user attribute `chosen`) and its gauntlets (`gauntlet`, `gauntlet_search_budget`, `gauntlet_defaults`).

The finals (`tuner.search.finals`) write them; the run's report, the export, `tuner report` and the dashboard's
text read them. They are stored as JSON in the study, so a study written by an older version is read with the
defaults of the fields it lacks (no budgets, no scores, no finished count).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Optional

from tuner.play.gauntlet import Gauntlet
from tuner.play.stats import Tally

CHOSEN = "chosen"
GAUNTLET = "gauntlet"  # the chosen bot against the baseline at the playing budget
GAUNTLET_SEARCH_BUDGET = "gauntlet_search_budget"  # the same at the search's budget (a study with [playing_budget])
GAUNTLET_DEFAULTS = "gauntlet_defaults"  # the bot's own defaults on the same seeds (a study with a first draft)
BASELINE = "baseline (trial 0)"  # the label of the finalist that is the study's start


@dataclass(frozen=True)
class FinalistScore:
    """A finalist's held-out games, with its score and confidence over the baseline."""

    label: str  # "trial 12", "CMA-ES mean", BASELINE
    trial: Optional[int]
    tally: Tally
    score: Optional[float] = None  # None in records written before the finals scored their finalists
    confidence: Optional[float] = None

    def to_json(self) -> dict:
        scored = {} if self.score is None else {"score": round(self.score, 6),
                                                "confidence": round(self.confidence or 0.0, 6)}
        return {"label": self.label, "trial": self.trial, **scored, **self.tally.to_json()}

    @classmethod
    def from_json(cls, data: dict) -> FinalistScore:
        return cls(data["label"], data.get("trial"), Tally.from_json(data), data.get("score"), data.get("confidence"))


@dataclass(frozen=True)
class ChosenRecord:
    """The bot a run chose among its finalists on held-out games, and how."""

    label: str
    trial: Optional[int]  # None for a bot that is no trial (CMA-ES's mean)
    params: dict  # its values at the playing budget: the ones to export
    search_params: dict  # the same values at the search's budget
    how: str  # the rule that chose it, in words (the export's header quotes it)
    finalists: list[FinalistScore]
    validation: dict  # its held-out record (the study's `validation:N` for a trial), `overall` a Tally's JSON
    finals_params: dict = field(default_factory=dict)  # the study's [playing_budget] when it was chosen
    budget: Optional[dict] = None  # the playing budget with its limits (a study with a budget)
    search_budget: Optional[dict] = None
    finals_confidence: float = 0.0
    date: Optional[str] = None
    finished: Optional[int] = None  # the study's finished trials when it was chosen: a later run chooses again

    @property
    def held_out(self) -> Tally:
        return Tally.from_json(self.validation["overall"])

    @property
    def improved(self) -> bool:
        """Whether a finalist beat the baseline (the chosen bot is not the study's start)."""
        return self.trial != 0 and self.label != BASELINE

    @property
    def scored(self) -> bool:
        """Whether the finalists have scores (records written before the finals scored them have win rates)."""
        return all(f.score is not None for f in self.finalists)

    def is_current(self, finished: int, finals_params: dict, finals_confidence: float) -> bool:
        """Whether this choice still holds for a study with `finished` trials and these finals' settings."""
        return (self.finished == finished and self.finals_params == finals_params
                and self.finals_confidence == finals_confidence)

    def with_finished(self, finished: int) -> ChosenRecord:
        return replace(self, finished=finished)

    def to_json(self) -> dict:
        budgets = {"budget": self.budget, "search_budget": self.search_budget} if self.budget else {}
        return {"label": self.label, "trial": self.trial, "params": self.params, "search_params": self.search_params,
                "finals_params": self.finals_params, **budgets, "how": self.how,
                "finals_confidence": self.finals_confidence, "finalists": [f.to_json() for f in self.finalists],
                "validation": self.validation, "date": self.date,
                **({} if self.finished is None else {"finished": self.finished})}

    @classmethod
    def from_json(cls, data: dict) -> ChosenRecord:
        return cls(data["label"], data.get("trial"), data["params"], data.get("search_params", data["params"]),
                   data.get("how", ""), [FinalistScore.from_json(f) for f in data.get("finalists", [])],
                   data["validation"], data.get("finals_params") or {}, data.get("budget"), data.get("search_budget"),
                   data.get("finals_confidence", 0.0), data.get("date"), data.get("finished"))


def read_chosen(study) -> Optional[ChosenRecord]:
    """The study's chosen bot, or None before any run chose one."""
    data = study.user_attrs.get(CHOSEN)
    return None if data is None else ChosenRecord.from_json(data)


def write_chosen(study, chosen: ChosenRecord) -> None:
    study.set_user_attr(CHOSEN, chosen.to_json())


def read_gauntlet(study, name: str = GAUNTLET) -> Optional[dict]:
    """A gauntlet's record (`Gauntlet.from_json` reads its table; the record adds `chosen`, `budget`, `date`)."""
    return study.user_attrs.get(name)


def write_gauntlet(study, name: str, record: dict) -> None:
    study.set_user_attr(name, record)


def chosen_gauntlet(study, chosen: ChosenRecord) -> Optional[Gauntlet]:
    """The chosen bot's gauntlet at the playing budget, when the study's last one is that bot's."""
    record = read_gauntlet(study)
    return Gauntlet.from_json(record) if record is not None and record.get("chosen") == chosen.label else None
