"""Whose language a text is in: the table's (the server's) for what the channel sees, one person's for what only
they see.

- A person's language is their Discord client's (``interaction.locale``). For a DM, which no interaction carries,
  it is the language last seen from that player: remembered whenever they interact, kept in the database (meta key
  ``locale:<user id>``) and in memory, so a restart keeps it.
- The table's language is the one the server chose for its tables (``table_locale``), else Discord's server locale
  (``guild_locale``, the Community language), else English. A post no interaction causes (the clock, a computer
  player's move) finds the server's locale in memory (seen with the last interaction from that server), from the
  gateway's guild, or in the game's row (``options["guild_locale"]``, stored at /newgame).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine

import discord

from i18n import SOURCE_LANGUAGE
from i18n import table_locale as choose_table_locale
from storage import GameRecord, StorageError, TableStore
from table import preferences
from table.answer import Interaction
from table.live import Live
from table.options import options_of

log = logging.getLogger(__name__)

# The language each server's managers chose for its tables, as last read from its settings (None: Discord's).
_chosen: dict[int, str | None] = {}


def note_table_language(guild_id: int, language: str | None) -> None:
    """Remember a server's chosen table language (called wherever its settings are read or changed)."""
    _chosen[guild_id] = language


def table_locale(guild_id: int) -> str | None:
    """The language the server chose for its tables (a server setting), or None: Discord's server locale applies.
    The one place the table's language setting is read."""
    return _chosen.get(guild_id)


def user_key(user_id: int) -> str:
    return f"locale:{user_id}"


def guild_locale_of(interaction: Interaction) -> str | None:
    """The server's Discord locale an interaction carries (None in DMs)."""
    locale = interaction.guild_locale
    return locale.value if locale is not None else None


class Languages:
    """The locales of people (for what only they see) and of tables (for what the channel sees)."""

    def __init__(self, client: discord.Client, storage: TableStore) -> None:
        self.client = client
        self.storage = storage
        self._users: dict[int, str] = {}
        self._guilds: dict[int, str] = {}
        self._saving: set[asyncio.Future[object]] = set()
        preferences.reset()

    # ---- people ---------------------------------------------------------------------------------------------

    def seen(self, interaction: Interaction) -> None:
        """Remember the language of whoever interacted (and their server's): a later DM speaks it. Stored in the
        background, once per process and whenever it changes."""
        if interaction.guild_id is not None:
            guild_locale = guild_locale_of(interaction)
            if guild_locale:
                self._guilds[interaction.guild_id] = guild_locale
        user, locale = interaction.user.id, interaction.locale.value
        if not preferences.known(user):
            self._keep(preferences.load(self.storage, user))  # read once: their panels and turns follow them
        if self._users.get(user) == locale:
            return
        self._users[user] = locale
        self._keep(self._save(user, locale))

    def _keep(self, work: Coroutine[object, object, object]) -> None:
        task = asyncio.ensure_future(work)
        self._saving.add(task)
        task.add_done_callback(self._saving.discard)

    async def _save(self, user: int, locale: str) -> None:
        try:
            await self.storage.set_meta(user_key(user), locale)
        except StorageError as error:
            # A busy database: nothing lost but the note, which the user's next interaction makes again.
            log.warning("Could not store the language of user %s: %s", user, error)
            if self._users.get(user) == locale:
                del self._users[user]
        except Exception:
            log.warning("Could not store the language of user %s", user, exc_info=True)

    def take_up(self, live: Live) -> None:
        """A game just loaded (after a restart): read its players' preferences before their turns ping them."""
        for player in live.record.players:
            if player > 0 and not preferences.known(player):
                self._keep(preferences.load(self.storage, player))

    def forget(self, user_id: int) -> None:
        """Drop the language remembered for a person who asked to be forgotten (the database's copy goes with their
        data)."""
        self._users.pop(user_id, None)
        preferences.forget(user_id)

    async def reader(self, user_id: int) -> str:
        """The language ``user_id`` chose (``/me``), else the one last seen from them (English for somebody never
        seen)."""
        chosen = (await preferences.load(self.storage, user_id)).language
        if chosen is not None:
            return chosen
        locale = self._users.get(user_id)
        if locale is None:
            try:
                locale = await self.storage.get_meta(user_key(user_id)) or SOURCE_LANGUAGE
            except Exception:
                log.warning("Could not read the language of user %s", user_id, exc_info=True)
                return SOURCE_LANGUAGE
            self._users[user_id] = locale
        return locale

    # ---- tables ---------------------------------------------------------------------------------------------

    def table(self, guild_id: int | None, record: GameRecord | None = None) -> str:
        """The table's language in server ``guild_id``: its setting, else Discord's server locale, else English."""
        if guild_id is None:
            return SOURCE_LANGUAGE
        discord_locale = self._guilds.get(guild_id)
        if discord_locale is None:
            guild = self.client.get_guild(guild_id)
            if guild is not None and guild.preferred_locale is not None:
                discord_locale = guild.preferred_locale.value
        if discord_locale is None and record is not None:
            discord_locale = options_of(record).guild_locale
        chosen = options_of(record).language if record is not None else None
        return choose_table_locale(chosen or table_locale(guild_id), discord_locale)

    def of_record(self, record: GameRecord) -> str:
        """The language of a game's table."""
        return self.table(record.guild_id, record)

    def for_table(self, interaction: Interaction) -> str:
        """The language of the table an interaction is at."""
        self.seen(interaction)
        return self.table(interaction.guild_id)

    def for_reader(self, interaction: Interaction) -> str:
        """The language of the person who interacted: the one they chose (``/me``), else their Discord's
        (remembered for their DMs)."""
        self.seen(interaction)
        return preferences.preferences_of(interaction.user.id).language or interaction.locale.value

    async def close(self) -> None:
        if self._saving:
            await asyncio.wait(list(self._saving), timeout=2)
