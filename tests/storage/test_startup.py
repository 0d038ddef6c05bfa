"""Opening a database that can't be used: one ``StorageUnavailable`` line naming the cause and the setting to change,
and nothing half-written. SQLite: a file that is no database, a read-only file, a full disk, a newer bot's file.
PostgreSQL: a wrong password, a missing database, a user without rights on schema public, a full disk; an
unreachable server and a newer bot's database are in test_postgres.py and test_storage.py."""

from __future__ import annotations

import asyncio
import re
import shutil
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg  # type: ignore[import-untyped]
import pytest

from storage import StorageUnavailable, migrations, sqlite
from storage.migrations import LATEST
from storage.postgres import MIGRATION_LOCK, PostgresStorage
from storage.sqlite import SQLiteStorage
from tests.postgres import PostgresServer

FIXTURES = Path(__file__).parent
DOCS = FIXTURES.parents[1] / "docs" / "postgresql.md"


def one_line(error: pytest.ExceptionInfo[StorageUnavailable], *words: str) -> str:
    message = str(error.value)
    assert "\n" not in message
    for word in words:
        assert word in message, (word, message)
    return message


def files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in folder.iterdir()}


def version_of(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("PRAGMA user_version").fetchone()[0])


# ---- SQLite ------------------------------------------------------------------------------------------------------


async def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    path.write_text("DISCORD_TOKEN=not a database\n" * 200)
    before = files(tmp_path)
    with pytest.raises(StorageUnavailable) as caught:
        await SQLiteStorage.open(str(path))
    one_line(caught, str(path), "not a SQLite database", "DATABASE_PATH")
    assert files(tmp_path) == before  # untouched, and no journal beside it


async def test_a_database_of_a_newer_bot_is_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
        db.execute(f"PRAGMA user_version = {LATEST + 1}")
    before = files(tmp_path)
    with pytest.raises(StorageUnavailable) as caught:
        await SQLiteStorage.open(str(path))
    one_line(caught, "newer than this bot knows", "DATABASE_PATH")
    assert files(tmp_path) == before  # not even switched to WAL


async def test_a_read_only_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite's own read-only error, from a file opened read-only (file modes don't bind root, who runs CI here)."""
    path = tmp_path / "bot.sqlite3"
    shutil.copy(FIXTURES / "v1.sqlite3", path)
    before = path.read_bytes()
    connect = aiosqlite.connect

    def read_only(database: str, **options: Any) -> aiosqlite.Connection:
        return connect(f"file:{database}?mode=ro", uri=True, **options)

    monkeypatch.setattr(sqlite.aiosqlite, "connect", read_only)
    with pytest.raises(StorageUnavailable) as caught:
        await SQLiteStorage.open(str(path))
    one_line(caught, str(path), "read-only", "DATABASE_PATH")
    assert path.read_bytes() == before  # (reading a WAL file read-only still makes its -shm index beside it)


async def test_a_full_disk_stops_the_migration_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk fills up half-way through migrating an old database (SQLite's own "database or disk is full", from
    a page limit at the file's size): the database stays at its version, and migrates once there is room."""
    path = tmp_path / "bot.sqlite3"
    shutil.copy(FIXTURES / "v1.sqlite3", path)
    configure = SQLiteStorage._configure

    async def no_room(storage: SQLiteStorage) -> None:
        await configure(storage)
        async with storage._db.execute("PRAGMA page_count") as cursor:
            (pages,) = await cursor.fetchone()  # type: ignore[misc]
        await storage._db.execute(f"PRAGMA max_page_count = {pages}")

    monkeypatch.setattr(SQLiteStorage, "_configure", no_room)
    with pytest.raises(StorageUnavailable) as caught:
        await SQLiteStorage.open(str(path))
    one_line(caught, str(path), "full", "nothing was written", "DATABASE_PATH")
    assert version_of(path) == 1
    with sqlite3.connect(path) as db:
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "moves" not in tables  # the migration's first step was rolled back with the rest

    monkeypatch.setattr(SQLiteStorage, "_configure", configure)
    storage = await SQLiteStorage.open(str(path))
    await storage.close()
    assert version_of(path) == LATEST


