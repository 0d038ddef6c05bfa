"""The turn clock: a player who walks away never stalls the table.

Each running game with a clock has at most one timer in the database: the player to move, a reminder time and a
deadline. One scheduler task sleeps until the earliest of them (a heap in memory, loaded from the database at start,
so a deadline that passed while the bot was down fires at once); no task per game, no polling. A timer is claimed in
the database before it acts, so it fires once however many processes watch it, and never for a turn already played.

When time runs out the autopilot plays that turn for the player ("played for"); after ``MISSES_FOR_AUTOPILOT`` missed
turns in a row the seat stays on autopilot until its player acts again. The others may vote a player onto autopilot or
out of the game. A game whose people are all away ends as abandoned.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
import time
from contextlib import suppress
from typing import TYPE_CHECKING, Any

import discord

from cogs._ui import USERS_ONLY, UserError, is_ai, mention
from engine.errors import GameError
from storage import Conflict, GameRecord, Timer

if TYPE_CHECKING:
    from cogs._flow import Live, Presenter, Tables

log = logging.getLogger(__name__)

# The choices of /newgame's turn_time, in words, and their seconds (0: no clock).
TURN_TIMES = {
    "30 seconds": 30,
    "1 minute": 60,
    "3 minutes": 180,
    "10 minutes": 600,
    "1 hour": 3600,
    "24 hours": 86400,
    "off": 0,
}
# A sensible pace per game: The Game's turns are several cards and some thought, No Thanks!'s a single decision.
DEFAULT_TURN_TIME = {"the_game": 180, "no_thanks": 60}
MISSES_FOR_AUTOPILOT = 3
MIN_REMINDER_SECONDS = 10


def turn_time(record: GameRecord) -> int:
    value = record.options.get("turn_time")
    return int(value) if isinstance(value, int) else DEFAULT_TURN_TIME.get(record.kind, 180)


def turn_time_words(seconds: int) -> str:
    return next((words for words, value in TURN_TIMES.items() if value == seconds), f"{seconds} seconds")


def autopilot(record: GameRecord) -> set[int]:
    return {int(p) for p in record.options.get("autopilot", [])}


def misses(record: GameRecord) -> dict[int, int]:
    return {int(p): int(n) for p, n in dict(record.options.get("misses", {})).items()}


class TurnClock:
    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.scale = 1.0  # tests run the clock faster; deadlines shown are the real ones
        self.deadlines: dict[int, tuple[int, float]] = {}  # game id -> (player to move, deadline)
        self._heap: list[tuple[float, int, int, bool]] = []  # (when, game id, seq, is the reminder)
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    # ---- keeping the clock ----------------------------------------------------------------------------------------

    async def start(self) -> None:
        for timer in await self.tables.storage.timers():
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

    async def moved(self, live: Live[Any], presenter: Presenter[Any, Any], moved_on: bool) -> None:
        """After a move (or the deal): start the mover's clock when the table moved on to a new turn."""
        record, game = live.record, presenter.game
        mover = game.current_player(live.state)
        if mover is None and not game.is_over(live.state):
            # The Game before its first card: anyone may lay it, and the clock waits on the host's seat.
            mover = next((p for p in record.players if not is_ai(p)), None)
        seconds = turn_time(record)
        if game.is_over(live.state) or not seconds or mover is None or is_ai(mover) or mover in autopilot(record):
            if record.id in self.deadlines:
                del self.deadlines[record.id]
                await self.tables.storage.clear_timer(record.id)
            return
        if not moved_on and self.deadlines.get(record.id, (None, 0.0))[0] == mover:
            return  # the same turn goes on: its clock keeps running
        now = time.time()
        span = seconds * self.scale
        due = now + span
        remind = due - max(MIN_REMINDER_SECONDS * self.scale, span / 4)
        timer = Timer(record.id, game.move_count(live.state), mover, remind if remind > now else None, due)
        await self.tables.storage.set_timer(timer)
        self._remember(timer)

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
        record = await self.tables.storage.game(game_id)
        if record is None or record.status != "running" or not self.tables.owns(record):
            return  # over, or another process runs its server's shard and fires it
        if not await self.tables.storage.claim_timer(game_id, seq, reminder):
            return  # the turn was played, another process fired it, or the clock was restarted
        live = await self.tables.live(record)
        presenter = self.tables.presenter(record)
        timed = self.deadlines.get(game_id, (None, 0.0))[0]
        player = presenter.game.current_player(live.state) or timed
        if player is None or presenter.game.move_count(live.state) < seq:
            return
        if reminder:
            due = self.deadlines.get(game_id, (player, time.time()))[1]
            channel = self.tables.bot.get_partial_messageable(record.channel_id)
            with suppress(discord.HTTPException):
                await channel.send(
                    f"⏰ {mention(player)}, your turn ends <t:{int(due)}:R>; then the autopilot plays it for you.",
                    allowed_mentions=discord.AllowedMentions(users=[discord.Object(player)]),
                )
            return
        self.deadlines.pop(game_id, None)
        await self.play_for(record.channel_id, game_id, player, missed=True)

    # ---- the autopilot --------------------------------------------------------------------------------------------

    async def play_for(self, channel_id: int, game_id: int, player: int, *, missed: bool) -> None:
        """Play ``player``'s whole turn for them, each move announced as played for them."""
        tables = self.tables
        for _ in range(20):  # a turn of The Game is a few cards and the end; No Thanks! one decision
            live, presenter = await tables.running(channel_id)
            if live.record.id != game_id or presenter.game.current_player(live.state) not in (player, None):
                break
            action = self.autopilot_action(live, presenter, player)
            try:
                played = await tables.play(channel_id, player, action, auto=True)
            except (UserError, GameError):
                log.exception("The autopilot's move was refused in game %s", game_id)
                break
            await tables.publish(played, prefix=f"⏰ Played for {mention(player)}: ")
            if presenter.new_board(played.before, played.after, player, action) or presenter.game.is_over(played.after):
                break
        if missed:
            await self.missed(channel_id, game_id, player)

    def autopilot_action(self, live: Live[Any], presenter: Presenter[Any, Any], player: int) -> Any:
        game = presenter.game
        if live.record.kind == "no_thanks":
            # The rule: no thanks while the player has chips, else take.
            legal = game.legal_actions(live.state, player)
            return next((a for a in legal if type(a).__name__ == "NoThanks"), legal[0])
        return self.tables.decide(live.record.kind, game, live.state, player)

    async def missed(self, channel_id: int, game_id: int, player: int) -> None:
        """Count a missed turn; enough in a row put the seat on autopilot; a table of people all away is closed."""
        record = await self.tables.storage.game(game_id)
        if record is None or record.status != "running":
            return
        counts = misses(record)
        counts[player] = counts.get(player, 0) + 1
        seats = autopilot(record)
        if counts[player] >= MISSES_FOR_AUTOPILOT:
            seats.add(player)
        await self.set_options(record, misses=counts, autopilot=seats)
        if player in seats:
            await self.announce(
                record,
                f"{mention(player)} missed {counts[player]} turns in a row: the autopilot "
                f"plays their turns until they act again.",
            )
        await self.close_if_all_away(channel_id, game_id)

    async def close_if_all_away(self, channel_id: int, game_id: int) -> None:
        record = await self.tables.storage.game(game_id)
        if record is None or record.status != "running":
            return
        live = await self.tables.live(record)
        game = self.tables.presenter(record).game
        people = [p for p in record.players if not is_ai(p) and game.legal_actions(live.state, p)]
        if people and all(p in autopilot(record) for p in people):
            async with self.tables.lock(channel_id):
                with suppress(Conflict):
                    await self.tables.abandon(record)
                    await self.tables.storage.clear_timer(game_id)
            await self.announce(record, "Everybody at the table is away, so the game ends as abandoned (no score).")

    async def acted(self, record: GameRecord, player: int) -> None:
        """A person acted: they are back, whatever the clock said."""
        if player in autopilot(record) or misses(record).get(player):
            counts = misses(record)
            counts.pop(player, None)
            await self.set_options(record, misses=counts, autopilot=autopilot(record) - {player})

    async def set_options(self, record: GameRecord, **changes: Any) -> None:
        for _ in range(5):
            options = dict(record.options)
            for key, value in changes.items():
                options[key] = {str(k): v for k, v in value.items()} if isinstance(value, dict) else sorted(value)
            try:
                updated = await self.tables.storage.update_game(record, options=options)
            except Conflict:
                fresh = await self.tables.storage.game(record.id)
                if fresh is None:
                    return
                record = fresh
                continue
            live = self.tables.cached(record.id)
            if live is not None:
                live.record = updated
            return

    async def announce(self, record: GameRecord, text: str) -> None:
        channel = self.tables.bot.get_partial_messageable(record.channel_id)
        with suppress(discord.HTTPException):
            await channel.send(text, allowed_mentions=USERS_ONLY)

    # ---- votes ------------------------------------------------------------------------------------------------

    async def vote(self, interaction: discord.Interaction[Any], game_id: int, kind: str, target: int) -> None:
        """A vote of the table to put ``target`` on autopilot or to remove them; a majority of the people at the
        table (the target aside) decides."""
        tables = self.tables
        live, presenter = await tables.running(interaction.channel_id or 0)
        record = live.record
        voter = interaction.user.id
        game = presenter.game
        if record.id != game_id:
            raise UserError("That vote is from an earlier game.")
        people = [p for p in record.players if not is_ai(p) and p != target and game.legal_actions(live.state, p)]
        if voter not in people:
            raise UserError("Only the other players at the table can vote on this.")
        if not game.legal_actions(live.state, target):
            raise UserError(f"{mention(target)} is not at the table any more.")
        key = f"{kind}:{target}"
        votes = {k: set(v) for k, v in dict(record.options.get("votes", {})).items()}
        votes.setdefault(key, set()).add(voter)
        needed = len(people) // 2 + 1
        passed = len(votes[key]) >= needed
        if passed:
            votes.pop(key)
        await self.set_options(record, votes={k: sorted(v) for k, v in votes.items()})
        what = "autopilot for" if kind == "autopilot" else "removing"
        if not passed:
            await interaction.response.send_message(
                f"Your vote for {what} {mention(target)} is in ({len(votes[key])} of {needed} needed).", ephemeral=True
            )
            return
        await interaction.response.send_message(f"The table voted for {what} {mention(target)}.", ephemeral=True)
        if kind == "autopilot":
            fresh = await tables.storage.game(game_id)
            if fresh is not None:
                await self.set_options(fresh, autopilot=autopilot(fresh) | {target})
                await self.announce(fresh, f"The table put {mention(target)} on autopilot until they act again.")
                fresh_live = await tables.live(fresh)
                await self.moved(fresh_live, presenter, moved_on=True)
                tables.wake_ai(fresh_live)
                await self.close_if_all_away(fresh.channel_id, game_id)
            return
        played = await tables.play(record.channel_id, target, game.leave, auto=True)
        await tables.publish(played, prefix=f"The table voted {mention(target)} out: ")

    def vote_buttons(
        self, record: GameRecord, state: Any, presenter: Presenter[Any, Any]
    ) -> list[discord.ui.Button[Any]]:
        """Under the board, once the player to move has missed a turn: the table's two votes."""
        mover = presenter.game.current_player(state)
        if mover is None or is_ai(mover) or not misses(record).get(mover) or mover in autopilot(record):
            return []
        return [
            discord.ui.Button(
                label="Vote: autopilot for the player to move",
                style=discord.ButtonStyle.secondary,
                custom_id=f"vote:{record.id}:autopilot:{mover}",
                row=4,
            ),
            discord.ui.Button(
                label="Vote: remove the player to move",
                style=discord.ButtonStyle.danger,
                custom_id=f"vote:{record.id}:remove:{mover}",
                row=4,
            ),
        ]

    def deadline_line(self, record: GameRecord, mover: int | None) -> str | None:
        entry = self.deadlines.get(record.id)
        if entry is None or (mover is not None and entry[0] != mover):
            return None
        player, due = entry
        return f"⏰ {mention(player)}'s turn ends <t:{int(due)}:R>."
