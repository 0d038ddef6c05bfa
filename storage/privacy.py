"""Forgetting (issue 33), written once for both databases: a person's data on request, a departed server's data
after its grace period, the hand texts of ended games after their keeping time.

A forgotten person's seats keep their place in every game, under a pseudonym: ``FORMER_BASE`` plus their number in
``former_players``, a positive id no Discord account has (Discord's ids stay below it until about 2084), so the
results and every replay stay as they were, with "a former player" in that seat. Every occurrence of their id in an
ended game's rows (the players, the host, the result, the options, the move log) is rewritten, and the game's results
are derived again from the rewritten row. A game still open keeps their id until it ends (they may still be playing
it; its cache, clock and DMs need it): ``former_players.user_id`` remembers whom to rewrite until then, and is
cleared once no game they sat in before asking is open.

Each operation is one transaction (``_atomic``), so a failure half-way leaves the database as it was.
"""

from __future__ import annotations

import json
import re
from abc import abstractmethod
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from storage.migrations import Session
from storage.records import now
from storage.results import BACKFILL
from storage.rows import Database
from storage.stats import hint_key

T = TypeVar("T")

# Seats of forgotten people: FORMER_BASE + their number (1, 2, ...). 2**63 - 2**31 is past every Discord id until
# about 2084 and leaves room for two thousand million forgotten people below the 64-bit limit.
FORMER_BASE = 2**63 - 2**31
OPEN = "('lobby', 'running')"


def is_former(player: int) -> bool:
    """Whether ``player`` is the seat of somebody who asked to be forgotten."""
    return player > FORMER_BASE


def cutoff(days: float, moment: datetime | None = None) -> str:
    """The time stamp ``days`` before ``moment`` (now), in storage's format, for comparisons with stored stamps."""
    return ((moment or datetime.now(UTC)) - timedelta(days=days)).isoformat(timespec="seconds")


def _swap(text: str, user: int, pseudonym: int) -> str:
    """``text`` (JSON) with every whole-number occurrence of ``user`` (a value, or a key such as a scores key or a
    vote's) written ``pseudonym``. Discord ids have 17 digits or more, so no other number or word contains one."""
    return re.sub(rf"(?<![0-9]){user}(?![0-9])", str(pseudonym), text)


def _text(value: Any) -> str | None:
    return None if value is None else value if isinstance(value, str) else json.dumps(value)


def _sat_in(players: Any, host: Any, user: int) -> bool:
    try:
        seated = json.loads(players) if isinstance(players, str) else players
    except ValueError:
        seated = []
    return host == user or (isinstance(seated, list) and user in seated)


def _game_results(dialect: str, game_id: int) -> str:
    """The statement that derives one ended game's results again (the migration's back-fill, for that game). The id
    is written into it: PostgreSQL's part holds the JSON operator ``?``, which a parameter would be mistaken for."""
    return BACKFILL[dialect].replace("g.started_at IS NOT NULL", f"g.started_at IS NOT NULL AND g.id = {int(game_id)}")


async def _rewrite(db: Session, game_id: int, user: int, pseudonym: int) -> None:
    """Put ``pseudonym`` wherever ``user`` stood in the ended game ``game_id``."""
    rows = await db.fetch(
        f"SELECT players, host_id, result, options FROM games WHERE id = ? AND status NOT IN {OPEN}", game_id
    )
    if not rows:
        return
    players, host, result, options = rows[0]
    # A new revision: a stale copy of the row (a rematch button) then loses its compare-and-swap and reads it again.
    await db.execute(
        "UPDATE games SET players = ?, host_id = ?, result = ?, options = ?, revision = revision + 1 WHERE id = ?",
        _swap(_text(players) or "[]", user, pseudonym),
        pseudonym if host == user else host,
        None if result is None else _swap(_text(result) or "null", user, pseudonym),
        _swap(_text(options) or "{}", user, pseudonym),
        game_id,
    )
    await db.execute("UPDATE moves SET player = ? WHERE game_id = ? AND player = ?", pseudonym, game_id, user)
    for seq, action in await db.fetch(
        "SELECT seq, action FROM moves WHERE game_id = ? AND CAST(action AS TEXT) LIKE ?", game_id, f"%{user}%"
    ):
        swapped = _swap(_text(action) or "null", user, pseudonym)
        await db.execute("UPDATE moves SET action = ? WHERE game_id = ? AND seq = ?", swapped, game_id, seq)
    await db.execute("DELETE FROM private_messages WHERE game_id = ? AND user_id = ?", game_id, user)
    await db.execute("UPDATE meta SET key = ? WHERE key = ?", hint_key(game_id, pseudonym), hint_key(game_id, user))
    await db.execute("DELETE FROM results WHERE game_id = ?", game_id)
    await db.run(_game_results(db.dialect.name, game_id))


async def _rewrite_ended(db: Session, user: int, pseudonym: int, up_to_game: int) -> bool:
    """Rewrite every ended game ``user`` sat in (or hosted) among the games up to ``up_to_game`` (those opened before
    they asked: a later game is theirs again); True while one of those is still open (the link must stay until it
    ends)."""
    still_open = False
    candidates = await db.fetch(
        "SELECT id, players, host_id, status FROM games "
        "WHERE (host_id = ? OR CAST(players AS TEXT) LIKE ?) AND id <= ? ORDER BY id",
        user,
        f"%{user}%",
        up_to_game,
    )
    for game_id, players, host, status in candidates:
        if not _sat_in(players, host, user):
            continue
        if status in ("lobby", "running"):
            still_open = True
        else:
            await _rewrite(db, int(game_id), user, pseudonym)
    return still_open


