"""The progress of a tuning run: a tqdm bar (trials done, best value, pruned share, games/s) on a terminal,
a status line a minute otherwise, and messages printed above the bar."""
from __future__ import annotations

import sys
import time
from typing import Optional

from tqdm import tqdm

STATUS_EVERY = 60.0  # seconds between status lines when there is no bar


class Progress:
    def __init__(self, name: str, total: Optional[int], runner, enabled: Optional[bool] = None,
                 best: Optional[float] = None, best_number: Optional[int] = None, value_name: str = "win rate"):
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.runner = runner
        self.start = time.monotonic()
        self.games_at_start = runner.games_played
        self.engine_games_at_start = runner.engine_games_played
        self.game_seconds_at_start = runner.game_seconds
        self.referee_at_start = (runner.referee_time.wall_s, runner.referee_time.thinking_s)
        self.done = 0
        self.pruned = 0
        self.best = best
        self.best_number = best_number
        self.value_name = value_name  # what a trial's value is: a win rate, or a gain over the baseline
        self._last_status = self.start
        self.bar = tqdm(total=total, desc=name, unit="trial", file=sys.stderr, disable=not self.enabled,
                        dynamic_ncols=True, mininterval=0.5, smoothing=0.1)

    def write(self, message: str) -> None:
        tqdm.write(message, file=sys.stdout)
        sys.stdout.flush()

    @property
    def seconds(self) -> float:
        return time.monotonic() - self.start

    @property
    def games(self) -> int:
        return self.runner.games_played - self.games_at_start

    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def engine_games(self) -> int:
        """The games played in the engine (compiled, on the threads), not through the referee with a program."""
        return self.runner.engine_games_played - self.engine_games_at_start

    def where_games_ran(self) -> str:
        """For the summary line: the threads' share of time in compiled games, said of the in-engine games only
        (a program's games run on processes, and no thread's time measures them)."""
        if self.games == 0:
            return "no game played"
        if self.engine_games == 0:
            return f"every game with a program, on {self.runner.jobs} process{'es' if self.runner.jobs > 1 else ''}" \
                   f"{self.programs_answering()}"
        share = f"on {self.threads_busy():.0%} of the threads' time"
        if self.engine_games == self.games:
            return f"games {share}"
        return f"in-engine games ({self.engine_games / self.games:.0%} of them) {share}"

    def programs_answering(self) -> str:
        """The share of the processes' time in games with programs that went to the programs' answers (the rest:
        starting and stopping them, the referee, the pipes), when it is known."""
        wall = self.runner.referee_time.wall_s - self.referee_at_start[0]
        thinking = self.runner.referee_time.thinking_s - self.referee_at_start[1]
        return f": {thinking / wall:.0%} of their time in the programs' answers" if wall > 0 else ""

    def threads_busy(self) -> float:
        """The share of the `--jobs` threads' time spent in compiled games: what the tuner's own work (Optuna,
        the race, the storage) and the threads' waits leave to the engine."""
        available = self.seconds * self.runner.jobs
        return (self.runner.game_seconds - self.game_seconds_at_start) / available if available > 0 else 0.0

    def status(self) -> str:
        best = "-"
        if self.best is not None:
            shown = f"{self.best:.1%}" if self.value_name == "win rate" else f"{self.value_name} {self.best:+.1%}"
            best = f"{shown} (trial {self.best_number})"
        pruned = f"{self.pruned / self.done:.0%}" if self.done else "-"
        return f"best {best}, pruned {pruned}, {self.games_per_second():,.0f} games/s"

    def trial_finished(self, outcome) -> None:
        """Called with the objective's outcome of each trial that finished (not failed)."""
        self.done += 1
        self.pruned += int(outcome.pruned)
        if outcome.new_best:
            self.best, self.best_number = outcome.value, outcome.number
        self.bar.set_postfix_str(self.status(), refresh=False)
        self.bar.update(1)
        now = time.monotonic()
        if not self.enabled and now - self._last_status >= STATUS_EVERY:
            self._last_status = now
            self.write(f"{self.done} trials in {self.seconds:.0f}s: {self.status()}")

    def close(self) -> None:
        self.bar.close()
