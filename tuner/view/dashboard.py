"""`tuner dashboard`: optuna-dashboard on a study's storage and artifact store.

The server is optuna-dashboard's WSGI application on a threaded wsgiref server (what its own command line
runs), bound here so that the real port is known before the first request: `--port 0` picks a free one.
"""
from __future__ import annotations

import errno
import sys
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import optuna_dashboard

from tuner.errors import UserError
from tuner.storage import open_artifact_store
from tuner.study.bots import load_existing_study
from tuner.study.file import StudyConfig


class _ThreadedServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format, *args):  # one line per request would bury the URL
        pass


def dashboard_server(config: StudyConfig, host: str = "127.0.0.1", port: int = 8080):
    """(server, url of the study's page). The caller runs `server.serve_forever()`."""
    storage, study = load_existing_study(config)
    study_id = storage.get_study_id_from_name(config.name)
    store = open_artifact_store(config.artifacts)
    app = optuna_dashboard.wsgi(storage, artifact_store=store)
    try:
        server = make_server(host, port, app, server_class=_ThreadedServer, handler_class=_QuietHandler)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            raise UserError(f"--port {port}: the port is in use (another port, or --port 0 for a free one)") from None
        raise UserError(f"--host {host} --port {port}: cannot listen ({error.strerror or error})") from None
    shown = f"[{host}]" if ":" in host else host
    return server, f"http://{shown}:{server.server_port}/dashboard/studies/{study_id}"


def serve(config: StudyConfig, host: str, port: int) -> None:
    server, url = dashboard_server(config, host, port)
    print(f"optuna-dashboard: study {config.name!r} at {url}", flush=True)
    print(f"  storage {config.storage}, artifacts {config.artifacts}; Ctrl-C to stop", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
    finally:
        server.server_close()
