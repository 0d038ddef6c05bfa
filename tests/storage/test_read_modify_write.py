"""Read, compute, write by compare-and-swap, and again from a fresh read when another writer came first: a game's row
(``modify_game``) and a server's settings (``update_guild_settings``), on every driver. The races are made certain,
not hoped for: both writers read the same revision before either writes."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from storage import Conflict, GameRecord, NewGame, Storage
from tests.storage.conftest import Backend


def lobby(channel_id: int = 10) -> NewGame:
    return NewGame(channel_id, 1, "the_game", 7, (7,), (), seed=42, rules_version=1, options={"turn_time": 60})


def add_option(key: str, value: Any, seen: list[int]) -> Callable[[GameRecord], dict[str, Any]]:
    """A change that adds one option to the options of the row it is given (noting the revision it saw)."""

    def change(record: GameRecord) -> dict[str, Any]:
        seen.append(record.revision)
        return {"options": {**record.options, key: value}}

    return change


def both_read_first(method: str, *storages: Storage) -> None:
    """Make the first two reads (``<storage>.<method>``, over the given connections) return only once both have read:
    the two writers that follow start from the same revision, so one of them must lose the compare-and-swap."""
    barrier = asyncio.Barrier(2)
    reads = 0

    def patch(storage: Storage) -> None:
        read: Callable[..., Awaitable[Any]] = getattr(storage, method)

        async def together(*args: Any) -> Any:
            nonlocal reads
            reads += 1
            result = await read(*args)
            if reads <= 2:
                async with asyncio.timeout(10):  # a failure, not a hang, if the second read never comes
                    await barrier.wait()
            return result

        setattr(storage, method, together)

    for storage in storages:
        patch(storage)


async def test_two_simultaneous_changes_both_survive(backend: Backend) -> None:
    first, second = await backend.open(), await backend.open()
    try:
        game_id = (await first.create_game(lobby())).id
        both_read_first("game", first, second)
        seen_bots: list[int] = []
        seen_clock: list[int] = []
        bots, clock = await asyncio.gather(
            first.modify_game(game_id, add_option("bots", 1, seen_bots)),
            second.modify_game(game_id, add_option("clock", "away", seen_clock)),
        )
        assert sorted([seen_bots, seen_clock], key=len) == [[0], [0, 1]]  # one lost, read again, recomputed
        final = await first.game(game_id)
        assert final is not None
        assert final.options == {"turn_time": 60, "bots": 1, "clock": "away"}
        assert final.revision == 2
        assert final in (bots, clock)
    finally:
        await first.close()
        await second.close()


async def test_one_connection_racing_itself_keeps_both(storage: Storage) -> None:
    game_id = (await storage.create_game(lobby())).id
    both_read_first("game", storage)
    await asyncio.gather(
        storage.modify_game(game_id, add_option("a", 1, [])), storage.modify_game(game_id, add_option("b", 2, []))
    )
    final = await storage.game(game_id)
    assert final is not None
    assert final.options == {"turn_time": 60, "a": 1, "b": 2}


async def test_nothing_to_do_writes_nothing_and_a_missing_game_is_none(storage: Storage) -> None:
    record = await storage.create_game(lobby())
    assert await storage.modify_game(record.id, lambda _: None) == record
    assert await storage.modify_game(record.id, lambda _: {}) == record
    assert (await storage.game(record.id)) == record  # revision unchanged
    assert await storage.modify_game(record.id + 100, add_option("a", 1, [])) is None
    started = await storage.modify_game(record.id, lambda r: {"status": "running"} if r.status == "lobby" else None)
    assert started is not None
    assert (started.status, started.revision) == ("running", record.revision + 1)


async def test_losing_every_attempt_raises_conflict(backend: Backend) -> None:
    storage, other = await backend.open(), await backend.open()
    try:
        game_id = (await storage.create_game(lobby())).id
        read = storage.game
        reads = 0

        async def overtaken(game_id: int) -> GameRecord | None:
            """Each read is followed by another process's change, so each write finds the row moved on."""
            nonlocal reads
            reads += 1
            record = await read(game_id)
            assert await other.modify_game(game_id, add_option("other", reads, []))
            return record

        storage.game = overtaken  # type: ignore[method-assign]
        with pytest.raises(Conflict):
            await storage.modify_game(game_id, add_option("mine", 1, []), attempts=3)
        assert reads == 3
        final = await other.game(game_id)
        assert final is not None
        assert "mine" not in final.options
    finally:
        await storage.close()
        await other.close()


# ---- a server's settings -------------------------------------------------------------------------------------------


async def test_a_server_without_settings_has_none_and_changes_are_kept(backend: Backend) -> None:
    storage = await backend.open()
    try:
        assert await storage.guild_settings(1) == {}
        saved = await storage.update_guild_settings(1, lambda s: {**s, "pings": False})
        assert saved == {"pings": False}

        def set_turn_time(settings: dict[str, Any]) -> dict[str, Any]:
            settings.setdefault("turn_time", {})["the_game"] = 120  # changing the copy it was given in place
            return settings

        assert await storage.update_guild_settings(1, set_turn_time) == {"pings": False, "turn_time": {"the_game": 120}}
        assert await storage.guild_settings(2) == {}  # another server is apart
    finally:
        await storage.close()
    reopened = await backend.open()
    try:
        assert await reopened.guild_settings(1) == {"pings": False, "turn_time": {"the_game": 120}}
    finally:
        await reopened.close()


async def test_two_managers_saving_at_once_both_count(backend: Backend) -> None:
    """Both the first save of a server's settings (an insert) and a later one (an update) are compare-and-swap."""
    first, second = await backend.open(), await backend.open()
    try:
        for guild, start in ((1, {}), (2, {"language": "en"})):
            if start:
                await first.update_guild_settings(guild, lambda _, start=start: dict(start))
            both_read_first("_settings", first, second)
            await asyncio.gather(
                first.update_guild_settings(guild, lambda s: {**s, "pings": False}),
                second.update_guild_settings(guild, lambda s: {**s, "channels": [5, 6]}),
            )
            assert await first.guild_settings(guild) == {**start, "pings": False, "channels": [5, 6]}
            first.__dict__.pop("_settings")  # back to the class's own reads for the next server
            second.__dict__.pop("_settings")
    finally:
        await first.close()
        await second.close()


async def test_an_unchanged_setting_is_not_written(storage: Storage) -> None:
    calls: list[dict[str, Any]] = []

    def same(settings: dict[str, Any]) -> dict[str, Any]:
        calls.append(settings)
        return settings

    assert await storage.update_guild_settings(3, same) == {}
    assert calls == [{}]
    assert await storage.guild_settings(3) == {}
