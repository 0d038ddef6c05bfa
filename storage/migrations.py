"""The one migration history of both databases: numbered steps, each written once.

A step is a function of a ``Session``: the driver's connection inside the one transaction that takes a database from
the version it is at to the newest (so a failure half-way leaves the database as it was). Table definitions name
their few differing types through ``Dialect.ddl``; the results trigger is the one step written per dialect
(``storage.results``). Append-only: a released step is never changed, a change is a new step.

Each driver records the version in its own place (SQLite's ``user_version``, PostgreSQL's ``schema_version`` table)
and serialises two processes that start at once, so the second finds nothing left to do.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

from storage.dialect import Dialect
from storage.errors import StorageUnavailable
from storage.results import BACKFILL, TABLE, TRIGGER
from storage.rows import Row, dump

log = logging.getLogger(__name__)


class Session(Protocol):
    """A connection in the migrations' transaction; statements take ``?`` parameters, as everywhere."""

    dialect: Dialect

    async def run(self, statement: str) -> None:
        """Run a statement exactly as written (no parameters: DDL, trigger bodies)."""

    async def fetch(self, statement: str, *args: Any) -> list[Row]: ...

    async def execute(self, statement: str, *args: Any) -> None: ...

    async def executemany(self, statement: str, rows: Sequence[Sequence[Any]]) -> None: ...


async def script(db: Session, text: str) -> None:
    for statement in db.dialect.ddl(text):
        await db.run(statement)


async def _games(db: Session) -> None:
    """Version 1: games, one open game per channel, and the bot's small tables."""
    await script(
        db,
        """
        CREATE TABLE games (
            id          {id},
            channel_id  {bigint} NOT NULL,
            guild_id    {bigint} NOT NULL,
            kind        TEXT     NOT NULL,
            host_id     {bigint},
            players     {json}   NOT NULL,
            variants    {json}   NOT NULL,
            seed        {bigint} NOT NULL,
            status      TEXT     NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'abandoned')),
            state       {json},
            message_id  {bigint},
            result      {json},
            created_at  TEXT     NOT NULL,
            started_at  TEXT,
            ended_at    TEXT,
            updated_at  TEXT     NOT NULL
        );
        CREATE UNIQUE INDEX one_open_game_per_channel ON games (channel_id) WHERE status IN ('lobby', 'running');
        CREATE INDEX games_by_status ON games (status);
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE dm_channels (user_id {bigint} PRIMARY KEY, channel_id {bigint} NOT NULL)
        """,
    )


async def _move_log(db: Session) -> None:
    """Version 2: the move log becomes the truth. Each saved state's move list moves into ``moves``; a state that
    cannot be read marks its game damaged (reported in its channel) instead of stopping the migration."""
    await script(
        db,
        """
        CREATE TABLE moves (
            game_id     {bigint} NOT NULL REFERENCES games (id),
            seq         INTEGER  NOT NULL,
            player      {bigint} NOT NULL,
            action      {json}   NOT NULL,
            created_at  TEXT     NOT NULL,
            PRIMARY KEY (game_id, seq)
        ) {without_rowid};
        CREATE TABLE private_messages (
            game_id     {bigint} NOT NULL REFERENCES games (id),
            user_id     {bigint} NOT NULL,
            message_id  {bigint},
            text        TEXT     NOT NULL,
            PRIMARY KEY (game_id, user_id)
        ) {without_rowid};
        ALTER TABLE games ADD COLUMN rules_version INTEGER NOT NULL DEFAULT 1;
        ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE games ADD COLUMN options {json} NOT NULL DEFAULT '{{}}';
        ALTER TABLE games ADD COLUMN damaged TEXT;
        CREATE INDEX games_by_channel ON games (channel_id, id)
        """,
    )
    for game_id, state, created_at in await db.fetch("SELECT id, state, created_at FROM games WHERE state IS NOT NULL"):
        try:
            moves = json.loads(state)["moves"]
            entries = [(game_id, seq, int(raw[0]), dump(raw[1:]), created_at) for seq, raw in enumerate(moves, 1)]
        except (ValueError, TypeError, KeyError, IndexError):
            await db.execute("UPDATE games SET damaged = ? WHERE id = ?", "its saved moves could not be read", game_id)
            continue
        if entries:
            await db.executemany(
                "INSERT INTO moves (game_id, seq, player, action, created_at) VALUES (?, ?, ?, ?, ?)", entries
            )
    await db.run("ALTER TABLE games DROP COLUMN state")


