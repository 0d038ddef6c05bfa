"""Games in threads: ``/newgame thread:True`` opens the game in a new thread of the channel, and the channel hears
only that a game was opened there and, at the end, how it ended.

A game in a thread is an ordinary game whose channel is the thread (its own id: lobby, boards, locks, moderation
and "one game per channel" all follow the thread). The parent channel stays free for another /newgame. Such a game
keeps its parent's id in its options (``thread_of``); when a move ends it, one line goes to the parent. A rematch
plays in the same thread and reports to the parent too; so does a game ended early with /endgame ("abandoned"). A
game whose thread was deleted reports nothing.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord.ext import commands

from cogs._results import people, result_text
from cogs._types import Interaction
from i18n import Text, _, listing, render
from storage import GameRecord
from table.answer import NO_PINGS, UserError, send, shorten
from table.games import stats_result, title
from table.options import options_of
from table.transition import Transition

if TYPE_CHECKING:
    from bot import Bot

log = logging.getLogger(__name__)

THREAD_OPTION = "Play in a new thread of this channel: the channel keeps only the lobby notice and the result"
THREAD_NAME_LIMIT = 100  # characters Discord allows in a thread's name
ARCHIVE_AFTER_MINUTES: Literal[1440] = 1440  # a quiet thread hides after a day; the bot's next board brings it back


@dataclass(frozen=True, slots=True)
class GameThread:
    """Where a game opened with ``thread:True`` lives: the thread, the channel it hangs off, and the notice there
    (the message the thread was started from)."""

    thread_id: int
    parent_id: int
    notice_id: int


def thread_name(game_title: str, host: str) -> str:
    return shorten(f"{game_title} — {host}", THREAD_NAME_LIMIT)


def parent_of(record: GameRecord) -> int | None:
    return options_of(record).thread_of


def result_line(record: GameRecord, thread_id: int) -> Text:
    """The one line the parent channel gets when the game in its thread ends."""
    return _(
        "{game} in {thread} ({players}): {result}.",
        game=title(record.kind),
        thread=f"<#{thread_id}>",
        players=people(record.players),
        result=result_text(record),
    )


def check_may_open_thread(interaction: Interaction) -> None:
    """Refuse before anything is posted: a thread the bot can't write in would be left behind empty."""
    permissions = interaction.app_permissions
    missing = [
        words
        for flag, words in (
            # Translators: Discord's own names of the permissions, as its settings show them in your language.
            ("create_public_threads", _("Create Public Threads")),
            ("send_messages_in_threads", _("Send Messages in Threads")),
        )
        if not getattr(permissions, flag)
    ]
    if missing:
        raise UserError(
            _(
                "I can't open a thread here: I'm missing {permissions} in this channel. Open the game without the "
                "thread option, or ask a server admin to grant it.",
                permissions=listing(missing),
            )
        )


async def open_thread(bot: Bot, interaction: Interaction, game_title: str) -> GameThread:
    """Answer /newgame with a notice in the channel and start a public thread from it (one request)."""
    check_may_open_thread(interaction)
    parent_id = interaction.channel_id
    assert parent_id is not None
    host = interaction.user
    opening = _("{player} is opening a game of {game} in a thread…", player=host.mention, game=game_title)
    notice_id = await send(interaction, content=render(opening, bot.tables.languages.for_table(interaction)))
    if notice_id is None:
        notice_id = (await interaction.original_response()).id
    try:
        data = await bot.http.start_thread_with_message(
            parent_id,
            notice_id,
            name=thread_name(game_title, host.display_name),
            auto_archive_duration=ARCHIVE_AFTER_MINUTES,
            reason=f"/newgame thread:True by {host.id}",
        )
    except discord.HTTPException:
        log.warning("Could not start a thread in channel %s", parent_id, exc_info=True)
        await withdraw(interaction)
        raise UserError(
            _(
                "Discord didn't let me open a thread here, so no game was opened. Try again, or open the game "
                "without the thread option."
            )
        ) from None
    log.info("Thread %s opened in channel %s for a game", data["id"], parent_id)
    return GameThread(int(data["id"]), parent_id, notice_id)


async def withdraw(interaction: Interaction) -> None:
    """Take the notice back: no game came of it."""
    try:
        await interaction.delete_original_response()
    except discord.HTTPException:
        log.info("Could not take back the thread notice in channel %s", interaction.channel_id)


async def post_lobby_in_thread(
    bot: Bot, interaction: Interaction, place: GameThread, record: GameRecord, **message: Any
) -> None:
    """The lobby goes into the thread (the game's channel); the notice in the parent becomes a link to it."""
    thread = bot.get_partial_messageable(place.thread_id, guild_id=interaction.guild_id)
    posted = await thread.send(allowed_mentions=NO_PINGS, **message)
    await bot.storage.set_message(record.id, posted.id)
    notice = _(
        "{player} opened a game of {game} in {thread}: join it there. The result will be posted here.",
        player=interaction.user.mention,
        game=title(record.kind),
        thread=f"<#{place.thread_id}>",
    )
    try:
        await interaction.edit_original_response(
            content=render(notice, bot.tables.languages.for_table(interaction)), allowed_mentions=NO_PINGS
        )
    except discord.HTTPException:
        log.info("Could not turn the notice in channel %s into a link", place.parent_id)


class Threads(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.reports: set[asyncio.Task[None]] = set()  # result lines under way (kept so they are not collected)

    async def cog_load(self) -> None:
        self.bot.tables.events.subscribe("thread result", self.on_moved)

    async def cog_unload(self) -> None:
        self.bot.tables.events.unsubscribe("thread result")
        for task in list(self.reports):
            task.cancel()

    # ---- the end ----------------------------------------------------------------------------------------------

    async def on_moved(self, event: Transition) -> None:
        record: GameRecord = event.live.record
        parent = parent_of(record)
        if parent is None or not event.presenter.game.is_over(event.after):
            return
        outcome = event.presenter.game.outcome(event.after)
        if outcome is not None and not outcome.abandoned:
            record = replace(record, result=stats_result(event.presenter.game.info, outcome))
        # After the move's answer, not before it: the player hears about their move first.
        task = asyncio.create_task(report_result(self.bot, record))
        self.reports.add(task)
        task.add_done_callback(self.reports.discard)


async def report_result(bot: Bot, record: GameRecord, *, ended_early: bool = False) -> None:
    """One line in the channel a game's thread hangs off (nothing for a game opened elsewhere): how it ended, or that
    it was ended early (``/endgame``)."""
    parent = parent_of(record)
    if parent is None:
        return
    if ended_early:
        record = replace(record, status="abandoned", result=None)
    channel = bot.get_partial_messageable(parent, guild_id=record.guild_id)
    try:
        line = render(result_line(record, record.channel_id), bot.tables.languages.of_record(record))
        await channel.send(line, allowed_mentions=NO_PINGS)
    except discord.HTTPException:
        log.warning("Could not post the result of game %s in channel %s", record.id, parent)


async def setup(bot: Bot) -> None:
    await bot.add_cog(Threads(bot))
