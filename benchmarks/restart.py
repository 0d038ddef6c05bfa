"""Restart at scale (issue 25): how long the bot takes to be ready with 100,000 finished and 10,000 running games.

Run from a checkout: ``python benchmarks/restart.py [--finished 100000] [--running 10000] [--templates 20]``.

It builds the database the way it would be after months of use, then restarts the real bot on it and times it:

1. 100,000 finished games go in with one bulk insert, as ``benchmarks/stats.py`` fills its database.
2. The real bot (``benchmarks/_launch_bot.py``, in its own process, as ``benchmarks/load.py`` runs it) starts against
   the fake Discord, and ``--templates`` games of The Game are opened and played for ``--moves`` actions each by the
   simulated players of ``load.py``: real games with real boards and DMs. Then the bot is stopped with SIGTERM.
3. The rest of the running games are copies of those, made with SQL in one transaction: every row of every table
   that has a ``game_id`` (moves, stored DMs, clocks; not the statistics) is copied to the copy's new id, in a
   channel of its own (the fake has all those channels, 500 to a server, as Discord allows). The copies keep the
   players, seeds and move logs of their originals, so they replay to the same positions and their stored DMs are
   up to date: a restart has nothing to deliver for them.
4. The bot starts again on that database, with the same fake Discord (so the boards and DMs of the played games
   exist). As soon as the fake has sent it READY, one player of each played game acts once (the move ``load.py``
   would make), one game after the other.

Figures: the time from the start of the process to the gateway's READY and to the bot's ``on_ready``, to the answer
of the first action ("ready": a command is answered), the latency of that first action and of the first action in
every other played game (from the INTERACTION_CREATE to the bot's answer; Discord drops an interaction after 3 s),
the bot's CPU and memory by then, and the same start on the database before the running copies were added, which
shows what the running games cost. Targets of issue 25: ready within 10 s, every first action answered within 3 s.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

# The project root must come first: benchmarks/engine.py would otherwise shadow the ``engine`` package.
ROOT = Path(__file__).resolve().parents[1]
if sys.path and Path(sys.path[0] or ".").resolve() == ROOT / "benchmarks":
    sys.path.pop(0)
sys.path.insert(0, str(ROOT))

from benchmarks.load import (  # noqa: E402
    ANSWER_TIMEOUT,
    Bench,
    BotProcess,
    Game,
    Lookout,
    Player,
    cpu_seconds,
    read_status,
)
from benchmarks.stats import fill_sqlite, games  # noqa: E402
from tests.fake_discord import FakeDiscord  # noqa: E402

TARGET_READY_S = 10.0
TARGET_FIRST_ACTION_S = 3.0
CHANNELS_PER_GUILD = 500  # Discord's limit of channels in a server
START_TIMEOUT = 600.0  # today every running game is replayed before the bot connects: give it time


@dataclass
class Start:
    """One start of the bot, timed from the moment its process was created."""

    label: str
    ready_s: float  # READY and every GUILD_CREATE written by the fake
    on_ready_s: float  # the bot's own "Connected as" log line
    first_answer_s: float  # the answer to the first action, sent as soon as READY was written
    first_latencies: list[float]  # the first action of each played game, one after the other
    cpu_s: float  # the bot's CPU from its start until the last of those answers
    rss_mb: float
    problems: list[str]


def copy_running_games(path: Path, originals: Sequence[int], channels: Sequence[tuple[int, int]]) -> float:
    """Copy the games ``originals`` (round robin) into the ``(guild, channel)`` of ``channels``, one copy each,
    with every row that belongs to them; returns the seconds it took."""
    started = time.perf_counter()
    db = sqlite3.connect(path)
    try:
        tables = [
            name
            for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'results'")
            if "game_id" in columns(db, name)
        ]
        game_columns = [name for name in columns(db, "games") if name not in ("id", "guild_id", "channel_id")]
        (last,) = db.execute("SELECT max(id) FROM games").fetchone()
        copies = [
            (last + 1 + number, originals[number % len(originals)], *place) for number, place in enumerate(channels)
        ]
        listed = ", ".join(game_columns)
        with db:
            db.executemany(
                f"INSERT INTO games (id, guild_id, channel_id, {listed}) "
                f"SELECT ?, ?, ?, {listed} FROM games WHERE id = ?",
                ((new, guild, channel, original) for new, original, guild, channel in copies),
            )
            for table in tables:
                others = ", ".join(name for name in columns(db, table) if name != "game_id")
                db.executemany(
                    f"INSERT INTO {table} (game_id, {others}) SELECT ?, {others} FROM {table} WHERE game_id = ?",
                    ((new, original) for new, original, _, _ in copies),
                )
        db.execute("ANALYZE")
    finally:
        db.close()
    return time.perf_counter() - started


def columns(db: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in db.execute(f"PRAGMA table_info({table})")]


def count(path: Path, where: str) -> int:
    db = sqlite3.connect(path)
    try:
        (number,) = db.execute(f"SELECT count(*) FROM games WHERE {where}").fetchone()
        return int(number)
    finally:
        db.close()


async def start_and_act(
    label: str, fake: FakeDiscord, workdir: Path, played: Sequence[Game], bench: Bench, log_level: str
) -> Start:
    """Start the bot, act once in every played game as soon as the gateway is up, stop the bot."""
    loop = asyncio.get_running_loop()
    identifies = fake.identifies
    bot = BotProcess(workdir, fake, {}, log_level)
    bot.log_path = workdir / f"bot-{label.split()[0]}.log"
    started = loop.time()
    await bot.start()
    try:
        await fake.wait_for(
            lambda: fake.identifies > identifies or bot.proc is None or bot.proc.returncode is not None,
            START_TIMEOUT,
            what="the bot to identify",
            poll=0.01,
        )
        if bot.proc is not None and bot.proc.returncode is not None:
            raise RuntimeError(f"the bot exited with {bot.proc.returncode}:\n{bot.log()[-3000:]}")
        await fake.wait_ready(START_TIMEOUT)
        ready = loop.time() - started
        on_ready = asyncio.create_task(time_on_ready(fake, bot, started))
        first_answer, latencies = 0.0, []
        bench.measuring = True
        for game in played:
            seen = {command: len(bench.stats.latency[command]) for command in ("play", "endturn")}
            if not await game.turn():
                bench.problems[f"{label}: the first action of a played game failed"] += 1
            for command, before in seen.items():
                latencies.extend(bench.stats.latency[command][before:])
            if not first_answer:
                first_answer = loop.time() - started
        bench.measuring = False
        cpu = cpu_seconds(bot.pid)
        rss = read_status(bot.pid)["VmRSS"] / 1024
        on_ready_s = await asyncio.wait_for(on_ready, START_TIMEOUT)
    finally:
        exit_code = await bot.stop()
    problems = [line for line in bot.log().splitlines() if " ERROR " in line or " WARNING " in line]
    problems += [f"{number} x {problem}" for problem, number in bench.problems.items()]
    bench.problems.clear()
    if exit_code != 0:
        problems.append(f"the bot did not exit cleanly on SIGTERM (exit code {exit_code})")
    return Start(label, ready, on_ready_s, first_answer, latencies, cpu, rss, problems)


async def time_on_ready(fake: FakeDiscord, bot: BotProcess, started: float) -> float:
    """Seconds from the start to the bot's own "Connected as" log line (its on_ready)."""
    await fake.wait_for(lambda: "Connected as" in bot.log(), START_TIMEOUT, what="on_ready", poll=0.02)
    return asyncio.get_running_loop().time() - started