async def _turn_clock(db: Session) -> None:
    """Version 3: the turn clock. Moves the autopilot made, and one clock per running game."""
    await script(
        db,
        """
        ALTER TABLE moves ADD COLUMN auto {bool} NOT NULL DEFAULT {false};
        CREATE TABLE timers (
            game_id     {bigint} PRIMARY KEY REFERENCES games (id),
            seq         INTEGER  NOT NULL,
            player      {bigint} NOT NULL,
            remind_at   {real},
            due_at      {real}   NOT NULL
        )
        """,
    )


async def _results(db: Session) -> None:
    """Version 4: statistics (issue 15). The results table, its trigger and indexes, and the results of every game
    that ended before."""
    await script(db, TABLE)
    for statement in TRIGGER[db.dialect.name]:
        await db.run(statement)
    await db.run(BACKFILL[db.dialect.name])


async def _guild_settings(db: Session) -> None:
    """Version 5: each server's own settings (issue 24), one JSON object per server, changed by compare-and-swap on
    its revision."""
    await script(
        db,
        """
        CREATE TABLE guild_settings (
            guild_id    {bigint} PRIMARY KEY,
            settings    {json}   NOT NULL,
            revision    INTEGER  NOT NULL,
            updated_at  TEXT     NOT NULL
        )
        """,
    )


async def _hints(db: Session) -> None:
    """Version 6: whether a person took a Hint in the game (issue 26), apart from the move log: such a game stays
    out of the leaderboards. Few games have it, so their index is small."""
    await script(
        db,
        """
        ALTER TABLE games ADD COLUMN hinted {bool} NOT NULL DEFAULT {false};
        CREATE INDEX games_hinted ON games (id) WHERE hinted
        """,
    )


async def _forgetting(db: Session) -> None:
    """Version 7: forgetting (issue 33). ``former_players``: each person who asked to be forgotten gets a number, and
    their seats carry ``FORMER_BASE + pseudonym`` from then on; ``user_id`` links the two only while a game they sat
    in before asking (its id at most ``up_to_game``) is still open (it is rewritten when it ends), and is cleared
    then. ``departed_guilds``: servers
    the bot was removed from, erased once their grace period is over unless the bot comes back first."""
    await script(
        db,
        """
        CREATE TABLE former_players (
            pseudonym     {id},
            user_id       {bigint},
            up_to_game    {bigint} NOT NULL,
            forgotten_at  TEXT NOT NULL
        );
        CREATE UNIQUE INDEX former_players_pending ON former_players (user_id) WHERE user_id IS NOT NULL;
        CREATE TABLE departed_guilds (
            guild_id    {bigint} PRIMARY KEY,
            removed_at  TEXT     NOT NULL
        );
        CREATE INDEX private_messages_by_user ON private_messages (user_id)
        """,
    )


STEPS: tuple[Callable[[Session], Awaitable[None]], ...] = (
    _games,
    _move_log,
    _turn_clock,
    _results,
    _guild_settings,
    _hints,
    _forgetting,
)
LATEST = len(STEPS)
# The release that brought each database schema, checked against pyproject's version by tests/test_versions.py: a
# new step needs a new release (a released line never changes). Each release's schema is the one it was shipped with.
RELEASES: dict[str, int] = {
    "0.2.0": 5,
    "0.3.0": 7,
}


def refuse_newer(version: int, where: str, setting: str) -> None:
    """Raise if the database was written by a newer bot: this one would misread it."""
    if version > LATEST:
        raise StorageUnavailable(
            f"The database {where} is at version {version}, newer than this bot knows ({LATEST}): update the bot, "
            f"or set {setting} to another database."
        )


async def upgrade(db: Session, version: int) -> int:
    """Apply the steps after ``version`` (the database's, read in the same transaction); returns the newest."""
    for number, step in enumerate(STEPS[version:], start=version + 1):
        await step(db)
        log.info("Database migrated to version %d", number)
    return LATEST
