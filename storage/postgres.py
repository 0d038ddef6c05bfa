"""The server driver: PostgreSQL through an asyncpg connection pool, for several bot processes on one database.

The statements are ``storage.sql``'s, shared with SQLite (``Dialect.sql`` numbers their parameters); the semantics
are enforced by the database rather than by any process:

- every write is one statement, so it is its own transaction: a timeout or a lost connection leaves nothing half
  written, and no session state (locks, prepared transactions, ``SET``) outlives a statement;
- ``append_move`` locks the game's row for the statement (``FOR NO KEY UPDATE``), appends on the log's unique key
  ``(game_id, seq)`` with ``ON CONFLICT DO NOTHING``, and writes the ending in the same statement: a second writer at
  the same position waits for the first, then finds ``seq`` taken (or the game over) and gets False;
- ``update_game`` is compare-and-swap on ``revision``; one open game per channel is a partial unique index;
- the only explicit lock is the migrations' ``pg_advisory_xact_lock``, released with their transaction: session-level
  advisory locks would leak to other clients behind PgBouncer;
- reads and writes take their connections from two pools: a write waiting for a row another client holds keeps its
  connection for up to ``BUSY_TIMEOUT_S``, and however many do, reads (which never wait for a row lock) still find a
  connection; every call, waiting for a connection included, ends within ``BUSY_TIMEOUT_S`` (``StorageBusy``).

Behind PgBouncer in transaction mode, add ``statement_cache_size=0`` to the URL's query: asyncpg's prepared statements
belong to a server session, which transaction pooling does not keep. The driver takes that parameter out of the URL
and gives it to asyncpg; every other unknown parameter (``lock_timeout=2s``, ``application_name=...``) is sent to the
server as a setting, as asyncpg does.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar, cast

import asyncpg  # type: ignore[import-untyped]

from storage.dialect import POSTGRES
from storage.errors import Duplicate, StorageBusy
from storage.migrations import Session, refuse_newer, upgrade
from storage.pg_startup import explain, safe_url, split_url
from storage.records import Ending, now
from storage.rows import Row, dump, dump_result, writes
from storage.sql import SQLStorage

__all__ = ["PostgresStorage", "safe_url", "split_url"]

log = logging.getLogger(__name__)

T = TypeVar("T")

# A statement that waits longer than this (for a row another writer holds, or a busy server) is cancelled and the
# user is told to try again: an interaction must be answered within Discord's three seconds.
BUSY_TIMEOUT_S = 2.0
POOL_SIZE = 10
# Connections for reads, apart from the writers' (see the module's docstring).
READ_POOL_SIZE = 4
# Any constant of our own: serialises two processes that start at once and would both migrate.
MIGRATION_LOCK = 0x63617264  # "card"
# PostgreSQL databases written before the two histories became one counted from SQLite's version 2, and recorded
# 1 to 3 for versions 2 to 4. A database migrated since records the version itself, always 5 or more (all steps run
# in one transaction), so a recorded 1 to 3 can only be the old count.
OLD_COUNT = range(1, 4)

# PostgreSQL's own statement for every move: lock the running game's row, append on the unique key, and end the
# game (and stop its clock) in the same statement when the move carries an ending ($6 is NULL otherwise). Returns the
# number of moves appended (0 or 1).
_APPEND = """
WITH game AS (
    SELECT id FROM games WHERE id = $1 AND status = 'running' FOR NO KEY UPDATE
), appended AS (
    INSERT INTO moves (game_id, seq, player, action, created_at, auto)
    SELECT id, $2, $3, $4, $5, $8 FROM game
    ON CONFLICT (game_id, seq) DO NOTHING
    RETURNING game_id
), ended AS (
    UPDATE games SET status = $6::text, result = $7, ended_at = $5, updated_at = $5, revision = revision + 1
    WHERE $6::text IS NOT NULL AND id IN (SELECT game_id FROM appended)
    RETURNING id
), stopped AS (
    DELETE FROM timers WHERE game_id IN (SELECT id FROM ended)
)
SELECT count(*) FROM appended
"""

# Errors after which trying again later may well succeed: nothing was committed (or, for a dropped connection, the
# compare-and-swap makes a retry safe).
_TRANSIENT = (
    asyncpg.LockNotAvailableError,  # lock_timeout
    asyncpg.QueryCanceledError,  # statement_timeout
    asyncpg.DeadlockDetectedError,
    asyncpg.SerializationError,
    asyncpg.TooManyConnectionsError,
    asyncpg.CannotConnectNowError,  # the server is starting or shutting down
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,  # the connection was closed under us
    # A connection the server dropped while the pool handed it out can refuse the next statement before sending it
    # ("another operation is in progress"): nothing reached the server, and the pool replaces the connection.
    asyncpg.InternalClientError,
    OSError,
    TimeoutError,  # our own timeout (command_timeout, pool acquire)
)


class _Session:
    """The migrations' view of one connection, inside their transaction."""

    dialect = POSTGRES

    def __init__(self, db: asyncpg.Connection) -> None:
        self._db = db

    async def run(self, statement: str) -> None:
        await self._db.execute(statement)

    async def fetch(self, statement: str, *args: Any) -> list[Row]:
        return list(await self._db.fetch(POSTGRES.sql(statement), *args))

    async def execute(self, statement: str, *args: Any) -> None:
        await self._db.execute(POSTGRES.sql(statement), *args)

    async def executemany(self, statement: str, rows: Sequence[Sequence[Any]]) -> None:
        await self._db.executemany(POSTGRES.sql(statement), rows)


