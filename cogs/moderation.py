"""The Game's table talk rule: while it runs in a channel, messages that mention numbers are removed.

The decision is ``chatfilter.mentions_number``; this cog only watches the channel (new messages,
edits through the raw event so that uncached messages are caught, and keycap reactions) and explains the
removal privately. Nothing happens in other channels, lobbies, No Thanks! games, or once the game ended.
"""

from __future__ import annotations

import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from chatfilter import mentions_number
from i18n import Text, _, render
from table.answer import USERS_ONLY
from table.courier import DMsClosed
from table.people import mention

if TYPE_CHECKING:
    from bot import Bot

log = logging.getLogger(__name__)


def rule_for(channel: str) -> Text:
    """The rule, told by DM to a player whose message in ``channel`` was removed."""
    return _(
        "The Game's rule: nobody may reveal card numbers while the game runs, so I removed your message in {channel}. "
        "No digits, number words (two to ninety-nine in English, German, French or Spanish), Roman numerals or "
        'number emoji. Name piles by letter (A, B, C, D) and give hints without numbers, like "don\'t lay on C" or '
        '"no big jump on A, please".',
        channel=channel,
    )


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

    def moderated(self, channel_id: int, parent_id: int | None = None) -> bool:
        # A thread playing a game of its own follows that game's rule; any other thread, its channel's game.
        forbids = self.bot.tables.forbids_numbers
        if parent_id is None or self.bot.tables.games.running_kinds.get(channel_id) is not None:
            return forbids(channel_id)
        return forbids(parent_id)

    def is_mine(self, author_id: int) -> bool:
        return self.bot.user is not None and author_id == self.bot.user.id

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.guild is None or self.is_mine(message.author.id):
            return
        if not self.moderated(message.channel.id, getattr(message.channel, "parent_id", None)):
            return
        text = message.content
        if message.poll is not None:
            text += "\n" + "\n".join([message.poll.question, *(answer.text for answer in message.poll.answers)])
        if mentions_number(text):
            await self.remove(message.channel.id, message.id, message.author.id)

    @commands.Cog.listener()
    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        data: dict[str, Any] = dict(payload.data)
        author = data.get("author") or {}
        if payload.guild_id is None or "content" not in data or not author or self.is_mine(int(author["id"])):
            return
        channel = self.bot.get_channel(payload.channel_id)
        if not self.moderated(payload.channel_id, getattr(channel, "parent_id", None)):
            return
        if mentions_number(str(data["content"])):
            await self.remove(payload.channel_id, payload.message_id, int(author["id"]))

    @commands.Cog.listener()
    async def on_raw_reaction_add(self, payload: discord.RawReactionActionEvent) -> None:
        if payload.guild_id is None or self.is_mine(payload.user_id) or not payload.emoji.is_unicode_emoji():
            return
        channel = self.bot.get_channel(payload.channel_id)
        if not self.moderated(payload.channel_id, getattr(channel, "parent_id", None)):
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

    async def remove(self, channel_id: int, message_id: int, author_id: int) -> None:
        try:
            await self.bot.http.delete_message(channel_id, message_id, reason="The Game: no numbers in the chat")
        except discord.NotFound:
            return
        except discord.Forbidden:
            self.cannot_moderate(channel_id)
            return
        log.debug("Removed a message mentioning a number in channel %s", channel_id)
        await self.explain(channel_id, author_id)

    async def explain(self, channel_id: int, author_id: int) -> None:
        now = time.monotonic()
        if now - self.explained.get(author_id, -EXPLAIN_EVERY_SECONDS) < EXPLAIN_EVERY_SECONDS:
            return
        self.explained[author_id] = now
        languages = self.bot.tables.languages
        rule = render(rule_for(f"<#{channel_id}>"), await languages.reader(author_id))
        with contextlib.suppress(DMsClosed):
            if await self.bot.tables.courier.show(author_id, rule) is not None:
                return
        channel = self.bot.get_partial_messageable(channel_id)
        guild = getattr(self.bot.get_channel(channel_id), "guild", None)
        notice = _(
            "{player}, I removed your message: no numbers while The Game runs. Name piles by letter and give hints "
            "without numbers.",
            player=mention(author_id),
        )
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
