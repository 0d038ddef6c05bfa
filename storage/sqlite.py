"""The embedded driver: one SQLite file through aiosqlite, WAL, numbered migrations.

The connection runs in autocommit mode: a single statement is its own transaction, and the few multi-statement writes
open ``BEGIN IMMEDIATE`` themselves, so a write waits for another writer's lock (up to ``BUSY_TIMEOUT_MS``) instead of
failing when it meets a reader, and a failed transaction is always rolled back.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

from storage import (
    ChannelBusy,
    Conflict,
    Ending,
    GameRecord,
    LoggedMove,
    NewGame,
    StorageBusy,
    StorageUnavailable,
    Timer,
)
from storage._stats_sqlite import SQLiteStats
from storage._stats_sqlite import migrate as _migrate_results

log = logging.getLogger(__name__)

# Long enough to ride out another process's checkpoint or a burst of writes, short enough that an interaction can
# still be answered within Discord's three seconds.
BUSY_TIMEOUT_MS = 2000


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _dump(value: Any) -> str | None:
    return None if value is None else json.dumps(value, separators=(",", ":"))


async def _script(db: aiosqlite.Connection, script: str) -> None:
    """Run ``script`` statement by statement: executescript would commit the migration's transaction half-way."""
    for statement in filter(str.strip, script.split(";")):
        await db.execute(statement)


async def _migrate_move_log(db: aiosqlite.Connection) -> None:
    """Version 2: the move log becomes the truth. Each saved state's move list moves into ``moves``; a state that
    cannot be read marks its game damaged (reported in its channel) instead of stopping the migration."""
    await _script(
        db,
        """
        CREATE TABLE moves (
            game_id     INTEGER NOT NULL REFERENCES games (id),
            seq         INTEGER NOT NULL,
            player      INTEGER NOT NULL,
            action      TEXT    NOT NULL,
            created_at  TEXT    NOT NULL,
            PRIMARY KEY (game_id, seq)
        ) WITHOUT ROWID;
        CREATE TABLE private_messages (
            game_id     INTEGER NOT NULL REFERENCES games (id),
            user_id     INTEGER NOT NULL,
            message_id  INTEGER,
            text        TEXT    NOT NULL,
            PRIMARY KEY (game_id, user_id)
        ) WITHOUT ROWID;
        ALTER TABLE games ADD COLUMN rules_version INTEGER NOT NULL DEFAULT 1;
        ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE games ADD COLUMN options TEXT NOT NULL DEFAULT '{}';
        ALTER TABLE games ADD COLUMN damaged TEXT;
        CREATE INDEX games_by_channel ON games (channel_id, id);
        """,
    )
    async with db.execute("SELECT id, state, created_at FROM games WHERE state IS NOT NULL") as cursor:
        rows = list(await cursor.fetchall())
    for game_id, state, created_at in rows:
        try:
            moves = json.loads(state)["moves"]
            entries = [(game_id, seq, int(raw[0]), _dump(raw[1:]), created_at) for seq, raw in enumerate(moves, 1)]
        except (ValueError, TypeError, KeyError, IndexError):
            await db.execute(
                "UPDATE games SET damaged = ? WHERE id = ?", ("its saved moves could not be read", game_id)
            )
            continue
        await db.executemany(
            "INSERT INTO moves (game_id, seq, player, action, created_at) VALUES (?, ?, ?, ?, ?)", entries
        )
    await db.execute("ALTER TABLE games DROP COLUMN state")


# Append-only: a released migration is never edited, a change is a new entry (SQL text or a function).
MIGRATIONS: tuple[str | Callable[[aiosqlite.Connection], Awaitable[None]], ...] = (
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
    _migrate_move_log,
    """
    ALTER TABLE moves ADD COLUMN auto INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE timers (
        game_id     INTEGER PRIMARY KEY REFERENCES games (id),
        seq         INTEGER NOT NULL,
        player      INTEGER NOT NULL,
        remind_at   REAL,
        due_at      REAL    NOT NULL
    );
    """,
    _migrate_results,
)

_SELECT = (
    "SELECT g.id, g.channel_id, g.guild_id, g.kind, g.host_id, g.players, g.variants, g.seed, g.rules_version, "
    "g.status, g.revision, g.options, g.message_id, g.result, g.damaged, g.created_at, g.started_at, g.ended_at, "
    "(SELECT COALESCE(MAX(m.seq), 0) FROM moves m WHERE m.game_id = g.id) AS move_count FROM games g"
)
# Columns update_game may change, and how each is written.
_WRITABLE: dict[str, Callable[[Any], Any]] = {
    "host_id": lambda v: v,
    "players": lambda v: _dump(list(v)),
    "variants": lambda v: _dump(list(v)),
    "status": lambda v: v,
    "options": lambda v: _dump(dict(v)),
    "message_id": lambda v: v,
    "result": _dump,
    "started_at": lambda v: v,
    "ended_at": lambda v: v,
}


