"""Issue 34, kept fixed: two promises under faults, through the fake Discord.

- While another process holds the database's lock for seconds (SQLite's write lock, or PostgreSQL rows), every
  command in every channel is answered within Discord's 3 s: reads as usual, moves with the move or "the database
  is busy; nothing was changed", and nothing was changed then.
- After a restart, every pending DM is delivered whichever path loads the game first: a /hand or /board that reaches
  the game before the background resume still brings the DMs up to date.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import pytest

from bot import Bot, Settings
from engine import the_game
from table.flow import Table
from tests.e2e.conftest import World
from tests.e2e.test_hardening import deal, dm_messages, lay_minimum, real_hands_shown
from tests.fake_discord import Channel, InteractionRecord, Member
from tests.players import best_play, hand_in
from tests.postgres import PostgresServer

LOCKED_SECONDS = 7.0
WAVES = 4  # one command per channel each time: 20 commands in 5 channels
WAVE_EVERY = 1.5  # seconds: the last wave's moves give up before the lock goes
BUSY = "The database is busy"

# Another process's connection to the SQLite file: it takes the write lock (and writes a row), says so, keeps the
# lock for as many seconds as it is given, then commits.
LOCKER = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN EXCLUSIVE")
db.execute("INSERT INTO meta (key, value) VALUES ('another process', 'was here') ON CONFLICT DO NOTHING")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
db.execute("COMMIT")
"""


@dataclass
class Seat:
    """One table of the test: its channel, its two players, and the move its mover will try."""

    channel: Channel
    mover: Member
    other: Member
    play: the_game.Play
    moves: int  # the move count before the lock


async def tables(world: World, bot: Bot) -> list[Seat]:
    """Five channels, each with a dealt two-player game of The Game."""
    ana, ben, cy, dee, eve, fay, gus = world.players
    pairs = [(ana, ben), (cy, dee), (eve, fay), (gus, ana), (ben, cy)]
    channels = [world.channel, world.other_channel]
    channels += [world.fake.add_text_channel(world.guild, f"table-{n}") for n in range(3, 6)]
    seats = []
    for channel, pair in zip(channels, pairs, strict=True):
        await deal(world, list(pair), channel)
        live, _ = await bot.tables.games.running(channel.id)
        state = live.state
        current = the_game.current_player(state)
        mover = next(m for m in pair if m.id == (state.players[0] if current is None else current))
        other = next(m for m in pair if m is not mover)
        seats.append(Seat(channel, mover, other, best_play(state, mover.id), live.record.moves))
    await world.fake.wait_idle()
    return seats


async def command(world: World, seat: Seat, kind: str) -> InteractionRecord:
    fake, channel = world.fake, seat.channel
    if kind == "play":
        options = {"card": seat.play.card, "pile": seat.play.pile}
        return await fake.invoke("play", user=seat.mover, channel=channel, options=options, wait=False)
    user = {"board": world.spectator, "hand": seat.other, "own hand": seat.mover}[kind]
    return await fake.invoke(kind.split()[-1], user=user, channel=channel, wait=False)


def visible(rec: InteractionRecord) -> list[Any]:
    """The messages the interaction left showing (its response, unless taken away, and its followups)."""
    assert rec.response is not None
    return [m for m in [rec.response.message, rec.original, *rec.followups] if m is not None and not m.deleted]


