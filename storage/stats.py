"""The statistics queries (issue 15), written once for both databases, over the ``results`` table the database
keeps itself (``storage.results``): a player's tallies and streaks, teams, leaderboards, the history, the daily deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from storage.errors import Conflict
from storage.records import EndedGame, GameRecord, PlayerResult, Standing, Streak, Tally, now
from storage.rows import COLUMNS, SELECT, Database, dump, record

TALLIES = """
SELECT kind, seats, variant, mixed, count(*) FILTER (WHERE status = 'finished') AS played,
       coalesce(sum(won), 0) AS won, count(*) FILTER (WHERE status <> 'finished') AS abandoned,
       min(score) AS best, avg(score) AS mean
FROM results WHERE guild_id = ? AND player = ?
GROUP BY kind, seats, variant, mixed ORDER BY kind, mixed, seats, variant
"""

# Gaps and islands: every game not won starts a new run; the longest run is the best streak, the last the current.
STREAKS = """
WITH marked AS (
    SELECT kind, mixed, coalesce(won, 0) AS won,
           sum(1 - coalesce(won, 0)) OVER (PARTITION BY kind, mixed ORDER BY game_id) AS run
    FROM results WHERE guild_id = ? AND player = ?
), runs AS (
    SELECT kind, mixed, run, sum(won) AS length, max(run) OVER (PARTITION BY kind, mixed) AS last
    FROM marked GROUP BY kind, mixed, run
)
SELECT kind, mixed, max(CASE WHEN run = last THEN length ELSE 0 END) AS current, max(length) AS best
FROM runs GROUP BY kind, mixed ORDER BY kind, mixed
"""

TEAMS = """
SELECT team AS who, mixed, count(*) AS games, coalesce(sum(won), 0) AS won, min(score) AS best, avg(score) AS mean
FROM results WHERE guild_id = ? AND player = ? AND kind = ? AND status = 'finished'
GROUP BY team, mixed ORDER BY games DESC, won DESC, mean LIMIT ?
"""

# Each person's finished games, wins and best score with exactly these people (``team``: the results' team column),
# computer partners or not: the end screen's record. A team game's rows all carry the team's result. Naming the
# people ({people}: one placeholder each) reads their rows by the primary key: 1 ms, not 30, on a busy server.
TOGETHER = """
SELECT CAST(player AS TEXT) AS who, max(mixed) AS mixed, count(*) AS games, coalesce(sum(won), 0) AS won,
       min(score) AS best, avg(score) AS mean