async def _forget_user(db: Session, user: int) -> int:
    stamp = now()
    newest = await db.fetch("SELECT COALESCE(max(id), 0) FROM games")
    up_to_game = int(newest[0][0])
    pending = await db.fetch("SELECT pseudonym FROM former_players WHERE user_id = ?", user)
    if pending:
        number = int(pending[0][0])
        await db.execute(
            "UPDATE former_players SET forgotten_at = ?, up_to_game = ? WHERE pseudonym = ?", stamp, up_to_game, number
        )
    else:
        inserted = await db.fetch(
            "INSERT INTO former_players (user_id, up_to_game, forgotten_at) VALUES (?, ?, ?) RETURNING pseudonym",
            user,
            up_to_game,
            stamp,
        )
        number = int(inserted[0][0])
    await db.execute("DELETE FROM meta WHERE key = ?", f"locale:{user}")
    await db.execute("DELETE FROM meta WHERE key = ?", f"prefs:{user}")  # their /me choices
    await db.execute("DELETE FROM dm_channels WHERE user_id = ?", user)
    ended = f"SELECT id FROM games WHERE status NOT IN {OPEN}"
    await db.execute(f"DELETE FROM private_messages WHERE user_id = ? AND game_id IN ({ended})", user)
    if not await _rewrite_ended(db, user, FORMER_BASE + number, up_to_game):
        await db.execute("UPDATE former_players SET user_id = NULL WHERE pseudonym = ?", number)
    return FORMER_BASE + number


async def _settle_pending(db: Session) -> int:
    """Rewrite the games of forgotten people that ended since they asked; the number of people now settled."""
    settled = 0
    for number, user, up_to_game in await db.fetch(
        "SELECT pseudonym, user_id, up_to_game FROM former_players WHERE user_id IS NOT NULL"
    ):
        if not await _rewrite_ended(db, int(user), FORMER_BASE + int(number), int(up_to_game)):
            # Their last game's DMs needed these; a later interaction of theirs stores them afresh.
            await db.execute("DELETE FROM meta WHERE key = ?", f"locale:{user}")
            await db.execute("DELETE FROM dm_channels WHERE user_id = ?", user)
            await db.execute("UPDATE former_players SET user_id = NULL WHERE pseudonym = ?", number)
            settled += 1
    return settled


async def _forget_guild(db: Session, guild_id: int) -> int:
    """Delete everything kept about a server: its settings, and its channels' games with all that hangs on them."""
    games = f"(SELECT id FROM games WHERE guild_id = {int(guild_id)})"
    for table in ("results", "timers", "private_messages", "moves"):
        await db.run(f"DELETE FROM {table} WHERE game_id IN {games}")
    await db.execute("DELETE FROM results WHERE guild_id = ?", guild_id)
    deleted = await db.fetch("DELETE FROM games WHERE guild_id = ? RETURNING id", guild_id)
    await db.execute("DELETE FROM guild_settings WHERE guild_id = ?", guild_id)
    await db.execute("DELETE FROM departed_guilds WHERE guild_id = ?", guild_id)
    return len(deleted)


class PrivacyQueries(Database):
    """Forgetting, over the driver's ``_atomic`` (one transaction) and its one-statement calls."""

    @abstractmethod
    async def _atomic(self, work: Callable[[Session], Awaitable[T]]) -> T:
        """Run ``work`` on one connection in one transaction, committed when it returns, rolled back if it raises."""

    async def forget_user(self, user_id: int) -> int:
        return await self._atomic(lambda db: _forget_user(db, user_id))

    async def settle_forgotten(self) -> int:
        return await self._atomic(_settle_pending)

    async def forget_hand_texts(self, ended_before: str) -> int:
        return await self._execute(
            "DELETE FROM private_messages WHERE game_id IN (SELECT id FROM games WHERE status NOT IN "
            f"{OPEN} AND COALESCE(ended_at, updated_at) < ?)",
            ended_before,
        )

    async def guild_removed(self, guild_id: int, at: str | None = None) -> None:
        await self._execute(
            "INSERT INTO departed_guilds (guild_id, removed_at) VALUES (?, ?) ON CONFLICT (guild_id) DO NOTHING",
            guild_id,
            at or now(),
        )

    async def guild_returned(self, guild_id: int) -> bool:
        return await self._execute("DELETE FROM departed_guilds WHERE guild_id = ?", guild_id) == 1

    async def known_guilds(self) -> set[int]:
        rows = await self._fetch(
            "SELECT guild_id FROM guild_settings UNION SELECT DISTINCT guild_id FROM games "
            "UNION SELECT guild_id FROM departed_guilds"
        )
        return {int(row[0]) for row in rows}

    async def departed_guilds(self) -> dict[int, str]:
        rows = await self._fetch("SELECT guild_id, removed_at FROM departed_guilds ORDER BY removed_at")
        return {int(guild): str(removed) for guild, removed in rows}

    async def forget_guild(self, guild_id: int) -> int:
        return await self._atomic(lambda db: _forget_guild(db, guild_id))
