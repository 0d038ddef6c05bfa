"""How one game reads to people: the contract each game's Discord module fulfils (``cogs/<game>.py``).

Languages: a presenter writes words as ``Text`` (``i18n``), never as finished strings, and leaves the choice of
language to the edge, where the reader is known. One rule tells the two kinds of methods apart:

- a method that returns words (``headline``, ``private_text``, ``revealed_text``, ``start_text``, ``announce``,
  ``game_over_text``, the rules) returns a ``Text`` (or texts put together with ``i18n.lines``: a ``Localized``);
  the table renders it in the language of whoever reads it: the table's for what the channel sees, the player's own
  for their DM (``table.language``);
- a method that returns a Discord object (``board``, ``board_view``, ``panel``) takes the reader's ``locale``, since
  an embed's fields and a button's label are plain strings: it renders its words in that locale itself.

Card numbers and pile letters are placeholders' values, never translated. The English renderings are the contracts
the acceptance tests read (``Your hand:``, ``Your chips:``, ``Face-up card:``, ``Game over``, the button labels); in
another language those lines are translated too, since people read them: a German player's DM says ``Deine Hand:``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol, TypeAlias, TypeVar

import discord

from engine.game import Game
from i18n import Localized
from storage import GameRecord
from table.wire import Message

StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")


class Step(NamedTuple):
    """One committed move with the positions around it: what a summary of play is made of. ``number`` is the
    move's place in the log (1 for the first move)."""

    number: int
    player: int
    action: Any
    before: Any
    after: Any


class Presenter(Protocol[StateT, ActionT]):
    """Pure functions from states to what people read: no I/O, no interaction, the same answer for the same state."""

    game: Game[StateT, ActionT]

    @property
    def rules_text(self) -> Localized: ...
    @property
    def closed_dms_hint(self) -> Localized: ...

    def board(self, state: StateT, locale: str) -> discord.Embed: ...
    def board_view(self, record: GameRecord, state: StateT, locale: str) -> discord.ui.View | None: ...
    def headline(self, state: StateT) -> Localized | None: ...
    def private_text(self, state: StateT, player: int) -> Localized: ...
    def revealed_text(self, state: StateT, player: int) -> Localized:
        """A seat's private view told to everybody, once the game is over (a replay): "hand: 3, 17"."""
        ...

    def start_text(self, state: StateT) -> Localized: ...
    def announce(self, before: StateT, after: StateT, player: int, action: ActionT) -> Localized: ...
    def game_over_text(self, state: StateT) -> Localized: ...
    def summary(self, steps: Sequence[Step]) -> Localized | None:
        """What ``steps`` did, in a line or two for the channel's log: usually one turn (The Game: the cards laid
        and on which piles, backwards tricks, the draw, signals raised; No Thanks!: who said no thanks, who took
        the card with how many chips). It says nothing of who moves next: a superseded board shrinks to it, and the
        new board opens with it. None when the steps did nothing worth a line."""
        ...

    def dm_due(self, before: StateT, after: StateT, player: int, action: ActionT) -> list[int]:
        """Players whose DM must now show their private view again."""
        ...

    def show_after(self, before: StateT, after: StateT, player: int, action: ActionT) -> bool:
        """Whether the mover also gets their private panel as an ephemeral followup when a new board is posted."""
        ...

    def new_board(self, before: StateT, after: StateT, player: int, action: ActionT) -> bool:
        """Whether the table moved on (a new turn, a card taken): the board is posted anew and pings the next
        player. Otherwise the board is edited in place and pings nobody."""
        ...

    def panel(self, record: GameRecord, state: StateT, player: int, page: str | None, locale: str) -> Message:
        """The private panel of ``player`` (content and buttons) in ``locale``, shown ephemerally; ``page`` is the
        game's own name for a page of it (None: the main page)."""
        ...


# The table handles every game alike: a game's state and action types are its own, opaque to the core.
SomePresenter: TypeAlias = Presenter[Any, Any]
