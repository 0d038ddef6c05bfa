"""The daily deal: the same cards on every server for a game, UTC day and table size, and /daily to compare how
the server's tables did with them. Until its day is over, a daily game's replay stays closed (``hidden_until``), so
nobody learns the cards before playing them.
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._cooldowns import posts_here_when_public
from cogs._pages import COLOUR, audience, rank_key, title
from cogs._results import hint_marked, people, result_text
from cogs._types import Interaction
from cogs._ui import in_text_channel
from i18n import _, _n, lines, render
from i18n import day as i18n_day
from storage import GameRecord
from table.answer import send, shorten
from table.lobby_rules import utc_today
from table.options import options_of
from table.people import is_ai

if TYPE_CHECKING:
    from bot import Bot

# /newgame's deal choices (translated with the command strings); the lobby says the daily deal in the table's language.
DEALS = {"random": "a random shuffle (default)", "daily": "today's daily deal: the same cards on every server"}
DAILY_DEAL = _("today's daily deal: the same cards on every server")
TODAYS_DEAL_CLOSED = _("Today's daily deal: its replay opens tomorrow (UTC).")


def deal_day(record: GameRecord) -> str | None:
    """The UTC day (ISO date) of a game dealt from the daily deal, else None."""
    options = options_of(record)
    return options.date if options.daily else None


def hidden_today(record: GameRecord, today: date) -> bool:
    """Whether the game's cards are still secret: a daily deal whose UTC day is not over (for everybody, its
    players too: they could tell their friends)."""
    day = deal_day(record)
    return day is not None and day >= today.isoformat()


def today_of(bot: Any) -> date:
    """Today's date (UTC) as the lobby deals it: the core lobby's clock, which tests may set (a bot without a table
    yet reads the real one)."""
    lobby = getattr(getattr(bot, "tables", None), "lobby", None)
    clock = getattr(lobby, "today", None) or utc_today
    day: date = clock()
    return day


class Daily(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return in_text_channel(interaction)

    def today(self) -> str:
        return today_of(self.bot).isoformat()

    @app_commands.command(name="daily", description="Today's daily deal: how every table here did with the same cards.")
    @app_commands.guild_only()
    @posts_here_when_public()
    @app_commands.describe(public="Show it to the channel")
    async def daily(self, interaction: Interaction, public: bool = False) -> None:
        day = self.today()
        locale = audience(interaction, public)
        games = await self.bot.storage.daily_games(interaction.guild_id or 0, day)
        embed = discord.Embed(
            title=render(_("The daily deal of {day} (UTC)", day=i18n_day(date.fromisoformat(day))), locale),
            colour=COLOUR,
        )
        if not games:
            embed.description = render(
                _(
                    "No table here has finished today's deal yet. Play it with `/newgame deal:daily`: the same cards "
                    "on every server, one deal per game and number of players."
                ),
                locale,
            )
        groups: dict[tuple[str, int], list[GameRecord]] = {}
        for record in games:
            groups.setdefault((record.kind, len(record.players)), []).append(record)
        for (kind, seats), records in sorted(groups.items()):
            rows = []
            for r in sorted(records, key=rank_key):
                values = {"channel": f"<#{r.channel_id}>", "players": people(r.players), "result": result_text(r)}
                if any(map(is_ai, r.players)):
                    row = _("{channel}: {players} · {result} 🤖", **values)
                else:
                    row = _("{channel}: {players} · {result}", **values)
                # Played with a Hint: compared all the same (it was the table's first try), but marked as in /history.
                rows.append(hint_marked(r, row))
            embed.add_field(
                name=render(_n("{game}, {count} player", "{game}, {count} players", seats, game=title(kind)), locale),
                value=shorten(render(lines(*rows), locale), 1024),
                inline=False,
            )
        embed.set_footer(
            text=render(_("Each table's first try of the day counts. A new deal at midnight UTC."), locale)
        )
        await send(interaction, embed=embed, ephemeral=not public)


async def setup(bot: Bot) -> None:
    await bot.add_cog(Daily(bot))
