"""The Game (cooperative card game): the complete rules, data in and data out.

The team lays the 98 cards 2..99 on four piles: A and B ascending from 1, C and D descending from 100. The engine
enforces every rule, decides itself when the game is over, and never needs the clock or global randomness: all chance
is settled by ``random.Random`` instances seeded from the game's seed.

Rulings where the rulebook is silent (see also the comments where they are applied):
- Until the first card is laid, any player may lay it and so takes the first turn.
- A player who leaves has their hand shuffled into the draw pile; hand sizes stay as dealt.
- Empty hands are skipped even if a leave refilled the draw pile: a player only draws at the end of their own turn.
- A turn's minimum never exceeds the cards the mover holds at its start (only possible after a leave).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Any

from engine.base import (
    GameInfo,
    check_version,
    field,
    int_list,
    is_int,
    load_seating,
    replace_at,
    require,
    seat_of,
    seating,
)
from engine.errors import CorruptState, GameError, GameOver, IllegalAction, NotAPlayer, NotYourTurn

INFO = GameInfo(kind="the_game", title="The Game", min_players=1, max_players=5, variants=("expert", "smaller_hands"))

PILES = ("A", "B", "C", "D")
ASCENDING = frozenset({"A", "B"})
CARDS = tuple(range(2, 100))
BACKWARDS_STEP = 10
STATUSES = ("playing", "won", "lost", "abandoned")
VERSION = 1

_ROW_CARDS = (1, 1, 100, 100)  # what each pile shows before its first card
_UP = tuple(name in ASCENDING for name in PILES)


@dataclass(frozen=True, slots=True)
class Play:
    """Lay ``card`` from your hand on ``pile`` ("A".."D")."""

    card: int
    pile: str


@dataclass(frozen=True, slots=True)
class EndTurn:
    """Stop laying cards, draw back up to the hand size and pass the turn."""


@dataclass(frozen=True, slots=True)
class Leave:
    """Leave the running game; the others play on."""


Action = Play | EndTurn | Leave


@dataclass(frozen=True, slots=True)
class Move:
    """One entry of the move list: who did what."""

    player: int
    action: Action


@dataclass(frozen=True, slots=True)
class State:
    players: tuple[int, ...]  # opaque ids in seating order; players who leave keep their seat
    seed: int
    expert: bool
    smaller_hands: bool
    hands: tuple[tuple[int, ...], ...]  # per seat, ascending
    draw_pile: tuple[int, ...]  # drawn from the front
    piles: tuple[tuple[int, ...], ...]  # A, B, C, D: every laid card, oldest first (row cards not included)
    left: tuple[bool, ...]  # per seat
    turn: int | None  # seat of the mover; None until the first card is laid
    laid: int  # cards laid this turn
    minimum: int  # this turn's minimum, fixed when the turn starts
    status: str  # one of STATUSES
    moves: tuple[Move, ...]


@dataclass(frozen=True, slots=True)
class PileView:
    name: str
    ascending: bool
    top: int  # the row card (1 or 100) while the pile is empty
    size: int  # cards laid on it


@dataclass(frozen=True, slots=True)
class SeatView:
    player: int
    cards: int  # how many cards they hold, never which
    left: bool


@dataclass(frozen=True, slots=True)
class PublicView:
    """Everything the whole table may see. It holds no card of anybody's hand."""

    piles: tuple[PileView, ...]
    draw_pile: int
    seats: tuple[SeatView, ...]
    hand_size: int  # as dealt
    current_player: int | None  # None: over, or anyone may lay the first card
    laid: int
    minimum: int
    expert: bool
    smaller_hands: bool
    status: str
    over: bool
    score: int | None  # cards not laid, once won or lost


@dataclass(frozen=True, slots=True)
class Summary:
    turns: int  # turns in which at least one card was laid
    backwards_tricks: int
    pile_lengths: tuple[int, ...]  # cards laid on A, B, C, D


# --- the rules of laying a card -------------------------------------------------------------------------------------


def _fits(up: bool, top: int, card: int) -> bool:
    if up:
        return card > top or card == top - BACKWARDS_STEP
    return card < top or card == top + BACKWARDS_STEP


def _pile_index(pile: str) -> int:
    if pile not in PILES:
        raise IllegalAction(f"There is no pile {pile!r}: the piles are A, B, C and D.")
    return PILES.index(pile)


