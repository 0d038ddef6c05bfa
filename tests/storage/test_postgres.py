"""What only the PostgreSQL driver has: a server to reach, other clients holding rows, the URL's own options. The
interface itself is tested against both drivers in test_storage.py."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg  # type: ignore[import-untyped]
import pytest

from storage import Ending, NewGame, Result, StorageBusy, StorageUnavailable, open_storage
from storage.migrations import LATEST
from storage.postgres import PostgresStorage, safe_url, split_url
from storage.sqlite import SQLiteStorage
from tests.postgres import PostgresServer

pytestmark = pytest.mark.usefixtures("postgres_server")


def lobby(channel_id: int = 10) -> NewGame:
    return NewGame(channel_id, 1, "the_game", 7, (7,), (), seed=42, rules_version=1)


async def running(storage: PostgresStorage, channel_id: int = 10) -> int:
    record = await storage.create_game(lobby(channel_id))
    return (await storage.update_game(record, status="running", started_at="now")).id


@pytest.fixture
async def url(postgres_server: PostgresServer) -> str:
    return await postgres_server.new_database()


async def test_an_unreachable_server_is_named_without_its_password(tmp_path: Path) -> None:
    with pytest.raises(StorageUnavailable) as caught:
        await PostgresStorage.open(f"postgresql://bot:s3cret@/cardtable?host={tmp_path}")
    message = str(caught.value)
    assert "s3cret" not in message
    assert "postgresql://bot:***@/cardtable" in message
    assert "DATABASE_URL" in message


def test_urls_lose_their_password_and_keep_the_rest() -> None:
    assert safe_url("postgresql://bot:pw@db:5432/x?sslmode=require") == "postgresql://bot:***@db:5432/x?sslmode=require"
    assert safe_url("postgresql:///x?host=/run/pg") == "postgresql:///x?host=/run/pg"
    assert split_url("postgresql://db/x?statement_cache_size=0&application_name=bot") == (
        "postgresql://db/x?application_name=bot",
        0,
    )
    assert split_url("postgresql://db/x") == ("postgresql://db/x", None)
    with pytest.raises(StorageUnavailable, match="statement_cache_size"):
        split_url("postgresql://db/x?statement_cache_size=none")


async def test_without_a_statement_cache_for_pgbouncer(url: str) -> None:
    storage = await PostgresStorage.open(f"{url}&statement_cache_size=0")
    try:
        game_id = await running(storage)
        assert await storage.append_move(game_id, 1, 7, ["end"], Ending("finished", Result(score=1)))
        assert (await storage.game(game_id)).status == "finished"  # type: ignore[union-attr]
    finally:
        await storage.close()


async def test_a_row_held_by_another_client_is_busy_not_stuck(url: str) -> None:
    storage = await PostgresStorage.open(url, busy_timeout=0.3)
    other = await asyncpg.connect(url)
    try:
        game_id = await running(storage)
        async with other.transaction():
            await other.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", game_id)
            with pytest.raises(StorageBusy):
                await storage.append_move(game_id, 1, 7, ["end"], Ending("finished", Result()))
        assert await storage.moves(game_id) == []  # the cancelled statement wrote nothing
        assert await storage.append_move(game_id, 1, 7, ["end"], Ending("finished", Result()))
    finally:
        await other.close()
        await storage.close()


async def test_no_lock_outlives_a_statement(url: str) -> None:
    storage = await PostgresStorage.open(url)
    other = await asyncpg.connect(url)
    try:
        game_id = await running(storage)
        await storage.append_move(game_id, 1, 7, ["take"])
        assert await other.fetchval("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'") == 0
        idle = await other.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in%'"
        )
        assert idle == 0  # no transaction left open between calls
    finally:
        await other.close()
        await storage.close()


async def test_a_damaged_row_is_flagged_not_fatal(url: str) -> None:
    storage = await PostgresStorage.open(url)
    try:
        game_id = await running(storage)
        await running(storage, channel_id=11)
        other = await asyncpg.connect(url)
        await other.execute("UPDATE games SET players = '\"not a list of ids\"' WHERE id = $1", game_id)
        await other.close()
        records = {r.channel_id: r for r in await storage.open_games()}
        assert records[10].damaged == "its players or options could not be read"
        assert records[11].damaged is None
    finally:
        await storage.close()


async def test_the_settings_choose_the_driver(url: str, tmp_path: Path) -> None:
    postgres = await open_storage(str(tmp_path / "unused.sqlite3"), url)
    sqlite = await open_storage(str(tmp_path / "bot.sqlite3"), None)
    try:
        assert isinstance(postgres, PostgresStorage)
        assert isinstance(sqlite, SQLiteStorage)
        assert not (tmp_path / "unused.sqlite3").exists()
    finally:
        await postgres.close()
        await sqlite.close()


async def test_a_database_of_the_drivers_own_older_history_carries_on(url: str) -> None:
    """A database the PostgreSQL driver made before its migrations joined SQLite's (its version 3, the one
    history's 4) is recognised: only the steps after it run, and its games, moves and results carry over."""
    db = await asyncpg.connect(url)
    try:
        await db.execute((Path(__file__).parent / "postgres_v3.sql").read_text())
        stamp = "2025-01-01T10:00:00+00:00"
        for channel, players in ((1, "[7, 8]"), (2, "[7, 9]")):
            await db.execute(
                "INSERT INTO games (channel_id, guild_id, kind, host_id, players, variants, seed, status, created_at, "
                "started_at, updated_at) VALUES ($1, 5, 'the_game', 7, $2, '[]', 42, 'running', $3, $3, $3)",
                channel,
                players,
                stamp,
            )
        await db.execute(
            "INSERT INTO moves (game_id, seq, player, action, created_at) VALUES (1, 1, 7, '[\"end\"]', '')"
        )
        await db.execute("UPDATE games SET status = 'finished', result = '{\"won\": true, \"score\": 0}' WHERE id = 1")
    finally:
        await db.close()
    storage = await PostgresStorage.open(url)
    try:
        assert await storage.migrate() == LATEST
        assert [(t.played, t.won) for t in await storage.player_tallies(5, 7)] == [(1, 1)]
        assert [m.action for m in await storage.moves(1)] == [["end"]]
        # The games from before the Hint button carry over without one; a hint on one of them is kept.
        assert [(g.id, g.hinted) for g in await storage.channel_games(1)] == [(1, False)]
        await storage.mark_hinted(2, 1)
        assert [g.hinted for g in await storage.channel_games(2)] == [True]
        assert await storage.append_move(2, 1, 9, ["end"], Ending("finished", Result(won=False, score=4)))
        assert [(t.played, t.won, t.best) for t in await storage.player_tallies(5, 9)] == [(1, 0, 4)]
        assert await storage.update_guild_settings(5, lambda s: {**s, "pings": False}) == {"pings": False}
    finally:
        await storage.close()
    db = await asyncpg.connect(url)
    try:
        assert await db.fetchval("SELECT max(version) FROM schema_version") == LATEST
    finally:
        await db.close()


