"""/settings end to end (issue 24): managers change a server's settings in a private panel of select menus, everyone
else may read them, and new games respect the channels and the game-ending role; missing permissions are explained
to whoever opens a game."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from cogs.settings import MANAGERS_ONLY
from i18n import render
from table.settings import ServerSettings
from tests.e2e.conftest import World
from tests.e2e.test_lobby import answer, invoke, refused, settled
from tests.fake_discord import Member, Message, Perm

PANEL = ("settings:turn_time", "settings:pings", "settings:language", "settings:channels", "settings:end_role")


def fields(message: Message | None) -> dict[str, str]:
    assert message is not None
    assert message.embeds, message
    return {item["name"]: item["value"] for item in message.embeds[0]["fields"]}


def saved(world: World) -> ServerSettings:
    """The server's settings as committed, read from outside the bot."""
    with sqlite3.connect(world.database_path) as db:
        row = db.execute("SELECT settings FROM guild_settings WHERE guild_id = ?", (world.guild.id,)).fetchone()
    return ServerSettings.from_dict(json.loads(row[0]) if row else {})


def manager(world: World) -> Member:
    """ana, with a role that has Manage Server."""
    ana = world.players[0]
    world.fake.assign_role(ana, world.fake.add_role(world.guild, "admins", int(Perm.MANAGE_GUILD)))
    return ana


async def open_panel(world: World, user: Member) -> Message:
    shown = answer(await invoke(world, "settings", user))
    assert shown.ephemeral
    assert shown.message is not None
    return shown.message


async def choose(world: World, panel: Message, custom_id: str, values: list[Any], user: Member) -> Message:
    picked = answer(await world.fake.select(panel, custom_id, values, user=user))
    assert picked.type == 7, picked  # the panel itself is updated, nothing else posted
    assert picked.message is not None
    return picked.message


async def test_a_manager_changes_every_setting_and_everyone_else_may_only_read_them(world: World) -> None:
    ana, ben = manager(world), world.players[1]
    referees = world.fake.add_role(world.guild, "referees")
    async with world.bot():
        read = await open_panel(world, ben)
        assert read.components == []  # nothing to change for a member without Manage Server
        assert fields(read)["Channels games may be opened in"] == "every text channel"
        assert fields(read)["Turn time of a new game"] == (
            "The Game: 3 minutes (the game's default)\nNo Thanks!: 1 minute (the game's default)"
        )

        panel = await open_panel(world, ana)
        assert [c["custom_id"] for c in panel.components[0]["components"]][:1] == [PANEL[0]]
        assert sorted(row["components"][0]["custom_id"] for row in panel.components) == sorted(PANEL)
        panel = await choose(world, panel, "settings:turn_time", ["the_game:600", "no_thanks:30"], ana)
        panel = await choose(world, panel, "settings:pings", ["off"], ana)
        panel = await choose(world, panel, "settings:language", ["de"], ana)
        panel = await choose(world, panel, "settings:channels", [world.other_channel], ana)
        panel = await choose(world, panel, "settings:end_role", [referees], ana)
        shown = fields(panel)
        assert shown["Turn time of a new game"] == "The Game: 10 minutes\nNo Thanks!: 30 seconds"
        assert shown["Pings"] == "off"
        assert shown["Language of the tables"] == "Deutsch"
        assert shown["Channels games may be opened in"] == world.other_channel.mention
        assert shown["May end any game"] == referees.mention

    expected = ServerSettings(
        turn_times={"the_game": 600, "no_thanks": 30},
        pings=False,
        channels=frozenset({world.other_channel.id}),
        language="de",
        end_role=referees.id,
    )
    assert saved(world).to_dict() == expected.to_dict()

    async with world.bot():  # after a restart: the member reads them; the open panel still works
        assert fields(await open_panel(world, ben)) == shown
        panel = await choose(world, panel, "settings:channels", [], ana)
        assert fields(panel)["Channels games may be opened in"] == "every text channel"
    assert saved(world).channels == frozenset()


async def test_a_member_who_lost_manage_server_cannot_change_them(world: World) -> None:
    ana = world.players[0]
    admins = world.fake.add_role(world.guild, "admins", int(Perm.MANAGE_GUILD))
    world.fake.assign_role(ana, admins)
    async with world.bot():
        panel = await open_panel(world, ana)
        world.fake.remove_role(ana, admins)
        refusal = answer(await world.fake.select(panel, "settings:pings", ["off"], user=ana))
        assert refusal.ephemeral
        assert refusal.content == render(MANAGERS_ONLY, "en")
        await settled(world)
    assert saved(world).pings is True


