"""The commands every game shares while it runs and after: /hand, /board, /rules and /endgame; the table's votes on
an away player; and the channel's lifecycle (chat that pushes the board away, a deleted channel)."""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._cooldowns import posts_here
from cogs._learning import at_the_table
from cogs._results import game_over_here
from cogs._types import Interaction
from cogs._ui import Admitted, in_text_channel, reply_error
from cogs.lobby import DEFAULT_GAME, lobby_embed, lobby_view
from cogs.threads import report_result
from i18n import _, lines, render
from storage import Conflict
from table.admission import ANSWERED_PRIVATELY
from table.answer import UserError, in_time, send
from table.games import NO_GAME, title
from table.panels import REFRESH_ID, REFRESH_PATTERN
from table.registry import GAMES, registration
from table.settings import may_end_any_game

if TYPE_CHECKING:
    from bot import Bot

log = logging.getLogger(__name__)


class VoteButton(
    Admitted,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"vote:(?P<game>[0-9]+):(?P<kind>autopilot|remove):(?P<target>-?[0-9]+)",
):
    """The table's vote on a player who let the clock run out: autopilot for them, or out of the game."""

    def __init__(self, game: int, kind: str, target: int) -> None:
        # Matched by custom id only: the board's own button carries the label, in the table's language.
        super().__init__(discord.ui.Button(custom_id=f"vote:{game}:{kind}:{target}"))
        self.game, self.kind, self.target = game, kind, target

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> VoteButton:
        return cls(int(match["game"]), match["kind"], int(match["target"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            in_text_channel(interaction)
            await interaction.client.tables.vote(interaction, self.game, self.kind, self.target)
        except Exception as error:
            await reply_error(interaction, error)


class RefreshPanelButton(Admitted, discord.ui.DynamicItem[discord.ui.Button[Any]], template=REFRESH_PATTERN):
    """The Refresh button of a hand panel that stopped following the game: redraws it in place, as it is now,
    through the click's own token (the panel follows the game again)."""

    def __init__(self, game: int) -> None:
        super().__init__(discord.ui.Button(custom_id=REFRESH_ID.format(game=game)))
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RefreshPanelButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await interaction.client.tables.show_panel(interaction, game=self.game)
        except Exception as error:
            await reply_error(interaction, error)


class TableCommands(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(VoteButton, RefreshPanelButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(VoteButton, RefreshPanelButton)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return in_text_channel(interaction)

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.guild is not None and not message.author.bot:
            self.bot.tables.boards.note_chat(message.channel.id, message.id)

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        self.bot.tables.boards.chat_gone(payload.channel_id, payload.message_id)

    @app_commands.command(name="endgame", description="End this channel's lobby or game (host or Manage Channels).")
    @app_commands.guild_only()
    async def endgame(self, interaction: Interaction) -> None:
        channel_id = interaction.channel_id
        assert channel_id is not None
        async with in_time(interaction), self.bot.tables.games.lock(channel_id):
            record = await self.bot.tables.games.open_record(channel_id)
            if (
                interaction.user.id != record.host_id
                and not await self.bot.tables.lobby.nobody_hosts(record, interaction.user.id)
                and not interaction.permissions.manage_channels
                and not await may_end_any_game(interaction, self.bot.storage)
            ):
                raise UserError(_("Only the host or a member with Manage Channels can end this game."))
            await self.bot.tables.abandon(record)
        log.info("%s in channel %s ended by %s", record.kind, channel_id, interaction.user.id)
        values = {"player": interaction.user.mention, "game": title(record.kind)}
        ended = (
            _("{player} ended the lobby of {game}. No score is recorded; the channel is free for /newgame.", **values)
            if record.status == "lobby"
            else _(
                "{player} ended the game of {game}. No score is recorded; the channel is free for /newgame.", **values
            )
        )
        await send(interaction, content=render(ended, self.bot.tables.languages.for_table(interaction)))
        await report_result(self.bot, record, ended_early=True)

    # ---- commands every running game shares ---------------------------------------------------------------------

    @app_commands.command(
        name="hand", description="See your own hand (and chips) privately.", extras={ANSWERED_PRIVATELY: True}
    )
    @app_commands.guild_only()
    async def hand(self, interaction: Interaction) -> None:
        channel_id = interaction.channel_id or 0
        async with in_time(interaction, ephemeral=True):  # reads that may wait for a busy database
            if await self.bot.storage.open_game(channel_id) is None:
                # After the end, the hand is gone: say how the last game ended rather than that there is none.
                last = await self.bot.storage.channel_games(channel_id, limit=1)
                if last and last[0].started_at is not None:
                    raise UserError(game_over_here(last[0]))
            await self.bot.tables.show_panel(interaction)

    @app_commands.command(name="board", description="Post the board of this channel's game again.")
    @app_commands.guild_only()
    @posts_here()
    async def board(self, interaction: Interaction) -> None:
        async with in_time(interaction):  # reads that may wait for a busy database
            await self.show_board(interaction)

    async def show_board(self, interaction: Interaction) -> None:
        record = await self.bot.storage.open_game(interaction.channel_id or 0)
        if record is None:
            # For a while after the end (until the next /newgame), the board shows how the last game ended.
            last = await self.bot.storage.channel_games(interaction.channel_id or 0, limit=1)
            if not last or last[0].started_at is None:
                raise UserError(NO_GAME)
            await self.bot.tables.show_result(interaction, last[0])
            return
        if record.status == "lobby" and record.kind in GAMES and not record.damaged:
            locale = self.bot.tables.languages.for_table(interaction)
            await send(
                interaction,
                content=render(_("Waiting for players."), locale),
                embed=lobby_embed(record, locale),
                view=lobby_view(locale),
            )
            return
        await self.bot.tables.show_board(interaction, record)

    @app_commands.command(name="rules", description="The rules in short, privately.", extras={ANSWERED_PRIVATELY: True})
    @app_commands.guild_only()
    @app_commands.describe(
        game=f"Which game's rules (default: the game in this channel, else {GAMES[DEFAULT_GAME].info.title})"
    )
    @app_commands.choices(game=[app_commands.Choice(name=g.info.title, value=g.info.kind) for g in GAMES.values()])
    async def rules(self, interaction: Interaction, game: str | None = None) -> None:
        if game is None:
            async with in_time(interaction, ephemeral=True):
                record = await self.bot.storage.open_game(interaction.channel_id or 0)
            game = record.kind if record and record.kind in GAMES else DEFAULT_GAME
        hosted = registration(game)
        if hosted is None:
            raise UserError(_("{game} isn't available on this bot yet.", game=title(game)))
        rules = lines(hosted.presenter.rules_text, "", at_the_table(game))
        locale = self.bot.tables.languages.for_reader(interaction)
        await send(interaction, content=render(rules, locale), ephemeral=True)

    # ---- the channel is gone ----------------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.close_deleted(channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.close_deleted(payload.thread_id)

    async def close_deleted(self, channel_id: int) -> None:
        """A deleted channel's game can never be played again: end it as abandoned rather than running forever."""
        async with self.bot.tables.games.lock(channel_id):
            record = await self.bot.storage.open_game(channel_id)
            if record is None:
                return
            try:
                await self.bot.tables.abandon(record)
            except Conflict:
                return
        log.info("Channel %s was deleted; its game %s is abandoned", channel_id, record.id)


async def setup(bot: Bot) -> None:
    await bot.add_cog(TableCommands(bot))
