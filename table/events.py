"""Events between the parts: a committed move is announced once, and whoever cares listens.

Listeners run in the order they subscribed, one after the other, before the mover is answered: the clock must have
set the new turn's deadline before the board that shows it is drawn. A listener that fails is logged and never
reaches the answer: the move is committed, and the player must hear that it was made.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from storage import StorageError

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Moved:
    """A move was appended to a game's log (or the game was dealt: ``action`` None, ``dealt`` True).

    ``live`` is the game in memory after the move; ``moved_on`` says the table moved on to a new turn (the
    presenter's word), ``auto`` that no person made the move."""

    live: Any  # table.games.Live
    presenter: Any  # table.presenter.Presenter
    before: Any
    after: Any
    player: int | None
    action: Any
    moved_on: bool
    auto: bool = False
    dealt: bool = False


Listener = Callable[[Moved], Awaitable[None]]
# Told of a game just loaded into memory (a ``table.games.Live``); starts background work, never waits.
LoadListener = Callable[[Any], None]


class Events:
    def __init__(self) -> None:
        self._listeners: list[tuple[str, Listener]] = []
        self._loaders: list[tuple[str, LoadListener]] = []

    def on_load(self, name: str, listener: LoadListener) -> None:
        """Call ``listener`` whenever a running game is loaded from the database into memory (after a restart, or
        after it left memory), whichever path loaded it: a click, a command, the clock, the resume."""
        self._loaders.append((name, listener))

    def loaded(self, live: Any) -> None:
        for name, listener in self._loaders:
            try:
                listener(live)
            except Exception:
                log.exception("The %s could not take up game %s", name, live.record.id)

    def subscribe(self, name: str, listener: Listener) -> None:
        self._listeners.append((name, listener))

    def unsubscribe(self, name: str) -> None:
        self._listeners = [(n, listener) for n, listener in self._listeners if n != name]

    async def moved(self, event: Moved) -> None:
        for name, listener in self._listeners:
            try:
                await listener(event)
            except StorageError as error:
                # A database that turned busy after the move was saved is no bug: one line, no traceback.
                log.warning(
                    "The %s could not follow move %s of game %s: %s", name, event.action, event.live.record.id, error
                )
            except Exception:
                log.exception("The %s could not follow move %s of game %s", name, event.action, event.live.record.id)
