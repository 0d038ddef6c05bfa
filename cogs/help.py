"""/help: every command of the bot with its one line, read from the command tree itself (so it never goes stale),
in the reader's language: the names and descriptions Discord shows them, from the same catalogs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where
from discord.ext import commands

from cogs._types import Interaction
from i18n import Localized, _, lines, render
from i18n.slash import localize_command_string
from table.admission import ANSWERED_PRIVATELY
from table.answer import send, shorten

if TYPE_CHECKING:
    from bot import Bot

COLOUR = discord.Colour.blurple()


def localized(message: str, locale: str, where: Where) -> str:
    """A command string as the reader's Discord shows it (English where the catalogs have no language for them)."""
    try:
        discord_locale = discord.Locale(locale)
    except ValueError:
        return message
    return localize_command_string(message, discord_locale, where) or message


def command_lines(tree: app_commands.CommandTree[Any], locale: str) -> list[Localized]:
    """One line per command (a group's subcommands each on their own), in the order the tree holds them."""
    found: list[Localized] = []
    for command in tree.get_commands():
        inner = command.commands if isinstance(command, app_commands.Group) else [command]
        for each in inner:
            if not isinstance(each, app_commands.Command):
                continue
            names = [each.name] if each.parent is None else [each.parent.name, each.name]
            name = " ".join(localized(n, locale, Where.command_name) for n in names)
            description = localized(each.description, locale, Where.command_description)
            found.append(_("`/{command}`: {description}", command=name, description=description))
    return found


class Help(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name="help",
        description="Every command of this bot, one line each, privately.",
        extras={ANSWERED_PRIVATELY: True},
    )
    @app_commands.guild_only()
    async def help(self, interaction: Interaction) -> None:
        locale = self.bot.tables.languages.for_reader(interaction)
        embed = discord.Embed(
            title=render(_("The commands"), locale),
            description=shorten(render(lines(*command_lines(self.bot.tree, locale)), locale), 4096),
            colour=COLOUR,
        )
        embed.set_footer(
            text=render(_("Start with /newgame. /rules explains each game and how it is played here."), locale)
        )
        await send(interaction, embed=embed, ephemeral=True)


async def setup(bot: Bot) -> None:
    await bot.add_cog(Help(bot))
