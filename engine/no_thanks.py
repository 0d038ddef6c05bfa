"""No Thanks!: the complete rules, data in and data out.

The 33 cards 3..35 are shuffled once with ``random.Random(seed)``; nine are removed unseen and the other 24 form the
draw pile, whose top card is face up. On their turn a player either pays one chip onto the face-up card ("No thanks!")
and the turn passes on, or takes the card with every chip on it and moves again. The game ends when the last card is
taken; a run of consecutive cards scores only its lowest card, each chip is worth minus one, and the lowest total wins.

Rulings where the rules are silent (see also the comments where they are applied):
- The starting player is drawn from the same seeded ``random.Random``, right after the shuffle.
- A player who leaves takes their cards and chips out of the game; if that leaves fewer than 3 players the game is
  abandoned and has no score. The chips already lying on the face-up card stay there.
- Leave is legal at any time for a seated player, on their turn or not; on their turn the turn passes on.
- Ties the highest-card rule cannot break (only tied players holding no card at all) go to the earliest seat.
- End-of-game information (``scores``, ``winner``, ``removed_cards``) raises GameError while it is still secret.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.base import replace_at, seat_of, seating
from engine.errors import CorruptState, GameError, GameOver, IllegalAction, NotAPlayer, NotYourTurn
from engine.game import Game, GameInfo, Outcome, Setup, Variant
from i18n import _, _p

INFO = GameInfo(
    kind="no_thanks",
    title="No Thanks!",
    min_players=3,
    max_players=7,
    variants=(Variant("open_chips", _p("variant", "open chips"), "Everybody's chips are shown on the board"),),
    rules_version=1,
    # A single decision: take the card or pay a chip.
    turn_seconds=60,
)

CARDS = tuple(range(3, 36))
REMOVED_CARDS = 9
STATUSES = ("playing", "finished", "abandoned")


def starting_chips(player_count: int) -> int:
    """Chips each player gets: 11 with 3 to 5 players, 9 with 6, 7 with 7."""
    return {6: 9, 7: 7}.get(player_count, 11)


@dataclass(frozen=True, slots=True)
class Take:
    """Take the face-up card with every chip on it; you then move again."""


@dataclass(frozen=True, slots=True)
class NoThanks:
    """Pay one chip onto the face-up card; the turn passes to the next player."""


@dataclass(frozen=True, slots=True)
class Leave:
    """Leave the running game, taking your cards and chips out of it."""


Action = Take | NoThanks | Leave


@dataclass(frozen=True, slots=True)
class State:
    players: tuple[int, ...]  # opaque ids in seating order; players who leave keep their seat
    seed: int
    open_chips: bool
    removed: tuple[int, ...]  # the nine unseen cards, ascending
    draw_pile: tuple[int, ...]  # face down, turned up from the front
    face_up: int | None  # None once the last card is taken
    chips_on_card: int
    hands: tuple[tuple[int, ...], ...]  # cards taken, per seat, ascending; () once the player left
    chips: tuple[int, ...]  # per seat; 0 once the player left
    left: tuple[bool, ...]  # per seat
    departed_cards: tuple[int, ...]  # ascending: the cards that left the game with leavers
    departed_chips: int  # the chips that left the game with leavers
    turn: int  # seat of the player to move; frozen once the game is over
    status: str  # one of STATUSES
    move_count: int  # moves applied since the deal (the log itself lives with the caller)


@dataclass(frozen=True, slots=True)
class PlayerView:
    player: int
    cards: tuple[int, ...]  # cards taken, ascending
    runs: tuple[tuple[int, ...], ...]
    points: int  # card points, chips not counted
    chips: int | None  # None unless the game uses open chips


@dataclass(frozen=True, slots=True)
class PublicView:
    """Everything the whole table may see: never a removed card, and nobody's chips unless chips are open."""

    face_up_card: int | None
    chips_on_card: int
    cards_left: int  # face down in the draw pile
    players: tuple[PlayerView, ...]  # players still in the game, in seating order
    left: tuple[int, ...]  # players who left, in seating order
    turn: int | None  # the player to move; None once over
    open_chips: bool
    status: str


