"""A computer player for No Thanks!: a short lookahead over what the rest of the table will do with the face-up card.

Taking a card costs the points it adds to the seat's cards (nothing, or less than nothing, when it joins or links
runs) and pays the chips on it; saying "no thanks" costs a chip, and a chip is worth more than its point while many
cards are still to come and the seat is short of chips (without chips it must take whatever comes). After a "no
thanks" the player foresees the others as simple players who take a card that joins one of their runs, a card with
enough chips on it, or any card once out of chips; a card that nobody else will take comes back richer, so the player
lets it go round ("milks" it) while that is safe. The goal is to win (the lowest score at the table), so a card that
adds far more points than the chips on it is refused while the seat has a chip: after such a take it would hardly win
anyway, and refusing keeps a chance (the lookahead alone, minimising points, would take it when short of chips).
It decides from the seat's ``Observation`` alone: its own chips and the public board (everybody's cards; other chips
only when they are open, otherwise estimated from the total).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.no_thanks import Action, NoThanks, Observation, PlayerView, Take, card_points, starting_chips

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


def points_added(cards: Sequence[int], card: int) -> int:
    """What taking ``card`` adds to the points of ``cards`` (negative when it links two runs)."""
    return card_points((*cards, card)) - card_points(cards)


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
    # Every chip is on the card or with a player: the others share what is neither ours nor on the card.
    total = starting_chips(len(view.players) + len(view.left)) * len(view.players)
    spare = max(0, total - observation.chips - view.chips_on_card)
    chance = min(1.0, spare / max(1, len(order)) / CHIPS_SURE)
    return [chance] * len(order)


def act(observation: Observation, rng: random.Random) -> Action:
    """Take or say no thanks: the seat must be the one to move."""
    del rng  # deterministic; the parameter is part of every AI player's contract
    view = observation.view
    card = view.face_up_card
    if card is None:
        raise ValueError("No card is face up: the game is over.")
    if observation.chips == 0:
        return Take()
    seats = view.players
    me = next(index for index, seat in enumerate(seats) if seat.player == observation.player)
    order = [seats[(me + step) % len(seats)] for step in range(1, len(seats))]
    mine = seats[me].cards
    added = points_added(mine, card)
    if added - view.chips_on_card >= OUT_OF_THE_RUNNING:
        return NoThanks()
    chances = _chances_of_chips(observation, order)
    wants = [card - 1 in seat.cards or card + 1 in seat.cards for seat in order]
    left = view.cards_left
    table = len(seats)
    tempo = CHIP_TEMPO.get(table + len(view.left), CHIP_TEMPO_OTHERWISE)

    def value(chips_on: int, held: int, depth: int) -> float:
        """Expected cost to us (points, lower is better) of facing the card with ``chips_on`` on it, best play."""
        take = added - chips_worth(held, chips_on, left, tempo)
        if held == 0 or depth >= MAX_ROUNDS:
            return take
        # No thanks: pay a chip, then each other seat in turn may take it (then it costs us nothing more) or pass.
        cost = chip_value(held - 1, left, tempo)
        reach = 1.0
        for step, seat_wants in enumerate(wants, start=1):
            on = chips_on + step
            takes = 1.0 if seat_wants or on >= OTHERS_TAKE_AT * card else 1.0 - chances[step - 1]
            reach *= 1.0 - takes
            if reach <= 1e-9:
                break
        if reach > 1e-9:
            cost += reach * value(chips_on + table, held - 1, depth + 1)
        return min(take, cost)

    take_now = added - chips_worth(observation.chips, view.chips_on_card, left, tempo)
    return Take() if take_now <= value(view.chips_on_card, observation.chips, 0) + 1e-9 else NoThanks()


def signals(observation: Observation) -> list[Action]:
    """No Thanks! has no table talk."""
    del observation
    return []


def fallback(legal_actions: Sequence[Action], observation: Observation | None = None) -> Action:
    """No thanks if the seat has a chip, else take: never leave. The legal actions say all there is to know."""
    del observation
    for wanted in (NoThanks, Take):
        for action in legal_actions:
            if isinstance(action, wanted):
                return action
    return legal_actions[0]
