"""The Game's endgame for its computer player: once the draw pile is empty, whether the team can still lay every card.

With the draw pile empty, the cards a seat cannot see are exactly the other hands, and how many each holds is public.
So the seat deals those cards to the others at random (a card a seat's "backwards trick" signal names goes to that
seat) and, in each such deal, searches every way the table could go on: whether everyone, playing in turn, lays every
card. The move kept is the one that leaves the team a way to win in the most deals; the planner's own move wins ties.

This assumes that in each deal everybody knows every hand, which nobody does; it still finds the moves that throw the
game away (a card laid that shuts a pile on a card someone must still lay, a turn ended too early or too late), which
the turn planner, looking at one turn, cannot see. The deals come from a generator seeded by what the seat sees, and
the search is counted in positions, not seconds, so the same view always gives the same move: a restart or a Hint
decides alike.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Sequence

from engine.the_game import (
    ASCENDING,
    BACKWARDS_STEP,
    CARDS,
    PILES,
    Action,
    EndTurn,
    Observation,
    Play,
    backwards_trick_card,
)
from i18n import _

_UP = tuple(name in ASCENDING for name in PILES)

# Tuned on seeded all-AI games (``benchmarks/ai.py``, seed 7); see docs/computer-players.md.
MOST_CARDS = 18  # the search starts once the hands hold at most this many cards together
DEALS = 12  # deals of the unseen cards tried per decision (one when they can only lie one way)
# Positions searched per decision at most, over all deals. Beyond, the move kept is the best one tried in every deal
# (the planner's own if no other was): this bounds a decision's time (decision p99 within 20 ms at five seats).
POSITIONS = 3_000


# A Hint's line of why when the search overruled the planner.
ENDGAME_WHY = _(
    "The draw pile is empty: tried against the ways the others' cards may lie, this move most often still lets the "
    "team lay every card."
)


class _OutOfPositions(Exception):
    pass


class _Search:
    """Whether the team can still lay every card, from a position where every hand is known."""

    def __init__(self, positions: int) -> None:
        self.left = positions
        self.known: dict[tuple[object, ...], bool] = {}

    def wins(self, tops: tuple[int, ...], hands: tuple[tuple[int, ...], ...], mover: int, laid: bool) -> bool:
        """``laid``: whether the mover has laid this turn's minimum (one card: the draw pile is empty)."""
        key = (tops, hands, mover, laid)
        known = self.known.get(key)
        if known is not None:
            return known
        self.left -= 1
        if self.left < 0:
            raise _OutOfPositions
        hand = hands[mover]
        # A position where a turn just passed has the tops and cards of the one before it, already found not stuck.
        if laid and _stuck(tops, hands):
            self.known[key] = False
            return False
        result = False
        if laid:
            nxt = _next_holder(hands, mover)
            result = nxt is None or self.wins(tops, hands, nxt, False)
        if not result:
            for _step, pile, card in _moves(tops, hand):
                if self.wins(*_laying(tops, hands, mover, pile, card), mover, True):
                    result = True
                    break
        self.known[key] = result
        return result


def _next_holder(hands: tuple[tuple[int, ...], ...], mover: int) -> int | None:
    """The seat the turn passes to: the next one that still holds cards, the mover's own last (None: all are laid)."""
    seats = len(hands)
    for step in range(1, seats + 1):
        nxt = (mover + step) % seats
        if hands[nxt]:
            return nxt
    return None