FROM results WHERE guild_id = ? AND player IN ({people}) AND kind = ? AND team = ? AND status = 'finished'
GROUP BY player ORDER BY player
"""

# A player's last games, newest first (read back oldest first).
RESULTS = """
SELECT game_id, kind, status, won, score, mixed, team FROM results
WHERE guild_id = ? AND player = ? ORDER BY game_id DESC LIMIT ?
"""


def hint_key(game_id: int, player: int) -> str:
    """The meta row saying ``player`` took a Hint in game ``game_id`` (no schema change; /forget rewrites it)."""
    return f"hint:{game_id}:{player}"


HINT_KEY_SQL = "'hint:' || CAST(game_id AS TEXT) || ':' || CAST(player AS TEXT)"


def leaderboard_query(
    guild_id: int, kind: str, teams: bool, mixed: bool, seats: int | None, variant: str | None, minimum: int
) -> tuple[str, list[Any]]:
    """The leaderboard's SQL (without LIMIT/OFFSET) and its arguments; the WHERE names a partial index's terms
    literally, so the planner can use it."""
    who = "team" if teams else "CAST(player AS TEXT)"
    where = ["guild_id = ?", "kind = ?", "mixed = ?", "status = 'finished'"]
    args: list[Any] = [guild_id, kind, int(mixed)]
    if teams:
        # A team's game where one of them took a Hint is left out (its few ids read once, through their own index).
        where += ["lead = 1", "game_id NOT IN (SELECT id FROM games WHERE hinted)"]
    else:
        # A Hint counts against the person who took it, not their partners (one meta row each: ``hint_key``).
        where.append(f"NOT EXISTS (SELECT 1 FROM meta WHERE meta.key = {HINT_KEY_SQL})")
    if seats is not None:
        where.append("seats = ?")
        args.append(seats)
    if variant == "":
        where.append("variant = ''")
    elif variant is not None:
        where.append("(',' || variant || ',') LIKE ?")
        args.append(f"%,{variant},%")
    args.append(minimum)
    query = (
        f"SELECT {who} AS who, mixed, count(*) AS games, coalesce(sum(won), 0) AS won, min(score) AS best, "
        f"avg(score) AS mean, count(*) OVER () AS lines FROM results WHERE {' AND '.join(where)} "
        f"GROUP BY {'team' if teams else 'player'}, mixed HAVING count(*) >= ? "
        "ORDER BY won DESC, mean, games DESC, who"
    )
    return query, args


DAILY_IDS = """
SELECT min(game_id) FROM results
WHERE daily = ? AND guild_id = ? AND lead = 1
GROUP BY channel_id, kind, seats
"""

# Whether the game ``q`` had computer players (a negative id among its players) or autopilot turns.
MIXED = "(EXISTS (SELECT 1 FROM moves m WHERE m.game_id = q.id AND m.auto) OR CAST(q.players AS TEXT) LIKE '%-%')"
ENDED = "status IN ('finished', 'abandoned') AND started_at IS NOT NULL AND guild_id = ?"


def tally(row: Any) -> Tally:
    return Tally(
        kind=str(row["kind"]),
        seats=int(row["seats"]),
        variants=tuple(v for v in str(row["variant"]).split(",") if v),
        mixed=bool(row["mixed"]),
        played=int(row["played"]),
        won=int(row["won"]),
        abandoned=int(row["abandoned"]),
        best=None if row["best"] is None else int(row["best"]),
        mean=None if row["mean"] is None else float(row["mean"]),
    )


def streak(row: Any) -> Streak:
    return Streak(str(row["kind"]), bool(row["mixed"]), int(row["current"] or 0), int(row["best"] or 0))


def standing(row: Any) -> Standing:
    return Standing(
        players=tuple(int(p) for p in str(row["who"]).split()),
        mixed=bool(row["mixed"]),
        games=int(row["games"]),
        won=int(row["won"]),
        best=None if row["best"] is None else int(row["best"]),
        mean=None if row["mean"] is None else float(row["mean"]),
    )


def player_result(row: Any) -> PlayerResult:
    return PlayerResult(
        game_id=int(row["game_id"]),
        kind=str(row["kind"]),
        won=bool(row["won"]),
        score=None if row["status"] != "finished" or row["score"] is None else int(row["score"]),
        mixed=bool(row["mixed"]),
        team=tuple(int(p) for p in str(row["team"]).split()),
    )


def ended(records: Sequence[GameRecord], mixed: Sequence[Any]) -> list[EndedGame]:
    return [EndedGame(record, bool(flag)) for record, flag in zip(records, mixed, strict=True)]


class StatsQueries(Database):
    """The statistics (``storage.StatsStore``), and the one write of the daily deal (``GameStore.set_daily_deal``)."""

    async def player_tallies(self, guild_id: int, player: int) -> list[Tally]:
        return [tally(row) for row in await self._fetch(TALLIES, guild_id, player)]

    async def player_streaks(self, guild_id: int, player: int) -> list[Streak]:
        return [streak(row) for row in await self._fetch(STREAKS, guild_id, player)]

    async def player_teams(self, guild_id: int, player: int, kind: str, limit: int = 5) -> list[Standing]:
        return [standing(row) for row in await self._fetch(TEAMS, guild_id, player, kind, limit)]

    async def together(self, guild_id: int, kind: str, team: Sequence[int]) -> list[Standing]:
        people = sorted(team)
        if not people:
            return []
        query = TOGETHER.format(people=", ".join("?" * len(people)))
        rows = await self._fetch(query, guild_id, *people, kind, " ".join(map(str, people)))
        return [standing(row) for row in rows]

    async def player_results(self, guild_id: int, player: int, limit: int = 60) -> list[PlayerResult]:
        return [player_result(row) for row in reversed(await self._fetch(RESULTS, guild_id, player, limit))]

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
        query, args = leaderboard_query(guild_id, kind, teams, mixed, seats, variant, minimum)
        rows = await self._fetch(f"{query} LIMIT ? OFFSET ?", *args, limit, offset)
        if not rows and offset:
            total = await self._fetch(f"SELECT count(*) AS lines FROM ({query}) q", *args)
            return [], int(total[0]["lines"])
        return [standing(row) for row in rows], int(rows[0]["lines"]) if rows else 0

    async def ended_games(
        self, guild_id: int, channel_id: int | None = None, limit: int = 10, offset: int = 0
    ) -> list[EndedGame]:
        where, args = ENDED, [guild_id]
        if channel_id is not None:
            where += " AND channel_id = ?"
            args.append(channel_id)
        rows = await self._fetch(
            f"SELECT q.*, {MIXED} AS mixed FROM ({SELECT} WHERE {where} ORDER BY id DESC LIMIT ? OFFSET ?) q "
            "ORDER BY q.id DESC",
            *args,
            limit,
            offset,
        )
        return ended([record(row) for row in rows], [row["mixed"] for row in rows])

    async def set_daily_deal(self, game: GameRecord, seed: int, day: str) -> GameRecord:
        rows = await self._fetch(
            "UPDATE games SET seed = ?, options = ?, revision = revision + 1, updated_at = ? "
            f"WHERE id = ? AND revision = ? AND status = 'lobby' RETURNING {COLUMNS}",
            seed,
            dump({**game.options, "deal": "daily", "date": day}),
            now(),
            game.id,
            game.revision,
        )
        if not rows:
            raise Conflict(game.id)
        return record(rows[0])

    async def daily_games(self, guild_id: int, day: str) -> list[GameRecord]:
        rows = await self._fetch(f"{SELECT} WHERE id IN ({DAILY_IDS}) ORDER BY id", day, guild_id)
        return [record(row) for row in rows]