async def run(args: argparse.Namespace) -> list[Start]:
    workdir = Path(tempfile.mkdtemp(prefix="cardtable-restart-", dir=args.db_dir))
    database = workdir / "bot.sqlite3"
    fake = FakeDiscord(bot_name="CardTable")
    lookout = Lookout(fake)
    bench = Bench(lookout, 0.0, random.Random(args.seed))
    try:
        began = time.perf_counter()
        storage = await fill_sqlite(str(database), games(args.finished, args.seed), args.seed)
        await storage.close()
        print(f"{args.finished} finished games in {time.perf_counter() - began:.1f} s", flush=True)

        await fake.start()
        home = fake.add_guild("Restart test")
        played: list[Game] = []
        for number in range(args.templates):
            channel = fake.add_text_channel(home, f"table-{number}")
            players = [Player(fake.add_member(home, f"player-{number}-{seat}")) for seat in (1, 2)]
            for player in players:
                lookout.dm_owner[fake.dm_channel(player.member).id] = player
            played.append(Game(bench, channel, players))
        copies = args.running - args.templates
        places: list[tuple[int, int]] = []
        for number in range(copies):
            if number % CHANNELS_PER_GUILD == 0:
                guild = fake.add_guild(f"Busy server {number // CHANNELS_PER_GUILD}")
            places.append((guild.id, fake.add_text_channel(guild, f"game-{number}").id))

        bot = BotProcess(workdir, fake, {}, args.log_level)
        await bot.start()
        await bot.wait_ready()
        await fake.wait_synced()
        began = time.perf_counter()
        for game in played:
            if not await game.open():
                raise RuntimeError(f"a game did not open: {dict(bench.problems)}")
        for _ in range(args.moves):
            for game in played:
                if game.board is not None and not game.board.over and not await game.turn():
                    await game.resync()
        await fake.wait_idle(0.5, ANSWER_TIMEOUT)
        print(
            f"{args.templates} games of The Game opened and played for {args.moves} actions each in "
            f"{time.perf_counter() - began:.1f} s",
            flush=True,
        )
        if await bot.stop() != 0:
            raise RuntimeError(f"the first bot did not stop cleanly:\n{bot.log()[-3000:]}")
        played = [game for game in played if game.board is not None and not game.board.over]
        db = sqlite3.connect(database)
        originals = [int(row[0]) for row in db.execute("SELECT id FROM games WHERE status = 'running' ORDER BY id")]
        db.close()
        if not originals:
            raise RuntimeError("no played game is still running: use fewer --moves")

        starts = [await start_and_act("without the running copies", fake, workdir, played, bench, args.log_level)]
        print(f"restarted once with {len(originals)} running games", flush=True)
        seconds = copy_running_games(database, originals, places)
        running, finished = count(database, "status = 'running'"), count(database, "status = 'finished'")
        print(f"{copies} running copies added in {seconds:.1f} s: {running} running, {finished} finished", flush=True)
        starts.append(
            await start_and_act(f"with {running} running games", fake, workdir, played, bench, args.log_level)
        )
        return starts
    finally:
        await fake.stop()
        if args.keep:
            print(f"kept {workdir} (bot logs, bot.sqlite3)")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


