"""The records storage hands out and takes in: a game's row, its moves, its clock, and the statistics' lines.

A game is a row (its setup, lobby and status) plus an append-only log of moves, one row per accepted action, unique
by ``(game, seq)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

OPEN_STATUSES = ("lobby", "running")
STATUSES = ("lobby", "running", "finished", "abandoned")


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
    hinted: bool = False  # a person took a Hint: the game stays out of the leaderboards
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


def now() -> str:
    """The time stamps storage writes: UTC, ISO 8601, to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")
