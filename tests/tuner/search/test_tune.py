"""`tuner tune`: real studies on a real journal file, resumed, interrupted, reproduced; bots from studies."""
import json
import math
import re
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from optuna.trial import TrialState

from bots.heuristic.schema import SCHEMA
from tests.conftest import ROOT, load_study, run_tuner, write_study
from tuner.results.ranking import race_best
from tuner.results.records import TrialRecord
from tuner.search.race import blocks
from tuner.studyfile.file import read_study_file

FINISHED = (TrialState.COMPLETE, TrialState.PRUNED)


def tune(path, *args):
    result = run_tuner("tune", str(path), "--no-progress", *args)
    assert result.returncode == 0, result.stderr
    return result


def test_a_study_records_its_trials_seeds_versions_and_artifacts(tuned_study):
    study = load_study(tuned_study)
    trials = study.get_trials()
    assert [t.number for t in trials] == list(range(8)) and all(t.state in FINISHED for t in trials)
    # The search starts from the schema defaults: trial 0 is the baseline.
    assert trials[0].user_attrs["baseline"] and trials[0].user_attrs["bot_params"] == SCHEMA.defaults()
    for t in trials:
        r = TrialRecord.from_trial(t)
        tally = r.tally
        assert tally.wins + tally.draws + tally.losses == tally.games == 2 * 2 * r.pairs_played
        assert tally.win_rate_ci[0] <= tally.win_rate <= tally.win_rate_ci[1] and t.user_attrs["win_rate"] == \
            pytest.approx(tally.win_rate, abs=1e-6)
        assert set(r.opponents) == {"heuristic", "greedy"} and "greedy" in r.entry_win_rates()
        assert t.user_attrs["result"]["seeds"] == {"seed": 5, "stream": "search", "pairs": 40,
                                                   "played": r.pairs_played, "order": r.order}
        versions = study.user_attrs[f"versions:{r.versions}"]
        assert versions["photosynthesis-tuner"] and versions["optuna"] and versions["source"]
        assert set(r.bot_params) == {p.name for p in SCHEMA}
        # One intermediate value per block of seed pairs played: the win rate so far (step: pairs played); a
        # dropped trial's last one, at the full number of pairs, is its estimated result.
        played_blocks = [stop for _, stop in blocks(40, 20) if stop <= r.pairs_played]
        assert sorted(t.intermediate_values) == played_blocks + ([40] if r.pruned else [])
        assert (t.state == TrialState.PRUNED) == r.pruned
        if not r.pruned:
            assert r.pairs_played == 40 and math.isclose(t.value, tally.win_rate, abs_tol=1e-6)
            assert t.intermediate_values[40] == pytest.approx(tally.win_rate)
    attrs = study.user_attrs
    assert attrs["study_file"] == tuned_study.read_text()
    assert [p["name"] for p in attrs["schema"]] == [p.name for p in SCHEMA]
    assert attrs["baseline"] == SCHEMA.defaults()
    from tuner.play.seeds import game_seeds

    assert attrs["search_seeds"]["seeds"] == game_seeds(5, 40, "search")
    validation = attrs["validation"]
    assert validation["stream"] == "validation" and validation["overall"]["games"] == 2 * 20 * 2
    assert not set(game_seeds(5, 20, "validation")) & set(game_seeds(5, 40, "search"))
    # The baseline was the first best trial: its exported bot is an artifact of trial 0.
    from tuner.storage.artifact_store import trial_artifacts
    from tuner.storage.open import open_storage

    storage = open_storage(read_study_file(tuned_study).storage, create=False)
    metas = {m.filename: m for m in trial_artifacts(storage, trials[0])}
    assert set(metas) == {"shared-trial0.py", "shared-trial0-vs-baseline.html"}  # its bot, a game vs the baseline
    stored = tuned_study.parent / "shared-artifacts"
    assert "PARAMS = [" in (stored / metas["shared-trial0.py"].artifact_id).read_text()
    page = (stored / metas["shared-trial0-vs-baseline.html"].artifact_id).read_text()
    assert page.startswith("<!DOCTYPE html>") and "replay-data" in page


