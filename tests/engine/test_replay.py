import copy
import gzip
import json
import shutil

import pytest

from engine.replay import TraceError, read_records, replay_file, replay_records
from tests.conftest import GAMES, read_jsonl_gz, run_tuner


def test_all_60_recorded_games_replay_exactly():
    assert len(GAMES) == 60
    differences = {path.name: str(d) for path in GAMES if (d := replay_file(path)) is not None}
    assert differences == {}


@pytest.fixture(scope="module")
def conflict_game():
    return read_jsonl_gz(next(p for p in GAMES if p.name.startswith("game_036")))


def _frames(records, kind):
    return [i for i, r in enumerate(records) if r["t"] == kind]


def test_replay_detects_a_reordered_possible_move(conflict_game):
    records = copy.deepcopy(conflict_game)
    frame = next(i for i in _frames(records, "ACTIONS") if records[i]["input"][0] and len(records[i]["input"][0]) > 20)
    moves = records[frame]["input"][0]
    moves[-1], moves[-2] = moves[-2], moves[-1]
    difference = replay_records(records)
    assert difference is not None and difference.field.startswith("input[0]")
    assert difference.frame == records[frame]["turn"]


@pytest.mark.parametrize("field, change", [
    ("rng", lambda r: r + 1),
    ("seed_conflict", lambda r: 99),
    ("after", lambda r: {**r, "nutrients": r["nutrients"] - 1}),
])
def test_replay_detects_a_changed_actions_field(conflict_game, field, change):
    records = copy.deepcopy(conflict_game)
    frame = _frames(records, "ACTIONS")[7]
    records[frame][field] = change(records[frame][field])
    difference = replay_records(records)
    assert difference is not None and difference.frame == records[frame]["turn"]
    assert difference.field.startswith(field)


def test_replay_detects_a_changed_answer_and_end(conflict_game):
    records = copy.deepcopy(conflict_game)
    frame = next(i for i in _frames(records, "ACTIONS") if (records[i]["output"][1] or "WAIT") != "WAIT")
    records[frame]["output"][1] = "WAIT"
    assert replay_records(records).field == "action[1]"
    records = copy.deepcopy(conflict_game)
    records[-1]["tree_bonus"] = [5, 5]
    assert replay_records(records).frame == "END"


def test_replay_detects_a_header_that_leaves_out_part_of_the_map(conflict_game):
    records = copy.deepcopy(conflict_game)
    records[0]["map"] = {}
    difference = replay_records(records)
    assert difference is not None and difference.frame == "header" and difference.field.startswith("map.")
    assert difference.expected == "(missing)"
    records = copy.deepcopy(conflict_game)
    records[0]["global_input"] = records[0]["global_input"][:-1]
    assert replay_records(records).field == "global_input length"


def test_replay_detects_wrong_shadows_and_truncation(conflict_game):
    records = copy.deepcopy(conflict_game)
    gathering = next(i for i in _frames(records, "GATHERING") if records[i]["shadows"])
    records[gathering]["shadows"][0][1] += 1
    assert replay_records(records).field.startswith("shadows")
    records = copy.deepcopy(conflict_game)
    del records[-2]
    assert "goes on" in str(replay_records(records))


def test_replay_command_reports_one_line_per_file(tmp_path):
    good = tmp_path / "good.jsonl"
    good.write_text(gzip.open(GAMES[0], "rt").read())
    bad_records = read_jsonl_gz(GAMES[40])
    bad_records[-1]["final_scores"] = [0, 0]
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(r) + "\n" for r in bad_records))
    result = run_tuner("replay", str(good), str(GAMES[1]))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines() == [f"{good}: ok", f"{GAMES[1]}: ok"]
    result = run_tuner("replay", str(good), str(bad))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0] == f"{good}: ok" and lines[1].startswith(f"{bad}: frame END, final_scores[0]: expected 0")


@pytest.mark.parametrize("content, needle", [
    ("", "first record is not a header"),
    ("not json\n", "line 1 is not JSON"),
    ('{"t": "header"}\n{"t": "END"}\n', "header has no 'seed' field"),
    ("[1, 2]\n", "not a game record"),
])
def test_malformed_trace_files_are_clear_errors(tmp_path, content, needle):
    path = tmp_path / "trace.jsonl"
    path.write_text(content)
    with pytest.raises(TraceError, match=needle):
        read_records(path)
    result = run_tuner("replay", str(path))
    assert result.returncode == 2
    assert needle in result.stderr and "Traceback" not in result.stderr


def test_truncated_and_missing_trace_files(tmp_path):
    records = read_jsonl_gz(GAMES[3])
    path = tmp_path / "cut.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records[:-3]))
    result = run_tuner("replay", str(path), str(tmp_path / "missing.jsonl"))
    assert result.returncode == 2
    assert "last record is not END" in result.stderr and "no such file" in result.stderr


def test_replay_reads_compressed_records(tmp_path):
    copy_path = tmp_path / GAMES[5].name
    shutil.copy(GAMES[5], copy_path)
    assert replay_file(copy_path) is None


def test_a_game_record_opens_whatever_its_name_in_tuner_replay_and_tuner_view(tmp_path, capsys):
    """Both readers of game records (`tuner replay`, `tuner view`) tell gzip by its magic bytes, not by the name."""
    from tuner.cli import main

    compressed = GAMES[0].read_bytes()
    gzip_named_plain = tmp_path / "gzip.jsonl"
    gzip_named_plain.write_bytes(compressed)
    plain_named_gzip = tmp_path / "plain.jsonl.gz"
    plain_named_gzip.write_bytes(gzip.decompress(compressed))
    for path in (gzip_named_plain, plain_named_gzip):
        assert main(["replay", str(path)]) == 0 and capsys.readouterr().out == f"{path}: ok\n"
        page = tmp_path / f"{path.name}.html"
        assert main(["view", str(path), "-o", str(page)]) == 0 and page.stat().st_size > 10_000
        assert capsys.readouterr().out.startswith(f"{page}: ")
    broken = tmp_path / "broken.jsonl.gz"  # a gzip header (no flags), then data that is not deflate
    broken.write_bytes(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff" + b"\xff" * 20)
    for command in ("replay", "view"):
        assert main([command, str(broken)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"{broken}: cannot read" in err, err
