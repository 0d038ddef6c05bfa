"""After a game's end: the Rematch under its end screen, live only under the channel's newest end screen (an older
one keeps only its Replay when a newer game ends, and a click on a Rematch that stayed is refused), with the team's
record in the new lobby. A rematch of a daily deal deals new cards: the day's cards were played already.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import TYPE_CHECKING, Any, cast

import discord
from discord.ext import commands

from cogs._ui import in_text_channel, reply_error
from cogs.lobby import Lobby
from engine import GAMES
from i18n import Localized, _, lines
from storage import ChannelBusy, GameRecord, NewGame, is_former
from table.answer import UserError, detached
from table.end_screen import REMATCH_ID, replay_view, team_record
from table.transition import Transition

if TYPE_CHECKING:
    from bot import Bot

log = logging.getLogger(__name__)

LISTENER = "old end screens"
# The options a rematch does not take over: the daily deal's (a rematch deals new cards).
DAILY_OPTIONS = ("deal", "date")


class RematchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"rematch:(?P<game>[0-9]+)"):
    """Under a finished game's last board: a lobby with the same players and options, two clicks from a new game."""

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
            await interaction.client.get_cog("AfterTheEnd").rematch(interaction, self.game)
        except Exception as error:
            await reply_error(interaction, error)


def newest_played(games: list[GameRecord]) -> GameRecord | None:
    """The newest game that was dealt, of a channel's games (newest first): lobbies closed unplayed don't count."""
    return next((g for g in games if g.started_at is not None), None)


class AfterTheEnd(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self._tidying: set[asyncio.Task[None]] = set()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(RematchButton)
        self.bot.tables.events.subscribe(LISTENER, self.on_moved)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(RematchButton)
        self.bot.tables.events.unsubscribe(LISTENER)
        for task in self._tidying:
            task.cancel()

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return in_text_channel(interaction)

    # ---- the Rematch ----------------------------------------------------------------------------------------

    async def rematch(self, interaction: discord.Interaction[Bot], game_id: int) -> None:
        in_text_channel(interaction)
        old = await self.bot.storage.game(game_id)
        if old is None or old.channel_id != interaction.channel_id or old.is_open:
            raise UserError(_("That game can't be played again from here; open a new one with /newgame."))
        if interaction.user.id not in old.players:
            raise UserError(_("Only the players of that game can ask for a rematch; open a new one with /newgame."))
        info = GAMES[old.kind].info
        # The presser hosts and comes first; the others keep their order. A former player (/forget) is nobody to
        # seat: their seat would never act.
        players = (interaction.user.id, *(p for p in old.players if p != interaction.user.id and not is_former(p)))
        daily = old.options.get("deal") == "daily"
        new = NewGame(
            channel_id=old.channel_id,
            guild_id=old.guild_id,
            kind=old.kind,
            host_id=interaction.user.id,
            players=players,
            variants=old.variants,
            seed=self.bot.seeds.getrandbits(52),
            rules_version=info.rules_version,
            options={key: value for key, value in old.options.items() if key not in DAILY_OPTIONS},
        )
        values = {"player": interaction.user.mention, "game": info.title}
        wants: Localized = (
            _("{player} wants a rematch of {game} with a random deal: press Start to deal.", **values)
            if daily
            else _("{player} wants a rematch of {game}: press Start to deal.", **values)
        )
        record_line = await team_record(self.bot.storage, old)
        async with self.bot.tables.lock(old.channel_id):
            newest = newest_played(await self.bot.storage.channel_games(old.channel_id, limit=5))
            if newest is not None and newest.id != old.id and not newest.is_open:
                raise UserError(
                    _(
                        "That Rematch is out of date: a later game has ended here since. Use the Rematch under the "
                        "newest end screen, or /newgame."
                    )
                )
            try:
                record = await self.bot.storage.create_game(new)
            except ChannelBusy:
                raise UserError(
                    _("A game is already open in this channel: join it, or ask its host to /endgame.")
                ) from None
            lobby = cast(Lobby, self.bot.get_cog("Lobby"))
            await lobby.post_lobby(interaction, record, lines(wants, record_line))

    # ---- older end screens lose their Rematch -----------------------------------------------------------------

    async def on_moved(self, event: Transition) -> None:
        """A game ended: the channel's previous end screen loses its Rematch (its Replay stays), in the background
        (the move's answer does not wait for it)."""
        if event.presenter.game.is_over(event.after):
            task = asyncio.ensure_future(self.retire_older(event.live.record))
            self._tidying.add(task)
            task.add_done_callback(self._tidying.discard)

    async def retire_older(self, ended: GameRecord) -> None:
        games = await self.bot.storage.channel_games(ended.channel_id, limit=5)
        # The last finished one before it: a game ended early in between lost its buttons when it was ended.
        older = next((g for g in games if g.id < ended.id and g.status == "finished"), None)
        if older is None or older.message_id is None:
            return
        channel = self.bot.get_partial_messageable(ended.channel_id)
        replay_only = detached(replay_view(older, self.bot.tables.languages.of_record(older)))
        try:
            await channel.get_partial_message(older.message_id).edit(view=replay_only)
        except discord.HTTPException:
            # Deleted, or no longer ours to edit: a click on it is refused all the same.
            log.info("The end screen of game %s kept its Rematch", older.id, exc_info=True)


async def setup(bot: Bot) -> None:
    await bot.add_cog(AfterTheEnd(bot))