@dataclass(frozen=True, slots=True)
class PrivateView:
    """What only one player may see: their cards (public anyway) and their chips."""

    cards: tuple[int, ...]
    chips: int


@dataclass(frozen=True, slots=True)
class ScoreLine:
    player: int
    runs: tuple[tuple[int, ...], ...]
    card_points: int
    chips: int
    total: int  # card_points - chips


# --- scoring --------------------------------------------------------------------------------------------------------


def runs(cards: Iterable[int]) -> list[tuple[int, ...]]:
    """Split distinct cards into runs of consecutive numbers, ascending: [3, 4, 5, 10] -> [(3, 4, 5), (10,)]."""
    result: list[tuple[int, ...]] = []
    run: list[int] = []
    for card in sorted(cards):
        if run and card != run[-1] + 1:
            result.append(tuple(run))
            run = []
        run.append(card)
    if run:
        result.append(tuple(run))
    return result


def card_points(cards: Iterable[int]) -> int:
    """Points of the cards alone: each run counts only its lowest card."""
    return sum(run[0] for run in runs(cards))


# --- reading a state ------------------------------------------------------------------------------------------------


def _seat(state: State, player: int) -> int:
    return seat_of(state.players, player)


def _remaining_seats(state: State) -> list[int]:
    return [seat for seat, gone in enumerate(state.left) if not gone]


def current_player(state: State) -> int | None:
    """Whose turn it is; None when the game is over."""
    return state.players[state.turn] if state.status == "playing" else None


def face_up_card(state: State) -> int | None:
    """The card on offer; None once the last card is taken."""
    return state.face_up


def chips_on_card(state: State) -> int:
    return state.chips_on_card


def cards_left(state: State) -> int:
    """Cards still face down in the draw pile (the face-up card not counted)."""
    return len(state.draw_pile)


def hand(state: State, player: int) -> tuple[int, ...]:
    """``player``'s cards, ascending (public); empty once they left."""
    return state.hands[_seat(state, player)]


def chips(state: State, player: int) -> int:
    """``player``'s chips: secret unless the game uses open chips; 0 once they left."""
    return state.chips[_seat(state, player)]


def private_view(state: State, player: int) -> PrivateView:
    seat = _seat(state, player)
    return PrivateView(cards=state.hands[seat], chips=state.chips[seat])


def is_over(state: State) -> bool:
    return state.status != "playing"


def legal_actions(state: State, player: int) -> list[Action]:
    """What ``player`` may do now, in the order Take, NoThanks, Leave; empty when over or not (any more) seated."""
    if state.status != "playing" or player not in state.players:
        return []
    seat = state.players.index(player)
    if state.left[seat]:
        return []
    actions: list[Action] = []
    if seat == state.turn:
        actions.append(Take())
        if state.chips[seat] > 0:
            actions.append(NoThanks())
    actions.append(Leave())
    return actions


def public_view(state: State, viewer: int | None = None) -> PublicView:
    """The board as everybody sees it.

    ``viewer`` changes nothing, on purpose: the view is the same for every reader so that it can be posted publicly.
    A player's own chips come from ``chips`` or ``private_view``.
    """
    players = tuple(
        PlayerView(
            player=state.players[seat],
            cards=state.hands[seat],
            runs=tuple(runs(state.hands[seat])),
            points=card_points(state.hands[seat]),
            chips=state.chips[seat] if state.open_chips else None,
        )
        for seat in _remaining_seats(state)
    )
    return PublicView(
        face_up_card=state.face_up,
        chips_on_card=state.chips_on_card,
        cards_left=len(state.draw_pile),
        players=players,
        left=tuple(player for player, gone in zip(state.players, state.left, strict=True) if gone),
        turn=current_player(state),
        open_chips=state.open_chips,
        status=state.status,
    )


