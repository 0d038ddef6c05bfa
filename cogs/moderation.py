"""The table talk rule of a game that forbids numbers in chat (``NO_NUMBERS_IN_CHAT``: The Game): while it runs in
a channel, messages that mention numbers are removed.

The decision is ``chatfilter.mentions_number``; this cog only watches the channel (new messages,
edits through the raw event so that uncached messages are caught, and keycap reactions) and explains the
removal privately, in the game's own words (``Registration.chat_rule``). Nothing happens in other channels, lobbies,
games without the rule, or once the game ended.
"""

from __future__ import annotations

import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from chatfilter import mentions_number
from i18n import _, render
from table.answer import USERS_ONLY
from table.courier import DMsClosed
from table.people import mention
from table.registry import ChatRule, registration

if TYPE_CHECKING:
    from bot import Bot

log = logging.getLogger(__name__)


CHANNEL_NOTICE_SECONDS = 8
# One explanation per person per minute is plenty; a burst of removed messages must not become a burst of DMs.
EXPLAIN_EVERY_SECONDS = 60.0
MISSING_PERMISSION = _(
    "I can't remove messages that mention numbers here: I'm missing the **Manage Messages** permission in this "
    "channel. The game goes on, but please play fair, and ask an admin to grant it (Channel settings > Permissions)."
)


class Moderation(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.explained: dict[int, float] = {}
        self.warned_channels: set[int] = set()
        self.notice_seconds = CHANNEL_NOTICE_SECONDS

    def moderated(self, channel_id: int, parent_id: int | None = None) -> ChatRule | None:
        """The chat rule that holds here, None where none does."""
        # A thread playing a game of its own follows that game's rule; any other thread, its channel's game.
        running = self.bot.tables.games.running_kinds
        where = channel_id if parent_id is None or running.get(channel_id) is not None else parent_id
        if not self.bot.tables.games.forbids_numbers(where):
            return None
        hosted = registration(running.get(where, ""))
        return hosted.chat_rule if hosted is not None else None

    def is_mine(self, author_id: int) -> bool:
        return self.bot.user is not None and author_id == self.bot.user.id

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.guild is None or self.is_mine(message.author.id):
            return
        rule = self.moderated(message.channel.id, getattr(message.channel, "parent_id", None))
        if rule is None:
            return
        text = message.content
        if message.poll is not None:
            text += "\n" + "\n".join([message.poll.question, *(answer.text for answer in message.poll.answers)])
        if mentions_number(text):
            await self.remove(message.channel.id, message.id, message.author.id, rule)

    @commands.Cog.listener()
    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        data: dict[str, Any] = dict(payload.data)
        author = data.get("author") or {}
        if payload.guild_id is None or "content" not in data or not author or self.is_mine(int(author["id"])):
            return
        channel = self.bot.get_channel(payload.channel_id)
        rule = self.moderated(payload.channel_id, getattr(channel, "parent_id", None))
        if rule is None:
            return
        if mentions_number(str(data["content"])):
            await self.remove(payload.channel_id, payload.message_id, int(author["id"]), rule)

    @commands.Cog.listener()
    async def on_raw_reaction_add(self, payload: discord.RawReactionActionEvent) -> None:
        if payload.guild_id is None or self.is_mine(payload.user_id) or not payload.emoji.is_unicode_emoji():
            return
        channel = self.bot.get_channel(payload.channel_id)
        if self.moderated(payload.channel_id, getattr(channel, "parent_id", None)) is None:
            return
        if mentions_number(payload.emoji.name or ""):
            try:
                await self.bot.http.remove_reaction(
                    payload.channel_id, payload.message_id, payload.emoji.name or "", payload.user_id
                )
            except discord.Forbidden:
                self.cannot_moderate(payload.channel_id)
            except discord.NotFound:
                pass  # already gone

    async def remove(self, channel_id: int, message_id: int, author_id: int, rule: ChatRule) -> None:
        try:
            await self.bot.http.delete_message(channel_id, message_id, reason="No numbers in the chat during this game")
        except discord.NotFound:
            return
        except discord.Forbidden:
            self.cannot_moderate(channel_id)
            return
        log.debug("Removed a message mentioning a number in channel %s", channel_id)
        await self.explain(channel_id, author_id, rule)

    async def explain(self, channel_id: int, author_id: int, rule: ChatRule) -> None:
        now = time.monotonic()
        if now - self.explained.get(author_id, -EXPLAIN_EVERY_SECONDS) < EXPLAIN_EVERY_SECONDS:
            return
        self.explained[author_id] = now
        languages = self.bot.tables.languages
        told = render(rule.told(f"<#{channel_id}>"), await languages.reader(author_id))
        with contextlib.suppress(DMsClosed):
            if await self.bot.tables.courier.show(author_id, told) is not None:
                return
        channel = self.bot.get_partial_messageable(channel_id)
        guild = getattr(self.bot.get_channel(channel_id), "guild", None)
        notice = rule.notice(mention(author_id))
        try:
            await channel.send(
                render(notice, languages.table(guild.id if guild is not None else None)),
                allowed_mentions=USERS_ONLY,
                delete_after=self.notice_seconds,
            )
        except discord.HTTPException:
            log.warning("Could not explain a removed message in channel %s", channel_id)

    def cannot_moderate(self, channel_id: int) -> None:
        # The game start already told the channel; the log says it once more per channel, not per message.
        if channel_id not in self.warned_channels:
            self.warned_channels.add(channel_id)
            log.warning("Missing Manage Messages in channel %s: cannot remove numbers", channel_id)


async def setup(bot: Bot) -> None:
    await bot.add_cog(Moderation(bot))
