"""The embedded driver: one SQLite file through aiosqlite, in WAL mode.

The connections run in autocommit mode: a single statement is its own transaction. Reads go to aiosqlite's
connection (in its thread); in WAL mode they never wait for a writer, so nothing but other reads is ever queued ahead
of them. Writes go to a second connection in the event loop itself that never waits inside SQLite: when another
process holds the write lock, the write gives up at once, sleeps a moment without holding anything, and tries again
until ``BUSY_TIMEOUT_MS`` have passed (then ``StorageBusy``: nothing was written). The one multi-statement write (a
move that ends the game) runs ``BEGIN IMMEDIATE ... COMMIT`` in one go, without yielding to the event loop, so no
other coroutine's statement can join its transaction and no lock of the bot's own is needed. The statements
themselves are ``storage.sql``'s, shared with PostgreSQL.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import aiosqlite

from storage.dialect import SQLITE
from storage.errors import Duplicate, StorageBusy, StorageUnavailable
from storage.migrations import Session, refuse_newer, upgrade
from storage.records import Ending, now
from storage.rows import Row, dump, dump_result, writes
from storage.sql import SQLStorage

__all__ = ["BUSY_TIMEOUT_MS", "SQLiteStorage", "now"]

T = TypeVar("T")

# Long enough to ride out another process's checkpoint or a burst of writes, short enough that an interaction can
# still be answered within Discord's three seconds.
BUSY_TIMEOUT_MS = 2000
# Writes of the event loop's connection between two checkpoints (a few pages each: a few MB of log at most).
CHECKPOINT_WRITES = 300
SETTING = "DATABASE_PATH"
# Between two tries of switching a file to WAL while another process holds it (see ``_switch_to_wal``).
WAL_RETRY_S = 0.02
# Between two tries of a write while another process holds the write lock: short at first (most locks are a
# checkpoint or another writer's few milliseconds), then at most this often, so a long lock costs little CPU.
FIRST_WRITE_RETRY_S = 0.002
LAST_WRITE_RETRY_S = 0.05


def _locked(error: sqlite3.Error) -> bool:
    """Whether ``error`` says another connection holds the lock ("database is locked" or "busy")."""
    text = str(error).lower()
    return "locked" in text or "busy" in text


def _explain(error: sqlite3.Error, path: str) -> Exception:
    """The error a caller should see for SQLite's ``error``: ours where we know what it means, else itself."""
    text = str(error).lower()
    if isinstance(error, sqlite3.IntegrityError):
        return Duplicate(str(error)) if "unique" in text else error
    if _locked(error):
        return StorageBusy("The database is busy right now.")
    if "readonly" in text or "read-only" in text:
        return StorageUnavailable(
            f"The database {path} is read-only: give the bot's user write access to it and to its folder, "
            f"or set {SETTING} to another file."
        )
    if "unable to open" in text:
        return StorageUnavailable(
            f"Can't open the database {path}: check that its folder exists and the bot's user may write there, "
            f"or set {SETTING} to another file."
        )
    if "not a database" in text:
        return StorageUnavailable(
            f"{path} is not a SQLite database (file is not a database): set {SETTING} to the bot's database file, "
            "or to a new file name to start an empty one."
        )
    if "disk is full" in text:
        return StorageUnavailable(
            f"The disk holding the database {path} is full; nothing was written: free some space on it, or set "
            f"{SETTING} to a file on another disk."
        )
    if "malformed" in text or "disk i/o" in text:
        return StorageUnavailable(
            f"The database {path} can't be read ({error}): restore it from a backup, or set {SETTING} to another file."
        )
    return error


def _raise(error: sqlite3.Error, path: str) -> NoReturn:
    explained = _explain(error, path)
    if explained is error:
        raise error
    raise explained from error


class _Session:
    """The migrations' view of the connection, inside their transaction."""

    dialect = SQLITE

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def run(self, statement: str) -> None:
        await self._db.execute(statement)

    async def fetch(self, statement: str, *args: Any) -> list[Row]:
        async with self._db.execute(statement, args) as cursor:
            return list(await cursor.fetchall())

    async def execute(self, statement: str, *args: Any) -> None:
        await self._db.execute(statement, args)

    async def executemany(self, statement: str, rows: Sequence[Sequence[Any]]) -> None:
        await self._db.executemany(statement, rows)


