"""`tuner dashboard` starts a real optuna-dashboard server; its HTTP API serves the study, the trials, their
user attributes and the exported bot files (artifacts)."""
import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import ROOT, load_study, run_tuner, write_study


def get(url: str):
    with urllib.request.urlopen(url, timeout=30) as response:
        body = response.read()
        return json.loads(body) if response.headers.get_content_type() == "application/json" else body


@pytest.fixture
def dashboard(tuned_study):
    process = subprocess.Popen([sys.executable, "-m", "tuner.cli", "dashboard", str(tuned_study), "--port", "0"],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()  # "optuna-dashboard: study 'shared' at http://127.0.0.1:PORT/dashboard/..."
        assert "http://" in line, line + process.stderr.read() if process.poll() is not None else line
        url = line.split(" at ", 1)[1].strip()
        base = url.split("/dashboard/", 1)[0]
        deadline = time.monotonic() + 60
        while True:
            try:
                get(f"{base}/api/meta")
                break
            except (urllib.error.URLError, ConnectionError):
                if time.monotonic() > deadline or process.poll() is not None:
                    raise
                time.sleep(0.2)
        yield base, url
    finally:
        process.kill()
        process.wait(timeout=30)


def test_the_dashboard_serves_the_study_trials_attributes_and_artifacts(dashboard, tuned_study):
    base, url = dashboard
    study = load_study(tuned_study)
    summaries = get(f"{base}/api/studies")["study_summaries"]
    assert [s["study_name"] for s in summaries] == ["shared"]
    study_id = summaries[0]["study_id"]
    assert url.endswith(f"/dashboard/studies/{study_id}")
    detail = get(f"{base}/api/studies/{study_id}")
    study_attrs = {a["key"] for a in detail["user_attrs"]}
    assert {"study_file", "schema", "baseline", "search_seeds", "validation", "versions"} <= study_attrs
    trials = detail["trials"]
    assert [t["number"] for t in trials] == [t.number for t in study.trials]
    for served, stored in zip(trials, study.trials):
        attrs = {a["key"]: a["value"] for a in served["user_attrs"]}
        assert {"win_rate", "pruned", "bot_params", "result", "worker"} <= set(attrs)
        result = json.loads(attrs["result"])  # one attribute: the trial's games, per opponent, seeds, versions
        assert {"games", "wins", "draws", "losses", "win_rate_ci", "elo", "opponents", "seeds", "versions"} <= \
            set(result) and set(result["opponents"]) == {"heuristic", "greedy"}
        assert float(attrs["win_rate"]) == stored.user_attrs["win_rate"]
        assert len(served["intermediate_values"]) == len(stored.intermediate_values)
        assert served["state"].upper() == stored.state.name  # dropped trials are PRUNED, apart from the fully played
    best = detail["best_trials"][0]
    assert best["values"][0] == max(t.value for t in study.trials if t.state.name == "COMPLETE")
    # Trial 0 (the baseline) was the first best trial: its exported bot file and replay page are listed, the bot
    # downloads.
    artifacts = sorted(trials[0]["artifacts"], key=lambda a: a["filename"], reverse=True)
    assert [a["filename"] for a in artifacts] == ["shared-trial0.py", "shared-trial0-vs-baseline.html"]
    source = get(f"{base}/artifacts/{study_id}/{trials[0]['trial_id']}/{artifacts[0]['artifact_id']}").decode()
    assert source.startswith("#!/usr/bin/env python3") and "PARAMS = [" in source and "Study: shared" in source


def test_the_dashboard_refuses_a_study_that_does_not_exist(tmp_path):
    path = write_study(tmp_path)
    result = run_tuner("dashboard", str(path), "--port", "0", timeout=60)
    assert result.returncode == 2 and "does not exist yet" in result.stderr and "Traceback" not in result.stderr
    assert not list(tmp_path.glob("*.journal"))


def test_a_big_study_is_served_with_its_recent_and_best_trials_and_its_whole_search_space(tmp_path):
    """BigStudyView on a study made by Optuna (no games): the newest trials, the best fully played ones and a
    running one are listed, pruned ones without parameters; the dashboard's search space is still every
    parameter; a trial listed once stays where it is."""
    import io

    import optuna
    import optuna_dashboard
    from optuna.trial import TrialState

    from tuner.storage import open_storage
    from tuner.view.dashboard import BigStudyView

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    space = {"a": optuna.distributions.FloatDistribution(0, 1), "b": optuna.distributions.IntDistribution(0, 9)}
    storage = open_storage(str(tmp_path / "big.journal"))
    study = optuna.create_study(storage=storage, study_name="big", direction="maximize")
    for i in range(40):
        trial = study.ask(space)
        trial.report(i / 100, 20)
        if i % 4 == 0:
            trial.set_user_attr("bot_params", dict(trial.params))
            study.tell(trial, 1 - abs(i - 10) / 100)  # the best: trials 8 and 12 (0.98), then 4 (on a tie, the earlier)
        else:
            trial.set_user_attr("pruned", True)
            study.tell(trial, state=TrialState.PRUNED)
    running = study.ask(space)
    view = BigStudyView(storage, full_study=20, recent=10, best=3)
    apps = [optuna_dashboard.wsgi(view)]

    def detail(after: int) -> dict:
        environ = {"REQUEST_METHOD": "GET", "PATH_INFO": f"/api/studies/{study._study_id}",
                   "QUERY_STRING": f"after={after}", "wsgi.input": io.BytesIO(), "SERVER_NAME": "test",
                   "SERVER_PORT": "80", "wsgi.url_scheme": "http"}
        return json.loads(b"".join(apps[-1](environ, lambda status, headers, exc_info=None: None)))

    served = detail(0)
    numbers = [t["number"] for t in served["trials"]]
    assert numbers == [4, 8, 12] + list(range(31, 41)), numbers
    assert view.left_out[study._study_id] == 31 - 3
    assert {p["name"] for p in served["intersection_search_space"]} == {"a", "b"}
    for trial in served["trials"]:
        assert (trial["params"] == []) == (trial["state"] == "Pruned"), trial
        assert trial["intermediate_values"] or trial["state"] == "Running"
    study.tell(running, state=TrialState.PRUNED)  # the running trial, listed, is pruned: it turns slim in place
    later = study.ask(space)
    study.tell(later, 0.5)
    apps.append(optuna_dashboard.wsgi(view))  # a new server's cache: the dashboard's keeps the trials 2 s
    polled = detail(len(numbers))
    assert [t["number"] for t in polled["trials"]] == [41]
    assert [t["number"] for t in detail(0)["trials"]] == numbers + [41]


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_optuna_dashboard_itself_serves_a_new_studys_journal(tuned_study):
    """What an Optuna user types first, `optuna-dashboard STUDY.journal`, on the journal `tuner tune` made."""
    journal = tuned_study.with_suffix(".journal")
    assert journal.read_bytes().startswith(b'{"op_code"')
    port = free_port()
    process = subprocess.Popen([str(Path(sys.executable).with_name("optuna-dashboard")), str(journal), "--port",
                                str(port)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                summaries = get(f"http://127.0.0.1:{port}/api/studies")["study_summaries"]
                break
            except (urllib.error.URLError, ConnectionError):
                assert process.poll() is None, process.stdout.read()
                assert time.monotonic() < deadline
                time.sleep(0.2)
        assert [s["study_name"] for s in summaries] == ["shared"]
        trials = get(f"http://127.0.0.1:{port}/api/studies/{summaries[0]['study_id']}")["trials"]
        assert [t["number"] for t in trials] == [t.number for t in load_study(tuned_study).trials]
    finally:
        process.kill()
        process.wait(timeout=30)
