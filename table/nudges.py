"""The nudge: the person whose turn began without a new board learns it within seconds, once.

A new board pings the player to move (``table.boards.pings``), but not every turn brings one: in No Thanks! a chip
paid passes the turn and only edits the board, since a board per card taken keeps the channel a log, and the deal
pings nobody. For such a turn, a short message pings the player to move after ``NUDGE_SECONDS`` if they have not
acted by then, and is deleted once they have: a player who is watching gets no ping and the channel keeps no trace,
one who is away learns it within seconds rather than at the clock's reminder. Nobody is nudged when the server turned
pings off, for a computer player's or autopilot's seat, or when they are at the keyboard (they acted a moment ago and
only computer partners moved since).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from contextlib import suppress

import discord

from i18n import _, render
from storage import GameRecord
from table.boards import pings_on
from table.language import Languages
from table.options import options_of
from table.people import is_ai, mention
from table.transition import Transition

log = logging.getLogger(__name__)

# Long enough that a player who is watching acts first (no ping, no message); short enough to learn it within 10 s.
NUDGE_SECONDS = 5.0


class Nudges:
    def __init__(
        self, client: discord.Client, languages: Languages, at_the_keyboard: Callable[[int, int], bool]
    ) -> None:
        self.client = client
        self.languages = languages
        self.at_the_keyboard = at_the_keyboard
        self.seconds = NUDGE_SECONDS
        self._waiting: dict[int, tuple[int, object]] = {}  # game id -> (player, the nudge's own token)
        self._posted: dict[int, tuple[int, int, int]] = {}  # game id -> (player, channel id, message id)
        self._tasks: set[asyncio.Task[None]] = set()

    async def on_moved(self, event: Transition) -> None:
        record, upcoming = event.live.record, event.upcoming
        self._settle(record.id, upcoming, event.player)
        if (
            upcoming is None
            or not event.turn_began
            or upcoming == event.player
            or (event.moved_on and not event.dealt)  # the new board pings them
            or is_ai(upcoming)
            or upcoming in options_of(record).autopilot
            or not pings_on(record, upcoming)
            or self.at_the_keyboard(record.id, upcoming)
        ):
            return
        token = object()
        self._waiting[record.id] = (upcoming, token)
        task = asyncio.ensure_future(self._nudge(record, upcoming, token))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _settle(self, game_id: int, upcoming: int | None, actor: int | None) -> None:
        """A move was made: a nudge on its way or posted for somebody who acted, or whose turn it no longer is, is
        called off or deleted."""
        waiting = self._waiting.get(game_id)
        if waiting is not None and (waiting[0] == actor or waiting[0] != upcoming):
            del self._waiting[game_id]  # its timer finds itself called off
        posted = self._posted.get(game_id)
        if posted is not None and (posted[0] == actor or posted[0] != upcoming):
            del self._posted[game_id]
            self._delete_later(posted[1], posted[2])

    async def _nudge(self, record: GameRecord, player: int, token: object) -> None:
        await asyncio.sleep(self.seconds)
        if self._waiting.get(record.id) != (player, token):
            return
        channel = self.client.get_partial_messageable(record.channel_id)
        text = render(_("🔔 {player}, it's your turn.", player=mention(player)), self.languages.of_record(record))
        try:
            message = await channel.send(text, allowed_mentions=discord.AllowedMentions(users=[discord.Object(player)]))
        except discord.HTTPException:
            log.info("Could not nudge the player to move in game %s", record.id, exc_info=True)
            return
        if self._waiting.get(record.id) != (player, token):
            await self._delete(record.channel_id, message.id)  # they acted while it was on its way
            return
        del self._waiting[record.id]
        self._posted[record.id] = (player, record.channel_id, message.id)

    async def _delete(self, channel_id: int, message_id: int) -> None:
        with suppress(discord.HTTPException):
            await self.client.get_partial_messageable(channel_id).get_partial_message(message_id).delete()

    def forget(self, game_id: int) -> None:
        """A game ended without a move (/endgame): its nudge on the way is called off, one posted is deleted."""
        self._waiting.pop(game_id, None)
        posted = self._posted.pop(game_id, None)
        if posted is not None:
            self._delete_later(posted[1], posted[2])

    def _delete_later(self, channel_id: int, message_id: int) -> None:
        """In the background: the mover's answer (or /endgame's) does not wait on a deletion."""
        task = asyncio.ensure_future(self._delete(channel_id, message_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        self._waiting.clear()