async def test_reads_go_on_while_every_writer_waits_for_a_held_row(url: str) -> None:
    """Issue 34: writes waiting for a row another client holds take every writer's connection; reads have their
    own, and a call never waits past the busy timeout, even for a connection."""
    storage = await PostgresStorage.open(url, busy_timeout=1.0, pool_size=2)
    other = await asyncpg.connect(url)
    try:
        game_id = await running(storage)
        async with other.transaction():
            await other.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", game_id)
            writes = [asyncio.ensure_future(storage.set_message(game_id, n)) for n in range(4)]
            await asyncio.sleep(0.1)
            record = await storage.game(game_id)
            assert record is not None
            assert await storage.moves(game_id) == []
            assert not any(write.done() for write in writes)  # the reads did not wait for them
            outcomes = await asyncio.gather(*writes, return_exceptions=True)
        assert all(isinstance(outcome, StorageBusy) for outcome in outcomes), outcomes
        assert (await storage.game(game_id)).message_id is None  # type: ignore[union-attr]
    finally:
        await other.close()
        await storage.close()


async def test_a_dropped_connection_is_busy_or_carries_on_never_stuck(url: str) -> None:
    storage = await PostgresStorage.open(url, busy_timeout=1.0)
    other = await asyncpg.connect(url)
    try:
        game_id = await running(storage)
        # The server drops every connection of the bot (a restart, a failover, an idle timeout in a proxy).
        await other.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid()"
        )
        record = None
        for _attempt in range(3):
            try:
                record = await storage.game(game_id)
                break
            except StorageBusy:
                continue
        assert record is not None
        assert await storage.append_move(game_id, 1, 7, ["take"])
    finally:
        await other.close()
        await storage.close()
