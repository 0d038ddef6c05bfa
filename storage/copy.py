"""Moving the SQLite file to PostgreSQL (``cardtable-bot copy-database``, issue 33): every row of every table, with
its ids, in one transaction on each side.

Both databases are first brought to the newest schema by opening them, so their tables and columns match; the
target must hold no games, settings or other rows yet (a second copy would mix two histories). The rows are read
from one snapshot of the SQLite file (its write lock is held meanwhile: stop the bot first) and written in the order
their references need; PostgreSQL's generated ids continue after the copied ones. The results table is copied as it
is (its trigger fires only when a game ends, so nothing is derived twice).
"""

from __future__ import annotations

from typing import Any

from storage.errors import StorageUnavailable
from storage.migrations import Session
from storage.postgres import PostgresStorage
from storage.sqlite import SQLiteStorage

# Every table, parents before the tables that refer to them (tests/test_maintenance.py checks none is missing).
TABLES = (
    "games",
    "moves",
    "private_messages",
    "timers",
    "results",
    "meta",
    "dm_channels",
    "guild_settings",
    "former_players",
    "departed_guilds",
)
# The columns PostgreSQL generates (GENERATED ALWAYS AS IDENTITY): the copy writes SQLite's values over them.
GENERATED = {"games": "id", "former_players": "pseudonym"}

Snapshot = dict[str, tuple[list[str], list[tuple[Any, ...]]]]


async def _read(db: Session) -> Snapshot:
    snapshot: Snapshot = {}
    for table in TABLES:
        columns = [str(row[1]) for row in await db.fetch(f"PRAGMA table_info({table})")]
        rows = await db.fetch(f"SELECT {', '.join(columns)} FROM {table}")
        snapshot[table] = (columns, [tuple(row) for row in rows])
    return snapshot


def _converter(data_type: str) -> Any:
    """SQLite keeps booleans as 0/1 and may keep a whole number in a REAL column; PostgreSQL's driver wants each
    value of its own type."""
    if data_type == "boolean":
        return lambda value: None if value is None else bool(value)
    if data_type == "double precision":
        return lambda value: None if value is None else float(value)
    return lambda value: value


async def _write(db: Session, snapshot: Snapshot, where: str) -> dict[str, int]:
    for table in TABLES:
        if (await db.fetch(f"SELECT count(*) FROM {table}"))[0][0]:
            raise StorageUnavailable(
                f"The database {where} already holds data (table {table}): copy into a new, empty database."
            )
    copied: dict[str, int] = {}
    for table in TABLES:
        columns, rows = snapshot[table]
        types = {
            str(name): str(kind)
            for name, kind in await db.fetch(
                "SELECT column_name, data_type FROM information_schema.columns "
                "WHERE table_schema = current_schema() AND table_name = ?",
                table,
            )
        }
        convert = [_converter(types[column]) for column in columns]
        overriding = " OVERRIDING SYSTEM VALUE" if table in GENERATED else ""
        statement = f"INSERT INTO {table} ({', '.join(columns)}){overriding} VALUES ({', '.join('?' for _ in columns)})"
        if rows:
            await db.executemany(statement, [[c(v) for c, v in zip(convert, row, strict=True)] for row in rows])
        if table in GENERATED and rows:
            column = GENERATED[table]
            await db.run(
                f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), (SELECT max({column}) FROM {table}))"
            )
        copied[table] = len(rows)
    return copied


async def copy_database(source: SQLiteStorage, target: PostgresStorage) -> dict[str, int]:
    """Copy every row of ``source`` into the empty ``target``; the number of rows per table. Raises
    ``StorageUnavailable`` if the target holds anything, and then writes nothing."""
    snapshot = await source._atomic(_read)
    return await target._atomic(lambda db: _write(db, snapshot, target.url))
