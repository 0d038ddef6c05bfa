"""Two bot processes' flows on one database file race for the same games: the log's unique key, not any lock in
memory, decides, so exactly one of two simultaneous moves at a position is made and both flows stay right."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from engine import no_thanks, the_game
from engine.errors import GameError
from storage import NewGame
from storage.sqlite import SQLiteStorage
from table.answer import UserError
from table.events import Events
from table.games import Games

CHANNEL = 10
PLAYERS = (1, 2, 3)


def tables(storage: SQLiteStorage) -> Games:
    return Games(storage, Events())  # no Discord and no listeners: play() only reads and appends


@pytest.fixture
async def pair(tmp_path: Path) -> AsyncIterator[tuple[Games, Games]]:
    path = str(tmp_path / "bot.sqlite3")
    first, second = await SQLiteStorage.open(path), await SQLiteStorage.open(path)
    yield tables(first), tables(second)
    await first.close()
    await second.close()


async def start(flow: Games, kind: str, seed: int) -> None:
    record = await flow.storage.create_game(
        NewGame(CHANNEL, 1, kind, PLAYERS[0], PLAYERS, (), seed=seed, rules_version=1)
    )
    await flow.storage.update_game(record, status="running", started_at="now")


async def attempt(flow: Games, player: int, action: Any) -> bool:
    try:
        await flow.play(CHANNEL, player, action)
    except (GameError, UserError):
        return False
    return True


async def test_two_flows_racing_on_no_thanks_apply_each_position_once(pair: tuple[Games, Games]) -> None:
    first, second = pair
    await start(first, "no_thanks", seed=11)
    rng = random.Random(3)
    while True:
        live, _ = await first.running(CHANNEL)
        state: no_thanks.State = live.state
        mover = no_thanks.current_player(state)
        assert mover is not None
        # Both processes get a click from the mover at the same moment, each for its own idea of the move.
        one = no_thanks.NoThanks() if no_thanks.chips(state, mover) and rng.random() < 0.6 else no_thanks.Take()
        other = no_thanks.Take() if isinstance(one, no_thanks.NoThanks) else one
        won = await asyncio.gather(attempt(first, mover, one), attempt(second, mover, other))
        # The loser decided again on the newer position: a second Take by the same player is a real move then
        # (the taker moves again), anything else by a player no longer to move is refused.
        assert sum(won) >= 1
        record = await first.storage.open_game(CHANNEL)
        if record is None:
            break
        assert record.moves == state.move_count + sum(won)
    finished = (await first.storage.channel_games(CHANNEL))[0]
    assert finished.status == "finished"
    seqs = [m.seq for m in await second.storage.moves(finished.id)]
    assert seqs == list(range(1, len(seqs) + 1))


async def test_two_flows_racing_on_the_game_keep_one_log_and_agree(pair: tuple[Games, Games]) -> None:
    first, second = pair
    await start(first, "the_game", seed=5)
    rng = random.Random(8)
    for _ in range(60):
        open_record = await second.storage.open_game(CHANNEL)
        if open_record is None:
            break
        state: the_game.State = (await second.live(open_record)).state
        mover = the_game.current_player(state) or PLAYERS[0]
        plays = [a for a in the_game.legal_actions(state, mover) if isinstance(a, the_game.Play)]
        if not plays:
            await attempt(first, mover, the_game.EndTurn())
            continue
        # The same card from both processes: only one can lay it.
        action = rng.choice(plays)
        won = await asyncio.gather(attempt(first, mover, action), attempt(second, mover, action))
        assert sorted(won) == [False, True]
        if state.laid + 1 >= state.minimum and rng.random() < 0.5:
            await attempt(second, mover, the_game.EndTurn())
    record = (await first.storage.channel_games(CHANNEL))[0]
    one, _ = await first.running(CHANNEL) if record.is_open else (None, None)
    two, _ = await second.running(CHANNEL) if record.is_open else (None, None)
    if one is not None and two is not None:
        assert one.state == two.state
    seqs = [m.seq for m in await first.storage.moves(record.id)]
    assert seqs == list(range(1, len(seqs) + 1))
