"""The Optuna sampler and pruner a study file asks for, seeded from the study's seed."""
from __future__ import annotations

import math
import warnings

import optuna

from tuner.play.seeds import MASK64, splitmix64
from tuner.search.cmaes_sampler import BatchCmaEsSampler
from tuner.studyfile.file import StudyConfig

HALL_OF_FAME_REFRESH = 10  # tpe, random: trials between two refreshes of the hall of fame

NSGA2_POPULATION = 50
TPE_STARTUP_TRIALS = 10


def sampler_seed(seed: int) -> int:
    """A 31-bit seed for Optuna's samplers (numpy RandomState), derived from the study's seed."""
    return splitmix64((seed & MASK64) ^ 0x5A3D) & 0x7FFFFFFF


def population_size(config: StudyConfig, dimensions: int) -> int:
    """CMA-ES's or NSGA-II's population; for tpe and random, how often the hall of fame is refreshed."""
    if config.population is not None:
        return config.population
    if config.sampler == "cmaes":
        return 4 + int(math.floor(3 * math.log(max(dimensions, 1))))
    if config.sampler == "nsga2":
        return NSGA2_POPULATION
    return HALL_OF_FAME_REFRESH


def build_sampler(config: StudyConfig, space):
    seed = sampler_seed(config.seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # experimental and deprecated-argument warnings: chosen on purpose
        if config.sampler == "cmaes":
            # x0 and sigma0 (deprecated since Optuna 4.9, still there in 5): CMA-ES's initial mean is the schema
            # defaults; its step size is a fraction of each range (Optuna's space is [0, 1] per parameter).
            # with_margin keeps integer parameters from freezing on one value. No startup trials: the first
            # trial sampled is CMA-ES's already. Enqueued and retried trials have all their parameters, so Optuna
            # never asks the sampler about them. Trials the race dropped are PRUNED; CMA-ES ranks them in their
            # generation by their last intermediate value, the race's estimate of their full result. The search
            # space is the one every trial is asked with (CMA-ES need not infer it from the finished trials).
            with_margin = any(d.type == "int" for d in space.dimensions)
            return BatchCmaEsSampler(search_space=space.distributions, x0=space.start_point(), sigma0=config.sigma,
                                     seed=seed, n_startup_trials=0,
                                     popsize=population_size(config, len(space)), with_margin=with_margin,
                                     warn_independent_sampling=False)
        if config.sampler == "tpe":
            return optuna.samplers.TPESampler(seed=seed, multivariate=True, n_startup_trials=TPE_STARTUP_TRIALS)
        if config.sampler == "nsga2":
            return optuna.samplers.NSGAIISampler(seed=seed, population_size=population_size(config, len(space)))
        return optuna.samplers.RandomSampler(seed=seed)
