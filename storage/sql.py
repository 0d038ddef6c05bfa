"""The storage interface written once in SQL both databases read: each statement of ``storage.base.Storage`` (but
appending a move, whose transaction differs) over the driver's ``_fetch`` and ``_execute``.

Changes to a row are compare-and-swap on its ``revision``: ``update_game`` refuses a change made from a stale read,
and ``modify_game`` and ``update_guild_settings`` read, compute the change from that very row, and try again from a
fresh read when another writer came first.
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import random
from abc import abstractmethod
from collections.abc import Callable
from typing import Any

from storage.errors import ChannelBusy, Conflict, Duplicate
from storage.privacy import PrivacyQueries
from storage.records import Ending, GameRecord, LoggedMove, NewGame, Timer, now
from storage.rows import COLUMNS, SELECT, WRITABLE, dump, record
from storage.stats import StatsQueries, hint_key

log = logging.getLogger(__name__)


async def backoff(attempt: int) -> None:
    """A short random pause after a lost compare-and-swap, longer each time: writers that collided once spread out
    instead of colliding again in lockstep."""
    await asyncio.sleep(random.uniform(0, 0.004 * 2 ** min(attempt, 5)))


class SQLStorage(StatsQueries, PrivacyQueries):
    """What both drivers share; a driver adds its connection, transactions, error mapping and ``append_move``."""

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def append_move(
        self, game_id: int, seq: int, player: int, action: Any, ending: Ending | None = None, auto: bool = False
    ) -> bool: ...

    # ---- games ---------------------------------------------------------------------------------------------------

    async def open_game(self, channel_id: int) -> GameRecord | None:
        rows = await self._fetch(f"{SELECT} WHERE channel_id = ? AND status IN ('lobby', 'running')", channel_id)
        return record(rows[0]) if rows else None

    async def game(self, game_id: int) -> GameRecord | None:
        rows = await self._fetch(f"{SELECT} WHERE id = ?", game_id)
        return record(rows[0]) if rows else None

    async def open_games(self) -> list[GameRecord]:
        rows = await self._fetch(f"{SELECT} WHERE status IN ('lobby', 'running') ORDER BY id")
        return [record(row) for row in rows]

    async def channel_games(self, channel_id: int, limit: int = 20) -> list[GameRecord]:
        rows = await self._fetch(f"{SELECT} WHERE channel_id = ? ORDER BY id DESC LIMIT ?", channel_id, limit)
        return [record(row) for row in rows]

    async def create_game(self, game: NewGame) -> GameRecord:
        stamp = now()
        try:
            rows = await self._fetch(
                "INSERT INTO games (channel_id, guild_id, kind, host_id, players, variants, seed, rules_version, "
                f"status, options, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?) "
                f"RETURNING {COLUMNS}",
                game.channel_id,
                game.guild_id,
                game.kind,
                game.host_id,
                dump(list(game.players)),
                dump(list(game.variants)),
                game.seed,
                game.rules_version,
                dump(dict(game.options)),
                stamp,
                stamp,
            )
        except Duplicate as error:
            raise ChannelBusy(game.channel_id) from error
        return record(rows[0])

    async def update_game(self, game: GameRecord, **changes: Any) -> GameRecord:
        unknown = set(changes) - set(WRITABLE)
        if unknown:
            raise ValueError(f"update_game cannot change {sorted(unknown)}")
        assignments = "".join(f"{column} = ?, " for column in changes)
        values = [WRITABLE[column](value) for column, value in changes.items()]
        try:
            rows = await self._fetch(
                f"UPDATE games SET {assignments}revision = revision + 1, updated_at = ? "
                f"WHERE id = ? AND revision = ? RETURNING {COLUMNS}",
                *values,
                now(),
                game.id,
                game.revision,
            )
        except Duplicate as error:  # reopening a game in a channel that has another open one
            raise ChannelBusy(game.channel_id) from error
        if not rows:
            raise Conflict(game.id)
        return record(rows[0])

    async def modify_game(
        self, game_id: int, change: Callable[[GameRecord], dict[str, Any] | None], attempts: int = 5
    ) -> GameRecord | None:
        for attempt in range(attempts):
            game = await self.game(game_id)
            if game is None:
                return None
            changes = change(game)
            if not changes:
                return game
            try:
                return await self.update_game(game, **changes)
            except Conflict:
                await backoff(attempt)  # another writer came first: decide again on the row it left
        raise Conflict(game_id)

    async def set_message(self, game_id: int, message_id: int | None) -> None:
        await self._execute("UPDATE games SET message_id = ? WHERE id = ?", message_id, game_id)

    async def mark_hinted(self, game_id: int, player: int) -> None:
        # Against the player's own results first (one meta row each: ``hint_key``), then the game's as a team's.
        await self.set_meta(hint_key(game_id, player), "1")
        # Not a change of the game's course: no revision, so no move or vote in flight loses its compare-and-swap.
        await self._execute("UPDATE games SET hinted = ? WHERE id = ? AND NOT hinted", True, game_id)

    async def moves(self, game_id: int, after: int = 0) -> list[LoggedMove]:
        rows = await self._fetch(
            "SELECT seq, player, action, auto FROM moves WHERE game_id = ? AND seq > ? ORDER BY seq", game_id, after
        )
        moves = []
        for seq, player, action, auto in rows:
            try:
                decoded = json.loads(action)
            except ValueError:
                decoded = None  # the game's decoder refuses it, and the game is reported damaged
            moves.append(LoggedMove(seq, player, decoded, bool(auto)))
        return moves

    # ---- the turn clock ------------------------------------------------------------------------------------------

    async def set_timer(self, timer: Timer) -> None:
        await self._execute(
            "INSERT INTO timers (game_id, seq, player, remind_at, due_at) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, player = excluded.player, "
            "remind_at = excluded.remind_at, due_at = excluded.due_at",
            timer.game_id,
            timer.seq,
            timer.player,
            timer.remind_at,
            timer.due_at,
        )

    async def clear_timer(self, game_id: int) -> None:
        await self._execute("DELETE FROM timers WHERE game_id = ?", game_id)

    async def timers(self) -> list[Timer]:
        rows = await self._fetch(
            "SELECT t.game_id, t.seq, t.player, t.remind_at, t.due_at FROM timers t "
            "JOIN games g ON g.id = t.game_id WHERE g.status = 'running' ORDER BY t.due_at"
        )
        return [Timer(int(g), int(q), int(p), r, float(d)) for g, q, p, r, d in rows]

    async def claim_timer(self, game_id: int, seq: int, reminder: bool) -> bool:
        # A compare-and-delete (or -clear) on the clock's row: of several processes claiming it at once, exactly one
        # changes it; the others find nothing left to claim.
        if reminder:
            statement = "UPDATE timers SET remind_at = NULL WHERE game_id = ? AND seq = ? AND remind_at IS NOT NULL"
        else:
            statement = "DELETE FROM timers WHERE game_id = ? AND seq = ?"
        return await self._execute(statement, game_id, seq) == 1

    # ---- a server's settings -------------------------------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        settings, _ = await self._settings(guild_id)
        return settings

    async def update_guild_settings(
        self, guild_id: int, change: Callable[[dict[str, Any]], dict[str, Any]], attempts: int = 10
    ) -> dict[str, Any]:
        for attempt in range(attempts):
            settings, revision = await self._settings(guild_id)
            wanted = change(copy.deepcopy(settings))
            if wanted == settings:
                return settings
            stamp, text = now(), dump(dict(wanted))
            if revision is None:
                changed = await self._execute(
                    "INSERT INTO guild_settings (guild_id, settings, revision, updated_at) VALUES (?, ?, 1, ?) "
                    "ON CONFLICT (guild_id) DO NOTHING",
                    guild_id,
                    text,
                    stamp,
                )
            else:
                changed = await self._execute(
                    "UPDATE guild_settings SET settings = ?, revision = revision + 1, updated_at = ? "
                    "WHERE guild_id = ? AND revision = ?",
                    text,
                    stamp,
                    guild_id,
                    revision,
                )
            if changed == 1:
                return dict(wanted)
            await backoff(attempt)
        raise Conflict(guild_id)

    async def _settings(self, guild_id: int) -> tuple[dict[str, Any], int | None]:
        """The server's settings and their revision (None: never saved)."""
        rows = await self._fetch("SELECT settings, revision FROM guild_settings WHERE guild_id = ?", guild_id)
        if not rows:
            return {}, None
        try:
            settings = json.loads(rows[0]["settings"])
        except ValueError:
            settings = None
        if not isinstance(settings, dict):
            log.warning("The settings of server %s could not be read; using the defaults", guild_id)
            settings = {}
        return settings, int(rows[0]["revision"])

    # ---- small things --------------------------------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        rows = await self._fetch("SELECT value FROM meta WHERE key = ?", key)
        return str(rows[0][0]) if rows else None

    async def set_meta(self, key: str, value: str) -> None:
        await self._execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            key,
            value,
        )

    async def dm_channel(self, user_id: int) -> int | None:
        rows = await self._fetch("SELECT channel_id FROM dm_channels WHERE user_id = ?", user_id)
        return int(rows[0][0]) if rows else None

    async def set_dm_channel(self, user_id: int, channel_id: int) -> None:
        await self._execute(
            "INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET channel_id = excluded.channel_id",
            user_id,
            channel_id,
        )

    async def private_messages(self, game_id: int) -> dict[int, tuple[int | None, str]]:
        rows = await self._fetch("SELECT user_id, message_id, text FROM private_messages WHERE game_id = ?", game_id)
        return {int(user): (message, str(text)) for user, message, text in rows}

    async def set_private_message(self, game_id: int, user_id: int, message_id: int | None, text: str) -> None:
        await self._execute(
            "INSERT INTO private_messages (game_id, user_id, message_id, text) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (game_id, user_id) DO UPDATE SET message_id = excluded.message_id, text = excluded.text",
            game_id,
            user_id,
            message_id,
            text,
        )
