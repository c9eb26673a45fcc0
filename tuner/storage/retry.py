"""Running again a trial that did not finish: its worker died (heartbeat) or was stopped (Ctrl-C).

Optuna's retry callback (`RetryHeartbeatStaleTrialCallback`, formerly `RetryFailedTrialCallback`) enqueues a
WAITING copy of the failed trial: the same parameters, and system attributes `failed_trial` (the first trial of
the series) and `retry_history`. A worker then runs the copy before any new trial. The copy keeps the trial's
CMA-ES generation and sample (`x_for_tell`), so it counts in that generation as the lost trial would have; it
drops the CMA-ES state a trial may carry (`...:optimizer:N`, the pickled optimizer), which would otherwise roll
the sampler back to that generation once the copy completes, and the heartbeat, so the copy is not taken for
dead before it starts. Of the user attributes it keeps `baseline` only (the copy records its own results).
A series of trials is given up after MAX_RETRY retries.
"""
from __future__ import annotations

import copy

from tuner.optuna_internals import CMA_STATE_KEY_MARKERS, RetryCallback
from tuner.storage.journal import HEARTBEAT_ATTR

MAX_RETRY = 3
KEPT_USER_ATTRS = ("baseline",)


def _kept_system_attr(key: str) -> bool:
    return not any(marker in key for marker in CMA_STATE_KEY_MARKERS) and key != HEARTBEAT_ATTR


class RetryTrial(RetryCallback):
    """Optuna's retry callback on the failed trial without its sampler state (see the module doc)."""

    def __init__(self) -> None:
        super().__init__(max_retry=MAX_RETRY)

    def __call__(self, study, trial) -> None:
        trial = _without_state(trial)
        super().__call__(study, trial)


def _without_state(trial):
    trial = copy.deepcopy(trial)  # Optuna's callback appends to the copied retry_history list
    trial.system_attrs = {k: v for k, v in trial.system_attrs.items() if _kept_system_attr(k)}
    trial.user_attrs = {k: v for k, v in trial.user_attrs.items() if k in KEPT_USER_ATTRS}
    return trial
