"""`tuner dashboard`: optuna-dashboard on a study's storage and artifacts.

The server is optuna-dashboard's WSGI application on a threaded wsgiref server (what its own command line
runs), bound here so that the real port is known before the first request: `--port 0` picks a free one.

A big study is served through `RecentPrunedView`, unless `--all-trials`. optuna-dashboard's study page asks for
every trial at once and serializes each with every parameter and its distribution (~10 kB of JSON a trial with
31 parameters); for each trial it also walks its search-space cache (~150 us a trial, whatever the trial holds).
At 30,000 trials that is a 300 MB answer and ~30 s (measured: benchmarks/large_study.py), most of it for the
PRUNED trials, the race's dropped candidates (~92% of the trials of a quickstart-like study). The view:

- serves a study of at most FULL_STUDY trials as it is stored;
- beyond, keeps every COMPLETE, RUNNING, WAITING and FAIL trial whole, and lists the PRUNED trials among the
  newest RECENT_TRIALS trials (when the server first listed the study) slim: as PRUNED, with their value (the
  race's estimate), intermediate values, dates and scalar user attributes (`win_rate`, `pruned`, `worker`);
- leaves out their parameters, their `bot_params` and `result` attributes and their system attributes (which
  would serve as much JSON as a whole trial, for candidates the race found worse), and the older PRUNED trials
  altogether: even bare, 28,000 of them cost ~5 s, the search-space walk alone (their numbers then have gaps).
  `tuner export STUDY.toml --trial N`, `tuner report` and `--all-trials` still have them.
The history, intermediate-value, importance and parameter plots keep every fully played trial. A trial listed
once stays listed (a running trial later pruned turns slim in place), so the list only grows at its end, as the
page's polling (`?after=<trials it has>`) needs.
"""
from __future__ import annotations

import errno
import sys
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import optuna_dashboard
from optuna.storages import BaseStorage
from optuna.trial import FrozenTrial, TrialState

from tuner.errors import UserError
from tuner.storage import open_artifact_store
from tuner.storage._optuna_compat import trial_id
from tuner.study.bots import load_existing_study
from tuner.study.file import StudyConfig

FULL_STUDY = 2_000  # trials of a study served as stored
RECENT_TRIALS = 2_000  # the newest trials among which PRUNED ones are listed (slim) in a bigger study


class RecentPrunedView(BaseStorage):
    """A read view of a storage for optuna-dashboard (see the module doc); everything but the trial lists goes to
    the storage as it is (the dashboard's own writes, notes and the like, included)."""

    def __init__(self, storage, full_study: int = FULL_STUDY, recent: int = RECENT_TRIALS) -> None:
        self._storage = storage
        self._full_study = full_study
        self._recent = recent
        self._cutoff: dict = {}  # study id -> first trial number whose PRUNED trials are listed (None: all, whole)
        self._slim: dict = {}  # trial id -> its slim copy (a finished trial never changes)
        self.left_out: dict = {}  # study id -> PRUNED trials left out when the study was first listed

    def __getattr__(self, name):
        return getattr(self._storage, name)

    def _slim_copy(self, trial: FrozenTrial) -> FrozenTrial:
        key = trial_id(trial)
        slim = self._slim.get(key)
        if slim is None:
            slim = FrozenTrial(number=trial.number, state=trial.state, value=None, values=trial.values,
                               datetime_start=trial.datetime_start, datetime_complete=trial.datetime_complete,
                               params={}, distributions={}, system_attrs={}, trial_id=key,
                               user_attrs={k: v for k, v in trial.user_attrs.items()
                                           if not isinstance(v, (dict, list))},
                               intermediate_values=trial.intermediate_values)
            self._slim[key] = slim
        return slim

    def get_all_trials(self, study_id, deepcopy=True, states=None):
        trials = self._storage.get_all_trials(study_id, deepcopy=False, states=states)
        if study_id not in self._cutoff:
            every = trials if states is None else self._storage.get_all_trials(study_id, deepcopy=False)
            big = len(every) > self._full_study
            self._cutoff[study_id] = len(every) - self._recent if big else None
            self.left_out[study_id] = sum(t.state == TrialState.PRUNED and t.number < self._cutoff[study_id]
                                          for t in every) if big else 0
        cutoff = self._cutoff[study_id]
        if cutoff is None:
            return trials
        return [t if t.state != TrialState.PRUNED else self._slim_copy(t)
                for t in trials if t.state != TrialState.PRUNED or t.number >= cutoff]


def _forward(name):
    def method(self, *args, **kwargs):
        return getattr(self._storage, name)(*args, **kwargs)

    method.__name__ = name
    return method


for _name in BaseStorage.__abstractmethods__:  # the storage's own, as they are
    if _name not in RecentPrunedView.__dict__:
        setattr(RecentPrunedView, _name, _forward(_name))
RecentPrunedView.__abstractmethods__ = frozenset()


class _ThreadedServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format, *args):  # one line per request would bury the URL
        pass


def dashboard_server(config: StudyConfig, host: str = "127.0.0.1", port: int = 8080, all_trials: bool = False):
    """(server, url of the study's page, the view or None). The caller runs `server.serve_forever()`."""
    storage, study = load_existing_study(config)
    study_id = storage.get_study_id_from_name(config.name)
    store = open_artifact_store(config.artifacts)
    view = None if all_trials else RecentPrunedView(storage)
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
        print(f"  a big study: pruned trials are listed without their parameters, and the "
              f"{view.left_out[study_id]:,} older than the newest {RECENT_TRIALS:,} trials are left out "
              f"(--all-trials lists every trial whole, slowly)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
    finally:
        server.server_close()