def is_legal(pile: str, top: int, card: int) -> bool:
    """Whether ``card`` may be laid on ``pile`` when it shows ``top``."""
    return _fits(_UP[_pile_index(pile)], top, card)


def is_backwards_trick(pile: str, top: int, card: int) -> bool:
    """Whether laying ``card`` on ``pile`` showing ``top`` is the backwards trick (exactly 10 the wrong way)."""
    step = -BACKWARDS_STEP if _UP[_pile_index(pile)] else BACKWARDS_STEP
    return card == top + step


def _why_not(index: int, top: int, card: int) -> str:
    up = _UP[index]
    options = []
    if up and top < CARDS[-1]:
        options.append(f"higher than {top}")
    if not up and top > CARDS[0]:
        options.append(f"lower than {top}")
    trick = top - BACKWARDS_STEP if up else top + BACKWARDS_STEP
    if CARDS[0] <= trick <= CARDS[-1]:
        options.append(f"exactly {trick} for the backwards trick")
    direction = "ascending" if up else "descending"
    return f"{card} can't go on {PILES[index]} ({direction}, top {top}): it must be {', or '.join(options)}."


def can_meet_minimum(hand: Sequence[int], tops: Sequence[int], needed: int) -> bool:
    """Whether some sequence of legal plays from ``hand`` on piles showing ``tops`` (A, B, C, D) lays ``needed`` cards.

    Exact: one card may open a backwards trick for another, so counting the cards legal right now is not enough.
    """
    return _reach(tuple(sorted(hand)), tuple(tops), needed, 0)


def _reach(hand: tuple[int, ...], tops: tuple[int, ...], needed: int, first_pile: int) -> bool:
    """``can_meet_minimum`` for an ascending ``hand``, laying only on piles from ``first_pile`` on."""
    if needed <= 0:
        return True
    a, b, c, d = tops
    tricks = (a - BACKWARDS_STEP, b - BACKWARDS_STEP, c + BACKWARDS_STEP, d + BACKWARDS_STEP)
    plain = 0
    playable: list[int] = []  # positions in the hand of the cards that fit somewhere now
    for i, card in enumerate(hand):
        if card > a or card > b or card < c or card < d:
            plain += 1
            playable.append(i)
        elif card in tricks:
            playable.insert(0, i)  # a backwards trick only widens its pile, so it is the most promising play
    # Every card that fits some pile the normal way can be laid: lay each pile's share in order, nearest first.
    # (These shortcuts look at every pile, not only those from first_pile on: they still prove that a sequence exists.)
    if plain >= needed:
        return True
    if needed == 1 or not playable:
        return bool(playable)
    # Plays on different piles commute, so searching pile by pile (never back to an earlier pile) loses nothing.
    for i in playable:
        card, rest = hand[i], hand[:i] + hand[i + 1 :]
        for p in range(first_pile, 4):
            if _fits(_UP[p], tops[p], card) and _reach(rest, (*tops[:p], card, *tops[p + 1 :]), needed - 1, p):
                return True
    return False


# --- reading a state ------------------------------------------------------------------------------------------------


def _hand_size(players: int, smaller_hands: bool) -> int:
    return {1: 8, 2: 7}.get(players, 6) - smaller_hands


def _rule_minimum(expert: bool, draw_pile: Sequence[int]) -> int:
    if not draw_pile:
        return 1
    return 3 if expert else 2


def _tops(state: State) -> tuple[int, ...]:
    a, b, c, d = state.piles
    return (a[-1] if a else 1, b[-1] if b else 1, c[-1] if c else 100, d[-1] if d else 100)


def _seat(state: State, player: int) -> int:
    return seat_of(state.players, player)


def current_player(state: State) -> int | None:
    """Whose turn it is; None when the game is over or nobody has laid the first card yet."""
    if state.status != "playing" or state.turn is None:
        return None
    return state.players[state.turn]


def hand(state: State, player: int) -> tuple[int, ...]:
    """The private view: ``player``'s cards, ascending (empty once they left)."""
    return state.hands[_seat(state, player)]


def top(state: State, pile: str) -> int:
    return _tops(state)[_pile_index(pile)]


def legal_piles(state: State, card: int) -> tuple[str, ...]:
    tops = _tops(state)
    return tuple(name for i, name in enumerate(PILES) if _fits(_UP[i], tops[i], card))


def is_over(state: State) -> bool:
    return state.status != "playing"


def won(state: State) -> bool:
    return state.status == "won"


