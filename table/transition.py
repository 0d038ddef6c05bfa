"""One committed move, as one value: what every view of the table reacts to.

``Games`` makes it once, after the move is in the log (or the game was dealt), and announces it (``table.events``);
the channel's board, the hand panels, the DMs, the clock, the computer seats, the nudges and the web table each
read what they need from it. What the presenter says about the move's consequence for the table (a new turn: a new
board; whose private view changed: their DM) is asked here once, not by each view again.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from storage import GameRecord
from table.live import Live
from table.presenter import SomePresenter, Step


class Actor(Enum):
    """Who made a move: a person (a click, a command, the web table), a computer player, or the autopilot for an
    away person; the deal has no mover."""

    PERSON = "person"
    COMPUTER = "computer"
    AUTOPILOT = "autopilot"
    DEAL = "deal"


@dataclass(frozen=True, slots=True)
class Transition:
    """A move appended to a game's log, with everything the views react to.

    ``live`` is the game's cache entry (it moves on with later moves; ``record`` and ``after`` are this move's).
    ``revealed``: the players whose private view changed (their DM is due again). ``moved_on``: the table moved on
    to a new turn (the board goes up anew). ``upcoming``: who is to move now (None: anyone, or the game is over);
    ``turn_began``: that is somebody other than before the move."""

    live: Live
    presenter: SomePresenter
    record_before: GameRecord
    record: GameRecord
    before: object  # None for the deal
    after: object
    player: int | None
    action: object
    actor: Actor
    number: int
    moved_on: bool
    revealed: frozenset[int]
    upcoming: int | None
    turn_began: bool

    @property
    def auto(self) -> bool:
        """No person made the move (a computer player, the autopilot)."""
        return self.actor in (Actor.COMPUTER, Actor.AUTOPILOT)

    @property
    def by(self) -> int:
        """Who made the move; only for a move (the deal has no mover, and is neither announced nor answered)."""
        if self.player is None:
            raise ValueError("the deal has no mover")
        return self.player

    @property
    def dealt(self) -> bool:
        return self.actor is Actor.DEAL

    @property
    def ended(self) -> bool:
        return bool(self.presenter.game.is_over(self.after))

    @property
    def step(self) -> Step | None:
        """The move as a line of the turn log (None for the deal)."""
        if self.player is None:
            return None
        return Step(self.number, self.player, self.action, self.before, self.after)


def transition(
    live: Live,
    presenter: SomePresenter,
    record_before: GameRecord,
    before: object,
    player: int | None,
    action: object,
    actor: Actor,
    *,
    moved_on: bool,
    revealed: frozenset[int],
) -> Transition:
    """The Transition of a move just committed to ``live`` (``live.state`` is the position after it)."""
    game, after = presenter.game, live.state
    upcoming = None if game.is_over(after) else game.current_player(after)
    began = actor is Actor.DEAL or (before is not None and upcoming != game.current_player(before))
    return Transition(
        live=live,
        presenter=presenter,
        record_before=record_before,
        record=live.record,
        before=before,
        after=after,
        player=player,
        action=action,
        actor=actor,
        number=game.move_count(after),
        moved_on=moved_on,
        revealed=revealed,
        upcoming=upcoming,
        turn_began=began,
    )
