#!/usr/bin/env python3
"""What the tuner adds from a weak start: a study file's run started from naive weights instead of the bot's
tuned defaults, and how much of the gain survives on held-out seeds, against opponents no trial met and at the
playing budget.

    python benchmarks/naive_start.py [--study studies/quickstart.toml] [--start sunrate|middle] [--games 400]
                                     [--seed 1] [--trials N] [--sigma 0.15] [--out DIR]

The study file (by default the quickstart) runs as written but for its `baseline`: a parameter file of naive
weights, where the search starts and against which every gain is measured (and CMA-ES's `sigma`, `--sigma`).
`--start sunrate` gives `beam`'s evaluation the `sunrate` bot's values for the same terms (sun_per_point,
sun_per_point_left, w_cost, horizon, grow_days, prog1-3, seed_base, seed_w_rich, seed_w_line as ev_point ...
ev_place_line: how beam's defaults were first found); `--start middle` puts every parameter the study searches at
the middle of its range. The rest of the bot is its defaults. Then the chosen bot, the naive start and the bot's
own defaults play the same held-out seeds (the `match` stream, never a study's; each seed twice, sides swapped)
against the study's validation panel, the pool's styles and the held-out ones apart, at the search's budget and at
the playing budget (`[playing_budget]`). Prints, per opponent and budget, each bot's win rate, the tuned bot's gain over
the naive start with its 95% interval (paired on the seeds), and the share of the defaults' own gain over the naive
start that tuning recovered. Minutes of CPU: the study's own time, then 3 x 2 x games per opponent."""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bots.contract.paramfile import ParamFile, write_param_file  # noqa: E402
from bots.registry import schema_for  # noqa: E402
from tuner.play.gauntlet import run_gauntlet  # noqa: E402
from tuner.play.runner import GameRunner  # noqa: E402
from tuner.play.seeds import game_seeds  # noqa: E402
from tuner.results.botnames import study_bot  # noqa: E402
from tuner.results.picks import load_existing_study  # noqa: E402
from tuner.search.finals import validation_panel  # noqa: E402
from tuner.studyfile.file import read_study_file  # noqa: E402
from tuner.studyfile.space import SearchSpace  # noqa: E402
from tuner.studyfile.tunable import tuned_bot  # noqa: E402

# beam's evaluation from the sunrate bot's values for the same terms: (beam's parameter, sunrate's)
FROM_SUNRATE = (("ev_point", "sun_per_point"), ("ev_point_left", "sun_per_point_left"), ("ev_sun", "w_cost"),
                ("ev_horizon", "horizon"), ("ev_income_days", "grow_days"), ("ev_grown1", "prog1"),
                ("ev_grown2", "prog2"), ("ev_grown3", "prog3"), ("ev_place", "seed_base"),
                ("ev_place_rich", "seed_w_rich"), ("ev_place_line", "seed_w_line"))


def naive_params(bot: str, start: str, space: SearchSpace) -> dict:
    """The bot's defaults with the naive weights: sunrate's for beam's evaluation, or each searched parameter's
    range middle."""
    schema = schema_for(bot)
    values = dict(space.baseline())
    if start == "sunrate":
        if bot != "beam":
            raise SystemExit("--start sunrate gives beam's evaluation sunrate's values: the study must tune beam")
        sunrate = schema_for("sunrate").defaults()
        for name, source in FROM_SUNRATE:
            values[name] = schema.by_name[name].check(min(max(sunrate[source], schema.by_name[name].low),
                                                          schema.by_name[name].high))
    else:
        for d in space.dimensions:
            if d.type != "choice":
                middle = (d.low + d.high) / 2
                values[d.name] = int(round(middle)) if d.type == "int" else float(middle)
    return schema.validate(values)


