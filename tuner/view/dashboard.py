"""`tuner dashboard`: optuna-dashboard on a study's storage and artifacts.

The server is optuna-dashboard's WSGI application on a threaded wsgiref server (what its own command line
runs), bound here so that the real port is known before the first request: `--port 0` picks a free one.

A big study is served through `BigStudyView`, unless `--all-trials`. optuna-dashboard's study page asks for
every trial at once and serializes each with every parameter and its distribution (~10 kB of JSON a trial with
31 parameters); and on every request (its polling too: its cache's cursor never moves while every trial is
finished) it walks the search space of every listed trial, ~1 ms a trial with 31 parameters. At 30,000 trials
that is a 300 MB answer and ~30 s a request (measured: benchmarks/large_study.py). The view:

- serves a study of at most FULL_STUDY trials as it is stored;
- beyond, lists the trials among the newest RECENT_TRIALS (when the server first listed the study), the
  BEST_TRIALS best fully played trials and every RUNNING, WAITING or FAIL trial; those COMPLETE whole, those
  PRUNED slim: as PRUNED, with their value (the race's estimate), intermediate values, dates, scalar user
  attributes (`win_rate`, `pruned`, `worker`) and distributions, without their parameters, their `bot_params`
  and `result` attributes and their system attributes (as much JSON as a whole trial, for candidates the race
  found worse);
- leaves the other trials out (their numbers then have gaps): `tuner export STUDY.toml --trial N`,
  `tuner report` (its history plot has every trial) and `--all-trials` still have them.
A slim trial keeps its distributions (shared objects, not served without their parameters): the dashboard's
search space is the intersection of the listed trials' distributions, which one trial without any would empty
(and with it the parameter plots' choices). The history and importance plots then show the best trials and the
recent ones. A trial listed once stays listed (a running trial later pruned turns slim in place), so the list
only grows at its end, as the page's polling (`?after=<trials it has>`) needs.
"""
from __future__ import annotations

import errno
import sys
from socketserver import ThreadingMixIn
from typing import Optional
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import optuna_dashboard
from optuna.storages import BaseStorage
from optuna.trial import FrozenTrial, TrialState

from tuner.errors import UserError
from tuner.optuna_internals import trial_id
from tuner.results.picks import load_existing_study
from tuner.results.ranking import ranked_trials
from tuner.storage import open_artifact_store
from tuner.studyfile.file import StudyConfig

FULL_STUDY = 2_000  # trials of a study served as stored
RECENT_TRIALS = 1_000  # the newest trials (~35 generations of the quickstart) listed in a bigger study
BEST_TRIALS = 300  # and its best fully played trials


class BigStudyView(BaseStorage):
    """A read view of a storage for optuna-dashboard (see the module doc); everything but the trial lists goes to
    the storage as it is (the dashboard's own writes, notes and the like, included)."""

    def __init__(self, storage, multi_objective: bool = False, full_study: int = FULL_STUDY,
                 recent: int = RECENT_TRIALS, best: int = BEST_TRIALS) -> None:
        self._storage = storage
        self._multi_objective = multi_objective
        self._full_study = full_study
        self._recent = recent
        self._best = best
        # study id -> (first trial number listed whatever it is, numbers of the older trials listed), or None: all
        self._listed: dict = {}
        self._slim: dict = {}  # trial id -> its slim copy (a finished trial never changes)
        self.left_out: dict = {}  # study id -> trials left out when the study was first listed

    def __getattr__(self, name):
        return getattr(self._storage, name)

    def _slim_copy(self, trial: FrozenTrial) -> FrozenTrial:
        key = trial_id(trial)
        slim = self._slim.get(key)
        if slim is None:
            slim = FrozenTrial(number=trial.number, state=trial.state, value=None, values=trial.values,
                               datetime_start=trial.datetime_start, datetime_complete=trial.datetime_complete,
                               params={}, distributions=trial.distributions, system_attrs={}, trial_id=key,
                               user_attrs={k: v for k, v in trial.user_attrs.items()
                                           if not isinstance(v, (dict, list))},
                               intermediate_values=trial.intermediate_values)
            self._slim[key] = slim
        return slim

    def _choose(self, study_id) -> Optional[tuple]:
        every = self._storage.get_all_trials(study_id, deepcopy=False)
        if len(every) <= self._full_study:
            self.left_out[study_id] = 0
            return None
        cutoff = len(every) - self._recent
        older = every[:cutoff]
        kept = {t.number for t in ranked_trials(older, self._multi_objective)[:self._best]}
        kept.update(t.number for t in older if t.state not in (TrialState.COMPLETE, TrialState.PRUNED))
        self.left_out[study_id] = len(older) - len(kept)
        return cutoff, kept

    def get_all_trials(self, study_id, deepcopy=True, states=None):
        if study_id not in self._listed:
            self._listed[study_id] = self._choose(study_id)
        trials = self._storage.get_all_trials(study_id, deepcopy=False, states=states)
        listed = self._listed[study_id]
        if listed is None:
            return trials
        cutoff, kept = listed
        return [t if t.state != TrialState.PRUNED else self._slim_copy(t)
                for t in trials if t.number >= cutoff or t.number in kept]


def _forward(name):
    def method(self, *args, **kwargs):
        return getattr(self._storage, name)(*args, **kwargs)

    method.__name__ = name
    return method


for _name in BaseStorage.__abstractmethods__:  # the storage's own, as they are
    if _name not in BigStudyView.__dict__:
        setattr(BigStudyView, _name, _forward(_name))
BigStudyView.__abstractmethods__ = frozenset()


class _ThreadedServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format, *args):  # one line per request would bury the URL
        pass


def dashboard_server(config: StudyConfig, host: str = "127.0.0.1", port: int = 8080, all_trials: bool = False):
    """(server, url of the study's page, the view or None, the study's id). The caller runs
    `server.serve_forever()`."""
    storage, study = load_existing_study(config)
    study_id = storage.get_study_id_from_name(config.name)
    store = open_artifact_store(config.artifacts)
    view = None if all_trials else BigStudyView(storage, config.multi_objective)
    if view is not None:
        view.get_all_trials(study_id, deepcopy=False)  # fixes which trials are listed
    app = optuna_dashboard.wsgi(storage if view is None else view, artifact_store=store)
    try:
        server = make_server(host, port, app, server_class=_ThreadedServer, handler_class=_QuietHandler)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            raise UserError(f"--port {port}: the port is in use (another port, or --port 0 for a free one)") from None
        raise UserError(f"--host {host} --port {port}: cannot listen ({error.strerror or error})") from None
    shown = f"[{host}]" if ":" in host else host
    return server, f"http://{shown}:{server.server_port}/dashboard/studies/{study_id}", view, study_id


def serve(config: StudyConfig, host: str, port: int, all_trials: bool = False) -> None:
    server, url, view, study_id = dashboard_server(config, host, port, all_trials)
    print(f"optuna-dashboard: study {config.name!r} at {url}", flush=True)
    print(f"  storage {config.storage}, artifacts {config.artifacts}; Ctrl-C to stop", flush=True)
    if view is not None and view.left_out.get(study_id):
        print(f"  a big study: listed are its newest {RECENT_TRIALS:,} trials and its {BEST_TRIALS} best, pruned "
              f"ones without their parameters; {view.left_out[study_id]:,} older trials are left out (`tuner "
              f"report` plots them all; --all-trials lists every trial whole, slowly)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
    finally:
        server.server_close()
