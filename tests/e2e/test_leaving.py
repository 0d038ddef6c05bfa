"""Leaving a running game, end to end (docs/leaving.md): at a competitive game the leaver's seat goes to the
autopilot while two people play on, and everybody is told; with fewer, the game's own rules decide (No Thanks!:
fewer than three seats end it); a game nobody hosts any more can be ended by any of its players."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from engine import no_thanks
from tests.e2e.conftest import World
from tests.fake_discord import Member
from tests.players import answer, private, public_messages, saved_game

LEFT = "{player} left the game: the autopilot plays their seat from now on, so the game goes on."


def autopilot_moves(world: World, player: int) -> int:
    db = sqlite3.connect(world.database_path)
    try:
        (count,) = db.execute("SELECT count(*) FROM moves WHERE player = ? AND auto", (player,)).fetchone()
    finally:
        db.close()
    return int(count)


def mover(world: World, members: list[Member]) -> Member | None:
    saved = saved_game(world)
    assert saved is not None
    player = no_thanks.current_player(saved[1])
    return next((m for m in members if m.id == player), None)


@asynccontextmanager
async def three_at_no_thanks(world: World) -> AsyncIterator[list[Member]]:
    """A running No Thanks! game of three people (the first hosts), with no pause before the autopilot's moves."""
    fake, members = world.fake, world.players[:3]
    async with world.bot(seed=5) as bot:
        bot.tables.seats.pause = 0
        await fake.invoke("newgame", user=members[0], channel=world.channel, options={"game": "no_thanks"})
        for member in members[1:]:
            await fake.invoke("join", user=member, channel=world.channel)
        await fake.invoke("start", user=members[0], channel=world.channel)
        await fake.wait_idle()
        yield members


async def test_a_leaver_s_seat_goes_to_the_autopilot_and_everybody_is_told(world: World) -> None:
    fake, channel = world.fake, world.channel
    async with three_at_no_thanks(world) as members:
        host, _ben, cy = members
        told = private(await fake.invoke("leave", user=host, channel=channel))
        assert "You left the game. The autopilot plays your seat from now on" in told
        assert "their" not in told
        await fake.wait_idle()
        assert LEFT.format(player=host.mention) in [m.content for m in public_messages(fake, channel)]
        saved = saved_game(world)
        assert saved is not None
        row, state = saved
        assert row["status"] == "running"
        assert json.loads(row["options"])["autopilot"] == [host.id]
        assert row["host_id"] is None
        assert not any(state.left)  # the seat stays in the game, cards and chips too
        # The others play; the autopilot plays the leaver's turns.
        for _turn in range(12):
            if autopilot_moves(world, host.id):
                break
            current = mover(world, members)
            assert current is not None
            # No thanks (taking keeps the turn), or take without chips; the autopilot plays the leaver's turn.
            if current is not host and answer(await fake.invoke("nothanks", user=current, channel=channel)).ephemeral:
                await fake.invoke("take", user=current, channel=channel)
            await fake.wait_idle()
        assert autopilot_moves(world, host.id)
        # Nobody hosts now: any remaining player may end the game.
        ended = await fake.invoke("endgame", user=cy, channel=channel)
        assert not answer(ended).ephemeral
        assert "ended the game of No Thanks!" in answer(ended).content
        saved = saved_game(world)
        assert saved is not None
        assert saved[0]["status"] == "abandoned"


async def test_with_one_person_left_the_game_s_own_rules_decide(world: World) -> None:
    fake, channel = world.fake, world.channel
    async with three_at_no_thanks(world) as members:
        _host, ben, cy = members
        private(await fake.invoke("leave", user=ben, channel=channel))
        await fake.wait_idle()
        # One person would be left against the autopilot: cy's leaving is the game's own, and No Thanks! ends below
        # three seats, as abandoned.
        last = await fake.invoke("leave", user=cy, channel=channel)
        assert not answer(last).ephemeral
        assert "Game over" in answer(last).content
        assert "abandoned" in answer(last).content
        assert "their cards" not in answer(last).content
        saved = saved_game(world)
        assert saved is not None
        assert saved[0]["status"] == "abandoned"
