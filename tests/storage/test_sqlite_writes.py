"""SQLite's single-statement writes run in the event loop (``SQLiteStorage._execute``): they must never make it wait
for another program's lock, must be as durable as before, and their log must still be checkpointed."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from storage import Ending, NewGame, Result, StorageBusy
from storage.sqlite import CHECKPOINT_WRITES, SQLiteStorage


def lobby(channel_id: int = 10) -> NewGame:
    return NewGame(channel_id, 1, "the_game", 7, (7,), (), seed=42, rules_version=1)


async def test_a_write_waits_for_another_programs_lock_without_holding_up_the_event_loop(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    storage = await SQLiteStorage.open(str(path))
    try:
        game = await storage.create_game(lobby())
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another program writing
        writing = asyncio.ensure_future(storage.set_message(game.id, 99))
        # The loop goes on turning (its timer fires) while the write waits for the lock in aiosqlite's thread.
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(asyncio.shield(writing), 0.2)
        other.execute("COMMIT")
        other.close()
        await writing
        assert (await storage.game(game.id)).message_id == 99  # type: ignore[union-attr]
    finally:
        await storage.close()


async def test_inline_writes_are_committed_and_checkpointed(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    storage = await SQLiteStorage.open(str(path))
    game = await storage.create_game(lobby())
    for number in range(CHECKPOINT_WRITES + 1):
        await storage.set_meta("probe", str(number))
    checkpoint = storage._checkpoint
    assert checkpoint is not None
    await checkpoint
    await storage.set_message(game.id, 5)
    # Another connection sees every write at once: each was its own committed transaction.
    with closing(sqlite3.connect(path)) as reader:
        assert reader.execute("SELECT value FROM meta WHERE key = 'probe'").fetchone() == (str(CHECKPOINT_WRITES),)
        assert reader.execute("SELECT message_id FROM games WHERE id = ?", (game.id,)).fetchone() == (5,)
    await storage.close()
    wal = path.with_name(path.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0  # closing checkpointed whatever was left


async def test_switching_a_new_file_to_wal_waits_for_another_programs_writer(tmp_path: Path) -> None:
    """SQLite never calls the busy handler while switching to WAL, so busy_timeout alone failed at once here (CI saw
    it when two processes opened one new file together)."""
    path = tmp_path / "bot.sqlite3"
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("CREATE TABLE probe (x)")  # a file still in rollback-journal mode
    other.execute("BEGIN IMMEDIATE")  # another program about to write (as a second bot migrating the file)
    asyncio.get_running_loop().call_later(0.2, other.execute, "COMMIT")
    try:
        storage = await SQLiteStorage.open(str(path))
    finally:
        other.close()
    try:
        with closing(sqlite3.connect(path)) as reader:
            assert reader.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    finally:
        await storage.close()


async def test_reads_go_on_while_writes_wait_for_another_programs_lock(tmp_path: Path) -> None:
    """Issue 34: a write that meets another program's lock holds nothing of ours while it waits, so reads (of any
    channel) are answered meanwhile, and it gives up with StorageBusy, nothing written, when the lock stays."""
    path = tmp_path / "bot.sqlite3"
    storage = await SQLiteStorage.open(str(path))
    try:
        games = [await storage.create_game(lobby(channel)) for channel in (10, 11, 12)]
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another program writing, for longer than a write waits
        writes = [asyncio.ensure_future(storage.set_message(game.id, 99)) for game in games]
        await asyncio.sleep(0.05)
        for game in games:
            assert (await storage.game(game.id)) is not None
            assert await storage.open_game(game.channel_id) is not None
        assert not any(write.done() for write in writes)  # the reads did not wait for them
        for write in writes:
            with pytest.raises(StorageBusy):
                await write
        other.execute("ROLLBACK")
        other.close()
        for game in games:
            assert (await storage.game(game.id)).message_id is None  # type: ignore[union-attr]
    finally:
        await storage.close()


async def test_a_move_that_ends_the_game_waits_for_the_lock_and_then_commits_whole(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    storage = await SQLiteStorage.open(str(path))
    try:
        game = await storage.create_game(lobby())
        game = await storage.update_game(game, status="running", started_at="now")
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        asyncio.get_running_loop().call_later(0.3, other.execute, "COMMIT")
        assert await storage.append_move(game.id, 1, 7, ["end"], Ending("finished", Result(won=True)))
        other.close()
        ended = await storage.game(game.id)
        assert ended is not None
        assert ended.status == "finished"
        assert [move.seq for move in await storage.moves(game.id)] == [1]
        assert not await storage.append_move(game.id, 2, 7, ["end"])  # the game is over: nothing more is appended
    finally:
        await storage.close()
