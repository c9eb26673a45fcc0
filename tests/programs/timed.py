"""A test bot with a time per move: it spends `--time-ms T` on every answer (plus `--over MS`, a fixed overrun, on
every answer after the first), then plays the possible move `--pick K` (modulo their number).

usage: timed.py --time-ms T [--over MS] [--pick K] [--log FILE]

With --log, it appends its T to FILE once, when it starts: one line per game it plays.
"""
import sys
import time

options = dict(zip(sys.argv[1::2], sys.argv[2::2]))
budget_s = float(options.get("--time-ms", "0")) / 1000
over_s = float(options.get("--over", "0")) / 1000
pick = int(options.get("--pick", "0"))
if "--log" in options:
    with open(options["--log"], "a") as log:
        log.write(f"{options['--time-ms']}\n")

for _ in range(int(input())):
    input()
answers = 0
while True:
    try:
        input()
    except EOFError:
        sys.exit(0)
    input(); input(); input()
    for _ in range(int(input())):
        input()
    moves = [input() for _ in range(int(input()))]
    time.sleep(budget_s + (over_s if answers else 0.0))
    answers += 1
    print(moves[pick % len(moves)], flush=True)
