"""/mygames: the tables where you are seated, in every server the bot shares with you, the ones waiting for you first.

A person at several tables cannot see from one channel where it is their turn (issue 38). The answer is private: it
names only tables the person sits at, and a jump link each, so nothing of anyone else's games is shown.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs._types import Interaction
from i18n import Localized, Text, _, lines, render
from storage import GameRecord
from table.admission import ANSWERED_PRIVATELY
from table.answer import UserError, send, shorten
from table.games import title

if TYPE_CHECKING:
    from bot import Bot

log = logging.getLogger(__name__)

COLOUR = discord.Colour.blurple()
# Where a table stands for the person asking, in the order the list shows them: their turn first.
YOUR_TURN, ANYONE, WAITING, SEATED, LOBBY = range(5)


@dataclass(frozen=True, slots=True)
class Seat:
    """One table the person sits at, as the list shows it."""

    standing: int
    record: GameRecord
    guild: str
    to_move: int | None  # who moves, where the table is running and it is somebody's turn


def jump_link(record: GameRecord) -> str:
    return f"https://discord.com/channels/{record.guild_id}/{record.channel_id}"


def describe(seat: Seat, title: str | Text) -> Localized:
    where = {"game": title, "channel": f"<#{seat.record.channel_id}>", "server": seat.guild}
    link = jump_link(seat.record)
    if seat.standing == YOUR_TURN:
        return _("**Your turn**: {game} in {channel} ({server}) · [go there]({link})", **where, link=link)
    if seat.standing == ANYONE:
        return _("**Anyone may start**: {game} in {channel} ({server}) · [go there]({link})", **where, link=link)
    if seat.standing == WAITING:
        return _(
            "{game} in {channel} ({server}): <@{player}> is playing · [go there]({link})",
            **where,
            player=seat.to_move,
            link=link,
        )
    if seat.standing == SEATED:
        return _("{game} in {channel} ({server}): under way · [go there]({link})", **where, link=link)
    return _("{game} in {channel} ({server}): waiting in the lobby · [go there]({link})", **where, link=link)


class MyGames(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name="mygames",
        description="The tables you are seated at, in every server, where it is your turn first.",
        extras={ANSWERED_PRIVATELY: True},
    )
    @app_commands.guild_only()
    async def mygames(self, interaction: Interaction) -> None:
        locale = self.bot.tables.languages.for_reader(interaction)
        seats = await self.seats(interaction.user.id)
        if not seats:
            raise UserError(_("You aren't seated at any table. /newgame opens one."))
        listed = lines(*[describe(seat, title(seat.record.kind)) for seat in seats])
        embed = discord.Embed(
            title=render(_("Your tables"), locale), description=shorten(render(listed, locale), 4096), colour=COLOUR
        )
        await send(interaction, embed=embed, ephemeral=True)

    async def seats(self, user_id: int) -> list[Seat]:
        """The open tables ``user_id`` sits at in servers this bot is in, their turn first, then by age."""
        found: list[Seat] = []
        for record in await self.bot.storage.open_games():
            guild = self.bot.get_guild(record.guild_id)
            if user_id not in record.players or guild is None:
                continue  # a server the bot has left: no link would open
            found.append(await self.seat(record, guild.name, user_id))
        found.sort(key=lambda seat: (seat.standing, seat.record.id))
        return found

    async def seat(self, record: GameRecord, guild: str, user_id: int) -> Seat:
        if record.status != "running" or not self.bot.tables.owns(record):
            # Another process's shard knows whose turn it is there; the lobby has no turn yet.
            return Seat(LOBBY if record.status == "lobby" else SEATED, record, guild, None)
        try:
            live = await self.bot.tables.games.live(record)
        except Exception:
            log.info("Game %s could not be read for /mygames", record.id, exc_info=True)
            return Seat(SEATED, record, guild, None)
        to_move = self.bot.tables.games.presenter(record).game.current_player(live.state)
        if to_move is None:
            return Seat(ANYONE, record, guild, None)
        return Seat(YOUR_TURN if to_move == user_id else WAITING, record, guild, to_move)


async def setup(bot: Bot) -> None:
    await bot.add_cog(MyGames(bot))
