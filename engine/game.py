"""The contract every game's rules fulfil, and what the rest of the bot may rely on.

A game is its ``Setup`` (players, seed, variants, rules version) plus the list of moves made since: the move log is the
truth, and every state is derived by replaying it (OpenSpiel's "action history as the serialisation"). A rules module
describes itself with ``GameInfo`` and offers one ``Game`` object; the game's registration (``table.registry``) hosts
it. Nothing here knows of Discord, asyncio or a database.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from engine.errors import CorruptState, GameError
from i18n import Text, _, listing

StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")

# What a game can ask of the table it runs at; the bot acts on these without naming a game.
NO_NUMBERS_IN_CHAT = "no_numbers_in_chat"


@dataclass(frozen=True, slots=True)
class Variant:
    """An optional rule a lobby can switch on; ``name`` is also the option's name on /newgame."""

    name: str
    label: Text  # how people read it: "smaller hands", in their language
    description: str  # one line for the slash command's option


@dataclass(frozen=True, slots=True)
class GameInfo:
    """How the lobby presents and sets up a game; ``kind`` is the one identifier used everywhere."""

    kind: str
    title: str
    min_players: int
    max_players: int
    variants: tuple[Variant, ...] = ()
    rules_version: int = 1  # raised whenever a rule change could replay an old log differently
    replays_versions: frozenset[int] = frozenset()  # older versions whose logs it still replays under their own rules
    capabilities: frozenset[str] = frozenset()
    cooperative: bool = False  # the players win or lose together (statistics count teams, not places)
    # Each player holds something only they may see (a hand, chips): the bot keeps it in a DM of its own. A game whose
    # every fact is on the board sends no DMs at all.
    has_secrets: bool = True
    turn_seconds: int = 180  # the turn clock's default pace: how long a turn of this game takes a person
    # What a score counts, the lower the better: points, or (The Game) the cards left unplayed.
    score_counts_cards: bool = False

    def variant(self, name: str) -> Variant | None:
        return next((v for v in self.variants if v.name == name), None)


@dataclass(frozen=True, slots=True)
class Setup:
    """Everything that fixes a game before its first move."""

    players: tuple[int, ...]
    seed: int
    variants: frozenset[str] = frozenset()
    rules_version: int = 1


@dataclass(frozen=True, slots=True)
class Move(Generic[ActionT]):
    """One entry of the move log: who did what."""

    player: int
    action: ActionT


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended. ``status`` is the game's own word ("won", "lost", "finished", "abandoned").

    ``winners`` are the seats that won (every seat of a cooperative game that was won, none of one that was lost);
    ``score`` the figure the game is judged by (cards left, a winner's points), None when it has none."""

    status: str
    abandoned: bool
    result: Mapping[str, Any] = field(default_factory=dict)  # JSON-ready figures kept for statistics
    winners: tuple[int, ...] = ()
    score: int | None = None


@dataclass(frozen=True, slots=True)
class Game(Generic[StateT, ActionT]):
    """What the bot needs from a game's rules: its description and pure functions over immutable states.

    ``observation(state, player)`` is all that ``player`` may know (their own hand or chips and the public board);
    ``public_view(state)`` is what the whole table sees. ``outcome`` is None while the game runs.
    """

    info: GameInfo
    leave: ActionT  # the action of a player who leaves a running game
    new_game: Callable[[Setup], StateT]
    apply: Callable[[StateT, int, ActionT], StateT]
    legal_actions: Callable[[StateT, int], list[ActionT]]
    current_player: Callable[[StateT], int | None]
    is_over: Callable[[StateT], bool]
    outcome: Callable[[StateT], Outcome | None]
    move_count: Callable[[StateT], int]
    observation: Callable[[StateT, int], Any]
    public_view: Callable[[StateT], Any]
    encode_action: Callable[[ActionT], list[Any]]
    decode_action: Callable[[Any], ActionT]  # raises CorruptState for anything encode_action cannot produce
    # A safe legal move for the seat to move, without planning: what the turn clock's autopilot plays when the game
    # has no computer player, and what a computer player's seat plays when its decision failed. Never ``leave``
    # while anything else is legal.
    default_action: Callable[[StateT, int], ActionT]


def check_setup(info: GameInfo, setup: Setup) -> None:
    """Refuse a setup the rules module cannot replay: another rules version, or variants it does not know."""
    if setup.rules_version != info.rules_version and setup.rules_version not in info.replays_versions:
        raise CorruptState(
            _(
                "This game was started under rules version {saved} of {game}, and this bot plays version {current}.",
                saved=setup.rules_version,
                game=info.title,
                current=info.rules_version,
            )
        )
    unknown = sorted(setup.variants - {v.name for v in info.variants})
    if unknown:
        raise CorruptState(_("This game uses a variant this bot doesn't know ({variants}).", variants=listing(unknown)))


def positions(game: Game[StateT, ActionT], setup: Setup, moves: Iterable[Move[ActionT]]) -> Iterator[StateT]:
    """The state after the deal, then after each of ``moves`` in turn: the course of a game, for whoever draws it.
    Raises ``CorruptState`` (never anything else) if the log breaks the rules."""
    check_setup(game.info, setup)
    try:
        state = game.new_game(setup)
    except CorruptState:
        raise
    except GameError as error:
        raise CorruptState(_("The saved game cannot be set up: {error}", error=error.text)) from error
    yield state
    for number, move in enumerate(moves, start=1):
        try:
            state = game.apply(state, move.player, move.action)
        except GameError as error:
            raise CorruptState(
                _("Move {number} of the saved game breaks the rules: {error}", number=number, error=error.text)
            ) from error
        yield state


def replay(game: Game[StateT, ActionT], setup: Setup, moves: Iterable[Move[ActionT]]) -> StateT:
    """The state after ``moves``; raises ``CorruptState`` (never anything else) if the log breaks the rules."""
    return deque(positions(game, setup, moves), maxlen=1)[0]


def decode_moves(game: Game[Any, ActionT], rows: Sequence[tuple[int, Any]]) -> list[Move[ActionT]]:
    """(player, encoded action) pairs from storage as moves; ``CorruptState`` if one is malformed."""
    moves = []
    for player, raw in rows:
        if not isinstance(player, int) or isinstance(player, bool):
            raise CorruptState(_("The saved game is damaged (a move names no player)."))
        moves.append(Move(player, game.decode_action(raw)))
    return moves
