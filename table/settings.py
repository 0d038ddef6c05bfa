"""A server's own settings (issue 24), as the games read them: ``await server_settings(storage, guild_id)``.

Saved as one small JSON object per server (``Storage.guild_settings``); a key that is missing or unreadable falls
back to its default, so a server that never opened /settings plays exactly as before, and a newer bot's extra keys do
no harm. The games read them when a game opens, so a change applies from the next game on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import discord

from i18n import Text, _, language_name, languages
from storage import TableStore
from table.answer import Interaction, UserError
from table.language import note_table_language
from table.options import TURN_TIMES, default_turn_time
from table.registry import GAMES

DEFAULT_LANGUAGE = "auto"


def table_languages() -> dict[str, Text | str]:
    """The table's language: "auto" follows Discord's server language (the Community setting), the others (every
    language with a catalog) override it. The languages' own names stay as they are in every language ("Deutsch");
    "auto" is said in the reader's."""
    return {DEFAULT_LANGUAGE: _("Discord's server language"), **{code: language_name(code) for code in languages()}}


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """What a server's managers chose; the defaults are the bot's behaviour without settings."""

    turn_times: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))  # kind -> seconds (0: off)
    pings: bool = True  # mention the player whose turn it is (and reminders)
    channels: frozenset[int] = frozenset()  # where games may be opened (a thread: its channel); empty: everywhere
    language: str = DEFAULT_LANGUAGE

    @property
    def chosen_language(self) -> str | None:
        """The language the managers chose for the tables; None: Discord's server language applies."""
        return None if self.language == DEFAULT_LANGUAGE else self.language

    end_role: int | None = None  # members with this role may end any game in the server

    def turn_time(self, kind: str) -> int:
        """The default turn time of a new game of ``kind``, in seconds (0: no clock)."""
        return self.turn_times.get(kind, default_turn_time(kind))

    def allows(self, channel: int, parent: int | None = None) -> bool:
        return not self.channels or channel in self.channels or (parent is not None and parent in self.channels)

    def to_dict(self) -> dict[str, object]:
        return {
            "turn_times": dict(self.turn_times),
            "pings": self.pings,
            "channels": sorted(self.channels),
            "language": self.language,
            "end_role": self.end_role,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ServerSettings:
        """Whatever was saved, read leniently: each bad or unknown value is its default."""
        times = data.get("turn_times")
        turn_times = {
            kind: seconds
            for kind, seconds in (times.items() if isinstance(times, dict) else ())
            if kind in GAMES and seconds in TURN_TIMES.values() and not isinstance(seconds, bool)
        }
        channels = data.get("channels")
        pings, language, role = data.get("pings"), data.get("language"), data.get("end_role")
        return cls(
            turn_times=MappingProxyType(turn_times),
            pings=pings if isinstance(pings, bool) else True,
            channels=frozenset(c for c in channels if _snowflake(c)) if isinstance(channels, list) else frozenset(),
            language=language if language in table_languages() else DEFAULT_LANGUAGE,
            end_role=role if _snowflake(role) else None,
        )


def _snowflake(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


async def server_settings(storage: TableStore, guild_id: int) -> ServerSettings:
    settings = ServerSettings.from_dict(await storage.guild_settings(guild_id))
    note_table_language(guild_id, settings.chosen_language)
    return settings


# ---- the two checks /newgame and /endgame make --------------------------------------------------------------------


def _parent_of(interaction: Interaction) -> int | None:
    return getattr(interaction.channel, "parent_id", None)


async def check_games_allowed_here(interaction: Interaction, storage: TableStore) -> ServerSettings:
    """Refuse /newgame in a channel the server's managers did not open to games; the settings the new game takes."""
    assert interaction.guild_id is not None
    assert interaction.channel_id is not None
    settings = await server_settings(storage, interaction.guild_id)
    if settings.allows(interaction.channel_id, _parent_of(interaction)):
        return settings
    places = ", ".join(f"<#{channel}>" for channel in sorted(settings.channels))
    raise UserError(
        _("Games on this server are played in {places}. (Server managers choose these in /settings.)", places=places)
    )


async def may_end_any_game(interaction: Interaction, storage: TableStore) -> bool:
    """Whether the member holds the role the server's managers chose to end any game."""
    if interaction.guild_id is None or not isinstance(interaction.user, discord.Member):
        return False
    role = (await server_settings(storage, interaction.guild_id)).end_role
    return role is not None and any(r.id == role for r in interaction.user.roles)
