"""A private, throwaway PostgreSQL server for the tests and benchmarks that restart, stop or cut their database
(test_outage.py beside it, the soak benchmark): `initdb` into a temporary folder, `pg_ctl start` on a free
port of 127.0.0.1, trust authentication, removed when closed. The shared test server (TUNER_TEST_POSTGRES_URL)
is never touched.

The binaries are Debian's (/usr/lib/postgresql/VERSION/bin, the newest) or the ones on PATH. As root they run as
the `postgres` user (`runuser`), who owns the folder: PostgreSQL refuses to run as root.
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Optional

USER = "postgres"  # the OS user that runs the server when this process is root


def binaries() -> Optional[Path]:
    """The folder of `initdb` and `pg_ctl`, or None when PostgreSQL is not installed."""
    debian = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3])
                    if p.parts[-3].isdigit() else 0)
    if debian:
        return debian[-1].parent
    found = shutil.which("initdb")
    return Path(found).parent if found else None


def missing() -> Optional[str]:
    """Why a private server cannot run here, or None."""
    if binaries() is None:
        return "PostgreSQL's initdb and pg_ctl are not installed (Debian: apt-get install postgresql)"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "running as root without runuser, so the PostgreSQL server cannot run as another user"
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PrivateServer:
    """One server: `start`, `stop`, `restart`, `terminate` connections; `close` stops it and removes its folder."""

    def __init__(self) -> None:
        self.bin = binaries()
        assert self.bin is not None, missing()
        self.root = Path(tempfile.mkdtemp(prefix="tuner-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.url = f"postgresql://{USER}@127.0.0.1:{self.port}/postgres"
        self._as = ["runuser", "-u", USER, "--"] if os.geteuid() == 0 else []
        if self._as:
            shutil.chown(self.root, USER)
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", USER, "--no-sync", "-E", "UTF8")
        with open(self.data / "postgresql.conf", "a", encoding="utf-8") as conf:
            conf.write(f"port = {self.port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = "
                       f"'{self.root}'\nfsync = off\nsynchronous_commit = off\nfull_page_writes = off\n"
                       f"max_connections = 200\n")
        self.start()

    def _run(self, tool: str, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run([*self._as, str(self.bin / tool), *args], capture_output=True, text=True,
                              cwd=self.root, check=check, timeout=120)

    def start(self) -> None:
        self._run("pg_ctl", "start", "-w", "-D", str(self.data), "-l", str(self.root / "server.log"))

    def stop(self, mode: str = "fast") -> None:
        """Stop the server: `fast` (its sessions are ended, as a restart does) or `immediate` (a crash)."""
        self._run("pg_ctl", "stop", "-w", "-m", mode, "-D", str(self.data))

    def restart(self, down: float = 0.0, mode: str = "fast") -> None:
        """Stop, stay down `down` seconds, start."""
        self.stop(mode)
        time.sleep(down)
        self.start()

    def running(self) -> bool:
        return self._run("pg_ctl", "status", "-D", str(self.data), check=False).returncode == 0

    def sql(self, query: str) -> list:
        """The rows of `query`, run on a connection of its own (psycopg, autocommit)."""
        import psycopg

        with psycopg.connect(self.url, autocommit=True, connect_timeout=10) as connection:
            cursor = connection.execute(query)
            return cursor.fetchall() if cursor.description else []

    def terminate(self, where: str = "true") -> int:
        """End the sessions of other clients that match `where` (SQL on pg_stat_activity), as a network drop or an
        administrator would; how many."""
        rows = self.sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() "
                        f"AND backend_type = 'client backend' AND ({where})")
        return sum(1 for (ended,) in rows if ended)

    def close(self) -> None:
        if self.data.exists() and self.running():
            self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)
