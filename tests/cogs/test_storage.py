"""Storage against a real SQLite file: migrations, one open game per channel, round trips, durability."""

from dataclasses import replace
from pathlib import Path

import aiosqlite
import pytest

from cogs._storage import MIGRATIONS, ChannelBusy, Storage, Table


def lobby(channel_id: int = 10, kind: str = "the_game") -> Table:
    return Table(channel_id=channel_id, guild_id=1, kind=kind, host_id=7, players=(7,), variants=(), seed=42)


@pytest.fixture
async def storage(tmp_path: Path):
    opened = await Storage.open(str(tmp_path / "sub" / "bot.sqlite3"))
    yield opened
    await opened.close()


async def test_open_creates_the_folder_and_migrates(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "bot.sqlite3"
    storage = await Storage.open(str(path))
    await storage.close()
    assert path.exists()
    async with aiosqlite.connect(path) as db, db.execute("PRAGMA user_version") as cursor:
        assert (await cursor.fetchone())[0] == len(MIGRATIONS)
    async with aiosqlite.connect(path) as db, db.execute("PRAGMA journal_mode") as cursor:
        assert (await cursor.fetchone())[0] == "wal"


async def test_migrating_twice_is_a_no_op(tmp_path: Path) -> None:
    path = str(tmp_path / "bot.sqlite3")
    first = await Storage.open(path)
    created = await first.create(lobby())
    await first.close()
    second = await Storage.open(path)
    assert await second.migrate() == len(MIGRATIONS)
    assert await second.open_table(10) == created
    await second.close()


async def test_a_newer_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    async with aiosqlite.connect(path) as db:
        await db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
        await db.commit()
    with pytest.raises(RuntimeError, match="newer than this bot knows"):
        await Storage.open(str(path))


async def test_one_open_game_per_channel(storage: Storage) -> None:
    await storage.create(lobby())
    with pytest.raises(ChannelBusy):
        await storage.create(lobby(kind="no_thanks"))
    # Another channel is independent.
    await storage.create(lobby(channel_id=11))


async def test_a_finished_game_frees_the_channel_and_stays_recorded(storage: Storage) -> None:
    table = await storage.create(lobby())
    running = await storage.save(replace(table, status="running", state={"kind": "the_game", "moves": []}))
    assert storage.running_kind(10) == "the_game"
    await storage.save(replace(running, status="finished", result={"score": 3}, ended_at="later"))
    assert storage.running_kind(10) is None
    assert await storage.open_table(10) is None
    await storage.create(lobby())
    history = await storage.games(10)
    assert [t.status for t in history] == ["finished", "lobby"]
    assert history[0].result == {"score": 3}
    assert history[0].state == {"kind": "the_game", "moves": []}


async def test_save_round_trips_every_field(storage: Storage) -> None:
    table = await storage.create(lobby())
    changed = replace(
        table,
        players=(7, 8, 9),
        variants=("expert", "smaller_hands"),
        host_id=None,
        status="running",
        state={"nested": [1, {"a": None}]},
        message_id=123456789012345678,
        started_at="then",
    )
    saved = await storage.save(changed)
    assert await storage.open_table(10) == saved
    assert saved.updated_at >= table.updated_at


async def test_running_games_are_remembered_across_a_restart(tmp_path: Path) -> None:
    path = str(tmp_path / "bot.sqlite3")
    first = await Storage.open(path)
    table = await first.create(lobby(channel_id=5))
    await first.save(replace(table, status="running", state={}))
    await first.create(lobby(channel_id=6, kind="no_thanks"))
    await first.close()
    second = await Storage.open(path)
    assert second.running_kind(5) == "the_game"
    assert second.running_kind(6) is None  # still a lobby
    assert [t.channel_id for t in await second.open_tables()] == [5, 6]
    assert [t.channel_id for t in await second.open_tables("no_thanks")] == [6]
    await second.close()


async def test_meta_and_dm_channels(storage: Storage) -> None:
    assert await storage.get_meta("command_hash") is None
    await storage.set_meta("command_hash", "abc")
    await storage.set_meta("command_hash", "def")
    assert await storage.get_meta("command_hash") == "def"
    assert await storage.dm_channel(7) is None
    await storage.set_dm_channel(7, 70)
    await storage.set_dm_channel(7, 71)
    assert await storage.dm_channel(7) == 71


async def test_one_lock_per_channel(storage: Storage) -> None:
    assert storage.lock(1) is storage.lock(1)
    assert storage.lock(1) is not storage.lock(2)
