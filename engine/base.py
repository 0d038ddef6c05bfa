"""What every game's rules module shares: its description and the checks used to load saved states."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from engine.errors import CorruptState, IllegalAction, NotAPlayer

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class GameInfo:
    """How the lobby presents and sets up a game; ``kind`` is the one identifier used everywhere."""

    kind: str
    title: str
    min_players: int
    max_players: int
    variants: tuple[str, ...]


def require(condition: bool, problem: str) -> None:
    """Raise ``CorruptState`` unless ``condition`` holds; ``problem`` says what is wrong with the data."""
    if not condition:
        raise CorruptState(f"The saved game is damaged ({problem}).")


def field(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    """Return ``data[key]`` after checking it exists and has the expected JSON type (bool is not an int)."""
    require(key in data, f"missing {key!r}")
    value = data[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if bool not in kinds:
        require(not isinstance(value, bool), f"{key!r} has the wrong type")
    require(isinstance(value, kinds), f"{key!r} has the wrong type")
    return value


def int_list(data: Mapping[str, Any], key: str) -> tuple[int, ...]:
    """Return a list of ints stored under ``key`` as a tuple."""
    values = field(data, key, list)
    require(all(isinstance(v, int) and not isinstance(v, bool) for v in values), f"{key!r} must hold integers")
    return tuple(values)


def check_version(data: Mapping[str, Any], kind: str, version: int) -> None:
    """Check the dict is a saved state of this game kind in a format version we can read."""
    require(isinstance(data, Mapping), "not a mapping")
    require(data.get("kind") == kind, f"not a {kind} state")
    require(data.get("v") == version, f"unknown format version {data.get('v')!r}")


def is_int(value: Any) -> bool:
    """A JSON integer (``True`` is an int to Python, never to us)."""
    return isinstance(value, int) and not isinstance(value, bool)


def seating(info: GameInfo, players: Sequence[int]) -> tuple[int, ...]:
    """The seats of a new game, in order; refuses a table the game cannot be played at."""
    seats = tuple(players)
    if not info.min_players <= len(seats) <= info.max_players:
        raise IllegalAction(f"{info.title} is for {info.min_players} to {info.max_players} players, not {len(seats)}.")
    if len(set(seats)) != len(seats):
        raise IllegalAction("Each player can take only one seat.")
    return seats


def seat_of(players: tuple[int, ...], player: int) -> int:
    if player not in players:
        raise NotAPlayer("You're not playing in this game.")
    return players.index(player)


def replace_at(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*items[:index], value, *items[index + 1 :])


def load_seating(data: Mapping[str, Any], info: GameInfo) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """The saved players and which of them left, checked."""
    players = int_list(data, "players")
    require(info.min_players <= len(players) <= info.max_players, "wrong number of players")
    require(len(set(players)) == len(players), "a player has two seats")
    left = field(data, "left", list)
    require(len(left) == len(players) and all(isinstance(gone, bool) for gone in left), "'left' is malformed")
    return players, tuple(left)
