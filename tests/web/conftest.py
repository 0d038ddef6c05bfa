"""The web table's fixtures: the real bot with ``WEB_PORT`` set (a free port), against the fake Discord."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest

from bot import Bot
from config import Settings
from tests.e2e.conftest import World, world
from tests.fake_discord import Member, Message
from tests.players import answer


@pytest.fixture
async def web_bot(world: World) -> AsyncIterator[Bot]:
    """A bot serving the web table on a free port (``WEB_PORT=0``), its links at its own address."""
    settings = Settings(token="fake-token", database_path=str(world.database_path), web_port=0)
    bot = Bot(settings, seed=1, guild_ready_timeout=0.05)
    world.bots.append(bot)
    async with world.fake.run_bot(bot):
        yield bot


@pytest.fixture
async def activity_bot(world: World) -> AsyncIterator[Bot]:
    """A web table that is also the Discord Activity (``WEB_ACTIVITY`` with the fake application's client secret),
    for an application with Activities enabled."""
    world.fake.activities = True
    settings = Settings(
        token="fake-token",
        database_path=str(world.database_path),
        web_port=0,
        web_activity=True,
        client_secret=world.fake.client_secret,
    )
    bot = Bot(settings, seed=1, guild_ready_timeout=0.05)
    world.bots.append(bot)
    async with world.fake.run_bot(bot):
        yield bot


def base_url(bot: Bot) -> str:
    assert bot.web is not None
    return bot.web.base_url


async def hand_panel(world: World, member: Member) -> Message:
    """``member``'s /hand answer: their private panel."""
    rec = await world.fake.invoke("hand", user=member, channel=world.channel)
    response = answer(rec)
    assert response.ephemeral, response.content
    assert rec.original is not None
    return rec.original


def table_link(panel: Message) -> str:
    """The URL of the panel's Open the table button."""
    links = [b for b in panel.buttons if b.get("label") == "Open the table"]
    assert len(links) == 1, [b.get("label") for b in panel.buttons]
    assert links[0]["style"] == 5
    assert "custom_id" not in links[0]
    return str(links[0]["url"])


def token_of(url: str) -> str:
    match = re.search(r"/t/([^?]+)", url)
    assert match is not None, url
    return match[1]


__all__ = ["world"]  # the end-to-end tests' world (a server, a channel, players), for these tests too
