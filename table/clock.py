"""The turn clock: a player who walks away never stalls the table.

Each running game with a clock has at most one timer in the database: the player to move, a reminder time and a
deadline. One scheduler task sleeps until the earliest of them (a heap in memory, loaded from the database at start,
so a deadline that passed while the bot was down fires at once); no task per game, no polling. A timer is claimed in
the database (by the move number it was set at) before it acts, so it fires once however many processes watch it,
and never for a turn already played.

The clock follows the table through ``Transition`` events: a person who acts is back; a new turn starts the mover's
clock. When time runs out it says so (a ``TurnRanOut`` event), and the seat driver's autopilot plays that turn
("played for"); after ``MISSES_FOR_AUTOPILOT`` missed turns in a row the seat stays on autopilot until its player
acts again. A game whose people are all away ends as abandoned.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
import time
from contextlib import suppress

import discord

from i18n import Text, _, _n, render
from storage import GameRecord, TableStore, Timer
from table.answer import NO_PINGS, USERS_ONLY
from table.boards import pings_on
from table.events import TurnRanOut
from table.games import Games
from table.language import Languages
from table.live import Live
from table.options import options_of, turn_time
from table.people import is_ai, mention
from table.presenter import SomePresenter
from table.transition import Transition

log = logging.getLogger(__name__)

MISSES_FOR_AUTOPILOT = 3
MIN_REMINDER_SECONDS = 10


def reminded(player: int) -> Text:
    """What a reminder keeps once its turn is over (or the game): no deadline that would go on reading live."""
    return _("⏰ {player} was reminded that their turn was running out.", player=mention(player))


class TurnClock:
    def __init__(self, client: discord.Client, storage: TableStore, games: Games, languages: Languages) -> None:
        self.client = client
        self.storage = storage
        self.games = games
        self.languages = languages
        self.scale = 1.0  # tests run the clock faster; deadlines shown are the real ones
        self.deadlines: dict[int, tuple[int, float]] = {}  # game id -> (player to move, deadline)
        self._heap: list[tuple[float, int, int, bool]] = []  # (when, game id, seq, is the reminder)
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        # game id -> the reminder on show: (channel id, message id, the player reminded, the table's language)
        self._reminders: dict[int, tuple[int, int, int, str]] = {}
        self._shrinking: set[asyncio.Task[None]] = set()

    # ---- keeping the clock ----------------------------------------------------------------------------------------

    async def start(self) -> None:
        for timer in await self.storage.timers():
            self._remember(timer)
        self._task = asyncio.ensure_future(self._run())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    def _remember(self, timer: Timer) -> None:
        self.deadlines[timer.game_id] = (timer.player, timer.due_at)
        if timer.remind_at is not None:
            heapq.heappush(self._heap, (timer.remind_at, timer.game_id, timer.seq, True))
        heapq.heappush(self._heap, (timer.due_at, timer.game_id, timer.seq, False))
        self._changed.set()

    async def on_moved(self, event: Transition) -> None:
        """A person who acted is back, whatever the clock said; then the new turn's clock starts (before the board
        that shows its deadline is drawn)."""
        if event.player is not None and not event.auto and not is_ai(event.player):
            await self.acted(event.live, event.player)
        shown = self._reminders.get(event.live.record.id)
        if shown is not None and (event.moved_on or event.ended or event.upcoming != shown[2]):
            self._shrink_reminder(event.live.record.id)
        await self.restart(event.live, event.presenter, event.moved_on)

    async def restart(self, live: Live, presenter: SomePresenter, moved_on: bool) -> None:
        """Start the mover's clock when the table moved on to a new turn; stop it when nobody needs one."""
        record, game = live.record, presenter.game
        mover = game.current_player(live.state)
        if mover is None and not game.is_over(live.state):
            # The Game before its first card: anyone may lay it, and the clock waits on the host's seat.
            mover = next((p for p in record.players if not is_ai(p)), None)
        seconds = turn_time(record)
        if (
            game.is_over(live.state)
            or not seconds
            or mover is None
            or is_ai(mover)
            or mover in options_of(record).autopilot
        ):
            if record.id in self.deadlines:
                del self.deadlines[record.id]
                await self.storage.clear_timer(record.id)
            return
        if not moved_on and self.deadlines.get(record.id, (None, 0.0))[0] == mover:
            return  # the same turn goes on: its clock keeps running
        now = time.time()
        span = seconds * self.scale
        due = now + span
        remind = due - max(MIN_REMINDER_SECONDS * self.scale, span / 4)
        timer = Timer(record.id, game.move_count(live.state), mover, remind if remind > now else None, due)
        await self.storage.set_timer(timer)
        self._remember(timer)

    async def stop_game(self, game_id: int) -> None:
        self.deadlines.pop(game_id, None)
        self._shrink_reminder(game_id)
        await self.storage.clear_timer(game_id)

    def _shrink_reminder(self, game_id: int) -> None:
        """The turn a reminder was about is over: it shrinks to a line without its deadline, in the background (the
        board does not wait on it)."""
        shown = self._reminders.pop(game_id, None)
        if shown is None:
            return
        task = asyncio.ensure_future(self._edit_reminder(*shown))
        self._shrinking.add(task)
        task.add_done_callback(self._shrinking.discard)

    async def _edit_reminder(self, channel_id: int, message_id: int, player: int, locale: str) -> None:
        message = self.client.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await message.edit(content=render(reminded(player), locale))
        except discord.HTTPException:
            log.info("A reminder in channel %s could not shrink", channel_id, exc_info=True)

    async def _run(self) -> None:
        while True:
            if not self._heap:
                self._changed.clear()
                await self._changed.wait()
                continue
            when, game_id, seq, reminder = self._heap[0]
            delay = when - time.time()
            if delay > 0:
                self._changed.clear()
                with suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), delay)
                continue
            heapq.heappop(self._heap)
            try:
                await self._fire(game_id, seq, reminder)
            except Exception:
                log.exception("The turn clock of game %s failed", game_id)

    async def _fire(self, game_id: int, seq: int, reminder: bool) -> None:
        record = await self.games.storage.game(game_id)
        if record is None or record.status != "running" or not self.games.owns(record):
            return  # over, or another process runs its server's shard and fires it
        if not await self.storage.claim_timer(game_id, seq, reminder):
            return  # the turn was played, another process fired it, or the clock was restarted
        live = await self.games.live(record)
        presenter = self.games.presenter(record)
        timed = self.deadlines.get(game_id, (None, 0.0))[0]
        player = presenter.game.current_player(live.state) or timed
        if player is None or presenter.game.move_count(live.state) < seq:
            return
        if reminder:
            due = self.deadlines.get(game_id, (player, time.time()))[1]
            who, when = mention(player), f"<t:{int(due)}:R>"
            # Before The Game's first card anyone may lay it; the clock waits on this player's seat alone.
            text = (
                _("⏰ {player}, your turn ends {when}; then the autopilot plays it for you.", player=who, when=when)
                if presenter.game.current_player(live.state) is not None
                else _(
                    "⏰ {player}, nobody has laid the first card yet: if nobody does, the autopilot lays one for you "
                    "{when}.",
                    player=who,
                    when=when,
                )
            )
            posted = await self.announce(
                record,
                text,
                discord.AllowedMentions(users=[discord.Object(player)]) if pings_on(record, player) else NO_PINGS,
            )
            if posted is not None:
                self._shrink_reminder(game_id)  # one reminder on show per game
                self._reminders[game_id] = (record.channel_id, posted, player, self.languages.of_record(record))
            return
        self.deadlines.pop(game_id, None)
        await self.games.events.turn_ran_out(TurnRanOut(record.channel_id, game_id, player))

    # ---- who is away ------------------------------------------------------------------------------------------

    async def acted(self, live: Live, player: int) -> None:
        """A person acted: they are back, whatever the clock said."""
        if not options_of(live.record).away(player):
            return

        def back(record: GameRecord) -> dict[str, object] | None:
            options = options_of(record)
            if not options.away(player):
                return None
            counts = {p: n for p, n in options.misses.items() if p != player}
            return {"options": options.but(misses=counts, autopilot=options.autopilot - {player})}

        await self.games.modify(live.record.id, back)  # the cached game follows

    async def missed(self, channel_id: int, game_id: int, player: int) -> GameRecord | None:
        """Count a missed turn; enough in a row put the seat on autopilot."""

        def count(record: GameRecord) -> dict[str, object] | None:
            if record.status != "running":
                return None
            options = options_of(record)
            counts = {**options.misses, player: options.misses.get(player, 0) + 1}
            seats = options.autopilot | ({player} if counts[player] >= MISSES_FOR_AUTOPILOT else set())
            return {"options": options.but(misses=counts, autopilot=seats)}

        record = await self.games.modify(game_id, count)
        if record is None or record.status != "running":
            return None
        options = options_of(record)
        if player in options.autopilot:
            await self.announce(
                record,
                _n(
                    "{player} missed {count} turn in a row: the autopilot plays their turns until they act again.",
                    "{player} missed {count} turns in a row: the autopilot plays their turns until they act again.",
                    options.misses[player],
                    player=mention(player),
                ),
            )
        return record

    def deadline_line(self, record: GameRecord, mover: int | None) -> Text | None:
        entry = self.deadlines.get(record.id)
        # Nobody to move (anyone may lay The Game's first card): a deadline naming the host would contradict that.
        if entry is None or mover is None or entry[0] != mover:
            return None
        player, due = entry
        # Discord writes the <t:...:R> timestamp in each reader's own language and time zone.
        return _("⏰ {player}'s turn ends {when}.", player=mention(player), when=f"<t:{int(due)}:R>")

    async def announce(
        self, record: GameRecord, text: Text, allowed_mentions: discord.AllowedMentions = USERS_ONLY
    ) -> int | None:
        """Tell the table ``text``, in the table's language; the message's id (None if Discord refused it)."""
        channel = self.client.get_partial_messageable(record.channel_id)
        try:
            sent = await channel.send(render(text, self.languages.of_record(record)), allowed_mentions=allowed_mentions)
        except discord.HTTPException:
            return None
        return sent.id
