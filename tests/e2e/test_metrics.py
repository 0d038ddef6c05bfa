"""Metrics and health for operators (issue 24): with METRICS_PORT the real bot serves Prometheus metrics that move
with the games, and a health check that fails when the database is down. Without it, no port is opened."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

import bot as bot_module
import metrics
from bot import Settings, run
from tests.fake_discord import FakeDiscord

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


async def get(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}{path}") as response:
        return response.status, await response.text()


async def scrape(port: int) -> Samples:
    status, text = await get(port, "/metrics")
    assert status == 200
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def total(samples: Samples, name: str, **labels: str) -> float:
    """The sum of ``name``'s samples whose labels include ``labels``."""
    wanted = set(labels.items())
    return sum(value for (sample, have), value in samples.items() if sample == name and wanted <= set(have))


@asynccontextmanager
async def running(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **settings: object
) -> AsyncIterator[bot_module.Bot]:
    """``bot.run`` as ``main`` runs it, until the bot is ready."""
    started: list[bot_module.Bot] = []
    original_setup = bot_module.Bot.setup_hook

    async def setup_hook(self: bot_module.Bot) -> None:
        started.append(self)
        await original_setup(self)

    monkeypatch.setattr(bot_module.Bot, "setup_hook", setup_hook)
    config = Settings(token="t", database_path=str(tmp_path / "bot.sqlite3"), **settings)  # type: ignore[arg-type]
    task = asyncio.create_task(run(config))
    await fake.wait_for(lambda: task.done() or (started and started[0].is_ready()), timeout=15, what="the bot")
    assert not task.done(), task.result()
    try:
        yield started[0]
    finally:
        await started[0].close()
        assert await asyncio.wait_for(task, 10) == 0


async def test_a_scrape_after_a_few_actions_shows_them_and_health_follows_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with FakeDiscord(bot_name="CardTable") as fake:
        guild = fake.add_guild("Card Club")
        channel = fake.add_text_channel(guild, "the-table")
        ana, ben = fake.add_member(guild, "ana"), fake.add_member(guild, "ben")
        async with running(fake, tmp_path, monkeypatch, metrics_port=0) as bot:
            endpoint = bot.metrics_endpoint
            assert endpoint is not None
            assert await get(endpoint.port, "/health") == (200, "ok\n")
            before = await scrape(endpoint.port)

            fake.close_dms(ben)
            await fake.invoke("newgame", user=ana, channel=channel, options={"game": "no_thanks", "bots": 1})
            await fake.invoke("join", user=ben, channel=channel)
            await fake.invoke("start", user=ana, channel=channel)
            await fake.wait_dm(ana)
            await fake.wait_idle()
            after = await scrape(endpoint.port)

            def moved(name: str, **labels: str) -> float:
                return total(after, name, **labels) - total(before, name, **labels)

            assert moved("cardtable_interactions_total", command="newgame", game="no_thanks") == 1
            assert moved("cardtable_interactions_total", command="start") == 1
            assert moved("cardtable_actions_total", command="join") == 1
            assert moved("cardtable_answer_seconds_count") == 3
            assert 0 < moved("cardtable_answer_seconds_sum") < 3 * 3.0  # each within Discord's three seconds
            assert moved("cardtable_database_seconds_count", operation="create_game") == 1
            assert moved("cardtable_database_seconds_count") > 5
            assert moved("cardtable_dms_failed_total", reason="closed") >= 1  # ben's DMs are shut
            assert total(after, "cardtable_open_games", game="no_thanks", status="running") == 1
            assert total(after, "cardtable_up", part="gateway") == 1
            assert total(after, "cardtable_up", part="database") == 1

            await fake.invoke("endgame", user=ana, channel=channel)
            assert total(await scrape(endpoint.port), "cardtable_open_games") == 0

            await bot.storage.close()  # the database goes away under the bot
            status, text = await get(endpoint.port, "/health")
            assert (status, text) == (503, "down: database\n")
            assert total(await scrape(endpoint.port), "cardtable_up", part="database") == 0


async def test_errors_are_counted_from_the_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with FakeDiscord() as fake:
        fake.add_guild("Card Club")
        async with running(fake, tmp_path, monkeypatch, metrics_port=0) as bot:
            assert bot.metrics_endpoint is not None
            port = bot.metrics_endpoint.port
            before = total(await scrape(port), "cardtable_errors_total", logger="cogs.lobby")
            logging.getLogger("cogs.lobby").error("Something unexpected")
            assert total(await scrape(port), "cardtable_errors_total", logger="cogs.lobby") == before + 1


async def test_without_metrics_port_nothing_is_served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with FakeDiscord() as fake:
        fake.add_guild("Card Club")
        async with running(fake, tmp_path, monkeypatch) as bot:
            assert bot.metrics_endpoint is None
            # The storage is the driver itself, not wrapped for timing.
            assert "open_games" not in vars(bot.storage)


async def test_health_reports_the_gateway_and_database_down_before_the_bot_is_connected(tmp_path: Path) -> None:
    idle = bot_module.Bot(Settings(token="t", database_path=str(tmp_path / "bot.sqlite3")))
    assert await metrics.health(idle) == ["gateway", "database"]
    await idle.close()
