"""How strong and how fast the computer players are: seeded all-AI games through the engine (not Discord).

Run from a checkout::

    python benchmarks/ai.py --game the_game --players 1-5 --games 10000 --seed 1 --signals live [--variant expert]
    python benchmarks/ai.py --game no_thanks --players 3-7 --games 10000 --seed 1 [--opponents self]

It prints what the seed picks, then one line per player count, for instance
``the_game 2 players: 10000 games, won 37.1% (95% CI 36.2-38.0), mean cards left 6.7, decision p99 3.1 ms``.

The seed picks the deals: game i of a run is dealt with seed ``seed * 1000003 + i``, whatever the player count. The
computer players get random generators of their own, seeded apart from the deal (a string seed goes through SHA-512),
so nothing they draw can rebuild the shuffled deck.

The Game: every seat is the AI; seat 0 lays the first card. ``--signals`` says when seats show signals:
- ``none``: never; every seat plays from its own hand and the laid cards alone.
- ``turn``: each seat updates its signals once, at the end of its own turn (after drawing).
- ``live``: what the bot does at a real table (``table/seats.py`` calls the same ``engine.ai.the_game.signals``): after
  every move, each computer seat raises or clears its signals, then the seat to move acts; so the mover re-plans after
  each of its own cards. A raised signal stays until its owner's next turn unless it became untrue.
"won" is the share of games with no card left; the interval is Wilson's.

No Thanks!: one seat under test is the AI, every other seat a threshold player (or, with ``--opponents self``, the AI
too: a sanity check where each seat should win its fair share): it takes the face-up card when the
chips on it reach ``THRESHOLD`` of its value, when the card joins a run of its own (is next to one of its cards), or
when it has no chip left. The seat under test moves round the table from game to game (game i: seat i mod N), and the
engine picks who starts from the seed. "won" is the share of games the seat under test wins (ties broken by the
engine's rule); the fair share is 1/N.

"decision p99" is the 99th percentile of the time one ``act`` call of the AI takes. ``--jobs`` spreads the games over
worker processes; the results (all but the times) are the same whatever the number of jobs, since every game's deal
and generator depend on its seed alone.
"""

from __future__ import annotations

import argparse
import functools
import math
import random
import sys
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import no_thanks, the_game
from engine.ai import NO_THANKS, THE_GAME
from engine.game import Setup

THRESHOLD = 0.4  # the share of its value in chips at which a threshold player takes a No Thanks! card
CHUNK = 50  # games per worker task
PLAYER_COUNTS = {"the_game": (1, 2, 3, 4, 5), "no_thanks": (3, 4, 5, 6, 7)}
SIGNALS = ("none", "turn", "live")
DEAL_STRIDE = 1_000_003


def deal_seed(run_seed: int, number: int) -> int:
    """The seed that deals game ``number`` of a run: it depends on the run's seed and the game's number only."""
    return run_seed * DEAL_STRIDE + number


def ai_rng(deal: int) -> random.Random:
    """The computer players' own generator for the game dealt with ``deal``, seeded apart from the deck's."""
    return random.Random(f"computer players of deal {deal}")


@dataclass
class Tally:
    games: int = 0
    won: int = 0
    cards_left: int = 0
    decisions_ms: list[float] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.won += other.won
        self.cards_left += other.cards_left
        self.decisions_ms.extend(other.decisions_ms)


def _timed_act(player: Any, observation: Any, rng: random.Random, tally: Tally) -> Any:
    start = time.perf_counter()
    action = player.act(observation, rng)
    tally.decisions_ms.append((time.perf_counter() - start) * 1000)
    return action


def play_the_game(players: int, seed: int, variants: frozenset[str], tally: Tally, signals: str = "live") -> None:
    ai = THE_GAME
    seats = tuple(range(1, players + 1))
    state = the_game.GAME.new_game(Setup(seats, seed, variants, the_game.INFO.rules_version))
    rng = ai_rng(seed)

    def show(state: the_game.State, seat: int) -> the_game.State:
        for signal in ai.signals(the_game.observation(state, seat)):
            state = the_game.apply(state, seat, signal)
        return state

    while not the_game.is_over(state):
        if signals == "live":
            for seat in seats:
                state = show(state, seat)
        mover = the_game.current_player(state) or seats[0]
        action = _timed_act(ai, the_game.observation(state, mover), rng, tally)
        state = the_game.apply(state, mover, action)
        if signals == "turn" and isinstance(action, the_game.EndTurn) and not the_game.is_over(state):
            state = show(state, mover)
    tally.games += 1
    tally.won += the_game.won(state)
    tally.cards_left += the_game.score(state)


