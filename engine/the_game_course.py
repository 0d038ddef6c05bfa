"""The course of a game of The Game, as figures to draw: what was left turn by turn, each pile's path, the tricks.

Derived from the move log alone (the truth), by replaying it: the end screen's picture shows how the game went, not
only where it ended. Pure and in the engine because it is the rules' own reading of a game (which card opened a turn,
what counts as a backwards trick); the drawing, which needs an imaging library, lives in ``table.picture``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.game import Move, Setup, positions
from engine.the_game import GAME, Action, Play, State, is_backwards_trick, score, top


@dataclass(frozen=True, slots=True)
class Laid:
    """One card laid: in which turn (1 for the first), on which pile, over which top, and whether it was the
    backwards trick."""

    turn: int
    pile: str
    card: int
    over: int
    trick: bool


@dataclass(frozen=True, slots=True)
class Left:
    """The cards not laid at the end of a turn (turn 0: the deal): in the draw pile, and in each seat's hand."""

    turn: int
    draw_pile: int
    hands: tuple[int, ...]  # per seat, in seating order

    @property
    def total(self) -> int:
        return self.draw_pile + sum(self.hands)


@dataclass(frozen=True, slots=True)
class Course:
    players: int
    status: str  # the game's own word: "won", "lost", "abandoned" (or "playing" for a log that stops mid-game)
    score: int  # cards not laid at the end
    left: tuple[Left, ...]  # one per turn, from the deal (turn 0) to the last turn
    laid: tuple[Laid, ...]  # every card, in the order laid

    @property
    def turns(self) -> int:
        return self.left[-1].turn

    def path(self, pile: str) -> tuple[Laid, ...]:
        """The cards laid on ``pile``, oldest first: its top after each."""
        return tuple(card for card in self.laid if card.pile == pile)

    @property
    def tricks(self) -> tuple[Laid, ...]:
        return tuple(card for card in self.laid if card.trick)

    def cards_in_turn(self, turn: int) -> int:
        return sum(1 for card in self.laid if card.turn == turn)


def _left(state: State) -> Left:
    return Left(state.turns, len(state.draw_pile), tuple(map(len, state.hands)))


def course(setup: Setup, moves: Sequence[Move[Action]]) -> Course:
    """The course of the game ``setup`` played by ``moves``; raises ``CorruptState`` if the log breaks the rules.

    A turn's figures are those after its last move (its draw included); a signal or a leave between turns counts
    with the turn before it."""
    laid: list[Laid] = []
    left: list[Left] = []
    before: State | None = None
    for number, state in enumerate(positions(GAME, setup, moves)):
        if before is not None:
            action = moves[number - 1].action
            if isinstance(action, Play):
                over = top(before, action.pile)
                trick = is_backwards_trick(action.pile, over, action.card)
                laid.append(Laid(state.turns, action.pile, action.card, over, trick))
        figures = _left(state)
        if left and left[-1].turn == figures.turn:
            left[-1] = figures
        else:
            left.append(figures)
        before = state
    assert before is not None  # positions yields the deal at least
    return Course(len(before.players), before.status, score(before), tuple(left), tuple(laid))
