"""Where games are kept: the records, the one small interface every database driver fulfils, and its errors.

A game is a row (its setup, lobby and status) plus an append-only log of moves, one row per accepted action, unique
by ``(game, seq)``. Appending move ``seq`` fails if another writer appended it first: that unique key is the
compare-and-swap that keeps two processes (or two racing clicks) from both acting at the same position. Changes to a
game's row are compare-and-swap on its ``revision``. Storage keeps SQL only: no locks, caches, rules or rendering.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

OPEN_STATUSES = ("lobby", "running")
STATUSES = ("lobby", "running", "finished", "abandoned")


class StorageError(Exception):
    """Base of the errors a driver raises on purpose."""


class ChannelBusy(StorageError):
    """Another open game (a lobby or a running game) already holds the channel."""


class Conflict(StorageError):
    """Somebody else changed the game row first: re-read it and decide again."""


class StorageBusy(StorageError):
    """The database stayed locked by another writer for longer than we wait; nothing was written."""


class StorageUnavailable(StorageError):
    """The database cannot be opened or written at all; the message says what the owner can do."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game at one channel, from lobby to result: everything but its moves."""

    id: int
    channel_id: int
    guild_id: int
    kind: str
    host_id: int | None
    players: tuple[int, ...]
    variants: tuple[str, ...]
    seed: int
    rules_version: int
    status: str  # one of STATUSES
    revision: int  # raised by every change to the row
    moves: int  # length of the move log
    options: Mapping[str, Any] = field(default_factory=dict)  # lobby options beyond the rules (bots, clock, ...)
    message_id: int | None = None  # the board or lobby message with live buttons
    result: Mapping[str, Any] | None = None
    damaged: str | None = None  # why the row cannot be played (unreadable data); None when sound
    created_at: str = ""
    started_at: str | None = None
    ended_at: str | None = None

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES


@dataclass(frozen=True, slots=True)
class NewGame:
    """What a lobby is opened with."""

    channel_id: int
    guild_id: int
    kind: str
    host_id: int
    players: tuple[int, ...]
    variants: tuple[str, ...]
    seed: int
    rules_version: int
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class LoggedMove:
    seq: int  # 1 for the first move
    player: int
    action: Any  # the game's own JSON encoding
    auto: bool = False  # made for the player by the turn clock (autopilot), not by the player


@dataclass(frozen=True, slots=True)
class Timer:
    """A running game's turn clock: ``player`` must act before ``due_at`` (Unix seconds) or the autopilot plays for
    them; ``remind_at`` (None once sent) is when they are reminded. ``seq`` is the log length when the clock started,
    so a timer of a turn already played can never fire."""

    game_id: int
    seq: int
    player: int
    remind_at: float | None
    due_at: float


@dataclass(frozen=True, slots=True)
class Ending:
    """Written together with the move that ends a game."""

    status: str  # "finished" or "abandoned"
    result: Mapping[str, Any] | None


class Storage(Protocol):
    """The interface a driver offers (SQLite here; another database later). Every write is committed on return."""

    async def close(self) -> None: ...

    async def open_game(self, channel_id: int) -> GameRecord | None:
        """The lobby or running game in the channel, if any."""
        ...

    async def game(self, game_id: int) -> GameRecord | None: ...

    async def open_games(self) -> list[GameRecord]:
        """Every lobby and running game, oldest first."""
        ...

    async def channel_games(self, channel_id: int, limit: int = 20) -> list[GameRecord]:
        """The channel's games, newest first."""
        ...

    async def create_game(self, game: NewGame) -> GameRecord:
        """Open a lobby; raises ChannelBusy if the channel already has an open game."""
        ...

    async def update_game(self, game: GameRecord, **changes: Any) -> GameRecord:
        """Change the row if nobody else changed it since ``game`` was read; raises Conflict otherwise."""
        ...

    async def set_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the message that shows the game (its lobby or board). Presentation only: the last writer wins."""
        ...

    async def moves(self, game_id: int, after: int = 0) -> list[LoggedMove]:
        """The log from move ``after + 1`` on, in order."""
        ...

    async def append_move(
        self, game_id: int, seq: int, player: int, action: Any, ending: Ending | None = None, auto: bool = False
    ) -> bool:
        """Append move ``seq`` of a running game (with its ending, atomically). False when ``seq`` is taken or the
        game no longer runs: somebody else was first. ``auto``: the autopilot made it for the player."""
        ...

    async def set_timer(self, timer: Timer) -> None:
        """Start (or restart) the game's turn clock."""
        ...

    async def clear_timer(self, game_id: int) -> None: ...

    async def timers(self) -> list[Timer]:
        """Every running clock (read once at start; a passed deadline is acted on at once)."""
        ...

    async def claim_timer(self, game_id: int, seq: int, reminder: bool) -> bool:
        """Take the reminder (or the deadline) of the clock started at ``seq``; True for exactly one claimant, so a
        clock fires once however many processes watch it."""
        ...

    async def get_meta(self, key: str) -> str | None: ...
    async def set_meta(self, key: str, value: str) -> None: ...
    async def dm_channel(self, user_id: int) -> int | None: ...
    async def set_dm_channel(self, user_id: int, channel_id: int) -> None: ...

    async def private_messages(self, game_id: int) -> dict[int, tuple[int | None, str]]:
        """Per player of the game: the DM that last showed their private view, and the text it showed."""
        ...

    async def set_private_message(self, game_id: int, user_id: int, message_id: int | None, text: str) -> None: ...


async def open_storage(database_path: str, database_url: str | None = None) -> Storage:
    """The database the settings name: PostgreSQL when ``database_url`` is given (several processes may share it),
    else the SQLite file at ``database_path`` (one process, the default)."""
    if database_url:
        from storage.postgres import PostgresStorage

        return await PostgresStorage.open(database_url)
    from storage.sqlite import SQLiteStorage

    return await SQLiteStorage.open(database_path)
