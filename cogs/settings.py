"""/settings: a server's own turn times, pings, game channels, table language and game-ending role (issue 24).

Everyone may read them; members with Manage Server change them, in one private panel of select menus. The panel is
a persistent view with fixed custom ids (registered once in ``cog_load``) and keeps nothing itself: each choice reads
the server's settings, changes one thing and shows the result, so an open panel keeps working after a restart. The
games read the settings when a game opens (``table.settings``): a change applies from the next game on.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from cogs._types import Interaction
from cogs._ui import ErrorHandlingView
from engine.game import Game
from i18n import Localized, Text, _, _p, lines, render
from table.admission import ANSWERED_PRIVATELY
from table.answer import UserError, detached, send
from table.language import note_table_language
from table.options import TURN_TIMES, turn_time_words
from table.registry import GAMES
from table.settings import ServerSettings, server_settings, table_languages

if TYPE_CHECKING:
    from bot import Bot

log = logging.getLogger(__name__)

COLOUR = discord.Colour.dark_teal()
MANAGERS_ONLY = _("Only members with the Manage Server permission can change this server's settings.")
# Discord's limit on a select menu's options: every game's turn times share one menu.
MAX_OPTIONS = 25


def settings_embed(settings: ServerSettings, locale: str, *, can_change: bool) -> discord.Embed:
    """The server's settings in the reader's ``locale`` (the panel is private)."""

    def say(text: Localized | str) -> str:
        return render(text, locale)

    def time_line(kind: str, game: Game[Any, Any]) -> Text:
        values = {"game": game.info.title, "time": turn_time_words(settings.turn_time(kind))}
        if kind in settings.turn_times:
            return _("{game}: {time}", **values)
        return _("{game}: {time} (the game's default)", **values)

    embed = discord.Embed(title=say(_("Settings of this server's card tables")), colour=COLOUR)
    times = lines(*(time_line(kind, game) for kind, game in GAMES.items()))
    embed.add_field(name=say(_("Turn time of a new game")), value=say(times), inline=False)
    pings = _("on: the player to move is mentioned") if settings.pings else _("off")
    embed.add_field(name=say(_("Pings")), value=say(pings), inline=False)
    places = ", ".join(f"<#{channel}>" for channel in sorted(settings.channels))
    embed.add_field(
        name=say(_("Channels games may be opened in")), value=places or say(_("every text channel")), inline=False
    )
    embed.add_field(
        name=say(_("Language of the tables")), value=say(table_languages()[settings.language]), inline=False
    )
    ender = f"<@&{settings.end_role}>" if settings.end_role else say(_("nobody beyond the host and Manage Channels"))
    embed.add_field(name=say(_("May end any game")), value=ender, inline=False)
    footer = (
        _("Changes apply from the next game on.")
        if can_change
        else _("Members with Manage Server change these with /settings.")
    )
    embed.set_footer(text=say(footer))
    return embed


def turn_time_options(settings: ServerSettings, locale: str = "en") -> list[discord.SelectOption]:
    return [
        discord.SelectOption(
            label=render(_("{game}: {time}", game=game.info.title, time=turn_time_words(seconds)), locale),
            value=f"{kind}:{seconds}",
            default=settings.turn_times.get(kind) == seconds,
        )
        for kind, game in GAMES.items()
        for seconds in TURN_TIMES.values()
    ][:MAX_OPTIONS]


class SettingsView(ErrorHandlingView):
    """The managers' panel. Built with a server's settings to show them; the instance registered at start-up (built
    with the defaults) answers every choice, whatever panel it came from."""

    def __init__(self, cog: Settings, settings: ServerSettings | None = None, locale: str = "en") -> None:
        super().__init__()
        self.cog = cog
        shown = settings or ServerSettings()

        def say(text: Localized) -> str:
            return render(text, locale)

        # The decorated callbacks are the items once the view is built; typed as what they are.
        turn_time = cast(discord.ui.Select[Any], self.turn_time)
        pings = cast(discord.ui.Select[Any], self.pings)
        language = cast(discord.ui.Select[Any], self.language)
        turn_time.options = turn_time_options(shown, locale)
        turn_time.max_values = min(len(GAMES), len(turn_time.options))
        turn_time.placeholder = say(_p("menu", "Turn time of a new game (one per game; none: the game's default)"))
        for option in pings.options:
            option.default = (option.value == "on") == shown.pings
            option.label = say(
                _p("menu", "Pings on: mention the player whose turn it is")
                if option.value == "on"
                else _p("menu", "Pings off: nobody is mentioned")
            )
        # Every language with a catalog, read now: a catalog added is offered without a change here.
        language.options = [
            discord.SelectOption(
                label=say(_p("menu", "Language: {language}", language=name)),
                value=code,
                default=code == shown.language,
            )
            for code, name in table_languages().items()
        ][:MAX_OPTIONS]
        self.channels.placeholder = say(_p("menu", "Channels games may be opened in (none chosen: every channel)"))
        self.end_role.placeholder = say(
            _p("menu", "A role that may end any game (none chosen: hosts and Manage Channels only)")
        )
        self.channels.default_values = [discord.Object(channel) for channel in sorted(shown.channels)]
        self.end_role.default_values = [discord.Object(shown.end_role)] if shown.end_role else []

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        if interaction.guild_id is None or not interaction.permissions.manage_guild:
            raise UserError(MANAGERS_ONLY)
        return True

    @discord.ui.select(
        custom_id="settings:turn_time",
        min_values=0,
        options=[discord.SelectOption(label="-")],
    )
    async def turn_time(self, interaction: Interaction, select: discord.ui.Select[Any]) -> None:
        chosen: dict[str, int] = {}
        for value in select.values:
            kind, _sep, seconds = value.partition(":")
            if kind in chosen:
                raise UserError(_("Pick one turn time for {game}, not two.", game=GAMES[kind].info.title))
            chosen[kind] = int(seconds)
        await self.cog.change(interaction, lambda s: replace(s, turn_times=MappingProxyType(chosen)))

    @discord.ui.select(
        custom_id="settings:pings",
        # Labelled in the reader's language when a panel is built; matched by value.
        options=[discord.SelectOption(label="on", value="on"), discord.SelectOption(label="off", value="off")],
    )
    async def pings(self, interaction: Interaction, select: discord.ui.Select[Any]) -> None:
        pings = select.values[0] == "on"
        await self.cog.change(interaction, lambda s: replace(s, pings=pings))

    @discord.ui.select(
        custom_id="settings:language",
        # Filled with the languages, in the reader's language, when a panel is built; matched by value.
        options=[discord.SelectOption(label="-")],
    )
    async def language(self, interaction: Interaction, select: discord.ui.Select[Any]) -> None:
        language = select.values[0]
        await self.cog.change(interaction, lambda s: replace(s, language=language))

    @discord.ui.select(
        cls=discord.ui.ChannelSelect,
        custom_id="settings:channels",
        channel_types=[discord.ChannelType.text, discord.ChannelType.news],
        min_values=0,
        max_values=25,
    )
    async def channels(self, interaction: Interaction, select: discord.ui.ChannelSelect[Any]) -> None:
        chosen = frozenset(channel.id for channel in select.values)
        await self.cog.change(interaction, lambda s: replace(s, channels=chosen))

    @discord.ui.select(
        cls=discord.ui.RoleSelect,
        custom_id="settings:end_role",
        min_values=0,
        max_values=1,
    )
    async def end_role(self, interaction: Interaction, select: discord.ui.RoleSelect[Any]) -> None:
        role = select.values[0].id if select.values else None
        await self.cog.change(interaction, lambda s: replace(s, end_role=role))


class Settings(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_view(SettingsView(self))

    @app_commands.command(
        name="settings",
        description="This server's card-table settings (Manage Server changes them)",
        extras={ANSWERED_PRIVATELY: True},
    )
    @app_commands.guild_only()
    async def settings_command(self, interaction: Interaction) -> None:
        assert interaction.guild_id is not None
        settings = await server_settings(self.bot.storage, interaction.guild_id)
        can_change = interaction.permissions.manage_guild
        locale = self.bot.tables.languages.for_reader(interaction)
        view = detached(SettingsView(self, settings, locale)) if can_change else discord.utils.MISSING
        embed = settings_embed(settings, locale, can_change=can_change)
        await send(interaction, embed=embed, view=view, ephemeral=True)

    async def change(self, interaction: Interaction, change: Any) -> None:
        """Apply ``change(settings) -> settings`` to the server's saved settings and show the result in place."""
        assert interaction.guild_id is not None

        def apply(saved: dict[str, Any]) -> dict[str, Any]:
            # Keys this bot does not know (a newer version's) are kept as they were.
            return {**saved, **change(ServerSettings.from_dict(saved)).to_dict()}

        saved = await self.bot.storage.update_guild_settings(interaction.guild_id, apply)
        settings = ServerSettings.from_dict(saved)
        note_table_language(interaction.guild_id, settings.chosen_language)
        log.info("Settings of server %s changed by %s: %s", interaction.guild_id, interaction.user.id, saved)
        locale = self.bot.tables.languages.for_reader(interaction)
        await interaction.response.edit_message(
            embed=settings_embed(settings, locale, can_change=True), view=detached(SettingsView(self, settings, locale))
        )


async def setup(bot: Bot) -> None:
    await bot.add_cog(Settings(bot))
