"""The games this table hosts: one ``Registration`` per game carries all the table knows of it.

OpenSpiel's ``pyspiel.register_game``: the core keeps the registry and reads it by kind, and never names a game; each
game's table adapter builds its registration (rules, optional computer player, presenter, optional end picture,
first-game texts), and the top-level ``games`` module registers them, one line each. The rules carry the game's facts
(``GameInfo``: cooperative, has secrets, turn time) and its safe default move (``Game.default_action``).

The registry is filled when ``games`` is imported (``bot.py`` does, before it loads the cogs; so does the tests'
``conftest.py``): nothing here imports an adapter, since the adapters sit above the core.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

from engine.ai import AIPlayer
from engine.game import NO_NUMBERS_IN_CHAT, Game, Move, Setup
from i18n import Text
from storage import GameRecord
from table.picture import Picture
from table.presenter import SomePresenter, Step
from table.wire import Message

# Called once per finished game, in a thread, with the whole log: the end screen's picture, or None for none.
EndPicture = Callable[[Setup, Sequence[Move[Any]]], Picture | None]
# The core handles every game alike: a game's state and action types are its own, opaque to the core.
SomeGame: TypeAlias = Game[Any, Any]
SomeAI: TypeAlias = AIPlayer[Any, Any]
# The player's DM as a panel: (game, state, player, page, locale, the move its answer shows) -> the DM's content and
# buttons. Its resting page (``page`` None) may show only what changes by the player's own moves: nothing else edits
# a DM (each DM edit spends the bot's global rate limit). Once the game is over, it carries no buttons.
DMPanel = Callable[[GameRecord, Any, int, str | None, str, Step | None], Message]


@dataclass(frozen=True, slots=True)
class ChatRule:
    """What a game that forbids numbers in chat (``NO_NUMBERS_IN_CHAT``) tells a person whose message was removed:
    privately, naming the channel (``told``), or, where their DMs are closed, in the channel for a few seconds,
    naming them (``notice``). The words are the game's own: its rule, its way to hint without numbers."""

    told: Callable[[str], Text]
    notice: Callable[[str | Text], Text]


@dataclass(frozen=True, slots=True)
class Registration:
    """Everything about one game: its rules, how it reads at a Discord table, and what teaches it to newcomers."""

    game: SomeGame
    presenter: SomePresenter
    # The extension that adds the game's commands and buttons (its adapter module names itself: ``__name__``).
    extension: str
    ai: SomeAI | None = None  # None: people only (``bots:`` and "Add bot" are refused)
    end_picture: EndPicture | None = None
    # The first-game texts; None: the lines that fit any game (``cogs._learning``).
    at_the_table: Text | None = None  # /rules: how the game is played with this bot, after the game's own rules
    first_game: Text | None = None  # the note with a person's answer when they open or join their first game here
    chat_rule: ChatRule | None = None  # required with ``NO_NUMBERS_IN_CHAT``, which removes numbers from the chat
    # None: the DM is text only (a game whose decision needs what others' moves change, such as No Thanks!'s face-up
    # card, has no buttons there: keeping them current would cost a DM edit per move).
    dm_panel: DMPanel | None = None

    @property
    def kind(self) -> str:
        return self.game.info.kind


REGISTRY: dict[str, Registration] = {}


def register(registration: Registration) -> Registration:
    """Host ``registration``'s game: the lobby offers it, the bot loads its commands, the tests cover it."""
    if registration.presenter.game is not registration.game:
        raise ValueError(f"The presenter of {registration.kind!r} presents another game")
    if NO_NUMBERS_IN_CHAT in registration.game.info.capabilities and registration.chat_rule is None:
        raise ValueError(f"{registration.kind!r} forbids numbers in chat but tells nobody why their message went")
    if REGISTRY.get(registration.kind, registration) is not registration:
        raise ValueError(f"Another game is registered as {registration.kind!r}")  # one kind, one game, everywhere
    REGISTRY[registration.kind] = registration
    return registration


def unregister(kind: str) -> None:
    REGISTRY.pop(kind, None)


def registration(kind: str) -> Registration | None:
    return REGISTRY.get(kind)


def registered() -> list[Registration]:
    """Every registration, in the order registered (the first is the lobby's default)."""
    return list(REGISTRY.values())


def computer_player(kind: str) -> SomeAI | None:
    """The game's computer player; None for a game played by people only, or a kind this bot doesn't host."""
    found = REGISTRY.get(kind)
    return found.ai if found is not None else None


class _Rules(Mapping[str, SomeGame]):
    """The registered games' rules by kind: a read-only view of ``REGISTRY``, never a list of its own."""

    def __getitem__(self, kind: str) -> SomeGame:
        return REGISTRY[kind].game

    def __iter__(self) -> Iterator[str]:
        return iter(REGISTRY)

    def __len__(self) -> int:
        return len(REGISTRY)


GAMES: Mapping[str, SomeGame] = _Rules()