def _record(row: sqlite3.Row) -> GameRecord:
    damaged = row["damaged"]
    try:
        players = tuple(int(p) for p in json.loads(row["players"]))
        variants = tuple(str(v) for v in json.loads(row["variants"]))
        options = json.loads(row["options"])
        result = None if row["result"] is None else json.loads(row["result"])
    except (ValueError, TypeError):
        players, variants, options, result = (), (), {}, None
        damaged = damaged or "its players or options could not be read"
    return GameRecord(
        id=row["id"],
        channel_id=row["channel_id"],
        guild_id=row["guild_id"],
        kind=row["kind"],
        host_id=row["host_id"],
        players=players,
        variants=variants,
        seed=row["seed"],
        rules_version=row["rules_version"],
        status=row["status"],
        revision=row["revision"],
        moves=row["move_count"],
        options=options if isinstance(options, dict) else {},
        message_id=row["message_id"],
        result=result,
        damaged=damaged,
        created_at=row["created_at"],
        started_at=row["started_at"],
        ended_at=row["ended_at"],
    )


def _translate(error: sqlite3.Error, path: str) -> Exception:
    text = str(error).lower()
    if "locked" in text or "busy" in text:
        return StorageBusy("The database is busy right now.")
    if "readonly" in text or "read-only" in text:
        return StorageUnavailable(
            f"The database {path} is read-only: give the bot's user write access to it and to its folder."
        )
    # Minimal stand-ins (issue 24) for the storage helper's fuller translation, which replaces them at merge.
    if "not a database" in text:
        return StorageUnavailable(
            f"The file {path} is not an SQLite database: set DATABASE_PATH to another file (or move that one away)."
        )
    if "disk is full" in text or "disk i/o" in text:
        return StorageUnavailable(
            f"The disk holding the database {path} is full or failing: free some space, or set DATABASE_PATH to a "
            "file on another disk."
        )
    if "unable to open" in text:
        return StorageUnavailable(
            f"Can't open the database {path}: check that its folder exists and the bot's user may write there, "
            "or set DATABASE_PATH to another file."
        )
    return error