def test_each_trial_s_record_is_its_own_games_replayed_on_its_race_s_seeds(tmp_path):
    """With two threads a batch's trials are asked one by one, each one's first games started at once: replaying
    each trial's bot on its race's seed pairs gives the wins, draws and losses its record holds, against every
    opponent."""
    from tuner.play.runner import GameRunner
    from tuner.play.seeds import game_seeds
    from tuner.play.stats import tally
    from tuner.results.botnames import study_bot
    from tuner.search.generation import race_order
    from tuner.search.tune import trial_bot

    names = ["heuristic", "greedy"]
    path = write_study(tmp_path, trials=9, pairs=40, opponents=names)
    done = tune(path, "--jobs", "2").stdout
    busy = re.search(r"games/s; games on (\d+)% of the threads' time\)", done)
    assert busy and 0 < int(busy.group(1)) <= 100, done  # the threads' time in games, as the engine measured it
    config = read_study_file(path)
    opponents = [study_bot(config, name) for name in names]
    seeds = np.array(game_seeds(5, 40, "search"))
    runner = GameRunner(3, 1)
    records = [TrialRecord.from_trial(t) for t in load_study(path).get_trials()]
    assert len({json.dumps(r.bot_params, sort_keys=True) for r in records}) == len(records)  # all different
    for r in records:
        order = race_order(5, r.order, 40)[:r.pairs_played]
        margins = runner.play(trial_bot(config, r.bot_params, "replay"), opponents, seeds[order]).margins
        for k, name in enumerate(names):
            replayed = tally(margins.reshape(len(names), -1, 2)[k])
            mine = r.opponents[name]
            assert (mine.wins, mine.draws, mine.losses) == (replayed.wins, replayed.draws, replayed.losses), name


def test_the_race_drops_worse_trials_and_their_estimate_stays_below_their_race_s_best(tmp_path):
    path = write_study(tmp_path, trials=16, pairs=60, race_first_pairs=10)
    tune(path)
    study = load_study(path)
    by_number = {t.number: t for t in study.trials}
    pruned = [t for t in study.trials if t.state == TrialState.PRUNED]
    assert pruned, "no trial was dropped"
    for t in pruned:
        r = TrialRecord.from_trial(t)
        assert r.pruned and r.pairs_played < 60 and max(t.intermediate_values) == 60
        best = race_best(study.trials, r.order)  # the race's best survivor, from the same batch
        assert best.state == TrialState.COMPLETE and best.number in by_number and r.order <= t.number
        assert TrialRecord.from_trial(best).order == r.order and t.intermediate_values[60] < best.value


def test_resume_continues_the_trial_count_and_checks_the_settings(tmp_path):
    path = write_study(tmp_path, trials=5)
    first = tune(path, "--trials", "3")
    assert "0 finished trials, running 3 more" in first.stdout
    tune(path)  # up to the file's 5 trials
    assert [t.number for t in load_study(path).trials] == [0, 1, 2, 3, 4]
    again = tune(path)
    assert "has its 5 trials" in again.stdout and len(load_study(path).trials) == 5
    tune(path, "--trials", "2")
    assert [t.number for t in load_study(path).trials] == list(range(7))
    # Changing what a trial is stops before any trial, naming the field.
    path.write_text(path.read_text().replace("pairs = 30", "pairs = 31"))
    result = run_tuner("tune", str(path))
    assert result.returncode == 2 and "field 'pairs'" in result.stderr and "31" in result.stderr
    assert len(load_study(path).trials) == 7