def _require_finished(state: State) -> None:
    if state.status == "playing":
        raise GameError(_("The scores stay secret until the last card is taken."))
    if state.status == "abandoned":
        raise GameError(_("This game was abandoned, so it has no score."))


def scores(state: State) -> list[ScoreLine]:
    """The final score of every player still in the game, in seating order.

    Raises GameError while the game is running (the totals would reveal secret chips) or if it was abandoned.
    """
    _require_finished(state)
    lines = []
    for seat in _remaining_seats(state):
        cards = state.hands[seat]
        points = card_points(cards)
        chip_count = state.chips[seat]
        lines.append(ScoreLine(state.players[seat], tuple(runs(cards)), points, chip_count, points - chip_count))
    return lines


def winner(state: State) -> tuple[int, bool]:
    """The winner and whether the tie-break decided it. Raises GameError unless the game is finished.

    The lowest total wins. On a tie the tied player holding the highest card wins: the manual marks this tie-break
    as unofficial, so say so when it is used. Tied players holding no card at all cannot be separated by it; then
    the earliest seat wins (``max`` keeps the first of equal keys and the lines are in seating order).
    """
    lines = scores(state)
    best = min(line.total for line in lines)
    tied = [line for line in lines if line.total == best]
    if len(tied) == 1:
        return tied[0].player, False
    top = max(tied, key=lambda line: max((card for run in line.runs for card in run), default=0))
    return top.player, True


def removed_cards(state: State) -> tuple[int, ...]:
    """The nine cards removed at the start, ascending. Raises GameError while the game is running: they stay unseen."""
    if state.status == "playing":
        raise GameError(_("The removed cards stay secret until the game ends."))
    return state.removed


# --- changing a state -----------------------------------------------------------------------------------------------


def new_game(players: Sequence[int], *, seed: int, open_chips: bool = False) -> State:
    seats = seating(INFO, players)
    rng = random.Random(seed)
    deck = list(CARDS)
    rng.shuffle(deck)
    draw_pile = deck[REMOVED_CARDS:]
    return State(
        players=seats,
        seed=seed,
        open_chips=open_chips,
        removed=tuple(sorted(deck[:REMOVED_CARDS])),
        draw_pile=tuple(draw_pile[1:]),
        face_up=draw_pile[0],
        chips_on_card=0,
        hands=((),) * len(seats),
        chips=(starting_chips(len(seats)),) * len(seats),
        left=(False,) * len(seats),
        departed_cards=(),
        departed_chips=0,
        turn=rng.randrange(len(seats)),
        status="playing",
        move_count=0,
    )


def apply(state: State, player: int, action: Action) -> State:
    """Return the state after ``player`` does ``action``; ``state`` itself is never changed.

    Raises a GameError subclass, whose text is meant for the player, when the rules refuse the action.
    """
    if state.status == "finished":
        raise GameOver(_("This game is over: the last card has been taken."))
    if state.status == "abandoned":
        raise GameOver(_("This game was abandoned."))
    seat = _seat(state, player)
    if state.left[seat]:
        raise NotAPlayer(_("You left this game, so you can't act in it any more."))
    if isinstance(action, Leave):
        return _leave(state, seat)
    if seat != state.turn:
        raise NotYourTurn(_("It's not your turn."))
    if isinstance(action, Take):
        return _take(state, seat)
    if isinstance(action, NoThanks):
        return _no_thanks(state, seat)
    raise IllegalAction(_("That is not a No Thanks! move."))


def _no_thanks(state: State, seat: int) -> State:
    if state.chips[seat] == 0:
        raise IllegalAction(_("You have no chips left, so you must take the card."))
    return replace(
        state,
        chips=replace_at(state.chips, seat, state.chips[seat] - 1),
        chips_on_card=state.chips_on_card + 1,
        turn=_next_seat(state, seat),
        move_count=state.move_count + 1,
    )


