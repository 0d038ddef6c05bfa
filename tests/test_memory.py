"""The process's memory: what the bot gives back at the first quiet housekeeping tick after a burst of load."""

import gc
import sys
import weakref
from collections.abc import Iterator

import pytest

import memory
from memory import QUIET_INTERACTIONS, BurstEnd, give_back_memory


def ticks(per_tick: list[int]) -> list[bool]:
    """Whether memory goes back at each tick, with ``per_tick`` interactions arriving during each."""
    seen = 0
    watch = BurstEnd(seen)
    given_back = []
    for arriving in per_tick:
        seen += arriving
        given_back.append(watch.tick(seen))
    return given_back


def test_memory_goes_back_once_at_the_first_quiet_tick_after_a_busy_one() -> None:
    busy, quiet = QUIET_INTERACTIONS + 1, QUIET_INTERACTIONS
    assert ticks([busy, busy, quiet, 0, 0, busy, 0]) == [False, False, True, False, False, False, True]


def test_a_bot_that_stays_quiet_or_busy_never_stops_for_it() -> None:
    assert not any(ticks([0, 3, QUIET_INTERACTIONS, 1] * 5))
    assert not any(ticks([QUIET_INTERACTIONS + 1, 500] * 5))


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


@pytest.fixture
def collector_off() -> Iterator[None]:
    """The collector's own schedule off, so that only ``give_back_memory`` can free a cycle."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def test_giving_back_frees_the_cycles_a_burst_left_behind(collector_off: None) -> None:
    first, second = Node(), Node()
    first.other, second.other = second, first  # as an interaction and its response hold each other
    left = weakref.ref(first)
    del first, second
    assert left() is not None  # only a collection frees a cycle
    give_back_memory()
    assert left() is None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim")
def test_glibc_gives_its_free_pages_back() -> None:
    assert memory.MALLOC_TRIM is not None
    assert memory.MALLOC_TRIM(0) in (0, 1)
