"""The cache of committed games: a running game's row, its position, and its recent moves.

Only ``Games`` writes it (the row, the position, the turn log); each view keeps its own state (the boards their
message ids and texts, the courier what each DM shows, the panels their tokens) and reads this one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from i18n import Localized
from storage import GameRecord
from table.presenter import Step

# A turn's moves kept in memory at most (The Game: a few cards, the end and signals; No Thanks!: a card's round).
TURN_STEPS = 200


@dataclass
class Live:
    """A running game in memory: its row, its state (of the game's own type, opaque to the table), and what the
    table did lately.

    The turn log (``turn``, ``previous``) feeds the channel's log (``Presenter.summary``): the moves of the turn under
    way and of the turn before (a turn ends when the move's Transition says the table moved on). After a restart they
    are rebuilt from the move log."""

    record: GameRecord
    state: Any
    turn: list[Step] = field(default_factory=list)
    previous: list[Step] = field(default_factory=list)
    # The private text each player's DM must show, in each player's own language: kept by ``Games`` as moves are
    # replayed (a DM shows a hand as of the move that last revealed it, not the position's), read by the courier.
    dm_text: dict[int, Localized] = field(default_factory=dict)

    def remember(self, step: Step, moved_on: bool) -> None:
        """Keep ``step`` with the turn under way; a move that moved the table on closes the turn."""
        self.turn.append(step)
        del self.turn[:-TURN_STEPS]
        if moved_on:
            self.previous, self.turn = self.turn, []

    def turn_of(self, number: int) -> list[Step]:
        """The remembered moves of the turn that move ``number`` belongs to, up to it."""
        for turn in (self.turn, self.previous):
            if any(step.number == number for step in turn):
                return [step for step in turn if step.number <= number]
        return []

    def since(self, start: int, end: int) -> list[Step]:
        """The remembered moves after move ``start`` up to move ``end``."""
        return [step for step in (*self.previous, *self.turn) if start < step.number <= end]
