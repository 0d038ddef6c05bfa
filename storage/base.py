"""The interfaces every database driver fulfils (``storage.sqlite``, ``storage.postgres``), split by job.

Each part of the core is typed with the narrowest one it needs, so a reader sees what a part touches: ``GameStore``
(games and moves), ``TableStore`` (clocks, DMs, settings), ``StatsStore`` (statistics and history), ``PrivacyStore``
(forgetting); ``Storage`` is all four, what a driver implements and ``bot.py`` opens. None has more than
``MAX_METHODS`` (tests/storage/test_interfaces.py counts them).

Changes to a game's row are compare-and-swap on its ``revision``; appending move ``seq`` fails if another writer
appended it first: that unique key is the compare-and-swap that keeps two processes (or two racing clicks) from both
acting at the same position. Storage keeps SQL only: no locks, caches, rules or rendering.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from storage.records import (
    EndedGame,
    Ending,
    GameRecord,
    LoggedMove,
    NewGame,
    PlayerResult,
    Standing,
    Streak,
    Tally,
    Timer,
)

MAX_METHODS = 15  # issue 35: an interface a reader takes in at once


class GameStore(Protocol):
    """Games and their moves: the game row from lobby to result (compare-and-swap on its ``revision``), the message
    that shows it, and the append-only move log (a move's ``(game, seq)`` key is the compare-and-swap of a move).
    What ``table.games`` and the parts that load, play and show games need."""

    async def open_game(self, channel_id: int) -> GameRecord | None:
        """The lobby or running game in the channel, if any."""
        ...

    async def game(self, game_id: int) -> GameRecord | None: ...

    async def open_games(self) -> list[GameRecord]:
        """Every lobby and running game, oldest first."""
        ...

    async def channel_games(self, channel_id: int, limit: int = 20) -> list[GameRecord]:
        """The channel's games, newest first."""
        ...

    async def create_game(self, game: NewGame) -> GameRecord:
        """Open a lobby; raises ChannelBusy if the channel already has an open game."""
        ...

    async def update_game(self, game: GameRecord, **changes: Any) -> GameRecord:
        """Change the row if nobody else changed it since ``game`` was read; raises Conflict otherwise."""
        ...

    async def modify_game(
        self, game_id: int, change: Callable[[GameRecord], dict[str, Any] | None], attempts: int = 5
    ) -> GameRecord | None:
        """Read the row, let ``change`` compute the column changes from that very row (``update_game``'s keywords;
        None or an empty dict: nothing to do, the row is returned as read) and write them by compare-and-swap; on a
        Conflict, read again and call ``change`` again. None if the game does not exist; raises Conflict when
        ``attempts`` tries all lost to other writers."""
        ...

    async def set_daily_deal(self, game: GameRecord, seed: int, day: str) -> GameRecord:
        """Deal the lobby ``game`` from the daily deal of ``day`` (ISO date): its seed, and the date in its options.
        The only way a seed changes, and only in a lobby; raises Conflict if the row changed since it was read."""
        ...

    async def set_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the message that shows the game (its lobby or board). Presentation only: the last writer wins."""
        ...

    async def mark_hinted(self, game_id: int, player: int) -> None:
        """Record that ``player`` took a Hint in the game: against their own results, and the game's as a team's
        (``GameRecord.hinted``); committed on return."""
        ...

    async def moves(self, game_id: int, after: int = 0) -> list[LoggedMove]:
        """The log from move ``after + 1`` on, in order."""
        ...

    async def append_move(
        self, game_id: int, seq: int, player: int, action: Any, ending: Ending | None = None, auto: bool = False
    ) -> bool:
        """Append move ``seq`` of a running game (with its ending, atomically). False when ``seq`` is taken or the
        game no longer runs: somebody else was first. ``auto``: the autopilot made it for the player."""
        ...


class TableStore(Protocol):
    """What a table keeps beside its game, and what outlives a game: the turn clock's timers, the DMs that show
    each player's private view (and each person's DM channel), the servers' settings and the small key-value
    ``meta`` (a person's language, the web table's key)."""

    async def set_timer(self, timer: Timer) -> None:
        """Start (or restart) the game's turn clock."""
        ...

    async def clear_timer(self, game_id: int) -> None: ...

    async def timers(self) -> list[Timer]:
        """Every running clock (read once at start; a passed deadline is acted on at once)."""
        ...

    async def claim_timer(self, game_id: int, seq: int, reminder: bool) -> bool:
        """Take the reminder (or the deadline) of the clock started at ``seq``; True for exactly one claimant, so a
        clock fires once however many processes watch it."""
        ...

    async def private_messages(self, game_id: int) -> dict[int, tuple[int | None, str]]:
        """Per player of the game: the DM that last showed their private view, and the text it showed."""
        ...

    async def set_private_message(self, game_id: int, user_id: int, message_id: int | None, text: str) -> None: ...

    async def dm_channel(self, user_id: int) -> int | None: ...

    async def set_dm_channel(self, user_id: int, channel_id: int) -> None: ...

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """The server's settings as last saved (an empty dict for a server that never saved any)."""
        ...

    async def update_guild_settings(
        self, guild_id: int, change: Callable[[dict[str, Any]], dict[str, Any]], attempts: int = 10
    ) -> dict[str, Any]:
        """Save ``change(settings)``, computed from the settings as read (a copy ``change`` may modify), by
        compare-and-swap: another writer in between makes it read and compute again. Returns what was saved;
        raises Conflict when ``attempts`` tries all lost."""
        ...

    async def get_meta(self, key: str) -> str | None: ...

    async def set_meta(self, key: str, value: str) -> None: ...


