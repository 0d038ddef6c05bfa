"""Time The Game's rules engine: the end-of-game search on adversarial hands, whole seeded games, and one apply early
and late in a long game.

Run from a checkout: ``python benchmarks/engine.py``. Targets: under 100 µs median per search on the worst hands,
under 10 ms per whole game, and an apply late in a game costing about what it costs early (the move log lives with
the caller, so a state does not grow with the game).
"""

from __future__ import annotations

import functools
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import the_game

SEARCH_REPEATS = 20_000
GAMES = 300
APPLY_REPEATS = 50_000
EARLY, LATE = 10, 120  # moves into a long game

# (what makes it hard, hand, tops A B C D, needed). Expert turns need 3 cards, the most the rules ever ask.
HARD_HANDS: list[tuple[str, tuple[int, ...], tuple[int, int, int, int], int]] = [
    ("only a chain of two backwards tricks works", (5, 6, 7, 8, 9, 30, 40, 50), (45, 98, 3, 3), 3),
    ("the chain breaks at the third card", (5, 6, 7, 8, 9, 31, 40, 50), (45, 98, 3, 3), 3),
    ("nothing fits anywhere", (11, 25, 33, 47, 52, 61, 74, 89), (90, 90, 10, 10), 3),
    ("slowest failure found by hill climbing (1)", (24, 25, 42, 51, 52, 58, 78, 93), (74, 88, 18, 3), 3),
    ("slowest failure found by hill climbing (2)", (11, 36, 47, 54, 55, 56, 73, 93), (92, 76, 35, 16), 3),
    ("slowest failure found by hill climbing (3)", (24, 28, 40, 43, 66, 75, 87, 97), (80, 79, 5, 17), 3),
    ("slowest success found by hill climbing", (4, 31, 32, 33, 41, 42, 46, 51), (47, 84, 20, 8), 3),
    ("fresh piles (the easy case)", (2, 15, 30, 44, 58, 71, 85, 99), (1, 1, 100, 100), 3),
]


def median_ns(run: Callable[[], object], repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter_ns()
        run()
        samples.append(time.perf_counter_ns() - start)
    return statistics.median(samples)


def random_move(state: the_game.State, rng: random.Random, nearest: bool) -> tuple[int, the_game.Action]:
    """A legal move of the player to move (anyone before the first card); never Leave, so games stay whole."""
    mover = the_game.current_player(state)
    if mover is None:
        mover = rng.choice(state.players)
    actions = [action for action in the_game.legal_actions(state, mover) if not isinstance(action, the_game.Leave)]
    if not nearest:
        return mover, rng.choice(actions)

    tops = {pile: the_game.top(state, pile) for pile in the_game.PILES}

    def jump(action: the_game.Action) -> int:
        if not isinstance(action, the_game.Play):
            return 6  # end the turn rather than make a bigger jump
        pile_top = tops[action.pile]
        return action.card - pile_top if action.pile in the_game.ASCENDING else pile_top - action.card

    return mover, min(actions, key=jump)


def whole_game(seed: int, nearest: bool) -> int:
    rng = random.Random(seed)
    players = list(range(1, rng.randint(1, 5) + 1))
    state = the_game.new_game(players, seed=seed, expert=rng.random() < 0.5, smaller_hands=rng.random() < 0.5)
    while not the_game.is_over(state):
        player, action = random_move(state, rng, nearest)
        state = the_game.apply(state, player, action)
    return state.move_count


def long_game(moves: int) -> list[tuple[the_game.State, int, the_game.Action]]:
    """The first seeded five-player game (nearest card first) to run past ``moves`` moves, as (state, who, what)."""
    for seed in range(1000):
        rng = random.Random(seed)
        state = the_game.new_game(range(1, 6), seed=seed)
        steps = []
        while not the_game.is_over(state):
            player, action = random_move(state, rng, nearest=True)
            steps.append((state, player, action))
            state = the_game.apply(state, player, action)
        if len(steps) > moves:
            return steps
    raise RuntimeError(f"no seeded game lasted {moves} moves")


def mean_apply_ns(state: the_game.State, player: int, action: the_game.Action) -> float:
    apply = the_game.apply
    start = time.perf_counter_ns()
    for _ in range(APPLY_REPEATS):
        apply(state, player, action)
    return (time.perf_counter_ns() - start) / APPLY_REPEATS


def time_apply() -> tuple[tuple[int, float], tuple[int, float]]:
    """The mean cost of one card laid at the first play from move EARLY on, and from move LATE on, of a long game."""
    steps = long_game(LATE)
    found = []
    for start in (EARLY, LATE):
        at = next(i for i in range(start, len(steps)) if isinstance(steps[i][2], the_game.Play))
        found.append((at, mean_apply_ns(*steps[at])))
    return found[0], found[1]


def time_games(nearest: bool) -> tuple[float, float]:
    samples = []
    moves = []
    for seed in range(GAMES):
        start = time.perf_counter_ns()
        moves.append(whole_game(seed, nearest))
        samples.append(time.perf_counter_ns() - start)
    return statistics.median(samples), statistics.mean(moves)


def main() -> None:
    print(f"can_meet_minimum, median of {SEARCH_REPEATS:,} calls each:")
    worst = 0.0
    for label, hand, tops, needed in HARD_HANDS:
        answer = the_game.can_meet_minimum(hand, tops, needed)
        took = median_ns(functools.partial(the_game.can_meet_minimum, hand, tops, needed), SEARCH_REPEATS)
        worst = max(worst, took)
        print(f"  {took / 1000:7.1f} µs  {'yes' if answer else 'no ':3}  {label}")
    print(f"  worst median: {worst / 1000:.1f} µs (target < 100 µs)")
    print(f"whole games, median of {GAMES} seeded games (apply + legal_actions + every end check):")
    for nearest, label in ((False, "random legal moves"), (True, "nearest card first")):
        took, moves = time_games(nearest)
        print(f"  {took / 1e6:7.2f} ms  {label} (mean {moves:.0f} moves per game) (target < 10 ms)")
    (early_at, early), (late_at, late) = time_apply()
    print(
        f"apply of one card, mean of {APPLY_REPEATS:,} calls: {early / 1000:.1f} µs at move {early_at}, "
        f"{late / 1000:.1f} µs at move {late_at} of a long game (ratio {late / early:.2f}, target about 1)"
    )


if __name__ == "__main__":
    main()