def score(state: State) -> int:
    """Cards not laid: every hand plus the draw pile (0 means the team beat the game)."""
    return sum(map(len, state.hands)) + len(state.draw_pile)


def legal_actions(state: State, player: int) -> list[Action]:
    """What ``player`` may do now; empty when the game is over or they are not (any more) at the table."""
    if state.status != "playing" or player not in state.players:
        return []
    seat = state.players.index(player)
    if state.left[seat]:
        return []
    actions: list[Action] = []
    if state.turn in (None, seat):
        tops = _tops(state)
        for card in state.hands[seat]:
            actions.extend(Play(card, name) for i, name in enumerate(PILES) if _fits(_UP[i], tops[i], card))
    if state.turn == seat and state.laid >= state.minimum:
        actions.append(EndTurn())
    actions.append(Leave())
    return actions


def public_view(state: State) -> PublicView:
    tops = _tops(state)
    over = is_over(state)
    return PublicView(
        piles=tuple(
            PileView(name, _UP[i], tops[i], len(pile))
            for i, (name, pile) in enumerate(zip(PILES, state.piles, strict=True))
        ),
        draw_pile=len(state.draw_pile),
        seats=tuple(
            SeatView(player, len(cards), gone)
            for player, cards, gone in zip(state.players, state.hands, state.left, strict=True)
        ),
        hand_size=_hand_size(len(state.players), state.smaller_hands),
        current_player=current_player(state),
        laid=state.laid,
        minimum=state.minimum,
        expert=state.expert,
        smaller_hands=state.smaller_hands,
        status=state.status,
        over=over,
        score=score(state) if state.status in ("won", "lost") else None,
    )


def summary(state: State) -> Summary:
    # A card starts a new turn unless the same player laid the previous card with no EndTurn since: the turn only
    # passes on EndTurn or when the mover leaves, and a player who left never lays again.
    turns = 0
    last_player: int | None = None
    for move in state.moves:
        if isinstance(move.action, EndTurn):
            last_player = None
        elif isinstance(move.action, Play):
            if move.player != last_player:
                turns += 1
            last_player = move.player
    tricks = 0
    for up, row, pile in zip(_UP, _ROW_CARDS, state.piles, strict=True):
        tricks += sum(1 for before, card in pairwise((row, *pile)) if (card < before) == up)
    return Summary(turns=turns, backwards_tricks=tricks, pile_lengths=tuple(map(len, state.piles)))


# --- changing a state -----------------------------------------------------------------------------------------------


def new_game(players: Sequence[int], *, seed: int, expert: bool = False, smaller_hands: bool = False) -> State:
    seats = seating(INFO, players)
    deck = list(CARDS)
    random.Random(seed).shuffle(deck)
    size = _hand_size(len(seats), smaller_hands)
    hands = tuple(tuple(sorted(deck[i * size : (i + 1) * size])) for i in range(len(seats)))
    draw_pile = tuple(deck[len(seats) * size :])
    # No end check here: on four fresh piles every card fits, and every hand holds at least the minimum.
    return State(
        players=seats,
        seed=seed,
        expert=expert,
        smaller_hands=smaller_hands,
        hands=hands,
        draw_pile=draw_pile,
        piles=((), (), (), ()),
        left=(False,) * len(seats),
        turn=None,
        laid=0,
        minimum=_rule_minimum(expert, draw_pile),
        status="playing",
        moves=(),
    )


def apply(state: State, player: int, action: Action) -> State:
    """Return the state after ``player`` does ``action``; ``state`` itself is never changed.

    Raises a GameError subclass, whose text is meant for the player, when the rules refuse the action.
    """
    if state.status != "playing":
        raise GameOver("This game is over.")
    seat = _seat(state, player)
    if state.left[seat]:
        raise NotAPlayer("You left this game, so you can't act in it any more.")
    if isinstance(action, Leave):
        return _leave(state, seat)
    if state.turn is not None and state.turn != seat:
        raise NotYourTurn("It's not your turn.")
    if isinstance(action, Play):
        return _play(state, seat, action)
    if isinstance(action, EndTurn):
        return _end_turn(state, seat)
    raise IllegalAction("That is not a move in The Game.")


