"""The interaction the cogs receive: one from this bot, whose ``client`` is ``bot.Bot`` (its tables, storage, web).

Where a cog overrides one of discord.py's own callbacks (``DynamicItem.callback``, ``from_custom_id``,
``interaction_check``), the parameter stays ``discord.Interaction[Any]``: discord.py declares it generic in the client,
and a narrower type there would not be an override. ``cogs._ui`` takes ``table.answer.Interaction`` (any client):
``bot.py`` imports it, and this alias names ``bot.Bot``."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

import discord

if TYPE_CHECKING:
    from bot import Bot

Interaction: TypeAlias = "discord.Interaction[Bot]"
