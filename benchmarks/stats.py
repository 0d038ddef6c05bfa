"""The statistics queries on a big database (issue 15): /stats and /leaderboard with 100,000 finished games.

Run from a checkout: ``python benchmarks/stats.py [--games 100000] [--repeats 300] [--seed 1]``, or with
``--database-url throwaway`` (a temporary PostgreSQL server, see ``tests/postgres.py``) or a URL of your own. It fills a
fresh database (through the driver's own migrations) with seeded finished games: a third of them on one busy server of
300 members who mostly play in regular groups, the rest over 1,000 small servers; The Game and No Thanks!, 2-5 players,
a tenth with computer players and a twentieth with an autopilot turn. The rows go in with one bulk insert and the
migration's own back-fill, as if the games had ended before the statistics existed. Then it times, through the
storage interface as the bot calls it, the queries behind /stats (tallies, streaks and teams of a player of the busy
server) and /leaderboard (The Game's teams and No Thanks!' players, first page, people only), and prints the median
and p99 of each, and the end screen's record of a table of the busy server (``together``). The target is under
100 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if sys.path and Path(sys.path[0] or ".").resolve() == ROOT / "benchmarks":
    sys.path.pop(0)
sys.path.insert(0, str(ROOT))

from storage import Storage  # noqa: E402
from storage.postgres import PostgresStorage  # noqa: E402
from storage.results import BACKFILL  # noqa: E402
from storage.sqlite import SQLiteStorage  # noqa: E402

BUSY_GUILD = 1
BUSY_MEMBERS = 300
SMALL_GUILDS = 1000
TARGET_MS = 100.0


def games(count: int, seed: int) -> list[tuple[Any, ...]]:
    """Rows of finished games: (channel, guild, kind, host, players, variants, seed, options, result, time)."""
    rng = random.Random(seed)
    groups = [rng.sample(range(1000, 1000 + BUSY_MEMBERS), rng.randint(2, 5)) for _ in range(80)]
    rows = []
    for number in range(count):
        busy = number % 3 == 0
        guild = BUSY_GUILD if busy else 2 + rng.randrange(SMALL_GUILDS)
        if busy and rng.random() < 0.8:
            players = list(rng.choice(groups))
        else:
            base = 1000 if busy else 100_000 + guild * 20
            players = rng.sample(range(base, base + (BUSY_MEMBERS if busy else 12)), rng.randint(2, 5))
        kind = "the_game" if rng.random() < 0.6 else "no_thanks"
        if kind == "no_thanks" and len(players) < 3:
            players.append(players[0] + 1 if players[0] + 1 not in players else players[0] + 2)
        if rng.random() < 0.1:
            players[-1] = -1  # a computer player
        if kind == "the_game":
            left = 0 if rng.random() < 0.2 else rng.randint(1, 40)
            result: dict[str, Any] = {"won": left == 0, "score": left, "turns": 30, "backwards_tricks": 2}
            variants = ["expert"] if rng.random() < 0.2 else []
        else:
            scores = {str(p): rng.randint(-5, 90) for p in players}
            winner = min(players, key=lambda p: scores[str(p)])
            result = {"winner": winner, "tie_break": False, "scores": scores}
            variants = ["open_chips"] if rng.random() < 0.2 else []
        stamp = f"2024-{1 + number * 12 // count:02d}-01T12:00:00+00:00"
        channel = guild * 10 + rng.randrange(3)
        rows.append(
            (channel, guild, kind, players[0], json.dumps(players), json.dumps(variants), number, result, stamp)
        )
    return rows


async def fill_sqlite(path: str, rows: list[tuple[Any, ...]], seed: int) -> Storage:
    import sqlite3

    storage = await SQLiteStorage.open(path)
    await storage.close()
    db = sqlite3.connect(path)
    rng = random.Random(seed + 1)
    with db:
        db.executemany(
            "INSERT INTO games (channel_id, guild_id, kind, host_id, players, variants, seed, status, result, "
            "created_at, started_at, ended_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'finished', ?, ?, ?, ?, ?)",
            ((*row[:7], json.dumps(row[7]), row[8], row[8], row[8], row[8]) for row in rows),
        )
        db.executemany(
            "INSERT INTO moves (game_id, seq, player, action, created_at, auto) VALUES (?, 1, ?, '[\"end\"]', '', 1)",
            ((number + 1, rows[number][3]) for number in range(len(rows)) if rng.random() < 0.05),
        )
        db.execute(BACKFILL["sqlite"])
    db.execute("ANALYZE")
    db.close()
    return await SQLiteStorage.open(path)


async def fill_postgres(url: str, rows: list[tuple[Any, ...]], seed: int) -> Storage:
    import asyncpg  # type: ignore[import-untyped]

    storage = await PostgresStorage.open(url)
    await storage.close()
    db = await asyncpg.connect(url)
    rng = random.Random(seed + 1)
    try:
        async with db.transaction():
            await db.executemany(
                "INSERT INTO games (channel_id, guild_id, kind, host_id, players, variants, seed, status, result, "
                "created_at, started_at, ended_at, updated_at) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, 'finished', $8, $9, $9, $9, $9)",
                [(*row[:7], json.dumps(row[7]), row[8]) for row in rows],
            )
            ids = [r["id"] for r in await db.fetch("SELECT id, host_id FROM games ORDER BY id")]
            await db.executemany(
                "INSERT INTO moves (game_id, seq, player, action, created_at, auto) VALUES ($1, 1, $2, '[]', '', true)",
                [(ids[n], rows[n][3]) for n in range(len(rows)) if rng.random() < 0.05],
            )
            await db.execute(BACKFILL["postgres"])
        await db.execute("ANALYZE")
    finally:
        await db.close()
    return await PostgresStorage.open(url)


async def timed(repeats: int, call: Callable[[int], Awaitable[Any]]) -> list[float]:
    times = []
    for number in range(repeats):
        start = time.perf_counter()
        await call(number)
        times.append((time.perf_counter() - start) * 1000)
    return times


def line(name: str, times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    verdict = "ok" if p99 < TARGET_MS else "SLOW"
    return f"{name}: median {statistics.median(times):.1f} ms, p99 {p99:.1f} ms ({verdict}, target < {TARGET_MS:.0f})"


async def run(args: argparse.Namespace) -> None:
    rows = games(args.games, args.seed)
    server = None
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        if args.database_url == "throwaway":
            from tests.postgres import PostgresServer, bindir

            found = bindir()
            if found is None:
                raise SystemExit("--database-url throwaway needs PostgreSQL's binaries (apt-get install postgresql)")
            server = PostgresServer.start(found, durable=True)
            url = await server.new_database()
        else:
            url = args.database_url
        try:
            if url:
                storage = await fill_postgres(url, rows, args.seed)
                where = "PostgreSQL"
            else:
                storage = await fill_sqlite(str(Path(folder) / "stats.sqlite3"), rows, args.seed)
                where = "SQLite"
            print(f"{where}: {args.games} finished games filled in {time.perf_counter() - started:.1f} s")
            busy_players = sorted({p for row in rows if row[1] == BUSY_GUILD for p in json.loads(row[4]) if p > 0})
            rng = random.Random(args.seed)
            chosen = [rng.choice(busy_players) for _ in range(args.repeats)]
            most = max(
                len([1 for row in rows if row[1] == BUSY_GUILD and p in json.loads(row[4])]) for p in chosen[:20]
            )

            async def stats(number: int) -> None:
                player = chosen[number]
                await storage.player_tallies(BUSY_GUILD, player)
                await storage.player_streaks(BUSY_GUILD, player)
                await storage.player_teams(BUSY_GUILD, player, "the_game")

            async def teams(number: int) -> None:
                await storage.leaderboard(BUSY_GUILD, "the_game", teams=True, mixed=False, minimum=3)

            async def players(number: int) -> None:
                await storage.leaderboard(BUSY_GUILD, "no_thanks", teams=False, mixed=False, minimum=3)

            async def history(number: int) -> None:
                await storage.ended_games(BUSY_GUILD, None, 11, 0)

            tables = [(str(row[2]), [p for p in json.loads(row[4]) if p > 0]) for row in rows if row[1] == BUSY_GUILD]

            async def end_record(number: int) -> None:
                kind, team = tables[number % len(tables)]
                await storage.together(BUSY_GUILD, kind, team)

            busy = sum(1 for row in rows if row[1] == BUSY_GUILD)
            print(f"the busy server: {busy} games, {len(busy_players)} players (up to {most} games each)")
            print(line("/stats (tallies, streaks, teams)", await timed(args.repeats, stats)))
            print(line("/leaderboard The Game teams", await timed(args.repeats, teams)))
            print(line("/leaderboard No Thanks! players", await timed(args.repeats, players)))
            print(line("/history (server, first page)", await timed(args.repeats, history)))
            print(line("the end screen's record", await timed(args.repeats, end_record)))
            await storage.close()
        finally:
            if server is not None:
                server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default=None, help="PostgreSQL URL, or 'throwaway' (default: SQLite)")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