def _play(state: State, seat: int, action: Play) -> State:
    index = _pile_index(action.pile)
    cards = state.hands[seat]
    # type() rather than ``in`` alone: 37.0 == 37, and a float must never reach a pile or the saved game.
    if type(action.card) is not int or action.card not in cards:
        raise IllegalAction("You don't hold that card.")
    tops = _tops(state)
    if not _fits(_UP[index], tops[index], action.card):
        raise IllegalAction(_why_not(index, tops[index], action.card))
    laid, minimum = state.laid + 1, state.minimum
    if state.turn is None:
        # The first card of the game claims the first turn; that turn starts now.
        laid, minimum = 1, min(_rule_minimum(state.expert, state.draw_pile), len(cards))
    rest = tuple(card for card in cards if card != action.card)
    new = replace(
        state,
        hands=replace_at(state.hands, seat, rest),
        piles=replace_at(state.piles, index, (*state.piles[index], action.card)),
        turn=seat,
        laid=laid,
        minimum=minimum,
        moves=(*state.moves, Move(state.players[seat], action)),
    )
    if not any(new.hands) and not new.draw_pile:
        return replace(new, status="won")
    if laid < minimum and not can_meet_minimum(rest, _tops(new), 1):
        return replace(new, status="lost")
    return new


def _end_turn(state: State, seat: int) -> State:
    if state.turn is None:
        raise IllegalAction("Nobody has laid a card yet: lay the first card to take the first turn.")
    missing = state.minimum - state.laid
    if missing > 0:
        raise IllegalAction(f"Lay {missing} more card{'s' if missing > 1 else ''} before ending your turn.")
    cards = state.hands[seat]
    count = max(0, _hand_size(len(state.players), state.smaller_hands) - len(cards))
    new = replace(
        state,
        hands=replace_at(state.hands, seat, tuple(sorted(cards + state.draw_pile[:count]))),
        draw_pile=state.draw_pile[count:],
        moves=(*state.moves, Move(state.players[seat], EndTurn())),
    )
    return _pass_turn(new, seat)


def _leave(state: State, seat: int) -> State:
    draw_pile = list(state.draw_pile + state.hands[seat])
    # Seeded by the seed and the move count so that replaying the moves shuffles identically.
    random.Random(f"{state.seed}:{len(state.moves)}").shuffle(draw_pile)
    new = replace(
        state,
        hands=replace_at(state.hands, seat, ()),
        draw_pile=tuple(draw_pile),
        left=replace_at(state.left, seat, True),
        moves=(*state.moves, Move(state.players[seat], Leave())),
    )
    if all(new.left):
        return replace(new, turn=None, laid=0, status="abandoned")
    if state.turn == seat:
        # The cards the leaver laid this turn stay laid; the next player starts a fresh turn.
        return _pass_turn(new, seat)
    return new


def _pass_turn(state: State, after: int) -> State:
    """Start the turn of the next player after seat ``after`` who is still here and holds cards, or end the game."""
    count = len(state.players)
    for step in range(1, count + 1):
        seat = (after + step) % count
        if not state.left[seat] and state.hands[seat]:
            break
    else:
        # Nobody can lay any more. After the last card the game is already won, so cards are left over: only a leave
        # that refilled the draw pile while every remaining hand was empty gets here.
        return replace(state, turn=None, laid=0, status="won" if score(state) == 0 else "lost")
    cards = state.hands[seat]
    # The cap only matters after a leave refilled an empty draw pile: then a hand may be smaller than the minimum,
    # and laying the whole hand completes the turn rather than ending the game for everybody.
    minimum = min(_rule_minimum(state.expert, state.draw_pile), len(cards))
    new = replace(state, turn=seat, laid=0, minimum=minimum)
    if not can_meet_minimum(cards, _tops(new), minimum):
        return replace(new, status="lost")
    return new


def replay(
    players: Sequence[int], *, seed: int, expert: bool = False, smaller_hands: bool = False, moves: Sequence[Move]
) -> State:
    """Rebuild a game from its setup and move list (raises GameError if a move breaks the rules)."""
    state = new_game(players, seed=seed, expert=expert, smaller_hands=smaller_hands)
    for move in moves:
        state = apply(state, move.player, move.action)
    return state


# --- saving and loading ---------------------------------------------------------------------------------------------


def _encode_move(move: Move) -> list[Any]:
    action = move.action
    if isinstance(action, Play):
        return [move.player, "play", action.card, action.pile]
    return [move.player, "end" if isinstance(action, EndTurn) else "leave"]


