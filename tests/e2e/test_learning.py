"""Learning the table through the fake Discord: /help lists every command with its line, in the reader's language;
/rules teaches the panel, the signals and the turn clock; a person's first game on a server brings a short private
note on how to play here, and only the first."""

from __future__ import annotations

import json

import discord

from tests.e2e.conftest import World
from tests.e2e.test_ai import fast
from tests.e2e.test_stats import lose_the_game_alone_from_here
from tests.fake_discord import InteractionRecord, Member
from tests.players import private

NOTE = "New here? How to play:"


def help_text(rec: InteractionRecord) -> str:
    assert rec.response is not None
    assert rec.response.ephemeral
    message = rec.original or rec.response.message
    embeds = message.embeds if message is not None else rec.response.embeds
    return json.dumps(embeds, ensure_ascii=False)


def notes_for(world: World, member: Member) -> list[str]:
    return [m.content for m in world.fake.ephemeral_messages(member) if NOTE in m.content]


async def test_help_lists_every_command_in_the_readers_language(world: World) -> None:
    ana = world.players[0]
    async with world.bot():
        commands = world.fake.commands()
        assert len(commands) >= 19
        english = help_text(await world.fake.invoke("help", user=ana, channel=world.channel))
        for command in commands:
            assert f"`/{command['name']}`: {command['description']}" in english
        german = help_text(await world.fake.invoke("help", user=ana, channel=world.channel, locale="de"))
        de = discord.Locale.german.value
        for command in commands:
            name = command["name_localizations"][de]
            assert f"`/{name}`: {command['description_localizations'][de]}" in german
        assert "/neuesspiel" in german
        assert "Open a game in this channel" not in german


async def test_rules_teach_the_panel_the_signals_and_the_clock(world: World) -> None:
    ana = world.players[0]
    async with world.bot():
        the_game = private(await world.fake.invoke("rules", user=ana, channel=world.channel))
        assert "**My hand**" in the_game
        assert "/signal" in the_game
        assert "clock" in the_game
        assert "autopilot" in the_game
        no_thanks = private(
            await world.fake.invoke("rules", user=ana, channel=world.channel, options={"game": "no_thanks"})
        )
        assert "**My cards and chips**" in no_thanks
        assert "clock" in no_thanks
        french = private(await world.fake.invoke("rules", user=ana, channel=world.channel, locale="fr"))
        assert "**Ma main**" in french
        assert "/signal" in french


async def test_a_first_game_on_the_server_brings_a_how_to_note_once(world: World) -> None:
    ana, ben = world.players[:2]
    async with world.bot(seed=61) as bot:
        fast(bot)
        await world.fake.invoke("newgame", user=ana, channel=world.channel)
        await world.fake.wait_idle()
        assert len(notes_for(world, ana)) == 1
        assert "**My hand**" in notes_for(world, ana)[0]
        lobby = world.fake.channel_messages(world.channel)[-1]
        await world.fake.click(lobby, label="Join", user=ben)
        await world.fake.wait_idle()
        assert len(notes_for(world, ben)) == 1
        await world.fake.invoke("leave", user=ben, channel=world.channel)
        await world.fake.invoke("start", user=ana, channel=world.channel)
        await lose_the_game_alone_from_here(world, ana, world.channel)

        # Ana has played a game here now: no note; Ben has not: his second join still brings one.
        await world.fake.invoke("newgame", user=ana, channel=world.channel, options={"game": "no_thanks"})
        await world.fake.invoke("join", user=ben, channel=world.channel, locale="es")
        await world.fake.wait_idle()
        assert len(notes_for(world, ana)) == 1
        spanish = [m.content for m in world.fake.ephemeral_messages(ben) if "¿Eres nuevo" in m.content]
        assert len(spanish) == 1
