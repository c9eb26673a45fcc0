"""Versions recorded with every result, so a figure can be traced to the code that produced it."""
from __future__ import annotations

import platform
from importlib import metadata


def package_version() -> str:
    try:
        return metadata.version("photosynthesis-tuner")
    except metadata.PackageNotFoundError:
        return "unknown"


def versions() -> dict:
    out = {"photosynthesis-tuner": package_version(), "python": platform.python_version()}
    for name in ("numpy", "numba", "optuna"):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pass
    return out