def report(args: argparse.Namespace, starts: Sequence[Start]) -> bool:
    ok = True
    print()
    print(f"Restart with {args.finished} finished games; first actions in {args.templates} played games")
    for start in starts:
        latencies = start.first_latencies or [float("nan")]
        ready_ok = start.first_answer_s <= TARGET_READY_S
        first_ok = max(latencies) <= TARGET_FIRST_ACTION_S
        print()
        print(f"{start.label}:")
        print(f"  gateway READY after            {start.ready_s:7.2f} s")
        print(f"  the bot's on_ready after       {start.on_ready_s:7.2f} s")
        print(
            f"  first action answered after    {start.first_answer_s:7.2f} s   "
            f"(target <= {TARGET_READY_S:g} s: {'ok' if ready_ok else 'MISSED'})"
        )
        print(
            f"  first action per game, latency first {latencies[0] * 1000:.0f} ms, median "
            f"{statistics.median(latencies) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms "
            f"(target <= {TARGET_FIRST_ACTION_S:g} s: {'ok' if first_ok else 'MISSED'})"
        )
        print(f"  bot CPU until then {start.cpu_s:.1f} s, VmRSS {start.rss_mb:.0f} MB")
        for line in start.problems[:5]:
            print(f"  problem: {line}")
        ok = ok and ready_ok and first_ok and not start.problems and len(start.first_latencies) == args.templates
    return ok


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--finished", type=int, default=100_000, help="finished games (default 100,000)")
    parser.add_argument("--running", type=int, default=10_000, help="running games in all (default 10,000)")
    parser.add_argument("--templates", type=int, default=20, help="games played for real, then copied (default 20)")
    parser.add_argument("--moves", type=int, default=30, help="actions played in each of those (default 30)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log-level", default="INFO", help="the bot's LOG_LEVEL (default INFO, as in production)")
    parser.add_argument("--db-dir", default=None, help="where the temporary database goes (default: $TMPDIR)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (bot logs, database)")
    args = parser.parse_args(argv)
    if not 0 < args.templates <= args.running or args.finished < 0 or args.moves < 1:
        parser.error("--templates must be between 1 and --running, --finished not negative, --moves positive")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    starts = asyncio.run(run(args))
    return 0 if report(args, starts) else 1


if __name__ == "__main__":
    sys.exit(main())
