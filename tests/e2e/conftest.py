"""End-to-end fixtures: the real bot, unmodified, against the fake Discord in ``tests/fake_discord.py``."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot import Bot, Settings
from engine import GAMES
from engine.game import Setup, decode_moves, replay
from tests.fake_discord import Channel, FakeDiscord, Guild, Member, Message

NAMES = ("ana", "ben", "cy", "dee", "eve", "fay", "gus")


@dataclass
class World:
    """A server with a game channel, a second channel, seven would-be players and a spectator."""

    fake: FakeDiscord
    database_path: Path
    guild: Guild
    channel: Channel
    other_channel: Channel
    players: list[Member]
    spectator: Member
    bots: list[Bot] = field(default_factory=list)

    @asynccontextmanager
    async def bot(self, seed: int = 1) -> AsyncIterator[Bot]:
        """Run a bot on the world's database; entering again after exit is a restart."""
        bot = Bot(
            Settings(token="fake-token", database_path=str(self.database_path)), seed=seed, guild_ready_timeout=0.05
        )
        self.bots.append(bot)
        async with self.fake.run_bot(bot):
            yield bot


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with FakeDiscord(bot_name="CardTable") as fake:
        guild = fake.add_guild("Card Club")
        channel = fake.add_text_channel(guild, "the-table")
        other = fake.add_text_channel(guild, "general")
        players = [fake.add_member(guild, name) for name in NAMES]
        spectator = fake.add_member(guild, "spectator")
        yield World(fake, tmp_path / "data" / "bot.sqlite3", guild, channel, other, players, spectator)
        assert not fake.unknown_requests, fake.unknown_requests


HAND_LINE = re.compile(r"^Your hand:(.*)$", re.MULTILINE)
CHIPS_LINE = re.compile(r"^Your chips: (\d+)$", re.MULTILINE)


def hand_in(text: str) -> list[int] | None:
    """The cards on the ``Your hand:`` line of ``text`` (None if there is no such line)."""
    match = HAND_LINE.search(text)
    return None if match is None else [int(card) for card in re.findall(r"\d+", match.group(1))]


def latest_hand(fake: FakeDiscord, member: Member) -> list[int]:
    """The hand shown by the newest DM to ``member`` that has a ``Your hand:`` line."""
    for message in reversed(fake.dms(member)):
        cards = hand_in(message.content)
        if cards is not None:
            return cards
    raise AssertionError(f"no hand was DMed to {member.name}")


def latest_chips(fake: FakeDiscord, member: Member) -> int:
    for message in reversed(fake.dms(member)):
        match = CHIPS_LINE.search(message.content)
        if match:
            return int(match.group(1))
    raise AssertionError(f"no chip count was DMed to {member.name}")


def public_messages(fake: FakeDiscord, channel: Channel) -> list[Message]:
    return [m for m in fake.channel_messages(channel) if not m.ephemeral]


def saved_game(world: World, channel: Channel | None = None) -> tuple[sqlite3.Row, Any] | None:
    """The channel's newest game as committed, read through a connection of our own: its row, and (once dealt) the
    state its move log replays to."""
    if not world.database_path.exists():
        return None
    db = sqlite3.connect(world.database_path)
    db.row_factory = sqlite3.Row
    try:
        row: sqlite3.Row | None = db.execute(
            "SELECT * FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", ((channel or world.channel).id,)
        ).fetchone()
        if row is None:
            return None
        logged = db.execute("SELECT player, action FROM moves WHERE game_id = ? ORDER BY seq", (row["id"],)).fetchall()
    finally:
        db.close()
    if row["status"] == "lobby" or row["started_at"] is None:
        return row, None
    game = GAMES[row["kind"]]
    setup = Setup(
        tuple(json.loads(row["players"])), row["seed"], frozenset(json.loads(row["variants"])), row["rules_version"]
    )
    return row, replay(game, setup, decode_moves(game, [(p, json.loads(a)) for p, a in logged]))
