"""Tests of the fake Discord server, driving a tiny but real ``commands.Bot`` against it."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import AsyncIterator, Awaitable
from dataclasses import dataclass, field
from typing import Any
from unittest.mock import ANY

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fake_discord import (
    CHANNEL_MESSAGES,
    GUILD_FORUM,
    GUILD_VOICE,
    INTERACTION_CALLBACK,
    MISSING_PERMISSIONS,
    PUBLIC_THREAD,
    WEBHOOK_MESSAGE,
    Channel,
    FakeDiscord,
    FakeDiscordError,
    Guild,
    InteractionTimeout,
    InvalidInteraction,
    Member,
    Perm,
    RequestRecord,
    Role,
    RouteLimits,
)

GAMES = ["the_game", "no_thanks", "the_game_extreme"]


@dataclass
class Probe:
    """What the bot observed, for assertions (the bot under test is built in this module)."""

    errors: list[BaseException] = field(default_factory=list)
    seen: list[discord.Message] = field(default_factory=list)
    raw_edits: list[discord.RawMessageUpdateEvent] = field(default_factory=list)
    values: dict[str, Any] = field(default_factory=dict)


class LobbyView(discord.ui.View):
    """Persistent view: registered with ``bot.add_view`` so clicks work after restarts."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Join", custom_id="lobby:join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button[LobbyView]) -> None:
        await interaction.response.send_message(f"{interaction.user.name} joined", ephemeral=True)

    @discord.ui.button(label="Start", custom_id="lobby:start", style=discord.ButtonStyle.success)
    async def start(self, interaction: discord.Interaction, button: discord.ui.Button[LobbyView]) -> None:
        await interaction.response.edit_message(content="Game started!", view=None)

    @discord.ui.select(
        custom_id="lobby:pile",
        options=[discord.SelectOption(label="Up", value="up"), discord.SelectOption(label="Down", value="down")],
    )
    async def pile(self, interaction: discord.Interaction, select: discord.ui.Select[LobbyView]) -> None:
        await interaction.response.send_message(f"pile {select.values[0]}", ephemeral=True)


class TurnView(discord.ui.View):
    """A board whose button defers (no "thinking"), then edits the board and follows up privately."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="End turn", custom_id="turn:end")
    async def end(self, interaction: discord.Interaction, button: discord.ui.Button[TurnView]) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content=f"{interaction.user.name} ended the turn", view=None)
        await interaction.followup.send("your hand: 7 8", ephemeral=True)


class FeedbackModal(discord.ui.Modal, title="Feedback"):
    text: discord.ui.TextInput[FeedbackModal] = discord.ui.TextInput(label="Your feedback", custom_id="feedback:text")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"thanks: {self.text.value}", ephemeral=True)


class PanelView(discord.ui.View):
    """A private panel whose button only acknowledges the click (the test edits the panel itself, by hand)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Refresh", custom_id="panel:refresh")
    async def refresh(self, interaction: discord.Interaction, button: discord.ui.Button[PanelView]) -> None:
        await interaction.response.defer()


