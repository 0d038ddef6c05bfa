"""More interactions than the bot can work on in time: at most ``RUNNING`` are worked on at once.

An interaction that finds every place taken waits its turn; if it waits long, it is acknowledged (deferred: Discord
then waits 15 minutes for the answer instead of 3 s). Without this, a saturated event loop interleaves the work of every
interaction in flight, so a new one's acknowledgement queues behind all of their requests and misses the 3 s; with
it, the loop carries the work of ``RUNNING`` interactions and the cheap deferrals of the rest.

One that arrives with its 3 s already gone (it waited for the gateway, or for this loop) cannot be answered at all:
it is logged as one warning and dropped before anything changes. Autocomplete is never queued: it cannot be deferred,
and it only reads.
"""

from __future__ import annotations

import asyncio
import logging

import discord

import metrics
from table.answer import DEAD_TOKEN_CODES, DEFER_AFTER_SECONDS, Interaction, age, defer

log = logging.getLogger(__name__)

# A command's ``extras`` key: its answer is private (nearly always), so a queued one is deferred with a private
# "thinking" (a public one, deleted when the private answer comes, would flash in the channel and cost a request). A
# public answer after all replaces the private thinking (``table.answer.send``).
ANSWERED_PRIVATELY = "answered privately"
# How long an interaction may wait for a place before it is deferred: about when a person notices the wait, well
# inside Discord's 3 s even when the loop's timers run late; a short burst is worked off without any deferral.
PATIENCE = 0.5
# Enough interactions at once to keep the bot busy while they wait for the database and Discord (CPU-bound with
# Discord answering in 40-120 ms), few enough that the event loop's queue stays short: a deferral then goes out on
# time however long the queue (benchmarks/load.py --think 0, docs/benchmarks.md).
RUNNING = 32


class Admission:
    """The places for interactions being worked on; ``admit`` is the first thing every handler awaits."""

    def __init__(self, running: int | None = None) -> None:
        self._places = asyncio.Semaphore(RUNNING if running is None else running)
        self.waiting = 0  # interactions acknowledged and queued: the bot's backlog (a figure for the logs)

    @property
    def full(self) -> bool:
        """Every place is taken: the next interaction is deferred and waits."""
        return self._places.locked()

    async def admit(self, interaction: Interaction) -> bool:
        """Take a place for the handler running ``interaction`` (given back when its task ends). False when the
        interaction can no longer be answered: nothing must be done for it."""
        task = asyncio.current_task()
        if task is None or interaction.type is discord.InteractionType.autocomplete:
            return True
        if self.full:
            if not await self._queue(interaction):
                return False
        else:
            await self._places.acquire()  # free: takes the place without suspending
        task.add_done_callback(self._give_back)
        return True

    async def _queue(self, interaction: Interaction) -> bool:
        """Wait for a place; deferred once it has waited ``PATIENCE`` (at once when it arrived late already)."""
        deferral: list[asyncio.Future[bool]] = []

        def acknowledge() -> None:
            deferral.append(asyncio.ensure_future(self._acknowledge(interaction)))

        # Not at once even behind a long queue: 32 places work it off quickly (each interaction takes a few ms of the
        # bot's time), and a deferral costs a request and turns the answer into a followup.
        wait = min(PATIENCE, DEFER_AFTER_SECONDS - age(interaction))
        handle = asyncio.get_running_loop().call_later(max(wait, 0.0), acknowledge)
        self.waiting += 1
        metrics.QUEUED.inc()
        try:
            await self._places.acquire()
        finally:
            handle.cancel()
            self.waiting -= 1
            metrics.QUEUED.dec()
        if deferral and not await deferral[0]:
            self._places.release()
            return False
        return True

    async def _acknowledge(self, interaction: Interaction) -> bool:
        """Defer ``interaction`` now; False when its token is dead already (one warning, nothing more)."""
        command = interaction.command
        private = command is not None and bool(command.extras.get(ANSWERED_PRIVATELY))
        try:
            await defer(interaction, ephemeral=private)
        except discord.HTTPException as error:
            if error.code in DEAD_TOKEN_CODES:
                metrics.DROPPED.inc()
                log.warning(
                    "Dropped an interaction in channel %s that came after Discord's 3 s (%s queued): %s",
                    interaction.channel_id,
                    self.waiting,
                    error,
                )
                return False
            # Any other refusal of the deferral: the answer finds out for itself, through the one error path.
        return True

    def _give_back(self, _task: asyncio.Task[object]) -> None:
        self._places.release()
