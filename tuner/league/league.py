"""A league: every pair of bots plays the same seeds (each seed twice, sides swapped), every game kept in SQLite.

The database (stdlib sqlite3, one file) holds the league's settings, its bots and its games:

    settings(key, value)   format, version, league, seed (fixed at creation), games (per pair, the last run's)
    bots(id, identity, name, kind)
        identity: what the bot is, as JSON: a program's command line, or an in-engine bot's plug-in, parameter
        values and random seed. A bot whose parameters changed is another bot with games of its own; `name` is
        the name it was last given.
    games(bot_a, bot_b, pair_index, seed, a_side, score_a, score_b, dq_a, dq_b)
        one row per game, bot_a < bot_b (ids); pair_index: the seed's position in the league's seed list, so
        that more games per pair extend the same list; a_side: bot_a's player index; scores: the final scores;
        dq_a / dq_b: the referee's disqualification of that bot (JSON) or NULL.

Seeds come from the "match" stream of `tuner.play.seeds`: a pair's games are the games `tuner match A B
--seed S --games N` plays. Games are committed in small batches (both games of a seed together), so an
interrupted run, even a killed one, keeps every batch it finished and the next run plays only what is missing.
"""
from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import numpy as np

from bots.contract.names import Bot
from bots.contract.plugin import JAVA_LONG_MAX, JAVA_LONG_MIN
from engine.players import TimeLimits
from tuner.errors import UserError
from tuner.league.ratings import BOOTSTRAP_DRAWS, Ratings, rate, separated, win_rate_matrix
from tuner.play.matches import match_games
from tuner.play.runner import GameRunner
from tuner.play.seeds import game_seeds

FORMAT = "photosynthesis-tuner league"
VERSION = 1
DEFAULT_GAMES = 100
ENGINE_BATCH = 500  # seed pairs per commit between in-engine bots (a fraction of a second)
PROGRAM_BATCH = 1  # seed pairs per process per commit when a program plays (seconds each)

SCHEMA = """
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE bots (
    id INTEGER PRIMARY KEY,
    identity TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('engine', 'program'))
);
CREATE TABLE games (
    bot_a INTEGER NOT NULL REFERENCES bots(id),
    bot_b INTEGER NOT NULL REFERENCES bots(id),
    pair_index INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    a_side INTEGER NOT NULL CHECK (a_side IN (0, 1)),
    score_a INTEGER NOT NULL,
    score_b INTEGER NOT NULL,
    dq_a TEXT,
    dq_b TEXT,
    PRIMARY KEY (bot_a, bot_b, pair_index, a_side),
    CHECK (bot_a < bot_b)
);
"""


@dataclass(frozen=True)
class Settings:
    league: int
    seed: int
    games: int  # per pair, even


def _bot_identity(bot: Bot) -> dict:
    """What makes a bot the bot it is, whatever it was called."""
    if bot.seat is None:
        return {"program": bot.command}
    identity = {"bot": bot.plugin, "params": dict(sorted((bot.params or {}).items())),
                "seed": int(bot.seat[0]["seed"])}
    if bot.jitter:  # a distribution around those parameters: which ones it draws follows from the name
        identity["spread"] = {"jitter": bot.jitter, "drawn": [int(i) for i in bot.seat[0]["scale"].nonzero()[0]]}
    return identity


def identity_key(bot: Bot) -> str:
    return json.dumps(_bot_identity(bot), sort_keys=True, separators=(",", ":"))


def check_bots(bots: list[Bot]) -> None:
    """A league needs two bots or more, each once (two names for one bot would play itself)."""
    if len(bots) < 2:
        raise UserError(f"a league needs at least two bots, got {len(bots)}")
    seen: dict[str, str] = {}
    for bot in bots:
        key = identity_key(bot)
        if key in seen:
            same = "is given twice" if seen[key] == bot.name else f"and {seen[key]!r} are the same bot ({key})"
            raise UserError(f"bot {bot.name!r} {same}: give each bot once")
        seen[key] = bot.name


@dataclass(frozen=True)
class _Allowed:
    says: str  # what the setting may be, as an error message says it
    valid: Callable[[int], bool]
    remedy: str  # what the user can do about a bad one
    default: Optional[int] = None  # taken when the setting is missing; None: a missing one is refused


LEAGUE_SETTING = _Allowed("1, 2 or 3", lambda value: value in (1, 2, 3), "use another --db")
SEED_SETTING = _Allowed("a 64-bit signed integer", lambda value: JAVA_LONG_MIN <= value <= JAVA_LONG_MAX,
                        "use another --db")
GAMES_SETTING = _Allowed("an even number of games per pair, 2 or more", lambda value: value >= 2 and value % 2 == 0,
                         "give --games N to replace it", DEFAULT_GAMES)