def make_bot(probe: Probe, *, message_content: bool = True) -> commands.Bot:
    intents = discord.Intents.default()
    intents.message_content = message_content
    # guild_ready_timeout: on_ready fires this long after the last GUILD_CREATE (2 s by default).
    bot = commands.Bot(command_prefix="!", intents=intents, guild_ready_timeout=0.05)
    tree = bot.tree

    @tree.command(description="Play a card on a pile")
    @app_commands.guild_only()
    @app_commands.choices(pile=[app_commands.Choice(name="A", value="A"), app_commands.Choice(name="B", value="B")])
    async def play(interaction: discord.Interaction, card: app_commands.Range[int, 1, 99], pile: str) -> None:
        probe.values["play"] = (card, pile)
        await interaction.response.send_message(f"{interaction.user.name} played {card} on {pile}")

    @tree.command(description="Show your hand")
    async def hand(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("your hand: 3 14 59", ephemeral=True)

    @tree.command(description="Show your private panel")
    async def panel(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("your panel", view=PanelView(), ephemeral=True)

    @tree.command(description="Open a game lobby")
    async def newgame(interaction: discord.Interaction, game: str) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send(f"Lobby for {game}", view=LobbyView())
        await interaction.followup.send("only you see this", ephemeral=True)

    @newgame.autocomplete("game")
    async def game_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=g, value=g) for g in GAMES if current in g]

    @tree.command(description="Get a DM")
    async def dm(interaction: discord.Interaction) -> None:
        try:
            await interaction.user.send("psst")
        except discord.Forbidden as exc:
            await interaction.response.send_message(f"cannot DM you ({exc.code})", ephemeral=True)
        else:
            await interaction.response.send_message("check your DMs", ephemeral=True)

    async def try_then_say(interaction: discord.Interaction, attempt: Awaitable[object], done: str) -> None:
        """Make a REST request of the bot's own, then answer ``done``, or with the code of Discord's 403."""
        try:
            await attempt
        except discord.Forbidden as exc:
            await interaction.response.send_message(f"forbidden ({exc.code})", ephemeral=True)
        else:
            await interaction.response.send_message(done, ephemeral=True)

    @tree.command(description="Say something in the channel")
    async def say(interaction: discord.Interaction, text: str, with_file: bool = False) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        file = discord.File(io.BytesIO(b"3 14 59"), "hand.txt") if with_file else None
        sent = interaction.channel.send(text, file=file) if file else interaction.channel.send(text)
        await try_then_say(interaction, sent, "said")

    @tree.command(description="Show a board with an End turn button")
    async def turn(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ana to move", view=TurnView())

    @tree.command(description="Think, then fill in the answer")
    async def think(interaction: discord.Interaction, text: str) -> None:
        await interaction.response.defer(thinking=True)
        try:
            await interaction.edit_original_response(content=text)
        except discord.HTTPException as exc:
            probe.errors.append(exc)

    @tree.command(description="Post a board in the channel")
    async def board(interaction: discord.Interaction) -> None:
        async def post() -> None:
            assert isinstance(interaction.channel, discord.TextChannel)
            probe.values["board"] = await interaction.channel.send(embed=discord.Embed(title="Board"))

        await try_then_say(interaction, post(), "posted")

    @tree.command(description="Edit the board in place")
    async def redraw(interaction: discord.Interaction, embed: bool) -> None:
        posted: discord.Message = probe.values["board"]
        edited = posted.edit(embed=discord.Embed(title="Board, redrawn")) if embed else posted.edit(content="redrawn")
        await try_then_say(interaction, edited, "redrawn")

    @tree.command(description="Answer with a picture, add one in a followup, then swap the first")
    async def picture(interaction: discord.Interaction) -> None:
        embed = discord.Embed(title="course").set_image(url="attachment://course.png")
        png = b"\x89PNG\r\n\x1a\n first"
        await interaction.response.send_message(embed=embed, file=discord.File(io.BytesIO(png), "course.png"))
        await interaction.followup.send("more", file=discord.File(io.BytesIO(b"second"), "more.png"), wait=True)
        swap = discord.File(io.BytesIO(b"third"), "course.png")
        await interaction.edit_original_response(embed=embed, attachments=[swap])

    @tree.command(description="What may the bot do here?")
    async def perms(interaction: discord.Interaction) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        assert interaction.guild is not None
        cached = interaction.channel.permissions_for(interaction.guild.me)
        probe.values["perms"] = (interaction.app_permissions, cached, interaction.permissions)
        await interaction.response.send_message("ok", ephemeral=True)

    @tree.command(description="Leave feedback")
    async def feedback(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(FeedbackModal())

    @tree.command(description="Too slow")
    async def slow(interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.3)
        await interaction.response.send_message("finally")

    @tree.command(description="Think, then answer privately after all")
    async def retract(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.delete_original_response()
        await interaction.followup.send("only you see this", ephemeral=True)

    @tree.command(description="Remove spam")
    @app_commands.default_permissions(manage_messages=True)
    async def clean(interaction: discord.Interaction) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        removed = await interaction.channel.purge(limit=20, check=lambda m: "spam" in m.content)
        await interaction.response.send_message(f"removed {len(removed)}", ephemeral=True)

    @tree.command(description="Answer twice")
    async def twice(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("one")
        try:
            await interaction.response.send_message("two")
        except discord.InteractionResponded:
            # discord.py guards this client-side; go around it to see what Discord says.
            await interaction.followup.send("three")

    @tree.command(description="Poke someone")
    async def poke(
        interaction: discord.Interaction, who: discord.Member, where: discord.TextChannel | None = None
    ) -> None:
        probe.values["poke"] = (who, where)
        await interaction.response.send_message(f"poked {who.name} in {where.name if where else 'here'}")

    @tree.command(description="Count down")
    async def countdown(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("3")
        await interaction.edit_original_response(content="2")
        last = await interaction.followup.send("go", wait=True)
        await last.edit(content="go!")
        await interaction.delete_original_response()

    @tree.command(description="Edit the answer by its id through the token")
    async def relabel(interaction: discord.Interaction) -> None:
        response = await interaction.response.send_message("before")
        assert response.message_id is not None
        hook = discord.Webhook.partial(interaction.application_id, interaction.token, client=interaction.client)
        await hook.edit_message(response.message_id, content="after")

    @tree.command(description="Mention both players, pinging only some")
    async def mention(interaction: discord.Interaction, who: discord.Member) -> None:
        both = f"{interaction.user.mention} {who.mention}"
        only_bob = discord.AllowedMentions(users=[who])
        await interaction.response.send_message(f"to {both}", allowed_mentions=only_bob)
        await interaction.followup.send(f"all of {both}")
        await interaction.followup.send(f"secret {both}", ephemeral=True)
        await interaction.followup.send(f"nobody {both}", allowed_mentions=discord.AllowedMentions.none())
        assert isinstance(interaction.channel, discord.TextChannel)
        plain = await interaction.channel.send("hello", allowed_mentions=discord.AllowedMentions(users=True))
        await plain.edit(content=f"hello {both}")

    table = app_commands.Group(name="table", description="Table administration")

    @table.command(description="Reset the table")
    async def reset(interaction: discord.Interaction, confirm: bool) -> None:
        await interaction.response.send_message(f"reset confirmed={confirm}", ephemeral=True)

    tree.add_command(table)

    @tree.context_menu(name="Inspect")
    async def inspect(interaction: discord.Interaction, member: discord.Member) -> None:
        await interaction.response.send_message(f"{member.name} has {len(member.roles)} roles", ephemeral=True)

    @tree.error
    async def on_app_command_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        probe.errors.append(error)

    @bot.listen()
    async def on_message(message: discord.Message) -> None:
        probe.seen.append(message)
        if message.author.bot or "bad" not in message.content:
            return
        try:
            await message.delete()
        except discord.HTTPException as exc:
            probe.errors.append(exc)

    @bot.listen()
    async def on_raw_message_edit(payload: discord.RawMessageUpdateEvent) -> None:
        probe.raw_edits.append(payload)

    @bot.listen()
    async def on_raw_reaction_add(payload: discord.RawReactionActionEvent) -> None:
        assert bot.user is not None
        if payload.user_id == bot.user.id:
            return
        channel = bot.get_channel(payload.channel_id)
        assert isinstance(channel, discord.TextChannel)
        try:
            await channel.get_partial_message(payload.message_id).remove_reaction(
                payload.emoji, discord.Object(payload.user_id)
            )
        except discord.HTTPException as exc:
            probe.errors.append(exc)

    async def setup_hook() -> None:
        bot.add_view(LobbyView())
        await bot.tree.sync()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


@dataclass
class World:
    fake: FakeDiscord
    guild: Guild
    chan: Channel
    other: Channel
    ana: Member
    bob: Member
    mods: Role


@pytest.fixture
def world(fake_discord: FakeDiscord) -> World:
    fake = fake_discord
    guild = fake.add_guild("Card Club")
    mods = fake.add_role(guild, "mods", Perm.MANAGE_MESSAGES)
    chan = fake.add_text_channel(guild, "games")
    other = fake.add_text_channel(guild, "lounge")
    ana = fake.add_member(guild, "ana")
    bob = fake.add_member(guild, "bob", roles=[mods])
    return World(fake, guild, chan, other, ana, bob, mods)


@dataclass
class Running:
    bot: commands.Bot
    probe: Probe


@pytest.fixture
async def running(world: World) -> AsyncIterator[Running]:
    probe = Probe()
    bot = make_bot(probe)
    async with world.fake.run_bot(bot):
        await world.fake.wait_synced()
        yield Running(bot, probe)
    assert not world.fake.unknown_requests


# ------------------------------------------------------------------ connection and world


async def test_bot_sees_the_configured_world(world: World, running: Running) -> None:
    bot, fake = running.bot, world.fake
    assert bot.user is not None
    assert bot.user.id == fake.bot.id
    assert bot.application_id == fake.application_id
    guild = bot.get_guild(world.guild.id)
    assert guild is not None
    assert guild.name == "Card Club"
    assert {c.name for c in guild.text_channels} == {"games", "lounge"}
    assert guild.me is not None
    assert guild.get_role(world.mods.id) is not None
    channel = guild.get_channel(world.chan.id)
    assert isinstance(channel, discord.TextChannel)
    assert channel.permissions_for(guild.me).manage_messages
    assert fake.intents & discord.Intents.message_content.flag
    assert fake.identifies == 1
    assert fake.heartbeats >= 1


async def test_bad_token_fails_login(world: World) -> None:
    fake = world.fake
    fake.reject_token("stolen")
    bot = make_bot(Probe())
    with pytest.raises(discord.LoginFailure):
        await bot.start("stolen")
    await bot.close()
    assert [(r.path, r.status) for r in fake.requests] == [("/users/@me", 401)]


async def test_bad_token_through_run_bot(world: World) -> None:
    world.fake.reject_token("stolen")
    with pytest.raises(discord.LoginFailure):
        async with world.fake.run_bot(make_bot(Probe()), "stolen"):
            pass


async def test_reconnect_resumes_and_replays(world: World, running: Running) -> None:
    fake = world.fake
    await fake.reconnect()
    await fake.wait_for(lambda: fake.resumes == 1, what="a RESUME")
    inter = await fake.invoke("hand", user=world.ana, channel=world.chan)
    assert inter.response is not None
    assert inter.response.ephemeral
    assert fake.identifies == 1


# ------------------------------------------------------------------ application commands


async def test_command_sync_is_recorded(world: World, running: Running) -> None:
    fake, bot = world.fake, running.bot
    first = fake.command_syncs[0]
    assert first.guild_id is None
    assert first.changed
    assert {"play", "hand", "newgame"} <= set(first.names)
    assert {c["name"] for c in fake.commands()} == set(first.names)

    await bot.tree.sync()
    assert not fake.command_syncs[-1].changed

    @bot.tree.command(description="New one")
    async def extra(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("extra")

    await bot.tree.sync()
    assert fake.command_syncs[-1].changed
    fetched = await bot.tree.fetch_commands()
    assert "extra" in {c.name for c in fetched}

    guild = discord.Object(world.guild.id)
    bot.tree.copy_global_to(guild=guild)
    await bot.tree.sync(guild=guild)
    assert fake.command_syncs[-1].guild_id == world.guild.id
    assert len(fake.commands(world.guild)) == len(fake.commands())
    assert [r.route for r in fake.requests if r.method == "PUT"] == [
        "/applications/{application_id}/commands",
        "/applications/{application_id}/commands",
        "/applications/{application_id}/commands",
        "/applications/{application_id}/guilds/{guild_id}/commands",
    ]


async def test_invoke_sends_typed_options(world: World, running: Running) -> None:
    fake = world.fake
    inter = await fake.invoke("play", user=world.ana, channel=world.chan, options={"card": 37, "pile": "A"})
    assert running.probe.values["play"] == (37, "A")
    assert inter.response is not None
    assert inter.response.type == 4
    assert not inter.response.ephemeral
    assert inter.response.content == "ana played 37 on A"
    options = inter.payload["data"]["options"]
    assert options == [{"type": 4, "name": "card", "value": 37}, {"type": 3, "name": "pile", "value": "A"}]
    assert inter.payload["member"]["user"]["id"] == str(world.ana.id)
    newest = fake.last_message(world.chan)
    assert newest is inter.original
    assert newest is not None
    assert newest.author is fake.bot


@pytest.mark.parametrize(
    ("command", "options", "error"),
    [
        ("nope", {}, "no synced command 'nope'"),
        ("play", {"card": 1, "pile": "A", "colour": "red"}, "no option(s) ['colour']"),
        ("play", {"card": 5}, "missing required option(s) ['pile']"),
        ("play", {"card": "5", "pile": "A"}, "expected an integer"),
        ("play", {"card": True, "pile": "A"}, "expected an integer"),
        ("play", {"card": 100, "pile": "A"}, "outside 1..99"),
        ("play", {"card": 5, "pile": "C"}, "not one of the choices"),
    ],
)
async def test_invalid_invocations_are_refused(
    world: World, running: Running, command: str, options: dict[str, Any], error: str
) -> None:
    with pytest.raises(InvalidInteraction, match=re.escape(error)):
        await world.fake.invoke(command, user=world.ana, channel=world.chan, options=options)
    assert world.fake.interactions == []


async def test_non_member_cannot_invoke(world: World, running: Running) -> None:
    stranger = world.fake.add_user("stranger")
    with pytest.raises(InvalidInteraction, match="not a member"):
        await world.fake.invoke("hand", user=stranger, channel=world.chan)


async def test_autocomplete_returns_the_bots_choices(world: World, running: Running) -> None:
    choices = await world.fake.autocomplete("newgame", user=world.ana, channel=world.chan, focused="game", value="the")
    assert [c["value"] for c in choices] == ["the_game", "the_game_extreme"]
    record = world.fake.interactions[-1]
    assert record.type == 4
    assert record.payload["data"]["options"][0]["focused"] is True
    with pytest.raises(InvalidInteraction, match="no autocomplete"):
        await world.fake.autocomplete("play", user=world.ana, channel=world.chan, focused="pile")


async def test_ephemeral_response_is_not_in_the_channel(world: World, running: Running) -> None:
    fake = world.fake
    inter = await fake.invoke("hand", user=world.ana, channel=world.chan)
    assert inter.response is not None
    assert inter.response.ephemeral
    assert inter.response.content == "your hand: 3 14 59"
    assert fake.channel_messages(world.chan) == []
    assert fake.ephemeral_messages(world.ana) == [inter.original]
    assert fake.ephemeral_messages(world.bob) == []


async def test_deferred_response_and_followups(world: World, running: Running) -> None:
    fake = world.fake
    inter = await fake.invoke("newgame", user=world.ana, channel=world.chan, options={"game": "the_game"})
    assert inter.response is not None
    assert inter.response.type == 5
    assert inter.response.deferred
    lobby, secret = await inter.wait_followups(2)
    # The first followup after a "thinking" defer fills in the deferred message.
    assert lobby is inter.original
    assert not lobby.loading
    assert lobby.content == "Lobby for the_game"
    assert [b["label"] for b in lobby.buttons] == ["Join", "Start"]
    assert secret.ephemeral
    assert secret.content == "only you see this"
    assert fake.channel_messages(world.chan) == [lobby]
    assert (await inter.wait_original()).content == "Lobby for the_game"


async def test_bot_messages_are_in_channel_order_and_echoed_to_the_bot(world: World, running: Running) -> None:
    fake, probe = world.fake, running.probe
    await fake.invoke("play", user=world.ana, channel=world.chan, options={"card": 2, "pile": "B"})
    await fake.invoke("say", user=world.ana, channel=world.chan, options={"text": "hello table"})
    user_msg = await fake.send_message(world.chan, world.bob, "hi all")
    assert [m.content for m in fake.channel_messages(world.chan)] == ["ana played 2 on B", "hello table", "hi all"]
    assert [m.author.name for m in fake.channel_messages(world.chan)] == ["TestBot", "TestBot", "bob"]
    ids = [m.id for m in fake.channel_messages(world.chan)]
    assert ids == sorted(ids)
    assert ids[-1] == user_msg.id
    # Real Discord sends the bot its own messages too; a bot must ignore them itself.
    await fake.wait_for(lambda: len(probe.seen) == 3, what="three MESSAGE_CREATEs")
    assert [m.author.bot for m in probe.seen] == [True, True, False]


async def test_double_acknowledgement_is_rejected(world: World, running: Running) -> None:
    fake = world.fake
    inter = await fake.invoke("twice", user=world.ana, channel=world.chan)
    await inter.wait_followups(1)
    assert inter.response is not None
    assert inter.response.content == "one"
    assert inter.followups[0].content == "three"
    # discord.py refuses a second response itself; check what the fake (like Discord) answers.
    url = f"{fake.api_url}/interactions/{inter.id}/{inter.token}/callback"
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, json={"type": 4, "data": {"content": "x"}}) as resp,
    ):
        assert resp.status == 400
        assert resp.headers["Content-Type"] == "application/json"
        assert {"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset-After", "X-RateLimit-Bucket"} <= set(
            resp.headers
        )
        assert await resp.json() == {"message": "Interaction has already been acknowledged.", "code": 40060}
    assert inter.errors[-1].status == 400


async def test_late_response_times_out(world: World, running: Running) -> None:
    fake = world.fake
    fake.interaction_timeout = 0.1
    with pytest.raises(InteractionTimeout, match="did not respond"):
        await fake.invoke("slow", user=world.ana, channel=world.chan)
    await fake.wait_for(lambda: running.probe.errors, what="the bot's late callback to fail")
    error = running.probe.errors[0]
    assert isinstance(error, app_commands.CommandInvokeError)
    assert isinstance(error.original, discord.NotFound)
    assert error.original.code == 10062
    assert [(e.status, e.response["code"]) for e in fake.interactions[-1].errors] == [(404, 10062)]


# ------------------------------------------------------------------ components and modals


async def test_persistent_view_buttons_and_select(world: World, running: Running) -> None:
    fake = world.fake
    inter = await fake.invoke("newgame", user=world.ana, channel=world.chan, options={"game": "no_thanks"})
    lobby = (await inter.wait_followups(1))[0]

    join = await fake.click(lobby, label="Join", user=world.bob)
    assert join.response is not None
    assert join.response.ephemeral
    assert join.response.content == "bob joined"
    assert join.payload["data"] == {
        "custom_id": "lobby:join",
        "component_type": 2,
        "id": lobby.component("lobby:join")["id"],
    }

    pick = await fake.select(lobby, "lobby:pile", ["down"], user=world.ana)
    assert pick.response is not None
    assert pick.response.content == "pile down"
    with pytest.raises(InvalidInteraction, match="not among"):
        await fake.select(lobby, "lobby:pile", ["sideways"], user=world.ana)

    start = await fake.click(lobby, "lobby:start", user=world.ana)
    assert start.response is not None
    assert start.response.type == 7
    assert start.response.message is lobby
    assert lobby.content == "Game started!"
    assert lobby.components == []
    assert [v.content for v in lobby.history] == ["Lobby for no_thanks", "Game started!"]
    assert lobby.edited_timestamp is not None
    with pytest.raises(InvalidInteraction, match="no component"):
        await fake.click(lobby, "lobby:start", user=world.ana)


async def test_click_on_message_from_before_a_restart(world: World, running: Running) -> None:
    # A lobby message the bot posted in an earlier run: the persistent view still answers.
    fake = world.fake
    old = await fake.invoke("newgame", user=world.ana, channel=world.chan, options={"game": "the_game"})
    lobby = (await old.wait_followups(1))[0]
    probe = Probe()
    second = make_bot(probe)
    await running.bot.close()
    async with fake.run_bot(second):
        click = await fake.click(lobby, "lobby:join", user=world.ana)
        assert click.response is not None
        assert click.response.content == "ana joined"


async def test_modal_submit(world: World, running: Running) -> None:
    fake = world.fake
    opened = await fake.invoke("feedback", user=world.ana, channel=world.chan)
    assert opened.response is not None
    assert opened.response.modal is not None
    assert opened.response.modal["title"] == "Feedback"
    submitted = await fake.submit_modal(opened, {"feedback:text": "great game"})
    assert submitted.response is not None
    assert submitted.response.content == "thanks: great game"
    with pytest.raises(InvalidInteraction, match="required"):
        await fake.submit_modal(opened, {})


# ------------------------------------------------------------------ messages, edits, reactions


async def test_bot_deletes_bad_user_messages(world: World, running: Running) -> None:
    fake = world.fake
    good = await fake.send_message(world.chan, world.ana, "good move")
    bad = await fake.send_message(world.chan, world.ana, "bad move")
    await fake.wait_for(lambda: bad.deleted, what="the bad message to be deleted")
    assert fake.deleted(world.chan) == [bad]
    assert bad.deleted_by == fake.bot.id
    assert fake.channel_messages(world.chan) == [good]
    assert fake.channel_messages(world.chan, include_deleted=True) == [good, bad]


async def test_delete_without_manage_messages_is_forbidden(world: World, running: Running) -> None:
    fake, probe = world.fake, running.probe
    fake.set_permissions(world.chan, fake.bot, deny=Perm.MANAGE_MESSAGES)
    bad = await fake.send_message(world.chan, world.ana, "bad move")
    await fake.wait_for(lambda: probe.errors, what="the bot's delete to fail")
    assert isinstance(probe.errors[0], discord.Forbidden)
    assert probe.errors[0].code == 50013
    assert not bad.deleted
    assert [r.status for r in fake.requests if r.method == "DELETE"] == [403]


async def test_permissions_reach_the_bot_and_interactions(world: World, running: Running) -> None:
    fake, probe = world.fake, running.probe
    fake.set_permissions(world.chan, fake.bot, deny=Perm.MANAGE_MESSAGES)
    inter = await fake.invoke("perms", user=world.bob, channel=world.chan)
    assert int(inter.payload["app_permissions"]) & Perm.MANAGE_MESSAGES == 0
    app_perms, cached, user_perms = probe.values["perms"]
    assert not app_perms.manage_messages
    assert not cached.manage_messages
    assert app_perms.send_messages
    assert user_perms.manage_messages  # bob is a mod

    await fake.invoke("perms", user=world.ana, channel=world.other)
    app_perms, cached, user_perms = probe.values["perms"]
    assert app_perms.manage_messages
    assert cached.manage_messages
    assert not user_perms.manage_messages


async def test_send_without_send_messages_is_forbidden(world: World, running: Running) -> None:
    fake = world.fake
    fake.set_permissions(world.chan, fake.bot_role(world.guild), deny=Perm.SEND_MESSAGES)
    inter = await fake.invoke("say", user=world.ana, channel=world.chan, options={"text": "hi"})
    assert inter.response is not None
    assert inter.response.content == "forbidden (50013)"
    assert fake.bot_messages(world.chan) == []


async def test_raw_edit_of_uncached_message(world: World, fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    # Posted before the bot connected, so discord.py has no cached copy of it.
    early = await fake.send_message(world.chan, world.ana, "first draft")
    probe = Probe()
    async with fake.run_bot(make_bot(probe)):
        await fake.edit_message(early, "final text")
        await fake.wait_for(lambda: probe.raw_edits, what="on_raw_message_edit")
    raw = probe.raw_edits[0]
    assert raw.message_id == early.id
    assert raw.cached_message is None
    assert raw.data["content"] == "final text"
    assert raw.data["edited_timestamp"] is not None
    assert raw.message.content == "final text"
    assert [v.content for v in early.history] == ["first draft", "final text"]


async def test_bot_removes_user_reactions(world: World, running: Running) -> None:
    fake = world.fake
    msg = await fake.send_message(world.chan, world.ana, "vote")
    await fake.add_reaction(msg, world.ana, "3️⃣")
    assert msg.reactions == {"3️⃣": [world.ana.id]}
    await fake.wait_for(lambda: not msg.reactions, what="the reaction to be removed")
    removal = next(r for r in fake.requests if r.method == "DELETE")
    assert removal.route == "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/{user_id}"
    assert removal.path.endswith(f"/reactions/3️⃣/{world.ana.id}")
    assert removal.status == 204


async def test_purge_uses_history_and_bulk_delete(world: World, running: Running) -> None:
    fake = world.fake
    for text in ("spam 1", "keep", "spam 2", "spam 3"):
        await fake.send_message(world.chan, world.ana, text)
    inter = await fake.invoke("clean", user=world.bob, channel=world.chan)
    assert inter.response is not None
    assert inter.response.content == "removed 3"
    assert len(fake.deleted(world.chan)) == 3
    assert [m.content for m in fake.channel_messages(world.chan)] == ["keep"]
    assert {r.route for r in fake.bot_requests} >= {
        "/channels/{channel_id}/messages",
        "/channels/{channel_id}/messages/bulk-delete",
    }


async def test_attachment_upload_is_stored_and_downloadable(world: World, running: Running) -> None:
    fake = world.fake
    await fake.invoke("say", user=world.ana, channel=world.chan, options={"text": "my hand", "with_file": True})
    msg = fake.bot_messages(world.chan)[-1]
    assert msg.content == "my hand"
    assert msg.attachments[0]["filename"] == "hand.txt"
    channel = running.bot.get_channel(world.chan.id)
    assert isinstance(channel, discord.TextChannel)
    fetched = await channel.fetch_message(msg.id)
    assert await fetched.attachments[0].read() == b"3 14 59"


async def test_uploads_through_interactions_are_recorded_and_shown_in_embeds(world: World, running: Running) -> None:
    """Multipart answers, followups and webhook edits: each upload is recorded with its request, an embed image
    ``attachment://`` shows the message's attachment of that name, and its type follows the file name."""
    fake = world.fake
    inter = await fake.invoke("picture", user=world.ana, channel=world.chan)
    await fake.wait_for(lambda: inter.original is not None and inter.original.edits, what="the swapped picture")
    uploads = [(r.route, r.files) for r in fake.requests if r.files]
    assert uploads == [
        ("/interactions/{interaction_id}/{token}/callback", [("course.png", 14)]),
        ("/webhooks/{application_id}/{token}", [("more.png", 6)]),
        ("/webhooks/{application_id}/{token}/messages/{message_id}", [("course.png", 5)]),
    ]
    original = inter.original
    assert original is not None
    [attachment] = original.attachments
    assert attachment["content_type"] == "image/png"
    assert original.embeds[0]["image"]["url"] == attachment["url"]
    # The first version showed the first upload; the edit replaced it.
    assert original.edits[0].embeds[0]["image"]["url"] != attachment["url"]
    channel = running.bot.get_channel(world.chan.id)
    assert isinstance(channel, discord.TextChannel)
    fetched = await channel.fetch_message(original.id)
    assert fetched.embeds[0].image.url == fetched.attachments[0].url
    assert await fetched.attachments[0].read() == b"third"
    assert [f.attachments[0]["filename"] for f in inter.followups] == ["more.png"]


async def test_uploads_to_a_channel_take_attach_files_also_in_edits(world: World, running: Running) -> None:
    fake = world.fake
    channel = running.bot.get_channel(world.chan.id)
    assert isinstance(channel, discord.TextChannel)
    message = await channel.send("board")
    fake.set_permissions(world.chan, fake.bot, deny=Perm.ATTACH_FILES)
    with pytest.raises(discord.Forbidden):
        await message.edit(attachments=[discord.File(io.BytesIO(b"png"), "course.png")])
    with pytest.raises(discord.Forbidden):
        await channel.send("again", file=discord.File(io.BytesIO(b"png"), "course.png"))
    await message.edit(content="board, edited")  # without a file, no Attach Files needed
    assert [(m.content, m.attachments) for m in fake.bot_messages(world.chan)] == [("board, edited", [])]


async def test_content_is_hidden_without_the_message_content_intent(world: World, fake_discord: FakeDiscord) -> None:
    probe = Probe()
    async with fake_discord.run_bot(make_bot(probe, message_content=False)):
        await fake_discord.send_message(world.chan, world.ana, "bad but invisible")
        await fake_discord.send_message(world.chan, world.ana, f"{fake_discord.bot.mention} bad and visible")
        await fake_discord.wait_for(lambda: len(probe.seen) == 2, what="two messages")
        await fake_discord.wait_for(lambda: fake_discord.deleted(), what="the mention to be deleted")
    assert [m.content for m in probe.seen] == ["", f"<@{fake_discord.bot.id}> bad and visible"]


# ------------------------------------------------------------------ DMs


async def test_dm_is_readable_per_user(world: World, running: Running) -> None:
    fake = world.fake
    inter = await fake.invoke("dm", user=world.ana, channel=world.chan)
    assert inter.response is not None
    assert inter.response.content == "check your DMs"
    assert (await fake.wait_dm(world.ana)).content == "psst"
    assert [m.content for m in fake.dms(world.ana.id)] == ["psst"]
    assert fake.dms(world.bob) == []
    assert fake.dm_channel(world.ana).recipient is world.ana.user
    assert "/users/@me/channels" in [r.path for r in fake.bot_requests]


async def test_closed_dms_are_forbidden(world: World, running: Running) -> None:
    fake = world.fake
    fake.close_dms(world.bob)
    inter = await fake.invoke("dm", user=world.bob, channel=world.chan)
    assert inter.response is not None
    assert inter.response.content == "cannot DM you (50007)"
    assert fake.dms(world.bob) == []
    failed = [r for r in fake.requests if r.status == 403]
    assert len(failed) == 1
    assert failed[0].response == {"message": "Cannot send messages to this user", "code": 50007}


async def test_user_dm_reaches_the_bot(world: World, running: Running) -> None:
    fake, probe = world.fake, running.probe
    await fake.send_message(fake.dm_channel(world.ana), world.ana, "hello bot")
    await fake.wait_for(lambda: probe.seen, what="the DM")
    assert isinstance(probe.seen[0].channel, discord.DMChannel)
    assert probe.seen[0].content == "hello bot"


# ------------------------------------------------------------------ rate limits and request log


@pytest.mark.parametrize("is_global", [False, True])
async def test_429_is_retried(world: World, running: Running, is_global: bool) -> None:
    fake = world.fake
    rule = fake.rate_limit("POST", "/channels/{channel_id}/messages", times=1, retry_after=0.05, is_global=is_global)
    inter = await fake.invoke("say", user=world.ana, channel=world.chan, options={"text": "eventually"})
    assert inter.response is not None
    assert inter.response.content == "said"
    assert rule.hits == 1
    posts = [r for r in fake.requests if r.route == "/channels/{channel_id}/messages" and r.method == "POST"]
    assert [r.status for r in posts] == [429, 200]
    assert [m.content for m in fake.channel_messages(world.chan)] == ["eventually"]


async def test_request_log_separates_interaction_endpoints(world: World, running: Running) -> None:
    fake = world.fake
    before = len(fake.bot_requests)
    await fake.invoke("play", user=world.ana, channel=world.chan, options={"card": 9, "pile": "A"})
    inter = await fake.invoke("newgame", user=world.ana, channel=world.chan, options={"game": "the_game"})
    await inter.wait_followups(2)
    await fake.invoke("say", user=world.ana, channel=world.chan, options={"text": "x"})
    assert len(fake.bot_requests) == before + 1  # only the channel.send counts
    interaction_routes = {r.route for r in fake.requests if r.interaction_endpoint}
    assert interaction_routes == {
        "/interactions/{interaction_id}/{token}/callback",
        "/webhooks/{application_id}/{token}",
    }
    assert all(r.at >= 0 for r in fake.requests)


async def test_unknown_routes_are_404_and_recorded(world: World, running: Running) -> None:
    fake = world.fake
    with pytest.raises(discord.NotFound) as info:
        await running.bot.http.request(discord.http.Route("GET", "/nonexistent/{x}", x=1))
    assert info.value.code == 0
    assert [r.path for r in fake.unknown_requests] == ["/nonexistent/1"]
    fake.unknown_requests.clear()  # keep the fixture's "no unknown routes" check meaningful


async def test_rest_objects_round_trip(world: World, running: Running) -> None:
    bot = running.bot
    channel = await bot.fetch_channel(world.chan.id)
    assert isinstance(channel, discord.TextChannel)
    assert channel.name == "games"
    guild = await bot.fetch_guild(world.guild.id)
    assert guild.name == "Card Club"
    member = await guild.fetch_member(world.bob.id)
    assert member.name == "bob"
    assert world.mods.id in [r.id for r in member.roles]
    user = await bot.fetch_user(world.ana.id)
    assert user.name == "ana"
    assert not user.bot
    info = await bot.application_info()
    assert info.id == world.fake.application_id


# ------------------------------------------------------------------ more command shapes


async def test_subcommands_and_entity_options(world: World, running: Running) -> None:
    fake, probe = world.fake, running.probe
    inter = await fake.invoke("table reset", user=world.bob, channel=world.chan, options={"confirm": True})
    assert inter.response is not None
    assert inter.response.content == "reset confirmed=True"
    assert inter.payload["data"]["options"] == [
        {"type": 1, "name": "reset", "options": [{"type": 5, "name": "confirm", "value": True}]}
    ]
    with pytest.raises(InvalidInteraction, match="needs a subcommand"):
        await fake.invoke("table", user=world.bob, channel=world.chan)

    poke = await fake.invoke(
        "poke", user=world.ana, channel=world.chan, options={"who": world.bob, "where": world.other}
    )
    assert poke.response is not None
    assert poke.response.content == "poked bob in lounge"
    who, where = probe.values["poke"]
    assert isinstance(who, discord.Member)
    assert who.id == world.bob.id
    assert where.id == world.other.id
    with pytest.raises(InvalidInteraction, match="not a valid user"):
        await fake.invoke("poke", user=world.ana, channel=world.chan, options={"who": world.mods})


async def test_user_context_menu(world: World, running: Running) -> None:
    inter = await world.fake.invoke("Inspect", user=world.ana, channel=world.chan, target=world.bob)
    assert inter.response is not None
    assert inter.response.content == "bob has 2 roles"


async def test_command_availability_rules(world: World, running: Running) -> None:
    fake = world.fake
    dm = fake.dm_channel(world.ana)
    in_dm = await fake.invoke("hand", user=world.ana, channel=dm)
    assert in_dm.response is not None
    assert in_dm.response.ephemeral
    assert in_dm.guild_id is None
    assert "user" in in_dm.payload
    assert "member" not in in_dm.payload
    with pytest.raises(InvalidInteraction, match="cannot be used in DMs"):
        await fake.invoke("play", user=world.ana, channel=dm, options={"card": 1, "pile": "A"})
    with pytest.raises(InvalidInteraction, match="default_member_permissions"):
        await fake.invoke("clean", user=world.ana, channel=world.chan)
    fake.set_permissions(world.chan, world.guild.everyone, deny=Perm.USE_APPLICATION_COMMANDS)
    with pytest.raises(InvalidInteraction, match="cannot use application commands"):
        await fake.invoke("hand", user=world.ana, channel=world.chan)


async def test_original_response_and_followup_edits(world: World, running: Running) -> None:
    fake = world.fake
    inter = await fake.invoke("countdown", user=world.ana, channel=world.chan)
    await fake.wait_for(lambda: inter.original is not None and inter.original.deleted, what="the original to go")
    original, followup = inter.original, inter.followups[0]
    assert original is not None
    assert [v.content for v in original.history] == ["3", "2"]
    assert [v.content for v in followup.history] == ["go", "go!"]
    assert fake.channel_messages(world.chan) == [followup]
    assert fake.deleted(world.chan) == [original]
    routes = [(r.method, r.route) for r in fake.requests if r.interaction_endpoint]
    assert routes == [
        ("POST", "/interactions/{interaction_id}/{token}/callback"),
        ("PATCH", "/webhooks/{application_id}/{token}/messages/{message_id}"),
        ("POST", "/webhooks/{application_id}/{token}"),
        ("PATCH", "/webhooks/{application_id}/{token}/messages/{message_id}"),
        ("DELETE", "/webhooks/{application_id}/{token}/messages/{message_id}"),
    ]


async def test_the_original_response_can_be_edited_by_its_id_through_the_token(world: World, running: Running) -> None:
    fake = world.fake
    inter = await fake.invoke("relabel", user=world.ana, channel=world.chan)
    await fake.wait_for(lambda: inter.original is not None and inter.original.content == "after", what="the edit")
    assert inter.original is not None
    assert [v.content for v in inter.original.history] == ["before", "after"]
    edits = [r for r in fake.requests if r.method == "PATCH" and r.route and r.route.startswith("/webhooks/")]
    assert len(edits) == 1
    assert edits[0].interaction_endpoint  # free: not counted against the bot's rate limit
    assert edits[0].path.endswith(f"/messages/{inter.original.id}")


async def test_bot_edits_reacts_and_deletes_its_own_messages(world: World, running: Running) -> None:
    fake, bot, probe = world.fake, running.bot, running.probe
    channel = bot.get_channel(world.chan.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("draft", embed=discord.Embed(title="Score", description="ana 3"))
    record = await fake.wait_message(world.chan, lambda m: m.content == "draft")
    assert record.embed is not None
    assert record.embed["title"] == "Score"
    await sent.edit(content="final")
    await sent.add_reaction("🎲")
    assert record.content == "final"
    assert record.reactions == {"🎲": [fake.bot.id]}
    with pytest.raises(discord.HTTPException) as info:
        await sent.add_reaction(":game_die:")
    assert info.value.code == 10014
    with pytest.raises(discord.HTTPException) as info:
        await channel.send("x" * 2001)
    assert info.value.code == 50035
    await sent.delete()
    assert record.deleted
    assert fake.deleted(world.chan) == [record]
    await fake.wait_for(lambda: probe.raw_edits, what="the bot to see its own edit")
    events = [name for name, _ in fake.dispatched if name.startswith("MESSAGE")]
    assert events == ["MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_REACTION_ADD", "MESSAGE_DELETE"]


async def test_world_changes_reach_the_running_bot(world: World, running: Running) -> None:
    fake, bot = world.fake, running.bot
    new = fake.add_text_channel(world.guild, "late-room")
    await fake.wait_for(lambda: bot.get_channel(new.id), what="CHANNEL_CREATE")
    fake.set_role_permissions(world.mods, Perm.MANAGE_MESSAGES | Perm.KICK_MEMBERS)
    guild = bot.get_guild(world.guild.id)
    assert guild is not None
    await fake.wait_for(lambda: guild.get_role(world.mods.id).permissions.kick_members, what="GUILD_ROLE_UPDATE")  # type: ignore[union-attr]


async def test_manual_start_and_wait_ready(world: World) -> None:
    fake = world.fake
    bot = make_bot(Probe())
    task = asyncio.create_task(bot.start("any-token"))
    try:
        await fake.wait_ready()
        await asyncio.wait_for(bot.wait_until_ready(), 5)
        await fake.wait_synced()
        assert bot.is_ready()
        assert fake.dispatched[0][0] == "READY"
    finally:
        await bot.close()
        await task


# ------------------------------------------------------------------ fault injection and other kinds of channel


async def say(world: World, channel: Channel, text: str) -> str:
    """What the bot answered ana's /say: "said", or the code of the 403 it got posting ``text``."""
    inter = await world.fake.invoke("say", user=world.ana, channel=channel, options={"text": text})
    assert inter.response is not None
    return inter.response.content


async def test_injected_failures_answer_the_next_matching_requests(world: World, running: Running) -> None:
    fake = world.fake
    rule = fake.fail("POST", "/channels/{channel_id}/messages", status=403, code=50001, message="Missing Access")
    assert await say(world, world.chan, "first") == "forbidden (50001)"
    assert await say(world, world.chan, "second") == "said"
    assert rule.hits == 1
    posts = [r for r in fake.requests if r.route == "/channels/{channel_id}/messages" and r.method == "POST"]
    assert [(r.status, r.response) for r in posts] == [(403, {"message": "Missing Access", "code": 50001}), (200, ANY)]
    assert [m.content for m in fake.channel_messages(world.chan)] == ["second"]


async def test_a_dropped_request_loses_its_connection_unanswered(world: World, running: Running) -> None:
    fake = world.fake
    rule = fake.drop("POST", CHANNEL_MESSAGES, channel=world.chan)
    channel = running.bot.get_channel(world.chan.id)
    assert isinstance(channel, discord.TextChannel)
    # Not an HTTPException: the server said nothing, and discord.py does not retry it either.
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await channel.send("lost")
    await channel.send("kept")
    assert rule.hits == 1
    posts = [r for r in fake.requests if r.route == CHANNEL_MESSAGES and r.method == "POST"]
    assert [r.status for r in posts] == [0, 200]
    assert [m.content for m in fake.channel_messages(world.chan)] == ["kept"]


async def test_an_interaction_callback_can_be_made_to_fail(world: World, running: Running) -> None:
    fake = world.fake
    fake.fail("POST", "/interactions/{interaction_id}/{token}/callback", status=400, code=40060)
    inter = await fake.invoke("hand", user=world.ana, channel=world.chan, wait=False)
    await fake.wait_for(lambda: running.probe.errors, what="the failed callback to reach the error handler")
    error = running.probe.errors[0]
    assert isinstance(error, app_commands.CommandInvokeError)
    assert isinstance(error.original, discord.HTTPException)
    assert error.original.status == 400
    assert [e.status for e in inter.errors] == [400]
    assert not inter.responded
    assert (await fake.invoke("hand", user=world.ana, channel=world.chan)).responded


async def test_a_failure_can_last_until_cleared_and_hit_one_channel_only(world: World, running: Running) -> None:
    fake = world.fake
    rule = fake.fail("POST", CHANNEL_MESSAGES, channel=world.chan, error=MISSING_PERMISSIONS, times=None)
    assert [await say(world, world.chan, text) for text in ("one", "two")] == ["forbidden (50013)"] * 2
    assert await say(world, world.other, "three") == "said"
    assert rule.hits == 2
    rule.clear()
    assert await say(world, world.chan, "four") == "said"
    assert [m.content for m in fake.channel_messages(world.chan)] == ["four"]
    assert rule.hits == 2
    with pytest.raises(FakeDiscordError, match="message_id"):
        fake.fail("POST", CHANNEL_MESSAGES, message_id=1)


async def test_a_deferred_answer_can_be_held_thinking_then_filled_in(world: World, running: Running) -> None:
    fake = world.fake
    hold = fake.hold("PATCH", WEBHOOK_MESSAGE)
    inter = await fake.invoke("think", user=world.ana, channel=world.chan, options={"text": "done"})
    assert inter.response is not None
    assert inter.response.type == 5
    assert inter.response.deferred
    (held,) = await hold.wait_held()
    assert held.params["token"] == inter.token
    assert held.params["message_id"] == "@original"
    assert held.status == 0  # not answered yet
    thinking = inter.original
    assert thinking is not None
    assert thinking.loading
    hold.release()
    filled = await inter.wait_original()
    assert filled is thinking
    assert filled.content == "done"
    assert not filled.edited  # filling in "thinking" is no edit for the reader
    assert not hold.held
    assert held.status == 200
    assert not running.probe.errors


async def test_the_bot_is_not_idle_while_a_deferred_answer_still_reads_thinking(world: World, running: Running) -> None:
    """A bot waiting on its database makes no request for a while; the loading message it owes says it is busy."""
    fake = world.fake
    hold = fake.hold("PATCH", WEBHOOK_MESSAGE)
    inter = await fake.invoke("think", user=world.ana, channel=world.chan, options={"text": "done"})
    await hold.wait_held()
    with pytest.raises(TimeoutError, match="fall quiet"):
        await fake.wait_idle(quiet=0.05, timeout=0.5)
    hold.release()
    await fake.wait_idle(quiet=0.05)
    assert inter.original is not None
    assert not inter.original.loading
    assert inter.original.content == "done"


async def test_a_button_deferred_without_thinking_edits_its_message_and_follows_up_apart(
    world: World, running: Running
) -> None:
    fake = world.fake
    shown = await fake.invoke("turn", user=world.ana, channel=world.chan)
    board = shown.original
    assert board is not None
    async with fake.hold("PATCH", WEBHOOK_MESSAGE) as hold:
        click = await fake.click(board, label="End turn", user=world.ana)
        assert click.response is not None
        assert click.response.type == 6
        assert click.response.deferred
        assert click.response.message is None  # nothing shows "thinking"
        await hold.wait_held()
        assert board.content == "ana to move"
    await click.wait_followups(1)
    assert click.original is board
    assert board.content == "ana ended the turn"
    assert not board.buttons
    (hand,) = click.followups
    assert hand is not board
    assert hand.ephemeral
    assert hand.content == "your hand: 7 8"
    assert fake.channel_messages(world.chan) == [board]


async def test_a_held_first_answer_released_after_3_seconds_is_too_late(world: World, running: Running) -> None:
    fake = world.fake
    fake.interaction_timeout = 0.2  # Discord's 3 s, shortened
    loop = asyncio.get_running_loop()
    async with fake.hold("POST", INTERACTION_CALLBACK) as hold:
        inter = await fake.invoke("hand", user=world.ana, channel=world.chan, wait=False)
        await hold.wait_held()
        await fake.wait_for(lambda: loop.time() - inter.created_at > 0.2, what="the deadline to pass", poll=0.02)
    await fake.wait_for(lambda: inter.expired, what="the late answer to be refused")
    assert not inter.responded
    assert [(e.status, e.response["code"]) for e in inter.errors] == [(404, 10062)]


@pytest.mark.parametrize("how", ["expire_interaction", "lifetime"])
async def test_an_expired_token_refuses_edits_and_followups(world: World, running: Running, how: str) -> None:
    fake = world.fake
    async with fake.hold("PATCH", WEBHOOK_MESSAGE) as hold:
        inter = await fake.invoke("think", user=world.ana, channel=world.chan, options={"text": "too late"})
        await hold.wait_held()
        if how == "lifetime":
            fake.interaction_token_lifetime = 0.0
        else:
            fake.expire_interaction(inter)
    await fake.wait_for(lambda: running.probe.errors, what="the edit to fail")
    (error,) = running.probe.errors
    assert isinstance(error, discord.HTTPException)
    assert (error.status, error.code) == (401, 50027)
    assert inter.token_expired
    assert [(e.status, e.response) for e in inter.errors] == [
        (401, {"message": "Invalid Webhook Token", "code": 50027})
    ]
    assert inter.original is not None
    assert inter.original.loading
    url = f"{fake.api_url}/webhooks/{fake.application_id}/{inter.token}"
    async with aiohttp.ClientSession() as session, session.post(url, json={"content": "hello?"}) as response:
        assert response.status == 401
        assert (await response.json())["code"] == 50027


async def test_embeds_need_embed_links(world: World, running: Running) -> None:
    fake = world.fake
    fake.set_permissions(world.chan, fake.bot, deny=Perm.EMBED_LINKS)
    refused = await fake.invoke("board", user=world.ana, channel=world.chan)
    assert refused.response is not None
    assert refused.response.content == "forbidden (50013)"
    assert await say(world, world.chan, "plain text is fine") == "said"
    assert [m.content for m in fake.channel_messages(world.chan)] == ["plain text is fine"]


async def test_edits_in_a_channel_the_bot_lost_permissions_in(world: World, running: Running) -> None:
    fake, bot, probe = world.fake, running.bot, running.probe
    posted = await fake.invoke("board", user=world.ana, channel=world.chan)
    assert posted.response is not None
    assert posted.response.content == "posted"
    (board,) = fake.bot_messages(world.chan)

    async def redraw(embed: bool) -> str:
        inter = await fake.invoke("redraw", user=world.ana, channel=world.chan, options={"embed": embed})
        assert inter.response is not None
        return inter.response.content

    # Without Send Messages the bot may still edit its own message, but not with embeds (Embed Links goes too).
    fake.set_permissions(world.chan, fake.bot, deny=Perm.SEND_MESSAGES)
    guild = bot.get_guild(world.guild.id)
    assert guild is not None
    await fake.wait_for(
        lambda: guild.get_channel(world.chan.id).overwrites_for(guild.me).send_messages is False,  # type: ignore[union-attr]
        what="the overwrite in the bot's cache",
    )
    assert await redraw(embed=False) == "redrawn"
    assert await redraw(embed=True) == "forbidden (50013)"
    assert board.content == "redrawn"
    assert board.embeds[0]["title"] == "Board"
    await fake.invoke("perms", user=world.ana, channel=world.chan)
    app_perms, cached, _ = probe.values["perms"]
    for perms in (app_perms, cached):
        assert perms.view_channel
        assert not perms.send_messages
        assert not perms.embed_links
    # Without View Channel every request there is 403 Missing Access; interaction answers still work.
    fake.set_permissions(world.chan, fake.bot, deny=Perm.VIEW_CHANNEL)
    assert await redraw(embed=False) == "forbidden (50001)"
    asked = await fake.invoke("perms", user=world.ana, channel=world.chan)
    assert asked.response is not None
    assert asked.response.content == "ok"
    app_perms, _, _ = probe.values["perms"]
    assert not app_perms.view_channel
    assert board.content == "redrawn"


async def test_a_request_listener_sees_every_answered_request(world: World, running: Running) -> None:
    fake = world.fake
    seen: list[RequestRecord] = []
    fake.add_request_listener(seen.append)
    await fake.invoke("say", user=world.ana, channel=world.chan, options={"text": "hi"})
    posted = next(r for r in seen if r.route == CHANNEL_MESSAGES)
    assert posted.method == "POST"
    assert posted.ok
    assert posted.params == {"channel_id": str(world.chan.id)}
    assert posted.response["content"] == "hi"
    answered = [r for r in seen if r.route == INTERACTION_CALLBACK]
    assert [r.params["token"] for r in answered] == [fake.interactions[-1].token]
    fake.remove_request_listener(seen.append)
    count = len(seen)
    await fake.invoke("say", user=world.ana, channel=world.chan, options={"text": "again"})
    assert len(seen) == count


async def test_threads_forum_posts_and_voice_channels(world: World, running: Running) -> None:
    fake, bot = world.fake, running.bot
    forum = fake.add_channel(world.guild, "ideas", type=GUILD_FORUM)
    post = fake.add_channel(world.guild, "a post", type=PUBLIC_THREAD, parent=forum, owner=world.ana)
    thread = fake.add_channel(world.guild, "side talk", type=PUBLIC_THREAD, parent=world.chan)
    voice = fake.add_channel(world.guild, "Lounge", type=GUILD_VOICE)
    with pytest.raises(FakeDiscordError):
        fake.add_channel(world.guild, "orphan", type=PUBLIC_THREAD)
    await fake.wait_for(lambda: all(bot.get_channel(c.id) for c in (forum, post, thread, voice)), what="the events")
    assert isinstance(bot.get_channel(forum.id), discord.ForumChannel)
    assert isinstance(bot.get_channel(voice.id), discord.VoiceChannel)
    seen_post = bot.get_channel(post.id)
    assert isinstance(seen_post, discord.Thread)
    assert seen_post.parent_id == forum.id
    assert seen_post.owner_id == world.ana.id
    for chan, kind in ((post, 11), (thread, 11), (voice, 2)):
        inter = await fake.invoke("hand", user=world.ana, channel=chan)
        assert inter.payload["channel"]["type"] == kind
        assert inter.response is not None
        assert inter.response.ephemeral
    # A thread has its parent's permissions.
    fake.set_permissions(world.chan, world.ana, deny=Perm.USE_APPLICATION_COMMANDS)
    with pytest.raises(InvalidInteraction, match="cannot use application commands"):
        await fake.invoke("hand", user=world.ana, channel=thread)


async def test_a_deleted_channel_is_gone_for_the_bot(world: World, running: Running) -> None:
    fake, bot = world.fake, running.bot
    thread = fake.add_channel(world.guild, "side talk", type=PUBLIC_THREAD, parent=world.chan)
    await fake.wait_for(lambda: bot.get_channel(thread.id), what="THREAD_CREATE")
    await fake.delete_channel(world.other)
    await fake.delete_channel(thread)
    gone = (world.other.id, thread.id)
    await fake.wait_for(lambda: not any(map(bot.get_channel, gone)), what="the deletions to reach the bot")
    assert [event for event, _ in fake.dispatched[-2:]] == ["CHANNEL_DELETE", "THREAD_DELETE"]
    with pytest.raises(InvalidInteraction, match="was deleted"):
        await fake.invoke("hand", user=world.ana, channel=world.other)
    with pytest.raises(discord.NotFound) as info:
        await bot.get_partial_messageable(world.other.id).send("anyone?")
    assert info.value.code == 10003


async def test_the_bot_removed_from_a_guild_and_invited_back(world: World, running: Running) -> None:
    fake, bot = world.fake, running.bot
    events: list[tuple[str, int]] = []

    async def removed(guild: discord.Guild) -> None:
        events.append(("remove", guild.id))

    async def joined(guild: discord.Guild) -> None:
        events.append(("join", guild.id))

    bot.add_listener(removed, "on_guild_remove")
    bot.add_listener(joined, "on_guild_join")
    await fake.remove_bot_from_guild(world.guild)
    await fake.wait_for(lambda: events, what="on_guild_remove")
    assert events == [("remove", world.guild.id)]
    assert bot.get_guild(world.guild.id) is None
    with pytest.raises(discord.NotFound) as info:
        await bot.fetch_guild(world.guild.id)
    assert info.value.code == 10004
    with pytest.raises(FakeDiscordError):
        await fake.remove_bot_from_guild(world.guild.id)  # not in it any more

    await fake.invite_bot_back(world.guild)
    await fake.wait_for(lambda: len(events) == 2, what="on_guild_join")
    assert events[1] == ("join", world.guild.id)
    guild = bot.get_guild(world.guild.id)
    assert guild is not None
    assert {c.name for c in guild.text_channels} == {"games", "lounge"}


# ------------------------------------------------------------------ threads the bot starts and posts in


async def test_a_thread_from_a_message_takes_its_id_and_is_announced(world: World, running: Running) -> None:
    fake, bot = world.fake, running.bot
    channel = bot.get_channel(world.chan.id)
    assert isinstance(channel, discord.TextChannel)
    notice = await channel.send("a game opens below")
    thread = await notice.create_thread(name="The Game — ana", auto_archive_duration=1440)
    assert thread.id == notice.id
    assert (thread.parent_id, thread.type, thread.owner_id) == (
        world.chan.id,
        discord.ChannelType.public_thread,
        fake.bot.id,
    )
    await fake.wait_for(lambda: bot.get_channel(thread.id), what="THREAD_CREATE")
    assert fake.channels[thread.id].is_thread
    assert fake.channels[thread.id].name == "The Game — ana"
    assert fake.messages[notice.id].extra["thread"]["id"] == str(thread.id)
    assert fake.messages[notice.id].flags & (1 << 5)  # HAS_THREAD
    with pytest.raises(discord.HTTPException) as again:
        await notice.create_thread(name="twice")
    assert again.value.code == 160004
    # Posts in the thread are the thread's, not the channel's, and a user's message there names its parent.
    await thread.send("lobby in here")
    assert [m.content for m in fake.channel_messages(thread.id)] == ["lobby in here"]
    assert [m.content for m in fake.channel_messages(world.chan)] == ["a game opens below"]
    said = await fake.send_message(thread.id, world.ana, "hello thread")
    await fake.wait_for(lambda: any(m.id == said.id for m in running.probe.seen), what="MESSAGE_CREATE")
    seen = next(m for m in running.probe.seen if m.id == said.id)
    assert isinstance(seen.channel, discord.Thread)
    assert seen.channel.parent_id == world.chan.id


async def test_threads_without_a_message_and_what_refuses_one(world: World, running: Running) -> None:
    fake, bot = world.fake, running.bot
    channel = bot.get_channel(world.chan.id)
    assert isinstance(channel, discord.TextChannel)
    public = await channel.create_thread(name="open table", type=discord.ChannelType.public_thread)
    # A public thread without a message leaves a "started a thread" line in the channel.
    starts = [m for m in fake.channel_messages(world.chan) if m.type == 18]
    assert [(m.content, m.message_reference) for m in starts] == [
        ("open table", {"channel_id": str(public.id), "guild_id": str(world.guild.id)})
    ]
    # Private threads take their own permission, which a typical invite does not give.
    with pytest.raises(discord.Forbidden):
        await channel.create_thread(name="secret table", type=discord.ChannelType.private_thread)
    fake.set_permissions(world.chan, fake.bot, allow=Perm.CREATE_PRIVATE_THREADS)
    private = await channel.create_thread(name="secret table", type=discord.ChannelType.private_thread)
    assert private.type is discord.ChannelType.private_thread
    assert len([m for m in fake.channel_messages(world.chan) if m.type == 18]) == 1
    with pytest.raises(discord.HTTPException) as nameless:
        await channel.create_thread(name="", type=discord.ChannelType.public_thread)
    assert nameless.value.code == 50035
    with pytest.raises(discord.HTTPException) as nested:
        await bot.http.start_thread_without_message(public.id, name="deeper", auto_archive_duration=60, type=11)
    assert nested.value.code == 50024
    fake.set_permissions(world.chan, fake.bot, deny=Perm.CREATE_PUBLIC_THREADS)
    with pytest.raises(discord.Forbidden):
        await (await channel.send("no threads from me")).create_thread(name="refused")


async def test_posting_in_a_thread_takes_send_messages_in_threads(world: World, running: Running) -> None:
    fake, bot = world.fake, running.bot
    thread = fake.add_channel(world.guild, "side talk", type=PUBLIC_THREAD, parent=world.chan, owner=world.ana)
    fake.set_permissions(world.chan, fake.bot, deny=Perm.SEND_MESSAGES)
    # Send Messages is the channel's, not the thread's: posting there, embeds and all, still works.
    await bot.get_partial_messageable(thread.id).send("still here", embed=discord.Embed(title="board"))
    assert fake.permissions(thread, fake.bot) & Perm.EMBED_LINKS
    assert not fake.permissions(world.chan, fake.bot) & Perm.EMBED_LINKS
    fake.set_permissions(world.chan, fake.bot, deny=Perm.SEND_MESSAGES_IN_THREADS)
    with pytest.raises(discord.Forbidden):
        await bot.get_partial_messageable(thread.id).send("now refused")
    assert [m.content for m in fake.channel_messages(thread)] == ["still here"]
    fake.set_permissions(world.chan, world.bob, deny=Perm.SEND_MESSAGES_IN_THREADS)
    with pytest.raises(InvalidInteraction, match="cannot send messages"):
        await fake.send_message(thread, world.bob, "let me in")
    await fake.send_message(world.chan, world.bob, "the channel is fine")


async def test_a_private_thread_is_seen_by_its_members_only(world: World, running: Running) -> None:
    from tests.fake_discord import PRIVATE_THREAD  # here, not above: the import list there is busy with merges

    fake, bot = world.fake, running.bot
    secret = fake.add_channel(world.guild, "secret", type=PRIVATE_THREAD, parent=world.chan, owner=world.ana)
    assert fake.permissions(secret, world.ana) & Perm.VIEW_CHANNEL
    assert fake.permissions(secret, world.bob) == 0
    assert fake.permissions(secret, fake.bot) == 0
    with pytest.raises(discord.Forbidden) as outside:
        await bot.get_partial_messageable(secret.id).send("hello?")
    assert outside.value.code == 50001
    fake.add_thread_member(secret, fake.bot)
    await fake.wait_for(lambda: bot.get_channel(secret.id), what="THREAD_CREATE for the bot joining")
    await bot.get_partial_messageable(secret.id).send("hello")
    assert [m.content for m in fake.channel_messages(secret)] == ["hello"]
    # Whoever may manage threads sees every private thread.
    fake.set_permissions(world.chan, world.bob, allow=Perm.MANAGE_THREADS)
    assert fake.permissions(secret, world.bob) & Perm.VIEW_CHANNEL


async def test_unchecked_options_are_sent_verbatim(world: World, running: Running) -> None:
    fake = world.fake
    with pytest.raises(InvalidInteraction):
        await fake.invoke("table reset", user=world.ana, channel=world.chan, options={"confirm": "yes"})
    inter = await fake.invoke(
        "table reset", user=world.ana, channel=world.chan, options={"confirm": "yes"}, unchecked=True
    )
    assert inter.response is not None
    assert inter.response.content == "reset confirmed=yes"  # discord.py passes a boolean option through as sent
    assert inter.payload["data"]["options"][0]["options"] == [{"type": 5, "name": "confirm", "value": "yes"}]
    long = "x" * 6000
    sent = await fake.invoke("newgame", user=world.ana, channel=world.chan, options={"game": long}, unchecked=True)
    assert sent.payload["data"]["options"] == [{"type": 3, "name": "game", "value": long}]


async def test_a_message_from_an_older_bot_can_be_clicked(world: World, running: Running) -> None:
    fake = world.fake
    old = fake.add_bot_message(
        world.chan,
        "an old board",
        components=[{"type": 1, "components": [{"type": 2, "style": 1, "label": "Old", "custom_id": "v0:draw"}]}],
    )
    assert fake.channel_messages(world.chan) == [old]
    assert old.author is fake.bot
    inter = await fake.click(old, label="Old", user=world.ana, wait=False)
    assert inter.custom_id == "v0:draw"
    assert inter.payload["data"]["custom_id"] == "v0:draw"
    await fake.wait_idle(quiet=0.2)
    assert not inter.responded  # discord.py itself ignores a custom id no view knows


async def test_a_followup_after_the_deferral_was_deleted_is_a_new_message(world: World, running: Running) -> None:
    fake = world.fake
    inter = await fake.invoke("retract", user=world.ana, channel=world.chan)
    (private,) = await inter.wait_followups()
    assert inter.original is not None
    assert inter.original.deleted
    assert private is not inter.original
    assert private.ephemeral
    assert private.content == "only you see this"
    assert fake.channel_messages(world.chan) == []


async def test_pinged_applies_allowed_mentions_to_new_messages_only(world: World, running: Running) -> None:
    fake = world.fake
    inter = await fake.invoke("mention", user=world.ana, channel=world.chan, options={"who": world.bob})
    await fake.wait_idle()
    messages = fake.channel_messages(world.chan)
    assert [m.content for m in messages] == [
        f"to {world.ana.mention} {world.bob.mention}",
        f"all of {world.ana.mention} {world.bob.mention}",
        f"nobody {world.ana.mention} {world.bob.mention}",
        f"hello {world.ana.mention} {world.bob.mention}",
    ]
    # Every message mentions both; only what allowed_mentions lets through notifies, and only at creation.
    assert all([u.id for u in m.mentions] == [world.ana.id, world.bob.id] for m in messages)
    assert [[u.name for u in m.pinged] for m in messages] == [["bob"], ["ana", "bob"], [], []]
    secret = inter.followups[1]
    assert secret.ephemeral
    assert secret.pinged == []


# ------------------------------------------------------------------ shards


def sharded_bot(seen: list[tuple[int, str]], **shards: Any) -> commands.AutoShardedBot:
    """An AutoShardedBot with a ``/where`` command answering with the shard that got it."""
    intents = discord.Intents.default()
    intents.message_content = True
    bot = commands.AutoShardedBot(command_prefix="!", intents=intents, guild_ready_timeout=0.05, **shards)

    @bot.tree.command(name="where")
    async def where(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"shard {interaction.client.shard_ids}")  # type: ignore[attr-defined]

    @bot.listen()
    async def on_message(message: discord.Message) -> None:
        if not message.author.bot:
            seen.append((-1 if message.guild is None else message.guild.id, message.content))

    async def setup_hook() -> None:
        await bot.tree.sync()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


async def test_two_processes_each_get_their_shards_guilds_and_dms_go_to_shard_0() -> None:
    async with FakeDiscord(shard_count=2) as fake:
        guilds = [fake.add_guild(f"guild {n}", shard=n % 2) for n in range(4)]
        assert [(g.id >> 22) % 2 for g in guilds] == [0, 1, 0, 1]
        channels = [fake.add_text_channel(g, "games") for g in guilds]
        ana = fake.add_user("ana")
        for guild in guilds:
            fake.add_member(guild, ana)
        seen: list[list[tuple[int, str]]] = [[], []]
        first = sharded_bot(seen[0], shard_count=2, shard_ids=[0])
        second = sharded_bot(seen[1], shard_count=2, shard_ids=[1])
        async with fake.run_bot(first), fake.run_bot(second):
            await fake.wait_ready()
            assert {g.id for g in first.guilds} == {guilds[0].id, guilds[2].id}
            assert {g.id for g in second.guilds} == {guilds[1].id, guilds[3].id}
            for channel in channels:
                await fake.send_message(channel, ana, f"hello {channel.guild_id}")
            await fake.send_message(fake.dm_channel(ana), ana, "a DM")
            for channel, shard in zip(channels, [0, 1, 0, 1], strict=True):
                answer = await fake.invoke("where", user=ana, channel=channel)
                assert answer.response is not None
                assert answer.response.content == f"shard [{shard}]"
            from_dm = await fake.invoke("where", user=ana, channel=fake.dm_channel(ana))
            assert from_dm.response is not None
            assert from_dm.response.content == "shard [0]"
            forced = await fake.invoke("where", user=ana, channel=channels[0], shard=1)  # as in a rolling restart
            assert forced.response is not None
            assert forced.response.content == "shard [1]"
            await fake.wait_for(lambda: len(seen[0]) == 3 and len(seen[1]) == 2, what="the messages")
            assert sorted(seen[0]) == sorted(
                [(guilds[0].id, f"hello {guilds[0].id}"), (guilds[2].id, f"hello {guilds[2].id}"), (-1, "a DM")]
            )
            assert sorted(seen[1]) == sorted(
                [(guilds[1].id, f"hello {guilds[1].id}"), (guilds[3].id, f"hello {guilds[3].id}")]
            )
            # A guild that joins later arrives on its shard only.
            late = fake.add_guild("late", shard=1)
            await fake.wait_for(lambda: second.get_guild(late.id), what="the new guild on shard 1")
            assert first.get_guild(late.id) is None
        assert fake.identifies == 2
        assert not fake.unknown_requests


async def test_one_process_runs_every_recommended_shard() -> None:
    async with FakeDiscord(shard_count=2) as fake:
        guilds = [fake.add_guild(f"guild {n}", shard=n) for n in range(2)]
        bot = sharded_bot([])  # shard_count None: asks GET /gateway/bot
        async with fake.run_bot(bot):
            assert bot.shard_count == 2
            assert {g.id for g in bot.guilds} == {g.id for g in guilds}
            assert sorted(bot.shards) == [0, 1]
        assert fake.identifies == 2
        assert any(r.path == "/gateway/bot" for r in fake.requests)


async def test_a_shard_that_does_not_exist_is_refused() -> None:
    async with FakeDiscord(shard_count=2) as fake:
        with pytest.raises(FakeDiscordError, match="shard 2 does not exist"):
            fake.add_guild("nowhere", shard=2)


async def test_a_body_discord_would_refuse_is_a_violation_naming_the_request(world: World, running: Running) -> None:
    """Issue 36: the documented limits answer 400 with code 50035, and each such request is kept in ``violations``
    (the e2e fixture fails the test on it); a refusal the test asked for (``fail``) is none."""
    fake, bot = world.fake, running.bot
    channel = bot.get_channel(world.chan.id)
    assert isinstance(channel, discord.TextChannel)
    too_long = [
        {"content": "x" * 2001},
        {"embed": discord.Embed(title="t" * 257)},
        {"embed": discord.Embed(description="d" * 4097)},
        {"embed": discord.Embed().set_footer(text="f" * 2049)},
        {"embed": discord.Embed().set_author(name="a" * 257)},
        {"embed": discord.Embed().add_field(name="n", value="v" * 1025)},
        {
            "embed": discord.Embed(description="d" * 4000)
            .add_field(name="n", value="v" * 1000)
            .add_field(name="n", value="v" * 1000)
        },
    ]
    for message in too_long:
        with pytest.raises(discord.HTTPException) as info:
            await channel.send(**message)
        assert (info.value.status, info.value.code) == (400, 50035), message
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="l" * 81, custom_id="long"))
    with pytest.raises(discord.HTTPException) as info:
        await channel.send("ok", view=view)
    assert info.value.code == 50035
    assert len(fake.violations) == len(too_long) + 1
    assert all(r.method == "POST" and r.path == f"/channels/{world.chan.id}/messages" for r in fake.violations)
    report = fake.violation_report().splitlines()
    assert len(report) == len(fake.violations)
    assert "Must be 2000 or fewer in length." in report[0]
    assert "2048" in report[3]  # the footer's limit, from Discord's specification
    # Within the limits: accepted, and no violation.
    await channel.send("x" * 2000, embed=discord.Embed(title="t" * 256, description="d" * 4096).set_footer(text="f"))
    fake.violations.clear()
    fake.fail("POST", f"/channels/{world.chan.id}/messages", status=400, code=50035, message="Invalid Form Body")
    with pytest.raises(discord.HTTPException):
        await channel.send("fine")
    assert not fake.violations


async def test_a_private_message_is_edited_by_id_only_through_the_token_that_posted_it(
    world: World, running: Running
) -> None:
    """Issue 36: Discord documents a token editing the messages it posted, and a click reaching the message clicked as
    ``@original``; a click's token addressing that ephemeral message by id is answered 404 (Unknown Message)."""
    fake = world.fake
    posted = await fake.invoke("panel", user=world.ana, channel=world.chan)
    panel = posted.original
    assert panel is not None
    assert panel.ephemeral
    click = await fake.click(panel, "panel:refresh", user=world.ana)
    assert click.response is not None
    assert click.response.type == 6

    async def edit(token: str, target: object, text: str) -> tuple[int, Any]:
        url = f"{fake.api_url}/webhooks/{fake.application_id}/{token}/messages/{target}"
        async with aiohttp.ClientSession() as session, session.patch(url, json={"content": text}) as response:
            return response.status, await response.json()

    assert await edit(click.token, panel.id, "by id through the click") == (
        404,
        {"message": "Unknown Message", "code": 10008},
    )
    assert panel.content == "your panel"
    assert (await edit(click.token, "@original", "as @original of the click"))[0] == 200
    assert panel.content == "as @original of the click"
    assert (await edit(posted.token, panel.id, "by id through the token that posted it"))[0] == 200
    assert panel.content == "by id through the token that posted it"
    assert (await edit(posted.token, "@original", "as @original of its command"))[0] == 200
    assert panel.content == "as @original of its command"


async def test_discords_own_rate_limits_answer_429_with_its_headers_when_on(world: World, running: Running) -> None:
    """Issue 36: with ``route_limits`` on, the 6th edit of one message within 5 s, the 6th message in a channel within
    5 s and the 51st request of a second outside the interaction endpoints are answered 429 as Discord does (headers,
    ``retry_after``, ``global``); the requests within the limits say how many are left."""
    fake = world.fake
    fake.route_limits = limits = RouteLimits()
    headers = {"Authorization": "Bot fake-token"}
    message = fake.add_bot_message(world.chan, "board")
    url = f"{fake.api_url}/channels/{world.chan.id}/messages"
    async with aiohttp.ClientSession(headers=headers) as session:
        remaining = []
        for n in range(5):
            async with session.patch(f"{url}/{message.id}", json={"content": f"edit {n}"}) as response:
                assert response.status == 200
                remaining.append(response.headers["X-RateLimit-Remaining"])
        assert remaining == ["4", "3", "2", "1", "0"]
        async with session.patch(f"{url}/{message.id}", json={"content": "one too many"}) as response:
            assert response.status == 429
            body = await response.json()
            assert body["global"] is False
            assert 0 < body["retry_after"] <= 5
            assert response.headers["X-RateLimit-Remaining"] == "0"
            assert response.headers["X-RateLimit-Scope"] == "user"
            assert "X-RateLimit-Global" not in response.headers
        assert message.content == "edit 4"
        for n in range(5):
            async with session.post(url, json={"content": f"message {n}"}) as response:
                assert response.status == 200
        async with session.post(url, json={"content": "one too many"}) as response:
            assert response.status == 429
        # The global limit: 50 a second, whatever the route (the fixture's requests so far count too).
        statuses = []
        for _n in range(60):
            async with session.get(f"{fake.api_url}/channels/{world.other.id}") as response:
                statuses.append(response.status)
                if response.status == 429:
                    assert response.headers["X-RateLimit-Global"] == "true"
                    assert (await response.json())["global"] is True
        assert 200 in statuses
        assert 429 in statuses
    assert limits.refused["edit"] == 1
    assert limits.refused["send"] == 1
    assert limits.refused["global"] >= 10


async def test_a_body_against_discords_specification_is_a_violation(world: World, running: Running) -> None:
    """Issue 36: every body is checked against Discord's OpenAPI specification (``tests/openapi_check.py``), also
    where the fake has no rule of its own; what does not conform is a violation, with what is wrong."""
    fake = world.fake
    url = f"{fake.api_url}/channels/{world.chan.id}/messages"
    body = {"content": "hello", "allowed_mentions": {"parse": ["nobody"]}, "tts": "yes"}
    async with (
        aiohttp.ClientSession(headers={"Authorization": "Bot fake-token"}) as session,
        session.post(url, json=body) as response,
    ):
        assert response.status == 200  # the fake itself has no rule about these fields
    (violation,) = fake.violations
    assert violation.body == body
    assert any("allowed_mentions.parse[0]" in p for p in violation.problems)
    assert any("tts" in p and "boolean" in p for p in violation.problems)
    assert "allowed_mentions.parse[0]" in fake.violation_report()
    fake.violations.clear()
    assert not fake.violations
