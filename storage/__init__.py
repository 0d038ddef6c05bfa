"""Where games are kept: the records, the one small interface every database driver fulfils, and its errors.

A game is a row (its setup, lobby and status) plus an append-only log of moves, one row per accepted action, unique
by ``(game, seq)``. Appending move ``seq`` fails if another writer appended it first: that unique key is the
compare-and-swap that keeps two processes (or two racing clicks) from both acting at the same position. Changes to a
game's row are compare-and-swap on its ``revision``. Storage keeps SQL only: no locks, caches, rules or rendering.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
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


@dataclass(frozen=True, slots=True)
class Tally:
    """A player's ended games of one kind, table size, variant and company, counted. Lower scores are better in
    every game (The Game: cards left; No Thanks!: points); ``won`` is a team win or a first place."""

    kind: str
    seats: int  # players at the table, computer players included
    variants: tuple[str, ...]
    mixed: bool  # computer players sat at the table, or the autopilot played a turn
    played: int  # finished games (abandoned ones are counted apart)
    won: int
    abandoned: int
    best: int | None
    mean: float | None


@dataclass(frozen=True, slots=True)
class Streak:
    """Wins in a row in one kind of game, in the order the games were opened; an abandoned game ends a streak."""

    kind: str
    mixed: bool
    current: int
    best: int


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of a leaderboard: a team (its people, in id order) or a single player, over finished games."""

    players: tuple[int, ...]
    mixed: bool
    games: int
    won: int
    best: int | None
    mean: float | None


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One ended game of a player, for their results over time."""

    game_id: int
    kind: str
    won: bool
    score: int | None  # None: abandoned, no score
    mixed: bool
    team: tuple[int, ...]  # the game's people, in id order


@dataclass(frozen=True, slots=True)
class EndedGame:
    """A game that was dealt and is over (finished or abandoned), for the history."""

    record: GameRecord
    mixed: bool  # computer players sat at the table, or the autopilot played a turn


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

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """The server's settings as saved (``{}`` for a server that never changed any)."""
        ...

    async def update_guild_settings(
        self, guild_id: int, change: Callable[[dict[str, Any]], dict[str, Any]]
    ) -> dict[str, Any]:
        """Save ``change(current)`` as the server's settings, atomically against other changes; returns it."""
        ...

    async def get_meta(self, key: str) -> str | None: ...
    async def set_meta(self, key: str, value: str) -> None: ...
    async def dm_channel(self, user_id: int) -> int | None: ...
    async def set_dm_channel(self, user_id: int, channel_id: int) -> None: ...

    async def private_messages(self, game_id: int) -> dict[int, tuple[int | None, str]]:
        """Per player of the game: the DM that last showed their private view, and the text it showed."""
        ...

    async def set_private_message(self, game_id: int, user_id: int, message_id: int | None, text: str) -> None: ...

    # ---- statistics (issue 15): per-player results of ended games, kept by the database itself -----------------

    async def player_tallies(self, guild_id: int, player: int) -> list[Tally]:
        """The player's ended games on the server, one ``Tally`` per kind, table size, variant and company."""
        ...

    async def player_streaks(self, guild_id: int, player: int) -> list[Streak]:
        """The player's current and best winning streak per kind (people-only games apart from mixed ones)."""
        ...

    async def player_teams(self, guild_id: int, player: int, kind: str, limit: int = 5) -> list[Standing]:
        """The teams the player played ``kind`` in (team games), most games first."""
        ...

    async def player_results(self, guild_id: int, player: int, limit: int = 60) -> list[PlayerResult]:
        """The player's last ``limit`` ended games on the server, oldest first."""
        ...

    async def leaderboard(
        self,
        guild_id: int,
        kind: str,
        *,
        teams: bool,
        mixed: bool,
        seats: int | None = None,
        variant: str | None = None,
        minimum: int = 1,
        limit: int = 10,
        offset: int = 0,
    ) -> tuple[list[Standing], int]:
        """The server's best teams (``teams``: one line per set of people) or players at ``kind``: most wins, then
        the lowest mean score, among those with at least ``minimum`` finished games; people-only games or (``mixed``)
        those with computer players or autopilot turns. ``seats`` keeps one table size; ``variant`` keeps games
        with that variant ("" for standard rules only). Returns one page and the number of lines in all."""
        ...

    async def ended_games(
        self, guild_id: int, channel_id: int | None = None, limit: int = 10, offset: int = 0
    ) -> list[EndedGame]:
        """The server's (or one channel's) dealt games that are over, newest first."""
        ...

    async def set_daily_deal(self, game: GameRecord, seed: int, day: str) -> GameRecord:
        """Deal the lobby ``game`` from the daily deal of ``day`` (ISO date): its seed, and the date in its options.
        The only way a seed changes, and only in a lobby; raises Conflict if the row changed since it was read."""
        ...

    async def daily_games(self, guild_id: int, day: str) -> list[GameRecord]:
        """Each table's first ended try at the daily deal of ``day`` (ISO date) on the server: the first game per
        channel, kind and table size; in order of their end."""
        ...


async def open_storage(database_path: str, database_url: str | None = None) -> Storage:
    """The database the settings name: PostgreSQL when ``database_url`` is given (several processes may share it),
    else the SQLite file at ``database_path`` (one process, the default)."""
    if database_url:
        from storage.postgres import PostgresStorage

        return await PostgresStorage.open(database_url)
    from storage.sqlite import SQLiteStorage

    return await SQLiteStorage.open(database_path)
