"""The Game (cooperative card game): the complete rules, data in and data out.

The team lays the 98 cards 2..99 on four piles: A and B ascending from 1, C and D descending from 100. The engine
enforces every rule, decides itself when the game is over, and never needs the clock or global randomness: all chance
is settled by ``random.Random`` instances seeded from the game's seed.

Rulings where the rulebook is silent (see also the comments where they are applied):
- Until the first card is laid, any player may lay it and so takes the first turn.
- A player who leaves has their hand shuffled into the draw pile; hand sizes stay as dealt.
- Empty hands are skipped even if a leave refilled the draw pile: a player only draws at the end of their own turn.
- A turn's minimum never exceeds the cards the mover holds at its start (only possible after a leave).
- A "backwards trick" signal is about the pile as it was when raised: it goes when that pile's top changes, or when its
  card is laid elsewhere, and its owner may raise it again. (Rules version 1 kept it while its owner held the card ten
  back from the *new* top, which told the table that hidden card; logs of version 1 still replay under that rule.)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Any

from engine.base import is_int, replace_at, seat_of, seating
from engine.errors import CorruptState, GameOver, IllegalAction, NotAPlayer, NotYourTurn
from engine.game import NO_NUMBERS_IN_CHAT, Game, GameInfo, Outcome, Setup, Variant
from i18n import Text, _, _n, _p

INFO = GameInfo(
    kind="the_game",
    title="The Game",
    min_players=1,
    max_players=5,
    variants=(
        Variant("expert", _p("variant", "expert"), "Lay at least three cards a turn while the draw pile lasts"),
        Variant("smaller_hands", _p("variant", "smaller hands"), "One card fewer in every hand"),
    ),
    rules_version=2,
    replays_versions=frozenset({1}),
    # The rules forbid revealing numbers, so the table's chat is kept free of them while the game runs.
    capabilities=frozenset({NO_NUMBERS_IN_CHAT}),
    cooperative=True,
    score_counts_cards=True,
    # A turn is several cards and some thought.
    turn_seconds=180,
)

PILES = ("A", "B", "C", "D")
ASCENDING = frozenset({"A", "B"})
CARDS = tuple(range(2, 100))
BACKWARDS_STEP = 10
STATUSES = ("playing", "won", "lost", "abandoned")
# Signals about a pile, and about the player who raises them. None of them carries a number.
PILE_SIGNALS = ("dont_lay", "trick", "small_steps")
PLAYER_SIGNALS = ("nearly_stuck",)
SIGNALS = PILE_SIGNALS + PLAYER_SIGNALS
CLEAR = "clear"

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


@dataclass(frozen=True, slots=True)
class Signal:
    """Table talk without numbers: raise ``kind`` on ``pile`` (or about yourself, with no pile), or withdraw it.

    Not a move: any seated player may signal at any time, and the turn does not change. ``kind`` is one of
    ``SIGNALS``; "clear" withdraws the player's signal on ``pile``, or all of their signals when ``pile`` is None.
    """

    kind: str
    pile: str | None = None


Action = Play | EndTurn | Leave | Signal


@dataclass(frozen=True, slots=True)
class Mark:
    """A signal on the table: who raised it, which kind, on which pile (None: about the player)."""

    player: int
    kind: str
    pile: str | None


@dataclass(frozen=True, slots=True)
class State:
    players: tuple[int, ...]  # opaque ids in seating order; players who leave keep their seat
    seed: int
    expert: bool
    smaller_hands: bool
    hands: tuple[tuple[int, ...], ...]  # per seat, ascending
    # Drawn from the front; one byte a card (1-99): a seventh of a tuple's memory, in every game a bot keeps open.
    draw_pile: bytes
    piles: tuple[tuple[int, ...], ...]  # A, B, C, D: every laid card, oldest first (row cards not included)
    left: tuple[bool, ...]  # per seat
    turn: int | None  # seat of the mover; None until the first card is laid
    laid: int  # cards laid this turn
    minimum: int  # this turn's minimum, fixed when the turn starts
    status: str  # one of STATUSES
    move_count: int  # log entries applied since the deal, signals included (the log itself lives with the caller)
    turns: int  # turns in which at least one card was laid
    signals: tuple[Mark, ...] = ()  # oldest first
    closest: tuple[int, int, int] | None = None  # fewest playable cards a turn began with: (cards, turn, player)
    rules_version: int = INFO.rules_version  # 1: trick signals follow their owner's hidden hand (see the docstring)


@dataclass(frozen=True, slots=True)
class PileView:
    name: str
    ascending: bool
    top: int  # the row card (1 or 100) while the pile is empty
    size: int  # cards laid on it
    # Every card laid on it, oldest first: each was laid in front of the whole table, so it is public knowledge
    # (counting cards is part of the game; a player could note them from the board's history anyway).
    cards: tuple[int, ...] = ()


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
    signals: tuple[Mark, ...] = ()


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
        raise IllegalAction(_("There is no pile {pile}: the piles are A, B, C and D.", pile=repr(pile)[:20]))
    return PILES.index(pile)


def is_legal(pile: str, top: int, card: int) -> bool:
    """Whether ``card`` may be laid on ``pile`` when it shows ``top``."""
    return _fits(_UP[_pile_index(pile)], top, card)


def backwards_trick_card(pile: str, top: int) -> int:
    """The card that is the backwards trick on ``pile`` showing ``top``: exactly 10 the wrong way."""
    return top - BACKWARDS_STEP if _UP[_pile_index(pile)] else top + BACKWARDS_STEP


def is_backwards_trick(pile: str, top: int, card: int) -> bool:
    """Whether laying ``card`` on ``pile`` showing ``top`` is the backwards trick (exactly 10 the wrong way)."""
    return card == backwards_trick_card(pile, top)


def _why_not(index: int, top: int, card: int) -> Text:
    """Why ``card`` does not fit on pile ``index``, and what would: whole sentences, each said the language's way."""
    up = _UP[index]
    pile = PILES[index]
    trick = backwards_trick_card(pile, top)
    has_trick = CARDS[0] <= trick <= CARDS[-1]
    if up and top < CARDS[-1]:
        if has_trick:
            return _(
                "{card} can't go on {pile} (ascending, top {top}): it must be higher than {top}, or exactly {trick} "
                "for the backwards trick.",
                card=card,
                pile=pile,
                top=top,
                trick=trick,
            )
        return _(
            "{card} can't go on {pile} (ascending, top {top}): it must be higher than {top}.",
            card=card,
            pile=pile,
            top=top,
        )
    if not up and top > CARDS[0]:
        if has_trick:
            return _(
                "{card} can't go on {pile} (descending, top {top}): it must be lower than {top}, or exactly {trick} "
                "for the backwards trick.",
                card=card,
                pile=pile,
                top=top,
                trick=trick,
            )
        return _(
            "{card} can't go on {pile} (descending, top {top}): it must be lower than {top}.",
            card=card,
            pile=pile,
            top=top,
        )
    if up:
        return _(
            "{card} can't go on {pile} (ascending, top {top}): it must be exactly {trick} for the backwards trick.",
            card=card,
            pile=pile,
            top=top,
            trick=trick,
        )
    return _(
        "{card} can't go on {pile} (descending, top {top}): it must be exactly {trick} for the backwards trick.",
        card=card,
        pile=pile,
        top=top,
        trick=trick,
    )


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


