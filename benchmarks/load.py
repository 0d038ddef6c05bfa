"""Load test: many games of The Game at once in many channels, the real bot in its own process (issue 5).

Run from a checkout: ``python benchmarks/load.py [--games 200] [--seconds N | --actions N]``.

The fake Discord of ``tests/fake_discord.py`` runs in this process; the bot runs unmodified as a separate process
(``benchmarks/_launch_bot.py`` points discord.py at the fake and calls ``bot.main()``), so that its memory can be read
from ``/proc/<pid>/status``. Every game has its own channel and players (2 by default). The simulated players see only
what players see: their hand from the DMs and the ephemeral followups, the pile tops from the board of the newest
public answer. Each game has one action in flight at a time; after the bot's answer (and the hand followup or DM it
brings) the next player thinks for a random, exponentially distributed time (``--think``, 0 = as fast as possible)
and acts. Games that end are opened again, so that ``--games`` stay active.

Figures, with the targets of issue 5 on a 2-core machine:

- time from the INTERACTION_CREATE to the bot's interaction callback (median, p90, p99 < 50 ms, max), measured
  by the fake, for every slash command sent in the measured window;
- actions per second;
- REST requests per action other than interaction callbacks and webhooks (<= 0.5), split into DMs and the rest;
- the bot's VmRSS after ready, with the games active, and per active game (< 20 KB).

``--bot-option KEY=JSON`` passes extra ``Bot(...)`` options through the launcher, to try a change to ``bot.py``
without editing it, e.g. ``--bot-option max_messages=1000`` (discord.py's default message cache).

``--database-url postgresql://...`` runs the bot on PostgreSQL instead of a temporary SQLite file (``throwaway``
starts a temporary server with PostgreSQL's default durability, see ``tests/postgres.py``); ``--processes N`` runs
N bot processes with ``SHARD_COUNT=N``, one shard each, on that database, with the games spread over one guild per
shard. The CPU figures are then the sum of the processes; memory and cache figures are the first process's.

Besides the table, the run prints what explains the figures: latency per command, CPU per action of the bot, of this
process and of the rest of the machine (other processes make the latency figures meaningless, and the run says so),
the bot's garbage-collection pauses, the stalls of this process's event loop, and how the bot's caches grew.
The exit status is 0 only if every target is met and nothing went wrong (refused or lost answers, errors or
warnings in the bot's log, an unclean exit on SIGTERM).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import os
import platform
import random
import shutil
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# The project root must come first: this script's directory holds benchmarks/engine.py, which would shadow the
# ``engine`` package.
ROOT = Path(__file__).resolve().parents[1]
if sys.path and Path(sys.path[0] or ".").resolve() == ROOT / "benchmarks":
    sys.path.pop(0)
sys.path.insert(0, str(ROOT))

import discord  # noqa: E402

from tests.fake_discord import (  # noqa: E402
    CHANNEL_MESSAGE,
    CHANNEL_MESSAGES,
    FOLLOWUP,
    INTERACTION_CALLBACK,
    WEBHOOK_MESSAGE,
    Channel,
    FakeDiscord,
    InteractionRecord,
    Member,
    Message,
    RequestRecord,
)
from tests.players import Board, board_in, choose, hand_in, read_panel  # noqa: E402
from tests.postgres import PostgresServer  # noqa: E402
from tests.postgres import bindir as postgres_bindir  # noqa: E402

LAUNCHER = ROOT / "benchmarks" / "_launch_bot.py"
TOKEN = "load-test-token"

TARGET_P99_MS = 50.0
TARGET_REQUESTS_PER_ACTION = 0.5
TARGET_KB_PER_GAME = 20.0
TARGET_KB_PER_IDLE_GAME = 5.0  # issue 39: an opened game nobody plays

READY_TIMEOUT = 60.0
EXIT_TIMEOUT = 15.0
ANSWER_TIMEOUT = 10.0  # longer than Discord's 3 s: a late answer is counted as expired, not waited for forever
# A deferred answer may come up to 15 minutes later; a person at a busy table waits about a minute. (Flat out, every
# player waits for the whole queue: 1,000 games at 140 actions a second is about 7 s an action.)
FILL_TIMEOUT = 60.0
NOISY_MACHINE = 0.15  # of a core used by other processes during the window
PLAY_ON_COST = 1  # after the minimum, keep laying cards that fit this close (a backwards trick costs -10)


# ---- what the bot shows, as the simulated players see it -----------------------------------------------------------


@dataclass
class Position:
    """Where a game stands as its players last saw it: the board of a public answer, or the mover's hand panel."""

    tops: dict[str, int]
    mover: int | None  # None: anyone may lay the first card
    laid: int
    minimum: int
    over: bool

    @classmethod
    def of_board(cls, board: Board) -> Position:
        return cls(board.tops, board.mover, board.laid, board.minimum, board.over)

    @classmethod
    def after_panel(cls, content: str, player: int, previous: Position | None) -> Position | None:
        """The position the private panel shows ("A 35 · B 12 · C 60 · D 88 ..." and "Your turn: 1 laid...")."""
        panel = read_panel(content)
        if panel is None:
            return previous
        if panel.my_turn:
            return cls(panel.tops, player, panel.laid, panel.minimum, False)
        return cls(panel.tops, previous.mover if previous is not None else None, 0, 0, panel.over)


# ---- measurements --------------------------------------------------------------------------------------------------


@dataclass
class Sample:
    at: float  # seconds since the window opened
    rss_kb: int
    active: int
    actions: int


@dataclass
class Stats:
    latency: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))  # command -> seconds
    complete: list[float] = field(default_factory=list)  # to the hand followup or DM the action brings
    ages: list[int] = field(default_factory=list)  # moves the game had before each measured /play or /endturn
    expired: int = 0
    deferred: int = 0  # answered in time with a deferral, filled in later
    lost: int = 0  # no answer at all within ANSWER_TIMEOUT
    games_finished: int = 0

    @property
    def actions(self) -> int:
        return sum(len(values) for values in self.latency.values()) + self.expired + self.lost


