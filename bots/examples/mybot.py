"""An example Photosynthesis bot program (CodinGame, Spring Challenge 2021) to tune with `tuner`.

Python 3, standard library only: paste it into the CodinGame IDE as it is. Each turn it answers one of the
possible moves the referee lists (so it never plays an illegal move, in any league):

  COMPLETE  the richest large tree, from day `complete_day` on when it owns more than `keep_large` large
            trees, every large tree in the last three days (on the last day only while the points are
            worth the 4 sun points they cost);
  GROW      the best-scoring tree, while enough days are left for it to reach size 3 and be completed:
            its size (bigger trees earn more sun), its cell's richness (`w_rich`), the sun it would lose in
            tomorrow's shadows (`w_shade`) and a little of the cost;
  SEED      while it owns fewer than `max_seeds` seeds and more than `seed_stop_left` days are left, on the
            cell with the best richness (`w_rich`) less its own trees on the cell's lines (`w_shade`: they
            would shade each other), never next to its own trees, from its smallest tree;
  WAIT      otherwise.

Its parameters are the constants marked `# tuner: NAME` (`tuner export STUDY --template` fills them), and
can also be given on the command line: `--complete-day 12`, ..., or `--params FILE.json` (a JSON object of
name: value, or a `tuner export` file holding one under "params"); command-line values win.
"""
import argparse
import json
import sys

COMPLETE_DAY = 12  # tuner: complete_day
KEEP_LARGE = 3  # tuner: keep_large
MAX_SEEDS = 1  # tuner: max_seeds
SEED_STOP_LEFT = 5  # tuner: seed_stop_left
W_RICH = 1.0  # tuner: w_rich
W_SHADE = 3.0  # tuner: w_shade

PARAMETERS = {
    "complete_day": (int, COMPLETE_DAY, "no COMPLETE before this day"),
    "keep_large": (int, KEEP_LARGE, "large trees kept (not completed) until the last three days"),
    "max_seeds": (int, MAX_SEEDS, "plant a seed only while owning fewer seeds than this"),
    "seed_stop_left": (int, SEED_STOP_LEFT, "no SEED once this few days (or fewer) are left"),
    "w_rich": (float, W_RICH, "weight of a cell's richness (GROW, SEED)"),
    "w_shade": (float, W_SHADE, "weight of the shade a tree gets or would get (GROW, SEED)"),
}

RICHNESS_BONUS = (0, 0, 2, 4)
GROW_COST = (1, 3, 7)  # to grow from size 0, 1, 2; plus one per own tree of the next size
COST_WEIGHT = 0.3
LAST_DAY_BY_STARTING_TREES = {6: 0, 4: 5}  # Wood 2: 1 day, Wood 1: 6 days; Bronze+ (2 trees each): 24 days
LAST_DAY = 23


def read_parameters(argv):
    """The parameters: the constants above, then a --params file, then --name value options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--params", metavar="FILE.json", help="a JSON object of name: value")
    for name, (kind, _, doc) in PARAMETERS.items():
        parser.add_argument("--" + name.replace("_", "-"), "--" + name, dest=name, type=kind, help=doc)
    args = parser.parse_args(argv)
    values = {name: default for name, (_, default, _) in PARAMETERS.items()}
    if args.params:
        try:
            with open(args.params, encoding="utf-8") as handle:
                data = json.load(handle)
        except (OSError, ValueError) as error:
            parser.error(f"--params {args.params}: {error}")
        if not isinstance(data, dict):
            parser.error(f"--params {args.params}: expected a JSON object of name: value")
        if isinstance(data.get("params"), dict):
            data = data["params"]
        for name, value in data.items():
            if name not in PARAMETERS:
                parser.error(f"{args.params}: unknown parameter {name!r} (known: {', '.join(PARAMETERS)})")
            values[name] = PARAMETERS[name][0](value)
    for name in PARAMETERS:
        if getattr(args, name) is not None:
            values[name] = getattr(args, name)
    return values


class Board:
    """The forest: each cell's richness and neighbours (direction 0..5, -1 off the board)."""

    def __init__(self, lines):
        count = int(lines[0])
        self.richness = [0] * count
        self.neighbors = [[-1] * 6 for _ in range(count)]
        for line in lines[1:count + 1]:
            fields = [int(x) for x in line.split()]
            self.richness[fields[0]] = fields[1]
            self.neighbors[fields[0]] = fields[2:8]

    def ray(self, cell, direction, length):
        """The cells from `cell` (excluded) in one direction, at most `length` of them."""
        out = []
        for _ in range(length):
            cell = self.neighbors[cell][direction]
            if cell < 0:
                break
            out.append(cell)
        return out


