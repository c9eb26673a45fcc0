"""`tuner report`: the top trials as a table, and Optuna's plots written as HTML files."""
from tests.conftest import load_study, run_tuner, write_study


def test_the_report_ranks_fully_played_trials_and_writes_the_plots(tuned_study, tmp_path):
    out = tmp_path / "report"
    result = run_tuner("report", str(tuned_study), "--out", str(out), "--top", "3")
    assert result.returncode == 0, result.stderr
    study = load_study(tuned_study)
    played = sorted((t for t in study.trials if not t.user_attrs["pruned"]), key=lambda t: (-t.value, t.number))
    lines = result.stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if line.strip().startswith("trial"))
    rows = [line.split() for line in lines[header + 1:header + 1 + min(3, len(played))]]
    assert [int(row[0]) for row in rows] == [t.number for t in played[:3]]
    assert f"{played[0].user_attrs['win_rate']:.1%}" in lines[header + 1]
    assert "parameters (baseline and the top trials)" in result.stdout
    for name in ("history.html", "importances.html", "parallel_coordinates.html"):
        text = (out / name).read_text(encoding="utf-8")
        assert "plotly" in text.lower() and 'src="plotly.min.js"' in text
    assert (out / "plotly.min.js").stat().st_size > 100_000


def test_the_report_of_a_study_not_run_yet_is_an_error(tmp_path):
    path = write_study(tmp_path)
    result = run_tuner("report", str(path))
    assert result.returncode == 2 and "does not exist yet" in result.stderr
