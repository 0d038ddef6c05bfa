"""/me: a person's own preferences (issue 38): the misclick guard, pings and their language, in one private panel of
select menus. Each choice set wins over the server's (``/settings``) at every table; "the server's choice" sets it
back (``table.preferences``).

Like /settings' panel, a persistent view with fixed custom ids that keeps nothing itself: each choice reads the
person's preferences, changes one and shows the result, so an open panel keeps working after a restart.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from cogs._types import Interaction
from cogs._ui import ErrorHandlingView
from i18n import Localized, Text, _, _p, language_name, languages, render
from table import preferences
from table.admission import ANSWERED_PRIVATELY
from table.answer import detached, send, update
from table.preferences import Preferences

if TYPE_CHECKING:
    from bot import Bot

log = logging.getLogger(__name__)

COLOUR = discord.Colour.dark_green()
UNSET = "default"  # a menu's value for "not chosen: the server's (or Discord's) choice applies"


def locale_of(interaction: Interaction, chosen: Preferences) -> str:
    return chosen.language or interaction.locale.value


def me_embed(chosen: Preferences, locale: str) -> discord.Embed:
    def say(text: Localized | str) -> str:
        return render(text, locale)

    guard = (
        _("off: every legal card is laid at once")
        if chosen.guard is False
        else _("on: a lay that looks like a slip asks once")
    )
    pings: Text = {
        None: _("as the server chose (/settings)"),
        True: _("on: I am mentioned when my turn begins"),
        False: _("off: nobody mentions me"),
    }[chosen.pings]
    language: Text | str = language_name(chosen.language) if chosen.language else _("my Discord's language")
    embed = discord.Embed(title=say(_("Your preferences")), colour=COLOUR)
    embed.add_field(name=say(_("Misclick guard")), value=say(guard), inline=False)
    embed.add_field(name=say(_("Pings")), value=say(pings), inline=False)
    embed.add_field(name=say(_("Language of what only you see")), value=say(language), inline=False)
    embed.set_footer(text=say(_("Yours alone, at every table; they win over the server's settings.")))
    return embed


def option(label: Text, value: str, chosen: object, locale: str) -> discord.SelectOption:
    return discord.SelectOption(label=render(label, locale), value=value, default=value == chosen)


def as_value(choice: bool | None) -> str:
    return UNSET if choice is None else "on" if choice else "off"


class MeView(ErrorHandlingView):
    """The private panel under /me. Built with a person's preferences to show them; the instance registered at
    start-up answers every choice, whatever panel it came from."""

    def __init__(self, cog: Me, chosen: Preferences | None = None, locale: str = "en") -> None:
        super().__init__()
        self.cog = cog
        shown = chosen or Preferences()
        guard = cast(discord.ui.Select[Any], self.guard)
        pings = cast(discord.ui.Select[Any], self.pings)
        language = cast(discord.ui.Select[Any], self.language)
        guard_value = "off" if shown.guard is False else "on"
        guard.options = [
            option(_p("menu", "Misclick guard on: ask before a likely slip"), "on", guard_value, locale),
            option(_p("menu", "Misclick guard off: never ask"), "off", guard_value, locale),
        ]
        pings.options = [
            option(_p("menu", "Pings as the server chose"), UNSET, as_value(shown.pings), locale),
            option(_p("menu", "Pings on: mention me when my turn begins"), "on", as_value(shown.pings), locale),
            option(_p("menu", "Pings off: never mention me"), "off", as_value(shown.pings), locale),
        ]
        # Every language with a catalog, read now: a catalog added is offered without a change here.
        language.options = [
            option(_p("menu", "Language: my Discord's"), UNSET, shown.language or UNSET, locale),
            *(
                discord.SelectOption(label=language_name(code), value=code, default=code == shown.language)
                for code in languages()
            ),
        ]

    @discord.ui.select(custom_id="me:guard", options=[discord.SelectOption(label="-")])
    async def guard(self, interaction: Interaction, select: discord.ui.Select[Any]) -> None:
        on = select.values[0] == "on"
        await self.cog.change(interaction, lambda p: replace(p, guard=None if on else False))

    @discord.ui.select(custom_id="me:pings", options=[discord.SelectOption(label="-")])
    async def pings(self, interaction: Interaction, select: discord.ui.Select[Any]) -> None:
        value = select.values[0]
        await self.cog.change(interaction, lambda p: replace(p, pings=None if value == UNSET else value == "on"))

    @discord.ui.select(custom_id="me:language", options=[discord.SelectOption(label="-")])
    async def language(self, interaction: Interaction, select: discord.ui.Select[Any]) -> None:
        value = select.values[0]
        await self.cog.change(interaction, lambda p: replace(p, language=None if value == UNSET else value))


class Me(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_view(MeView(self))

    @app_commands.command(
        name="me",
        description="Your own preferences: misclick guard, pings, language.",
        extras={ANSWERED_PRIVATELY: True},
    )
    @app_commands.guild_only()
    async def me(self, interaction: Interaction) -> None:
        chosen = await preferences.load(self.bot.storage, interaction.user.id)
        locale = locale_of(interaction, chosen)
        view = detached(MeView(self, chosen, locale))
        await send(interaction, embed=me_embed(chosen, locale), view=view, ephemeral=True)

    async def change(self, interaction: Interaction, change: Any) -> None:
        """Apply ``change(preferences) -> preferences`` to the person's saved preferences (committed before the
        answer) and show the result in place."""
        user = interaction.user.id
        chosen = change(await preferences.load(self.bot.storage, user))
        await preferences.save(self.bot.storage, user, chosen)
        log.debug("Preferences of user %s changed: %s", user, chosen)
        locale = locale_of(interaction, chosen)
        await update(interaction, embed=me_embed(chosen, locale), view=detached(MeView(self, chosen, locale)))


async def setup(bot: Bot) -> None:
    await bot.add_cog(Me(bot))
