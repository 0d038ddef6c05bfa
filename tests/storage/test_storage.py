"""The storage interface against a real database: migrations, one open game per channel, the move log as a
compare-and-swap, row changes as compare-and-swap, durability. Written against ``storage.Storage`` so that every
driver runs the same tests (the ``storage`` fixture says which)."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from engine.game import Setup, decode_moves, replay
from storage import ChannelBusy, Conflict, Ending, NewGame, Result, Storage, StorageBusy, StorageUnavailable, Timer
from storage.migrations import LATEST
from storage.sqlite import SQLiteStorage
from table.registry import GAMES
from tests.storage.conftest import Backend

FIXTURES = Path(__file__).parent


def lobby(channel_id: int = 10, kind: str = "the_game", players: tuple[int, ...] = (7,)) -> NewGame:
    return NewGame(
        channel_id=channel_id,
        guild_id=1,
        kind=kind,
        host_id=players[0],
        players=players,
        variants=(),
        seed=42,
        rules_version=1,
    )


async def running(storage: Storage, channel_id: int = 10) -> int:
    record = await storage.create_game(lobby(channel_id))
    started = await storage.update_game(record, status="running", started_at="now")
    return started.id


async def test_open_creates_the_folder_and_migrates(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "bot.sqlite3"
    storage = await SQLiteStorage.open(str(path))
    await storage.close()
    assert path.exists()
    async with aiosqlite.connect(path) as db, db.execute("PRAGMA user_version") as cursor:
        assert (await cursor.fetchone())[0] == LATEST  # type: ignore[index]
    async with aiosqlite.connect(path) as db, db.execute("PRAGMA journal_mode") as cursor:
        assert (await cursor.fetchone())[0] == "wal"  # type: ignore[index]


async def test_opening_migrates_to_the_newest_version(backend: Backend) -> None:
    storage = await backend.open()
    await storage.close()
    assert await backend.version() == backend.migrations


async def test_migrating_twice_is_a_no_op(backend: Backend) -> None:
    first = await backend.open()
    created = await first.create_game(lobby())
    await first.close()
    second = await backend.open()
    assert await second.migrate() == backend.migrations  # type: ignore[attr-defined]
    assert await second.open_game(10) == created
    await second.close()


async def test_two_processes_starting_at_once_migrate_once(backend: Backend) -> None:
    first, second = await asyncio.gather(backend.open(), backend.open())
    try:
        assert await backend.version() == backend.migrations
        created = await first.create_game(lobby())
        assert await second.open_game(10) == created
    finally:
        await first.close()
        await second.close()


async def test_a_newer_database_is_refused_with_what_to_do(backend: Backend) -> None:
    await backend.set_version(backend.migrations + 1)
    with pytest.raises(StorageUnavailable, match="newer than this bot knows") as caught:
        await backend.open()
    message = str(caught.value)
    assert "\n" not in message
    assert ("DATABASE_PATH" if backend.name == "sqlite" else "DATABASE_URL") in message
    assert await backend.version() == backend.migrations + 1  # left as it was


async def test_an_unopenable_path_is_named(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(StorageUnavailable, match=str(blocker / "bot.sqlite3")):
        await SQLiteStorage.open(str(blocker / "bot.sqlite3"))


async def test_one_open_game_per_channel(storage: Storage) -> None:
    await storage.create_game(lobby())
    with pytest.raises(ChannelBusy):
        await storage.create_game(lobby(kind="no_thanks"))
    await storage.create_game(lobby(channel_id=11))  # another channel is independent


async def test_a_game_ends_and_frees_the_channel(storage: Storage) -> None:
    game_id = await running(storage)
    assert await storage.append_move(game_id, 1, 7, ["end"], Ending("finished", Result(score=3)))
    assert await storage.open_game(10) is None
    ended = await storage.game(game_id)
    assert ended is not None
    assert (ended.status, ended.result, ended.moves) == ("finished", Result(score=3), 1)
    assert ended.ended_at
    again = await storage.create_game(lobby())
    assert [g.id for g in await storage.channel_games(10)] == [again.id, game_id]  # newest first


async def test_row_changes_are_compare_and_swap(storage: Storage) -> None:
    record = await storage.create_game(lobby())
    joined = await storage.update_game(record, players=(7, 8))
    assert joined.players == (7, 8)
    assert joined.revision == record.revision + 1
    with pytest.raises(Conflict):
        await storage.update_game(record, players=(7, 9))  # read before the join: refused
    assert (await storage.open_game(10)).players == (7, 8)  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="cannot change"):
        await storage.update_game(joined, seed=1)


async def test_the_move_log_appends_in_order_and_refuses_a_taken_seq(storage: Storage) -> None:
    game_id = await running(storage)
    assert await storage.append_move(game_id, 1, 7, ["play", 50, "A"])
    assert not await storage.append_move(game_id, 1, 7, ["play", 60, "A"])  # somebody else was first
    assert await storage.append_move(game_id, 2, 7, ["end"])
    assert [(m.seq, m.player, m.action) for m in await storage.moves(game_id)] == [
        (1, 7, ["play", 50, "A"]),
        (2, 7, ["end"]),
    ]
    assert [m.seq for m in await storage.moves(game_id, after=1)] == [2]
    assert (await storage.game(game_id)).moves == 2  # type: ignore[union-attr]


async def test_no_move_is_appended_to_a_game_that_does_not_run(storage: Storage) -> None:
    record = await storage.create_game(lobby())
    assert not await storage.append_move(record.id, 1, 7, ["end"])  # still a lobby
    game_id = await running(storage, channel_id=11)
    assert await storage.append_move(game_id, 1, 7, ["leave"], Ending("abandoned", None))
    assert not await storage.append_move(game_id, 2, 7, ["end"])  # over
    assert (await storage.game(game_id)).moves == 1  # type: ignore[union-attr]


async def test_two_connections_racing_for_one_seq_never_both_win(backend: Backend) -> None:
    first, second = await backend.open(), await backend.open()
    try:
        game_id = await running(first)
        for seq in range(1, 41):
            results = await asyncio.gather(
                first.append_move(game_id, seq, 1, ["take"]), second.append_move(game_id, seq, 2, ["take"])
            )
            assert sorted(results) == [False, True], (seq, results)
        assert [m.seq for m in await second.moves(game_id)] == list(range(1, 41))
    finally:
        await first.close()
        await second.close()


async def test_a_move_racing_an_ending_never_lands_after_it(backend: Backend) -> None:
    """The move that ends a game and another writer's move at the same position: one wins, and no move is ever
    logged after the ending."""
    first, second = await backend.open(), await backend.open()
    try:
        for channel in range(20, 40):
            game_id = await running(first, channel_id=channel)
            ending = first.append_move(game_id, 1, 1, ["leave"], Ending("abandoned", None))
            results = await asyncio.gather(ending, second.append_move(game_id, 1, 2, ["take"]))
            assert sorted(results) == [False, True], (channel, results)
            assert not await second.append_move(game_id, 2, 2, ["take"]) or results[1]
            record = await second.game(game_id)
            assert record is not None
            assert (record.status, record.moves) == (("abandoned", 1) if results[0] else ("running", 2))
    finally:
        await first.close()
        await second.close()


async def test_the_game_row_and_an_ending_race_by_revision(backend: Backend) -> None:
    """A row change made from a stale read after the game ended is refused (Conflict), whoever wrote first."""
    first, second = await backend.open(), await backend.open()
    try:
        game_id = await running(first)
        stale = await second.game(game_id)
        assert stale is not None
        assert await first.append_move(game_id, 1, 1, ["leave"], Ending("abandoned", None))
        with pytest.raises(Conflict):
            await second.update_game(stale, status="abandoned", ended_at="later")
    finally:
        await first.close()
        await second.close()


async def test_private_messages_and_small_things_round_trip(storage: Storage) -> None:
    game_id = await running(storage)
    await storage.set_message(game_id, 555)
    assert (await storage.game(game_id)).message_id == 555  # type: ignore[union-attr]
    assert await storage.private_messages(game_id) == {}
    await storage.set_private_message(game_id, 7, None, "Your hand: 3")
    await storage.set_private_message(game_id, 7, 70, "Your hand: 3, 4")
    assert await storage.private_messages(game_id) == {7: (70, "Your hand: 3, 4")}
    assert await storage.get_meta("command_hash") is None
    await storage.set_meta("command_hash", "abc")
    await storage.set_meta("command_hash", "def")
    assert await storage.get_meta("command_hash") == "def"
    synced = json.dumps({"guild": None, "commands": "0f" * 32, "application": 1234567890123456789})
    await storage.set_meta("command_sync", synced)  # bot.py's record of where the commands were last synced
    assert await storage.get_meta("command_sync") == synced
    await storage.set_dm_channel(7, 70)
    await storage.set_dm_channel(7, 71)
    assert await storage.dm_channel(7) == 71


async def test_a_damaged_row_is_flagged_not_fatal(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    storage = await SQLiteStorage.open(str(path))
    game_id = await running(storage)
    await running(storage, channel_id=11)
    await storage.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET players = '[not json' WHERE id = ?", (game_id,))
    storage = await SQLiteStorage.open(str(path))
    try:
        records = {r.channel_id: r for r in await storage.open_games()}
        assert records[10].damaged == "its players or options could not be read"
        assert records[11].damaged is None
    finally:
        await storage.close()


async def test_a_failed_transaction_leaves_the_connection_usable(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    storage = await SQLiteStorage.open(str(path))
    try:
        game_id = await running(storage)
        with sqlite3.connect(path, timeout=0, isolation_level=None) as other:
            other.execute("BEGIN IMMEDIATE")  # another process holds the write lock for longer than we wait
            with pytest.raises(StorageBusy):
                await storage.append_move(game_id, 1, 7, ["end"], Ending("finished", Result()))
            other.execute("ROLLBACK")
        assert await storage.append_move(game_id, 1, 7, ["end"], Ending("finished", Result()))
    finally:
        await storage.close()


async def test_a_database_written_before_the_move_log_carries_over(tmp_path: Path) -> None:
    """tests/storage/v1.sqlite3 was written by the bot of schema version 1 (tools/gen_v1_database.py)."""
    path = tmp_path / "bot.sqlite3"
    shutil.copy(FIXTURES / "v1.sqlite3", path)
    expected = json.loads((FIXTURES / "v1.json").read_text())
    storage = await SQLiteStorage.open(str(path))
    try:
        records = {r.channel_id: r for r in await storage.open_games()}
        assert {c: r.status for c, r in records.items()} == {1: "running", 3: "lobby", 4: "running"}
        assert records[4].damaged == "its saved moves could not be read"
        running_game = records[1]
        assert not running_game.hinted  # no game before the Hint button had one
        await storage.mark_hinted(running_game.id, running_game.players[0])
        marked = await storage.game(running_game.id)
        assert marked is not None
        assert marked.hinted
        assert running_game.moves == expected["1"]["moves"]
        state = await _replayed(storage, running_game.id)
        assert [list(h) for h in state.hands] == expected["1"]["hands"]
        assert [list(p) for p in state.piles] == expected["1"]["piles"]
        finished = (await storage.channel_games(2))[0]
        assert finished.status == "finished"
        assert finished.result is not None
        assert finished.result.winner is not None
        state = await _replayed(storage, finished.id)
        assert [list(h) for h in state.hands] == expected["2"]["hands"]
        assert list(state.chips) == expected["2"]["chips"]
        assert finished.moves == expected["2"]["moves"]
    finally:
        await storage.close()


async def _replayed(storage: Storage, game_id: int) -> Any:
    record = await storage.game(game_id)
    assert record is not None
    game = GAMES[record.kind]
    moves = decode_moves(game, [(m.player, m.action) for m in await storage.moves(game_id)])
    return replay(game, Setup(record.players, record.seed, frozenset(record.variants), record.rules_version), moves)


async def test_a_clock_is_claimed_once_across_processes_and_stops_with_the_game(backend: Backend) -> None:
    first, second = await backend.open(), await backend.open()
    try:
        game_id = await running(first)
        assert await first.append_move(game_id, 1, 7, ["take"], auto=True)
        assert [m.auto for m in await second.moves(game_id)] == [True]
        await first.set_timer(Timer(game_id, 1, 7, remind_at=10.0, due_at=20.0))
        assert await second.timers() == [Timer(game_id, 1, 7, 10.0, 20.0)]
        for reminder in (True, False):
            claims = await asyncio.gather(
                *(storage.claim_timer(game_id, 1, reminder) for storage in (first, second, first, second))
            )
            assert sorted(claims) == [False, False, False, True], (reminder, claims)
        assert not await first.claim_timer(game_id, 0, reminder=False)  # a clock of a turn already played
        await first.set_timer(Timer(game_id, 2, 7, remind_at=None, due_at=30.0))
        assert await first.append_move(game_id, 2, 7, ["leave"], Ending("abandoned", None))
        assert await second.timers() == []  # the ending stopped the clock
    finally:
        await first.close()
        await second.close()