def _laying(
    tops: tuple[int, ...], hands: tuple[tuple[int, ...], ...], mover: int, pile: int, card: int
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """The tops and hands once ``mover`` lays ``card`` on ``pile``."""
    hand = hands[mover]
    index = hand.index(card)
    return (*tops[:pile], card, *tops[pile + 1 :]), (
        *hands[:mover],
        hand[:index] + hand[index + 1 :],
        *hands[mover + 1 :],
    )


def _stuck(tops: tuple[int, ...], hands: tuple[tuple[int, ...], ...]) -> bool:
    """Whether some card left can never be laid, whatever anybody does: no pile takes it now, and no chain of
    backwards tricks among the cards left can bring a pile back far enough. The chain ignores which cards get laid
    meanwhile, so a position that can still be won is never called stuck."""
    a, b, c, d = tops
    low = a if a < b else b
    high = c if c > d else d
    if low < high:
        return False  # every card fits some pile now
    # Only a card between the piles (high..low) can be stuck; most positions have none.
    between = [card for hand in hands for card in hand if high <= card <= low]
    if not between:
        return False
    cards: set[int] = set().union(*hands)
    # A pair (x, x - 10) of cards left: once x is laid on an ascending pile, x - 10 takes it back (and the other way
    # round on a descending one).
    pairs = [card for card in cards if card - BACKWARDS_STEP in cards]
    reach = []
    for pile in range(4):
        top = tops[pile]
        if _UP[pile]:
            while True:
                back = top - BACKWARDS_STEP if top - BACKWARDS_STEP in cards else top
                for card in pairs:
                    if card > top and card - BACKWARDS_STEP < back:
                        back = card - BACKWARDS_STEP
                if back >= top:
                    break
                top = back
        else:
            while True:
                back = top + BACKWARDS_STEP if top + BACKWARDS_STEP in cards else top
                for card in pairs:
                    if card - BACKWARDS_STEP < top and card > back:
                        back = card
                if back <= top:
                    break
                top = back
        reach.append(top)
    a, b, c, d = reach
    return any(card < a and card < b and card > c and card > d for card in between)


def _moves(tops: Sequence[int], hand: Sequence[int]) -> list[tuple[int, int, int]]:
    """Every play of ``hand``, as (how far it moves its pile, pile, card), backwards tricks and small steps first."""
    a, b, c, d = tops
    moves = []
    for card in hand:
        # Written out: this runs at every position of the search. A backwards trick moves its pile by -10.
        if card > a or card == a - BACKWARDS_STEP:
            moves.append((card - a, 0, card))
        if card > b or card == b - BACKWARDS_STEP:
            moves.append((card - b, 1, card))
        if card < c or card == c + BACKWARDS_STEP:
            moves.append((c - card, 2, card))
        if card < d or card == d + BACKWARDS_STEP:
            moves.append((d - card, 3, card))
    moves.sort()
    return moves


def endgame(observation: Observation, planned: Action) -> Action:
    """The move to make instead of ``planned`` once the draw pile is empty and few cards are left (else ``planned``)."""
    view = observation.view
    seat_of = {seat.player: index for index, seat in enumerate(view.seats)}
    me = seat_of.get(observation.player)
    if view.draw_pile or view.over or view.current_player != observation.player or me is None:
        return planned
    counts = [0 if index == me else seat.cards for index, seat in enumerate(view.seats)]
    if len(observation.hand) + sum(counts) > MOST_CARDS:
        return planned
    tops = tuple(pile.top for pile in view.piles)
    laid = view.laid >= view.minimum
    choices: list[Action] = [Play(card, PILES[pile]) for _step, pile, card in _moves(tops, observation.hand)]
    if laid:
        choices.append(EndTurn())
    if len(choices) < 2:
        return planned
    seen = set(observation.hand)
    for pile in view.piles:
        seen.update(pile.cards)
    unseen = [card for card in CARDS if card not in seen]
    if len(unseen) != sum(counts):
        return planned  # not a position this search knows (a seat left and its cards went back to the draw pile)
    # A backwards trick signal says its owner holds that card (the engine takes the signal down once the pile moves).
    named: dict[int, int] = {}
    for mark in view.signals:
        if mark.kind == "trick" and mark.pile is not None and mark.player != observation.player:
            card = backwards_trick_card(mark.pile, tops[PILES.index(mark.pile)])
            if card in unseen:
                named[card] = seat_of[mark.player]
    choices.sort(key=lambda choice: choice != planned)  # the planned move first: it wins ties
    holders = sum(1 for count in counts if count)
    rng = random.Random(f"{observation.hand} {tops} {view.laid} {unseen} {counts}")
    deals = []
    for _number in range(1 if holders <= 1 else DEALS):
        hands = _deal(rng, unseen, counts, named)
        if hands is None:
            return planned
        hands[me] = observation.hand
        deals.append(tuple(tuple(sorted(hand)) for hand in hands))
    search = _Search(POSITIONS)
    known: list[dict[tuple[object, ...], bool]] = [{} for _dealt in deals]
    best, most = planned, -1
    # The search allocates many small tuples and no reference cycles: the cycle collector would only slow it down.
    collecting = gc.isenabled()
    gc.disable()
    try:
        for choice in choices:
            won = 0
            for number, dealt in enumerate(deals):
                if won + len(deals) - number <= most:
                    break  # it can no longer win more deals than the best so far
                search.known = known[number]
                won += _wins_after(search, tops, dealt, me, choice)
            if won > most:
                best, most = choice, won
            if most == len(deals):
                break
    except _OutOfPositions:
        pass
    finally:
        if collecting:
            gc.enable()
    return best


def _deal(
    rng: random.Random, unseen: list[int], counts: list[int], named: dict[int, int]
) -> list[tuple[int, ...]] | None:
    """One deal of the unseen cards: each seat gets its count, a named card goes to its seat (None: impossible)."""
    free = [card for card in unseen if card not in named]
    rng.shuffle(free)
    hands: list[list[int]] = [[] for _count in counts]
    for card, seat in named.items():
        hands[seat].append(card)
    for seat, count in enumerate(counts):
        missing = count - len(hands[seat])
        if missing < 0:
            return None
        hands[seat].extend(free[:missing])
        del free[:missing]
    return [tuple(hand) for hand in hands]


def _wins_after(
    search: _Search, tops: tuple[int, ...], hands: tuple[tuple[int, ...], ...], me: int, choice: Action
) -> bool:
    if isinstance(choice, EndTurn):
        nxt = _next_holder(hands, me)
        return nxt is None or search.wins(tops, hands, nxt, False)
    assert isinstance(choice, Play)
    return search.wins(*_laying(tops, hands, me, PILES.index(choice.pile), choice.card), me, True)
