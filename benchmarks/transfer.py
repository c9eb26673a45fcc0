"""Leave one style out: how much of a tuning's gain survives against a style it never met.

For each style S of the panel, a short study tunes BOT against a pool of the other styles and a hall of fame, its
choice made on the same styles: S is never seen, neither by the search nor by the choice. A style written NAME~J is
a distribution in the pool (`bots.contract.perturbation`: each game draws its parameters by up to J of their
ranges); the finals and the gauntlets meet it as NAME itself, as the heuristic study's `validation_opponents` do. The
chosen bot and the baseline (BOT's defaults) then play the same fresh seeds (the `match` stream of --seed: never a
study's) against every style, sides swapped. A row gives the tuned bot's gain over the baseline against its pool
(the mean paired difference over the pool's styles, and the mean Elo gain) and against S, with 95% intervals over
the seed pairs, and the ratio held-out gain / in-pool gain. Styles given with --unseen are in no study's pool: every
study's chosen bot is measured against them as well.

    python benchmarks/transfer.py --fix grow_w_points=0 seed_w_sun=0 --seed 7 --out loo-7.json   # the heuristic study's
    python benchmarks/transfer.py --objective mean --fix grow_w_points=0 seed_w_sun=0 --out loo-mean.json
    python benchmarks/transfer.py --styles heuristic~0.03 sunrate rush seeder beam --held-out beam   # one study
    python benchmarks/transfer.py --bot beam --fix width=4 depth=6 --styles heuristic~0.03 sunrate beam~0.03
    python benchmarks/transfer.py --table loo-7.json loo-8.json   # several runs: their rows, then a grid

The default panel is the heuristic study's pool, and its held-out styles (search, mcts) are the default --unseen: the
search bots' playouts model their opponent, and a pool with them teaches that model's blind spots. greedy (which
every tuned bot beats 99%) is left out, since a gain cannot show against it.

Every run records its settings, seeds, versions and each study's chosen parameters in --out (JSON).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bots.contract.names import JITTER  # noqa: E402
from tuner.play.gauntlet import run_gauntlet  # noqa: E402
from tuner.play.runner import GameRunner  # noqa: E402
from tuner.play.seeds import game_seeds  # noqa: E402
from tuner.results.botnames import study_bot  # noqa: E402
from tuner.studyfile.file import read_study_file  # noqa: E402
from tuner.versions import versions  # noqa: E402

STYLES = ["heuristic~0.1", "sunrate~0.1", "rush", "seeder", "beam"]
UNSEEN = ["search", "mcts"]


def point(style: str) -> str:
    """A style as met held out: NAME~J is NAME."""
    return JITTER.sub("", style)


def study_text(name: str, bot: str, pool: list, objective: str, trials: int, pairs: int, seed: int,
               sigma: float, fixed: dict, finals_held_out: list = ()) -> str:
    lines = [f'name = "{name}"', "league = 3", f"seed = {seed}", f'bot = "{bot}"', 'sampler = "cmaes"',
             f"sigma = {sigma}", "population = 28", f"trials = {trials}", f"pairs = {pairs}",
             f"opponents = {json.dumps(pool + ['hall-of-fame:2'])}", f'objectives = "{objective}"',
             'race = "wilcoxon"', f"race_first_pairs = {max(2, pairs // 5)}", "finals_pairs = 100",
             f"validation_opponents = {json.dumps([point(s) for s in pool])}", "finalists = 5"]
    if finals_held_out:
        lines.append(f"held_out_opponents = {json.dumps(list(finals_held_out))}")
    slow = [entry for entry in pool if entry.startswith(("search", "mcts", "beam"))]
    if slow:
        lines.append("opponent_shares = { " + ", ".join(f'"{entry}" = 0.2' for entry in slow) + " }")
    if fixed:
        lines += ["[search]"] + [f"{key} = {value}" for key, value in fixed.items()]
    return "\n".join(lines) + "\n"


def gains(runner: GameRunner, tuned, baseline, opponents: dict, seeds) -> dict:
    """Per opponent: the paired difference of the tuned bot over the baseline (mean, 95% CI), the win rates and the
    Elo gain, as `tuner gauntlet --baseline` measures them."""
    played = run_gauntlet(runner, tuned, opponents, seeds, baseline)
    return {row.opponent: {"difference": row.difference.mean, "ci": list(row.difference.ci),
                           "win_rate": row.bot.win_rate, "baseline_win_rate": row.baseline.win_rate,
                           "elo": row.difference.elo} for row in played.rows}


def leave_one_out(args) -> dict:
    runs = []
    with tempfile.TemporaryDirectory(prefix="transfer-") as folder:
        styles = [point(s) for s in args.styles]
        for written, held in zip(args.styles, styles):
            if args.held_out and held not in args.held_out:
                continue
            pool = [s for s in args.styles if s != written]
            name = f"loo-{held.replace(':', '-')}"
            path = Path(folder) / f"{name}.toml"
            path.write_text(study_text(name, args.bot, pool, args.objective, args.trials, args.pairs, args.seed,
                                       args.sigma, dict(item.split("=") for item in args.fix),
                                       args.unseen if args.choose_on_unseen else ()))
            start = time.monotonic()
            tune = subprocess.run([sys.executable, "-m", "tuner.cli", "tune", str(path), "--jobs", str(args.jobs),
                                   "--no-progress"], capture_output=True, text=True)
            if tune.returncode != 0:
                raise SystemExit(f"the study without {held} failed: {tune.stderr.strip()[-2000:]}")
            config = read_study_file(path)
            tuned = study_bot(config, f"study:{path}")
            baseline = study_bot(config, f"study:{path}#0")
            runner = GameRunner(3, args.jobs)
            try:
                panel = {s: study_bot(config, s) for s in styles + args.unseen}
                seeds = game_seeds(args.seed, args.games // 2, "match")
                results = gains(runner, tuned, baseline, panel, seeds)
            finally:
                runner.close()
            in_pool = [results[s] for s in styles if s != held]
            row = {"held_out": held, "pool": pool, "chosen": tuned.source.get("label"), "params": tuned.params,
                   "seconds": round(time.monotonic() - start, 1), "per_style": results,
                   "in_pool": {"difference": float(np.mean([r["difference"] for r in in_pool])),
                               "elo": float(np.mean([r["elo"] for r in in_pool]))},
                   "held_out_gain": results[held], "unseen": {u: results[u] for u in args.unseen}}
            runs.append(row)
            unseen = "".join(f", {u} {results[u]['difference']:+.1%}" for u in args.unseen)
            print(f"{held}: held-out {results[held]['difference']:+.1%}{unseen}, in-pool "
                  f"{row['in_pool']['difference']:+.1%} ({row['seconds']:.0f} s)", flush=True)
    return {"bot": args.bot, "objective": args.objective, "sigma": args.sigma, "fixed": args.fix,
            "choose_on_unseen": args.choose_on_unseen,
            "trials": args.trials,
            "pairs": args.pairs, "study_seed": args.seed, "games": args.games,
            "seeds": f"tuner.play.seeds.game_seeds({args.seed}, {args.games // 2}, 'match'), each seed twice",
            "styles": args.styles, "unseen": args.unseen, "versions": versions(), "runs": runs}


def mean_gain(runs: list, gain) -> float:
    """The mean over a run's studies of one gain's paired difference (`gain`: a study's row -> that gain)."""
    return float(np.mean([gain(run)["difference"] for run in runs]))


def share(held: float, pool: float) -> float:
    """The held-out gain as a share of the in-pool gain (undefined without an in-pool gain)."""
    return held / pool if pool > 0 else float("nan")


def table(results: list) -> str:
    rows = ["| configuration | held-out style | in-pool gain (Elo) | held-out gain (95% CI) | held-out Elo | "
            "held-out / in-pool |", "|---|---|---|---|---|---|"]
    for result in results:
        spread = "spread pool" if any("~" in s for s in result["styles"]) else "point pool"
        fixed = f", {' '.join(result['fixed'])}" if result.get("fixed") else ""
        label = f"{result['bot']}{fixed}, {result['objective']}, {spread}, seed {result['study_seed']}"
        for run in result["runs"]:
            pool, held = run["in_pool"], run["held_out_gain"]
            ratio = share(held["difference"], pool["difference"])
            rows.append(f"| {label} | {run['held_out']} | {pool['difference']:+.1%} ({pool['elo']:+.0f}) | "
                        f"{held['difference']:+.1%} ({held['ci'][0]:+.1%} {held['ci'][1]:+.1%}) | "
                        f"{held['elo']:+.0f} | {ratio:.2f} |")
        pool = mean_gain(result["runs"], lambda run: run["in_pool"])
        for style in result.get("unseen", []):
            met = [r["unseen"][style] for r in result["runs"]]
            held = mean_gain(result["runs"], lambda run: run["unseen"][style])
            each = ", ".join(f"{m['difference']:+.1%}" for m in met)
            rows.append(f"| {label} | {style} (no trial met it) | {pool:+.1%} | {held:+.1%} (the {len(met)} "
                        f"studies: {each}) | {np.mean([m['elo'] for m in met]):+.0f} | "
                        f"{share(held, pool):.2f} |")
        held = mean_gain(result["runs"], lambda run: run["held_out_gain"])
        elo = np.mean([r["held_out_gain"]["elo"] for r in result["runs"]])
        rows.append(f"| {label} | **mean** of the left-out styles | {pool:+.1%} | {held:+.1%} | {elo:+.0f} | "
                    f"{share(held, pool):.2f} |")
    games = {r["games"] for r in results}
    return "\n".join(rows) + f"\n\n{', '.join(map(str, sorted(games)))} games per style and bot, seeds of the " \
                             f"`match` stream (no study plays them), sides swapped"


def grid(results: list) -> str:
    """One row per held-out style and one column per run (its seed), as the README shows the table: each run's
    held-out gain (ns: its 95% interval includes 0; loss: wholly below 0), the unseen styles' gains (the mean over
    the run's studies) and each run's mean held-out / in-pool gain, with the mean over the runs."""
    def cell(gain: dict) -> str:
        low, high = gain["ci"]
        return f"{gain['difference']:+.1%}" + (" (ns)" if low <= 0 <= high else " (loss)" if high < 0 else "")

    rows = ["| held-out style | " + " | ".join(f"seed {r['study_seed']}" for r in results) + " | mean |",
            "|---|" + "---|" * (len(results) + 1)]
    held_styles = list(dict.fromkeys(run["held_out"] for r in results for run in r["runs"]))
    for style in held_styles:
        gains = [next((run["held_out_gain"] for run in r["runs"] if run["held_out"] == style), None) for r in results]
        met = [g["difference"] for g in gains if g]
        rows.append(f"| {style} | " + " | ".join(cell(g) if g else "-" for g in gains) + f" | {np.mean(met):+.1%} |")
    for style in dict.fromkeys(u for r in results for u in r.get("unseen", [])):
        means = [mean_gain(r["runs"], lambda run: run["unseen"][style]) if style in r.get("unseen", []) else None
                 for r in results]
        met = [m for m in means if m is not None]
        rows.append(f"| {style} (no trial met it; the mean of the run's studies) | "
                    + " | ".join(f"{m:+.1%}" if m is not None else "-" for m in means) + f" | {np.mean(met):+.1%} |")
    held = [mean_gain(r["runs"], lambda run: run["held_out_gain"]) for r in results]
    pool = [mean_gain(r["runs"], lambda run: run["in_pool"]) for r in results]
    rows.append("| mean held out / in pool | " + " | ".join(f"{h:+.1%} / {p:+.1%}" for h, p in zip(held, pool))
                + f" | {np.mean(held):+.1%} / {np.mean(pool):+.1%} |")
    gains = [run["held_out_gain"] for r in results for run in r["runs"]]
    above = sum(g["ci"][0] > 0 for g in gains)
    below = sum(g["ci"][1] < 0 for g in gains)
    return "\n".join(rows) + f"\n\n{above} of {len(gains)} held-out gains significantly above 0, {below} below"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="heuristic", help="the tuned bot (default heuristic)")
    parser.add_argument("--objective", default="min-gain", choices=["mean", "min-gain"],
                        help="the studies' objective (default min-gain, the heuristic study's)")
    parser.add_argument("--styles", nargs="+", default=STYLES,
                        help="the panel (default: the heuristic study's styles); NAME~J: a distribution in the pool")
    parser.add_argument("--unseen", nargs="*", default=UNSEEN, metavar="STYLE",
                        help="styles no study's pool holds: every study's chosen bot is measured against them too "
                             "(default: the heuristic study's held-out styles, search and mcts)")
    parser.add_argument("--held-out", nargs="+", default=[], metavar="STYLE",
                        help="leave out only these styles of the panel, one study each (default: every style)")
    parser.add_argument("--choose-on-unseen", action=argparse.BooleanOptionalAction, default=True,
                        help="the unseen styles join every study's finals as its held_out_opponents, as the "
                             "heuristic study's search and mcts do (no trial meets them; default: yes)")
    parser.add_argument("--sigma", type=float, default=0.05, help="CMA-ES's first step, a share of each range")
    parser.add_argument("--fix", nargs="+", default=[], metavar="NAME=VALUE",
                        help="parameters held at a value (the study's [search] table), e.g. to try a bot without "
                             "some of its terms")
    parser.add_argument("--trials", type=int, default=1200, help="trials per study (default 1200)")
    parser.add_argument("--pairs", type=int, default=100, help="seed pairs per opponent and trial (default 100)")
    parser.add_argument("--seed", type=int, default=7, help="the studies' seed and the gauntlets' (default 7)")
    parser.add_argument("--games", type=int, default=1000, help="gauntlet games per style and bot (default 1000)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, help="write the results as JSON")
    parser.add_argument("--table", nargs="+", type=Path, metavar="RESULT.json",
                        help="print one table of earlier runs' results instead of running")
    args = parser.parse_args()
    if args.table:
        results = [json.loads(path.read_text()) for path in args.table]
        print(table(results))
        print("\n" + grid(results))
        return 0
    result = leave_one_out(args)
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(table([result]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
