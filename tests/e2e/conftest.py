"""End-to-end fixtures: the real bot, unmodified, against the fake Discord in ``tests/fake_discord.py``."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot import Bot, Settings
from tests.fake_discord import Channel, FakeDiscord, Guild, Member

NAMES = ("ana", "ben", "cy", "dee", "eve", "fay", "gus")


@dataclass
class World:
    """A server with a game channel, a second channel, seven would-be players and a spectator."""

    fake: FakeDiscord
    database_path: Path
    guild: Guild
    channel: Channel
    other_channel: Channel
    players: list[Member]
    spectator: Member
    bots: list[Bot] = field(default_factory=list)

    @asynccontextmanager
    async def bot(self, seed: int = 1) -> AsyncIterator[Bot]:
        """Run a bot on the world's database; entering again after exit is a restart."""
        bot = Bot(
            Settings(token="fake-token", database_path=str(self.database_path)), seed=seed, guild_ready_timeout=0.05
        )
        self.bots.append(bot)
        async with self.fake.run_bot(bot):
            yield bot


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with FakeDiscord(bot_name="CardTable") as fake:
        guild = fake.add_guild("Card Club")
        channel = fake.add_text_channel(guild, "the-table")
        other = fake.add_text_channel(guild, "general")
        players = [fake.add_member(guild, name) for name in NAMES]
        spectator = fake.add_member(guild, "spectator")
        yield World(fake, tmp_path / "data" / "bot.sqlite3", guild, channel, other, players, spectator)
        assert not fake.unknown_requests, fake.unknown_requests
        # A request the real Discord would refuse fails the test that sent it, even if the bot coped with the refusal.
        assert not fake.violations, "Discord would refuse:\n" + fake.violation_report()
    # A finished test's bot and fake are garbage now: collect them here, not during the next test, where a finalizer
    # closing one of their sockets could close a connection the next test opened on the same descriptor number.
    gc.collect()
