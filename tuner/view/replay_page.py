"""A game trace as one self-contained HTML page that replays it frame by frame.

The page is a template (`page.html`, styles inline) plus a script (`page.js`), both package data. The trace
is reduced here to one display frame per record: frame 0 is the start (the header's map and starting trees),
frame i the state after record i (GATHERING, ACTIONS, SUN_MOVE), the last frame the END record with the final
scores. The frames are embedded as JSON in a `<script type="application/json">` element, so the page needs
nothing but itself: no network, no server.
"""
from __future__ import annotations

import html
import json
import re
from importlib import resources
from pathlib import Path
from typing import Any, Optional

from engine.files import read_text
from engine.geometry import CELLS, CUBES
from tuner.errors import UserError

TEXT_LIMIT = 160  # an answer or a reason may be megabytes long: the page shows its start
KINDS = ("GATHERING", "ACTIONS", "SUN_MOVE")
SHADOW_LEAGUE = 3


def read_trace(path: Path) -> list[dict]:
    """The records of a trace file (JSON lines, plain or gzip-compressed), checked to make a replay page;
    UserError names the file and what is wrong with it."""
    path = Path(path)
    try:
        lines = read_text(path).splitlines()
    except FileNotFoundError:
        raise UserError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise UserError(f"{path}: is a directory, not a game trace") from None
    except UnicodeDecodeError:
        raise UserError(f"{path}: not a game trace (not UTF-8 text)") from None
    except (OSError, EOFError) as error:
        raise UserError(f"{path}: cannot read ({getattr(error, 'strerror', None) or error})") from None
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise UserError(f"{path}: line {number} is not JSON ({error.msg}); expected a game trace "
                            f"(`tuner play --trace`)") from None
        if not isinstance(record, dict) or "t" not in record:
            raise UserError(f"{path}: line {number} is not a game record (no 't' field)")
        records.append(record)
    if not records:
        raise UserError(f"{path}: empty file, not a game trace")
    try:
        _check_trace(records)
        replay_data(records)
    except UserError as error:
        raise UserError(f"{path}: {error}") from None
    return records


def _check_trace(records: list) -> None:
    if not records or not isinstance(records[0], dict) or records[0].get("t") != "header":
        raise UserError("the first record is not a header: not a game trace")
    if records[-1].get("t") != "END":
        raise UserError("the last record is not END (truncated trace?)")
    header = records[0]
    for key in ("p0", "p1", "league", "max_days", "map"):
        if key not in header:
            raise UserError(f"the header has no '{key}' field")
    if header["league"] not in (1, 2, 3):
        raise UserError(f"header league {_short(repr(header['league']))} is not 1, 2 or 3")
    if type(header["max_days"]) is not int or header["max_days"] < 1:
        raise UserError(f"header max_days {_short(repr(header['max_days']))} is not a positive integer")
    cells = header["map"].get("cells") if isinstance(header["map"], dict) else None
    if not isinstance(cells, list) or len(cells) != CELLS:
        raise UserError(f"the header's map does not list {CELLS} cells")


def render_replay(records: list[dict], title: str = "") -> str:
    """One HTML page (script and styles inline) replaying the game whose records are given."""
    _check_trace(records)
    data = replay_data(records, title)
    package = resources.files("tuner.view")
    template = (package / "page.html").read_text(encoding="utf-8")
    script = (package / "page.js").read_text(encoding="utf-8")
    values = {
        "TITLE": html.escape(data["title"]),
        "DATA": _script_json(data),
        "SCRIPT": script.replace("</", "<\\/"),
    }
    return re.sub(r"\{\{(TITLE|DATA|SCRIPT)\}\}", lambda m: values[m.group(1)], template)


def write_replay(path: Path, records: list[dict], title: str = "") -> None:
    """Write `render_replay(records, title)` to `path`; UserError if it cannot be written."""
    page = render_replay(records, title)
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(page, encoding="utf-8")
    except OSError as error:
        raise UserError(f"cannot write {path}: {error.strerror or error}") from None


def default_title(header: dict) -> str:
    return f"{header['p0']} vs {header['p1']}, seed {header.get('seed', '?')}, league {header['league']}"


def replay_data(records: list[dict], title: str = "") -> dict:
    """What the page shows: the board, the players and one display frame per record."""
    header = records[0]
    try:
        richness, neighbors, trees = _board(header)
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise UserError(f"record 1 (header): malformed map ({type(error).__name__}: {_short(str(error))})") from None
    shadows_on = header["league"] == SHADOW_LEAGUE
    state = {"day": 0, "orientation": 0, "nutrients": 20, "players": [[0, 0, 0, 1], [0, 0, 0, 1]], "trees": trees}
    frames = [_frame(state, "START", 0, shadows_on, neighbors)]
    for index, record in enumerate(records[1:], 1):
        try:
            frames.append(_next_frame(record, state, shadows_on, neighbors))
        except UserError as error:
            raise UserError(f"record {index + 1} ({record.get('t')}): {error}") from None
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise UserError(f"record {index + 1} ({record.get('t')}): malformed ({type(error).__name__}: "
                            f"{_short(str(error))})") from None
    return {
        "title": title or default_title(header),
        "names": [str(header["p0"]), str(header["p1"])],
        "seed": header.get("seed"), "league": header["league"], "max_days": header["max_days"],
        "cubes": [list(cube) for cube in CUBES], "richness": richness,
        "frames": frames,
    }