def _stored(path: Path, stored: dict, key: str, allowed: _Allowed) -> int:
    """A setting of the league file `path`, or a UserError naming it if the file holds no valid one."""
    text = stored.get(key)
    if text is None and allowed.default is not None:
        return allowed.default
    value = _integer(text)
    if value is None or not allowed.valid(value):
        shown = "missing" if text is None else repr(text)
        raise UserError(f"{path}: the league database's setting {key!r} is {shown}, not {allowed.says} (a damaged "
                        f"settings table: {allowed.remedy})")
    return value


def _integer(text: Optional[str]) -> Optional[int]:
    try:
        return None if text is None else int(text)
    except (TypeError, ValueError):
        return None


def league_settings(path: Path, league: Optional[int] = None, seed: Optional[int] = None,
                    games: Optional[int] = None) -> Settings:
    """The settings of a run on the league file `path`, checked against the file if it exists (which is only
    read). league and seed are fixed when the file is created: another value is refused, None takes the file's
    (3 and 0 for a new file); games: None takes the file's last value (DEFAULT_GAMES for a new file)."""
    path = Path(path)
    if path.is_dir():
        raise UserError(f"{path} is a directory, not a league database (give a file with --db)")
    if not path.parent.is_dir():
        raise UserError(f"cannot create {path}: directory {path.parent} does not exist")
    stored: dict = {}
    if path.exists():
        try:
            connection = sqlite3.connect(path.absolute().as_uri() + "?mode=ro", uri=True)
            try:
                tables = _tables(connection)
                if tables and "settings" in tables:
                    stored = dict(connection.execute("SELECT key, value FROM settings").fetchall())
            finally:
                connection.close()
        except sqlite3.Error as error:
            raise UserError(f"{path} is not a league database ({error})") from None
        if tables and (stored.get("format") != FORMAT or not {"bots", "games"} <= tables):
            raise UserError(f"{path} is a SQLite database but not a league's (tables: {', '.join(sorted(tables))})")
        if stored and stored.get("version") != str(VERSION):
            raise UserError(f"{path} is a league database of version {stored.get('version')}, this tuner reads "
                            f"version {VERSION}")
    if not stored:
        return Settings(3 if league is None else league, 0 if seed is None else seed, games or DEFAULT_GAMES)
    fixed = Settings(_stored(path, stored, "league", LEAGUE_SETTING), _stored(path, stored, "seed", SEED_SETTING),
                     games or _stored(path, stored, "games", GAMES_SETTING))
    for key, value in (("league", league), ("seed", seed)):
        if value is not None and value != getattr(fixed, key):
            raise UserError(f"{path} holds the league --league {fixed.league} --seed {fixed.seed}, not "
                            f"--{key} {value} (use another --db for another league)")
    return fixed


