"""All of the bot's SQL: one aiosqlite connection, numbered migrations, one row per game.

A channel holds at most one open game (a lobby or a running game); the database enforces it with a
partial unique index, so two racing ``/newgame`` calls cannot both win. Finished and abandoned games
stay as rows with their players, variants, seed, final state (which holds the move list) and result,
for statistics and replays. Storage knows nothing of the rules: states are stored as JSON text.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections import defaultdict
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

log = logging.getLogger(__name__)

OPEN_STATUSES = ("lobby", "running")

# Append-only: a released migration is never edited, a change is a new entry.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE games (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        channel_id  INTEGER NOT NULL,
        guild_id    INTEGER NOT NULL,
        kind        TEXT    NOT NULL,
        host_id     INTEGER,
        players     TEXT    NOT NULL,
        variants    TEXT    NOT NULL,
        seed        INTEGER NOT NULL,
        status      TEXT    NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'abandoned')),
        state       TEXT,
        message_id  INTEGER,
        result      TEXT,
        created_at  TEXT    NOT NULL,
        started_at  TEXT,
        ended_at    TEXT,
        updated_at  TEXT    NOT NULL
    );
    CREATE UNIQUE INDEX one_open_game_per_channel ON games (channel_id) WHERE status IN ('lobby', 'running');
    CREATE INDEX games_by_status ON games (status);
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE dm_channels (user_id INTEGER PRIMARY KEY, channel_id INTEGER NOT NULL);
    """,
)


class ChannelBusy(Exception):
    """Another open game already holds the channel."""


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True, slots=True)
class Table:
    """One game at one channel, from lobby to result. ``state`` is the engine's dict, None in the lobby."""

    channel_id: int
    guild_id: int
    kind: str
    host_id: int | None
    players: tuple[int, ...]
    variants: tuple[str, ...]
    seed: int
    status: str = "lobby"
    state: dict[str, Any] | None = None
    message_id: int | None = None
    result: dict[str, Any] | None = None
    id: int | None = None
    created_at: str = ""
    started_at: str | None = None
    ended_at: str | None = None
    updated_at: str = ""

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES


_COLUMNS = (
    "channel_id, guild_id, kind, host_id, players, variants, seed, status, state, message_id, result, "
    "created_at, started_at, ended_at, updated_at"
)


def _dump(value: Any) -> str | None:
    return None if value is None else json.dumps(value, separators=(",", ":"))


def _row_values(table: Table) -> tuple[Any, ...]:
    return (
        table.channel_id,
        table.guild_id,
        table.kind,
        table.host_id,
        _dump(list(table.players)),
        _dump(list(table.variants)),
        table.seed,
        table.status,
        _dump(table.state),
        table.message_id,
        _dump(table.result),
        table.created_at,
        table.started_at,
        table.ended_at,
        table.updated_at,
    )


def _from_row(row: sqlite3.Row) -> Table:
    return Table(
        id=row["id"],
        channel_id=row["channel_id"],
        guild_id=row["guild_id"],
        kind=row["kind"],
        host_id=row["host_id"],
        players=tuple(json.loads(row["players"])),
        variants=tuple(json.loads(row["variants"])),
        seed=row["seed"],
        status=row["status"],
        state=None if row["state"] is None else json.loads(row["state"]),
        message_id=row["message_id"],
        result=None if row["result"] is None else json.loads(row["result"]),
        created_at=row["created_at"],
        started_at=row["started_at"],
        ended_at=row["ended_at"],
        updated_at=row["updated_at"],
    )


