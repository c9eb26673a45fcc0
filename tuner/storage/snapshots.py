"""Snapshots of compact journals: a cache that makes opening a big study fast; never a part of the study.

Opening a journal replays every record (~40 a trial): ~1.3 ms a trial, 40 s at 30,000 trials. Optuna's
JournalStorage can instead start from a snapshot, its pickled replay state, and replay only the records after
it. A snapshot is saved
- by `tuner tune` while it runs, every SNAPSHOT_INTERVAL trials (a pickle of a 30,000-trial study costs ~1.5 s
  of CPU and ~90 MB on disk: every 500 trials, ~3 ms a trial);
- at the end of `tuner tune` (`save_snapshot`), so that the commands that follow replay nothing;
- by any command that opened a journal by replaying many records (REPLAY_SNAPSHOT_RECORDS), e.g. a study copied
  from another machine, or whose tuner was killed.

Where: `~/.cache/photosynthesis-tuner/snapshots/` (`$XDG_CACHE_HOME`, or `$TUNER_SNAPSHOT_DIR` instead), one file
per journal, named by a digest of the journal's real path. Not beside the study: a snapshot is bigger than the
journal it speeds up (~3 kB a trial against ~1.8), holds nothing the journal does not, and is a pickle, which
only a file of the user's own may be trusted to be. Deleting it (or the whole directory) loses nothing. The
study's storage is the journal alone: bytes per trial are the journal's (back up the journal, not the cache).

A snapshot is used only if it still describes the journal: it records the journal's size and crc32 at the
point it was taken, and the journal's first bytes up to there must have that crc (a truncated, rewritten or
replaced journal does not match; checking reads the journal once, ~25 ms for 50 MB). It also records the format,
Python (major.minor) and Optuna versions it was pickled with: another Python or Optuna never unpickles it; and
the crc32 of its own bytes: a damaged snapshot is ignored, never unpickled (Optuna takes a pickle it cannot
read for no state at all, while the backend would stand at the snapshot's offset: the study would look empty).
Snapshots of journals that no longer exist are deleted when another snapshot is saved.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
import zlib
from pathlib import Path
from typing import Optional

import optuna

from engine.files import replaced_atomically

FORMAT = 2  # 2: the crc of the snapshot's own bytes
MAGIC = b"tuner journal snapshot\n"
DIRECTORY_ENV = "TUNER_SNAPSHOT_DIR"
SNAPSHOT_INTERVAL = 500  # trials between the snapshots `tuner tune` saves while it runs
REPLAY_SNAPSHOT_RECORDS = 40_000  # records replayed at opening (~1,000 trials, ~1.3 s) that make a snapshot worth it
_CHUNK = 8 << 20


def directory() -> Path:
    chosen = os.environ.get(DIRECTORY_ENV)
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "photosynthesis-tuner" / "snapshots"


def snapshot_path(journal: str) -> Path:
    """The cache file of a journal's snapshot."""
    real = os.path.realpath(journal)
    return directory() / f"{hashlib.sha256(real.encode()).hexdigest()[:32]}.snapshot"


def versions() -> dict:
    return {"format": FORMAT, "python": f"{sys.version_info[0]}.{sys.version_info[1]}", "optuna": optuna.__version__}


def _journal_crc(journal: str, offset: int) -> Optional[int]:
    """crc32 of the journal's first `offset` bytes (None if it is shorter)."""
    crc = 0
    try:
        with open(journal, "rb") as handle:
            if os.fstat(handle.fileno()).st_size < offset:
                return None
            left = offset
            while left:
                chunk = handle.read(min(left, _CHUNK))
                if not chunk:
                    return None
                crc = zlib.crc32(chunk, crc)
                left -= len(chunk)
    except OSError:
        return None
    return crc


def write(journal: str, offset: int, number: int, crc: int, history: bytes, state: bytes) -> Optional[Path]:
    """Save a snapshot of `journal` taken at byte `offset` (`number` records, their crc); the path, or None if the
    cache cannot be written (a cache: never an error)."""
    path = snapshot_path(journal)
    header = {**versions(), "journal": os.path.realpath(journal), "offset": offset, "number": number, "crc": crc,
              "history": len(history), "state": len(state), "own_crc": zlib.crc32(state, zlib.crc32(history))}
    try:
        with replaced_atomically(path) as handle:
            handle.write(MAGIC + json.dumps(header).encode() + b"\n")
            handle.write(history)
            handle.write(state)
    except OSError:
        return None
    _forget_orphans(path)
    return path


def read(journal: str) -> Optional[tuple]:
    """(header, history, state) of the journal's snapshot if it matches the journal and this Python and Optuna;
    else None."""
    try:
        with open(snapshot_path(journal), "rb") as handle:
            blob = handle.read()
    except OSError:
        return None
    header = _header(blob)
    if header is None or any(header.get(k) != v for k, v in versions().items()) or \
            header.get("journal") != os.path.realpath(journal):
        return None
    start = blob.index(b"\n", len(MAGIC)) + 1
    history = blob[start:start + header["history"]]
    state = blob[start + header["history"]:]
    if len(history) != header["history"] or len(state) != header["state"]:
        return None
    if zlib.crc32(state, zlib.crc32(history)) != header["own_crc"]:  # a damaged cache file: never unpickled
        return None
    if _journal_crc(journal, header["offset"]) != header["crc"]:
        return None
    return header, history, state


def _header(blob: bytes) -> Optional[dict]:
    if not blob.startswith(MAGIC):
        return None
    try:
        end = blob.index(b"\n", len(MAGIC))
        header = json.loads(blob[len(MAGIC):end])
    except ValueError:
        return None
    if not isinstance(header, dict) or not all(isinstance(header.get(k), int) for k in
                                               ("offset", "number", "crc", "history", "state", "own_crc")):
        return None
    return header


def _forget_orphans(keep: Path) -> None:
    """Delete the snapshots whose journal is gone."""
    try:
        entries = list(keep.parent.glob("*.snapshot"))
    except OSError:
        return
    for entry in entries:
        if entry == keep:
            continue
        try:
            with open(entry, "rb") as handle:
                header = _header(handle.read(4096))
            if header is None or not os.path.exists(header.get("journal", "")):
                entry.unlink()
        except OSError:
            continue
