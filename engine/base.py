"""What every game's rules module shares: its description and the checks used to load saved states."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import CorruptState


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
