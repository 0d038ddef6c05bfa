"""/mygames: a person's tables in every server the bot shares with them, where it is their turn first, privately."""

from __future__ import annotations

import json

from engine import the_game
from tests.e2e.conftest import World
from tests.fake_discord import InteractionRecord
from tests.players import best_play, saved_state


def listing(rec: InteractionRecord) -> list[str]:
    assert rec.response is not None
    assert rec.response.ephemeral
    message = rec.original or rec.response.message
    embeds = message.embeds if message is not None else rec.response.embeds
    return str(embeds[0]["description"]).splitlines()


async def test_mygames_lists_each_seat_in_every_server_your_turn_first(world: World) -> None:
    ana, ben, cy = world.players[:3]
    elsewhere = world.fake.add_guild("Second Club")
    far_table = world.fake.add_text_channel(elsewhere, "far-table")
    world.fake.add_member(elsewhere, ana.user)
    world.fake.add_member(elsewhere, ben.user)
    async with world.bot():
        # A lobby here, hosted by ana; a running game in the other server, where ben lays the first card.
        await world.fake.invoke("newgame", user=ana, channel=world.channel)
        await world.fake.invoke("newgame", user=ben, channel=far_table)
        await world.fake.invoke("join", user=ana, channel=far_table)
        await world.fake.invoke("start", user=ben, channel=far_table)
        state: the_game.State = saved_state(world, far_table)
        play = best_play(state, ben.id)
        await world.fake.invoke("play", user=ben, channel=far_table, options={"card": play.card, "pile": play.pile})

        mine = listing(await world.fake.invoke("mygames", user=ana, channel=world.channel))
        assert len(mine) == 2
        assert f"<#{far_table.id}> (Second Club): <@{ben.id}> is playing" in mine[0]
        assert f"https://discord.com/channels/{elsewhere.id}/{far_table.id}" in mine[0]
        assert f"<#{world.channel.id}> (Card Club): waiting in the lobby" in mine[1]

        bens = listing(await world.fake.invoke("mygames", user=ben, channel=world.channel))
        assert len(bens) == 1
        assert bens[0].startswith(f"**Your turn**: The Game in <#{far_table.id}> (Second Club)")

        german = listing(await world.fake.invoke("mygames", user=ben, channel=world.channel, locale="de"))
        assert german[0].startswith("**Du bist dran**: The Game in ")

        nothing = await world.fake.invoke("mygames", user=cy, channel=world.channel)
        assert nothing.response is not None
        assert nothing.response.ephemeral
        assert "aren't seated at any table" in json.dumps(nothing.response.content)
