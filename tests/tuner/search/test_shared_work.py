"""The work a study's workers share after the search (`tuner.search.shared_work`), on a real Optuna storage: each
unit played once, every worker gets every result, a live worker's unit is waited for and a dead worker's taken
again. Several `tuner tune` processes sharing a study's finals: tests/tuner/search/test_workers.py."""
import threading
import time

import optuna

from tuner.search.shared_work import CLAIM, DONE, share


def new_study():
    return optuna.create_study(storage=optuna.storages.InMemoryStorage())


def test_each_unit_is_played_once_and_a_later_worker_gets_every_result_without_playing():
    study = new_study()
    played = []
    units = {key: (lambda key=key: played.append(key) or {"value": key}) for key in "abc"}
    expected = {key: {"value": key} for key in "abc"}
    assert share(study, None, units, interval=1, grace=60, notify=lambda _: None) == expected
    assert share(study, None, units, interval=1, grace=60, notify=lambda _: None) == expected
    assert played == ["a", "b", "c"]
    workers = {study.user_attrs[DONE + key]["worker"] for key in "abc"}
    assert len(workers) == 1


def test_a_live_workers_unit_is_waited_for_and_a_dead_workers_is_played_again_with_its_claim_beating():
    study = new_study()
    start = time.time()
    study.set_user_attr(CLAIM + "live", {"worker": "other", "beat": start})
    study.set_user_attr(CLAIM + "dead", {"worker": "gone", "beat": start - 120})

    def other_worker():
        time.sleep(2.0)
        study.set_user_attr(DONE + "live", {"worker": "other", "result": {"by": "other"}})

    played, said = [], []

    def slow(key):
        time.sleep(1.6)  # longer than the beat's interval
        played.append(key)
        return {"by": "me"}

    helper = threading.Thread(target=other_worker)
    helper.start()
    got = share(study, None, {"live": lambda: slow("live"), "dead": lambda: slow("dead")}, interval=0.5, grace=60,
                notify=said.append)
    helper.join()
    assert got == {"live": {"by": "other"}, "dead": {"by": "me"}} and played == ["dead"]
    assert said == ["waiting for 1 of 2 units played by other workers"]
    claim = study.user_attrs[CLAIM + "dead"]
    assert claim["worker"] not in ("gone", "other") and claim["beat"] >= start + 0.5
