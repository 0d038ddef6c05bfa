"""Events between the parts: a committed move is announced once, and whoever cares listens.

Listeners of a move (a ``Transition``) run in the order they subscribed, one after the other, before the mover is
answered: the clock must have set the new turn's deadline before the board that shows it is drawn. A listener that
fails is logged and never reaches the answer: the move is committed, and the player must hear that it was made.

Two more events: a game loaded into memory (whatever loaded it), and a turn that ran out on the clock
(``TurnRanOut``), which the seats act on; the clock does not know who plays the turn.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from storage import StorageError
from table.live import Live
from table.transition import Transition

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class TurnRanOut:
    """``player``'s turn at move ``seq`` of game ``game_id`` (in ``channel_id``) ran out on the clock."""

    channel_id: int
    game_id: int
    player: int


Listener = Callable[[Transition], Awaitable[None]]
# Told of a game just loaded into memory; starts background work, never waits.
LoadListener = Callable[[Live], None]
TimeoutListener = Callable[[TurnRanOut], Awaitable[None]]


class Events:
    def __init__(self) -> None:
        self._listeners: list[tuple[str, Listener]] = []
        self._loaders: list[tuple[str, LoadListener]] = []
        self._timeouts: list[tuple[str, TimeoutListener]] = []

    def on_load(self, name: str, listener: LoadListener) -> None:
        """Call ``listener`` whenever a running game is loaded from the database into memory (after a restart, or
        after it left memory), whichever path loaded it: a click, a command, the clock, the resume."""
        self._loaders.append((name, listener))

    def loaded(self, live: Live) -> None:
        for name, listener in self._loaders:
            try:
                listener(live)
            except Exception:
                log.exception("The %s could not take up game %s", name, live.record.id)

    def on_turn_ran_out(self, name: str, listener: TimeoutListener) -> None:
        self._timeouts.append((name, listener))

    async def turn_ran_out(self, event: TurnRanOut) -> None:
        """The clock's word that a turn ran out; a listener's failure is logged (the next deadline fires again)."""
        for name, listener in self._timeouts:
            try:
                await listener(event)
            except Exception:
                log.exception("The %s could not play the turn that ran out in game %s", name, event.game_id)

    def subscribe(self, name: str, listener: Listener) -> None:
        self._listeners.append((name, listener))

    def unsubscribe(self, name: str) -> None:
        self._listeners = [(n, listener) for n, listener in self._listeners if n != name]

    async def moved(self, event: Transition) -> None:
        for name, listener in self._listeners:
            try:
                await listener(event)
            except StorageError as error:
                # A database that turned busy after the move was saved is no bug: one line, no traceback.
                log.warning(
                    "The %s could not follow move %s of game %s: %s", name, event.number, event.record.id, error
                )
            except Exception:
                log.exception("The %s could not follow move %s of game %s", name, event.number, event.record.id)
