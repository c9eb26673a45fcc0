"""The same study file, one worker, run twice on fresh storages (a journal file, then SQLite): the same trials
with the same results. Compared: every trial's number, state, parameters, values, intermediate values, user
and system attributes, and the study's records, except dates, the workers' ids, the heartbeats' times,
the artifact ids and CMA-ES's pickled state (see `outline`)."""
import os

import pytest

from tests.conftest import load_study, run_tuner, write_study


def without(attrs: dict, *keys: str, prefixes: tuple = (), containing: str = "\0") -> dict:
    return {k: v for k, v in attrs.items() if k not in keys and not k.startswith(prefixes) and containing not in k}


def outline(study) -> tuple:
    trials = [{"number": t.number, "state": t.state.name, "params": t.params, "distributions": t.distributions,
               "values": t.values, "intermediate_values": t.intermediate_values,
               "user_attrs": {**without(t.user_attrs, "date", "worker", "result"),
                              "result": without(t.user_attrs.get("result", {}), "date")},
               # CMA-ES's pickled state holds scratch arrays that are never initialised (np.empty): its bytes
               # vary; the samples drawn from it (params, x_for_tell) are compared.
               "system_attrs": without(t.system_attrs, "tuner:heartbeat", prefixes=("artifacts:",),
                                       containing=":optimizer:")}
              for t in study.get_trials()]
    records = undated(without(study.user_attrs, "created", "validation", prefixes=("validation:",)))
    validation = without(study.user_attrs["validation"], "date")
    return trials, records, validation


STAMPS = ("date", "worker", "beat")  # when and by which process: the shared finals' claims and results have them


def undated(record):
    """The record without its dates and workers, at any depth (the chosen trial's, the gauntlet's, the shared
    finals' units')."""
    if isinstance(record, dict):
        return {k: undated(v) for k, v in record.items() if k not in STAMPS}
    if isinstance(record, list):
        return [undated(v) for v in record]
    return record


def test_one_worker_gives_the_same_trials_and_results_twice(tmp_path):
    path = write_study(tmp_path, "twice", trials=14, pairs=40, population=4, opponents=["heuristic", "hall-of-fame:2"],
                       finals_pairs=20)
    journal = run_tuner("tune", str(path), "--no-progress")
    assert journal.returncode == 0, journal.stderr
    sqlite = f"sqlite:///{tmp_path / 'twice.db'}"
    again = run_tuner("tune", str(path), "--no-progress", "--storage", sqlite)
    assert again.returncode == 0, again.stderr
    first, second = load_study(path), load_study_at(path, sqlite)
    trials, records, validation = outline(first)
    assert len(trials) == 14 and {t["state"] for t in trials} == {"COMPLETE", "PRUNED"}  # dropped ones are PRUNED
    assert any(t["user_attrs"]["pruned"] for t in trials) and any(not t["user_attrs"]["pruned"] for t in trials)
    assert any("x_for_tell" in t["system_attrs"] for t in trials)  # CMA-ES's samples are compared too
    assert outline(second) == (trials, records, validation)


def load_study_at(path, storage: str):
    import optuna

    from tuner.storage.open import open_storage
    from tuner.studyfile.file import read_study_file

    return optuna.load_study(study_name=read_study_file(path).name, storage=open_storage(storage, create=False))


# The bits a study's arithmetic could take from the machine: OpenBLAS's kernels, which it picks for the CPU
# (OPENBLAS_CORETYPE forces two that every x86-64 CPU runs, and that round matrix products differently), and the
# instructions Numba compiles for (NUMBA_CPU_NAME=generic: no AVX, no FMA).
MACHINE_A = {"OPENBLAS_CORETYPE": "Prescott"}
MACHINE_B = {"OPENBLAS_CORETYPE": "Nehalem", "NUMBA_CPU_NAME": "generic"}

# CMA-ES as Optuna and cmaes compute it, through NumPy's BLAS: the control that shows the two machines differ.
CMAES_THROUGH_BLAS = """
import numpy as np
from cmaes import CMA
optimizer = CMA(mean=np.full(31, 0.5), sigma=0.05, bounds=np.array([[0.0, 1.0]] * 31), seed=7, population_size=8)
target = np.random.RandomState(0).rand(31)
for _ in range(4):
    samples = [optimizer.ask() for _ in range(optimizer.population_size)]
    optimizer.tell([(x, float(np.sum((x - target) ** 2))) for x in samples])
print(optimizer.ask().tobytes().hex())
"""


def blas_result(env: dict) -> str:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", CMAES_THROUGH_BLAS], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **env})
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.slow
def test_the_same_study_under_two_blas_kernels_and_two_numba_targets(tmp_path):
    """A short CMA-ES study (the quickstart's objective, race and finals) run as on two machines: the same trials,
    parameter by parameter, to the last bit. CMA-ES computed through NumPy's BLAS gives other samples on them."""
    if blas_result(MACHINE_A) == blas_result(MACHINE_B):
        pytest.skip("NumPy's BLAS gives the same bits under both OPENBLAS_CORETYPE values here: nothing to compare")
    fields = dict(trials=25, population=8, pairs=12, race="wilcoxon", race_first_pairs=4,
                  objectives="min-gain", opponents=["heuristic~0.1", "rush", "hall-of-fame:1"],
                  finals_pairs=10, finalists=3)
    studies = []
    for machine, env in (("a", MACHINE_A), ("b", MACHINE_B)):
        (tmp_path / machine).mkdir()
        path = write_study(tmp_path / machine, "machine", **fields)
        done = run_tuner("tune", str(path), "--no-progress", env=env, timeout=900)
        assert done.returncode == 0, done.stderr
        studies.append(load_study(path))
    first, second = ((trials, without(records, "study_file_path"), validation)
                     for trials, records, validation in map(outline, studies))
    assert len(first[0]) == 25 and {t["state"] for t in first[0]} == {"COMPLETE", "PRUNED"}
    generations = {v for t in first[0] for k, v in t["system_attrs"].items() if k.endswith(":generation")}
    assert {1, 2} <= generations, generations  # samples of updated covariances are compared
    assert first == second
