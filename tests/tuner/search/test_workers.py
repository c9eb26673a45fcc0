"""Several `tuner tune` processes at once on one study (a real PostgreSQL server, a journal file): exactly the
requested number of COMPLETE trials, none duplicated or lost, and one consistent CMA-ES run; the finals and
gauntlets shared between them, each unit played by one worker, and the same bot chosen by all."""
import re

import pytest
from optuna.trial import TrialState

from tests.conftest import load_study, start_tuner, write_study
from tuner.search.shared_work import DONE

WORKERS = 3
TRIALS = 30
POPULATION = 4


def run_workers(path, workers: int = WORKERS) -> list:
    """Start `workers` processes on the study at once; their stdout once they all ended (each exit 0)."""
    processes = [start_tuner("tune", str(path), "--no-progress") for _ in range(workers)]
    outputs = []
    try:
        for process in processes:
            out, err = process.communicate(timeout=300)
            assert process.returncode == 0, err
            assert "Traceback" not in err, err
            outputs.append(out)
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
    return outputs


def check_one_consistent_study(study, outputs: list) -> None:
    trials = study.get_trials()
    # Exactly the requested trials, numbered without gap, all COMPLETE (pruned ones return an estimate).
    assert [t.number for t in trials] == list(range(TRIALS))
    assert all(t.state == TrialState.COMPLETE for t in trials), [t.state for t in trials]
    # Every worker ran some of them, none twice: the runs' counts add up to the study's.
    ran = [int(re.search(r"^done: (\d+) trials", out, re.M).group(1)) for out in outputs]
    assert sum(ran) == TRIALS and all(ran), ran
    assert len({tuple(sorted(t.params.items())) for t in trials}) == TRIALS  # no two trials alike
    # One baseline, trial 0: the schema defaults, not sampled.
    assert [t.number for t in trials if t.user_attrs.get("baseline")] == [0]
    generation = next(k for k in trials[1].system_attrs if k.endswith(":generation"))
    assert generation not in trials[0].system_attrs
    # Every other trial was sampled by CMA-ES (none at random while the baseline ran), generations follow the
    # trial numbers, and a generation gave way to the next only once `population` of its trials were COMPLETE.
    generations = [t.system_attrs[generation] for t in trials[1:]]
    assert generations == sorted(generations) and generations[0] == 0
    assert max(generations) >= 3
    for g in range(max(generations)):
        assert generations.count(g) >= POPULATION, generations


def study_file(tmp_path, name: str, storage=None):
    # Enough games per trial (about a second a generation on one thread) that a worker still loading finds trials
    # to run, even when the machine is busy (2,500 pairs were too few once a worker took seconds to start).
    return write_study(tmp_path, name, trials=TRIALS, pairs=8000, race="none", population=POPULATION,
                       finals_pairs=10, storage=storage)


@pytest.mark.slow  # a minute of processes: CI's second step
def test_three_workers_on_postgresql(tmp_path, postgres_url, postgres_study):
    path = study_file(tmp_path, postgres_study("workers"), storage=postgres_url)
    outputs = run_workers(path)
    check_one_consistent_study(load_study(path), outputs)
    assert not list(tmp_path.glob("*.journal"))


@pytest.mark.slow  # a minute of processes: CI's second step
def test_three_workers_on_a_journal_file(tmp_path):
    path = study_file(tmp_path, "workers")
    outputs = run_workers(path)
    check_one_consistent_study(load_study(path), outputs)


def test_a_batch_asks_the_retried_trials_first_then_new_samples_each_named_by_its_worker(tmp_path):
    import optuna

    from tuner.search.cmaes_sampler import BatchCmaEsSampler
    from tuner.search.workers import ask_batch

    space = {"x": optuna.distributions.FloatDistribution(0.0, 1.0)}
    storage = optuna.storages.JournalStorage(optuna.storages.journal.JournalFileBackend(str(tmp_path / "j")))
    study = optuna.create_study(storage=storage, direction="maximize", sampler=BatchCmaEsSampler(
        search_space=space, seed=3, popsize=4, n_startup_trials=0, warn_independent_sampling=False))
    study.enqueue_trial({"x": 0.25})
    study.enqueue_trial({"x": 0.75})
    batch = ask_batch(study, space, 4, 2, {"worker": "here"})
    assert [t.number for t in batch] == [0, 1, 2, 3]
    assert [t.params["x"] for t in batch[:2]] == [0.25, 0.75]
    assert all(t.state == TrialState.RUNNING for t in study.get_trials())
    assert all(t.user_attrs == {"worker": "here"} for t in study.get_trials())
    assert len({t.params["x"] for t in batch}) == 4


def shared_finals_study(tmp_path, name: str, storage=None):
    """mcts searched at 1 iteration a move and its finals at 16: finals of some seconds a finalist, which the
    workers that end the search together share."""
    return write_study(tmp_path, name, bot="mcts", trials=8, pairs=6, population=4, opponents=["heuristic"],
                       finals_pairs=60, finalists=3, search={"iterations": 1}, playing_budget={"iterations": 16},
                       storage=storage)


def check_shared_finals(study, outputs: list) -> None:
    """Every finalist and both gauntlets played once (a result each), the finalists by both workers, and both
    workers chose the same bot with the same figures."""
    chosen = study.user_attrs["chosen"]
    done = {key: value for key, value in study.user_attrs.items() if key.startswith(DONE)}
    finalists = [key for key in done if key.startswith(DONE + "finalist:")]
    assert sorted(done[key]["result"]["label"] for key in finalists) == sorted(f["label"] for f in chosen["finalists"])
    assert len({done[key]["worker"] for key in finalists}) == 2, [done[key]["worker"] for key in finalists]
    assert len([key for key in done if key.startswith(DONE + "gauntlet:")]) == 2  # at both budgets
    said = [re.search(r"^.*chosen on .*$", out, re.M).group(0) for out in outputs]
    assert said[0] == said[1] and chosen["label"] in said[0], said


@pytest.mark.slow  # 15 s of two workers: CI's second step
@pytest.mark.parametrize("storage", ["journal", "postgresql"])
def test_two_workers_share_the_finals_and_choose_the_same_bot(tmp_path, storage, request):
    if storage == "postgresql":
        url, name = request.getfixturevalue("postgres_url"), request.getfixturevalue("postgres_study")("finals")
        path = shared_finals_study(tmp_path, name, storage=url)
    else:
        path = shared_finals_study(tmp_path, "finals")
    outputs = run_workers(path, workers=2)
    check_shared_finals(load_study(path), outputs)
