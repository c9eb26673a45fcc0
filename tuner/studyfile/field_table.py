"""The documentation's table of study-file fields (type, default, meaning), generated from the model's fields so
that it cannot drift from them (a test compares the two)."""
from __future__ import annotations

import json
from dataclasses import dataclass

from tuner.studyfile.model import FIELD_INFO, field_texts


@dataclass(frozen=True)
class FieldDoc:
    name: str
    type: str
    default_text: str
    doc: str


def _default_text(name: str) -> str:
    info = FIELD_INFO[name]
    if "default_text" in field_texts(name):
        return field_texts(name)["default_text"]
    if info.is_required():
        return "required"
    return "-" if info.default is None else json.dumps(info.default)


FIELDS = [FieldDoc(name, field_texts(name)["type_text"], _default_text(name), info.description or "")
          for name, info in FIELD_INFO.items()]


def fields_markdown() -> str:
    """The table of study-file fields, in Markdown."""
    rows = ["| field | type | default | meaning |", "|---|---|---|---|"]
    rows += [f"| `{f.name}` | {f.type} | {f.default_text} | {f.doc} |" for f in FIELDS]
    return "\n".join(rows)