async def every_command_in_time(
    world: World,
    bot: Bot,
    seats: list[Seat],
    hold: Callable[[asyncio.Event], Awaitable[None]],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Send 20 commands in 5 channels while ``hold`` keeps the database locked (it sets the event once it has the
    lock), and check every answer."""
    sent: list[tuple[Seat, str, InteractionRecord]] = []
    kinds = ("board", "hand", "play", "own hand")
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        locked = asyncio.Event()
        holding = asyncio.ensure_future(hold(locked))
        await asyncio.wait_for(locked.wait(), 10)
        for wave in range(WAVES):
            for number, seat in enumerate(seats):
                kind = kinds[(number + wave) % len(kinds)]
                sent.append((seat, kind, await command(world, seat, kind)))
            await asyncio.sleep(WAVE_EVERY)
        await holding
        await world.fake.wait_idle(quiet=0.3, timeout=10)
    late = [(kind, rec.response and rec.response.latency, rec.errors) for _, kind, rec in sent if not rec.responded]
    assert not late, late
    assert not [rec for _, _, rec in sent if rec.expired]
    for _seat, kind, rec in sent:
        assert rec.response is not None
        assert rec.response.latency < 3.0, (kind, rec.response.latency)
        shown = visible(rec)
        if kind == "board":
            assert not any(BUSY in m.content for m in shown), [m.content for m in shown]
            assert any(m.embed is not None and not m.ephemeral for m in shown), [m.content for m in shown]
        elif kind in ("hand", "own hand"):
            assert any(m.ephemeral and hand_in(m.content) is not None for m in shown), [m.content for m in shown]
    for seat in seats:
        record = await bot.storage.open_game(seat.channel.id)
        assert record is not None
        played = [rec for s, kind, rec in sent if s is seat and kind == "play"]
        busy = [rec for rec in played if any(BUSY in m.content and m.ephemeral for m in visible(rec))]
        for rec in busy:
            assert any("Nothing was changed" in m.content for m in visible(rec))
            assert not any(m.loading for m in visible(rec))
        # A move told "busy" changed nothing; one that got through is on the log.
        assert record.moves == seat.moves + len(played) - len(busy), [[m.content for m in visible(r)] for r in played]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info], [
        r.getMessage() for r in caplog.records
    ]
    # The lock is gone: every table plays on at once.
    for seat in seats:
        live, _ = await bot.tables.games.running(seat.channel.id)
        member = seat.mover if the_game.current_player(live.state) in (None, seat.mover.id) else seat.other
        play = best_play(live.state, member.id)
        rec = await world.fake.invoke(
            "play", user=member, channel=seat.channel, options={"card": play.card, "pile": play.pile}
        )
        assert rec.response is not None
        assert "laid" in rec.response.content, rec.response.content


async def test_a_sqlite_file_locked_for_7_s_by_another_process_answers_every_command_in_time(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    async def hold(locked: asyncio.Event) -> None:
        locker = await asyncio.create_subprocess_exec(
            sys.executable, "-c", LOCKER, str(world.database_path), str(LOCKED_SECONDS), stdout=asyncio.subprocess.PIPE
        )
        assert locker.stdout is not None
        assert await locker.stdout.readline() == b"locked\n"
        locked.set()
        assert await locker.wait() == 0

    async with world.bot(seed=34) as bot:
        seats = await tables(world, bot)
        await every_command_in_time(world, bot, seats, hold, caplog)


@asynccontextmanager
async def postgres_bot(world: World, url: str) -> AsyncIterator[Bot]:
    settings = Settings(token="fake-token", database_path=str(world.database_path), database_url=url)
    bot = Bot(settings, seed=34, guild_ready_timeout=0.05)
    async with world.fake.run_bot(bot):
        yield bot


async def test_postgresql_rows_locked_for_7_s_by_another_client_answer_every_command_in_time(
    world: World, postgres_server: PostgresServer, caplog: pytest.LogCaptureFixture
) -> None:
    url = await postgres_server.new_database()
    async with postgres_bot(world, url) as bot:
        seats = await tables(world, bot)
        ids = [(await bot.storage.open_game(seat.channel.id)).id for seat in seats]  # type: ignore[union-attr]

        async def hold(locked: asyncio.Event) -> None:
            other = await asyncpg.connect(url)
            try:
                async with other.transaction():
                    await other.execute("SELECT 1 FROM games WHERE id = ANY($1::bigint[]) FOR UPDATE", ids)
                    locked.set()
                    await asyncio.sleep(LOCKED_SECONDS)
            finally:
                await other.close()

        await every_command_in_time(world, bot, seats, hold, caplog)


# ---- a stop between a commit and its DM ------------------------------------------------------------------------------


@pytest.mark.parametrize("first", ["hand", "board"])
async def test_a_dm_a_stop_interrupted_is_delivered_when_a_read_loads_the_game_first(
    world: World, monkeypatch: pytest.MonkeyPatch, first: str
) -> None:
    fake, members = world.fake, world.players[:2]
    async with world.bot(seed=35):
        await deal(world, members)
        drawer = await lay_minimum(world)
        # The DM is held up until the bot stops: the move is committed and answered, the hand never reaches the DM.
        held = fake.rate_limit("PATCH", f"{dm_messages(fake, drawer)}/{{message_id}}", retry_after=30.0)
        ended = await world.fake.invoke("endturn", user=drawer, channel=world.channel)
        await fake.wait_for(lambda: held.hits, what="the DM to be under way")
        assert ended.response is not None
        assert "your turn" in ended.response.content
    held.clear()
    assert not real_hands_shown(world, [drawer])

    # The background resume is slower than the first reader: it starts only once that reader was answered.
    reader_answered = asyncio.Event()
    resume = Table._resume

    async def late_resume(self: Table, records: list[Any]) -> None:
        await reader_answered.wait()
        await resume(self, records)

    monkeypatch.setattr(Table, "_resume", late_resume)
    async with world.bot(seed=36):
        rec = await fake.invoke(first, user=members[0], channel=world.channel)
        assert rec.response is not None
        reader_answered.set()
        await fake.wait_for(lambda: real_hands_shown(world, members), timeout=5, what="the DMs after the restart")