def _take(state: State, seat: int) -> State:
    assert state.face_up is not None  # a game in play always shows a card
    new = replace(
        state,
        hands=replace_at(state.hands, seat, tuple(sorted((*state.hands[seat], state.face_up)))),
        chips=replace_at(state.chips, seat, state.chips[seat] + state.chips_on_card),
        chips_on_card=0,
        move_count=state.move_count + 1,
    )
    if not state.draw_pile:
        return replace(new, face_up=None, status="finished")
    # The turn stays with the taker.
    return replace(new, face_up=state.draw_pile[0], draw_pile=state.draw_pile[1:])


def _leave(state: State, seat: int) -> State:
    new = replace(
        state,
        hands=replace_at(state.hands, seat, ()),
        chips=replace_at(state.chips, seat, 0),
        left=replace_at(state.left, seat, True),
        departed_cards=tuple(sorted(state.departed_cards + state.hands[seat])),
        departed_chips=state.departed_chips + state.chips[seat],
        move_count=state.move_count + 1,
    )
    if len(_remaining_seats(new)) < INFO.min_players:
        return replace(new, status="abandoned")
    if seat == state.turn:
        return replace(new, turn=_next_seat(new, seat))
    return new


def _next_seat(state: State, after: int) -> int:
    """The next seat clockwise after ``after`` whose player is still in the game."""
    count = len(state.players)
    return next((after + step) % count for step in range(1, count + 1) if not state.left[(after + step) % count])


# --- the game contract ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Observation:
    """All that one seat may know: its own chips and the public board. An AI player decides from this alone."""

    player: int
    chips: int
    view: PublicView


def observation(state: State, player: int) -> Observation:
    return Observation(player=player, chips=chips(state, player), view=public_view(state))


def outcome(state: State) -> Outcome | None:
    if state.status == "playing":
        return None
    if state.status == "abandoned":
        return Outcome(status="abandoned", abandoned=True)
    first, tie_break = winner(state)
    return Outcome(
        status="finished",
        abandoned=False,
        winners=(first,),
        score=next(line.total for line in scores(state) if line.player == first),
        result={
            "winner": first,
            "tie_break": tie_break,
            "scores": {str(line.player): line.total for line in scores(state)},
        },
    )


_VERBS: dict[str, Action] = {"take": Take(), "no_thanks": NoThanks(), "leave": Leave()}
_VERB_OF = {type(action): verb for verb, action in _VERBS.items()}


def encode_action(action: Action) -> list[Any]:
    return [_VERB_OF[type(action)]]


def decode_action(raw: Any) -> Action:
    """An action as stored by ``encode_action``; ``CorruptState`` for anything else."""
    if isinstance(raw, list) and len(raw) == 1 and isinstance(raw[0], str) and raw[0] in _VERBS:
        return _VERBS[raw[0]]
    raise CorruptState(_("The saved game is damaged (unknown move {move}).", move=repr(raw)[:80]))


def default_action(state: State, player: int) -> Action:
    """The autopilot's move: no thanks while the seat has a chip, else take (never leave)."""
    legal = legal_actions(state, player)
    return next((action for action in legal if isinstance(action, NoThanks)), _VERBS["take"])


def _new_game(setup: Setup) -> State:
    return new_game(setup.players, seed=setup.seed, open_chips="open_chips" in setup.variants)


GAME: Game[State, Action] = Game(
    info=INFO,
    leave=_VERBS["leave"],
    new_game=_new_game,
    apply=apply,
    legal_actions=legal_actions,
    current_player=current_player,
    is_over=is_over,
    outcome=outcome,
    move_count=lambda state: state.move_count,
    observation=observation,
    public_view=public_view,
    encode_action=encode_action,
    decode_action=decode_action,
    default_action=default_action,
)
