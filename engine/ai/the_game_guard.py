"""The misclick guard's judgement: how much worse one lay is than the best single lay the hand offers, by the computer
player's own reckoning.

A question before a card is worth a click only where a slip is likely and costly. A big jump on its own is neither:
on opening piles most cards jump far and the best one often does too, so a guard keyed on the jump asked on a fifth to
a third of all turns, about the best card as often as not, and "Lay it anyway" became a reflex (issue 38). Here a lay
is judged the way the planner judges it (the cards still to come it shuts out, and what the rest of the hand will cost
afterwards), against the best lay of the same hand on the same table: the guard asks only when the difference is large.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.ai.the_game import _board, _position, _room_taken
from engine.the_game import PILES, Observation, Play, is_legal

# How much worse than the best lay (in cards still to come shut out, the planner's unit) a lay must be to be asked
# about; less onto a pile somebody else asked to keep, where the slip costs them too. Tuned on seeded games played by
# the computer player's own choices (seed 11, 36 games; benchmarks/guard.py reports another seed): at 10 and 7 the
# guard asks on about 4% of its turns, where the old rule (a jump over ten, or any lay on a kept pile) asked on 60-70%.
REGRET_TO_ASK = 10.0
KEPT_REGRET_TO_ASK = 7.0


def regrets(observation: Observation) -> dict[Play, float]:
    """Every legal single lay of the seat's hand and how much worse it is than the best one (0 for the best)."""
    board = _board(observation)
    tops = list(board.tops)
    costs: dict[Play, float] = {}
    for card in observation.hand:
        rest = tuple(other for other in observation.hand if other != card)
        for index, pile in enumerate(PILES):
            top = tops[index]
            if not is_legal(pile, top, card):
                continue
            after = (*tops[:index], card, *tops[index + 1 :])
            costs[Play(card, pile)] = _room_taken(board, index, top, card) + _position(board, after, rest)
    if not costs:
        return {}
    best = min(costs.values())
    return {play: cost - best for play, cost in costs.items()}


def worth_asking(observation: Observation, play: Play, judged: Mapping[Play, float] | None = None) -> bool:
    """Whether laying ``play`` is clearly worse than the best lay this hand has (never for the best one itself).
    ``judged``: ``regrets(observation)`` when the caller has them already (a panel asks once per pile)."""
    regret = (regrets(observation) if judged is None else judged).get(play, 0.0)
    kept = any(
        mark.pile == play.pile and mark.kind == "dont_lay" and mark.player != observation.player
        for mark in observation.view.signals
    )
    return regret >= (KEPT_REGRET_TO_ASK if kept else REGRET_TO_ASK)
