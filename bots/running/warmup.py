"""Compiling the engine before a command plays: on an empty cache, in parallel processes, with progress.

Compiled code is cached per module and content (`engine.cache`), so this runs once for a set of sources; after
an edit, only what the edit touches. The pieces compile in stages, each stage's pieces in parallel, since a
piece links what the earlier stages compiled (loaded from the cache):

    1. each bot's policy, the referee's frame steps, the map generator
    2. the dispatch from a seat to its policy
    3. the arena's games between seats, the dispatch for the referee's players

A command that plays a few in-engine bots alone asks for those (`kinds`): while the cache lacks the arena, only
their policies, the maps and an arena for them compile (`arena.pairings_for`).

A piece is compiled in a worker by playing the code it names on a tiny input: the types are those of real
calls, so that a later command finds exactly what it asks for in the cache.
"""
from __future__ import annotations

import fcntl
import inspect
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np
from numba import from_dtype, types

from bots.contract.seat import SEAT_DTYPE, new_seat_array, start_seat
from bots.registry import REGISTERED, plugin
from bots.running import arena, dispatch
from bots.running.generate import stale_dispatch
from engine import frames
from engine.cache import cache_root, is_cached, source_size
from engine.geometry import CELLS
from engine.maps import generate_map, official_map
from engine.records import MAP_DTYPE, STATE_DTYPE, new_map_array, new_state_array


class CompileError(RuntimeError):
    """A piece of the engine that does not compile (the message names it and gives Numba's reason)."""


SEAT_POLICY = (from_dtype(MAP_DTYPE), from_dtype(STATE_DTYPE), types.int64, from_dtype(SEAT_DTYPE))


def _policy(name: str) -> None:
    policy: Any = plugin(name).policy  # a Numba dispatcher
    policy.compile(SEAT_POLICY)


def _referee_steps() -> None:
    maps, states = official_map(1, 3), new_state_array()
    frames.gathering(maps, states)
    frames.shadows(states, 0)
    frames.actions(maps, states, 0, 0, 0, 0, 0, 0)
    frames.disqualify(states, 0)
    frames.sun_move(maps, states)
    frames.tree_rows(states, np.zeros((CELLS, 4), np.int64))
    frames.final_scores(states)


def _referee_texts() -> None:
    from engine.game import Game

    game = Game(1, 3)
    game.input_text(0)
    frames.frame_inputs(game.maps, game.states, game.rng, game._moves, game._texts)


def _maps() -> None:
    generate_map(1, 3, new_map_array()[0])


def _dispatch() -> None:
    dispatch.decide.compile(SEAT_POLICY)


def _seats() -> np.ndarray:
    seats = new_seat_array(2)
    seats["kind"] = REGISTERED.index("wait")
    return seats


def _players() -> None:
    seats = _seats()
    start_seat(seats[0], 1, 0)
    maps, states = new_map_array(), new_state_array()
    generate_map(1, 3, maps[0])
    dispatch.decide_in(maps, states, 0, seats[:1])


def _arena() -> None:
    arena.play_results(np.array([1], np.int64), 3, _seats(), [0], [1], arena.play_pairings)


def _arena_for(kinds: str) -> None:
    """Compile the arena for seats of these kinds (comma-separated), playing no game."""
    listed = [int(kind) for kind in kinds.split(",")]
    seats = new_seat_array(len(listed))
    seats["kind"] = listed
    arena.play_results(np.zeros(0, np.int64), 3, seats, [], [])


@dataclass(frozen=True)
class Piece:
    name: str  # what the progress shows
    kernels: tuple  # the dispatchers it compiles: cached when each has an index in the cache
    build: Callable[..., None]  # a module-level function a worker runs, with `argument` when there is one
    argument: Optional[str] = None