def threshold_player(state: no_thanks.State, player: int) -> no_thanks.Action:
    """The baseline No Thanks! player (see the module's docstring)."""
    card = state.face_up
    assert card is not None
    cards = no_thanks.hand(state, player)
    if (
        no_thanks.chips(state, player) == 0
        or state.chips_on_card >= THRESHOLD * card
        or card - 1 in cards
        or card + 1 in cards
    ):
        return no_thanks.Take()
    return no_thanks.NoThanks()


def play_no_thanks(players: int, seed: int, variants: frozenset[str], tally: Tally, opponents: str) -> None:
    ai = NO_THANKS
    seats = tuple(range(1, players + 1))
    tested = seats[seed % players]
    state = no_thanks.GAME.new_game(Setup(seats, seed, variants, no_thanks.INFO.rules_version))
    rng = ai_rng(seed)
    while not no_thanks.is_over(state):
        mover = no_thanks.current_player(state)
        assert mover is not None
        if mover == tested or opponents == "self":
            action = _timed_act(ai, no_thanks.observation(state, mover), rng, tally)
        else:
            action = threshold_player(state, mover)
        state = no_thanks.apply(state, mover, action)
    tally.games += 1
    tally.won += no_thanks.winner(state)[0] == tested


def play_games(game: str, players: int, variants: frozenset[str], mode: str, seeds: Iterable[int]) -> Tally:
    """``mode``: when The Game's seats signal (see ``SIGNALS``), or who No Thanks!'s other seats are."""
    tally = Tally()
    for seed in seeds:
        if game == "the_game":
            play_the_game(players, seed, variants, tally, mode)
        else:
            play_no_thanks(players, seed, variants, tally, mode)
    return tally


def wilson(won: int, games: int, z: float = 1.96) -> tuple[float, float]:
    share = won / games
    centre = (share + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def report(game: str, players: int, tally: Tally) -> str:
    low, high = wilson(tally.won, tally.games)
    line = (
        f"{game} {players} players: {tally.games} games, won {100 * tally.won / tally.games:.1f}% "
        f"(95% CI {100 * low:.1f}-{100 * high:.1f})"
    )
    if game == "the_game":
        line += f", mean cards left {tally.cards_left / tally.games:.1f}"
    return line + f", decision p99 {percentile(tally.decisions_ms, 0.99):.1f} ms"


def player_counts(text: str) -> list[int]:
    counts: list[int] = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        counts.extend(range(int(first), int(last or first) + 1))
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(PLAYER_COUNTS), default="the_game")
    parser.add_argument("--players", action="append", type=player_counts, help="a count, or a list like 1-5 or 3,5")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", action="append", default=[], help="expert, smaller_hands or open_chips")
    parser.add_argument("--signals", choices=SIGNALS, default="live", help="The Game: when seats signal")
    parser.add_argument("--opponents", choices=("threshold", "self"), default="threshold", help="No Thanks!")
    parser.add_argument("--jobs", type=int, default=None, help="worker processes (default: one per CPU)")
    args = parser.parse_args()
    counts = [count for group in args.players for count in group] if args.players else PLAYER_COUNTS[args.game]
    variants = frozenset(args.variant)
    mode = args.signals if args.game == "the_game" else args.opponents
    last = deal_seed(args.seed, args.games - 1)
    what = f"signals {mode}" if args.game == "the_game" else f"opponents {mode}"
    print(f"# seed {args.seed} picks the deals (seeds {deal_seed(args.seed, 0)}..{last}); {what}", flush=True)
    with ProcessPoolExecutor(args.jobs) as pool:
        for players in counts:
            seeds = [deal_seed(args.seed, number) for number in range(args.games)]
            chunks = [seeds[i : i + CHUNK] for i in range(0, len(seeds), CHUNK)]
            tally = Tally()
            for part in pool.map(functools.partial(play_games, args.game, players, variants, mode), chunks):
                tally.add(part)
            print(report(args.game, players, tally), flush=True)


if __name__ == "__main__":
    main()
