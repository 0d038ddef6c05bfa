"""Starting the real bot: a rejected token is one clear line and status 2; shutting down closes the database."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

import bot as bot_module
from bot import Settings, run
from tests.e2e.conftest import World
from tests.fake_discord import FakeDiscord


async def test_a_rejected_token_exits_with_status_2_and_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with FakeDiscord() as fake:
        fake.reject_token("stale-token")
        status = await run(Settings(token="stale-token", database_path=str(tmp_path / "bot.sqlite3")))
    assert status == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["Discord rejected DISCORD_TOKEN: copy a fresh token from the Developer Portal into .env."]


async def test_sigterm_shuts_down_cleanly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[bot_module.Bot] = []
    original_setup = bot_module.Bot.setup_hook

    async def setup_hook(self: bot_module.Bot) -> None:
        started.append(self)
        await original_setup(self)

    monkeypatch.setattr(bot_module.Bot, "setup_hook", setup_hook)
    async with FakeDiscord() as fake:
        fake.add_guild("Card Club")
        task = asyncio.create_task(run(Settings(token="t", database_path=str(tmp_path / "bot.sqlite3"))))
        await fake.wait_for(lambda: started and started[0].is_ready(), timeout=15, what="the bot to be ready")
        signal.raise_signal(signal.SIGTERM)
        assert await asyncio.wait_for(task, 10) == 0
    assert started[0].is_closed()
    assert "storage" not in started[0].__dict__  # the database connection was closed and dropped


async def test_a_dm_channel_that_no_longer_exists_is_opened_afresh(world: World) -> None:
    ana = world.players[0]
    async with world.bot() as bot:
        await bot.storage.set_dm_channel(ana.id, 4242)  # e.g. remembered under another bot token
        await world.fake.invoke("newgame", user=ana, channel=world.channel, options={})
        await world.fake.invoke("start", user=ana, channel=world.channel)
        dm = await world.fake.wait_dm(ana)
        assert dm.content.startswith("Your hand:")
        assert await bot.storage.dm_channel(ana.id) == world.fake.dm_channel(ana).id
        assert not any("direct messages" in m.content for m in world.fake.channel_messages(world.channel))