class Storage:
    """Owns the connection. Every write commits before returning, so an answer never outruns the disk."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        # Chat moderation asks "is The Game running here?" for every message; answer that from memory.
        # Only this class writes rows, so keeping the cache right is local to create() and save().
        self._running: dict[int, str] = {}

    @classmethod
    async def open(cls, path: str) -> Storage:
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(path)
        db.row_factory = sqlite3.Row
        storage = cls(db)
        try:
            await storage._configure()
            await storage.migrate()
            storage._running = {t.channel_id: t.kind for t in await storage.open_tables() if t.status == "running"}
        except BaseException:
            await db.close()
            raise
        return storage

    async def _configure(self) -> None:
        await self._db.execute("PRAGMA journal_mode=WAL")
        # NORMAL is durable across an application crash in WAL mode; FULL also survives power loss,
        # which a game bot can afford since writes are tiny.
        await self._db.execute("PRAGMA synchronous=FULL")
        await self._db.execute("PRAGMA foreign_keys=ON")
        await self._db.execute("PRAGMA busy_timeout=5000")
        # Each action reads one small row that the OS already caches; SQLite's default 2 MiB page cache would
        # only duplicate it, and cost a self-hosting owner about 9 KB per running game (benchmarks/load.py).
        await self._db.execute("PRAGMA cache_size=-256")

    async def migrate(self) -> int:
        """Apply the migrations the database has not seen yet; returns the resulting version."""
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        version = int(row[0]) if row else 0
        if version > len(MIGRATIONS):
            raise RuntimeError(
                f"The database is at version {version}, newer than this bot knows ({len(MIGRATIONS)}). "
                "Update the bot or point DATABASE_PATH at another file."
            )
        for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
            # executescript would commit on its own; wrap by hand so a failed migration leaves nothing behind.
            await self._db.executescript(f"BEGIN;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")
            log.info("Database migrated to version %d", number)
        return len(MIGRATIONS)

    async def close(self) -> None:
        await self._db.close()

    def lock(self, channel_id: int) -> asyncio.Lock:
        """The lock that serialises every action on the game in ``channel_id``."""
        return self._locks[channel_id]

    async def open_table(self, channel_id: int) -> Table | None:
        """The lobby or running game in the channel, if any."""
        async with self._db.execute(
            f"SELECT id, {_COLUMNS} FROM games WHERE channel_id = ? AND status IN ('lobby', 'running')",
            (channel_id,),
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else _from_row(row)

    async def open_tables(self, kind: str | None = None) -> list[Table]:
        """Every lobby and running game, oldest first (used at start-up)."""
        query = f"SELECT id, {_COLUMNS} FROM games WHERE status IN ('lobby', 'running')"
        args: tuple[Any, ...] = ()
        if kind is not None:
            query += " AND kind = ?"
            args = (kind,)
        async with self._db.execute(query + " ORDER BY id", args) as cursor:
            rows = await cursor.fetchall()
        return [_from_row(row) for row in rows]

    async def games(self, channel_id: int) -> list[Table]:
        """Every game ever held in the channel, oldest first (history, replays)."""
        async with self._db.execute(
            f"SELECT id, {_COLUMNS} FROM games WHERE channel_id = ? ORDER BY id", (channel_id,)
        ) as cursor:
            rows = await cursor.fetchall()
        return [_from_row(row) for row in rows]

    async def create(self, table: Table) -> Table:
        """Insert a new open game; raises ``ChannelBusy`` if the channel already has one."""
        stamp = now()
        table = replace(table, created_at=stamp, updated_at=stamp)
        try:
            cursor = await self._db.execute(
                f"INSERT INTO games ({_COLUMNS}) VALUES ({', '.join('?' * 15)})", _row_values(table)
            )
        except sqlite3.IntegrityError as error:
            await self._db.rollback()
            raise ChannelBusy(table.channel_id) from error
        await self._db.commit()
        self._remember(table)
        return replace(table, id=cursor.lastrowid)

    async def save(self, table: Table) -> Table:
        """Write the whole row back and commit."""
        if table.id is None:
            raise ValueError("save() needs a table that was created first")
        table = replace(table, updated_at=now())
        assignments = ", ".join(f"{column} = ?" for column in _COLUMNS.split(", "))
        await self._db.execute(f"UPDATE games SET {assignments} WHERE id = ?", (*_row_values(table), table.id))
        await self._db.commit()
        self._remember(table)
        return table

    def _remember(self, table: Table) -> None:
        if table.status == "running":
            self._running[table.channel_id] = table.kind
        else:
            self._running.pop(table.channel_id, None)

    def running_kind(self, channel_id: int) -> str | None:
        """The kind of game running in the channel, without touching the disk."""
        return self._running.get(channel_id)

    async def get_meta(self, key: str) -> str | None:
        async with self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)) as cursor:
            row = await cursor.fetchone()
        return None if row is None else str(row[0])

    async def set_meta(self, key: str, value: str) -> None:
        await self._db.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )
        await self._db.commit()

    async def dm_channel(self, user_id: int) -> int | None:
        async with self._db.execute("SELECT channel_id FROM dm_channels WHERE user_id = ?", (user_id,)) as cursor:
            row = await cursor.fetchone()
        return None if row is None else int(row[0])

    async def set_dm_channel(self, user_id: int, channel_id: int) -> None:
        await self._db.execute(
            "INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET channel_id = excluded.channel_id",
            (user_id, channel_id),
        )
        await self._db.commit()
