"""Compiled steps of the frame-by-frame game (engine/game.py) and the text of a frame's input.

Called from Python with the game's one-element map and state arrays: Numba types an array argument from a
cached fingerprint, while a record argument costs microseconds of typing on every call, more than the
step itself. Each step returns whether the game is over, saving a call.
"""
from __future__ import annotations

import numpy as np

from engine import rules
from engine.jit import hot, kernel, lowest_bit, popcount

MAX_INPUT_BYTES = 32768  # a frame's input: at most 4 + 2 + 37 + 1 + rules.MAX_MOVES lines of at most 12 bytes
NEWLINE = 10
SPACE = 32
MINUS = 45
ZERO = 48
# The words of the possible moves, by action kind (WAIT, SEED, GROW, COMPLETE): offset and length in WORDS.
WORDS = np.frombuffer(b"WAITSEEDGROWCOMPLETE", dtype=np.uint8).copy()
WORD_AT = np.array([0, 4, 8, 12], dtype=np.int64)
WORD_LENGTH = np.array([4, 4, 4, 8], dtype=np.int64)


@kernel
def gathering(maps, states):
    """GATHERING: (sun gained by player 0, by player 1, game over)."""
    gained0, gained1 = rules.start_day(maps[0], states[0])
    return gained0, gained1, rules.game_over(maps[0], states[0])


@kernel
def shadows(states, orientation):
    """The cells in the shadow of trees of size >= 1, >= 2, >= 3 (for the GATHERING record)."""
    return rules.shadows(states[0], orientation)


@kernel
def sun_move(maps, states):
    """SUN_MOVE: the day ends; True if the game is over."""
    rules.end_day(maps[0], states[0])
    return rules.game_over(maps[0], states[0])


@kernel
def disqualify(states, p):
    rules.disqualify(states[0], p)


@kernel
def actions(maps, states, kind0, a0, b0, kind1, a1, b1):
    """ACTIONS: both moves at once. rules.resolve_turn's (code0, x0, y0, code1, x1, y1, conflict), then
    whether the game is over and whether both players now sleep (the day's turns are over)."""
    s = states[0]
    code0, x0, y0, code1, x1, y1, conflict = rules.resolve_turn(maps[0], s, kind0, a0, b0, kind1, a1, b1)
    return (code0, x0, y0, code1, x1, y1, conflict, rules.game_over(maps[0], s),
            s.waiting[0] != 0 and s.waiting[1] != 0)


@kernel
def tree_rows(states, rows):
    """Every tree as a row (cell, size, owner, dormant) of `rows` (CELLS x 4), by cell; returns their count."""
    s = states[0]
    bits = s.trees[0] | s.trees[1] | s.trees[2] | s.trees[3]
    n = 0
    while bits:
        c = lowest_bit(bits)
        bits &= bits - 1
        rows[n, 0] = c
        rows[n, 1] = rules.size_at(s, c)
        rows[n, 2] = (s.mine[1] >> c) & 1
        rows[n, 3] = (s.dormant >> c) & 1
        n += 1
    return n


@kernel
def final_scores(states):
    return rules.final_scores(states[0])


@hot
def put_int(out, n, value):
    """Write `value` in decimal at out[n]; the new length."""
    if value < 0:
        out[n] = MINUS
        n += 1
        value = -value
    end = n + 1
    rest = value // 10
    while rest:
        end += 1
        rest //= 10
    i = end
    while True:
        i -= 1
        out[i] = ZERO + value % 10
        value //= 10
        if i == n:
            break
    return end


@hot
def put_char(out, n, char):
    out[n] = char
    return n + 1


@kernel
def input_text(maps, states, p, rng, moves, out):
    """Write player p's input for this frame into `out`: (length, new rng). See write_input."""
    return write_input(maps[0], states[0], p, rng, moves, out)


@kernel
def frame_inputs(maps, states, rng, moves, texts):
    """ACTIONS: write the input of each player asked this frame (active and awake) into its row of `texts`,
    player 0's first. Returns (length 0, length 1, new rng), a length being -1 for a player not asked."""
    s = states[0]
    length0 = -1
    length1 = -1
    if s.active[0] and not s.waiting[0]:
        length0, rng = write_input(maps[0], s, 0, rng, moves, texts[0])
    if s.active[1] and not s.waiting[1]:
        length1, rng = write_input(maps[0], s, 1, rng, moves, texts[1])
    return length0, length1, rng


@hot
def write_input(mp, s, p, rng, moves, out):
    """Write player p's input for this frame into `out` as the referee prints it (one line per value, each
    ending with a newline): day, nutrients, its sun and score, the opponent's sun, score and waiting flag,
    the trees by cell, then the possible moves in the order the game RNG shuffles them. Returns
    (length, new rng); `moves` is scratch space of rules.MAX_MOVES."""
    o = 1 - p
    n = put_char(out, put_int(out, 0, s.day), NEWLINE)
    n = put_char(out, put_int(out, n, s.nutrients), NEWLINE)
    n = put_char(out, put_int(out, n, s.sun[p]), SPACE)
    n = put_char(out, put_int(out, n, s.score[p]), NEWLINE)
    n = put_char(out, put_int(out, n, s.sun[o]), SPACE)
    n = put_char(out, put_int(out, n, s.score[o]), SPACE)
    n = put_char(out, put_int(out, n, s.waiting[o]), NEWLINE)
    occupied = s.trees[0] | s.trees[1] | s.trees[2] | s.trees[3]
    n = put_char(out, put_int(out, n, popcount(occupied)), NEWLINE)
    bits = occupied
    while bits:
        c = lowest_bit(bits)
        bits &= bits - 1
        n = put_char(out, put_int(out, n, c), SPACE)
        n = put_char(out, put_int(out, n, rules.size_at(s, c)), SPACE)
        n = put_char(out, put_char(out, n, ZERO + ((s.mine[p] >> c) & 1)), SPACE)
        n = put_char(out, put_char(out, n, ZERO + ((s.dormant >> c) & 1)), NEWLINE)
    count, rng = rules.possible_moves(mp, s, p, rng, moves)
    n = put_char(out, put_int(out, n, count), NEWLINE)
    for i in range(count):
        kind, a, b = rules.decode_move(moves[i])
        at = WORD_AT[kind]
        for k in range(WORD_LENGTH[kind]):
            out[n + k] = WORDS[at + k]
        n += WORD_LENGTH[kind]
        if kind != rules.WAIT:
            n = put_int(out, put_char(out, n, SPACE), a)
            if kind == rules.SEED:
                n = put_int(out, put_char(out, n, SPACE), b)
        n = put_char(out, n, NEWLINE)
    return n, rng

