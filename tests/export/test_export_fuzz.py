"""The exported bot on 10,000 random legal positions: it never crashes, never answers an illegal move, and
decides as the compiled policy does, also on positions no normal game reaches."""
import random

import pytest

from bots.contract.names import parse_bot
from bots.running.dispatch import decide
from bots.running.player import player_for
from engine import rules
from engine.game import Game
from engine.protocol import format_move, parse_command
from tests.conftest import run_tuner
from tests.export.test_export import load_exported, tuned_params_file

POSITIONS = 10_000


def random_state(game: Game, rng: random.Random) -> None:
    """Overwrite the game's state with a random legal one: trees anywhere usable, any sizes, owners and
    dormancy, any sun, score, day and nutrients the game allows."""
    s = game.state
    usable = [c for c in range(37) if game.map["richness"][c] > 0]
    s["trees"][:] = 0
    s["mine"][:] = 0
    s["dormant"] = 0
    for c in rng.sample(usable, rng.randint(0, len(usable))):
        size = rng.choice((0, 1, 2, 3)) if game.league.number == 3 else rng.choice((1, 2, 3))
        s["trees"][size] |= 1 << c
        s["mine"][rng.randint(0, 1)] |= 1 << c
        if rng.random() < 0.3:
            s["dormant"] |= 1 << c
    s["sun"][:] = (rng.randint(0, 60), rng.randint(0, 60))
    s["score"][:] = (rng.randint(0, 150), rng.randint(0, 150))
    s["waiting"][:] = (0, rng.randint(0, 1))
    s["nutrients"] = rng.randint(0, 20)
    s["day"] = rng.randint(0, game.league.max_days - 1)


def positions(count: int, seed: int = 2021):
    """(game, lines) pairs for player 0: half from random games, half synthetic states."""
    rng = random.Random(seed)
    produced = 0
    while produced < count:
        league = rng.choice((1, 2, 3, 3, 3))
        game = Game(rng.randrange(-(2**63), 2**63), league)
        if produced % 2:
            random_state(game, rng)
            game.phase = "ACTIONS"
            yield game, game.frame_input(0)
            produced += 1
            continue
        bots = [player_for(parse_bot(f"random:{rng.randrange(1 << 30)}", league)) for _ in range(2)]
        for p, bot in enumerate(bots):
            bot.start(game, p)
        while not game.over and produced < count:
            def ask(p, lines):
                if p == 0 and produced < count:
                    snapshot.append((lines, game.states.copy()))
                return bots[p].answer(lines, 1.0)
            snapshot = []
            game.play_frame(ask)
            for lines, state in snapshot:
                replica = Game(game.seed, league)
                replica.states[:] = state
                yield replica, lines
                produced += 1


@pytest.fixture(scope="module", params=["defaults", "tuned"])
def exported(request, tmp_path_factory):
    directory = tmp_path_factory.mktemp("fuzz")
    bot_file = directory / f"fuzz_{request.param}.py"
    if request.param == "defaults":
        name, source = "heuristic", ["--bot", "heuristic"]
    else:
        params = tuned_params_file(directory)
        name, source = f"heuristic:{params}", ["--params", str(params)]
    assert run_tuner("export", *source, "-o", str(bot_file)).returncode == 0
    return load_exported(bot_file, f"fuzz_{request.param}"), name


def test_exported_bot_on_ten_thousand_random_legal_positions(exported):
    module, name = exported
    bots = {league: parse_bot(name, league) for league in (1, 2, 3)}
    kinds = set()
    seen = 0
    for game, lines in positions(POSITIONS):
        mp = module.Map(game.league.number, [int(r) for r in game.map["richness"]])
        answer = module.choose(mp, module.State(lines))  # raises if the bot would crash
        command = parse_command(answer, game.league)
        assert command.invalid is None, (answer, lines)
        if command.kind != rules.WAIT:
            code = rules.check_action(game.map, game.state, 0, command.kind, command.a, command.b)[0]
            assert code == rules.OK, (answer, lines)
            assert answer in lines, (answer, lines)  # it is one of the referee's possible moves
        seat = bots[game.league.number].seat.copy()
        assert answer == format_move(*(int(v) for v in decide(game.map, game.state, 0, seat[0])))
        kinds.add(command.kind)
        seen += 1
    assert seen == POSITIONS
    assert kinds == {rules.WAIT, rules.SEED, rules.GROW, rules.COMPLETE}  # every kind of answer was exercised