def _decode_move(raw: Any) -> Move:
    require(isinstance(raw, list) and len(raw) >= 2, "a move is malformed")
    player, verb, *rest = raw
    require(is_int(player), "a move names no player")
    require(verb in ("play", "end", "leave"), f"unknown move {verb!r}")
    if verb == "play":
        require(len(rest) == 2, "a play is malformed")
        card, pile = rest
        require(isinstance(card, int) and not isinstance(card, bool), "a play names no card")
        require(pile in PILES, "a play names no pile")
        return Move(player, Play(card, pile))
    require(not rest, f"the move {verb!r} is malformed")
    return Move(player, EndTurn() if verb == "end" else Leave())


def to_dict(state: State) -> dict[str, Any]:
    return {
        "kind": INFO.kind,
        "v": VERSION,
        "players": list(state.players),
        "seed": state.seed,
        "expert": state.expert,
        "smaller_hands": state.smaller_hands,
        "hands": [list(cards) for cards in state.hands],
        "draw_pile": list(state.draw_pile),
        "piles": {name: list(pile) for name, pile in zip(PILES, state.piles, strict=True)},
        "left": list(state.left),
        "turn": state.turn,
        "laid": state.laid,
        "minimum": state.minimum,
        "status": state.status,
        "moves": [_encode_move(move) for move in state.moves],
    }


def _pile_history_is_legal(index: int, pile: tuple[int, ...]) -> bool:
    return all(_fits(_UP[index], before, card) for before, card in pairwise((_ROW_CARDS[index], *pile)))


def from_dict(data: Mapping[str, Any]) -> State:
    """Load a saved state, raising CorruptState (never anything else) if it is damaged or tampered with."""
    check_version(data, INFO.kind, VERSION)
    players, left = load_seating(data, INFO)
    seed = field(data, "seed", int)
    expert = field(data, "expert", bool)
    smaller_hands = field(data, "smaller_hands", bool)

    raw_hands = field(data, "hands", list)
    require(len(raw_hands) == len(players), "one hand per player expected")
    hands = tuple(int_list({"a hand": cards}, "a hand") for cards in raw_hands)
    size = _hand_size(len(players), smaller_hands)
    require(all(len(cards) <= size for cards in hands), "a hand is too big")
    require(all(list(cards) == sorted(set(cards)) for cards in hands), "a hand is not in order")
    draw_pile = int_list(data, "draw_pile")
    raw_piles = field(data, "piles", dict)
    require(set(raw_piles) == set(PILES), "the piles must be A, B, C and D")
    piles = tuple(int_list(raw_piles, name) for name in PILES)
    every_card = [card for part in (*hands, draw_pile, *piles) for card in part]
    require(sorted(every_card) == list(CARDS), "the cards 2 to 99 are not all there exactly once")
    for index, pile in enumerate(piles):
        require(_pile_history_is_legal(index, pile), f"pile {PILES[index]} breaks the laying rules")

    require(not any(cards for cards, gone in zip(hands, left, strict=True) if gone), "a player who left holds cards")
    status = field(data, "status", str)
    require(status in STATUSES, f"unknown status {status!r}")
    require((status == "abandoned") == all(left), "the status does not match who is left")
    turn = field(data, "turn", (int, type(None)))
    require(turn is None or 0 <= turn < len(players), "the turn names no seat")
    require(status != "playing" or turn is None or not left[turn], "the player to move has left")
    laid = field(data, "laid", int)
    require(0 <= laid <= len(CARDS) and (turn is not None or laid == 0), "the count of cards laid this turn is wrong")
    minimum = field(data, "minimum", int)
    require(1 <= minimum <= (3 if expert else 2), "the minimum is out of range")
    raw_moves = field(data, "moves", list)
    moves = tuple(_decode_move(raw) for raw in raw_moves)

    state = State(
        players=players,
        seed=seed,
        expert=expert,
        smaller_hands=smaller_hands,
        hands=hands,
        draw_pile=draw_pile,
        piles=piles,
        left=tuple(left),
        turn=turn,
        laid=laid,
        minimum=minimum,
        status=status,
        moves=moves,
    )
    # The checks above exist to name the problem; the move list is the truth and must lead exactly here.
    try:
        replayed = replay(players, seed=seed, expert=expert, smaller_hands=smaller_hands, moves=moves)
    except GameError as error:
        raise CorruptState("The saved game is damaged (its moves break the rules).") from error
    require(replayed == state, "its moves do not lead to this position")
    return state
