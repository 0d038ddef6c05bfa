"""Several processes on one PostgreSQL database: a page served by one bot follows the moves another bot commits
(``web/live.py`` polls the open games' rows while pages are open). Two bots in this process, each with its own
storage, cache and events, share nothing but the database, as two processes do; the fake Discord sends every
interaction to the newer one, so the page's bot never hears of the moves but from the database."""

from __future__ import annotations

from typing import Any

import aiohttp

from bot import Bot
from config import Settings
from engine import no_thanks
from table.transition import Transition
from tests.e2e.conftest import World
from tests.e2e.table_helpers import open_game
from tests.postgres import PostgresServer
from tests.web.conftest import base_url
from tests.web.test_server import next_state
from web.live import POLL_SECONDS


async def test_a_page_follows_the_moves_another_process_commits(world: World, postgres_server: PostgresServer) -> None:
    url = await postgres_server.new_database()
    serving = Bot(Settings(token="fake-token", database_url=url, web_port=0), seed=1, guild_ready_timeout=0.05)
    playing = Bot(Settings(token="fake-token", database_url=url), seed=1, guild_ready_timeout=0.05)
    world.bots += [serving, playing]
    heard: list[Transition] = []

    async def hear(event: Transition) -> None:
        heard.append(event)

    async with world.fake.run_bot(serving), world.fake.run_bot(playing):
        serving.tables.events.subscribe("test", hear)
        members = world.players[:3]
        ana = members[0]
        await open_game(world, members, "no_thanks")
        record = (await playing.tables.storage.channel_games(world.channel.id, 1))[0]
        assert serving.web is not None
        assert serving.web.signer is not None
        token = serving.web.signer.sign(record.id, ana.id)
        async with aiohttp.ClientSession() as http, http.ws_connect(f"{base_url(serving)}/ws/{token}") as ws:
            seq = (await next_state(ws))["seq"]
            for _ in range(4):
                live, _presenter = await playing.tables.games.running(world.channel.id)
                state: Any = live.state
                mover = next(m for m in members if m.id == no_thanks.current_player(state))
                await world.fake.invoke("take", user=mover, channel=world.channel)
                shown = await next_state(ws, after=seq, within=POLL_SECONDS + 1.0)
                committed = await playing.tables.storage.game(record.id)
                assert committed is not None
                assert shown["seq"] == committed.moves
                seq = shown["seq"]
            assert seq >= 4
    assert heard == []  # every move was the other process's: the page learnt of them from the database