def test_a_study_from_before_opponent_shares_resumes_and_a_share_is_a_search_setting(tmp_path):
    path = write_study(tmp_path, trials=3, opponents=["heuristic", "greedy"], finals_pairs=0)
    tune(path, "--trials", "1")
    study = load_study(path)
    settings = dict(study.user_attrs["search_settings"])
    del settings["opponent_shares"]  # as recorded by a version without the field
    study.set_user_attr("search_settings", settings)
    tune(path)
    assert len(load_study(path).trials) == 3
    path.write_text(path.read_text() + 'opponent_shares = { "greedy" = 0.5 }\n')
    result = run_tuner("tune", str(path), "--trials", "1")
    assert result.returncode == 2 and "field 'opponent_shares'" in result.stderr and "0.5" in result.stderr
    assert "was created with {}" in result.stderr
    assert len(load_study(path).trials) == 3


def test_the_same_study_file_gives_the_same_trials_whatever_the_number_of_threads(tmp_path):
    """With two threads the dropped trials' records are written while the next block plays, with one before it:
    the same records, values and reports."""
    fields = dict(trials=9, pairs=200, population=8, opponents=["heuristic", "greedy", "search:2"],
                  opponent_shares={"search:2": 0.25}, race_first_pairs=10, finals_pairs=0)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    one = write_study(tmp_path / "a", **fields)
    two = write_study(tmp_path / "b", **fields)
    tune(one)
    tune(two, "--jobs", "2")

    def outline(path):
        return [(t.number, t.state, t.params, t.value, t.intermediate_values,
                 {k: v for k, v in t.user_attrs.items() if k not in ("result", "worker")},
                 {k: v for k, v in t.user_attrs["result"].items() if k != "date"}) for t in load_study(path).trials]

    assert outline(one) == outline(two)
    assert {t.state for t in load_study(one).trials} == {TrialState.COMPLETE, TrialState.PRUNED}


def test_an_opponent_met_on_a_share_of_the_pairs_plays_that_share_and_weighs_as_much(tmp_path):
    path = write_study(tmp_path, trials=5, pairs=40, population=4, opponents=["heuristic", "search:2"],
                       opponent_shares={"search:2": 0.25}, race_first_pairs=20)
    tune(path)
    complete = 0
    for t in load_study(path).trials:
        r = TrialRecord.from_trial(t)
        played = r.pairs_played
        assert r.opponents["heuristic"].games == 2 * played
        assert r.opponents["search:2"].games == 2 * int(np.ceil(played / 4)) and r.tally.games == 2 * played + \
            r.opponents["search:2"].games
        mean = (r.opponents["heuristic"].win_rate + r.opponents["search:2"].win_rate) / 2
        assert t.user_attrs["win_rate"] == pytest.approx(mean, abs=1e-6)
        if t.state == TrialState.COMPLETE:
            complete += 1
            assert t.value == pytest.approx(mean) and r.tally.win_rate_ci[0] < mean < r.tally.win_rate_ci[1]
    assert complete >= 1


def test_a_second_ctrl_c_cuts_the_games_but_never_a_storage_write_among_them():
    from tuner.search.interrupt import StopFlag

    flag = StopFlag(notify=lambda _: None)
    flag._handle(signal.SIGINT, None)  # the first asks to stop
    with flag.interruptible():
        with pytest.raises(KeyboardInterrupt):  # the second cuts the games
            flag._handle(signal.SIGINT, None)
    written = []
    with flag.interruptible():
        with pytest.raises(KeyboardInterrupt):
            with flag.uninterruptible():  # the last block's records, written while the next block plays
                flag._handle(signal.SIGINT, None)
                written.append("record")  # the write goes on to its end, then the signal cuts
    assert written == ["record"]
    flag._handle(signal.SIGINT, None)  # while Optuna samples: noted, and the next games are cut at once
    with flag.uninterruptible():
        pass
    with pytest.raises(KeyboardInterrupt):
        with flag.interruptible():
            pytest.fail("the games started")