def _tables(connection: sqlite3.Connection) -> set:
    return {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


class LeagueDatabase:
    """A league's SQLite file: its settings, bots and games."""

    def __init__(self, path: Path, connection: sqlite3.Connection, settings: Settings):
        self.path, self.connection, self.settings = path, connection, settings

    @classmethod
    def open(cls, path: Path, settings: Settings) -> LeagueDatabase:
        """Open a league file, creating it (and its tables) if it does not exist, with these settings (from
        `league_settings`); the number of games per pair is recorded as the last run's."""
        path = Path(path)
        existed = path.exists()
        connection = None
        try:
            connection = sqlite3.connect(path, timeout=60, isolation_level=None)
            with _transaction(connection):
                if not _tables(connection):
                    for statement in SCHEMA.split(";"):  # not executescript, which would commit the transaction
                        if statement.strip():
                            connection.execute(statement)
                    connection.executemany("INSERT INTO settings VALUES (?, ?)",
                                           [("format", FORMAT), ("version", str(VERSION)),
                                            ("league", str(settings.league)), ("seed", str(settings.seed))])
                connection.execute("INSERT OR REPLACE INTO settings VALUES ('games', ?)", (str(settings.games),))
        except sqlite3.Error as error:
            if connection is not None:
                connection.close()
            raise UserError(f"cannot {'open' if existed else 'create'} the league database {path}: "
                            f"{error}") from None
        return cls(path, connection, settings)

    def close(self) -> None:
        self.connection.close()

    def register(self, bots: list[Bot]) -> list[int]:
        """The ids of the bots (new ones are added), by identity; each keeps the name it is given now."""
        ids = []
        with _transaction(self.connection):
            for bot in bots:
                key = identity_key(bot)
                row = self.connection.execute("SELECT id FROM bots WHERE identity = ?", (key,)).fetchone()
                if row is None:
                    cursor = self.connection.execute("INSERT INTO bots (identity, name, kind) VALUES (?, ?, ?)",
                                                     (key, bot.name, "engine" if bot.in_engine else "program"))
                    assert cursor.lastrowid is not None
                    ids.append(cursor.lastrowid)
                else:
                    self.connection.execute("UPDATE bots SET name = ? WHERE id = ?", (bot.name, row[0]))
                    ids.append(int(row[0]))
        return ids

    def missing(self, a: int, b: int, pairs: int) -> list[int]:
        """The seed positions below `pairs` whose two games between bots a < b are not both stored."""
        done = {row[0] for row in self.connection.execute(
            "SELECT pair_index FROM games WHERE bot_a = ? AND bot_b = ? AND pair_index < ? GROUP BY pair_index "
            "HAVING COUNT(*) = 2", (a, b, pairs))}
        return [k for k in range(pairs) if k not in done]

    def store(self, rows: list[tuple]) -> None:
        """Games (bot_a, bot_b, pair_index, seed, a_side, score_a, score_b, dq_a, dq_b), in one transaction."""
        with _transaction(self.connection):
            self.connection.executemany("INSERT OR IGNORE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)

    def game_count(self) -> int:
        return int(self.connection.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def results(self, ids: list[int], pairs: int) -> Results:
        """Results between the given bots on the first `pairs` seeds (bots in the order of ids)."""
        position = {bot: i for i, bot in enumerate(ids)}
        marks = ",".join("?" * len(ids))
        rows = self.connection.execute(
            f"SELECT bot_a, bot_b, pair_index, score_a > score_b, score_a = score_b, dq_a IS NOT NULL, "
            f"dq_b IS NOT NULL FROM games WHERE bot_a IN ({marks}) AND bot_b IN ({marks}) AND pair_index < ?",
            (*ids, *ids, pairs)).fetchall()
        table = np.array(rows, dtype=np.int64).reshape(-1, 7)
        i = np.array([position[a] for a in table[:, 0]], dtype=np.int64)
        j = np.array([position[b] for b in table[:, 1]], dtype=np.int64)
        return Results.of_games(len(ids), pairs, i, j, table[:, 2], table[:, 3], table[:, 4], table[:, 5],
                                table[:, 6])


class _transaction:
    """BEGIN ... COMMIT, or ROLLBACK on any exception (Ctrl-C included): a batch is stored whole or not at all."""

    def __init__(self, connection: sqlite3.Connection):
        self.connection = connection

    def __enter__(self):
        self.connection.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind, value, traceback):
        self.connection.execute("COMMIT" if kind is None else "ROLLBACK")
        return False


@dataclass
class Results:
    """Results between n bots, per seed position s: wins[s, i, j] (i beat j), draws[s, i, j], games[s, i, j];
    and the games each bot was disqualified in."""

    wins: np.ndarray
    draws: np.ndarray
    games: np.ndarray
    disqualified: np.ndarray

    @classmethod
    def of_games(cls, n: int, seeds: int, i, j, seed, i_won, draw, dq_i, dq_j) -> Results:
        """From one entry per game: the two bots' positions i and j, its seed position, whether i won, whether
        it was a draw, whether i and j were disqualified."""
        wins, draws, games = (np.zeros((seeds, n, n), dtype=np.int64) for _ in range(3))
        j_won = 1 - i_won - draw
        for a, b, won in ((i, j, i_won), (j, i, j_won)):
            np.add.at(wins, (seed, a, b), won)
            np.add.at(draws, (seed, a, b), draw)
            np.add.at(games, (seed, a, b), 1)
        disqualified = np.bincount(i, weights=dq_i, minlength=n) + np.bincount(j, weights=dq_j, minlength=n)
        return cls(wins, draws, games, disqualified.astype(np.int64))

    @property
    def points(self) -> np.ndarray:
        """points[s, i, j]: what i scored against j on seed position s, a draw counting 1/2."""
        return self.wins + self.draws / 2


def play_league(db: LeagueDatabase, bots: list[Bot], ids: list[int], jobs: int = 1,
                limits: Optional[TimeLimits] = None, on_games: Optional[Callable[[int], None]] = None,
                on_plan: Optional[Callable[[int], None]] = None) -> int:
    """Play every pair's missing games (the first settings.games / 2 seeds, each twice), committing each batch.
    `on_plan(total)` is told how many games are missing, `on_games(n)` after each stored batch. Returns the
    number of games played."""
    pairs = db.settings.games // 2
    pair_seeds = game_seeds(db.settings.seed, pairs, "match")
    plan = []
    for i in range(len(bots)):
        for j in range(i + 1, len(bots)):
            (a, bot_a), (b, bot_b) = sorted([(ids[i], bots[i]), (ids[j], bots[j])], key=lambda pair: pair[0])
            missing = db.missing(a, b, pairs)
            if missing:
                plan.append((a, bot_a, b, bot_b, missing))
    total = 2 * sum(len(missing) for *_, missing in plan)
    if on_plan is not None:
        on_plan(total)
    runner = GameRunner(db.settings.league, jobs, limits or TimeLimits())
    try:
        for a, bot_a, b, bot_b, missing in plan:
            batch = ENGINE_BATCH if bot_a.in_engine and bot_b.in_engine else PROGRAM_BATCH * max(1, jobs)
            for start in range(0, len(missing), batch):
                chunk = missing[start:start + batch]
                chunk_seeds = [pair_seeds[k] for k in chunk]
                rows = []
                for g, game in enumerate(match_games(runner.play(bot_a, [bot_b], chunk_seeds), chunk_seeds)):
                    dq = {d["player"]: json.dumps(d, sort_keys=True) for d in game.deactivated}
                    rows.append((a, b, chunk[g // 2], game.seed, game.a_side, game.scores[game.a_side],
                                 game.scores[1 - game.a_side], dq.get(game.a_side), dq.get(1 - game.a_side)))
                db.store(rows)
                if on_games is not None:
                    on_games(len(rows))
    finally:
        runner.close()
    return total


@dataclass
class Standings:
    """A league's table: ratings, per-bot totals and the pairwise win rates of the given bots."""

    names: list
    identities: list
    results: Results
    ratings: Ratings
    settings: Settings

    @classmethod
    def of(cls, db: LeagueDatabase, bots: list[Bot], ids: list[int]) -> Standings:
        results = db.results(ids, db.settings.games // 2)
        return cls([b.name for b in bots], [_bot_identity(b) for b in bots], results,
                   rate(results.points, results.games), db.settings)

    @property
    def order(self) -> list[int]:
        """Bot positions, best rating first (ties: the order given)."""
        return sorted(range(len(self.names)), key=lambda i: (-self.ratings.rating[i], i))

    @property
    def win_rates(self) -> np.ndarray:
        return win_rate_matrix(self.results.points.sum(axis=0), self.results.games.sum(axis=0))

    def separated(self) -> list[tuple[str, str]]:
        """(winner, loser) of the pairs one bot won every game of: their rating gap is a lower bound."""
        pairs = separated(self.results.points.sum(axis=0), self.results.games.sum(axis=0))
        return [(self.names[i], self.names[j]) for i, j in pairs]

    def bot_rows(self) -> list[dict]:
        r = self.results
        rows = []
        for rank, i in enumerate(self.order, 1):
            games, wins, draws = (int(counts[:, i].sum()) for counts in (r.games, r.wins, r.draws))
            rows.append({"rank": rank, "name": self.names[i], "identity": self.identities[i],
                         "rating": round(float(self.ratings.rating[i]), 2),
                         "rating_ci": [round(float(self.ratings.low[i]), 2), round(float(self.ratings.high[i]), 2)],
                         "games": games, "wins": wins, "draws": draws, "losses": games - wins - draws,
                         "win_rate": round((wins + draws / 2) / games, 6) if games else None,
                         "disqualified": int(r.disqualified[i])})
        return rows

    def leaderboard(self):
        """The table as a pandas DataFrame indexed by rank, best first."""
        import pandas as pd  # imported by the commands that show a table, not by the ones that only play

        frame = pd.DataFrame(self.bot_rows()).set_index("rank")
        frame["ci_low"] = [ci[0] for ci in frame["rating_ci"]]
        frame["ci_high"] = [ci[1] for ci in frame["rating_ci"]]
        return frame[["name", "rating", "ci_low", "ci_high", "games", "wins", "draws", "losses", "win_rate",
                      "disqualified"]]

    def matrix(self):
        """Win rate of the row's bot against the column's bot (pandas DataFrame, best bots first)."""
        import pandas as pd

        order = self.order
        names = [self.names[i] for i in order]
        return pd.DataFrame(self.win_rates[np.ix_(order, order)], index=names, columns=names)

    def to_json(self) -> dict:
        order, rates = self.order, self.win_rates
        return {
            "settings": {"league": self.settings.league, "seed": self.settings.seed,
                         "games_per_pair": self.settings.games},
            "rating": RATING_METHOD,
            "bots": self.bot_rows(),
            "games": int(self.results.games.sum() // 2),
            "matrix": {self.names[i]: {self.names[j]: None if np.isnan(rates[i, j]) else round(float(rates[i, j]), 6)
                                       for j in order} for i in order},
            "separated": [list(pair) for pair in self.separated()],
        }


RATING_METHOD = {
    "model": "Bradley-Terry, maximum likelihood, Elo scale, draws count 1/2",
    "anchor": "mean rating 0",
    "prior": "one virtual drawn game between every two bots",
    "interval": f"95%, percentiles of {BOOTSTRAP_DRAWS} bootstrap draws over seeds",
}
