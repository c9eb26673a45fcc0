"""Writing files so that a reader never sees half of one and a failed write leaves the old one intact."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Optional


def write_atomically(path: Path, text: str, mode: Optional[int] = None) -> None:
    """Write `text` to a temporary file beside `path`, then rename it over `path` (creating its folder)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        if mode is not None:
            os.chmod(tmp, mode)
        tmp.replace(path)
    finally:
        if tmp.exists():
            tmp.unlink()