def _board(header: dict) -> tuple[list, list, list]:
    """Richness and neighbours by cell, and the starting trees as [cell, size, owner, dormant]."""
    cells = header["map"]["cells"]
    richness = [int(cell["richness"]) for cell in cells]
    neighbors = [[int(n) for n in cell["neighbors"]] for cell in cells]
    if any(len(n) != 6 or not all(-1 <= c < CELLS for c in n) for n in neighbors):
        raise ValueError("a cell's neighbours are not 6 cells or -1")
    trees = [_tree(t["cell"], t["size"], t["owner"], 0) for t in header["map"].get("starting_trees", [])]
    return richness, neighbors, trees


def _next_frame(record: dict, state: dict, shadows_on: bool, neighbors: list) -> dict:
    kind = record["t"]
    turn = int(record.get("turn", 0))
    if kind == "GATHERING":
        state["day"] = int(record["day"])
        state["orientation"] = int(record["sun_orientation"])
        state["nutrients"] = int(record["nutrients"])
        for p in range(2):
            state["players"][p][0] = int(record["sun_after"][p])
            state["players"][p][2] = 0
        for tree in state["trees"]:
            tree[3] = 0
        frame = _frame(state, kind, turn, shadows_on, neighbors)
        frame["shadows"] = [[int(c), int(s)] for c, s in record["shadows"]]
        frame["gained"] = [int(g) for g in record["gained"]]
        return frame
    if kind == "ACTIONS":
        _take_state(state, record["after"])
        state["day"] = int(record["day"])
        state["orientation"] = int(record["sun_orientation"])
        frame = _frame(state, kind, turn, shadows_on, neighbors)
        frame["moves"] = [_move(record, p) for p in range(2)]
        frame["conflict"] = record.get("seed_conflict")
        return frame
    if kind == "SUN_MOVE":
        state["day"] = int(record["day_after"])
        state["orientation"] = int(record["sun_orientation"])
        frame = _frame(state, kind, turn, shadows_on, neighbors)
        frame["day_before"] = int(record["day_before"])
        return frame
    if kind == "END":
        _take_state(state, record["state"])
        state["day"] = int(record["day"])
        frame = _frame(state, kind, int(record["turns"]), shadows_on, neighbors)
        frame["final"] = [int(s) for s in record["final_scores"]]
        frame["before_bonus"] = [int(s) for s in record["score_before_bonus"]]
        frame["sun_bonus"] = [int(s) for s in record["sun_bonus"]]
        frame["tree_bonus"] = [int(s) for s in record["tree_bonus"]]
        frame["winner"] = record["winner"]
        frame["deactivated"] = [{"player": int(d["player"]), "turn": int(d["turn"]), "reason": _short(d["reason"])}
                                for d in record.get("deactivated", [])]
        return frame
    raise UserError(f"unknown record type {_short(repr(kind))}; expected one of {', '.join(KINDS)} or END")


def _take_state(state: dict, snapshot: dict) -> None:
    if len(snapshot["players"]) != 2:
        raise ValueError("the state does not have two players")
    state["nutrients"] = int(snapshot["nutrients"])
    state["players"] = [[int(p["sun"]), int(p["score"]), int(bool(p["waiting"])), int(bool(p["active"]))]
                        for p in snapshot["players"]]
    state["trees"] = [_tree(c, size, owner, dormant) for c, size, owner, dormant in snapshot["trees"]]


def _tree(cell, size, owner, dormant) -> list:
    tree = [int(cell), int(size), int(owner), int(dormant)]
    if not (0 <= tree[0] < CELLS and 0 <= tree[1] <= 3 and tree[2] in (0, 1) and tree[3] in (0, 1)):
        raise ValueError(f"tree {tree} is not [cell 0-36, size 0-3, owner 0-1, dormant 0-1]")
    return tree


def _move(record: dict, p: int) -> Optional[list]:
    """[answer, action, error, disqualified] of player p in an ACTIONS record, or None if it was not asked."""
    action = record["action"][p]
    if action is None:
        return None
    output = record["output"][p]
    error = record["error"][p]
    disqualified = action in ("TIMEOUT", "INVALID")
    return [None if output is None else _short(output), action, None if error is None else _short(error),
            int(disqualified)]


def _frame(state: dict, kind: str, turn: int, shadows_on: bool, neighbors: list) -> dict:
    return {
        "k": kind, "turn": turn, "day": state["day"], "orientation": state["orientation"],
        "nutrients": state["nutrients"], "players": [list(p) for p in state["players"]],
        "trees": [list(t) for t in state["trees"]],
        "shadows": shadows(state["trees"], state["orientation"], neighbors) if shadows_on else [],
    }


def shadows(trees: list, orientation: int, neighbors: list) -> list:
    """[[cell, size]] sorted by cell: the largest tree shading each cell when the sun shines towards
    `orientation` (a tree of size s shades the s cells after it in that direction)."""
    shade = [0] * len(neighbors)
    for cell, size, _owner, _dormant in trees:
        at = cell
        for _ in range(size):
            at = neighbors[at][orientation]
            if at < 0:
                break
            shade[at] = max(shade[at], size)
    return [[c, s] for c, s in enumerate(shade) if s]


def _short(text: Any) -> str:
    text = str(text)
    return text if len(text) <= TEXT_LIMIT else text[:TEXT_LIMIT - 3] + "..."


def _script_json(value: Any) -> str:
    """JSON safe inside a <script> element: no '</script>' or '<!--' can end or change it."""
    return (json.dumps(value, separators=(",", ":"), ensure_ascii=False)
            .replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))
