"""Who sits at a lobby's table, as Discord asks it: joining and leaving, seating and sending away computer players,
and the host's turn time. The rules and the saving are the core's (``table.lobby``); this module turns a click or a
command into its call and shows the result on the lobby's message."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from cogs._learning import first_game_note
from cogs._types import Interaction
from cogs.lobby_message import LobbyMessage
from i18n import Text, _, render
from storage import GameRecord
from table.answer import in_time, send
from table.lobby import YOU_LEFT_TO_AUTOPILOT
from table.options import turn_time, turn_time_words

if TYPE_CHECKING:
    from bot import Bot

log = logging.getLogger(__name__)


class Seating:
    """The lobby's seats and settings before the deal, from Discord (the lobby's cog starts the game)."""

    def __init__(self, bot: Bot, message: LobbyMessage) -> None:
        self.bot = bot
        self.message = message

    async def join(self, interaction: Interaction) -> None:
        channel_id = interaction.channel_id
        assert channel_id is not None
        async with in_time(interaction), self.bot.tables.games.lock(channel_id):
            record = await self.bot.tables.lobby.join(channel_id, interaction.user.id)
        await self.message.answer(
            interaction, record, _("{player} joined.", player=interaction.user.mention), _("You joined")
        )
        note = await self.newcomer_note(interaction, record)
        if note is None:
            return
        try:
            locale = self.bot.tables.languages.for_reader(interaction)
            await send(interaction, content=render(note, locale), ephemeral=True)
        except discord.HTTPException:
            # The lobby is up and the player is in: a note that could not go out changes nothing.
            log.info("The first-game note for %s could not be sent", interaction.user.id, exc_info=True)

    async def newcomer_note(self, interaction: Interaction, record: GameRecord) -> Text | None:
        """For a person's first game on this server (no game of theirs has ended here yet): a short private note on
        how the table is played here."""
        if await self.bot.storage.player_tallies(record.guild_id, interaction.user.id):
            return None
        return first_game_note(record.kind)

    async def leave(self, interaction: Interaction) -> None:
        channel_id = interaction.channel_id
        assert channel_id is not None
        async with in_time(interaction), self.bot.tables.games.lock(channel_id):
            left = await self.bot.tables.lobby.leave(channel_id, interaction.user.id)
        if left.how == "move":
            # The game's own leave move, through the table's one path for moves (it answers the leaver).
            presenter = self.bot.tables.games.presenter(left.record)
            await self.bot.tables.act(interaction, presenter.game.leave, kind=left.record.kind)
            return
        if left.how == "autopilot":
            await send(
                interaction,
                content=render(YOU_LEFT_TO_AUTOPILOT, self.bot.tables.languages.for_reader(interaction)),
                ephemeral=True,
            )
            return
        if left.how == "closed":
            closed = _("Everybody left, so the lobby is closed. Open a new one with /newgame.")
            await send(interaction, content=render(closed, self.bot.tables.languages.for_table(interaction)))
            return
        player = interaction.user.mention
        text = (
            _("{player} left. The host left: any player may start now.", player=player)
            if left.host_left
            else _("{player} left.", player=player)
        )
        await self.message.answer(interaction, left.record, text, _("You left"))

    async def next_turn_time(self, interaction: Interaction) -> None:
        """The host steps through the turn times, one click each."""
        channel_id = interaction.channel_id
        assert channel_id is not None
        async with in_time(interaction), self.bot.tables.games.lock(channel_id):
            record = await self.bot.tables.lobby.next_turn_time(channel_id, interaction.user.id)
        await self.message.answer(
            interaction,
            record,
            _("Turn time: {time} (press again to change).", time=turn_time_words(turn_time(record))),
            _("The turn time was changed"),
        )

    async def change_bots(self, interaction: Interaction, change: int) -> None:
        """Seat a computer player (``change`` 1) or send the last one away (-1); the host's choice."""
        channel_id = interaction.channel_id
        assert channel_id is not None
        lobby = self.bot.tables.lobby
        async with in_time(interaction), self.bot.tables.games.lock(channel_id):
            if change > 0:
                record = await lobby.seat_computer(channel_id, interaction.user.id)
            else:
                record = await lobby.unseat_computer(channel_id, interaction.user.id)
        player = interaction.user.mention
        done = (
            _("{player} seated a computer player.", player=player)
            if change > 0
            else _("{player} sent a computer player away.", player=player)
        )
        mine = _("You seated a computer player") if change > 0 else _("You sent a computer player away")
        await self.message.answer(interaction, record, done, mine)
