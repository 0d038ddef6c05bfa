"""After a game's end: the Rematch under its end screen, live only under the channel's newest end screen (an older
one keeps only its Replay when a newer game ends, and a click on a Rematch that stayed is refused), with the team's
record in the new lobby. A rematch of a daily deal deals new cards: the day's cards were played already.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from cogs._pages import bound
from cogs._types import Interaction
from cogs._ui import Admitted, in_text_channel, reply_error
from cogs.lobby_message import LobbyMessage
from storage import GameRecord
from table.end_screen import REMATCH_ID, retire_end_screens
from table.transition import Transition

if TYPE_CHECKING:
    from bot import Bot

log = logging.getLogger(__name__)

LISTENER = "old end screens"
REMATCH_TEMPLATE = r"rematch:(?P<game>[0-9]+)"


class RematchButton(Admitted, discord.ui.DynamicItem[discord.ui.Button[Any]], template=REMATCH_TEMPLATE):
    """Under a finished game's last board: a lobby with the same players and options, two clicks from a new game.
    The cog registers a copy bound to itself (``cog``), which answers the clicks."""

    cog: AfterTheEnd | None = None

    def __init__(self, game: int) -> None:
        # Matched by custom id only: the board's own button carries the label, in the table's language.
        super().__init__(discord.ui.Button(style=discord.ButtonStyle.success, custom_id=REMATCH_ID.format(game=game)))
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RematchButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            assert self.cog is not None, "clicks reach the copy the cog registered"
            await self.cog.rematch(interaction, self.game)
        except Exception as error:
            await reply_error(interaction, error)


class AfterTheEnd(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.message = LobbyMessage(bot)
        self.button = bound(RematchButton, REMATCH_TEMPLATE, self)
        self._tidying: set[asyncio.Task[None]] = set()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(self.button)
        self.bot.tables.events.subscribe(LISTENER, self.on_moved)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(self.button)
        self.bot.tables.events.unsubscribe(LISTENER)
        for task in self._tidying:
            task.cancel()

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return in_text_channel(interaction)

    # ---- the Rematch ----------------------------------------------------------------------------------------

    async def rematch(self, interaction: Interaction, game_id: int) -> None:
        in_text_channel(interaction)
        channel_id = interaction.channel_id
        seed = self.bot.seeds.getrandbits(52)
        async with self.bot.tables.games.lock(channel_id or 0):
            rematch = await self.bot.tables.lobby.rematch(game_id, channel_id, interaction.user.id, seed)
            await self.message.post(interaction, rematch.record, rematch.announcement)

    # ---- older end screens lose their Rematch -----------------------------------------------------------------

    async def on_moved(self, event: Transition) -> None:
        """A game ended: the channel's previous end screen loses its Rematch (its Replay stays), in the background
        (the move's answer does not wait for it). A copy shown by /board does the same (``Table.show_result``)."""
        if event.presenter.game.is_over(event.after):
            task = asyncio.ensure_future(self.retire_older(event.live.record))
            self._tidying.add(task)
            task.add_done_callback(self._tidying.discard)

    async def retire_older(self, ended: GameRecord) -> None:
        tables = self.bot.tables
        await retire_end_screens(self.bot, self.bot.storage, ended, tables.languages.of_record)


async def setup(bot: Bot) -> None:
    await bot.add_cog(AfterTheEnd(bot))
