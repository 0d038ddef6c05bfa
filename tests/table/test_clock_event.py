"""The clock says a turn ran out as an event (``TurnRanOut``), once per timer, and knows nothing of who plays it."""

from __future__ import annotations

from typing import cast

import discord

from engine import no_thanks
from storage import GameRecord
from storage.sqlite import SQLiteStorage
from table.clock import TurnClock
from table.events import TurnRanOut
from table.games import Games
from table.language import Languages
from tests.table.conftest import CHANNEL, core, running


async def clocked(storage: SQLiteStorage) -> tuple[Games, TurnClock, list[TurnRanOut], GameRecord, int]:
    """A running No Thanks! game whose first mover's clock runs, with a stand-in for the seats that keeps what the
    clock says; and the first mover."""
    games, _heard = core(storage)
    ran_out: list[TurnRanOut] = []

    async def seats(event: TurnRanOut) -> None:
        ran_out.append(event)

    games.events.on_turn_ran_out("seats", seats)
    clock = TurnClock(cast(discord.Client, None), storage, games, cast(Languages, None))
    games.events.subscribe("clock", clock.on_moved)
    record = await running(games)
    live, presenter = await games.running(CHANNEL)
    await clock.restart(live, presenter, moved_on=True)
    mover = no_thanks.current_player(live.state)
    assert mover is not None
    assert clock.deadlines[record.id][0] == mover
    return games, clock, ran_out, record, mover


async def test_a_turn_that_ran_out_is_announced_once_to_whoever_plays_it(storage: SQLiteStorage) -> None:
    _games, clock, ran_out, record, mover = await clocked(storage)
    await clock._fire(record.id, 0, reminder=False)
    assert ran_out == [TurnRanOut(CHANNEL, record.id, mover)]
    assert record.id not in clock.deadlines
    await clock._fire(record.id, 0, reminder=False)  # claimed already: it fires once
    assert len(ran_out) == 1


async def test_a_turn_played_in_time_runs_out_never(storage: SQLiteStorage) -> None:
    games, clock, ran_out, record, mover = await clocked(storage)
    moved = await games.play(CHANNEL, mover, no_thanks.NoThanks())  # the next player's clock starts at move 1
    assert clock.deadlines[record.id][0] == moved.upcoming
    await clock._fire(record.id, 0, reminder=False)  # the first mover's timer: their turn was played
    assert ran_out == []