# The view of the position asked for last: one move's board and every player's panel ask for the same position's
# view many times over. One (state, view) pair, swapped whole, so a reader on another thread sees a matching pair.
_last_view: tuple[State | None, PublicView | None] = (None, None)


def public_view(state: State) -> PublicView:
    global _last_view
    seen, view = _last_view
    if seen is state and view is not None:
        return view
    view = _public_view(state)
    _last_view = (state, view)
    return view


def _public_view(state: State) -> PublicView:
    tops = _tops(state)
    over = is_over(state)
    return PublicView(
        piles=tuple(
            PileView(name, _UP[i], tops[i], len(pile), pile)
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
        signals=state.signals,
    )


def summary(state: State) -> Summary:
    tricks = 0
    for up, row, pile in zip(_UP, _ROW_CARDS, state.piles, strict=True):
        tricks += sum(1 for before, card in pairwise((row, *pile)) if (card < before) == up)
    return Summary(turns=state.turns, backwards_tricks=tricks, pile_lengths=tuple(map(len, state.piles)))


# --- changing a state -----------------------------------------------------------------------------------------------


def new_game(
    players: Sequence[int],
    *,
    seed: int,
    expert: bool = False,
    smaller_hands: bool = False,
    rules_version: int = INFO.rules_version,
) -> State:
    seats = seating(INFO, players)
    deck = list(CARDS)
    random.Random(seed).shuffle(deck)
    size = _hand_size(len(seats), smaller_hands)
    hands = tuple(tuple(sorted(deck[i * size : (i + 1) * size])) for i in range(len(seats)))
    draw_pile = bytes(deck[len(seats) * size :])
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
        move_count=0,
        turns=0,
        rules_version=rules_version,
    )


