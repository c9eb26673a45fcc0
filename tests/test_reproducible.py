"""The same study file, one worker, run twice on fresh storages (a journal file, then SQLite): the same trials
with the same results. Compared: every trial's number, state, parameters, values, intermediate values, user
and system attributes, and the study's records, except dates, the workers' process ids, the heartbeats' times,
the artifact ids and CMA-ES's pickled state (see `outline`)."""
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


def undated(record):
    """The record without its "date" fields, at any depth (the chosen trial's and the gauntlet's too)."""
    if isinstance(record, dict):
        return {k: undated(v) for k, v in record.items() if k != "date"}
    if isinstance(record, list):
        return [undated(v) for v in record]
    return record


def test_one_worker_gives_the_same_trials_and_results_twice(tmp_path):
    path = write_study(tmp_path, "twice", trials=14, pairs=40, population=4, opponents=["heuristic", "hall-of-fame:2"],
                       validation_pairs=20)
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
    from tuner.study.file import read_study_file

    return optuna.load_study(study_name=read_study_file(path).name, storage=open_storage(storage, create=False))
