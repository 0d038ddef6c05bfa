"""Forgetting end to end (issue 33): /forget through its confirmation, a running game that keeps the seat until it
ends, and a server that removes the bot (its grace period, an invitation back, a removal while the bot was down)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, closing
from typing import Any

from bot import Bot
from config import Settings
from storage import is_former
from tests.e2e.conftest import World
from tests.e2e.table_helpers import open_game
from tests.e2e.test_lobby import invoke
from tests.e2e.test_no_thanks import open_game as open_no_thanks
from tests.players import answer, latest_hand


def rows(world: World, statement: str, *args: Any) -> list[tuple[Any, ...]]:
    """What the bot committed, read from outside it."""
    with closing(sqlite3.connect(world.database_path)) as db:
        return list(db.execute(statement, args).fetchall())


def players_of(world: World, game_id: int) -> list[int]:
    return [int(p) for p in json.loads(rows(world, "SELECT players FROM games WHERE id = ?", game_id)[0][0])]


def long_ago(world: World) -> None:
    """Date the server's removal back past its grace period. Called in a thread: the bot's own transaction (its
    sweep at start) may hold the write lock, and only the event loop, left free, lets it finish."""
    with closing(sqlite3.connect(world.database_path, timeout=10)) as db, db:
        db.execute("UPDATE departed_guilds SET removed_at = '2000-01-01T00:00:00+00:00'")


def sweeper(bot: Bot) -> Any:
    """The bot's privacy cog (its module is loaded afresh as an extension: not ``cogs.privacy.Privacy`` itself)."""
    cog = bot.get_cog("Privacy")
    assert cog is not None
    assert type(cog).__name__ == "Privacy"
    return cog


@asynccontextmanager
async def bot_with(world: World, **settings: Any) -> AsyncIterator[Bot]:
    bot = Bot(Settings(token="fake-token", database_path=str(world.database_path), **settings), seed=1,
              guild_ready_timeout=0.05)  # fmt: skip
    world.bots.append(bot)
    async with world.fake.run_bot(bot):
        yield bot


async def test_forget_asks_once_then_the_seats_read_a_former_player(world: World) -> None:
    fake = world.fake
    ana, ben = world.players[:2]
    async with world.bot() as bot:
        await open_game(world, [ana, ben])
        await invoke(world, "endgame", ana)
        ended = rows(world, "SELECT max(id) FROM games")[0][0]
        await open_game(world, [ana, ben])
        running = rows(world, "SELECT max(id) FROM games")[0][0]
        assert rows(world, "SELECT value FROM meta WHERE key = ?", f"locale:{ana.id}")

        asked = answer(await invoke(world, "forget", ana))
        assert asked.ephemeral
        assert "cannot be undone" in asked.content
        assert asked.message is not None
        assert [b["label"] for b in asked.message.buttons] == ["Forget me", "Keep my data"]
        kept = answer(await fake.click(asked.message, label="Keep my data", user=ana))
        assert kept.content == "Nothing was erased."
        assert ana.id in players_of(world, ended)

        asked = answer(await invoke(world, "forget", ana))
        assert asked.message is not None
        done = answer(await fake.click(asked.message, label="Forget me", user=ana))
        assert done.type == 7  # the question itself becomes the answer, its buttons gone
        assert done.content.startswith("Done: the bot has forgotten you.")
        assert done.components == []
        # Committed before the answer: the ended game no longer names ana, her language and DM channel are gone.
        seats = players_of(world, ended)
        assert ana.id not in seats
        assert is_former(seats[0])
        assert seats[1] == ben.id
        assert rows(world, "SELECT count(*) FROM meta WHERE key = ?", f"locale:{ana.id}") == [(0,)]
        assert rows(world, "SELECT count(*) FROM dm_channels WHERE user_id = ?", ana.id) == [(0,)]
        assert rows(world, "SELECT count(*) FROM results WHERE player = ?", ana.id) == [(0,)]
        kept_texts = "SELECT count(*) FROM private_messages WHERE user_id = ? AND game_id = ?"
        assert rows(world, kept_texts, ana.id, ended) == [(0,)]
        shown = answer(await invoke(world, "history", ben))
        assert "a former player" in shown.embeds[0]["description"]
        assert ana.mention not in shown.embeds[0]["description"]

        # The running game keeps her seat: she still plays it.
        assert ana.id in players_of(world, running)
        hand = answer(await invoke(world, "hand", ana))
        assert hand.ephemeral
        assert latest_hand(fake, ana)
        await invoke(world, "endgame", ana)
        await sweeper(bot).sweep()
        assert ana.id not in players_of(world, running)
        assert rows(world, "SELECT count(*) FROM former_players WHERE user_id IS NOT NULL") == [(0,)]


