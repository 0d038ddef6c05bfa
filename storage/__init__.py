"""Where games are kept: the records (``storage.records``), the interfaces every database driver fulfils, by job
(``storage.base``), its errors, and ``open_storage``, which picks the driver the settings name.

The package is SQL only: no locks, caches, rules or rendering. Its parts, each importing only those before it:
``records`` and ``errors``; ``dialect`` (what differs in the two databases' SQL); ``rows`` (a game row read and
written); ``stats`` (the statistics' statements); ``results`` and ``migrations`` (the one schema history); ``privacy``
(forgetting people, servers and hand texts); ``sql`` (every other statement, written once); the drivers ``sqlite`` and
``postgres`` (connection, transactions, error mapping, appending a move); ``copy`` and ``maintenance`` (the owner's
command-line ``copy-database`` and ``forget-server``).
"""

from __future__ import annotations

from storage.base import GameStore, PrivacyStore, StatsStore, Storage, TableStore
from storage.errors import ChannelBusy, Conflict, StorageBusy, StorageError, StorageUnavailable
from storage.privacy import FORMER_BASE, cutoff, is_former
from storage.records import (
    OPEN_STATUSES,
    STATUSES,
    EndedGame,
    Ending,
    GameRecord,
    LoggedMove,
    NewGame,
    PlayerResult,
    Result,
    Standing,
    Streak,
    Tally,
    Timer,
    now,
)
from storage.sqlite import SQLiteStorage

__all__ = [
    "FORMER_BASE",
    "OPEN_STATUSES",
    "STATUSES",
    "ChannelBusy",
    "Conflict",
    "EndedGame",
    "Ending",
    "GameRecord",
    "GameStore",
    "LoggedMove",
    "NewGame",
    "PlayerResult",
    "PrivacyStore",
    "Result",
    "Standing",
    "StatsStore",
    "Storage",
    "StorageBusy",
    "StorageError",
    "StorageUnavailable",
    "Streak",
    "TableStore",
    "Tally",
    "Timer",
    "cutoff",
    "is_former",
    "now",
    "open_storage",
]


async def open_storage(database_path: str, database_url: str | None = None) -> Storage:
    """The database the settings name: PostgreSQL when ``database_url`` is given (several processes may share it),
    else the SQLite file at ``database_path`` (one process, the default). Raises ``StorageUnavailable`` (one line: the
    cause and the setting to change) when it can't be used."""
    if database_url:
        try:
            # Only here: asyncpg is an optional part (pip install ".[postgres]"), not needed for SQLite.
            from storage.postgres import PostgresStorage
        except ModuleNotFoundError as error:
            if error.name != "asyncpg":
                raise
            raise StorageUnavailable(
                "DATABASE_URL names a PostgreSQL database, but its driver asyncpg is not installed: "
                'pip install -c requirements.lock ".[postgres]" (or leave DATABASE_URL empty for the SQLite file).'
            ) from None
        return await PostgresStorage.open(database_url)
    return await SQLiteStorage.open(database_path)
