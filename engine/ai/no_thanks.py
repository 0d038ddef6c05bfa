"""A computer player for No Thanks!: it prices the face-up card by what it does to its own score.

Taking a card costs the points it adds to the seat's cards (nothing, or less than nothing, when it joins or links
runs) and pays the chips on it; saying "no thanks" costs a chip. The player takes once the card is cheap enough, and
lets a card that only it wants go round the table once more to collect chips. It decides from the seat's
``Observation`` alone: its own chips and the public board (everybody's cards; other chips only when they are open).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.no_thanks import Action, NoThanks, Observation, Take, card_points

# Tuned on seeded games against threshold players (benchmarks/ai.py).
SHARE_TAKEN = 0.4  # take once the chips on the card reach this share of the points it adds ...
TAKE_AT = 3.0  # ... or once the points it adds, less the chips on it, are at most this
SHORT_OF_CHIPS = 5  # below this many chips, each chip counts half a point more: without chips we must take
CHIP_SCARCITY = 0.5
MILK_ROUNDS = 1  # a card only we want may go round the table this many times to collect chips


def points_added(cards: Sequence[int], card: int) -> int:
    """What taking ``card`` adds to the points of ``cards`` (negative when it links two runs)."""
    return card_points((*cards, card)) - card_points(cards)


def _wanted_by_others(observation: Observation, card: int) -> bool:
    return any(
        card - 1 in seat.cards or card + 1 in seat.cards
        for seat in observation.view.players
        if seat.player != observation.player
    )


def act(observation: Observation, rng: random.Random) -> Action:
    """Take or say no thanks: the seat must be the one to move."""
    del rng  # deterministic; the parameter is part of every AI player's contract
    view = observation.view
    card = view.face_up_card
    if card is None:
        raise ValueError("No card is face up: the game is over.")
    if observation.chips == 0:
        return Take()
    mine = next((seat.cards for seat in view.players if seat.player == observation.player), ())
    chips = view.chips_on_card
    if card - 1 in mine or card + 1 in mine:
        # It costs us nothing; if nobody else wants it, let it go round once more for their chips.
        others = len(view.players) - 1
        if observation.chips > 2 and chips < MILK_ROUNDS * others and not _wanted_by_others(observation, card):
            return NoThanks()
        return Take()
    added = points_added(mine, card)
    chip_value = 1 + CHIP_SCARCITY * max(0, SHORT_OF_CHIPS - observation.chips)
    if added - chips * chip_value <= TAKE_AT or chips >= SHARE_TAKEN * added:
        return Take()
    return NoThanks()


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