class SQLiteStorage(SQLStorage):
    """The SQLite driver of ``storage.base.Storage``."""

    dialect = SQLITE

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self._db = db
        self.path = path
        # A second connection to the same file for every write, run in the event loop itself (see ``_write``); None
        # for an in-memory database, which a second connection would not share.
        self._inline: sqlite3.Connection | None = None
        self._inline_writes = 0
        self._checkpoint: asyncio.Task[None] | None = None
        # One connection is one session: a statement sent while another coroutine's transaction is open would
        # silently join it. With an in-memory database (no second connection, no other process to wait for) and while
        # opening, aiosqlite's connection is taken in turn; with a file, reads never need it.
        self._turn = asyncio.Lock()

    @classmethod
    async def open(cls, path: str) -> SQLiteStorage:
        """Open (creating it, with its folder, if missing) and migrate the database at ``path``; every reason it
        can't be used is a ``StorageUnavailable`` naming the cause and the setting, and leaves the file unchanged."""
        try:
            if path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StorageUnavailable(
                f"Can't create the folder for the database {path} ({error.strerror}): set {SETTING} to a file "
                "in a folder the bot's user may write."
            ) from error
        connecting = aiosqlite.connect(path, isolation_level=None)
        try:
            db = await connecting
        except sqlite3.Error as error:
            # aiosqlite stops its worker thread without waiting for it; a thread that outlives the event loop prints
            # a traceback at exit, under the one line the owner should see.
            await asyncio.to_thread(connecting._thread.join, 5)
            raise _opening(error, path) from error
        db.row_factory = sqlite3.Row
        storage = cls(db, path)
        try:
            await db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            # Read before anything is written: a file that is no database, or one of a newer bot, stays as it was.
            refuse_newer(await storage._version(), path, SETTING)
            await storage._configure()
            await storage.migrate()
            if path != ":memory:":
                # Set up in a thread: it may wait for another process that is opening the same file right now.
                storage._inline = await asyncio.to_thread(_inline_connection, path)
        except sqlite3.Error as error:
            await db.close()
            raise _opening(error, path) from error
        except StorageBusy as error:
            await db.close()
            raise StorageUnavailable(
                f"The database {path} stayed locked by another program for {BUSY_TIMEOUT_MS // 1000} s: stop the "
                f"other bot process using it, or set {SETTING} to another file."
            ) from error
        except BaseException:
            await db.close()
            raise
        return storage

    async def _configure(self) -> None:
        await self._switch_to_wal()
        # In WAL mode NORMAL is durable across a crash or kill -9 of the bot (a commit is in the log before the answer
        # goes out); only a power cut or OS crash may roll back the last moments. FULL would add an fsync (about
        # 3 ms here) to every move and cap one process at a few hundred writes a second.
        await self._db.execute("PRAGMA synchronous=NORMAL")
        await self._db.execute("PRAGMA foreign_keys=ON")
        # Rows are tiny and the OS caches the file; SQLite's default 2 MiB page cache would only duplicate it.
        await self._db.execute("PRAGMA cache_size=-256")

    async def _switch_to_wal(self) -> None:
        """Switch the file to WAL, retrying while another process holds it. The switch takes its write lock from
        inside the pragma's own read, and SQLite never calls the busy handler there (waiting could deadlock), so
        ``busy_timeout`` does not cover it: two processes opening one new file at once would see 'database is
        locked' at once (CI saw it; about 6% of such starts here)."""
        deadline = asyncio.get_running_loop().time() + BUSY_TIMEOUT_MS / 1000
        while True:
            try:
                await self._db.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as error:
                if not _locked(error) or asyncio.get_running_loop().time() >= deadline:
                    raise
            await asyncio.sleep(WAL_RETRY_S)

    async def _version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def migrate(self) -> int:
        """Apply the migrations the database has not seen yet, in one transaction; returns the resulting version.

        The version is read inside the write transaction, so two processes opening one new file at once migrate it
        once: the second waits for the first and then finds nothing left to do."""
        async with self._transaction():
            version = await self._version()
            refuse_newer(version, self.path, SETTING)
            latest = await upgrade(_Session(self._db), version)
            if latest != version:
                await self._db.execute(f"PRAGMA user_version = {latest}")
        return latest

    async def close(self) -> None:
        if self._checkpoint is not None:
            await self._checkpoint
        if self._inline is not None:
            self._inline.close()
            self._inline = None
        await self._db.close()

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[None]:
        """BEGIN IMMEDIATE ... COMMIT, rolled back on any failure so the connection is never left mid-transaction."""
        async with self._turn:
            try:
                await self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as error:
                _raise(error, self.path)
            try:
                yield
                await self._db.execute("COMMIT")
            except BaseException as error:
                if self._db.in_transaction:
                    await self._db.execute("ROLLBACK")
                if isinstance(error, sqlite3.Error):
                    _raise(error, self.path)
                raise

    # Each read is one hand-off to aiosqlite's thread and back (its cursor's fetch and close would be two more, each a
    # wake-up of both threads): ``execute_fetchall`` runs and reads in one.

    async def _fetch(self, statement: str, *args: Any) -> list[Row]:
        if self._inline is not None:
            if writes(statement):  # a write with RETURNING
                return await self._write(lambda db: list(db.execute(statement, args).fetchall()))
            try:
                return list(await self._db.execute_fetchall(statement, args))
            except sqlite3.Error as error:
                _raise(error, self.path)
        async with self._turn:
            try:
                return list(await self._db.execute_fetchall(statement, args))
            except sqlite3.Error as error:
                _raise(error, self.path)

    async def _execute(self, statement: str, *args: Any) -> int:
        if self._inline is not None:
            return await self._write(lambda db: int(db.execute(statement, args).rowcount))
        async with self._turn:
            try:
                return (await self._db.execute(statement, args)).rowcount
            except sqlite3.Error as error:
                _raise(error, self.path)

    async def _write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` (one statement, or one whole transaction) on the inline connection, in the event loop: a
        one-row write in WAL mode costs SQLite a few dozen microseconds (no fsync with synchronous=NORMAL), less than
        the two thread switches of a hand-off. The connection never waits inside SQLite (``busy_timeout=0``): while
        another process holds the write lock, this coroutine sleeps between tries holding nothing, so other writes and
        every read go on meanwhile; after ``BUSY_TIMEOUT_MS`` it gives up with ``StorageBusy``, nothing written."""
        inline = self._inline
        assert inline is not None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + BUSY_TIMEOUT_MS / 1000
        pause = FIRST_WRITE_RETRY_S
        while True:
            try:
                result = work(inline)
            except sqlite3.OperationalError as error:
                if not _locked(error) or loop.time() >= deadline:
                    _raise(error, self.path)
            except sqlite3.Error as error:
                _raise(error, self.path)
            else:
                self._written()
                return result
            await asyncio.sleep(min(pause, max(deadline - loop.time(), 0.0)))
            pause = min(pause * 2, LAST_WRITE_RETRY_S)

    def _written(self) -> None:
        """The inline connection never checkpoints (that fsyncs): every ``CHECKPOINT_WRITES`` writes, aiosqlite's
        thread copies the write-ahead log into the database, off the event loop."""
        self._inline_writes += 1
        if self._inline_writes % CHECKPOINT_WRITES == 0 and (self._checkpoint is None or self._checkpoint.done()):
            self._checkpoint = asyncio.ensure_future(self._checkpoint_now())

    async def _checkpoint_now(self) -> None:
        try:
            async with self._turn:
                await self._db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except (sqlite3.Error, ValueError):
            # Busy (another process reads the log), or closing: the next round tries again.
            return

    async def _atomic(self, work: Callable[[Session], Awaitable[T]]) -> T:
        async with self._transaction():
            return await work(_Session(self._db))

    async def append_move(
        self, game_id: int, seq: int, player: int, action: Any, ending: Ending | None = None, auto: bool = False
    ) -> bool:
        insert = (
            "INSERT OR IGNORE INTO moves (game_id, seq, player, action, created_at, auto) "
            "SELECT ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM games WHERE id = ? AND status = 'running')"
        )
        stamp = now()
        args = (game_id, seq, player, dump(action), stamp, int(auto), game_id)
        if ending is None:
            # One statement is one transaction: the common move costs a single round trip.
            return await self._execute(insert, *args) == 1
        end = (
            (
                "UPDATE games SET status = ?, result = ?, ended_at = ?, updated_at = ?, revision = revision + 1 "
                "WHERE id = ?"
            ),
            (ending.status, dump_result(ending.result), stamp, stamp, game_id),
        )
        stop = ("DELETE FROM timers WHERE game_id = ?", (game_id,))
        if self._inline is not None:
            return await self._write(lambda db: _append_and_end(db, (insert, args), end, stop))
        async with self._transaction():
            if (await self._db.execute(insert, args)).rowcount != 1:
                return False
            for statement, values in (end, stop):
                await self._db.execute(statement, values)
        return True


Statement = tuple[str, Sequence[Any]]


def _append_and_end(db: sqlite3.Connection, insert: Statement, *then: Statement) -> bool:
    """Append a move and end its game in one transaction, in one go: nothing else runs on the connection between
    BEGIN and COMMIT, and any failure rolls it back (``BEGIN IMMEDIATE`` meeting another writer fails at once, and the
    caller tries again)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        if db.execute(*insert).rowcount != 1:
            db.execute("ROLLBACK")
            return False
        for statement in then:
            db.execute(*statement)
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return True


def _inline_connection(path: str) -> sqlite3.Connection:
    """The event loop's own connection for writes: autocommit, durable as the main one, never checkpointing itself
    and, once set up, never waiting for a lock (``busy_timeout=0``). Its set-up, made in a
    thread, waits as the main connection does: another process starting at the same moment may hold the file while
    it switches it to WAL or migrates it. Used from the event loop's thread afterwards, hence check_same_thread."""
    inline = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False)
    for pragma in ("synchronous=NORMAL", "foreign_keys=ON", "cache_size=-256", "wal_autocheckpoint=0"):
        inline.execute(f"PRAGMA {pragma}")
    inline.execute("PRAGMA busy_timeout=0")
    inline.row_factory = sqlite3.Row
    return inline


def _opening(error: sqlite3.Error, path: str) -> Exception:
    """At start every failure is the owner's to fix: one line, never a traceback."""
    explained = _explain(error, path)
    if isinstance(explained, StorageUnavailable):
        return explained
    return StorageUnavailable(f"Can't use the database {path} ({error}): set {SETTING} to another file.")