def study_with_baseline(study: Path, folder: Path, baseline: Path, overrides: dict[str, float | None]) -> Path:
    """A copy of the study file in `folder`, its storage there, started from `baseline`, with the top-level
    fields in `overrides` that are not None replaced."""
    text = study.read_text(encoding="utf-8")
    head = ""
    for field, value in {"baseline": f'"{baseline}"', **overrides}.items():
        if value is not None:
            head += f"{field} = {value}\n"
            text = "\n".join(line for line in text.splitlines() if not line.startswith(f"{field} ")) + "\n"
    path = folder / study.name
    path.write_text(head + text, encoding="utf-8")
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--study", type=Path, default=ROOT / "studies" / "quickstart.toml")
    parser.add_argument("--start", choices=("sunrate", "middle"), default="sunrate")
    parser.add_argument("--games", type=int, default=400, help="games per opponent, bot and budget (even)")
    parser.add_argument("--seed", type=int, default=1, help="the held-out seeds (`match` stream)")
    parser.add_argument("--trials", type=int, help="the study's trials (default: the study file's)")
    parser.add_argument("--sigma", type=float, default=0.15,
                        help="CMA-ES's first steps, a fraction of each range: a naive start is far from good "
                             "weights (default 0.15; beam's defaults were found so)")
    parser.add_argument("--jobs", default="all")
    parser.add_argument("--out", type=Path, help="keep the study here (default: a temporary folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        folder = args.out or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        config = read_study_file(args.study)
        space = SearchSpace.for_config(config)
        naive = naive_params(config.bot, args.start, space)
        baseline = folder / "naive.json"
        write_param_file(baseline, ParamFile(config.bot, config.league, naive, {"start": args.start}))
        path = study_with_baseline(args.study, folder, baseline, {"trials": args.trials, "sigma": args.sigma})
        print(f"tuning {config.bot} from the naive start ({args.start}, sigma {args.sigma}): tuner tune {path}",
              flush=True)
        tuned = subprocess.run([sys.executable, "-m", "tuner.cli", "tune", str(path), "--jobs", args.jobs,
                                "--no-progress"], cwd=ROOT)
        if tuned.returncode != 0:
            raise SystemExit(f"naive_start: tuner tune {path} ended with exit code {tuned.returncode}")
        config = read_study_file(path)
        _, study = load_existing_study(config)
        chosen = study.user_attrs["chosen"]
        report(config, chosen, naive, space.shipped_defaults(), args)
    return 0


def report(config, chosen: dict, naive: dict, defaults: dict, args) -> None:
    panel = validation_panel(config)
    opponents = {name: study_bot(config, name) for name in panel}
    seeds = game_seeds(args.seed, args.games // 2, "match")
    runner = GameRunner(config.league, 2 if args.jobs == "all" else int(args.jobs))
    budgets = {"search's budget": {}, "playing budget": config.playing_budget} if config.playing_budget else \
        {"search's budget": {}}
    rows = []
    for label, playing in budgets.items():
        def bot(params: dict, name: str):
            return tuned_bot(config).bot({**params, **playing}, name, {})

        base = bot(naive, "naive start")
        tuned = run_gauntlet(runner, bot(chosen["search_params"], "tuned"), opponents, seeds, base,
                             tuple(config.held_out_opponents))
        shipped = run_gauntlet(runner, bot(defaults, "defaults"), opponents, seeds, base,
                               tuple(config.held_out_opponents))
        for t, d in zip(tuned.rows, shipped.rows):
            gain, low, high = t.difference.mean, *t.difference.ci
            recovered = gain / d.difference.mean if d.difference.mean > 0 else None  # the defaults gained nothing
            rows.append((label, t.opponent, t.group, t.baseline.win_rate, t.bot.win_rate, d.bot.win_rate, gain, low,
                         high, recovered))
    print(f"\n{config.bot} tuned from the {args.start} start ({chosen['label']}), {args.games} games per opponent, bot "
          f"and budget, seeds of the match stream from seed {args.seed}:")
    print("| budget | opponent | group | naive start | tuned | defaults | tuned - naive (95% CI) "
          "| of the defaults' gain |")
    print("|---|---|---|---|---|---|---|---|")
    for label, opponent, group, n, t, d, gain, low, high, recovered in rows:
        print(f"| {label} | {opponent} | {group} | {n:.1%} | {t:.1%} | {d:.1%} | {gain:+.1%} ({low:+.1%} to "
              f"{high:+.1%}) | {'-' if recovered is None else f'{recovered:.0%}'} |")
    print(json.dumps({"study": str(config.path), "chosen": chosen["label"], "start": args.start, "rows": rows}))


if __name__ == "__main__":
    raise SystemExit(main())
