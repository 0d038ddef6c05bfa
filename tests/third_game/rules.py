"""Race to 21: the players in turn add one, two or three to a running total; whoever reaches 21 wins.

Pure rules, the same shape as ``engine/the_game.py`` and ``engine/no_thanks.py``; no computer player.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from engine.errors import CorruptState, GameOver, IllegalAction, NotAPlayer, NotYourTurn
from engine.game import Game, GameInfo, Outcome, Setup

GOAL = 21
STEPS = (1, 2, 3)

INFO = GameInfo(
    kind="race",
    title="Race to 21",
    min_players=2,
    max_players=4,
    turn_seconds=30,
    has_secrets=False,  # the running total is all there is: no hand, so no DMs
)


@dataclass(frozen=True, slots=True)
class Add:
    step: int


@dataclass(frozen=True, slots=True)
class Leave:
    pass


Action = Add | Leave


@dataclass(frozen=True, slots=True)
class State:
    players: tuple[int, ...]
    total: int = 0
    turn: int = 0
    moves: int = 0
    left: tuple[int, ...] = ()
    winner: int | None = None
    status: str = "playing"  # playing, finished, abandoned


def new_game(setup: Setup) -> State:
    return State(players=setup.players)


def current_player(state: State) -> int | None:
    return state.players[state.turn] if state.status == "playing" else None


def seated(state: State) -> list[int]:
    return [p for p in state.players if p not in state.left]


def _next_turn(state: State) -> int:
    turn = state.turn
    for _ in state.players:
        turn = (turn + 1) % len(state.players)
        if state.players[turn] not in state.left:
            break
    return turn


def apply(state: State, player: int, action: Action) -> State:
    if state.status != "playing":
        raise GameOver("The race is over.")
    if player not in seated(state):
        raise NotAPlayer("You're not in this race.")
    if isinstance(action, Leave):
        after = replace(state, left=(*state.left, player), moves=state.moves + 1)
        if len(seated(after)) < 2:
            return replace(after, status="abandoned")
        return replace(after, turn=_next_turn(after)) if current_player(state) == player else after
    if current_player(state) != player:
        raise NotYourTurn("It's not your turn.")
    if action.step not in STEPS:
        raise IllegalAction("Add one, two or three.")
    total = min(GOAL, state.total + action.step)
    if total == GOAL:
        return replace(state, total=total, moves=state.moves + 1, winner=player, status="finished")
    return replace(state, total=total, moves=state.moves + 1, turn=_next_turn(state))


def legal_actions(state: State, player: int) -> list[Action]:
    if state.status != "playing" or player not in seated(state):
        return []
    steps: list[Action] = [Add(step) for step in STEPS] if current_player(state) == player else []
    return [*steps, Leave()]


def outcome(state: State) -> Outcome | None:
    if state.status == "playing":
        return None
    if state.status == "abandoned":
        return Outcome(status="abandoned", abandoned=True)
    assert state.winner is not None
    return Outcome(status="finished", abandoned=False, winners=(state.winner,), score=state.moves)


def encode_action(action: Action) -> list[Any]:
    return ["add", action.step] if isinstance(action, Add) else ["leave"]


def decode_action(raw: Any) -> Action:
    if raw == ["leave"]:
        return Leave()
    if isinstance(raw, list) and len(raw) == 2 and raw[0] == "add" and raw[1] in STEPS:
        return Add(raw[1])
    raise CorruptState(f"The saved game is damaged (unknown move {raw!r}).")


GAME: Game[State, Action] = Game(
    info=INFO,
    leave=Leave(),
    new_game=new_game,
    apply=apply,
    legal_actions=legal_actions,
    current_player=current_player,
    is_over=lambda state: state.status != "playing",
    outcome=outcome,
    move_count=lambda state: state.moves,
    observation=lambda state, player: state,  # nothing is hidden in a race
    public_view=lambda state: state,
    encode_action=encode_action,
    decode_action=decode_action,
    default_action=lambda state, player: Add(1),
)
