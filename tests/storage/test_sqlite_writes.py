"""SQLite's single-statement writes run in the event loop (``SQLiteStorage._execute``): they must never make it wait
for another program's lock, must be as durable as before, and their log must still be checkpointed."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from storage import NewGame
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
