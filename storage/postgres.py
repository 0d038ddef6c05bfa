"""The server driver: PostgreSQL through an asyncpg connection pool, for several bot processes on one database.

The semantics are the SQLite driver's, enforced by the database rather than by any process:

- every write is one statement, so it is its own transaction: a timeout or a lost connection leaves nothing half
  written, and no session state (locks, prepared transactions, ``SET``) outlives a statement;
- ``append_move`` locks the game's row for the statement (``FOR NO KEY UPDATE``), appends on the log's unique key
  ``(game_id, seq)`` with ``ON CONFLICT DO NOTHING``, and writes the ending in the same statement: a second writer at
  the same position waits for the first, then finds ``seq`` taken (or the game over) and gets False;
- ``update_game`` is compare-and-swap on ``revision``; one open game per channel is a partial unique index;
- the only explicit lock is the migrations' ``pg_advisory_xact_lock``, released with their transaction: session-level
  advisory locks would leak to other clients behind PgBouncer.

Behind PgBouncer in transaction mode, add ``statement_cache_size=0`` to the URL's query: asyncpg's prepared statements
belong to a server session, which transaction pooling does not keep. The driver takes that parameter out of the URL
and gives it to asyncpg; every other unknown parameter (``lock_timeout=2s``, ``application_name=...``) is sent to the
server as a setting, as asyncpg does.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import asyncpg  # type: ignore[import-untyped]

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
from storage._stats_postgres import MIGRATION as STATS_MIGRATION
from storage._stats_postgres import PostgresStats
from storage.sqlite import _WRITABLE, _dump, _record, _settings_dict, now

log = logging.getLogger(__name__)

T = TypeVar("T")

# A statement that waits longer than this (for a row another writer holds, or a busy server) is cancelled and the
# user is told to try again: an interaction must be answered within Discord's three seconds.
BUSY_TIMEOUT_S = 2.0
POOL_SIZE = 10
# Any constant of our own: serialises two processes that start at once and would both migrate.
MIGRATION_LOCK = 0x63617264  # "card"

# Append-only: a released migration is never edited, a change is a new entry. Numbered on their own (PostgreSQL
# starts with the schema SQLite reached in its version 2).
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE games (
        id             BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        channel_id     BIGINT  NOT NULL,
        guild_id       BIGINT  NOT NULL,
        kind           TEXT    NOT NULL,
        host_id        BIGINT,
        players        JSONB   NOT NULL,
        variants       JSONB   NOT NULL,
        seed           BIGINT  NOT NULL,
        rules_version  INTEGER NOT NULL DEFAULT 1,
        status         TEXT    NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'abandoned')),
        revision       INTEGER NOT NULL DEFAULT 0,
        options        JSONB   NOT NULL DEFAULT '{}',
        message_id     BIGINT,
        result         JSONB,
        damaged        TEXT,
        created_at     TEXT    NOT NULL,
        started_at     TEXT,
        ended_at       TEXT,
        updated_at     TEXT    NOT NULL
    );
    CREATE UNIQUE INDEX one_open_game_per_channel ON games (channel_id) WHERE status IN ('lobby', 'running');
    CREATE INDEX games_by_status ON games (status);
    CREATE INDEX games_by_channel ON games (channel_id, id);
    CREATE TABLE moves (
        game_id     BIGINT  NOT NULL REFERENCES games (id),
        seq         INTEGER NOT NULL,
        player      BIGINT  NOT NULL,
        action      JSONB   NOT NULL,
        created_at  TEXT    NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TABLE private_messages (
        game_id     BIGINT NOT NULL REFERENCES games (id),
        user_id     BIGINT NOT NULL,
        message_id  BIGINT,
        text        TEXT   NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE dm_channels (user_id BIGINT PRIMARY KEY, channel_id BIGINT NOT NULL);
    """,
    # The turn clock: moves the autopilot made, and one clock per running game.
    """
    ALTER TABLE moves ADD COLUMN auto BOOLEAN NOT NULL DEFAULT false;
    CREATE TABLE timers (
        game_id     BIGINT           PRIMARY KEY REFERENCES games (id),
        seq         INTEGER          NOT NULL,
        player      BIGINT           NOT NULL,
        remind_at   DOUBLE PRECISION,
        due_at      DOUBLE PRECISION NOT NULL
    );
    """,
    STATS_MIGRATION,  # statistics (issue 15): the results table, kept by a trigger
)