class Bot:
    def __init__(self, params, board):
        self.p = params
        self.board = board
        self.last_day = None

    def shaded(self, trees, cell, size, day):
        """Whether a tree of `size` on `cell` gets a spooky shadow on `day` (sun direction day % 6)."""
        toward_sun = (day % 6 + 3) % 6
        for distance, other in enumerate(self.board.ray(cell, toward_sun, 3), 1):
            if other in trees and trees[other][0] >= distance and trees[other][0] >= size:
                return True
        return False

    def next_to_own(self, trees, cell):
        return any(other >= 0 and other in trees and trees[other][1] for other in self.board.neighbors[cell])

    def own_lines(self, trees, cell):
        """How many of its own trees stand within two cells of `cell` on a straight line."""
        return sum(1 for d in range(6) for other in self.board.ray(cell, d, 2)
                   if other in trees and trees[other][1])

    def choose(self, day, nutrients, sun, trees, moves):
        p = self.p
        mine = {c: t for c, t in trees.items() if t[1]}
        if self.last_day is None:
            self.last_day = LAST_DAY_BY_STARTING_TREES.get(len(mine), LAST_DAY)
        left = self.last_day - day
        large = sum(1 for size, _, _ in mine.values() if size == 3)
        seeds = sum(1 for size, _, _ in mine.values() if size == 0)
        rich = self.board.richness

        best, best_key = "WAIT", (0,)
        for move in moves:
            words = move.split()
            if words[0] == "COMPLETE":
                cell = int(words[1])
                points = nutrients + RICHNESS_BONUS[rich[cell]]
                if left == 0:  # the 4 sun points it costs would have scored sun // 3 at the end
                    wanted = points > sun // 3 - (sun - 4) // 3
                else:
                    wanted = left < 3 or (day >= p["complete_day"] and large > p["keep_large"])
                key = (3, rich[cell], -cell) if wanted else None
            elif words[0] == "GROW":
                cell = int(words[1])
                size = mine[cell][0]
                if left < 3 - size:
                    key = None
                else:
                    cost = GROW_COST[size] + sum(1 for t in mine.values() if t[0] == size + 1)
                    shade = size + 1 if self.shaded(trees, cell, size + 1, day + 1) else 0
                    score = size + p["w_rich"] * rich[cell] - p["w_shade"] * shade - COST_WEIGHT * cost
                    key = (2, score, -cell)
            elif words[0] == "SEED":
                source, target = int(words[1]), int(words[2])
                if seeds >= p["max_seeds"] or left <= p["seed_stop_left"] or self.next_to_own(trees, target):
                    key = None
                else:
                    score = p["w_rich"] * rich[target] - p["w_shade"] * self.own_lines(trees, target)
                    key = (1, score, -mine[source][0], -target, -source)
            else:
                key = None
            if key is not None and key > best_key:
                best, best_key = move, key
        return best


def main():
    params = read_parameters(sys.argv[1:])
    read = sys.stdin.readline
    first = read()
    if not first:
        return
    board = Board([first] + [read() for _ in range(int(first))])
    bot = Bot(params, board)
    while True:
        line = read()
        if not line:
            return
        day = int(line)
        nutrients = int(read())
        sun, _score = (int(x) for x in read().split())
        read()  # the opponent's sun, score and whether it is asleep
        trees = {}
        for _ in range(int(read())):
            cell, size, is_mine, dormant = (int(x) for x in read().split())
            trees[cell] = (size, is_mine, dormant)
        moves = [read().strip() for _ in range(int(read()))]
        print(bot.choose(day, nutrients, sun, trees, moves), flush=True)


if __name__ == "__main__":
    main()
