"""The tuner's CMA-ES sampler never gives two trials of one generation the same sample: Optuna seeds a sample with a
random integer below 2**16 plus the trial's number, so two trials can share a seed (the quickstart's trials 1682
and 1684 did)."""
from __future__ import annotations

import numpy as np
import optuna
from optuna.distributions import FloatDistribution

from tuner.search.cmaes_sampler import BatchCmaEsSampler

SPACE = {f"x{i}": FloatDistribution(0.0, 1.0) for i in range(3)}


class ScriptedDraws(np.random.RandomState):
    """A random state whose `randint` gives `draws` first, then its own: the integers Optuna's CMA-ES adds to a
    trial's number to seed its sample."""

    def __init__(self, draws: list) -> None:
        super().__init__(0)
        self.draws = list(draws)

    def randint(self, *args, **kwargs):
        return self.draws.pop(0) if self.draws else super().randint(*args, **kwargs)


def test_two_trials_of_a_generation_sharing_a_seed_get_two_samples():
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    sampler = BatchCmaEsSampler(search_space=SPACE, seed=1, popsize=4, n_startup_trials=0, x0={k: 0.5 for k in SPACE},
                                sigma0=0.3, warn_independent_sampling=False)
    study = optuna.create_study(sampler=sampler)
    for trial in sampler.ask_batch(study, SPACE, 4, {}):
        study.tell(trial, sum(trial.params.values()))
    # the first draw seeds the optimizer generation 1 starts from; then trials 4 and 5 are seeded 1000 + 4 and
    # 999 + 5: the same sample
    sampler._cma_rng._rng = ScriptedDraws([7, 1000, 999])
    fourth, fifth = sampler.ask_batch(study, SPACE, 2, {})
    generation = sampler._attr_key_generation
    assert fourth.number == 4 and fifth.number == 5
    frozen = study.get_trials(deepcopy=False)
    assert frozen[4].system_attrs[generation] == frozen[5].system_attrs[generation] == 1
    assert frozen[4].params != frozen[5].params
    assert all(0.0 <= value <= 1.0 for t in frozen for value in t.params.values())
