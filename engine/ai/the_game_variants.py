"""The table-wide weights of The Game's computer player, one set per variant and, where it measured better, per player
count (``engine.ai.the_game`` plans with them).

Each variant changes what a turn asks and what a hand can do, so the standard weights were re-tuned for it on seeded
all-AI games (``benchmarks/ai.py --variant ... --signals live``, seed 7). In both, laying nearly free cards beyond the
minimum pays more than in the standard game (measured; the likely reason: expert asks three cards a turn and smaller
hands hold a card fewer, so a card kept in the hand has fewer chances to fit closely later). Expert also plans one card
beyond the minimum instead of two: its plans are already three cards long, and the fifth card cost time (up to 87 ms a
decision solo) without winning more. Two weights of the standard game's planner became per-variant ones where a count
measured better with its own: the room a card left in the hand will cost, and how close a card must fit for its seat
to ask "don't lay". Everything else tried per count (in docs/computer-players.md) moved nothing beyond the noise.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True, slots=True)
class Weights:
    """What the plan weighs, in cards still to come, where the variant decides it."""

    extra_card: float = 0.9  # the value of laying one card more than the minimum, when the other seats signal
    extra_card_quiet: float = 0.3  # likewise when they don't: their silence says nothing about where their cards go
    extra_card_solo: float = 0.0  # likewise in a solo game, where no other hand waits for the room a card keeps open
    extra_card_last: float = 3.0  # likewise once the draw pile is empty: every card must be laid in the end
    extra_room: float = 2.0  # a card beyond the minimum is considered only if it takes at most this much room
    extra_room_quiet: float = 0.5  # likewise at a quiet table
    dead_card: float = 2.0  # a card still to come that no pile takes any more, on top of the room it took
    dead_card_quiet: float = 5.0  # likewise at a quiet table
    max_extra: int = 2  # cards beyond the minimum that one plan may hold (the rest are planned at the next call)
    hand_gap: float = 0.1  # for each card left in the hand, the share of the room it will cost to lay it later
    dont_lay_room: float = 1.0  # the most room (cards still to come skipped) a card may take to ask "don't lay"


STANDARD = Weights()
# Seed 7, live, 300 games a count: a card beyond the minimum worth 2 cards of room instead of 0.9 took 3 players from
# 5.0 to 12.7% and 4 from 16.7 to 20.7%; one card beyond the minimum instead of two played as well and decides faster.
EXPERT = Weights(extra_card=2.0, max_extra=1)
# Likewise, 1.4 instead of 0.9 took 2 players from 17.7 to 22.0% and 5 from 22.7 to 26.0%.
SMALLER_HANDS = Weights(extra_card=1.4)
# Per player count, where it measured better (seed 7, live, 1,000 games). Expert with 2 players: a gap left in the hand
# weighs 0.15 instead of 0.1, and a seat asks "don't lay" for a card that skips up to 3 cards still to come instead of 1
# (the partner lays three cards a turn, so it needs every close card): 34.5 to 36.8%, mean cards left 8.1 to 7.5.
# Smaller hands solo: the same gap at 0.15, 4.3 to 5.3%, mean cards left 19.7 to 19.2.
EXPERT_PAIR = replace(EXPERT, hand_gap=0.15, dont_lay_room=3.0)
SMALLER_HANDS_SOLO = replace(SMALLER_HANDS, hand_gap=0.15)


def weights(expert: bool, smaller_hands: bool, players: int) -> Weights:
    """The weights for a game with these variants and this many seats. Both variants at once plays with expert's (not
    measured on its own)."""
    if expert:
        return EXPERT_PAIR if players == 2 else EXPERT
    if smaller_hands:
        return SMALLER_HANDS_SOLO if players == 1 else SMALLER_HANDS
    return STANDARD