def test_a_second_ctrl_c_held_while_trials_are_asked_stops_the_games_already_started():
    """With two threads a batch's first games start while its next trials are asked, where a second Ctrl-C is
    held: it cuts as the games are waited for, and the games not begun are cancelled, none left playing."""
    from bots.contract.names import parse_bot
    from tuner.play.runner import GameRunner
    from tuner.search.generation import BatchPlayer, StartedBlock
    from tuner.search.interrupt import StopFlag

    flag = StopFlag(notify=lambda _: None)
    flag._handle(signal.SIGINT, None)
    flag._handle(signal.SIGINT, None)  # the second, while Optuna asked: held
    runner = GameRunner(3, 2)
    try:
        n = 400
        pending = runner.start_units([parse_bot("heuristic")], [parse_bot("search:4")], np.zeros(n, int),
                                     np.zeros(n, int), np.arange(1, n + 1))
        block = StartedBlock([0], np.arange(n), np.zeros(n, int), pending)
        player = BatchPlayer(None, None, runner, flag, None, None, "")
        with pytest.raises(KeyboardInterrupt):
            player._end_blocks([block], [], np.zeros((1, n, 1, 2), int), [[]], None)
        futures = pending.started.futures
        assert all(f.done() for f in futures) and any(f.cancelled() for f in futures)
    finally:
        runner.close()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_stops_cleanly_and_the_study_resumes(tmp_path, jobs):
    """Ctrl-C ends the running batch, whether one thread or two play its games."""
    path = write_study(tmp_path, trials=None, timeout=300, pairs=200)
    journal = tmp_path / "tiny.journal"
    process = subprocess.Popen([sys.executable, "-m", "tuner.cli", "tune", str(path), "--no-progress", "--jobs",
                                jobs], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:  # wait until a few trials have finished
            if journal.exists() and finished_trials(path) >= 4:
                break
            time.sleep(0.2)
        else:
            pytest.fail("no trial finished")
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    assert "Traceback" not in err and "interrupted" in out
    trials = load_study(path).trials
    assert not [t for t in trials if t.state == TrialState.RUNNING]
    # The stopped trial (none if Ctrl-C came as a trial ended) is FAIL and enqueued again with its parameters.
    # The stopped batch (none if Ctrl-C came as a batch ended) is FAIL and enqueued again with its parameters.
    stopped = [t for t in trials if t.state == TrialState.FAIL]
    retried = [t for t in trials if t.state == TrialState.WAITING]
    assert len(retried) == len(stopped)
    assert all(t.state in FINISHED for t in trials if t not in stopped + retried)
    for old, new in zip(stopped, retried):
        assert old.user_attrs["interrupted"] and new.params == old.params
        assert new.system_attrs["failed_trial"] == old.number
    tune(path, "--trials", str(len(retried) + 2), "--timeout", "60")
    after = load_study(path).trials
    assert [t.number for t in after] == list(range(len(trials) + 2))
    assert all(t.state in FINISHED for t in after if t.number not in [u.number for u in stopped])
    assert [after[t.number].params for t in retried] == [t.params for t in stopped]


def test_hall_of_fame_members_are_the_best_fully_played_trials_before_the_batch(tmp_path):
    path = write_study(tmp_path, trials=12, population=4, opponents=["greedy", "hall-of-fame:2"])
    tune(path)
    trials = load_study(path).trials
    for t in trials:
        r = TrialRecord.from_trial(t)
        members = [name for name in r.opponents if name.startswith("hall-of-fame#")]
        assert {o.entry for name, o in r.opponents.items() if name in members} == {"hall-of-fame:2"}
        eligible = [u for u in trials if u.number < r.order and u.state == TrialState.COMPLETE]
        if not eligible:
            assert members == ["hall-of-fame#baseline"]
            continue
        expected = sorted(eligible, key=lambda u: (-u.value, u.number))[:2]
        assert members == [f"hall-of-fame#{u.number}" for u in expected]


def test_several_objectives_with_nsga2(tmp_path):
    path = write_study(tmp_path, trials=6, sampler="nsga2", opponents=["greedy", "random"])
    tune(path)
    study = load_study(path)
    assert len(study.directions) == 2
    for t in study.trials:
        rates = TrialRecord.from_trial(t).entry_win_rates()
        assert t.values == pytest.approx([rates["greedy"], rates["random"]], abs=1e-6)
        assert not t.intermediate_values
    result = run_tuner("export", str(path), "-o", str(tmp_path / "best.py"))
    assert result.returncode == 0, result.stderr
    report = run_tuner("report", str(path), "--out", str(tmp_path / "report"))
    assert report.returncode == 0 and "Traceback" not in report.stderr, report.stderr
    assert {"history.html", "pareto_front.html", "parallel_coordinates.html"} <= \
        {f.name for f in (tmp_path / "report").iterdir()}


def test_search_overrides_fix_and_narrow_parameters(tmp_path):
    path = write_study(tmp_path, trials=6, sampler="random", search={"seed_first": 1, "grow_horizon": [3, 4]})
    tune(path)
    for t in load_study(path).trials:
        assert "seed_first" not in t.params and t.user_attrs["bot_params"]["seed_first"] == 1
        assert 3 <= t.params["grow_horizon"] <= 4


def test_study_bots_play_and_export(tuned_study, tmp_path):
    result = run_tuner("match", f"study:{tuned_study}", "heuristic", "--games", "20", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["games"] == 20
    assert run_tuner("match", f"study:{tuned_study}#3", "greedy", "--games", "2").returncode == 0
    missing = run_tuner("match", f"study:{tuned_study}#99", "greedy", "--games", "2")
    assert missing.returncode == 2 and "no trial 99" in missing.stderr
    out = tmp_path / "exported.py"
    result = run_tuner("export", str(tuned_study), "-o", str(out))
    assert result.returncode == 0, result.stderr
    text = out.read_text()
    assert "Study: shared" in text and "Validation: win rate" in text and "Trial: " in text
    # The exported file plays the same games as the study's best bot.
    exported = run_tuner("match", f"cmd:{sys.executable} {out}", "greedy", "--games", "2", "--json")
    engine = run_tuner("match", f"study:{tuned_study}", "greedy", "--games", "2", "--json")
    assert exported.returncode == 0, exported.stderr
    assert json.loads(exported.stdout)["results"] == json.loads(engine.stdout)["results"]


def test_study_bots_need_an_existing_study(tmp_path):
    path = write_study(tmp_path)
    result = run_tuner("match", f"study:{path}", "greedy", "--games", "2")
    assert result.returncode == 2 and "does not exist yet" in result.stderr
    assert not (tmp_path / "tiny.journal").exists()


def finished_trials(path) -> int:
    """Finished trials of a study file's study, read while `tuner tune` writes it (a journal file)."""
    from optuna.trial import TrialState

    try:
        return len(load_study(path).get_trials(deepcopy=False, states=(TrialState.COMPLETE, TrialState.PRUNED)))
    except Exception:  # the study is being created
        return 0


def test_the_progress_line_before_and_after_a_best_trial():
    """A worker whose batches never held the study's best (another worker's did) has no best to show."""
    from tuner.cli.tune_progress import Progress
    from tuner.play.runner import RefereeTime

    class Runner:
        games_played, engine_games_played, game_seconds, jobs = 0, 0, 0.0, 1
        referee_time = RefereeTime()

    for name, shown in (("win rate", "best 12.5% (trial 3)"), ("min gain", "best min gain +12.5% (trial 3)")):
        bar = Progress("x", 10, Runner(), enabled=False, value_name=name)
        assert bar.status().startswith("best -,")
        bar.best, bar.best_number = 0.125, 3
        assert bar.status().startswith(shown)
        bar.close()