def stages(kinds: Optional[frozenset] = None) -> list[list[Piece]]:
    """The pieces to compile, by stage: the whole engine, or for seats of `kinds` alone (see the module's
    docstring) while the cache lacks the arena."""
    names = REGISTERED if kinds is None else [REGISTERED[kind] for kind in sorted(kinds)]
    policies = [Piece(f"{name}'s policy", (plugin(name).policy,), _policy, name) for name in names]
    policies.sort(key=lambda piece: -source_size(inspect.getfile(piece.kernels[0].py_func)))  # the longest first
    pairings = arena.play_pairings if kinds is None else arena.pairings_for(kinds)
    if kinds is not None and pairings is not arena.play_pairings:
        return [policies + [Piece("the maps", (generate_map,), _maps)],
                [Piece(f"the arena for {' and '.join(names)}", (pairings,), _arena_for,
                       ",".join(str(kind) for kind in sorted(kinds)))]]
    return [
        policies
        + [Piece("the referee's steps", (frames.actions, frames.gathering, frames.sun_move), _referee_steps),
           Piece("the referee's input texts", (frames.frame_inputs, frames.input_text), _referee_texts),
           Piece("the maps", (generate_map,), _maps)],
        [Piece("the dispatch", (dispatch.decide,), _dispatch)],
        [Piece("the arena", (arena.play_pairings,), _arena),
         Piece("the referee's players", (dispatch.decide_in,), _players)],
    ]


def missing(kinds: Optional[frozenset] = None) -> list[list[Piece]]:
    """The stages' pieces that are not cached yet (empty stages dropped)."""
    out = [[piece for piece in stage if not all(is_cached(k) for k in piece.kernels)] for stage in stages(kinds)]
    return [stage for stage in out if stage]


def _build(piece_build: Callable[..., None], argument: Optional[str]) -> None:
    if argument is None:
        piece_build()
    else:
        piece_build(argument)


Announce = Callable[[int, int], Callable[[str], None]]


@contextmanager
def _one_compiler(waiting: Callable[[], None]) -> Iterator[None]:
    """One process compiles at a time (an `flock` in the cache's root): another command started meanwhile waits,
    then finds what the first compiled."""
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    with open(root / "compile.lock", "a+b") as handle:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            waiting()
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        yield


def compile_engine(jobs: Optional[int] = None, announce: Optional[Announce] = None,
                   waiting: Callable[[], None] = lambda: None, kinds: Optional[frozenset] = None
                   ) -> Optional[float]:
    """Compile every piece missing from the cache (of the whole engine, or what seats of `kinds` alone play), the
    pieces of a stage on `jobs` processes (default: the cores this process may use). `announce(pieces,
    processes)` is called once before, when something is missing, and returns a callback `done(piece name)`;
    `waiting()` when another process is compiling. Returns the seconds it took, or None when everything was
    cached. CompileError when the dispatch is out of date: the bots it lacks would play WAIT without a word."""
    stale = stale_dispatch()
    if stale:
        raise CompileError(stale)
    if not missing(kinds):
        return None
    with _one_compiler(waiting):
        todo = missing(kinds)  # what another process compiled meanwhile is cached now
        return _compile(todo, jobs, announce) if todo else None


def _compile(todo: list, jobs: Optional[int], announce: Optional[Announce]) -> float:
    jobs = max(1, min(jobs or len(os.sched_getaffinity(0)), max(len(stage) for stage in todo)))
    done = announce(sum(len(stage) for stage in todo), jobs) if announce else (lambda name: None)
    start = time.perf_counter()
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as workers:
        for stage in todo:
            running = {workers.submit(_build, piece.build, piece.argument): piece for piece in stage}
            while running:
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    piece = running.pop(future)
                    error = future.exception()
                    if error is not None:
                        for other in running:
                            other.cancel()
                        raise CompileError(f"{piece.name} does not compile: {error}") from None
                    done(piece.name)
    return time.perf_counter() - start


def main() -> int:
    """`python -m bots.running.warmup`: compile what is missing, printing each piece as it is done."""
    start = time.perf_counter()

    def announce(pieces: int, processes: int):
        print(f"compiling {pieces} pieces on {processes} processes", flush=True)
        return lambda name: print(f"  {time.perf_counter() - start:5.1f} s  {name}", flush=True)

    seconds = compile_engine(announce=announce)
    print("everything was cached" if seconds is None else f"compiled in {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
