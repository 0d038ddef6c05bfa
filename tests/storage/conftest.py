"""One storage suite, every driver: the ``backend`` fixture is a fresh, empty database of each driver in turn (SQLite
in a temporary file, PostgreSQL in a new database of the session's throwaway server), and ``storage`` is that
database opened."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import asyncpg  # type: ignore[import-untyped]
import pytest

from storage import Storage
from storage.migrations import LATEST
from storage.postgres import PostgresStorage
from storage.sqlite import SQLiteStorage


class Backend:
    """A fresh database of one driver, and what a driver-agnostic test needs to see of it beyond the interface."""

    name: str
    migrations = LATEST  # one history for every driver

    async def open(self) -> Storage:
        """Open the database (again: every call is another connection, as another process would have)."""
        raise NotImplementedError

    async def version(self) -> int:
        raise NotImplementedError

    async def set_version(self, version: int) -> None:
        raise NotImplementedError


class SQLiteBackend(Backend):
    name = "sqlite"

    def __init__(self, path: Path) -> None:
        self.path = path

    async def open(self) -> Storage:
        return await SQLiteStorage.open(str(self.path))

    async def version(self) -> int:
        async with aiosqlite.connect(self.path) as db, db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def set_version(self, version: int) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        async with aiosqlite.connect(self.path) as db:
            await db.execute(f"PRAGMA user_version = {version}")
            await db.commit()


class PostgresBackend(Backend):
    name = "postgres"

    def __init__(self, url: str) -> None:
        self.url = url

    async def open(self) -> Storage:
        return await PostgresStorage.open(self.url, busy_timeout=1.0)

    async def version(self) -> int:
        db = await asyncpg.connect(self.url)
        try:
            return int(await db.fetchval("SELECT max(version) FROM schema_version") or 0)
        finally:
            await db.close()

    async def set_version(self, version: int) -> None:
        db = await asyncpg.connect(self.url)
        try:
            await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            await db.execute("DELETE FROM schema_version")
            await db.execute("INSERT INTO schema_version (version) VALUES ($1)", version)
        finally:
            await db.close()


@pytest.fixture(params=["sqlite", "postgres"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    if request.param == "sqlite":
        return SQLiteBackend(tmp_path / "sub" / "bot.sqlite3")
    server = request.getfixturevalue("postgres_server")
    return PostgresBackend(await server.new_database())


@pytest.fixture
async def storage(backend: Backend) -> AsyncIterator[Storage]:
    opened = await backend.open()
    yield opened
    await opened.close()
