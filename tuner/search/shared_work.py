"""Work that a study's workers share after the search: the finals and the gauntlets, unit by unit.

Every worker that ends the search computes the same list of units (the finalists, then the gauntlets of the bot
they choose) and calls `share(...)`: under the study lock it takes a unit that nobody took, or whose taker stopped
beating, by writing a claim (`share:claim:KEY`, its worker and the time of its last beat) in the study's user
attributes; it plays the unit outside the lock, beating every `interval` seconds from a thread, and records the
result with the worker that played it (`share:done:KEY`). When no unit is left to take it waits, looking again
every POLL_SECONDS, for the units others play; a unit whose claim has not beaten for `grace` seconds (a dead
worker) is taken again. So N workers
play a finals phase of F finalists in about F / N finalists' time, and each ends with every result: they choose
the same bot and print the same figures. A unit's result depends on nothing but its key's inputs (its parameters,
its seeds, its opponents), so a unit played twice (a claim lost on a storage without a lock) records the same.
"""
from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from contextlib import nullcontext
from functools import partial

from tuner.search.heartbeat import Periodic

POLL_SECONDS = 1.0
CLAIM, DONE = "share:claim:", "share:done:"


def claim(study, key: str, worker: str) -> None:
    """Write (or renew) `worker`'s claim on `key`, beaten now."""
    study.set_user_attr(CLAIM + key, {"worker": worker, "beat": time.time()})


def share(study, lock, units: dict[str, Callable[[], dict]], interval: float, grace: float,
          notify: Callable[[str], None] = print) -> dict[str, dict]:
    """Each unit's result ({key: JSON-able dict}), played here or by the study's other workers: `units` maps a key
    (the same on every worker for the same work) to the function that plays it and returns its result."""
    worker = uuid.uuid4().hex
    waiting_said = False
    while True:
        with lock if lock is not None else nullcontext():
            attrs = study.user_attrs
            done = {key: attrs[DONE + key]["result"] for key in units if DONE + key in attrs}
            if len(done) == len(units):
                return done
            now = time.time()
            free = [key for key in units if key not in done and
                    (CLAIM + key not in attrs or now - attrs[CLAIM + key]["beat"] > grace)]
            if free:
                key = free[0]
                claim(study, key, worker)
        if not free:
            if not waiting_said:
                notify(f"waiting for {len(units) - len(done)} of {len(units)} units played by other workers")
                waiting_said = True
            time.sleep(POLL_SECONDS)
            continue
        with Periodic(partial(claim, study, key, worker), interval, "tuner-claim-beat") as beats:
            beats.start()
            result = units[key]()
        study.set_user_attr(DONE + key, {"worker": worker, "result": result})