class StatsStore(Protocol):
    """Statistics (issue 15): the per-player results of ended games, which the database itself keeps
    (``storage.results``), and the history of ended games. Read only."""

    async def player_tallies(self, guild_id: int, player: int) -> list[Tally]:
        """The player's ended games on the server, one ``Tally`` per kind, table size, variant and company."""
        ...

    async def player_streaks(self, guild_id: int, player: int) -> list[Streak]:
        """The player's current and best winning streak per kind (people-only games apart from mixed ones)."""
        ...

    async def player_teams(self, guild_id: int, player: int, kind: str, limit: int = 5) -> list[Standing]:
        """The teams the player played ``kind`` in (team games), most games first."""
        ...

    async def together(self, guild_id: int, kind: str, team: Sequence[int]) -> list[Standing]:
        """The finished games of ``kind`` played by exactly the people ``team`` (with or without computer players):
        one ``Standing`` per person, in id order, with their games, wins (a team win, or their first places) and
        best score; empty when these people never finished one together."""
        ...

    async def player_results(self, guild_id: int, player: int, limit: int = 60) -> list[PlayerResult]:
        """The player's last ``limit`` ended games on the server, oldest first."""
        ...

    async def leaderboard(
        self,
        guild_id: int,
        kind: str,
        *,
        teams: bool,
        mixed: bool,
        seats: int | None = None,
        variant: str | None = None,
        minimum: int = 1,
        limit: int = 10,
        offset: int = 0,
    ) -> tuple[list[Standing], int]:
        """The server's best teams (``teams``: one line per set of people) or players at ``kind``: most wins, then
        the lowest mean score, among those with at least ``minimum`` finished games; people-only games or (``mixed``)
        those with computer players or autopilot turns. ``seats`` keeps one table size; ``variant`` keeps games
        with that variant ("" for standard rules only). Returns one page and the number of lines in all."""
        ...

    async def ended_games(
        self, guild_id: int, channel_id: int | None = None, limit: int = 10, offset: int = 0
    ) -> list[EndedGame]:
        """The server's (or one channel's) dealt games that are over, newest first."""
        ...

    async def daily_games(self, guild_id: int, day: str) -> list[GameRecord]:
        """Each table's first ended try at the daily deal of ``day`` (ISO date) on the server: the first game per
        channel, kind and table size; in order of their end."""
        ...


class PrivacyStore(Protocol):
    """Forgetting (issue 33, ``storage.privacy``): people who asked to be forgotten, servers the bot left, old
    hand texts. Apart from the others because only the privacy cog and the owner's ``forget-server`` erase data."""

    async def forget_user(self, user_id: int) -> int:
        """Erase a person's data: their language, DM channel and the hand texts of their ended games; their seats in
        ended games become a pseudonym (returned), their open games' seats when those end. Committed on return."""
        ...

    async def settle_forgotten(self) -> int:
        """Give the pseudonym to the seats of forgotten people in games that ended since they asked; returns how
        many people have no open game left (their link to the pseudonym is then gone)."""
        ...

    async def forget_hand_texts(self, ended_before: str) -> int:
        """Delete the stored DM texts of games that ended before ``ended_before`` (a time stamp); how many."""
        ...

    async def guild_removed(self, guild_id: int, at: str | None = None) -> None:
        """Note that the bot was removed from the server (``at``, now by default; an earlier note is kept)."""
        ...

    async def guild_returned(self, guild_id: int) -> bool:
        """The bot is in the server again: its data stays. True if a removal was noted."""
        ...

    async def known_guilds(self) -> set[int]:
        """Every server the database holds anything of."""
        ...

    async def departed_guilds(self) -> dict[int, str]:
        """The servers the bot was removed from, and when, oldest first."""
        ...

    async def forget_guild(self, guild_id: int) -> int:
        """Delete the server's settings and every game of its channels (moves, results, DMs, clocks) at once;
        returns how many games were deleted."""
        ...


class Storage(GameStore, TableStore, StatsStore, PrivacyStore, Protocol):
    """Everything a driver offers (SQLite, PostgreSQL), opened and closed by ``bot.py``. Every write is committed on
    return."""

    async def close(self) -> None: ...
