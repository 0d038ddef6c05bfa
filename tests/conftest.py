"""Shared pytest fixtures."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.fake_discord import FakeDiscord


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A running fake Discord with discord.py pointed at it (see tests/fake_discord.py)."""
    async with FakeDiscord(bot_name="TestBot") as fake:
        yield fake
