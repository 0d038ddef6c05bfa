"""The core without Discord: a real SQLite file, the real presenters, no client (the parts under test send nothing)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import GameRecord, NewGame
from storage.sqlite import SQLiteStorage
from table.events import Events
from table.games import Games
from table.transition import Transition

CHANNEL = 10
PLAYERS = (1, 2, 3)


class Heard:
    """A listener that keeps every Transition it is told of."""

    def __init__(self) -> None:
        self.moves: list[Transition] = []

    async def __call__(self, moved: Transition) -> None:
        self.moves.append(moved)


def core(storage: SQLiteStorage) -> tuple[Games, Heard]:
    heard = Heard()
    events = Events()
    events.subscribe("test", heard)
    games = Games(storage, events)
    return games, heard


async def running(games: Games, kind: str = "no_thanks", seed: int = 11) -> GameRecord:
    record = await games.storage.create_game(
        NewGame(CHANNEL, 1, kind, PLAYERS[0], PLAYERS, (), seed=seed, rules_version=1)
    )
    return await games.storage.update_game(record, status="running", started_at="now")


@pytest.fixture
async def path(tmp_path: Path) -> Path:
    return tmp_path / "bot.sqlite3"


@pytest.fixture
async def storage(path: Path) -> AsyncIterator[SQLiteStorage]:
    opened = await SQLiteStorage.open(str(path))
    yield opened
    await opened.close()
