"""The tuner's CMA-ES sampler: Optuna's CmaEsSampler for trials asked a batch at a time, on an optimizer whose
arithmetic is the same on every CPU (`tuner.search.portable_cma`), so that a study is the same study on every
machine."""
from __future__ import annotations

import contextlib
import copy
import datetime
import pickle
from collections.abc import Iterator

import optuna
from optuna.distributions import FloatDistribution, IntDistribution
from optuna.trial import FrozenTrial, TrialState

from tuner.optuna_internals import SearchSpaceTransform, cmaes_sampler_module, single_value, trial_id
from tuner.search.portable_cma import portable


class BatchCmaEsSampler(optuna.samplers.CmaEsSampler):
    """Optuna's CmaEsSampler for trials asked a batch at a time, with `consider_pruned_trials`.

    - To rank a PRUNED trial by its last intermediate value, CmaEsSampler._get_trials deep-copies every PRUNED
      trial of the study on every sample: seconds per ask in a study of thousands of dropped trials. A PRUNED
      trial never changes, so its copy (shallow: setting `value` replaces the copy's list of values) is made
      once and kept. And only the trials a sample uses are looked at, newest first, down to the newest finished
      trial that stored an optimizer: the one `_restore_optimizer` takes, and every trial of its generation was
      asked after it (a generation's first ask stores the optimizer it updated). An ask costs O(generation), not
      O(study) (what remains O(study) is Optuna's list of the trials, made once a batch by `ask_batch`).
    - When a generation is complete, the next sample updates the optimizer and stores it (pickled) with the
      trial being asked, which is still RUNNING. CmaEsSampler restores the optimizer from finished trials only,
      so every later sample until that trial finishes would restore the previous generation's optimizer and
      update it again: another copy stored (a megabyte per generation), and with several workers, one that
      restores the previous generation can ask a trial of an older generation than a worker that updated
      already. Here a sample restores the optimizer of the newest trial that stored one, RUNNING included
      (not FAIL: a failed trial is retried without it), so every worker samples from the same generation.
    - Every sample unpickled the optimizer again and so recomputed its eigendecomposition: the optimizer is
      kept unpickled, by the trial that stored it, and samples from it (a sample reseeds its generator; the
      first one caches its eigendecomposition, the same for every worker). Only an update, which tells it its
      generation's results, unpickles it again, so that every worker updates the optimizer as stored.
    - `search_space`: the tuner's distributions (every trial is asked with them). CmaEsSampler would compute
      the intersection of the finished trials' spaces on every ask; it is the same space (the baseline, the
      first finished trial, has every parameter), in the same order (by name).
    - `ask_batch`: Optuna's ask writes a trial in one storage record per parameter (31 for the heuristic bot),
      and one per attribute the sampler sets; each record costs a write and a replay. Here the trial is sampled
      first and then created with everything in one record (Optuna's `create_new_trial` from a template), with
      the same parameters and attributes as Optuna's ask would give it.
    - **No sample twice.** Optuna seeds a sample with a random integer below 2**16 plus the trial's number, so
      two trials of one generation get the same parameters about once in 65,536 pairs (the quickstart's 3,000
      trials had such a pair: trials 1682 and 1684, one worker, no fault). A sample equal to one of its
      generation's is drawn again, the generator having moved on: no two trials of a generation play the same
      parameters, and a study without such a pair is the same study as before.
    - **The same study on every machine.** The optimizer it builds or restores is made portable
      (`tuner.search.portable_cma`): CMA-ES's linear algebra no longer goes through the BLAS kernels NumPy picks
      for the CPU, whose last bits differ from one CPU to the next and grow into another study.

    What is stored is CmaEsSampler's own optimizer (its CMA's methods are portable ones): a study written with
    this sampler resumes with Optuna's where this module can be imported, and an older study resumes here.
    """

    def __init__(self, search_space: dict | None = None, **kwargs):
        super().__init__(consider_pruned_trials=True, **kwargs)
        self._fixed_space = None if search_space is None else {
            name: d for name, d in sorted(search_space.items())
            if isinstance(d, (FloatDistribution, IntDistribution)) and not d.single()}
        self._pruned_copies: dict = {}
        self._newest_stored = None  # the newest trial that stored an optimizer, found by _get_trials
        self._restored: dict = {}  # trial id -> the optimizer it stored

    def ask_batch(self, study, distributions: dict, size: int, user_attrs: dict) -> list:
        """`size` trials as `study.ask(distributions)` then `set_user_attr` of each of `user_attrs` give them, each
        written in one storage record (`asked`)."""
        return list(self.asked(study, distributions, size, user_attrs))

    def asked(self, study, distributions: dict, size: int, user_attrs: dict) -> Iterator:
        """The trials of `ask_batch`, each given as soon as it is created (its games can start while the next one
        is asked). New samples only: a retried (WAITING) trial has its parameters already, and is asked from
        Optuna.

        A trial's number (which seeds its sample) is the study's next one: the caller holds the study lock, so no
        other worker creates a trial meanwhile. Optuna's ask lists every trial of the study again for each trial
        it asks (milliseconds in a study of 30,000); here the list is made once for the batch, and each trial
        created is added to it."""
        study._thread_local.cached_all_trials = None  # as Study.ask: the sampler sees the trials as they are now
        known = study._get_trials(deepcopy=False, use_cache=True)  # the list the sampler reads (Optuna's cache)
        with _transforms_reused():
            for _ in range(size):
                yield self._ask_one(study, distributions, user_attrs, known)

    def _ask_one(self, study, distributions: dict, user_attrs: dict, known: list):
        for _ in range(MAX_DRAWS):
            provisional = FrozenTrial(number=len(known), state=TrialState.RUNNING, value=None,
                                      datetime_start=datetime.datetime.now(), datetime_complete=None, params={},
                                      distributions={}, user_attrs=dict(user_attrs), system_attrs={},
                                      intermediate_values={}, trial_id=PROVISIONAL_TRIAL_ID)
            self._sample_into(study, provisional, distributions)
            if not self._drawn_before(provisional, known):
                break
        trial_id = study._storage.create_new_trial(study._study_id, template_trial=provisional)
        known.append(study._storage.get_trial(trial_id))
        return optuna.Trial(study, trial_id)

    def _drawn_before(self, provisional: FrozenTrial, known: list) -> bool:
        """Whether a trial of the sample's generation has its parameters already ("No sample twice" above). Its
        generation's trials were all asked after the trial that stored the optimizer it sampled from
        (`_newest_stored`); a sample that stored one starts its generation."""
        if self._attr_key_optimizer + ":0" in provisional.system_attrs:
            return False
        generation = provisional.system_attrs.get(self._attr_key_generation)
        source = None if self._newest_stored is None else self._newest_stored.number
        for trial in reversed(known):
            if trial.system_attrs.get(self._attr_key_generation) == generation and trial.params == provisional.params:
                return True
            if trial.number == source:
                return False
        return False

    def _sample_into(self, study, provisional: FrozenTrial, distributions: dict) -> None:
        """Sample the parameters of a trial not created yet, as Trial does: relative ones first, the others one at
        a time; the system attributes the sampler sets on it are kept in it."""
        sampling = _SamplingStudy(study, provisional)
        self.before_trial(sampling, provisional)
        space = self.infer_relative_search_space(sampling, provisional)
        relative = self.sample_relative(sampling, provisional, space)
        for name, distribution in distributions.items():
            if distribution.single():
                value = single_value(distribution)
            elif name in relative and distribution._contains(distribution.to_internal_repr(relative[name])):
                value = relative[name]
            else:
                value = self.sample_independent(sampling, provisional, name, distribution)
            # As the storage gives it back (the internal representation also checks the value).
            provisional.distributions[name] = distribution
            provisional.params[name] = distribution.to_external_repr(distribution.to_internal_repr(value))

    def infer_relative_search_space(self, study, trial):
        if self._fixed_space is None:
            return super().infer_relative_search_space(study, trial)
        return dict(self._fixed_space)

    def _restore_optimizer(self, completed_trials):
        source = self._newest_stored
        if source is None:
            return None
        key = trial_id(source)
        kept = self._restored.get(key)
        if kept is None:
            kept = self._unpickle(source)
            self._restored = {key: kept}
        if len(self._get_solution_trials(completed_trials, kept.generation)) >= kept.population_size:
            return self._unpickle(source)  # to be told its generation: as stored, as any worker restores it
        return kept

    def _unpickle(self, trial):
        attrs = {k: v for k, v in trial.system_attrs.items() if k.startswith(self._attr_key_optimizer)}
        return portable(pickle.loads(bytes.fromhex(self._concat_optimizer_attrs(attrs))))

    def _init_optimizer(self, trans, direction):
        return portable(super()._init_optimizer(trans, direction))

    def _get_trials(self, study):
        stored = self._attr_key_optimizer + ":0"
        copies = self._pruned_copies
        trials = []
        self._newest_stored = None
        for t in reversed(study._get_trials(deepcopy=False, use_cache=True)):
            if self._newest_stored is None and stored in t.system_attrs and t.state in STORED_OPTIMIZER_STATES:
                self._newest_stored = t
            if t.state == TrialState.COMPLETE:
                trials.append(t)
            elif t.state == TrialState.PRUNED and t.intermediate_values:
                key = trial_id(t)
                copied = copies.get(key)
                if copied is None:
                    value = t.intermediate_values[max(t.intermediate_values)]
                    if value is None:
                        continue
                    copied = copy.copy(t)
                    copied.value = value
                    if len(copies) >= PRUNED_COPIES:
                        copies.clear()
                    copies[key] = copied
                trials.append(copied)
            else:
                continue
            if stored in t.system_attrs:
                break
        trials.reverse()
        return trials


