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
class Result:
    """A finished game's figures kept for the statistics, in the one convention every game shares: a cooperative
    game's ``won`` and ``score`` (the team's), a competitive one's ``winner`` and ``scores`` (per player); ``figures``
    are the game's own others (The Game's turns, No Thanks!'s tie break), kept as it gave them.

    Stored as one flat JSON object of these keys, the shape the database's own trigger (``storage.results``) reads and
    every older row has; ``load`` reads any of them, a key of the wrong type being absent."""

    won: bool | None = None  # None: not a team result
    score: int | None = None
    winner: int | None = None
    scores: Mapping[int, int] = field(default_factory=dict)
    figures: Mapping[str, Any] = field(default_factory=dict)

    @property
    def team(self) -> bool:
        """A cooperative game's result: won or lost together."""
        return self.won is not None

    def score_of(self, player: int | None) -> int | None:
        """The player's score: their own in a competitive game, the team's in a cooperative one."""
        own = self.scores.get(player) if player is not None else None
        return own if own is not None else self.score

    def dump(self) -> dict[str, Any]:
        values: dict[str, Any] = {"won": self.won, "score": self.score, "winner": self.winner}
        if self.scores:
            values["scores"] = {str(player): score for player, score in self.scores.items()}
        return {**self.figures, **{key: value for key, value in values.items() if value is not None}}

    @classmethod
    def load(cls, data: object) -> Result | None:
        """The result a row stored; None for none (SQL NULL, an empty or unreadable object)."""
        if not isinstance(data, Mapping) or not data:
            return None
        won, scores = data.get("won"), data.get("scores")
        return cls(
            won=won if isinstance(won, bool) else None,
            score=_number(data.get("score")),
            winner=_number(data.get("winner")),
            scores={
                player: score
                for key, value in (scores.items() if isinstance(scores, Mapping) else ())
                if (player := _number(key)) is not None and (score := _number(value)) is not None
            },
            figures={key: value for key, value in data.items() if key not in _RESULT_KEYS},
        )


_RESULT_KEYS = ("won", "score", "winner", "scores")


def _number(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.lstrip("-").isdigit():  # a JSON object's key
        return int(value)
    return None


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
    options: Mapping[str, Any] = field(default_factory=dict)  # as stored; table.options.TableOptions reads it typed
    message_id: int | None = None  # the board or lobby message with live buttons
    result: Result | None = None  # a finished game's figures (None: still open, abandoned, or none stored)
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
    result: Result | None


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
