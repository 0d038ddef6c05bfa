"""Per-server settings in every driver (issue 24): what ``table.settings`` needs of them."""

from __future__ import annotations

import asyncio
from typing import Any

from storage import Storage
from tests.storage.conftest import Backend


async def test_a_server_without_settings_reads_empty_and_changes_are_kept(storage: Storage, backend: Backend) -> None:
    assert await storage.guild_settings(1) == {}
    saved = await storage.update_guild_settings(1, lambda current: {**current, "pings": False})
    assert saved == {"pings": False}
    assert await storage.update_guild_settings(1, lambda current: {**current, "language": "de"}) == {
        "pings": False,
        "language": "de",
    }
    assert await storage.guild_settings(2) == {}  # per server
    again = await backend.open()  # another connection, as after a restart
    try:
        assert await again.guild_settings(1) == {"pings": False, "language": "de"}
    finally:
        await again.close()


async def test_concurrent_changes_of_one_server_are_all_kept(storage: Storage, backend: Backend) -> None:
    other = await backend.open()

    def add(key: str) -> Any:
        return lambda current: {**current, key: True}

    try:
        await asyncio.gather(*(db.update_guild_settings(7, add(f"k{n}")) for n, db in enumerate([storage, other] * 5)))
    finally:
        await other.close()
    assert await storage.guild_settings(7) == {f"k{n}": True for n in range(10)}
