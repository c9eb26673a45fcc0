"""Versions recorded with every result, so a figure can be traced to the code and libraries that produced it.

A result depends on the project's own sources (the compiled policies and rules, the tuner's search), on the
libraries that compute it (NumPy, Numba and llvmlite for the games; Optuna, cmaes and SciPy for the search) and on
Python. `versions()` names them all, with a digest of the project's sources; `versions_key` is a short digest of
that record, which each trial stores in place of the whole record (the study keeps the records by key).
"""
from __future__ import annotations

import hashlib
import json
import platform
from functools import lru_cache
from importlib import metadata

from engine.sources import source_digest as digest_of

LIBRARIES = ("numpy", "numba", "llvmlite", "optuna", "cmaes", "scipy")


def package_version() -> str:
    try:
        return metadata.version("photosynthesis-tuner")
    except metadata.PackageNotFoundError:
        return "unknown"


@lru_cache(maxsize=1)
def source_digest() -> str:
    """A digest of the project's Python sources (exported bots excluded): any edit changes it."""
    return digest_of()


@lru_cache(maxsize=1)
def cpu() -> str:
    """The machine's architecture and the SIMD extensions NumPy found beyond its baseline. A CMA-ES or random study
    does not depend on them (the same study on every machine: `tuner.search.portable_cma`); Optuna's TPE and
    NSGA-II samplers compute with NumPy's exp and log, whose AVX-512 versions round differently."""
    import numpy as np

    found = np.show_config(mode="dicts").get("SIMD Extensions", {}).get("found", [])
    return " ".join([platform.machine(), *found])


def versions() -> dict:
    out = {"photosynthesis-tuner": package_version(), "source": source_digest(), "python": platform.python_version(),
           "cpu": cpu()}
    for name in LIBRARIES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pass
    return out


def versions_key(record: dict) -> str:
    return hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()[:12]
