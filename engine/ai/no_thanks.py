"""A computer player for No Thanks!: a short lookahead over what the rest of the table will do with the face-up card.

Taking a card costs the points it adds to the seat's cards (nothing, or less than nothing, when it joins or links
runs) and pays the chips on it; saying "no thanks" costs a chip, and a chip is worth more than its point while many
cards are still to come and the seat is short of chips (without chips it must take whatever comes). After a "no
thanks" the player foresees the others as simple players who take a card that joins one of their runs, a card with
enough chips on it, or any card once out of chips; a card that nobody else will take comes back richer, so the player
lets it go round ("milks" it) while that is safe. The goal is to win (the lowest score at the table), so a card that
adds far more points than the chips on it is refused while the seat has a chip: after such a take it would hardly win
anyway, and refusing keeps a chance (the lookahead alone, minimising points, would take it when short of chips).
On a close call at 7 players the player plays the rest of the game out on sampled deals, for each choice, and follows
the choice that wins clearly more of them (see ``_playouts``): there the lookahead's rule of thumb for a chip errs.
It decides from the seat's ``Observation`` alone: its own chips and the public board (everybody's cards; other chips
only when they are open, otherwise estimated from the total).
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from engine.no_thanks import (
    CARDS,
    Action,
    NoThanks,
    Observation,
    PlayerView,
    PublicView,
    Take,
    card_points,
    starting_chips,
)

# Tuned on seeded games against threshold players (benchmarks/ai.py).
OTHERS_TAKE_AT = 0.4  # the others are expected to take a card once the chips on it reach this share of its value
# A chip is worth 1 + tempo * (cards to come / cards in all) / (chips held + 1) points, the tempo by the players dealt
# in: at a small table the card comes back round sooner and richer, so a chip that lets it go round is worth more.
CHIP_TEMPO = {3: 24.0, 4: 20.0, 5: 20.0, 6: 16.0, 7: 14.0}
CHIP_TEMPO_OTHERWISE = 16.0
CHIPS_SURE = 2.0  # with this many chips each on average, the others are taken to hold a chip
MAX_ROUNDS = 12  # how many times round the table the lookahead follows a card
# The goal is the lowest score at the table, not the fewest points: a card that adds this many points more than the
# chips on it puts the seat out of the running (at 7 players the best of the six others ends at about 13), so the seat
# says no thanks while it has a chip, even when short of chips (the lookahead's worth of a chip would have it take the
# card). Seed 7, 7 players: after such a take the seat won 7 to 9% of games; the rule lifts the win rate at 3 to 7.
OUT_OF_THE_RUNNING = 18
TOTAL_CARDS = 24
# On a close call (the lookahead's two choices within this many points) the seat plays the rest of the game out
# PLAYOUTS times for each choice and follows them when one wins at least PLAYOUTS_AGREE more games. Seed 7, 7 players,
# 4,000 games, against the lookahead alone on the same deals: 2 / 24 / 3 won +1.0 point (standard error 0.4);
# 16 playouts with a lead of 1 or 2 +0.5, +0.6; playouts only once 14 cards or fewer are left -0.9 against 2 / 24 / 3.
CLOSE_CALL = 2.0
# Only at 7 players, where chips are scarcest (7 each): there running out of chips is what loses, and the lookahead
# alone falls short of twice the fair share. At 6 players (9 chips) the playouts won 39.1% instead of 37.9% (seed 7,
# 10,000 games), but their longer games took 26.5 ms at the 99th percentile, over the 20 ms allowed; at 3 players 30 ms.
PLAYOUTS_FROM = 7
PLAYOUTS = 24
PLAYOUTS_AGREE = 3


def points_added(cards: Collection[int], card: int) -> int:
    """What taking ``card`` adds to the points of ``cards`` (negative when it links two runs).

    A run counts its lowest card, so the card counts in full alone, nothing on top of a run, and one point less than
    the run it goes under (which no longer counts its own lowest card): worked out directly, not by scoring the cards
    twice, since the playouts ask this hundreds of thousands of times."""
    below, above = card - 1 in cards, card + 1 in cards
    if below:
        return -(card + 1) if above else 0
    return -1 if above else card


def chip_value(chips: int, cards_left: int, tempo: float = CHIP_TEMPO_OTHERWISE) -> float:
    """What one chip is worth to a seat holding ``chips`` with ``cards_left`` cards still face down."""
    return 1.0 + tempo * (cards_left / TOTAL_CARDS) / (max(chips, 0) + 1)


def chips_worth(held: int, gained: int, cards_left: int, tempo: float = CHIP_TEMPO_OTHERWISE) -> float:
    """What ``gained`` more chips are worth to a seat holding ``held``."""
    return sum(chip_value(held + extra, cards_left, tempo) for extra in range(gained))


def _chances_of_chips(observation: Observation, order: Sequence[PlayerView]) -> list[float]:
    """For each of ``order`` (the other seats): the chance it still has a chip, known when chips are open."""
    view = observation.view
    if all(seat.chips is not None for seat in order):
        return [1.0 if seat.chips else 0.0 for seat in order]
    return _even_chances(_spare_chips(_total_chips(view), observation.chips, view.chips_on_card), len(order))


def _total_chips(view: PublicView) -> int:
    """The chips dealt to the seats still playing: all the chips in the game as far as the seat can tell (a seat that
    left took its chips away, however many it held then)."""
    return starting_chips(len(view.players) + len(view.left)) * len(view.players)


def _spare_chips(total: int, held: int, on_card: int) -> int:
    """The chips the other seats hold between them: every chip is on the card or with a player."""
    return max(0, total - held - on_card)


def _even_chances(spare: int, others: int) -> list[float]:
    """The others share ``spare`` chips evenly, as far as the seat can tell."""
    chance = min(1.0, spare / max(1, others) / CHIPS_SURE)
    return [chance] * others


@dataclass(frozen=True, slots=True)
class _Position:
    """What the lookahead needs, whether from an observation or inside a playout."""

    card: int
    chips_on_card: int
    cards: Collection[int]  # the seat's own
    chips: int  # the seat's own, at least 1
    others: Sequence[Collection[int]]  # the other seats' cards, in the order they move after the seat
    chances: Sequence[float]  # that each of ``others`` still holds a chip
    cards_left: int
    tempo: float


def _take_minus_pass(position: _Position) -> float:
    """How much more taking costs than saying no thanks (points, negative: take), by the lookahead."""
    card, left, tempo, table = position.card, position.cards_left, position.tempo, len(position.others) + 1
    added = points_added(position.cards, card)
    if added - position.chips_on_card >= OUT_OF_THE_RUNNING:
        return math.inf
    wants = [card - 1 in cards or card + 1 in cards for cards in position.others]

    def pass_cost(chips_on: int, held: int, depth: int) -> float:
        """Pay a chip, then each other seat in turn may take it (then it costs us nothing more) or pass."""
        cost = chip_value(held - 1, left, tempo)
        reach = 1.0
        for step, seat_wants in enumerate(wants, start=1):
            on = chips_on + step
            takes = 1.0 if seat_wants or on >= OTHERS_TAKE_AT * card else 1.0 - position.chances[step - 1]
            reach *= 1.0 - takes
            if reach <= 1e-9:
                return cost
        return cost + reach * value(chips_on + table, held - 1, depth + 1)

    def value(chips_on: int, held: int, depth: int) -> float:
        """Expected cost to us (points, lower is better) of facing the card with ``chips_on`` on it, best play."""
        take = added - chips_worth(held, chips_on, left, tempo)
        if held == 0 or depth >= MAX_ROUNDS:
            return take
        return min(take, pass_cost(chips_on, held, depth))

    take_now = added - chips_worth(position.chips, position.chips_on_card, left, tempo)
    return take_now - pass_cost(position.chips_on_card, position.chips, 0)


def _wins_after(
    take: bool,
    position: _Position,
    draw_pile: Sequence[int],
    hands: Sequence[Collection[int]],
    chips: Sequence[int],
    seat: int,
    total_chips: int,
) -> bool:
    """Play the rest of one sampled game after the seat's choice: does the seat win it?

    The seat plays by the lookahead; the others as the lookahead foresees them (threshold players)."""
    table = len(hands)
    taken = [set(cards) for cards in hands]
    held = list(chips)
    card, on, turn, drawn = position.card, position.chips_on_card, seat, 0
    first: bool | None = take
    while True:
        if turn == seat and first is not None:
            takes, first = first, None
        elif turn == seat and held[seat] > 0:
            order = [(seat + step) % table for step in range(1, table)]
            takes = (
                _take_minus_pass(
                    _Position(
                        card,
                        on,
                        taken[seat],
                        held[seat],
                        [taken[other] for other in order],
                        _even_chances(_spare_chips(total_chips, held[seat], on), table - 1),
                        len(draw_pile) - drawn,
                        position.tempo,
                    )
                )
                <= 1e-9
            )
        else:
            cards = taken[turn]
            takes = held[turn] == 0 or on >= OTHERS_TAKE_AT * card or card - 1 in cards or card + 1 in cards
        if not takes:
            held[turn] -= 1
            on += 1
            turn = (turn + 1) % table
            continue
        taken[turn].add(card)
        held[turn] += on
        on = 0
        if drawn == len(draw_pile):
            break
        card = draw_pile[drawn]
        drawn += 1
    scores = [card_points(cards) - chips_held for cards, chips_held in zip(taken, held, strict=True)]
    best = min(scores)
    # The engine's tie-break: the tied player holding the highest card wins.
    tied = [index for index, score in enumerate(scores) if score == best]
    return max(tied, key=lambda index: max(taken[index], default=0)) == seat


def act(observation: Observation, rng: random.Random) -> Action:
    """Take or say no thanks: the seat must be the one to move. ``rng`` samples the playouts: the same generator state
    gives the same choice."""
    view = observation.view
    card = view.face_up_card
    if card is None:
        raise ValueError("No card is face up: the game is over.")
    if observation.chips == 0:
        return Take()
    seats = view.players
    me = next(index for index, seat in enumerate(seats) if seat.player == observation.player)
    order = [seats[(me + step) % len(seats)] for step in range(1, len(seats))]
    position = _Position(
        card,
        view.chips_on_card,
        seats[me].cards,
        observation.chips,
        [seat.cards for seat in order],
        _chances_of_chips(observation, order),
        view.cards_left,
        CHIP_TEMPO.get(len(seats) + len(view.left), CHIP_TEMPO_OTHERWISE),
    )
    margin = _take_minus_pass(position)
    if abs(margin) < CLOSE_CALL and len(seats) + len(view.left) >= PLAYOUTS_FROM:
        lead = _playouts(observation, position, rng)
        if lead:
            return Take() if lead > 0 else NoThanks()
    return Take() if margin <= 1e-9 else NoThanks()


def _playouts(observation: Observation, position: _Position, rng: random.Random) -> int:
    """On a close call, by how many sampled games taking wins more often than saying no thanks (0: too close).

    The lookahead prices a chip by a rule of thumb and cannot see running out of chips later, when the seat must take
    whatever comes; playing the rest of the game out, the seat by the lookahead itself, sees it. The samples deal the
    unseen cards and share the others' secret chips at random; both choices play the same samples, so the difference
    comes from the choice, not from the deal. Taken only when the samples clearly agree: a difference of a few games
    in PLAYOUTS is mostly noise, and the lookahead's choice then stands."""
    view = observation.view
    seats = view.players
    me = next(index for index, seat in enumerate(seats) if seat.player == observation.player)
    others = [index for index in range(len(seats)) if index != me]
    seen = {position.card, *(card for seat in seats for card in seat.cards)}
    unseen = [card for card in CARDS if card not in seen]
    hands = [seat.cards for seat in seats]
    total_chips = _total_chips(view)
    open_chips = all(seat.chips is not None for seat in seats)
    spare = _spare_chips(total_chips, observation.chips, view.chips_on_card)
    lead = 0
    for done in range(PLAYOUTS):
        if abs(lead) + PLAYOUTS - done < PLAYOUTS_AGREE or abs(lead) - (PLAYOUTS - done) >= PLAYOUTS_AGREE:
            break  # the samples left can no longer change the answer
        draw_pile = rng.sample(unseen, view.cards_left)
        if open_chips:
            chips = [observation.chips if index == me else seat.chips or 0 for index, seat in enumerate(seats)]
        else:
            chips = [0] * len(seats)
            chips[me] = observation.chips
            for other in rng.choices(others, k=spare):
                chips[other] += 1
        lead += _wins_after(True, position, draw_pile, hands, chips, me, total_chips)
        lead -= _wins_after(False, position, draw_pile, hands, chips, me, total_chips)
    return lead if abs(lead) >= PLAYOUTS_AGREE else 0


def signals(observation: Observation) -> list[Action]:
    """No Thanks! has no table talk."""
    del observation
    return []
