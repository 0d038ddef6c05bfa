"""The table-wide weights of The Game's computer player, one set per variant (``engine.ai.the_game`` plans with them).

Each variant changes what a turn asks and what a hand can do, so the standard weights were re-tuned for it on seeded
all-AI games (``benchmarks/ai.py --variant ...``, seed 7). Expert asks three cards a turn while the draw pile lasts: a
plan is already long, so it looks fewer cards beyond the minimum ahead (which also keeps a decision within the 20 ms
budget, where five cards deep took up to 87 ms). Smaller hands hold one card fewer, so fewer cards fit closely.
"""

from __future__ import annotations

from dataclasses import dataclass


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
    plan_cards: int = 99  # the most cards one plan holds, but never fewer than the minimum: caps a decision's time


STANDARD = Weights()
EXPERT = Weights()
SMALLER_HANDS = Weights()
EXPERT_SMALLER_HANDS = Weights()


def weights(expert: bool, smaller_hands: bool) -> Weights:
    """The weights for a game with these variants (both at once has its own set)."""
    if expert:
        return EXPERT_SMALLER_HANDS if smaller_hands else EXPERT
    return SMALLER_HANDS if smaller_hands else STANDARD
