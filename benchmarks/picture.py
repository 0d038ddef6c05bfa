"""Time the pictures: a game's course from its log, its PNG, and a /stats chart; prints milliseconds and bytes.

Run as ``python benchmarks/picture.py [--games 20]``. The games are seeded games of The Game at one to five players,
played by the autopilot's careful move (the smallest jump, the minimum each turn), so that they last.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from cogs.the_game_picture import course_png
from engine import the_game
from engine.game import Move, Setup
from engine.the_game_course import course
from table.picture import Result, results_png


def play_out(setup: Setup) -> list[Move[the_game.Action]]:
    state = the_game.GAME.new_game(setup)
    log: list[Move[the_game.Action]] = []
    while not the_game.is_over(state):
        player = the_game.current_player(state) or setup.players[0]
        action = the_game.default_action(state, player)
        state = the_game.apply(state, player, action)
        log.append(Move(player, action))
    return log


def figures(label: str, values: list[float], unit: str) -> str:
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(len(values) * 0.95))]
    return f"{label}: median {statistics.median(values):.1f} {unit}, p95 {p95:.1f} {unit}, max {values[-1]:.1f} {unit}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    games = parser.parse_args().games
    rng = random.Random(11)
    replay_ms, draw_ms, sizes = [], [], []
    for number in range(games):
        setup = Setup(tuple(range(1, 2 + number % 5)), seed=rng.getrandbits(32))
        log = play_out(setup)
        start = time.perf_counter()
        figures_of_game = course(setup, log)
        replay_ms.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        png = course_png(figures_of_game)
        draw_ms.append((time.perf_counter() - start) * 1000)
        sizes.append(len(png) / 1000)
    print(f"{games} games of The Game, 1 to 5 players")
    print(figures("course from the log", replay_ms, "ms"))
    print(figures("course PNG, drawn", draw_ms, "ms"))
    print(figures("course PNG, size", sizes, "KB"))
    results = [
        Result(rng.randint(0, 60) if rng.random() > 0.1 else None, rng.random() < 0.2, rng.randrange(4))
        for _ in range(60)
    ]
    start = time.perf_counter()
    png = results_png([results, results[:20]])
    print(f"/stats chart, 60 + 20 games: {(time.perf_counter() - start) * 1000:.1f} ms, {len(png) / 1000:.1f} KB")


if __name__ == "__main__":
    main()