_COLUMNS = (
    "id, channel_id, guild_id, kind, host_id, players, variants, seed, rules_version, status, revision, options, "
    "message_id, result, damaged, created_at, started_at, ended_at, "
    "(SELECT COALESCE(MAX(m.seq), 0) FROM moves m WHERE m.game_id = games.id) AS move_count"
)
_SELECT = f"SELECT {_COLUMNS} FROM games"

# One statement for every move: lock the running game's row, append on the unique key, and end the game (and stop
# its clock) in the same statement when the move carries an ending ($6 is NULL otherwise). Returns the number of
# moves appended (0 or 1).
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
    OSError,
    TimeoutError,  # our own timeout (command_timeout, pool acquire)
)


def split_url(url: str) -> tuple[str, int | None]:
    """The URL for asyncpg without our own ``statement_cache_size`` parameter, and that parameter's value."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    cache = [value for key, value in query if key == "statement_cache_size"]
    rest = [(key, value) for key, value in query if key != "statement_cache_size"]
    if not cache:
        return url, None
    try:
        size = int(cache[-1])
    except ValueError:
        raise StorageUnavailable(
            f"statement_cache_size in DATABASE_URL must be a number (0 behind PgBouncer), not {cache[-1]!r}."
        ) from None
    return urlunsplit(parts._replace(query=urlencode(rest))), size


def safe_url(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


class PostgresStorage(PostgresStats):
    """The PostgreSQL driver of ``storage.Storage``."""

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self.url = safe_url(url)

    @classmethod
    async def open(
        cls, url: str, *, busy_timeout: float = BUSY_TIMEOUT_S, pool_size: int = POOL_SIZE
    ) -> PostgresStorage:
        dsn, cache_size = split_url(url)
        options: dict[str, Any] = {}
        if cache_size is not None:
            options["statement_cache_size"] = cache_size
        try:
            pool = await asyncpg.create_pool(
                dsn, min_size=1, max_size=pool_size, command_timeout=busy_timeout, timeout=10, **options
            )
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError, ValueError) as error:
            raise StorageUnavailable(
                f"Can't connect to the PostgreSQL database {safe_url(url)} ({error.__class__.__name__}: "
                f"{str(error).strip() or 'no answer'}): check that the server runs and that DATABASE_URL names the "
                "right host, port, user, password and database."
            ) from error
        storage = cls(pool, url)
        try:
            await storage.migrate()
        except BaseException:
            await pool.close()
            raise
        return storage

    async def migrate(self) -> int:
        """Apply the migrations the database has not seen yet, in one transaction; returns the resulting version."""
        async with self._pool.acquire() as db, db.transaction():
            await db.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            version = await db.fetchval("SELECT max(version) FROM schema_version") or 0
            if version > len(MIGRATIONS):
                raise StorageUnavailable(
                    f"The database {self.url} is at version {version}, newer than this bot knows "
                    f"({len(MIGRATIONS)}): update the bot or point DATABASE_URL at another database."
                )
            for number, step in enumerate(MIGRATIONS[version:], start=version + 1):
                await db.execute(step)
                await db.execute("DELETE FROM schema_version")
                await db.execute("INSERT INTO schema_version (version) VALUES ($1)", number)
                log.info("Database migrated to version %d", number)
        return len(MIGRATIONS)

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self._pool.close(), 5)
        except TimeoutError:
            self._pool.terminate()

    async def _run(self, call: Callable[[], Awaitable[T]]) -> T:
        try:
            return await call()
        except _TRANSIENT as error:
            log.warning("Database busy or unreachable: %s: %s", error.__class__.__name__, error)
            raise StorageBusy("The database is busy right now.") from error

    async def _rows(self, query: str, *args: Any) -> list[asyncpg.Record]:
        return cast(list[asyncpg.Record], await self._run(lambda: self._pool.fetch(query, *args)))

    async def _value(self, query: str, *args: Any) -> Any:
        return await self._run(lambda: self._pool.fetchval(query, *args))

    async def _execute(self, query: str, *args: Any) -> None:
        await self._run(lambda: self._pool.execute(query, *args))

    # ---- games ---------------------------------------------------------------------------------------------------

    async def open_game(self, channel_id: int) -> GameRecord | None:
        rows = await self._rows(f"{_SELECT} WHERE channel_id = $1 AND status IN ('lobby', 'running')", channel_id)
        return _record(rows[0]) if rows else None

    async def game(self, game_id: int) -> GameRecord | None:
        rows = await self._rows(f"{_SELECT} WHERE id = $1", game_id)
        return _record(rows[0]) if rows else None

    async def open_games(self) -> list[GameRecord]:
        rows = await self._rows(f"{_SELECT} WHERE status IN ('lobby', 'running') ORDER BY id")
        return [_record(row) for row in rows]

    async def channel_games(self, channel_id: int, limit: int = 20) -> list[GameRecord]:
        rows = await self._rows(f"{_SELECT} WHERE channel_id = $1 ORDER BY id DESC LIMIT $2", channel_id, limit)
        return [_record(row) for row in rows]

    async def create_game(self, game: NewGame) -> GameRecord:
        stamp = now()
        try:
            rows = await self._rows(
                "INSERT INTO games (channel_id, guild_id, kind, host_id, players, variants, seed, rules_version, "
                "status, options, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'lobby', $9, $10, "
                f"$10) RETURNING {_COLUMNS}",
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
            )
        except asyncpg.UniqueViolationError as error:
            raise ChannelBusy(game.channel_id) from error
        return _record(rows[0])

    async def update_game(self, game: GameRecord, **changes: Any) -> GameRecord:
        unknown = set(changes) - set(_WRITABLE)
        if unknown:
            raise ValueError(f"update_game cannot change {sorted(unknown)}")
        columns = list(changes)
        assignments = "".join(f"{column} = ${number}, " for number, column in enumerate(columns, start=1))
        values = [_WRITABLE[column](changes[column]) for column in columns]
        n = len(columns)
        try:
            rows = await self._rows(
                f"UPDATE games SET {assignments}revision = revision + 1, updated_at = ${n + 1} "
                f"WHERE id = ${n + 2} AND revision = ${n + 3} RETURNING {_COLUMNS}",
                *values,
                now(),
                game.id,
                game.revision,
            )
        except asyncpg.UniqueViolationError as error:  # reopening a game in a channel that has another open one
            raise ChannelBusy(game.channel_id) from error
        if not rows:
            raise Conflict(game.id)
        return _record(rows[0])

    async def set_message(self, game_id: int, message_id: int | None) -> None:
        await self._execute("UPDATE games SET message_id = $1 WHERE id = $2", message_id, game_id)

    # ---- the move log --------------------------------------------------------------------------------------------

    async def moves(self, game_id: int, after: int = 0) -> list[LoggedMove]:
        rows = await self._rows(
            "SELECT seq, player, action, auto FROM moves WHERE game_id = $1 AND seq > $2 ORDER BY seq", game_id, after
        )
        return [LoggedMove(row["seq"], row["player"], json.loads(row["action"]), row["auto"]) for row in rows]

    async def append_move(
        self, game_id: int, seq: int, player: int, action: Any, ending: Ending | None = None, auto: bool = False
    ) -> bool:
        status, result = (None, None) if ending is None else (ending.status, _dump(ending.result))
        appended = await self._value(_APPEND, game_id, seq, player, _dump(action), now(), status, result, auto)
        return bool(appended == 1)

    # ---- the turn clock ------------------------------------------------------------------------------------------

    async def set_timer(self, timer: Timer) -> None:
        await self._execute(
            "INSERT INTO timers (game_id, seq, player, remind_at, due_at) VALUES ($1, $2, $3, $4, $5) "
            "ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, player = excluded.player, "
            "remind_at = excluded.remind_at, due_at = excluded.due_at",
            timer.game_id,
            timer.seq,
            timer.player,
            timer.remind_at,
            timer.due_at,
        )

    async def clear_timer(self, game_id: int) -> None:
        await self._execute("DELETE FROM timers WHERE game_id = $1", game_id)

    async def timers(self) -> list[Timer]:
        rows = await self._rows(
            "SELECT t.game_id, t.seq, t.player, t.remind_at, t.due_at FROM timers t "
            "JOIN games g ON g.id = t.game_id WHERE g.status = 'running' ORDER BY t.due_at"
        )
        return [Timer(row["game_id"], row["seq"], row["player"], row["remind_at"], row["due_at"]) for row in rows]

    async def claim_timer(self, game_id: int, seq: int, reminder: bool) -> bool:
        """A compare-and-delete (or -clear) on the clock's row: of several processes claiming it at once, the row
        lock lets exactly one change it; the others find nothing left to claim."""
        if reminder:
            query = "UPDATE timers SET remind_at = NULL WHERE game_id = $1 AND seq = $2 AND remind_at IS NOT NULL"
        else:
            query = "DELETE FROM timers WHERE game_id = $1 AND seq = $2"
        status = await self._run(lambda: self._pool.execute(query, game_id, seq))
        return str(status).rsplit(" ", 1)[-1] == "1"

    # ---- small things --------------------------------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        value = await self._value("SELECT value FROM meta WHERE key = $1", key)
        return None if value is None else str(value)

    async def set_meta(self, key: str, value: str) -> None:
        await self._execute(
            "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            key,
            value,
        )

    async def dm_channel(self, user_id: int) -> int | None:
        value = await self._value("SELECT channel_id FROM dm_channels WHERE user_id = $1", user_id)
        return None if value is None else int(value)

    async def set_dm_channel(self, user_id: int, channel_id: int) -> None:
        await self._execute(
            "INSERT INTO dm_channels (user_id, channel_id) VALUES ($1, $2) "
            "ON CONFLICT (user_id) DO UPDATE SET channel_id = excluded.channel_id",
            user_id,
            channel_id,
        )

    async def private_messages(self, game_id: int) -> dict[int, tuple[int | None, str]]:
        rows = await self._rows("SELECT user_id, message_id, text FROM private_messages WHERE game_id = $1", game_id)
        return {int(row["user_id"]): (row["message_id"], str(row["text"])) for row in rows}

    async def set_private_message(self, game_id: int, user_id: int, message_id: int | None, text: str) -> None:
        await self._execute(
            "INSERT INTO private_messages (game_id, user_id, message_id, text) VALUES ($1, $2, $3, $4) "
            "ON CONFLICT (game_id, user_id) DO UPDATE SET message_id = excluded.message_id, text = excluded.text",
            game_id,
            user_id,
            message_id,
            text,
        )

    # ---- per-server settings ----------------------------------------------------------------------------------------
    # STAND-IN (issue 24, ops branch): the storage helper's branch brings the real migration and methods; the lead
    # replaces this block with theirs at merge. Same names and meaning; the table is created on first use here.

    async def _guild_settings_table(self) -> None:
        if getattr(self, "_guild_settings_ready", False):
            return

        async def create() -> None:
            # Two processes creating it at once would collide in the catalog: the migrations' lock queues them.
            async with self._pool.acquire() as db, db.transaction():
                await db.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                await db.execute(
                    "CREATE TABLE IF NOT EXISTS guild_settings (guild_id BIGINT PRIMARY KEY, settings JSONB NOT NULL)"
                )

        await self._run(create)
        self._guild_settings_ready = True

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        await self._guild_settings_table()
        text = await self._value("SELECT settings::text FROM guild_settings WHERE guild_id = $1", guild_id)
        return _settings_dict(text) if text is not None else {}

    async def update_guild_settings(
        self, guild_id: int, change: Callable[[dict[str, Any]], dict[str, Any]]
    ) -> dict[str, Any]:
        await self._guild_settings_table()

        async def apply() -> dict[str, Any]:
            async with self._pool.acquire() as db, db.transaction():
                # The row exists before it is locked, so that two first changes of one server queue up too.
                await db.execute(
                    "INSERT INTO guild_settings (guild_id, settings) VALUES ($1, '{}') ON CONFLICT DO NOTHING",
                    guild_id,
                )
                text = await db.fetchval(
                    "SELECT settings::text FROM guild_settings WHERE guild_id = $1 FOR UPDATE", guild_id
                )
                changed = change(_settings_dict(text))
                await db.execute(
                    "UPDATE guild_settings SET settings = $2::jsonb WHERE guild_id = $1", guild_id, _dump(changed)
                )
                return changed

        return await self._run(apply)