@contextlib.contextmanager
def _transforms_reused():
    """CmaEsSampler builds its search space's transform (`_SearchSpaceTransform`, 0.3 ms for 31 parameters) on
    every sample; within a batch each sample gets the same space, so the transform is built once. A transform
    is a pure mapping, set up by its constructor's arguments."""
    made: dict = {}

    def reused(search_space, *args, **kwargs):
        key = (tuple((name, id(d)) for name, d in search_space.items()), args, tuple(sorted(kwargs.items())))
        if key not in made:
            made[key] = SearchSpaceTransform(search_space, *args, **kwargs)
        return made[key]

    cmaes_sampler_module._SearchSpaceTransform = reused
    try:
        yield
    finally:
        cmaes_sampler_module._SearchSpaceTransform = SearchSpaceTransform


PROVISIONAL_TRIAL_ID = -1  # the id of a trial sampled before it is created (BatchCmaEsSampler.ask_batch)
MAX_DRAWS = 8  # samples drawn for a trial until one is new to its generation (BatchCmaEsSampler._drawn_before)


class _SamplingStorage:
    """A study's storage as a sampler sees it while it samples a trial not created yet: the system attributes it
    sets on that trial are kept in the trial (created with them); the rest is the storage's."""

    def __init__(self, storage, trial: FrozenTrial):
        self._storage = storage
        self._trial = trial

    def set_trial_system_attr(self, trial_id: int, key: str, value) -> None:
        if trial_id == PROVISIONAL_TRIAL_ID:
            self._trial.system_attrs[key] = value
        else:
            self._storage.set_trial_system_attr(trial_id, key, value)

    def __getattr__(self, name):
        return getattr(self._storage, name)


