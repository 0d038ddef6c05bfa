"""The no-numbers rule through the fake Discord: what is removed during The Game, and everything left alone."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import cogs.moderation
from tests.e2e.conftest import World
from tests.fake_discord import Perm
from tests.players import public_messages


async def start_the_game(world: World) -> None:
    ana = world.players[0]
    await world.fake.invoke("newgame", user=ana, channel=world.channel, options={})
    inter = await world.fake.invoke("start", user=ana, channel=world.channel)
    assert "The Game begins" in inter.response.content


async def settle(world: World) -> None:
    """Let the bot handle what it was sent: a /board round trip passes through the same event queue."""
    await world.fake.invoke("rules", user=world.spectator, channel=world.other_channel)
    await asyncio.sleep(0.05)


async def test_numbers_are_removed_during_the_game_and_the_author_is_told_privately(world: World) -> None:
    ana, ben = world.players[:2]
    async with world.bot():
        await start_the_game(world)
        bad = await world.fake.send_message(world.channel, ben, "I have thirty-seven, lay it on A?")
        good = await world.fake.send_message(world.channel, ben, "don't lay on the second pile please")
        await world.fake.wait_for(lambda: bad.deleted, what="the message with a number to be deleted")
        dm = await world.fake.wait_dm(ben)
        assert "no numbers" in dm.content.lower() or "reveal card numbers" in dm.content
        assert "thirty-seven" not in dm.content  # the rule is quoted, never the message
        await settle(world)
        assert not good.deleted
        # The bot's own boards are full of numbers and stay.
        assert all(
            not m.deleted for m in public_messages(world.fake, world.channel) if m.author.id == world.fake.bot.id
        )
        assert not ana.user.dms_closed


@pytest.mark.parametrize(
    "text",
    ["37", "pile 3 pls", "３７", "thirty seven", "t h r e e", "siebenunddreißig", "XXXVII", "||37||", "3️⃣"],
)
async def test_every_form_of_number_is_removed(world: World, text: str) -> None:
    async with world.bot():
        await start_the_game(world)
        message = await world.fake.send_message(world.channel, world.players[1], text)
        await world.fake.wait_for(lambda: message.deleted, what=f"{text!r} to be deleted")


async def test_an_edit_that_adds_a_number_is_removed(world: World) -> None:
    async with world.bot():
        await start_the_game(world)
        message = await world.fake.send_message(world.channel, world.players[1], "ok, go ahead")
        await settle(world)
        assert not message.deleted
        await world.fake.edit_message(message, "ok, go ahead with the twelve")
        await world.fake.wait_for(lambda: message.deleted, what="the edited message to be deleted")


async def test_keycap_reactions_are_removed_and_others_stay(world: World) -> None:
    ben = world.players[1]
    async with world.bot():
        await start_the_game(world)
        board = public_messages(world.fake, world.channel)[-1]
        await world.fake.add_reaction(board, ben, "👍")
        await world.fake.add_reaction(board, ben, "3️⃣")
        await world.fake.wait_for(lambda: "3️⃣" not in board.reactions, what="the keycap reaction to be removed")
        await settle(world)
        assert board.reactions.get("👍") == [ben.id]


async def test_nothing_is_removed_outside_a_running_game(world: World) -> None:
    ana, ben = world.players[:2]
    async with world.bot():
        before = await world.fake.send_message(world.channel, ben, "before: 37")
        await world.fake.invoke("newgame", user=ana, channel=world.channel, options={})
        in_lobby = await world.fake.send_message(world.channel, ben, "lobby: 37")
        await world.fake.invoke("start", user=ana, channel=world.channel)
        elsewhere = await world.fake.send_message(world.other_channel, ben, "elsewhere: 37")
        during = await world.fake.send_message(world.channel, ben, "during: 37")
        await world.fake.wait_for(lambda: during.deleted, what="the message during the game to be deleted")
        await world.fake.invoke("endgame", user=ana, channel=world.channel)
        after = await world.fake.send_message(world.channel, ben, "after: 37")
        await world.fake.invoke("newgame", user=ana, channel=world.channel, options={"game": "no_thanks"})
        no_thanks = await world.fake.send_message(world.channel, ben, "no thanks lobby: 37")
        await settle(world)
        assert [m.content for m in world.fake.deleted()] == ["during: 37"]
        assert not any(m.deleted for m in (before, in_lobby, elsewhere, after, no_thanks))


async def test_closed_dms_get_a_short_channel_notice_that_goes_away(world: World) -> None:
    ben = world.players[1]
    world.fake.close_dms(ben)
    async with world.bot() as bot:
        # Extensions are loaded as fresh module objects, so the cog is reached through the bot, not an import.
        moderation: Any = bot.get_cog("Moderation")
        assert moderation.notice_seconds == cogs.moderation.CHANNEL_NOTICE_SECONDS
        moderation.notice_seconds = 0.2  # a few seconds in real life; the test need not wait that long
        await start_the_game(world)
        message = await world.fake.send_message(world.channel, ben, "I hold the 37")
        notice = await world.fake.wait_message(
            world.channel, lambda m: ben.mention in m.content and "removed" in m.content
        )
        assert message.deleted
        assert "I hold the" not in notice.content
        await world.fake.wait_for(lambda: notice.deleted, what="the notice to delete itself")


async def test_a_burst_of_removed_messages_is_explained_once(world: World) -> None:
    ben = world.players[1]
    async with world.bot():
        await start_the_game(world)
        messages = [await world.fake.send_message(world.channel, ben, f"{n} {n}") for n in range(2, 6)]
        await world.fake.wait_for(lambda: all(m.deleted for m in messages), what="all four to be deleted")
        await settle(world)
        assert len(world.fake.dms(ben)) == 1


async def test_without_manage_messages_the_game_warns_once_and_goes_on(world: World) -> None:
    ana, ben = world.players[:2]
    world.fake.set_permissions(world.channel, world.fake.bot_member(world.guild), deny=Perm.MANAGE_MESSAGES)
    async with world.bot():
        await world.fake.invoke("newgame", user=ana, channel=world.channel, options={})
        start = await world.fake.invoke("start", user=ana, channel=world.channel)
        assert "Manage Messages" in start.response.content
        said_before = len(world.fake.bot_messages(world.channel))
        for text in ("37", "thirty-seven", "XXXVII"):
            await world.fake.send_message(world.channel, ben, text)
        await settle(world)
        assert world.fake.deleted() == []
        assert len(world.fake.bot_messages(world.channel)) == said_before  # no error spam in the channel
        assert world.fake.dms(ben) == []
        hand = await world.fake.invoke("hand", user=ana, channel=world.channel)  # the game goes on
        assert hand.response.ephemeral
        assert "Your hand:" in hand.response.content