class PostgresStorage(SQLStorage):
    """The PostgreSQL driver of ``storage.base.Storage``."""

    dialect = POSTGRES

    def __init__(
        self, pool: asyncpg.Pool, url: str, reads: asyncpg.Pool | None = None, busy_timeout: float = 0
    ) -> None:
        self._pool = pool
        self._reads = pool if reads is None else reads
        self.url = safe_url(url)
        self._busy_timeout = busy_timeout or BUSY_TIMEOUT_S

    @classmethod
    async def open(
        cls, url: str, *, busy_timeout: float = BUSY_TIMEOUT_S, pool_size: int = POOL_SIZE
    ) -> PostgresStorage:
        """Connect and migrate; every reason the database can't be used is a ``StorageUnavailable`` naming the cause
        and what to change, and leaves the database as it was (the migrations are one transaction)."""
        dsn, cache_size = split_url(url)
        options: dict[str, Any] = {}
        if cache_size is not None:
            options["statement_cache_size"] = cache_size
        pools: list[asyncpg.Pool] = []
        try:
            for size in (pool_size, READ_POOL_SIZE):
                pools.append(
                    await asyncpg.create_pool(
                        dsn, min_size=1, max_size=size, command_timeout=busy_timeout, timeout=10, **options
                    )
                )
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError, ValueError) as error:
            for opened in pools:
                opened.terminate()
            raise explain(error, url) from error
        storage = cls(pools[0], url, pools[1], busy_timeout)
        try:
            await storage.migrate()
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError) as error:
            names = await storage._names()
            await storage.close()
            raise explain(error, url, names, connected=True) from error
        except BaseException:
            await storage.close()
            raise
        return storage

    async def _names(self) -> tuple[str, str] | None:
        """The user and the database the server sees us as, for a message; None if it can't say."""
        try:
            row = await self._pool.fetchrow("SELECT current_user, current_database()")
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError):
            return None
        return (str(row[0]), str(row[1])) if row else None

    async def migrate(self) -> int:
        """Apply the migrations the database has not seen yet, in one transaction; returns the resulting version."""
        async with self._pool.acquire() as db, db.transaction():
            await db.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            version = 0
            if await db.fetchval("SELECT to_regclass('schema_version') IS NOT NULL"):
                recorded = await db.fetchval("SELECT max(version) FROM schema_version") or 0
                version = recorded + 1 if recorded in OLD_COUNT else recorded
            refuse_newer(version, self.url, "DATABASE_URL")
            latest = await upgrade(_Session(db), version)
            if latest != version:
                await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                await db.execute("DELETE FROM schema_version")
                await db.execute("INSERT INTO schema_version (version) VALUES ($1)", latest)
        return latest

    async def close(self) -> None:
        for pool in {self._pool, self._reads}:
            try:
                await asyncio.wait_for(pool.close(), 5)
            except TimeoutError:
                pool.terminate()

    async def _run(self, call: Callable[[], Awaitable[T]]) -> T:
        try:
            # The statement's own timeout does not count the wait for a free connection (or for a new one, while the
            # server is unreachable): this bounds both.
            async with asyncio.timeout(self._busy_timeout):
                return await call()
        except asyncpg.UniqueViolationError as error:
            raise Duplicate(str(error)) from error
        except _TRANSIENT as error:
            log.warning("Database busy or unreachable: %s: %s", error.__class__.__name__, error)
            raise StorageBusy("The database is busy right now.") from error

    async def _fetch(self, statement: str, *args: Any) -> list[Row]:
        query = POSTGRES.sql(statement)
        pool = self._pool if writes(statement) else self._reads
        return cast(list[Row], await self._run(lambda: pool.fetch(query, *args)))

    async def _execute(self, statement: str, *args: Any) -> int:
        query = POSTGRES.sql(statement)
        status = await self._run(lambda: self._pool.execute(query, *args))
        return int(str(status).rsplit(" ", 1)[-1])  # "UPDATE 1", "INSERT 0 1", "DELETE 0"

    async def _atomic(self, work: Callable[[Session], Awaitable[T]]) -> T:
        async def transaction() -> T:
            async with self._pool.acquire() as db, db.transaction():
                return await work(_Session(db))

        return await self._run(transaction)

    async def append_move(
        self, game_id: int, seq: int, player: int, action: Any, ending: Ending | None = None, auto: bool = False
    ) -> bool:
        status, result = (None, None) if ending is None else (ending.status, dump_result(ending.result))
        appended = await self._run(
            lambda: self._pool.fetchval(_APPEND, game_id, seq, player, dump(action), now(), status, result, auto)
        )
        return bool(appended == 1)
