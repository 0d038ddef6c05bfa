"""The web table's fixtures: the real bot with ``WEB_PORT`` set (a free port), against the fake Discord."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot import Bot
from config import Settings
from tests.e2e.conftest import World, world
from tests.fake_discord import Member, Message
from tests.players import answer, saved_state


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


# ---- a real browser: headless Chromium driven by Playwright -------------------------------------------------

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # The Activity's test frames the bot's page (on localhost) from a page at https://discord.com, as Discord frames
    # it from its own proxy: Chromium's Local Network Access would refuse a public page reaching a local server.
    "--disable-features=LocalNetworkAccessChecks",
    # A page the test is not looking at (the spectator's, opened last) must not be throttled: Playwright's clicks
    # wait for two animation frames, which a background page draws once a second or so.
    "--disable-renderer-backgrounding",
    "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
]


def _missing() -> str | None:
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install playwright)"
    if not Path(CHROMIUM).exists():
        return f"Chromium is not installed at {CHROMIUM} (apt-get install -y chromium)"
    return None


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    missing = _missing()
    if missing:
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail(f"REQUIRE_BROWSER is set but {missing}")
        pytest.skip(missing)
    from playwright.async_api import async_playwright

    async with async_playwright() as driver:
        launched = await driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield launched
        finally:
            await launched.close()


async def eventually(check: Callable[[], Any], within: float = 1.0, what: str = "") -> None:
    """``check()`` (sync or async) passes within ``within`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while True:
        try:
            result = check()
            if asyncio.iscoroutine(result):
                await result
            return
        except AssertionError:
            if loop.time() > deadline:
                raise AssertionError(f"not within {within} s: {what}") from None
            await asyncio.sleep(0.02)


async def committed(world: World, moves: int) -> Any:
    """The saved game once it holds ``moves`` moves."""
    await world.fake.wait_for(lambda: saved_state(world).move_count >= moves, 3, what=f"move {moves} to be saved")
    return saved_state(world)


__all__ = ["world"]  # the end-to-end tests' world (a server, a channel, players), for these tests too