async def test_a_finished_game_names_the_former_player_and_its_rematch_seats_the_others(world: World) -> None:
    fake = world.fake
    ana, ben, cy = world.players[:3]
    async with world.bot(seed=2) as bot:
        table = await open_no_thanks(world, bot, 3)
        await table.play_out()
        game = rows(world, "SELECT max(id) FROM games")[0][0]
        asked = answer(await invoke(world, "forget", ana))
        assert asked.message is not None
        await fake.click(asked.message, label="Forget me", user=ana)
        assert ana.id not in players_of(world, game)
        replay = answer(await invoke(world, "history", cy))
        assert "a former player" in replay.embeds[0]["description"]
        # A rematch seats the people of the game, not the former player (whose seat could never act).
        end_screen = fake.messages[int(rows(world, "SELECT message_id FROM games WHERE id = ?", game)[0][0])]
        await fake.click(end_screen, f"rematch:{game}", user=ben)
        await fake.wait_idle()
        lobby = rows(world, "SELECT max(id) FROM games")[0][0]
        assert lobby != game
        assert sorted(players_of(world, lobby)) == sorted([ben.id, cy.id])


async def test_a_server_that_removes_the_bot_is_erased_after_its_grace_period(world: World) -> None:
    fake = world.fake
    ana, ben = world.players[:2]
    guild = world.guild.id
    async with bot_with(world) as bot:
        await open_game(world, [ana, ben])
        await invoke(world, "endgame", ana)
        await fake.remove_bot_from_guild(world.guild)
        await fake.wait_for(lambda: rows(world, "SELECT guild_id FROM departed_guilds"), what="the removal noted")
        await sweeper(bot).sweep()
        assert rows(world, "SELECT count(*) FROM games WHERE guild_id = ?", guild) == [(1,)]  # within the grace

        await fake.invite_bot_back(world.guild)
        await fake.wait_for(lambda: not rows(world, "SELECT * FROM departed_guilds"), what="the return noted")

    # Removed while the bot is down: noticed at the next start, and erased once the grace period is over.
    await fake.remove_bot_from_guild(world.guild)
    async with bot_with(world) as bot:
        await fake.wait_for(lambda: rows(world, "SELECT guild_id FROM departed_guilds"), what="the removal noticed")
        await asyncio.to_thread(long_ago, world)
        await sweeper(bot).sweep()
        for table in ("games", "results", "guild_settings", "departed_guilds"):
            assert rows(world, f"SELECT count(*) FROM {table}") == [(0,)], table


async def test_with_no_grace_period_a_removed_server_is_erased_at_once(world: World) -> None:
    ana, ben = world.players[:2]
    async with bot_with(world, forget_server_after_days=0):
        await open_game(world, [ana, ben])
        await world.fake.remove_bot_from_guild(world.guild)
        await world.fake.wait_for(lambda: not rows(world, "SELECT * FROM games"), what="the server's games erased")
        assert rows(world, "SELECT count(*) FROM moves") == [(0,)]
        assert rows(world, "SELECT count(*) FROM private_messages") == [(0,)]