def apply(state: State, player: int, action: Action) -> State:
    """Return the state after ``player`` does ``action``; ``state`` itself is never changed.

    Raises a GameError subclass, whose text is meant for the player, when the rules refuse the action.
    """
    if state.status != "playing":
        raise GameOver(_("This game is over."))
    seat = _seat(state, player)
    if state.left[seat]:
        raise NotAPlayer(_("You left this game, so you can't act in it any more."))
    if isinstance(action, Signal):
        return _signal(state, seat, action)
    if isinstance(action, Leave):
        new = _leave(state, seat)
    elif state.turn is not None and state.turn != seat:
        raise NotYourTurn(_("It's not your turn."))
    elif isinstance(action, Play):
        new = _play(state, seat, action)
    elif isinstance(action, EndTurn):
        new = _end_turn(state, seat)
    else:
        raise IllegalAction(_("That is not a move in The Game."))
    return _settle_signals(state, new, state.players[seat], action) if state.signals else new


# --- signals --------------------------------------------------------------------------------------------------------


def _trick_card(state: State, pile: str) -> int:
    """The card that would be the backwards trick on ``pile`` now."""
    return backwards_trick_card(pile, _tops(state)[_pile_index(pile)])


def _signal(state: State, seat: int, action: Signal) -> State:
    player = state.players[seat]
    kind, pile = action.kind, action.pile
    if pile is not None:
        _pile_index(pile)
    mine = [mark for mark in state.signals if mark.player == player]
    if kind == CLEAR:
        gone = [mark for mark in mine if pile is None or mark.pile == pile]
        if not gone:
            raise IllegalAction(_("You have no signal there to clear.") if pile else _("You have no signal to clear."))
        kept = tuple(mark for mark in state.signals if mark not in gone)
        return replace(state, signals=kept, move_count=state.move_count + 1)
    if kind in PLAYER_SIGNALS:
        if pile is not None:
            raise IllegalAction(_("That signal is about you, not about a pile."))
    elif kind in PILE_SIGNALS:
        if pile is None:
            raise IllegalAction(_("Choose the pile this signal is about: A, B, C or D."))
        if kind == "trick" and _trick_card(state, pile) not in state.hands[seat]:
            raise IllegalAction(_("You can't do a backwards trick on {pile} right now.", pile=pile))
    else:
        raise IllegalAction(_("There is no signal {kind}.", kind=repr(kind)[:40]))
    mark = Mark(player, kind, pile)
    if mark in state.signals:
        raise IllegalAction(_("That signal is already up."))
    # One signal per player and pile (and one about themselves): a new one replaces the old.
    kept = tuple(m for m in state.signals if not (m.player == player and m.pile == pile))
    return replace(state, signals=(*kept, mark), move_count=state.move_count + 1)


def _settle_signals(before: State, state: State, player: int, action: Action) -> State:
    """Take down the signals a move made untrue or useless, from what the whole table saw happen.

    The mover's signal on the pile they laid on has done its job; a leaver's signals go with them; "nearly stuck"
    ends with its owner's turn (they drew fresh cards); a trick signal ends when its pile's top changes or its card
    is laid elsewhere; everything ends with the game.
    """
    if state.status != "playing":
        return replace(state, signals=())

    def stays(mark: Mark) -> bool:
        if mark.player == player:
            if isinstance(action, Leave):
                return False
            if isinstance(action, Play) and mark.pile == action.pile:
                return False
            if isinstance(action, EndTurn) and mark.kind == "nearly_stuck":
                return False
        if mark.kind == "trick" and mark.pile is not None:
            if state.rules_version == 1:
                return _trick_card(state, mark.pile) in state.hands[state.players.index(mark.player)]
            # Only public events: the card the mark promises is still in its owner's hand exactly until it is laid
            # (anywhere) or its pile moves on, so nobody learns more than the mark itself said.
            return not isinstance(action, Play) or (
                action.pile != mark.pile and action.card != _trick_card(before, mark.pile)
            )
        return True

    kept = tuple(mark for mark in state.signals if stays(mark))
    return state if kept == state.signals else replace(state, signals=kept)


def _play(state: State, seat: int, action: Play) -> State:
    index = _pile_index(action.pile)
    cards = state.hands[seat]
    # type() rather than ``in`` alone: 37.0 == 37, and a float must never reach a pile or the saved game.
    if type(action.card) is not int or action.card not in cards:
        raise IllegalAction(_("You don't hold that card."))
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
        move_count=state.move_count + 1,
        # A card opens a turn when nobody has laid yet this turn (or in the game).
        turns=state.turns + (state.turn is None or state.laid == 0),
    )
    if not any(new.hands) and not new.draw_pile:
        return replace(new, status="won")
    if laid < minimum and not can_meet_minimum(rest, _tops(new), 1):
        return replace(new, status="lost")
    return new