def percentile(values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile (the p99 of 100 values is the 99th smallest)."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    rank = max(1, -(-len(ordered) * fraction // 1))
    return ordered[int(rank) - 1]


def read_status(pid: int) -> dict[str, int]:
    """The kB figures of /proc/<pid>/status (VmRSS, VmHWM, RssAnon, ...)."""
    figures: dict[str, int] = {}
    with open(f"/proc/{pid}/status", encoding="ascii") as file:
        for line in file:
            key, _, value = line.partition(":")
            parts = value.split()
            if len(parts) == 2 and parts[1] == "kB":
                figures[key] = int(parts[0])
    return figures


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as file:
        fields = file.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bots_cpu(bots: Sequence[BotProcess]) -> float:
    return sum(cpu_seconds(each.pid) for each in bots)


def machine_busy_seconds() -> float:
    """CPU time all processes of the machine used, summed over its CPUs (from /proc/stat)."""
    with open("/proc/stat", encoding="ascii") as file:
        fields = [int(value) for value in file.readline().split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields[:8]
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def filesystem_of(path: Path) -> str:
    """The type of the filesystem holding ``path`` (ext4, tmpfs, ...): fsync costs differ a lot."""
    best, kind = Path("/"), "?"
    with contextlib.suppress(OSError), open("/proc/mounts", encoding="utf-8") as file:
        for line in file:
            mount, fstype = line.split()[1:3]
            point = Path(mount)
            if (point == path or point in path.parents) and len(point.parts) >= len(best.parts):
                best, kind = point, fstype
    return kind


# ---- the fake Discord and the players ------------------------------------------------------------------------------


class Player:
    """One simulated member: knows only their own hand, from DMs and ephemeral followups."""

    def __init__(self, member: Member) -> None:
        self.member = member
        self.id = member.id
        self.hand: list[int] = []
        self.dms = 0
        self.dm_at = 0.0
        self._dm_waiters: list[tuple[int, asyncio.Future[float]]] = []
        # The bot keeps one DM per game and edits it; DMs come in the background, so a late edit of the previous
        # game's DM must not pass for the new game's hand.
        self.game_dm: int | None = None

    def new_game(self) -> None:
        self.game_dm = None

    def on_dm(self, content: str, at: float, message_id: int, created: bool) -> None:
        cards = hand_in(content)
        if cards is None:
            return
        if created and self.game_dm is None:
            self.game_dm = message_id
        elif message_id != self.game_dm:
            return
        self.hand, self.dms, self.dm_at = cards, self.dms + 1, at
        for seen, waiter in self._dm_waiters:
            if self.dms > seen and not waiter.done():
                waiter.set_result(at)

    async def wait_dm(self, seen: int) -> float:
        """Wait for a hand DM after the first ``seen`` ones; returns when it arrived (the fake's loop time)."""
        if self.dms > seen:
            return self.dm_at
        waiter: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        entry = (seen, waiter)
        self._dm_waiters.append(entry)
        try:
            return await asyncio.wait_for(waiter, ANSWER_TIMEOUT)
        finally:
            self._dm_waiters.remove(entry)


class Pending:
    """One slash command in flight: its answer, and what the bot sends through its token afterwards (the message that
    fills a deferral in, the ephemeral followup a /play may bring)."""

    def __init__(self, rec: InteractionRecord) -> None:
        loop = asyncio.get_running_loop()
        self.rec = rec
        self.answered: asyncio.Future[None] = loop.create_future()
        self.news = asyncio.Event()  # set whenever the bot sends, edits or deletes through the token

    async def until(
        self, found: Callable[[], Message | None], patience: float = ANSWER_TIMEOUT
    ) -> tuple[Message, float] | None:
        """Wait until ``found()`` gives a message; it and when (the fake's loop time), or None after ``patience`` s."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + patience
        while (message := found()) is None:
            self.news.clear()
            remaining = deadline - loop.time()
            if remaining <= 0:
                return None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.news.wait(), remaining)
        return message, loop.time()

    def filled(self) -> Message | None:
        """What the player reads as the answer to a deferral, once the bot filled it in (a private answer to a public
        "thinking" deletes it and comes as a followup)."""
        original = self.rec.original
        if original is not None and not original.deleted:
            return None if original.loading else original
        return next((message for message in self.rec.followups if not message.deleted), None)


@dataclass
class Answer:
    """What a player sees as the answer: the response itself, or what filled its deferral in."""

    content: str
    embeds: list[Any]
    ephemeral: bool
    message: Message | None


class Lookout:
    """Tells the simulated players the moment the bot answers or DMs them (no polling): a request listener on the
    fake Discord, which still validates and records every request exactly as in the tests."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.pending: dict[str, Pending] = {}  # interaction token -> the command in flight
        self.dm_owner: dict[int, Player] = {}  # DM channel id -> its user
        fake.add_request_listener(self.on_request)

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    def on_request(self, request: RequestRecord) -> None:
        route, method = request.route, request.method
        if route == INTERACTION_CALLBACK:
            # An expired interaction is answered too: its rec.response stays None.
            pending = self.pending.get(request.params["token"])
            if pending is not None and not pending.answered.done():
                pending.answered.set_result(None)
        elif route in (FOLLOWUP, WEBHOOK_MESSAGE):
            pending = self.pending.get(request.params["token"])
            if pending is not None:
                pending.news.set()
        elif (route, method) in ((CHANNEL_MESSAGES, "POST"), (CHANNEL_MESSAGE, "PATCH")) and request.ok:
            # The bot keeps one DM per game current by editing it: an edit is a new hand for the player.
            player = self.dm_owner.get(int(request.params["channel_id"]))
            if player is not None:
                data = request.response
                player.on_dm(str(data.get("content") or ""), self.now(), int(data["id"]), created=method == "POST")

    async def send(self, command: str, player: Player, channel: Channel, options: dict[str, Any] | None) -> Pending:
        """Dispatch a slash command without waiting for the answer."""
        rec = await self.fake.invoke(command, user=player.member, channel=channel, options=options, wait=False)
        # invoke(wait=False) does not suspend, so the bot cannot have answered before this is registered.
        pending = Pending(rec)
        self.pending[rec.token] = pending
        return pending


# ---- the games -----------------------------------------------------------------------------------------------------


class Bench:
    """What the games share: the fake, the measured window and its figures."""

    def __init__(self, lookout: Lookout, think: float, rng: random.Random) -> None:
        self.lookout = lookout
        self.fake = lookout.fake
        self.think = think
        self.rng = rng
        self.stats = Stats()
        self.measuring = False
        self.stopping = False
        self.active = 0
        self.problems: Counter[str] = Counter()
        self.target = 0  # with --actions: the window closes after this many
        self.reached = asyncio.Event()
        self.gate = asyncio.Event()  # cleared: players finish what they are doing, then wait
        self.all_open = asyncio.Event()  # set once every game has been opened
        self.gate.set()
        self.in_flight = 0
        self.idle = asyncio.Event()  # set while no game is in the middle of an action
        self.idle.set()

    @contextlib.contextmanager
    def busy(self) -> Iterator[None]:
        """Around one action of a game, with what it brings (followup, DM), so that the run can wait for quiet."""
        self.in_flight += 1
        self.idle.clear()
        try:
            yield
        finally:
            self.in_flight -= 1
            if not self.in_flight:
                self.idle.set()

    def counted(self) -> None:
        if self.target and self.stats.actions >= self.target:
            self.reached.set()

    def pause(self) -> float:
        return self.rng.expovariate(1 / self.think) if self.think > 0 else 0.0


@dataclass
class Outcome:
    status: str  # "ok", "refused" (an ephemeral error), "expired" (after Discord's 3 s), "lost" (no answer)
    rec: InteractionRecord
    answer: Answer | None


class Game:
    """One channel: opens a game of The Game, plays it with its players, opens the next one when it ends."""

    def __init__(self, bench: Bench, channel: Channel, players: list[Player]) -> None:
        self.bench = bench
        self.lookout = bench.lookout
        self.channel = channel
        self.players = players
        self.by_id = {player.id: player for player in players}
        self.board: Position | None = None
        self.running = False
        self.moves = 0  # accepted /play and /endturn of the current game

    async def act(self, command: str, player: Player, options: dict[str, Any] | None = None) -> Outcome:
        """Send one slash command and wait for its answer (and for the hand followup a /play brings). A deferral
        counts as answered in time; the player then waits for what fills it in, as a person would."""
        bench, stats = self.bench, self.bench.stats
        pending = await self.lookout.send(command, player, self.channel, options)
        rec, measured = pending.rec, bench.measuring
        try:
            try:
                await asyncio.wait_for(asyncio.shield(pending.answered), ANSWER_TIMEOUT)
            except TimeoutError:
                stats.lost += int(measured)
                bench.problems[f"/{command}: no answer within {ANSWER_TIMEOUT:.0f} s"] += 1
                return Outcome("lost", rec, None)
            response = rec.response
            if response is None:
                stats.expired += int(measured)
                bench.problems[f"/{command}: answered after Discord's 3 s deadline"] += 1
                return Outcome("expired", rec, None)
            if measured:
                stats.latency[command].append(response.latency)
                bench.counted()
                if command in ("play", "endturn"):
                    stats.ages.append(self.moves)
            answer = Answer(response.content, response.embeds, response.ephemeral, response.message)
            answered_after = response.latency
            if response.deferred:
                stats.deferred += int(measured)
                filled = await pending.until(pending.filled, FILL_TIMEOUT)
                if filled is None:
                    stats.lost += int(measured)
                    bench.problems[f"/{command}: deferred, never filled in within {FILL_TIMEOUT:.0f} s"] += 1
                    return Outcome("lost", rec, None)
                message, at = filled
                answer = Answer(message.content, message.embeds, message.ephemeral, message)
                answered_after = at - rec.created_at
            # A card laid mid-turn is answered privately with the player's hand panel (the board is edited in place).
            cards = hand_in(answer.content)
            panel = answer.ephemeral and command == "play" and cards is not None
            if answer.ephemeral and not panel and command not in ("hand", "rules", "join"):  # /join answers privately
                bench.problems[f"/{command} refused: {answer.content}"] += 1
                return Outcome("refused", rec, answer)
            board = board_in(answer.embeds)
            if board is not None:
                self.board = Position.of_board(board)
            if command in ("play", "endturn"):
                self.moves += 1
            if panel:
                assert cards is not None
                player.hand = cards
                self.board = Position.after_panel(answer.content, player.id, self.board)
                if measured:
                    stats.complete.append(answered_after)
            elif command == "play" and self.board is not None and not self.board.over:
                shown = answer.message
                followup = await pending.until(
                    lambda: next((m for m in rec.followups if m is not shown and not m.deleted), None)
                )
                if followup is None:
                    bench.problems["the hand followup after /play did not arrive"] += 1
                    return Outcome("lost", rec, answer)
                cards = hand_in(followup[0].content)
                if cards is not None:
                    player.hand = cards
                if measured:
                    stats.complete.append(followup[1] - rec.created_at)
            return Outcome("ok", rec, answer)
        finally:
            self.lookout.pending.pop(rec.token, None)

    async def open(self) -> bool:
        """/newgame, /join for the others, /start, then every hand by DM. False if any of it failed."""
        host, *others = self.players
        for player in self.players:
            player.new_game()
        for command, player in [("newgame", host), *(("join", other) for other in others)]:
            if (await self.act(command, player)).status != "ok":
                return False
        # Counted only now: the hand DM of this game is the first DM created after /newgame.
        seen = {player.id: player.dms for player in self.players}
        if (await self.act("start", host)).status != "ok":
            return False
        try:
            for player in self.players:
                await player.wait_dm(seen[player.id])
        except TimeoutError:
            self.bench.problems["a hand DM after /start did not arrive"] += 1
            return False
        self.running = True
        self.moves = 0
        self.bench.active += 1
        return True

    def finish(self) -> None:
        if self.running:
            self.running = False
            self.bench.active -= 1
            self.bench.stats.games_finished += int(self.bench.measuring)

    async def turn(self) -> bool:
        """One action by the player to move: lay the card that costs least, or end the turn. False on trouble."""
        board = self.board
        assert board is not None
        player = self.by_id[board.mover] if board.mover is not None else self.players[0]
        # No minimum shown: anyone may lay the first card, so one must be laid.
        move = choose(player.hand, board.tops, board.laid, board.minimum or 1, slack=PLAY_ON_COST)
        if move is not None:
            return (await self.act("play", player, {"card": move.card, "pile": move.pile})).status == "ok"
        seen = player.dms
        outcome = await self.act("endturn", player)
        if outcome.status != "ok" or outcome.answer is None:
            return False
        if "drew" in outcome.answer.content and self.board is not None and not self.board.over:
            try:
                arrived = await player.wait_dm(seen)
            except TimeoutError:
                self.bench.problems["the hand DM after /endturn did not arrive"] += 1
                return False
            if self.bench.measuring:
                self.bench.stats.complete.append(arrived - outcome.rec.created_at)
        return True

    async def resync(self) -> None:
        """After trouble, look at the board and at every hand again, as a confused player would."""
        outcome = await self.act("board", self.players[0])
        if outcome.status != "ok":
            self.board = None
            return
        for player in self.players:
            hand = await self.act("hand", player)
            cards = None if hand.answer is None else hand_in(hand.answer.content)
            if cards is not None:
                player.hand = cards

    async def run(self, openings: asyncio.Semaphore) -> None:
        bench = self.bench
        while not bench.stopping:
            self.board = None
            await bench.gate.wait()
            async with openings:
                with bench.busy():
                    opened = await self.open()
            if not opened:
                with bench.busy():
                    await self.act("endgame", self.players[0])  # free the channel, then try again
                await asyncio.sleep(1)
                continue
            # Play starts once every game is open: games playing flat out (--think 0) would otherwise starve the
            # openings of the rest.
            await bench.all_open.wait()
            while self.board is not None and not self.board.over:
                await asyncio.sleep(bench.pause())
                await bench.gate.wait()
                if bench.stopping:
                    return
                with bench.busy():
                    if not await self.turn():
                        await self.resync()
            self.finish()
            if self.board is None:
                with bench.busy():
                    await self.act("endgame", self.players[0])


# ---- the bot process -----------------------------------------------------------------------------------------------


class BotProcess:
    """``benchmarks/_launch_bot.py`` in a child process, logging to a file."""

    def __init__(
        self,
        workdir: Path,
        fake: FakeDiscord,
        options: dict[str, Any],
        log_level: str,
        database_url: str | None = None,
        shard: tuple[int, int] | None = None,
    ) -> None:
        self.workdir = workdir
        suffix = "" if shard is None else f"-{shard[0]}"
        self.log_path = workdir / f"bot{suffix}.log"
        self.stats_path = workdir / f"caches{suffix}.json"
        self.fake = fake
        self.options = options
        self.log_level = log_level
        self.database_url = database_url
        self.shard = shard  # (this process's shard, shard count)
        self.proc: asyncio.subprocess.Process | None = None

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    async def start(self) -> None:
        # The fake listens by now, so its addresses are known.
        env = {
            **os.environ,
            "DISCORD_TOKEN": TOKEN,
            "DATABASE_PATH": str(self.workdir / "bot.sqlite3"),
            "DEV_GUILD_ID": "",
            "LOG_LEVEL": self.log_level,
            "FAKE_DISCORD_API": self.fake.api_url,
            "FAKE_DISCORD_GATEWAY": self.fake.gateway_url,
            "FAKE_DISCORD_CDN": self.fake.cdn_url,
            "BENCH_BOT_OPTIONS": json.dumps(self.options),
            "BENCH_STATS_PATH": str(self.stats_path),
            "DATABASE_URL": self.database_url or "",
            "SHARD_COUNT": "" if self.shard is None else str(self.shard[1]),
            "SHARD_IDS": "" if self.shard is None else str(self.shard[0]),
        }
        with self.log_path.open("wb") as log:
            # The working directory is the temporary one, so no .env of the checkout is loaded.
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, str(LAUNCHER), cwd=self.workdir, env=env, stdout=log, stderr=log
            )

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    async def wait_ready(self) -> None:
        """Wait for the bot's own ``Connected as`` log line (its on_ready)."""
        assert self.proc is not None
        deadline = time.monotonic() + READY_TIMEOUT
        while "Connected as" not in self.log():
            if self.proc.returncode is not None:
                raise RuntimeError(f"the bot exited with {self.proc.returncode}:\n{self.log()[-3000:]}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"the bot was not ready within {READY_TIMEOUT:.0f} s:\n{self.log()[-3000:]}")
            await asyncio.sleep(0.05)

    def rss_kb(self) -> int:
        return read_status(self.pid)["VmRSS"]

    async def steady_rss_kb(self) -> int:
        """The median of five readings over half a second."""
        readings = []
        for _ in range(5):
            readings.append(self.rss_kb())
            await asyncio.sleep(0.1)
        return int(statistics.median(readings))

    async def caches(self) -> dict[str, Any]:
        """The sizes of discord.py's caches, written by the launcher on SIGUSR1."""
        self.stats_path.unlink(missing_ok=True)
        os.kill(self.pid, signal.SIGUSR1)
        # A snapshot of every traced allocation (BENCH_TRACEMALLOC) takes seconds.
        for _ in range(3000 if os.environ.get("BENCH_TRACEMALLOC") else 100):
            if self.stats_path.exists():
                data: dict[str, Any] = json.loads(self.stats_path.read_text(encoding="utf-8"))
                return data
            await asyncio.sleep(0.02)
        return {}

    async def stop(self) -> int | None:
        """SIGTERM, as a service manager would; the exit code, or None if it had to be killed."""
        if self.proc is None or self.proc.returncode is not None:
            return None if self.proc is None else self.proc.returncode
        self.proc.send_signal(signal.SIGTERM)
        try:
            return await asyncio.wait_for(self.proc.wait(), EXIT_TIMEOUT)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()
            return None


# ---- the run -------------------------------------------------------------------------------------------------------


@dataclass
class Result:
    args: argparse.Namespace
    options: dict[str, Any]
    window: float
    stats: Stats
    rss_ready: int
    rss_open: int
    rss_start: Sample
    rss_end: Sample
    rss_quiet: Sample
    status_end: dict[str, int]
    samples: list[Sample]
    requests_dm: int
    requests_other: Counter[str]
    requests_all: int  # interaction callbacks and webhooks included
    requests_by_route: Counter[str]  # every request of the window, interaction endpoints included
    bot_cpu: float
    own_cpu: float
    others_cpu: float  # every other process of the machine
    caches_ready: dict[str, Any]
    caches_start: dict[str, Any]
    caches_end: dict[str, Any]
    caches_window: dict[str, Any]  # as the measured window closed
    stalls: list[float]
    gc_pauses: list[float]
    problems: Counter[str]
    log_problems: list[str]
    exit_code: int | None
    unknown_requests: int
    filesystem: str
    database: str = "SQLite"
    processes: int = 1


def classify(requests: Sequence[RequestRecord], dm_channels: set[int]) -> tuple[int, Counter[str]]:
    """Requests that are not interaction callbacks or webhooks: (DM requests, the others by route)."""
    dms, other = 0, Counter[str]()
    for request in requests:
        if request.interaction_endpoint:
            continue
        parts = request.path.strip("/").split("/")
        to_dm = len(parts) >= 2 and parts[0] == "channels" and parts[1].isdigit() and int(parts[1]) in dm_channels
        if request.route == "/users/@me/channels" or to_dm:
            dms += 1
        else:
            other[f"{request.method} {request.route or request.path}"] += 1
    return dms, other


async def sample_memory(bot: BotProcess, bench: Bench, started: float, into: list[Sample]) -> None:
    loop = asyncio.get_running_loop()
    while True:
        into.append(Sample(loop.time() - started, bot.rss_kb(), bench.active, bench.stats.actions))
        await asyncio.sleep(0.5)


class Watch:
    """Stalls of this process's event loop, which runs the fake Discord: they would show up as the bot's latency.

    The fake keeps every message and request, so a full garbage collection here would scan a heap that only
    grows; ``gc.freeze()`` every few hundred milliseconds keeps those records out of the collector's way.
    """

    PERIOD = 0.01

    def __init__(self) -> None:
        self.stalls: list[float] = []
        self.gc_pauses: list[float] = []
        self._gc_started = 0.0

    def on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
        else:
            self.gc_pauses.append(time.perf_counter() - self._gc_started)

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        gc.callbacks.append(self.on_gc)
        try:
            while True:
                gc.freeze()
                for _ in range(25):
                    before = loop.time()
                    await asyncio.sleep(self.PERIOD)
                    self.stalls.append(loop.time() - before - self.PERIOD)
        finally:
            gc.callbacks.remove(self.on_gc)


def throwaway_postgres(args: argparse.Namespace) -> PostgresServer | None:
    """The temporary PostgreSQL server ``--database-url throwaway`` asks for (None for any other URL)."""
    if args.database_url != "throwaway":
        return None
    folder = postgres_bindir()
    if folder is None:
        raise SystemExit("--database-url throwaway needs PostgreSQL's binaries (apt-get install postgresql)")
    return PostgresServer.start(folder, durable=True, parent=args.db_dir)


async def run(args: argparse.Namespace, options: dict[str, Any]) -> Result:
    loop = asyncio.get_running_loop()
    workdir = Path(tempfile.mkdtemp(prefix="cardtable-load-", dir=args.db_dir))
    server = throwaway_postgres(args)
    database_url = (await server.new_database()) if server is not None else args.database_url
    fake = FakeDiscord(bot_name="CardTable", shard_count=args.processes, latency=args.discord_latency)
    lookout = Lookout(fake)
    bench = Bench(lookout, args.think, random.Random(args.seed))
    shards = [None] if args.processes == 1 else [(shard, args.processes) for shard in range(args.processes)]
    bots = [BotProcess(workdir, fake, options, args.log_level, database_url, shard) for shard in shards]
    bot = bots[0]
    tasks: list[asyncio.Task[None]] = []
    watch = Watch()
    watcher = asyncio.create_task(watch.run())
    try:
        await fake.start()
        # The world exists before the bot connects, so it all arrives in GUILD_CREATE and is part of "idle".
        if args.processes == 1:
            guilds = [fake.add_guild("Load test")]
        else:
            guilds = [fake.add_guild(f"Load test {shard}", shard=shard) for shard in range(args.processes)]
        games: list[Game] = []
        for number in range(1, args.games + 1):
            guild = guilds[number % len(guilds)]
            channel = fake.add_text_channel(guild, f"table-{number}")
            players = [Player(fake.add_member(guild, f"player-{number}-{seat}")) for seat in range(1, args.players + 1)]
            for player in players:
                lookout.dm_owner[fake.dm_channel(player.member).id] = player
            games.append(Game(bench, channel, players))

        for each in bots:
            await each.start()
        for each in bots:
            await each.wait_ready()
        await fake.wait_synced()
        await asyncio.sleep(1.0)  # let the start-up settle
        rss_ready = await bot.steady_rss_kb()
        caches_ready = await bot.caches()
        print(f"bot ready (pid {bot.pid}, VmRSS {rss_ready / 1024:.1f} MB); opening {args.games} games...", flush=True)

        openings = asyncio.Semaphore(args.open_concurrency)
        tasks = [asyncio.create_task(game.run(openings), name=f"game-{n}") for n, game in enumerate(games)]
        # Opening takes about 50 ms of the bot's CPU per game: a deadline that grows with the games asked for.
        deadline = loop.time() + 120 + args.games * 0.1
        while bench.active < args.games:
            if loop.time() > deadline:
                raise RuntimeError(f"only {bench.active} of {args.games} games started: {dict(bench.problems)}")
            await asyncio.sleep(0.05)
        # Every game open and none played yet: what an idle running game costs (issue 39: at most 5 KB).
        await asyncio.wait_for(bench.idle.wait(), ANSWER_TIMEOUT * 6)
        await asyncio.sleep(max(1.0, args.idle_wait))
        rss_open = await bot.steady_rss_kb()
        print(f"{args.games} games open and idle: VmRSS {rss_open / 1024:.1f} MB", flush=True)
        bench.all_open.set()
        print(f"{args.games} games running; warming up for {args.warmup:g} s...", flush=True)
        await asyncio.sleep(args.warmup)

        what = f"{args.actions} actions" if args.actions else f"{args.seconds:g} s"
        print(f"measuring for {what}...", flush=True)
        samples: list[Sample] = []
        caches_start = await bot.caches()
        watch.stalls.clear()
        watch.gc_pauses.clear()
        first_request, bot_cpu, own_cpu = len(fake.requests), bots_cpu(bots), time.process_time()
        machine_cpu = machine_busy_seconds()
        started = loop.time()
        bench.measuring = True
        sampler = asyncio.create_task(sample_memory(bot, bench, started, samples))
        if args.actions:
            bench.target = args.actions
            await bench.reached.wait()
        else:
            await asyncio.sleep(args.seconds)
        status_end = read_status(bot.pid)
        caches_window = await bot.caches()
        rss_end = Sample(loop.time() - started, status_end["VmRSS"], bench.active, bench.stats.actions)
        bench.measuring = False
        window = loop.time() - started
        last_request = len(fake.requests)
        bot_cpu, own_cpu = bots_cpu(bots) - bot_cpu, time.process_time() - own_cpu
        others_cpu = machine_busy_seconds() - machine_cpu - bot_cpu - own_cpu
        sampler.cancel()
        stalls, gc_pauses = list(watch.stalls), list(watch.gc_pauses)

        # Memory with the games still open but nothing in flight: what the games themselves hold.
        bench.gate.clear()
        # An action in flight may wait for its answer, then for the hand it brings, then resync (/board, /hand ...):
        # saturated (--think 0, 1000 games) that takes more than twice one answer's timeout.
        await asyncio.wait_for(bench.idle.wait(), ANSWER_TIMEOUT * 6)
        await asyncio.sleep(args.quiet_wait)
        rss_quiet = Sample(loop.time() - started, await bot.steady_rss_kb(), bench.active, bench.stats.actions)
        caches_end = await bot.caches()

        bench.stopping = True
        bench.gate.set()
        print("stopping the games...", flush=True)
        done, late = await asyncio.wait(tasks, timeout=ANSWER_TIMEOUT * 3)
        for task in late:
            task.cancel()
        for task in done:
            if task.exception() is not None:
                bench.problems[f"a game's player crashed: {task.exception()!r}"] += 1
        window_requests = fake.requests[first_request:last_request]
        requests_dm, requests_other = classify(window_requests, set(lookout.dm_owner))
        exit_codes = [await each.stop() for each in bots]
        exit_code = next((code for code in exit_codes if code != 0), 0)
        log_problems = [
            line for each in bots for line in each.log().splitlines() if " ERROR " in line or " WARNING " in line
        ]
        return Result(
            args=args,
            options=options,
            window=window,
            stats=bench.stats,
            rss_ready=rss_ready,
            rss_open=rss_open,
            rss_start=samples[0],
            rss_end=rss_end,
            rss_quiet=rss_quiet,
            status_end=status_end,
            samples=samples,
            requests_dm=requests_dm,
            requests_other=requests_other,
            requests_all=len(window_requests),
            requests_by_route=Counter(f"{r.method} {r.route or r.path}" for r in window_requests),
            bot_cpu=bot_cpu,
            own_cpu=own_cpu,
            others_cpu=others_cpu,
            caches_ready=caches_ready,
            caches_start=caches_start,
            caches_end=caches_end,
            caches_window=caches_window,
            stalls=stalls,
            gc_pauses=gc_pauses,
            problems=bench.problems,
            log_problems=log_problems,
            exit_code=exit_code,
            unknown_requests=len(fake.unknown_requests),
            filesystem=filesystem_of(workdir),
            database="SQLite" if database_url is None else "PostgreSQL",
            processes=len(bots),
        )
    finally:
        for task in [*tasks, watcher]:
            task.cancel()
        await asyncio.gather(*tasks, watcher, return_exceptions=True)
        for each in bots:
            await each.stop()
        await fake.stop()
        if server is not None:
            server.stop()
        if args.keep:
            print(f"kept {workdir} (bot.log, bot.sqlite3)")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


# ---- the report ----------------------------------------------------------------------------------------------------


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def report(result: Result) -> bool:
    """Print the figures; True if every target is met and the run was clean."""
    args, stats = result.args, result.stats
    latencies = [value for values in stats.latency.values() for value in values]
    actions = stats.actions or math.nan  # an idle run (--seconds with a huge --think) makes none
    p99 = percentile(latencies, 0.99) * 1000
    per_action = (result.requests_dm + sum(result.requests_other.values())) / actions
    games = result.rss_quiet.active
    per_game = (result.rss_quiet.rss_kb - result.rss_ready) / games if games else float("nan")
    window_growth = result.rss_end.rss_kb - result.rss_start.rss_kb
    idle_per_game = (result.rss_open - result.rss_ready) / args.games
    ms = 1000.0
    checks = {
        "p99": p99 < TARGET_P99_MS,
        "requests": per_action <= TARGET_REQUESTS_PER_ACTION,
        "memory": per_game < TARGET_KB_PER_GAME,
        "idle": idle_per_game <= TARGET_KB_PER_IDLE_GAME,
    }
    # (figure, value, target, check)
    rows: list[tuple[str, str, str, str]] = [
        (
            "slash command -> answer: median",
            f"{(statistics.median(latencies) if latencies else math.nan) * ms:.1f} ms",
            "",
            "",
        ),
        ("                          p90", f"{percentile(latencies, 0.90) * ms:.1f} ms", "", ""),
        ("                          p99", f"{p99:.1f} ms", f"< {TARGET_P99_MS:g} ms", "p99"),
        ("                          max", f"{max(latencies, default=math.nan) * ms:.1f} ms", "", ""),
    ]
    if stats.complete:
        complete = stats.complete
        rows.append(
            (
                "  -> hand followup/DM: median, p99",
                f"{statistics.median(complete) * ms:.1f}, {percentile(complete, 0.99) * ms:.1f} ms",
                "",
                "",
            )
        )
    rows += [
        ("actions per second", f"{actions / result.window:.1f}", "", ""),
        ("other REST requests per action", f"{per_action:.3f}", f"<= {TARGET_REQUESTS_PER_ACTION:g}", "requests"),
        ("  DMs (open DM channel, send or edit)", f"{result.requests_dm / actions:.3f}", "", ""),
        ("  anything else", f"{sum(result.requests_other.values()) / actions:.3f}", "", ""),
        ("all REST requests per action", f"{result.requests_all / actions:.3f}", "", ""),
        ("bot VmRSS after ready, no game", f"{result.rss_ready / 1024:.1f} MB", "", ""),
        (f"  {args.games} games opened, none played yet", f"{result.rss_open / 1024:.1f} MB", "", ""),
        ("memory per idle game", f"{idle_per_game:.1f} KB", f"<= {TARGET_KB_PER_IDLE_GAME:g} KB", "idle"),
        (f"  under load, {result.rss_end.active} games", f"{result.rss_end.rss_kb / 1024:.1f} MB", "", ""),
        (f"  {games} games open, none in flight", f"{result.rss_quiet.rss_kb / 1024:.1f} MB", "", ""),
        ("memory per active game", f"{per_game:.1f} KB", f"< {TARGET_KB_PER_GAME:g} KB", "memory"),
        (
            "  kept after the load, per game",
            f"{(result.rss_quiet.rss_kb - result.rss_open) / args.games:.1f} KB",
            "",
            "",
        ),
        ("VmRSS growth under load", f"{window_growth / actions * 1000:.0f} KB per 1000 actions", "", ""),
    ]
    think = f"{args.think:g} s mean think time" if args.think > 0 else "no think time (flat out)"
    print()
    print(
        f"The Game under load: {args.games} games x {args.players} players, {think}, "
        f"{result.window:.1f} s measured, {actions} actions"
    )
    where = f"database on {result.filesystem}" if result.database == "SQLite" else "PostgreSQL"
    if result.processes > 1:
        where += f", {result.processes} bot processes (one shard each; memory and caches: the first)"
    if args.discord_latency is not None:
        low, high = args.discord_latency
        where += f", Discord answering in {low * 1000:g}-{high * 1000:g} ms"
    print(
        f"Python {platform.python_version()}, discord.py {discord.__version__}, {os.cpu_count()} CPUs, "
        f"{where}" + (f", bot options {json.dumps(result.options)}" if result.options else "")
    )
    print()
    label_width = max(len(row[0]) for row in rows)
    value_width = max(len(row[1]) for row in rows)
    print(f"{'':{label_width}}  {'measured':>{value_width}}  target")
    for label, value, target, check in rows:
        mark = verdict(checks[check]) if check else ""
        print(f"{label:<{label_width}}  {value:>{value_width}}  {target:<9} {mark}".rstrip())
    print()
    print("per command (count, median / p99 ms):")
    for command, values in sorted(stats.latency.items(), key=lambda item: -len(item[1])):
        print(
            f"  /{command:<8} {len(values):>7}   {statistics.median(values) * 1000:7.1f} / "
            f"{percentile(values, 0.99) * 1000:7.1f}"
        )
    if result.requests_other:
        print("other REST requests by route:", dict(result.requests_other))
    print("all REST requests per action, by route:")
    for route, count in result.requests_by_route.most_common(8):
        print(f"  {count / actions:6.3f}  {route}")
    print(
        f"CPU in the window: bot {result.bot_cpu / result.window:.0%} of a core "
        f"({result.bot_cpu / actions * 1000:.2f} ms per action), "
        f"this process (fake Discord + players) {result.own_cpu / result.window:.0%}, "
        f"other processes {max(0.0, result.others_cpu) / result.window:.0%}"
    )
    if result.others_cpu / result.window > NOISY_MACHINE:
        print("  WARNING: other processes were busy during the window; the latency figures are not representative")
    if stats.ages:
        print(
            f"game length when the measured moves were sent: {min(stats.ages)}-{max(stats.ages)} moves, "
            f"median {statistics.median(stats.ages):.0f} (a whole game of two is about 130)"
        )
    print(
        f"bot memory at the end: VmHWM {result.status_end.get('VmHWM', 0) / 1024:.1f} MB, "
        f"RssAnon {result.status_end.get('RssAnon', 0) / 1024:.1f} MB; "
        f"{stats.games_finished} games ended and were opened again during the window"
    )
    start, end = result.caches_start, result.caches_end
    if "gc_collections" in start and "gc_collections" in end:
        collections = [e - s for s, e in zip(start["gc_collections"], end["gc_collections"], strict=True)]
        spent = [e - s for s, e in zip(start["gc_total_ms"], end["gc_total_ms"], strict=True)]
        print(
            f"bot garbage collections in the window (generation 0/1/2): {collections[0]}/{collections[1]}/"
            f"{collections[2]}, {sum(spent):.0f} ms in all ({spent[0]:.0f}/{spent[1]:.0f}/{spent[2]:.0f}); "
            f"longest ever {max(end['gc_longest_ms']):.1f} ms"
        )
    if result.stalls:
        pauses = result.gc_pauses or [0.0]
        print(
            f"this process's event loop (the fake): stalls p99 {percentile(result.stalls, 0.99) * 1000:.1f} ms, "
            f"longest {max(result.stalls) * 1000:.1f} ms; its own garbage collections {sum(pauses) * 1000:.0f} ms "
            f"in all, longest {max(pauses) * 1000:.1f} ms"
        )
    if "aiosqlite_hand_offs" in start and "aiosqlite_hand_offs" in result.caches_window:
        hand_offs = result.caches_window["aiosqlite_hand_offs"] - start["aiosqlite_hand_offs"]
        print(f"database round trips (hand-offs to aiosqlite's thread) per action: {hand_offs / actions:.2f}")
    if "tracemalloc_growth" in end:
        print(f"traced Python memory (BENCH_TRACEMALLOC): {end['tracemalloc_kb']} KB; grown most since ready:")
        for line in end["tracemalloc_growth"]:
            print(f"  {line}")
    skip = {
        "gc_collections",
        "gc_total_ms",
        "gc_longest_ms",
        "aiosqlite_hand_offs",
        "tracemalloc_kb",
        "tracemalloc_growth",
    }
    changed = {
        key: f"{result.caches_ready.get(key)} -> {value}"
        for key, value in end.items()
        if key not in skip and value != result.caches_ready.get(key)
    }
    print("bot caches, ready -> end of window:", ", ".join(f"{k} {v}" for k, v in changed.items()) or "unchanged")
    clean = True
    if result.problems:
        clean = False
        print("problems seen by the players:")
        for problem, count in result.problems.most_common(10):
            print(f"  {count:>5} x {problem}")
    if stats.deferred:
        print(f"{stats.deferred} answers were deferrals (the bot was busy), filled in later")
    if stats.expired or stats.lost:
        clean = False
        print(f"{stats.expired} answers came after Discord's 3 s deadline, {stats.lost} never came")
    if result.log_problems:
        clean = False
        print(f"{len(result.log_problems)} warnings/errors in the bot's log, e.g.:")
        for line in result.log_problems[:5]:
            print("  " + line)
    if result.unknown_requests:
        clean = False
        print(f"{result.unknown_requests} requests to routes the fake does not know")
    if result.exit_code != 0:
        clean = False
        print(f"the bot did not exit cleanly on SIGTERM (exit code {result.exit_code})")
    else:
        print("the bot exited cleanly on SIGTERM")
    return clean and all(checks.values())


# ---- the command line ----------------------------------------------------------------------------------------------


def latency_range(text: str) -> tuple[float, float]:
    low, _, high = text.partition(",")
    return float(low) / 1000, float(high or low) / 1000


def bot_option(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep or not key.isidentifier():
        raise argparse.ArgumentTypeError(f"expected KEY=JSON, like max_messages=null, not {text!r}")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError as error:
        raise argparse.ArgumentTypeError(f"the value of {key} is not JSON: {error}") from None


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=200, help="games played at once (default 200)")
    parser.add_argument("--players", type=int, default=2, choices=range(1, 6), help="players per game (default 2)")
    length = parser.add_mutually_exclusive_group()
    length.add_argument("--seconds", type=float, default=60.0, help="length of the measured window (default 60)")
    length.add_argument("--actions", type=int, default=0, help="measure this many actions instead of a time")
    parser.add_argument(
        "--think", type=float, default=1.0, help="mean pause of a player before each action, s (default 1; 0: none)"
    )
    parser.add_argument(
        "--idle-wait",
        type=float,
        default=0.0,
        help="seconds the opened games are left idle before their memory is read (default 0: at once)",
    )
    parser.add_argument(
        "--quiet-wait",
        type=float,
        default=0.5,
        help="seconds after the load before the memory of the open games is read (default 0.5)",
    )
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds played before measuring (default 5)")
    parser.add_argument("--open-concurrency", type=int, default=20, help="games being opened at once (default 20)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' think times")
    parser.add_argument(
        "--discord-latency",
        type=latency_range,
        default=None,
        metavar="LOW,HIGH",
        help="answer every request to the fake Discord after a delay between these, in ms (real Discord: about 30-150)",
    )
    parser.add_argument(
        "--bot-option",
        type=bot_option,
        action="append",
        default=[],
        metavar="KEY=JSON",
        help="extra Bot(...) option, to try a change to bot.py, e.g. max_messages=1000 (repeatable)",
    )
    parser.add_argument("--log-level", default="INFO", help="the bot's LOG_LEVEL (default INFO, as in production)")
    parser.add_argument("--db-dir", default=None, help="where the temporary database goes (default: $TMPDIR)")
    parser.add_argument(
        "--database-url",
        default=None,
        metavar="URL",
        help="run the bot on this PostgreSQL database (its tables must be empty), or 'throwaway': a temporary server",
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="bot processes, one shard each (default 1; more need --database-url)"
    )
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (bot log, database)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.actions < 0 or args.seconds <= 0 or args.think < 0:
        parser.error("--games must be positive, --seconds positive, --actions and --think not negative")
    if args.processes < 1 or (args.processes > 1 and not args.database_url):
        parser.error("--processes must be positive, and more than one needs a shared --database-url")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    options = dict(args.bot_option)
    result = asyncio.run(run(args, options))
    return 0 if report(result) else 1


if __name__ == "__main__":
    sys.exit(main())
