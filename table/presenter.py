"""How one game reads to people: the contract each game's Discord module fulfils (``cogs/<game>.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

import discord

from engine.game import Game, Move, Setup
from storage import GameRecord
from table.picture import Picture

StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")


class Presenter(Protocol[StateT, ActionT]):
    """Pure functions from states to what people read: no I/O, no interaction, the same answer for the same state."""

    game: Game[StateT, ActionT]
    rules_text: str
    closed_dms_hint: str

    def board(self, state: StateT) -> discord.Embed: ...
    def board_view(self, record: GameRecord, state: StateT) -> discord.ui.View | None: ...
    def headline(self, state: StateT) -> str | None: ...
    def private_text(self, state: StateT, player: int) -> str: ...
    def start_text(self, state: StateT) -> str: ...
    def announce(self, before: StateT, after: StateT, player: int, action: ActionT) -> str: ...
    def game_over_text(self, state: StateT) -> str: ...
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

    def panel(self, record: GameRecord, state: StateT, player: int, page: str | None) -> dict[str, Any]:
        """The private panel of ``player`` (content and buttons), shown ephemerally; ``page`` is the game's own
        name for a page of it (None: the main page)."""
        ...


class EndPicture(Protocol[ActionT]):
    """What a presenter offers, besides ``Presenter``, when its game's end screen carries a picture (optional: the
    boards look for ``end_picture``). Called once per game, in a thread, with the whole log; None: no picture."""

    def end_picture(self, setup: Setup, moves: Sequence[Move[ActionT]]) -> Picture | None: ...