def _end_turn(state: State, seat: int) -> State:
    if state.turn is None:
        raise IllegalAction(_("Nobody has laid a card yet: lay the first card to take the first turn."))
    missing = state.minimum - state.laid
    if missing > 0:
        raise IllegalAction(
            _n(
                "Lay {count} more card before ending your turn.",
                "Lay {count} more cards before ending your turn.",
                missing,
            )
        )
    cards = state.hands[seat]
    count = max(0, _hand_size(len(state.players), state.smaller_hands) - len(cards))
    new = replace(
        state,
        hands=replace_at(state.hands, seat, tuple(sorted((*cards, *state.draw_pile[:count])))),
        draw_pile=state.draw_pile[count:],
        move_count=state.move_count + 1,
    )
    return _pass_turn(new, seat)


def _leave(state: State, seat: int) -> State:
    draw_pile = [*state.draw_pile, *state.hands[seat]]
    # Seeded by the seed and the move count so that replaying the moves shuffles identically.
    random.Random(f"{state.seed}:{state.move_count}").shuffle(draw_pile)
    new = replace(
        state,
        hands=replace_at(state.hands, seat, ()),
        draw_pile=bytes(draw_pile),
        left=replace_at(state.left, seat, True),
        move_count=state.move_count + 1,
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
    # The closest call of the game: the turn that began with the fewest cards able to go anywhere, and survived.
    tops = _tops(new)
    playable = sum(1 for card in cards if any(_fits(_UP[i], tops[i], card) for i in range(4)))
    if new.closest is None or playable < new.closest[0]:
        new = replace(new, closest=(playable, new.turns + 1, state.players[seat]))
    return new


# --- the game contract ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Observation:
    """All that one seat may know: its own hand and the public board. An AI player decides from this alone."""

    player: int
    hand: tuple[int, ...]
    view: PublicView


def observation(state: State, player: int) -> Observation:
    return Observation(player=player, hand=hand(state, player), view=public_view(state))


def outcome(state: State) -> Outcome | None:
    if state.status == "playing":
        return None
    if state.status == "abandoned":
        return Outcome(status="abandoned", abandoned=True)
    figures = summary(state)
    return Outcome(
        status=state.status,
        abandoned=False,
        winners=state.players if won(state) else (),
        score=score(state),
        result={
            "won": won(state),
            "score": score(state),
            "turns": figures.turns,
            "backwards_tricks": figures.backwards_tricks,
            "pile_lengths": list(figures.pile_lengths),
        },
    )


_END_TURN = EndTurn()
_LEAVE = Leave()
# Every play there can be, made once: decoding a long log then allocates nothing per move.
_PLAYS = {(card, pile): Play(card, pile) for card in CARDS for pile in PILES}


def encode_action(action: Action) -> list[Any]:
    if isinstance(action, Play):
        return ["play", action.card, action.pile]
    if isinstance(action, Signal):
        return ["signal", action.kind, action.pile]
    return ["end"] if isinstance(action, EndTurn) else ["leave"]


def decode_action(raw: Any) -> Action:
    """An action as stored by ``encode_action``; ``CorruptState`` for anything else."""
    if raw == ["end"]:
        return _END_TURN
    if raw == ["leave"]:
        return _LEAVE
    if isinstance(raw, list) and len(raw) == 3 and raw[0] == "play" and is_int(raw[1]) and raw[2] in PILES:
        play = _PLAYS.get((raw[1], raw[2]))
        if play is not None:
            return play
    if (
        isinstance(raw, list)
        and len(raw) == 3
        and raw[0] == "signal"
        and raw[1] in (*SIGNALS, CLEAR)
        and (raw[2] is None or raw[2] in PILES)
    ):
        return Signal(raw[1], raw[2])
    raise CorruptState(_("The saved game is damaged (unknown move {move}).", move=repr(raw)[:80]))


def _new_game(setup: Setup) -> State:
    return new_game(
        setup.players,
        seed=setup.seed,
        expert="expert" in setup.variants,
        smaller_hands="smaller_hands" in setup.variants,
        rules_version=setup.rules_version,
    )


def default_action(state: State, player: int) -> Action:
    """The autopilot's safe move without planning: end the turn when allowed, else the play that moves its pile the
    least (a backwards trick first), so a stand-in spoils as little room as possible."""
    legal = legal_actions(state, player)
    if any(isinstance(action, EndTurn) for action in legal):
        return _END_TURN
    plays = [action for action in legal if isinstance(action, Play)]
    if not plays:
        return legal[0] if legal else _LEAVE
    tops = _tops(state)

    def jump(play: Play) -> int:
        index = _pile_index(play.pile)
        return play.card - tops[index] if _UP[index] else tops[index] - play.card

    return min(plays, key=lambda play: (jump(play), play.card, play.pile))


GAME: Game[State, Action] = Game(
    info=INFO,
    leave=_LEAVE,
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