async def test_new_games_open_only_in_the_chosen_channels(world: World) -> None:
    ana, ben = manager(world), world.players[1]
    async with world.bot():
        panel = await open_panel(world, ana)
        await choose(world, panel, "settings:channels", [world.other_channel], ana)
        reason = await refused(world, await invoke(world, "newgame", ben), channel=world.channel)
        assert reason == (
            f"Games on this server are played in {world.other_channel.mention}. "
            "(Server managers choose these in /settings.)"
        )
        opened = await invoke(world, "newgame", ben, world.other_channel)
        assert not answer(opened).ephemeral
        assert answer(opened).content.startswith(f"{ben.mention} opened a game")


async def test_the_game_ending_role_ends_any_game_and_nobody_else_may(world: World) -> None:
    ana, ben, cy = manager(world), world.players[1], world.players[2]
    referees = world.fake.add_role(world.guild, "referees")
    world.fake.assign_role(cy, referees)
    refusal = "Only the host or a member with Manage Channels can end this game."
    async with world.bot():
        await invoke(world, "newgame", ben)
        await refused(world, await invoke(world, "endgame", cy), refusal)  # no role chosen yet
        panel = await open_panel(world, ana)
        await choose(world, panel, "settings:end_role", [referees], ana)
        await refused(world, await invoke(world, "endgame", world.players[3]), refusal)
        ended = await invoke(world, "endgame", cy)
        assert not answer(ended).ephemeral
        assert answer(ended).content.startswith(f"{cy.mention} ended the lobby of The Game.")


async def test_the_host_is_told_privately_which_permissions_the_channel_lacks(world: World) -> None:
    ana, ben = world.players[:2]
    bot_member = world.fake.bot_member(world.guild)
    world.fake.set_permissions(world.channel, bot_member, deny=Perm.SEND_MESSAGES | Perm.EMBED_LINKS)
    async with world.bot():
        opened = await invoke(world, "newgame", ana)
        assert not answer(opened).ephemeral  # the lobby opens all the same: answers need no permission
        await settled(world)
        notes = [m for m in world.fake.ephemeral_messages(ana) if "missing permissions" in m.content]
        assert len(notes) == 1
        note = notes[0].content
        assert world.channel.mention in note
        assert "**Send Messages**" in note
        assert "**Embed Links**" in note
        assert "View Channel" not in note
        # Nobody else sees it, and a channel with everything gets no such note.
        assert not [m for m in world.fake.ephemeral_messages(ben) if "missing permissions" in m.content]
        await invoke(world, "newgame", ben, world.other_channel)
        await settled(world)
        assert not [m for m in world.fake.ephemeral_messages(ben) if "missing permissions" in m.content]


async def test_the_settings_panel_and_the_permission_heads_up_speak_the_readers_language(world: World) -> None:
    ana = manager(world)
    world.fake.set_permissions(world.channel, world.fake.bot, deny=Perm.EMBED_LINKS)
    async with world.bot():
        shown = answer(await world.fake.invoke("settings", user=ana, channel=world.channel, locale="de"))
        assert shown.message is not None
        assert shown.message.embeds[0]["title"] == "Einstellungen der Kartentische dieses Servers"
        german = fields(shown.message)
        assert german["Zugzeit eines neuen Spiels"].startswith("The Game: 3 Minuten (Vorgabe des Spiels)")
        assert german["Sprache der Tische"] == "Die Serversprache von Discord"
        labels = [
            option["label"]
            for row in shown.message.components
            for c in row["components"]
            for option in c.get("options", [])
        ]
        assert "Pings aus: niemand wird erwähnt" in labels
        assert "Sprache: Deutsch" in labels

        opened = await world.fake.invoke("newgame", user=ana, channel=world.channel, locale="fr")
        await world.fake.wait_for(lambda: opened.followups, what="the heads-up")
        (heads_up,) = [m for m in opened.followups if m.ephemeral]
        assert "**Intégrer des liens** (les plateaux et salons d'attente sont des intégrations)" in heads_up.content
        assert "Nouveau ici ? Comment jouer :" in heads_up.content  # a first game: the note comes in the same message
