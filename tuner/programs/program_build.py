"""C++ programs the tuner builds itself: `cpp:SOURCE.cpp [arguments]`, a C++ source in place of a binary.

    bot = "cpp:../bots/examples/mysearch.cpp --time-ms {time_ms} --w-sun {w_sun} ..."

The first word of a `cpp:` command line is a C++ source, one file as CodinGame takes it; the rest are the program's
arguments. Before the first game the tuner builds the source as CodinGame builds it, `g++ -std=c++17` and no -O flag
(`export.cpp.build.codingame_build`: the project's C++ exports and their tests build the same way), and runs the
binary with the arguments. Builds are cached under the project's cache folder (`engine.cache.cache_root()`, then
`programs/`; `$TUNER_PROGRAM_CACHE` puts them elsewhere), one folder per build named by a digest of the source's
content, the compiler's flags and its version: an unchanged source is built once per machine, whichever study or
command asks for it (each worker of a study spread over machines builds its own), and an edited one is built again.
The folder keeps the source it was built from next to the binary.

A source that cannot be built is a `BuildError` (a `BotSpecError`: the commands print it as one line): the file is
missing or unreadable, g++ is not installed, or the compiler refused it, with its first error message.
"""
from __future__ import annotations

import fcntl
import functools
import hashlib
import os
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from bots.contract.names import PROGRAM_PREFIX, Bot, BotSpecError
from engine.cache import cache_root
from export.cpp.build import CODINGAME_FLAGS, codingame_build
from tuner.programs import CPP_PREFIX, CPP_SUFFIXES

COMPILER = "g++"
CACHE_ENV = "TUNER_PROGRAM_CACHE"  # a folder for the builds, in place of the project's cache folder
BUILD_TIMEOUT_S = 600
_ERROR = re.compile(r":\s*(?:fatal )?error:\s")


class BuildError(BotSpecError):
    """A C++ source that cannot be built: one line, naming the source and the compiler's first message."""


@dataclass(frozen=True)
class Build:
    """A C++ source's build: its binary, whether this call compiled it (False: the cached build), and the
    compiler's command line."""

    binary: Path
    compiled: bool
    command: str


def build_folder() -> Path:
    """Where builds are cached: $TUNER_PROGRAM_CACHE, else `programs/` in the project's cache folder."""
    override = os.environ.get(CACHE_ENV)
    return Path(override) if override else cache_root() / "programs"


@functools.cache
def compiler_version(compiler: str) -> str:
    """The first line of `g++ --version` (a different compiler builds a different binary)."""
    try:
        done = subprocess.run([compiler, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return (done.stdout.splitlines() or ["unknown"])[0].strip()


def first_message(stderr: str, returncode: int) -> str:
    """The compiler's first error line (`x.cpp:12:5: error: ...`), else its first line, else the exit code."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for line in lines:
        if _ERROR.search(line):
            return line
    return lines[0] if lines else f"the compiler exited with code {returncode}"


def build_cpp(source: Path) -> Build:
    """The binary of the C++ source `source`, built as CodinGame builds it unless the same build is cached
    (BuildError when it cannot be built)."""
    source = Path(source)
    if source.suffix.lower() not in CPP_SUFFIXES:
        raise BuildError(f"{source}: a C++ source is a file named *{', *'.join(CPP_SUFFIXES)}")
    try:
        text = source.read_bytes()
    except FileNotFoundError:
        raise BuildError(f"{source}: no such C++ source") from None
    except OSError as error:
        raise BuildError(f"{source}: cannot read ({error.strerror or error})") from None
    compiler = shutil.which(COMPILER)
    if compiler is None:
        raise BuildError(f"cannot build {source}: {COMPILER} is not installed (CodinGame builds C++ with g++; "
                         f"Debian's package g++)")
    stem = re.sub(r"[^A-Za-z0-9_.-]", "_", source.stem) or "program"
    digest = hashlib.sha256()
    for part in (COMPILER, *CODINGAME_FLAGS, compiler_version(compiler)):
        digest.update(part.encode() + b"\0")
    digest.update(text)
    folder = build_folder() / f"{stem}-{digest.hexdigest()[:16]}"
    binary = folder / stem
    command = codingame_build(source.name, stem)
    shown = " ".join(command)
    if binary.is_file():
        return Build(binary, False, shown)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with open(folder / ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # another worker building the same source: wait for its build
            if binary.is_file():
                return Build(binary, False, shown)
            copy = folder / f"{stem}{source.suffix}"
            copy.write_bytes(text)  # the source as read: an edit during the build cannot change what is built
            partial = f".{stem}.{os.getpid()}"
            try:
                done = subprocess.run(codingame_build(copy.name, partial, compiler=compiler), cwd=folder,
                                      capture_output=True, text=True, timeout=BUILD_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                raise BuildError(f"cannot build {source}: {shown} took more than {BUILD_TIMEOUT_S} s") from None
            if done.returncode != 0:
                (folder / partial).unlink(missing_ok=True)
                raise BuildError(f"{source} does not compile ({shown}): {first_message(done.stderr, done.returncode)}")
            os.replace(folder / partial, binary)
    except OSError as error:
        raise BuildError(f"cannot build {source} in {folder}: {error.strerror or error}") from None
    return Build(binary, True, shown)


_RUN_BINARIES: dict = {}  # source path: its binary, for this process


def run_binary(source: Path) -> Path:
    """`source`'s binary for this process: built (or found in the cache) when first asked for, then the same for
    the rest of the run, so that an edit of the source while a study runs does not change the program it plays."""
    key = os.path.abspath(source)
    if key not in _RUN_BINARIES:
        _RUN_BINARIES[key] = build_cpp(Path(source)).binary
    return _RUN_BINARIES[key]


def cpp_command(command: str) -> str:
    """A `cpp:` command line (without the prefix) as the command that runs it: the built binary, then the
    arguments (BuildError when the source cannot be built)."""
    try:
        words = shlex.split(command)
    except ValueError as error:
        raise BuildError(f"bot {CPP_PREFIX + command!r}: cannot split the command line into words ({error})") from None
    if not words:
        raise BuildError(f"bot {CPP_PREFIX!r}: the command line is empty (write cpp:SOURCE.cpp [arguments])")
    return shlex.join([str(run_binary(Path(words[0]))), *words[1:]])


def cpp_bot(text: str) -> Bot:
    """The bot a `cpp:SOURCE.cpp [arguments]` name describes: its source built, the binary run with the
    arguments."""
    text = text.strip()
    return Bot(text, command=cpp_command(text[len(CPP_PREFIX):].strip()))


__all__ = ["CPP_PREFIX", "PROGRAM_PREFIX", "Build", "BuildError", "build_cpp", "build_folder", "cpp_bot",
           "cpp_command", "first_message", "run_binary"]
