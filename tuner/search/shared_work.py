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
Every storage call rides out an outage (`tuner.storage.outage`), and a lock lost in one is taken again.
"""
from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from contextlib import nullcontext
from functools import partial
from typing import Optional

from tuner.search.heartbeat import Periodic
from tuner.storage.lock import LockLost
from tuner.storage.outage import Outage

POLL_SECONDS = 1.0
CLAIM, DONE = "share:claim:", "share:done:"


def claim(study, key: str, worker: str) -> None:
    """Write (or renew) `worker`'s claim on `key`, beaten now."""
    study.set_user_attr(CLAIM + key, {"worker": worker, "beat": time.time()})


def share(study, lock, units: dict[str, Callable[[], dict]], interval: float, grace: float,
          notify: Callable[[str], None] = print, outage: Optional[Outage] = None) -> dict[str, dict]:
    """Each unit's result ({key: JSON-able dict}), played here or by the study's other workers: `units` maps a key
    (the same on every worker for the same work) to the function that plays it and returns its result. No claim is
    taken for dead while an `outage` of the storage lasts or within `grace` after it (the beats stopped too)."""
    worker = uuid.uuid4().hex
    waiting_said = False
    while True:
        try:
            with lock if lock is not None else nullcontext():
                attrs = study.user_attrs
                done = {key: attrs[DONE + key]["result"] for key in units if DONE + key in attrs}
                if len(done) == len(units):
                    return done
                now = time.time()
                settling = outage is not None and outage.settling(grace)
                free = [key for key in units if key not in done and (CLAIM + key not in attrs or (
                    not settling and now - attrs[CLAIM + key]["beat"] > grace))]
                if free:
                    key = free[0]
                    claim(study, key, worker)
        except LockLost:  # the lock's session ended (a database restart): look again under the lock
            continue
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
