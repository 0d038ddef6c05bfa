"""The cost of one action through the engine and storage, early and late in a game (issue 9).

Run from a checkout: ``python benchmarks/action_path.py [--repeats 200]``. Each repeat opens a fresh game of The Game
(one player, a seed whose game lasts past move 120) on a real SQLite file, plays it with the shared flow
(``cogs._flow.Tables.play``: engine apply, log append, in-memory state), and times move 10 and move 120. Discord plays
no part. Before the move log, each action re-read the whole state and replayed every move, so move 120 cost several
times move 10; now both cost the same.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if sys.path and Path(sys.path[0] or ".").resolve() == ROOT / "benchmarks":
    sys.path.pop(0)
sys.path.insert(0, str(ROOT))

import games  # noqa: E402, F401  (registers the games, as bot.py does)
from engine import the_game  # noqa: E402
from engine.game import Setup  # noqa: E402
from storage import NewGame  # noqa: E402
from storage.sqlite import SQLiteStorage  # noqa: E402
from table.events import Events  # noqa: E402
from table.games import Games  # noqa: E402

PLAYER = 1
EARLY, LATE = 10, 120


def nearest_card(state: the_game.State) -> the_game.Action:
    """Lay the card that opens the smallest gap; end the turn once the minimum is laid."""
    if state.turn is not None and state.laid >= state.minimum:
        return the_game.EndTurn()
    plays = [a for a in the_game.legal_actions(state, PLAYER) if isinstance(a, the_game.Play)]
    return min(plays, key=lambda play: abs(play.card - the_game.top(state, play.pile)))


def long_game_seed() -> tuple[int, list[the_game.Action]]:
    """The first seed whose nearest-card game reaches move LATE, with its actions."""
    for seed in range(10_000):
        state = the_game.GAME.new_game(Setup((PLAYER,), seed))
        actions: list[the_game.Action] = []
        while not the_game.is_over(state) and len(actions) < LATE:
            action = nearest_card(state)
            actions.append(action)
            state = the_game.apply(state, PLAYER, action)
        if len(actions) == LATE:
            return seed, actions
    raise RuntimeError("no seed gives a long enough game")


async def run(repeats: int, folder: Path) -> tuple[list[float], list[float]]:
    seed, actions = long_game_seed()
    storage = await SQLiteStorage.open(str(folder / "bench.sqlite3"))
    tables = Games(storage, Events())
    early: list[float] = []
    late: list[float] = []
    try:
        for channel in range(1, repeats + 1):
            record = await storage.create_game(NewGame(channel, 1, "the_game", PLAYER, (PLAYER,), (), seed, 1))
            await storage.update_game(record, status="running", started_at="now")
            for number, action in enumerate(actions, start=1):
                start = time.perf_counter()
                await tables.play(channel, PLAYER, action)
                elapsed = time.perf_counter() - start
                if number == EARLY:
                    early.append(elapsed)
                elif number == LATE:
                    late.append(elapsed)
    finally:
        await storage.close()
    return early, late


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=200, help="games played (default 200)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        early, late = asyncio.run(run(args.repeats, Path(folder)))
    early_ms, late_ms = statistics.median(early) * 1000, statistics.median(late) * 1000
    print(
        f"one action, engine + storage (median of {args.repeats}): move {EARLY} {early_ms:.3f} ms, "
        f"move {LATE} {late_ms:.3f} ms, ratio {late_ms / early_ms:.2f} (target at most 1.3)"
    )


if __name__ == "__main__":
    main()