async def test_a_database_another_program_keeps_locked(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    shutil.copy(FIXTURES / "v1.sqlite3", path)
    with sqlite3.connect(path, isolation_level=None) as other:
        other.execute("BEGIN IMMEDIATE")  # another process writing, for longer than the bot waits
        with pytest.raises(StorageUnavailable) as caught:
            await SQLiteStorage.open(str(path))
        other.execute("ROLLBACK")
    one_line(caught, str(path), "locked by another program", "DATABASE_PATH")
    assert version_of(path) == 1


# ---- PostgreSQL --------------------------------------------------------------------------------------------------


@pytest.fixture
async def server(postgres_server: PostgresServer) -> AsyncIterator[asyncpg.Connection]:
    """The throwaway server, as its superuser."""
    db = await asyncpg.connect(postgres_server.url())
    yield db
    await db.close()


def user_url(postgres_server: PostgresServer, user: str, password: str, database: str) -> str:
    return f"postgresql://{user}:{password}@/{database}?host={postgres_server.folder}"


async def until_refused(url: str) -> None:
    """Wait for the server to have read its new pg_hba.conf (it does so soon after pg_reload_conf, not at once)."""
    async with asyncio.timeout(10):
        while True:
            try:
                db = await asyncpg.connect(url)
            except asyncpg.InvalidPasswordError:
                return
            await db.close()
            await asyncio.sleep(0.01)


async def test_a_wrong_password(postgres_server: PostgresServer, server: asyncpg.Connection) -> None:
    await server.execute("CREATE ROLE carol LOGIN PASSWORD 'right'")
    # The throwaway server trusts every local user; carol alone must give her password.
    hba = postgres_server.data / "pg_hba.conf"
    hba.write_text("local all carol scram-sha-256\n" + hba.read_text())
    await server.execute("SELECT pg_reload_conf()")
    url = user_url(postgres_server, "carol", "wrong", "postgres")
    await until_refused(url)
    with pytest.raises(StorageUnavailable) as caught:
        await PostgresStorage.open(url)
    message = one_line(caught, "password", "carol", "DATABASE_URL", "carol:***@")
    assert "wrong" not in message


async def test_a_missing_database(postgres_server: PostgresServer) -> None:
    with pytest.raises(StorageUnavailable) as caught:
        await PostgresStorage.open(user_url(postgres_server, "postgres", "pw", "no_such_db"))
    one_line(caught, "no database no_such_db", "DATABASE_URL", "docs/postgresql.md")


async def test_a_user_without_rights_on_schema_public_is_told_the_commands(
    postgres_server: PostgresServer, server: asyncpg.Connection
) -> None:
    """PostgreSQL 15 and later: only the database's owner may create tables in schema public. The message's own
    commands, run by a superuser, are what it takes."""
    await server.execute("CREATE ROLE dave LOGIN")
    await server.execute("CREATE DATABASE daves_games")  # owned by the superuser, as an admin would make it
    url = user_url(postgres_server, "dave", "pw", "daves_games")
    with pytest.raises(StorageUnavailable) as caught:
        await PostgresStorage.open(url)
    message = one_line(caught, "dave", "daves_games", "permission denied for schema public", "DATABASE_URL")
    commands = re.findall(r"(?:ALTER|GRANT) [^;]+;", message)
    assert commands == ["ALTER DATABASE daves_games OWNER TO dave;", "ALTER SCHEMA public OWNER TO dave;"]
    inside = await asyncpg.connect(postgres_server.url("daves_games"))
    try:
        assert await inside.fetchval("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == 0
        await server.execute(commands[0])
        await inside.execute(commands[1])
    finally:
        await inside.close()
    storage = await PostgresStorage.open(url)
    await storage.close()


async def test_the_documented_commands_make_a_user_the_bot_can_use(
    postgres_server: PostgresServer, server: asyncpg.Connection
) -> None:
    """docs/postgresql.md's commands, as written there (the password aside: the throwaway server trusts local users)."""
    block = re.search(r"```sql\n(-- the bot's user and database\n.*?)```", DOCS.read_text(), re.DOTALL)
    assert block is not None
    for statement in filter(str.strip, block.group(1).split(";")):
        await server.execute(statement)
    storage = await PostgresStorage.open(user_url(postgres_server, "cardtable", "change-me", "cardtable"))
    try:
        assert await storage.guild_settings(1) == {}
    finally:
        await storage.close()


async def test_a_full_disk_on_the_server_leaves_nothing(
    postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL's disk-full error (53100) in the last migration step: the whole migration is rolled back."""
    url = await postgres_server.new_database()

    async def disk_full(db: migrations.Session) -> None:
        raise asyncpg.DiskFullError('could not extend file "base/1/2": No space left on device')

    monkeypatch.setattr(migrations, "STEPS", (*migrations.STEPS[:-1], disk_full))
    with pytest.raises(StorageUnavailable) as caught:
        await PostgresStorage.open(url)
    one_line(caught, "disk is full", "nothing was written", "DATABASE_URL")
    db = await asyncpg.connect(url)
    try:
        assert await db.fetchval("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == 0
    finally:
        await db.close()


async def test_a_database_another_process_keeps_busy(postgres_server: PostgresServer) -> None:
    """Another process holds the migrations' lock for longer than the bot waits (as one stuck mid-migration would)."""
    url = await postgres_server.new_database()
    other = await asyncpg.connect(url)
    try:
        async with other.transaction():
            await other.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            with pytest.raises(StorageUnavailable) as caught:
                await PostgresStorage.open(url, busy_timeout=0.3)
        one_line(caught, "stayed busy", "DATABASE_URL")
        assert await other.fetchval("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == 0
    finally:
        await other.close()
