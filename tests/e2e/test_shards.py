"""Two bot processes, one PostgreSQL: ``SHARD_COUNT=2`` and one shard each, the real bot (``bot.main()``) in each,
against the fake Discord routing every guild to its shard (and DMs to shard 0).

Whole games of No Thanks! run in guilds of both shards at once; the two processes click on one game at the same
moment (the fake delivers one click through each shard, as Discord may during a rolling restart), and the move log
applies exactly one per position; one process is killed with SIGKILL in the middle of a game while the other plays
on, and its games go on when it comes back.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from storage import GameRecord
from storage.postgres import PostgresStorage
from tests.fake_discord import Channel, FakeDiscord, Member, Message
from tests.players import public
from tests.postgres import PostgresServer

LAUNCHER = Path(__file__).resolve().parents[2] / "benchmarks" / "_launch_bot.py"
READY_TIMEOUT = 30.0


class BotProcess:
    """``bot.main()`` in a child process, running ``shard`` of two, logging to a file."""

    def __init__(self, fake: FakeDiscord, database_url: str, shard: int, folder: Path) -> None:
        self.fake, self.database_url, self.shard, self.folder = fake, database_url, shard, folder
        self.log_path = folder / f"shard-{shard}.log"
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        env = {
            **os.environ,
            "DISCORD_TOKEN": "shard-token",
            "DATABASE_URL": self.database_url,
            "DATABASE_PATH": str(self.folder / "unused.sqlite3"),
            "SHARD_COUNT": "2",
            "SHARD_IDS": str(self.shard),
            "DEV_GUILD_ID": "",
            "LOG_LEVEL": "INFO",
            "FAKE_DISCORD_API": self.fake.api_url,
            "FAKE_DISCORD_GATEWAY": self.fake.gateway_url,
            "FAKE_DISCORD_CDN": self.fake.cdn_url,
        }
        with self.log_path.open("ab") as log:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, str(LAUNCHER), cwd=self.folder, env=env, stdout=log, stderr=log
            )

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    async def wait_ready(self, times: int = 1) -> None:
        """Until the bot logged ``Connected as`` (its on_ready) ``times`` times in all."""
        assert self.proc is not None
        deadline = time.monotonic() + READY_TIMEOUT
        while self.log().count("Connected as") < times:
            if self.proc.returncode is not None:
                raise AssertionError(f"shard {self.shard} exited with {self.proc.returncode}:\n{self.log()[-3000:]}")
            if time.monotonic() > deadline:
                raise AssertionError(f"shard {self.shard} was not ready in time:\n{self.log()[-3000:]}")
            await asyncio.sleep(0.05)

    async def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()  # SIGKILL: no goodbye, no closing of the database
        await self.proc.wait()

    async def stop(self) -> int | None:
        if self.proc is None or self.proc.returncode is not None:
            return None if self.proc is None else self.proc.returncode
        self.proc.send_signal(signal.SIGTERM)
        try:
            return await asyncio.wait_for(self.proc.wait(), 10)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()
            return None


@dataclass
class Table:
    """A game of No Thanks! in one channel, and the three people playing it."""

    fake: FakeDiscord
    channel: Channel
    players: list[Member]
    shard: int
    storage: PostgresStorage
    game_id: int = 0
    answers: list[Message] = field(default_factory=list)

    async def open(self) -> None:
        host, *others = self.players
        public(await self.fake.invoke("newgame", user=host, channel=self.channel, options={"game": "no_thanks"}))
        for member in others:
            joined = await self.fake.invoke("join", user=member, channel=self.channel)
            assert joined.response is not None
            assert "joined" in joined.response.content, joined.response.content
        public(await self.fake.invoke("start", user=host, channel=self.channel))
        record = await self.storage.open_game(self.channel.id)
        assert record is not None
        assert record.status == "running"
        self.game_id = record.id

    async def record(self) -> GameRecord:
        record = await self.storage.game(self.game_id)
        assert record is not None
        return record

    async def take(self) -> None:
        """The player whose turn it is takes the face-up card (the others are told it isn't their turn)."""
        before = (await self.record()).moves
        for member in self.players:
            answer = await self.fake.invoke("take", user=member, channel=self.channel)
            assert answer.response is not None
            if not answer.response.ephemeral:
                assert (await self.record()).moves == before + 1
                return
        raise AssertionError(f"nobody could take in {self.channel.name}")

    async def play(self, moves: int | None = None) -> None:
        """Take ``moves`` times, or to the end of the game."""
        count = 0
        while (await self.record()).status == "running" and (moves is None or count < moves):
            await self.take()
            count += 1

    def live_board(self) -> Message | None:
        """The newest message of the bot with the game's buttons, if any is up right now."""
        for message in reversed(self.fake.bot_messages(self.channel)):
            if any(button.get("label") == "Take" for button in message.buttons):
                return message
        return None

    async def board(self) -> Message:
        """The board to click. A take answers the click by closing the clicked board and posts the next one right
        after, so between the two no board has buttons: wait for the next one."""
        return await self.fake.wait_for(self.live_board, timeout=10, what=f"a board in {self.channel.name}")


@pytest.fixture
async def shards(postgres_server: PostgresServer, tmp_path: Path) -> AsyncIterator[tuple[FakeDiscord, str]]:
    url = await postgres_server.new_database()
    async with FakeDiscord(bot_name="CardTable", shard_count=2) as fake:
        yield fake, url
        assert not fake.unknown_requests, fake.unknown_requests
        assert not fake.violations, "Discord would refuse:\n" + fake.violation_report()


async def test_two_processes_share_the_games_of_their_shards(shards: tuple[FakeDiscord, str], tmp_path: Path) -> None:
    fake, url = shards
    tables_of_guilds: list[tuple[int, list[Channel], list[Member]]] = []
    for shard in (0, 1, 0, 1):
        guild = fake.add_guild(f"guild on shard {shard}", shard=shard)
        channels = [fake.add_text_channel(guild, f"table-{n}") for n in range(2)]
        members = [fake.add_member(guild, f"{name}-{guild.id % 1000}") for name in ("ana", "ben", "cy")]
        tables_of_guilds.append((shard, channels, members))
    processes = [BotProcess(fake, url, shard, tmp_path) for shard in (0, 1)]
    storage = await PostgresStorage.open(url)
    try:
        await asyncio.gather(*(process.start() for process in processes))
        await asyncio.gather(*(process.wait_ready() for process in processes))
        await fake.wait_ready()
        await fake.wait_synced()
        tables = [
            Table(fake, channel, members, shard, storage)
            for shard, channels, members in tables_of_guilds
            for channel in channels
        ]

        # Whole games in guilds of both shards, all at once.
        await asyncio.gather(*(table.open() for table in tables[:4]))
        await asyncio.gather(*(table.play() for table in tables[:4]))
        for table in tables[:4]:
            record = await table.record()
            assert record.status == "finished", record
            assert record.result is not None
            assert record.moves == 24  # every card of the deck taken, one after another

        # Both processes click on one game at the same moment: one click per shard, on the same board.
        racing = tables[4]
        await racing.open()
        for _ in range(5):
            board = await racing.board()
            before = (await racing.record()).moves
            clicks = [(member, shard) for member in racing.players for shard in (0, 1)]
            answers = await asyncio.gather(
                *(fake.click(board, label="Take", user=member, shard=shard) for member, shard in clicks)
            )
            accepted = [a for a in answers if a.response is not None and not a.response.ephemeral]
            assert len(accepted) == 1, [a.response and a.response.content for a in answers]
            assert (await racing.record()).moves == before + 1
        # Slash commands race too: each one is decided on the position it finds, none twice at one position.
        before = (await racing.record()).moves
        mover = None
        for member in racing.players:
            probe = await fake.invoke("take", user=member, channel=racing.channel)
            if probe.response is not None and not probe.response.ephemeral:
                mover = member
                break
        assert mover is not None
        answers = await asyncio.gather(
            *(fake.invoke("take", user=mover, channel=racing.channel, shard=shard) for shard in (0, 1, 0, 1))
        )
        accepted = [a for a in answers if a.response is not None and not a.response.ephemeral]
        logged = await storage.moves(racing.game_id, after=before)
        assert [m.seq for m in logged] == list(range(before + 1, before + 2 + len(accepted)))
        assert {m.player for m in logged} == {mover.id}

        # One process dies in the middle of a game; the other plays on.
        survivor_table, victim_table = tables[5], tables[6]
        assert (survivor_table.shard, victim_table.shard) == (0, 1)
        await asyncio.gather(survivor_table.open(), victim_table.open())
        await asyncio.gather(survivor_table.play(3), victim_table.play(3))
        await processes[1].kill()
        await survivor_table.play()
        assert (await survivor_table.record()).status == "finished"
        assert (await victim_table.record()).moves == 3
        # It comes back, and its game goes on from the log.
        await processes[1].start()
        await processes[1].wait_ready(times=2)
        await fake.wait_ready()
        await victim_table.play()
        victim = await victim_table.record()
        assert (victim.status, victim.moves) == ("finished", 24)
        for process in processes:
            problems = [line for line in process.log().splitlines() if "ERROR" in line or "Traceback" in line]
            assert not problems, problems
    finally:
        codes = await asyncio.gather(*(process.stop() for process in processes))
        await storage.close()
    assert codes == [0, 0], [process.log()[-2000:] for process in processes]
