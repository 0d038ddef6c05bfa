"""The bot process's memory: how often the garbage collector runs, and giving back what a burst of load took."""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import logging
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

# Objects a young collection lets pile up before the next (CPython's default: 700). Every action leaves hundreds
# behind for a while (tasks, futures, requests); with the default the collector ran every few actions, its older
# generations after it (200 collections, about 1 s, in 15 s of load.py with 200 games). 20,000 cut that to 5
# collections and 0.2 s but held 1.8 MB more (9 KB per game at 200 games); 5,000 is between the two.
YOUNG_OBJECTS = 5_000


def settle_garbage_collector() -> None:
    """Once everything is loaded: the modules, catalogs and command tree never die, so the collector stops looking at
    them (``gc.freeze``), and runs less often."""
    gc.collect()
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_OBJECTS, middle, old)


# A housekeeping tick (15 s) with at most this many interactions is quiet: a burst is over, and the collection that
# gives its memory back (tens of milliseconds with the event loop held) delays almost nobody.
QUIET_INTERACTIONS = 20


class BurstEnd:
    """Tells, tick by tick, when a busy moment has just ended: the first tick with at most ``QUIET_INTERACTIONS``
    interactions after one with more. Each call is given the number of interactions seen so far."""

    def __init__(self, seen: int) -> None:
        self.seen = seen
        self.busy = False

    def tick(self, seen: int) -> bool:
        quiet = seen - self.seen <= QUIET_INTERACTIONS
        self.seen = seen
        ended = quiet and self.busy
        self.busy = not quiet
        return ended


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, which hands the allocator's free pages back to the system; None on other C libraries."""
    try:
        trim: Callable[[int], int] = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None
    return trim


MALLOC_TRIM = _malloc_trim()


def give_back_memory() -> None:
    """Return what a burst of load left behind. The requests and interactions of a busy moment die in reference
    cycles, and the collector's own schedule counts new objects, so a bot gone quiet would keep them until the next
    busy moment; their memory then sits free in the C allocator until it is trimmed (``load.py --quiet-wait 35`` at
    200 games: 36-40 KB per game kept without this, 21 with it)."""
    started = time.perf_counter()
    freed = gc.collect()
    if MALLOC_TRIM is not None:
        MALLOC_TRIM(0)
    took = (time.perf_counter() - started) * 1000
    log.debug("Gave memory back after a busy moment: %d objects freed, %.0f ms", freed, took)