class SQLiteStorage(SQLiteStats):
    """The SQLite driver of ``storage.Storage``."""

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self._db = db
        self.path = path
        # One connection is one session: a statement sent while another coroutine's transaction is open would
        # silently join it. The connection is taken in turn (this guards the session, not any game).
        self._turn = asyncio.Lock()

    @classmethod
    async def open(cls, path: str) -> SQLiteStorage:
        try:
            if path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StorageUnavailable(
                f"Can't create the folder for the database {path} ({error.strerror}): set DATABASE_PATH to a file "
                "in a folder the bot's user may write."
            ) from error
        connecting = aiosqlite.connect(path, isolation_level=None)
        try:
            db = await connecting
        except sqlite3.Error as error:
            # aiosqlite stops its worker thread without waiting for it; a thread that outlives the event loop prints
            # a traceback at exit, under the one line the owner should see.
            await asyncio.to_thread(connecting._thread.join, 5)
            raise _translate(error, path) from error
        db.row_factory = sqlite3.Row
        storage = cls(db, path)
        try:
            await storage._configure()
            await storage.migrate()
        except sqlite3.Error as error:
            await db.close()
            raise _translate(error, path) from error
        except BaseException:
            await db.close()
            raise
        return storage

    async def _configure(self) -> None:
        await self._db.execute("PRAGMA journal_mode=WAL")
        # In WAL mode NORMAL is durable across a crash or kill -9 of the bot (a commit is in the log before the answer
        # goes out); only a power cut or OS crash may roll back the last moments. FULL would add an fsync (about
        # 3 ms here) to every move and cap one process at a few hundred writes a second.
        await self._db.execute("PRAGMA synchronous=NORMAL")
        await self._db.execute("PRAGMA foreign_keys=ON")
        await self._db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        # Rows are tiny and the OS caches the file; SQLite's default 2 MiB page cache would only duplicate it.
        await self._db.execute("PRAGMA cache_size=-256")

    async def migrate(self) -> int:
        """Apply the migrations the database has not seen yet; returns the resulting version.

        Each step reads the version inside its own write transaction, so two processes opening one new file at once
        migrate it once: the second waits for the first and then finds nothing left to do."""
        while True:
            async with self._transaction():
                async with self._db.execute("PRAGMA user_version") as cursor:
                    row = await cursor.fetchone()
                version = int(row[0]) if row else 0
                if version > len(MIGRATIONS):
                    raise StorageUnavailable(
                        f"The database {self.path} is at version {version}, newer than this bot knows "
                        f"({len(MIGRATIONS)}): update the bot or point DATABASE_PATH at another file."
                    )
                if version == len(MIGRATIONS):
                    return version
                step = MIGRATIONS[version]
                if isinstance(step, str):
                    await _script(self._db, step)
                else:
                    await step(self._db)
                await self._db.execute(f"PRAGMA user_version = {version + 1}")
            log.info("Database migrated to version %d", version + 1)

    async def close(self) -> None:
        await self._db.close()

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[None]:
        """BEGIN IMMEDIATE ... COMMIT, rolled back on any failure so the connection is never left mid-transaction."""
        async with self._turn:
            try:
                await self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as error:
                raise _translate(error, self.path) from error
            try:
                yield
                await self._db.execute("COMMIT")
            except BaseException as error:
                if self._db.in_transaction:
                    await self._db.execute("ROLLBACK")
                if isinstance(error, sqlite3.Error) and not isinstance(error, sqlite3.IntegrityError):
                    raise _translate(error, self.path) from error
                raise

    async def _rows(self, query: str, args: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        try:
            async with self._turn, self._db.execute(query, args) as cursor:
                return list(await cursor.fetchall())
        except sqlite3.Error as error:
            raise _translate(error, self.path) from error

    async def _write(self, query: str, args: tuple[Any, ...] = ()) -> tuple[int, int | None]:
        """One statement as its own transaction; returns the rows it changed and the last row id."""
        try:
            async with self._turn, self._db.execute(query, args) as cursor:
                return cursor.rowcount, cursor.lastrowid
        except sqlite3.IntegrityError:
            raise
        except sqlite3.Error as error:
            raise _translate(error, self.path) from error

    # ---- games ---------------------------------------------------------------------------------------------------

    async def open_game(self, channel_id: int) -> GameRecord | None:
        rows = await self._rows(f"{_SELECT} WHERE g.channel_id = ? AND g.status IN ('lobby', 'running')", (channel_id,))
        return _record(rows[0]) if rows else None

    async def game(self, game_id: int) -> GameRecord | None:
        rows = await self._rows(f"{_SELECT} WHERE g.id = ?", (game_id,))
        return _record(rows[0]) if rows else None

    async def open_games(self) -> list[GameRecord]:
        rows = await self._rows(f"{_SELECT} WHERE g.status IN ('lobby', 'running') ORDER BY g.id")
        return [_record(row) for row in rows]

    async def channel_games(self, channel_id: int, limit: int = 20) -> list[GameRecord]:
        rows = await self._rows(f"{_SELECT} WHERE g.channel_id = ? ORDER BY g.id DESC LIMIT ?", (channel_id, limit))
        return [_record(row) for row in rows]

    async def create_game(self, game: NewGame) -> GameRecord:
        stamp = now()
        try:
            _, game_id = await self._write(
                "INSERT INTO games (channel_id, guild_id, kind, host_id, players, variants, seed, rules_version, "
                "status, options, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?)",
                (
                    game.channel_id,
                    game.guild_id,
                    game.kind,
                    game.host_id,
                    _dump(list(game.players)),
                    _dump(list(game.variants)),
                    game.seed,
                    game.rules_version,
                    _dump(dict(game.options)),
                    stamp,
                    stamp,
                ),
            )
        except sqlite3.IntegrityError as error:
            raise ChannelBusy(game.channel_id) from error
        record = await self.game(int(game_id or 0))
        assert record is not None
        return record

    async def update_game(self, game: GameRecord, **changes: Any) -> GameRecord:
        unknown = set(changes) - set(_WRITABLE)
        if unknown:
            raise ValueError(f"update_game cannot change {sorted(unknown)}")
        columns = list(changes)
        assignments = "".join(f"{column} = ?, " for column in columns)
        values = tuple(_WRITABLE[column](changes[column]) for column in columns)
        changed, _ = await self._write(
            f"UPDATE games SET {assignments}revision = revision + 1, updated_at = ? WHERE id = ? AND revision = ?",
            (*values, now(), game.id, game.revision),
        )
        if changed != 1:
            raise Conflict(game.id)
        record = await self.game(game.id)
        assert record is not None
        return record

    async def set_message(self, game_id: int, message_id: int | None) -> None:
        await self._write("UPDATE games SET message_id = ? WHERE id = ?", (message_id, game_id))

    # ---- the move log --------------------------------------------------------------------------------------------

    async def moves(self, game_id: int, after: int = 0) -> list[LoggedMove]:
        rows = await self._rows(
            "SELECT seq, player, action, auto FROM moves WHERE game_id = ? AND seq > ? ORDER BY seq", (game_id, after)
        )
        moves = []
        for seq, player, action, auto in rows:
            try:
                decoded = json.loads(action)
            except ValueError:
                decoded = None  # the game's decoder refuses it, and the game is reported damaged
            moves.append(LoggedMove(seq, player, decoded, bool(auto)))
        return moves

    async def append_move(
        self, game_id: int, seq: int, player: int, action: Any, ending: Ending | None = None, auto: bool = False
    ) -> bool:
        insert = (
            "INSERT OR IGNORE INTO moves (game_id, seq, player, action, created_at, auto) "
            "SELECT ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM games WHERE id = ? AND status = 'running')"
        )
        stamp = now()
        args = (game_id, seq, player, _dump(action), stamp, int(auto), game_id)
        if ending is None:
            # One statement is one transaction: the common move costs a single round trip.
            changed, _ = await self._write(insert, args)
            return changed == 1
        async with self._transaction():
            async with self._db.execute(insert, args) as cursor:
                if cursor.rowcount != 1:
                    return False
            await self._db.execute(
                "UPDATE games SET status = ?, result = ?, ended_at = ?, updated_at = ?, revision = revision + 1 "
                "WHERE id = ?",
                (ending.status, _dump(ending.result), stamp, stamp, game_id),
            )
            await self._db.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))
        return True

    # ---- the turn clock ------------------------------------------------------------------------------------------

    async def set_timer(self, timer: Timer) -> None:
        await self._write(
            "INSERT INTO timers (game_id, seq, player, remind_at, due_at) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, player = excluded.player, "
            "remind_at = excluded.remind_at, due_at = excluded.due_at",
            (timer.game_id, timer.seq, timer.player, timer.remind_at, timer.due_at),
        )

    async def clear_timer(self, game_id: int) -> None:
        await self._write("DELETE FROM timers WHERE game_id = ?", (game_id,))

    async def timers(self) -> list[Timer]:
        rows = await self._rows(
            "SELECT t.game_id, t.seq, t.player, t.remind_at, t.due_at FROM timers t "
            "JOIN games g ON g.id = t.game_id WHERE g.status = 'running' ORDER BY t.due_at"
        )
        return [Timer(int(g), int(q), int(p), r, float(d)) for g, q, p, r, d in rows]

    async def claim_timer(self, game_id: int, seq: int, reminder: bool) -> bool:
        if reminder:
            query = "UPDATE timers SET remind_at = NULL WHERE game_id = ? AND seq = ? AND remind_at IS NOT NULL"
        else:
            query = "DELETE FROM timers WHERE game_id = ? AND seq = ?"
        changed, _ = await self._write(query, (game_id, seq))
        return changed == 1

    # ---- small things --------------------------------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        rows = await self._rows("SELECT value FROM meta WHERE key = ?", (key,))
        return str(rows[0][0]) if rows else None

    async def set_meta(self, key: str, value: str) -> None:
        await self._write(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    async def dm_channel(self, user_id: int) -> int | None:
        rows = await self._rows("SELECT channel_id FROM dm_channels WHERE user_id = ?", (user_id,))
        return int(rows[0][0]) if rows else None

    async def set_dm_channel(self, user_id: int, channel_id: int) -> None:
        await self._write(
            "INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET channel_id = excluded.channel_id",
            (user_id, channel_id),
        )

    async def private_messages(self, game_id: int) -> dict[int, tuple[int | None, str]]:
        rows = await self._rows("SELECT user_id, message_id, text FROM private_messages WHERE game_id = ?", (game_id,))
        return {int(user): (message, str(text)) for user, message, text in rows}

    async def set_private_message(self, game_id: int, user_id: int, message_id: int | None, text: str) -> None:
        await self._write(
            "INSERT INTO private_messages (game_id, user_id, message_id, text) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (game_id, user_id) DO UPDATE SET message_id = excluded.message_id, text = excluded.text",
            (game_id, user_id, message_id, text),
        )

    # ---- per-server settings ----------------------------------------------------------------------------------------
    # STAND-IN (issue 24, ops branch): the storage helper's branch brings the real migration and methods; the lead
    # replaces this block with theirs at merge. Same names and meaning; the table is created on first use here.

    async def _guild_settings_table(self) -> None:
        if getattr(self, "_guild_settings_ready", False):
            return
        await self._write(
            "CREATE TABLE IF NOT EXISTS guild_settings (guild_id INTEGER PRIMARY KEY, settings TEXT NOT NULL)"
        )
        self._guild_settings_ready = True

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        await self._guild_settings_table()
        rows = await self._rows("SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return _settings_dict(rows[0][0]) if rows else {}

    async def update_guild_settings(
        self, guild_id: int, change: Callable[[dict[str, Any]], dict[str, Any]]
    ) -> dict[str, Any]:
        await self._guild_settings_table()
        async with self._transaction():
            async with self._db.execute("SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,)) as cur:
                row = await cur.fetchone()
            changed = change(_settings_dict(row[0]) if row else {})
            await self._db.execute(
                "INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings",
                (guild_id, _dump(changed)),
            )
        return changed


def _settings_dict(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
