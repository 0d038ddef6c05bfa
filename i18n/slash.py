"""The discord.py side of the translations: slash commands in the user's language, and whose language a text is in.

Command names are translated as well as descriptions, in German, French and Spanish alike: a player types the command
in their own language (``/neuesspiel``, ``/nouvellepartie``, ``/nuevapartida``). The English names stay the commands'
real names: Discord sends the bot a command's default (English) name whatever the player's client shows, so the bot's
handlers and the tests never see a translated name, and a player whose Discord speaks another language sees them. A
text that names a command names it in its reader's language (the catalog check holds translations to that). Choices and
option names are translated too; the values the bot receives never are. Pile letters (A to D) and card numbers stay
as they are in every language.

Each kind of command string has its own catalog context (``CONTEXTS``), so that a command name, which Discord wants
lowercase and without spaces, never shares a translation with the same English word in a sentence.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from i18n import SOURCE_LANGUAGE, language, languages, table_locale, translations


def command_locales() -> tuple[discord.Locale, ...]:
    """The Discord locales that get localised commands: every one whose language has a catalog (German: ``de``;
    Spanish: ``es-ES`` and ``es-419``), each reading the catalog of its language."""
    return _locales_of(languages())


@functools.cache
def _locales_of(codes: tuple[str, ...]) -> tuple[discord.Locale, ...]:
    return tuple(
        locale for locale in discord.Locale if (part := locale.value.split("-")[0]) in codes and part != SOURCE_LANGUAGE
    )


# The shipped catalogs' (``command_locales()`` follows i18n.LOCALES_DIR).
COMMAND_LOCALES = command_locales()
CONTEXTS = {
    Where.command_name: "command name",
    Where.command_description: "command description",
    Where.group_name: "command name",
    Where.group_description: "command description",
    Where.parameter_name: "option name",
    Where.parameter_description: "option description",
    Where.choice_name: "option choice",
}


class CatalogTranslator(app_commands.Translator):
    """Every command string discord.py syncs, looked up in the catalogs under its context."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        return localize_command_string(string.message, locale, context.location)


def localize_command_string(message: str, locale: discord.Locale, where: Where) -> str | None:
    """The translation of one command string in a locale with a catalog (for a string missing from the catalog, the
    English, which tests/i18n does not let happen), or None for every other locale: Discord shows them the English."""
    context = CONTEXTS.get(where)
    if locale not in command_locales() or context is None:
        return None
    return translations(language(locale.value)).pgettext(context, message)


def reader_locale(interaction: discord.Interaction[Any]) -> str:
    """The locale of the person who clicked or typed: for what only they see."""
    return interaction.locale.value


def table_locale_for(where: discord.Interaction[Any] | discord.Guild | None, chosen: str | None = None) -> str:
    """The locale of what a server's table sees (boards, lobbies, announcements): ``chosen`` (the server's own setting),
    else the server's Discord locale (its Community language), else English. ``where`` is an interaction in the
    server, or the server itself (for what no click causes, such as the clock's messages)."""
    if isinstance(where, discord.Interaction):
        guild_locale = where.guild_locale
    else:
        guild_locale = where.preferred_locale if where is not None else None
    return table_locale(chosen, guild_locale.value if guild_locale is not None else None)


@dataclass(frozen=True, slots=True)
class CommandString:
    """One string of the command tree that Discord shows: what it is (the catalog context), the English, where."""

    context: str
    message: str
    command: str
    module: str


class _Collector(app_commands.Translator):
    def __init__(self, command: str, module: str) -> None:
        super().__init__()
        self.command, self.module = command, module
        self.found: list[CommandString] = []

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        if locale is discord.Locale.german and context.location in CONTEXTS:  # one locale of the many asked for
            entry = CommandString(CONTEXTS[context.location], string.message, self.command, self.module)
            if entry not in self.found:
                self.found.append(entry)
        return None


async def command_strings(tree: app_commands.CommandTree[Any]) -> list[CommandString]:
    """Every string of ``tree`` that its translator is asked for, in the order discord.py asks for them: what the
    catalogs must translate. Walks discord.py's own payload code, so it sees what a sync sends."""
    found: list[CommandString] = []
    for command in tree.get_commands():
        module = getattr(getattr(command, "callback", None), "__module__", None) or type(command).__module__
        collector = _Collector(command.qualified_name, module)
        await command.get_translated_payload(tree, collector)
        found.extend(entry for entry in collector.found if entry not in found)
    return found


async def sync_payload(tree: app_commands.CommandTree[Any]) -> list[dict[str, Any]]:
    """The commands as ``tree.sync()`` sends them, localisations included: a change to a catalog changes it."""
    translator = tree.translator
    if translator is None:
        return [command.to_dict(tree) for command in tree.get_commands()]
    return [await command.get_translated_payload(tree, translator) for command in tree.get_commands()]
