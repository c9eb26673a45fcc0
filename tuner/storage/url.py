"""Where a study is stored: a journal file path or an Optuna storage URL, parsed once.

    path/to/study.journal           a journal file (the default: `<study file name>.journal` beside it)
    sqlite:///relative.db           an SQLite database (relative to the study file), sqlite:////absolute.db
    postgresql://USER@HOST:PORT/DB  PostgreSQL (psycopg 3), for long studies and several machines
    mysql://...                     MySQL (needs a driver: pip install pymysql)
    redis://HOST:PORT/DB            a journal on Redis
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Optional
from urllib.parse import parse_qs, unquote

JOURNAL = "journal"
SCHEMES = ("sqlite", "postgresql", "mysql", "redis", "rediss")
DRIVERS = {"postgresql": "psycopg[binary]", "mysql": "pymysql", "redis": "redis", "rediss": "redis"}


class StorageURLError(ValueError):
    """A storage that is neither a path nor a URL this tuner opens; the message says what is allowed."""


@dataclass(frozen=True)
class StorageURL:
    text: str  # an absolute journal file path, or a URL (an SQLite URL holds an absolute path)

    @classmethod
    def parse(cls, value, base: Path) -> StorageURL:
        """A path (relative to `base`) or a URL; StorageURLError says what is allowed."""
        if not isinstance(value, str) or not value.strip():
            raise StorageURLError(f"must be a journal file path or a storage URL, got {value!r}")
        value = value.strip()
        if "://" not in value:
            return cls(str((base / value).resolve()))
        scheme = value.split("://", 1)[0].split("+", 1)[0].lower()
        if scheme not in SCHEMES:
            raise StorageURLError(f"unknown storage {value!r} (allowed: a journal file path, or a URL starting with "
                                  f"{', '.join(s + '://' for s in SCHEMES)})")
        if scheme == "sqlite":
            value = _sqlite_url(value, base)
        return cls(value)

    @property
    def scheme(self) -> str:
        """`journal` for a journal file, else the URL's scheme without its driver (`postgresql`, `sqlite`, ...)."""
        if "://" not in self.text:
            return JOURNAL
        return self.text.split("://", 1)[0].split("+", 1)[0].lower()

    @property
    def file(self) -> Optional[Path]:
        """The file of a journal or an SQLite database; None for a server."""
        if self.scheme == JOURNAL:
            return Path(self.text)
        if self.scheme == "sqlite":
            return Path(_sqlite_file(self.text[len("sqlite:///"):]))
        return None

    @property
    def lock_file(self) -> Optional[Path]:
        """`<file>.tuner-lock` beside a journal or SQLite file: the study lock (`tuner.storage.lock`)."""
        return None if self.file is None else Path(f"{self.file}.tuner-lock")

    @property
    def sqlalchemy_url(self) -> str:
        """The URL for SQLAlchemy: a bare `postgresql://` names psycopg 3, the driver this package installs
        (SQLAlchemy 2.0 would pick psycopg2)."""
        if self.text.startswith("postgresql://"):
            return "postgresql+psycopg://" + self.text[len("postgresql://"):]
        return self.text

    @property
    def driver(self) -> str:
        return DRIVERS.get(self.scheme, self.scheme)

    def exists(self) -> bool:
        """Whether a journal or SQLite file is there already (servers: assumed so)."""
        return self.file.is_file() if self.file is not None else True

    def __str__(self) -> str:
        """As a user reads it: a path, or a URL without its password."""
        if "://" not in self.text:
            return self.text
        scheme, rest = self.text.split("://", 1)
        if "@" in rest.split("/", 1)[0]:
            credentials, host = rest.split("@", 1)
            user = credentials.split(":", 1)[0]
            return f"{scheme}://{user}:***@{host}" if ":" in credentials else f"{scheme}://{user}@{host}"
        return self.text


def _sqlite_url(value: str, base: Path) -> str:
    """An SQLite URL naming its database file by an absolute path (relative to `base`); StorageURLError if it
    names no file (SQLite would make an in-memory database, lost when the command ends)."""
    usage = "sqlite:///RELATIVE.db or sqlite:////ABSOLUTE.db"
    if not value.startswith("sqlite:///"):
        raise StorageURLError(f"{value!r} must be {usage}")
    db, _, query = value[len("sqlite:///"):].partition("?")
    database = unquote(db)
    if not database.strip():
        raise StorageURLError(f"{value!r} must be {usage}")
    if database == ":memory:" or database.startswith("file::memory:") or "memory" in parse_qs(query).get("mode", ()):
        raise StorageURLError(f"{value!r} is an in-memory SQLite database, lost when the command ends: it must be "
                              f"a database file, {usage}")
    if Path(db).is_absolute():
        return value
    return "sqlite:///" + str((base / db).resolve()) + ("?" + query if query else "")


def _sqlite_file(rest: str) -> str:
    """The database file of an SQLite URL's part after `sqlite:///`, as SQLAlchemy reads it: up to the query
    string (`?mode=ro`), percent-decoded."""
    return unquote(rest.partition("?")[0])


def describe_storage(storage) -> str:
    """A storage (URL object or text) as a user reads it: a path, or a URL without its password."""
    return str(storage if isinstance(storage, StorageURL) else StorageURL(str(storage)))