class _SamplingStudy:
    """A study whose storage is the _SamplingStorage of a trial being sampled (samplers write to
    `study._storage`); everything else is the study's."""

    def __init__(self, study, trial: FrozenTrial):
        self._study = study
        self._storage = _SamplingStorage(study._storage, trial)

    def __getattr__(self, name):
        return getattr(self._study, name)


STORED_OPTIMIZER_STATES = (TrialState.RUNNING, TrialState.COMPLETE, TrialState.PRUNED)
PRUNED_COPIES = 4096  # copies of pruned trials kept (a sample looks at the last generation or two)


def cmaes_mean(sampler, study):
    """The current mean of a study's CMA-ES optimizer (the newest this sampler knows), as parameter values of
    the searched numbers (integers rounded), or None before CMA-ES has one. The mean is the search's own
    estimate of the best parameters; no trial plays it."""
    trials = sampler._get_trials(study)
    optimizer = sampler._restore_optimizer(trials)
    if optimizer is None or not trials:
        return None
    space = sampler.infer_relative_search_space(study, trials[-1])
    transform = SearchSpaceTransform(space, transform_step=not sampler._with_margin, transform_0_1=True)
    values = transform.untransform(optimizer.mean)
    return {name: (int(round(value)) if isinstance(space[name], optuna.distributions.IntDistribution) else
                   float(value)) for name, value in values.items()}
