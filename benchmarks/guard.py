"""How often the misclick guard asks: seeded games of The Game played by the computer player's own choices, with
live signals, at 3, 4 and 5 players. A good player's lays are what the guard must let through: the share of turns on
which it would have asked about one of them is the nuisance a careful person meets.

    python benchmarks/guard.py --games 200 --seed 1

For each player count it prints the share of turns with at least one question, under today's guard
(``cogs.the_game_panel.misclick_risks``) and under the rule it replaced (a jump over ten or somebody else's "don't
lay"), and how often a question concerned the hand's best lay (which the guard must never ask about).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.ai import ai_rng, deal_seed
from cogs.the_game_panel import misclick_risks
from engine import the_game
from engine.ai import THE_GAME
from engine.ai.the_game_guard import regrets
from engine.game import Setup

OLD_BIG_JUMP = 10  # the rule before issue 38: a jump of more than ten asked


@dataclass
class Count:
    turns: int = 0
    asked: int = 0  # turns with a question under today's guard
    asked_before: int = 0  # under the old jump rule
    best_asked: int = 0  # questions about the hand's best lay (must stay 0)


def old_rule(state: the_game.State, player: int, play: the_game.Play) -> bool:
    top = the_game.top(state, play.pile)
    if the_game.is_backwards_trick(play.pile, top, play.card):
        return False
    kept = any(m.pile == play.pile and m.kind == "dont_lay" and m.player != player for m in state.signals)
    return kept or abs(play.card - top) > OLD_BIG_JUMP


def play(players: int, seed: int, count: Count) -> None:
    ai = THE_GAME
    seats = tuple(range(1, players + 1))
    state = the_game.GAME.new_game(Setup(seats, seed, frozenset(), the_game.INFO.rules_version))
    rng = ai_rng(seed)
    asked = asked_before = False
    while not the_game.is_over(state):
        for seat in seats:
            for signal in ai.signals(the_game.observation(state, seat)):
                state = the_game.apply(state, seat, signal)
        mover = the_game.current_player(state) or seats[0]
        observation = the_game.observation(state, mover)
        action = ai.act(observation, rng)
        if isinstance(action, the_game.Play):
            judged = regrets(observation)
            if misclick_risks(observation, action.card, action.pile, judged):
                asked = True
                count.best_asked += judged.get(action, 0.0) <= 0
            asked_before = asked_before or old_rule(state, mover, action)
        state = the_game.apply(state, mover, action)
        if isinstance(action, the_game.EndTurn) or the_game.is_over(state):
            count.turns += 1
            count.asked += asked
            count.asked_before += asked_before
            asked = asked_before = False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    print(f"seed {options.seed}: {options.games} games a player count, signals live, the computer player's choices")
    for players in (3, 4, 5):
        count = Count()
        for number in range(options.games):
            play(players, deal_seed(options.seed, number), count)
        print(
            f"{players} players: {count.turns} turns; the guard asks on {100 * count.asked / count.turns:.1f}% "
            f"(the jump rule: {100 * count.asked_before / count.turns:.1f}%); about the best lay: {count.best_asked}"
        )


if __name__ == "__main__":
    main()
