"""What the shared statements stand on: the two calls each driver provides, and a game row read and written.

A driver offers ``_fetch`` (the rows a statement returns) and ``_execute`` (how many rows it changed), both taking a
statement written with ``?`` parameters (``storage.dialect``), each its own transaction, with the driver's errors
already mapped: busy to ``StorageBusy``, a unique key to ``Duplicate``, a database that can't be used to
``StorageUnavailable``.
"""

from __future__ import annotations

import json
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from typing import Any, Protocol

from storage.dialect import Dialect
from storage.records import GameRecord, Result


class Row(Protocol):
    """A result row by column name or position (sqlite3.Row, asyncpg.Record)."""

    def __getitem__(self, key: str | int, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...


class Database(ABC):
    """The two calls every shared statement goes through."""

    dialect: Dialect

    @abstractmethod
    async def _fetch(self, statement: str, *args: Any) -> list[Row]:
        """The rows of one statement (a query, or a write with RETURNING), committed on return."""

    @abstractmethod
    async def _execute(self, statement: str, *args: Any) -> int:
        """Run one write, committed on return; the number of rows it changed."""


# The first words of a statement that changes rows; anything else (SELECT, WITH ... SELECT) only reads.
_WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


def writes(statement: str) -> bool:
    """Whether ``statement`` changes rows: a driver sends reads and writes down separate paths, so a read never
    queues behind a write that waits for another writer's lock."""
    return statement.lstrip()[:7].upper().startswith(_WRITES)


def dump(value: Any) -> str | None:
    return None if value is None else json.dumps(value, separators=(",", ":"))


def dump_result(result: Result | None) -> str | None:
    return None if result is None else dump(result.dump())


# A game row as ``record`` reads it, with the length of its move log.
COLUMNS = (
    "id, channel_id, guild_id, kind, host_id, players, variants, seed, rules_version, status, revision, options, "
    "message_id, result, damaged, hinted, created_at, started_at, ended_at, "
    "(SELECT COALESCE(MAX(m.seq), 0) FROM moves m WHERE m.game_id = games.id) AS move_count"
)
SELECT = f"SELECT {COLUMNS} FROM games"

# Columns update_game may change, and how each is written.
WRITABLE: dict[str, Callable[[Any], Any]] = {
    "host_id": lambda v: v,
    "players": lambda v: dump(list(v)),
    "variants": lambda v: dump(list(v)),
    "status": lambda v: v,
    "options": lambda v: dump(dict(v)),
    "message_id": lambda v: v,
    "result": dump_result,
    "started_at": lambda v: v,
    "ended_at": lambda v: v,
}


def shared_strings(options: object) -> object:
    """A row's options with one copy of each key and text value across games (JSON gives every row its own)."""
    if not isinstance(options, dict):
        return options
    return {sys.intern(key): sys.intern(value) if isinstance(value, str) else value for key, value in options.items()}


def record(row: Row) -> GameRecord:
    """A game row read with ``COLUMNS``; JSON that can't be read marks the game damaged instead of failing."""
    damaged = row["damaged"]
    try:
        players = tuple(int(p) for p in json.loads(row["players"]))
        variants = tuple(str(v) for v in json.loads(row["variants"]))
        options = shared_strings(json.loads(row["options"]))
        result = None if row["result"] is None else Result.load(json.loads(row["result"]))
    except (ValueError, TypeError):
        players, variants, options, result = (), (), {}, None
        damaged = damaged or "its players or options could not be read"
    return GameRecord(
        id=row["id"],
        channel_id=row["channel_id"],
        guild_id=row["guild_id"],
        kind=sys.intern(row["kind"]),  # a handful of values, one copy each in every game kept in memory
        host_id=row["host_id"],
        players=players,
        variants=variants,
        seed=row["seed"],
        rules_version=row["rules_version"],
        status=sys.intern(row["status"]),
        revision=row["revision"],
        moves=row["move_count"],
        options=options if isinstance(options, dict) else {},
        message_id=row["message_id"],
        result=result,
        damaged=damaged,
        hinted=bool(row["hinted"]),
        created_at=row["created_at"],
        started_at=row["started_at"],
        ended_at=row["ended_at"],
    )
