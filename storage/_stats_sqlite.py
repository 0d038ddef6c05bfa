"""Statistics for the SQLite driver: the ``results`` table and the queries over it (a mixin of ``SQLiteStorage``).

Every dealt game that ends leaves one row per person in ``results`` (computer players get none): its server,
channel, kind, table size, variants, whether it was won (a team win, or this person's first place), the score (the
team's cards left, or this person's points), whether computer players sat or the autopilot played a turn
(``mixed``), the team (its people in id order) and the daily deal's date. A trigger on the game row writes them in the
transaction that ends the game, so no driver code changes; the migration back-fills games that ended before it.

The rows are derived from ``games.result`` by one convention, not by game: a team result has ``won`` and ``score``,
a per-player result has ``winner`` and ``scores`` (by player id). The queries are plain SQL shared with the
PostgreSQL driver (``storage._stats_postgres``), which only swaps the ``?`` placeholders for ``$n``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import aiosqlite

from storage import Conflict, EndedGame, GameRecord, PlayerResult, Standing, Streak, Tally

# The rows one ended game ``{g}`` leaves: NEW in the trigger, each ended game of the table in the back-fill.
_RESULT_ROWS = """
INSERT OR IGNORE INTO results (guild_id, player, game_id, channel_id, kind, seats, variant, status, won, score,
                               mixed, lead, team, daily, ended_at)
SELECT {g}.guild_id, p.value, {g}.id, {g}.channel_id, {g}.kind, json_array_length({g}.players),
       COALESCE((SELECT group_concat(v.value, ',') FROM json_each({g}.variants) v), ''),
       {g}.status,
       CASE WHEN {g}.status <> 'finished' OR {g}.result IS NULL THEN NULL
            ELSE COALESCE(json_extract({g}.result, '$.won'), json_extract({g}.result, '$.winner') = p.value) END,
       CASE WHEN {g}.status <> 'finished' OR {g}.result IS NULL THEN NULL
            ELSE COALESCE(json_extract({g}.result, '$.scores."' || p.value || '"'), json_extract({g}.result, '$.score'))
            END,
       EXISTS (SELECT 1 FROM json_each({g}.players) b WHERE b.value < 0)
           OR EXISTS (SELECT 1 FROM moves m WHERE m.game_id = {g}.id AND m.auto = 1),
       p.value = (SELECT min(h.value) FROM json_each({g}.players) h WHERE h.value > 0),
       (SELECT group_concat(t.value, ' ') FROM
           (SELECT h.value FROM json_each({g}.players) h WHERE h.value > 0 ORDER BY h.value) t),
       CASE WHEN json_extract({g}.options, '$.deal') = 'daily' THEN json_extract({g}.options, '$.date') END,
       COALESCE({g}.ended_at, {g}.updated_at)
FROM {source}
WHERE p.value > 0
"""

# The results of every game that ended before the trigger existed (the migration; a benchmark's bulk fill).
# A row whose players can't be read (reported as damaged in its channel) has no results, and must not stop the
# migration or /endgame: json_each of malformed text would raise.
BACKFILL = _RESULT_ROWS.format(g="g", source="games g, json_each(IIF(json_valid(g.players), g.players, '[]')) p") + (
    " AND g.status IN ('finished', 'abandoned') AND g.started_at IS NOT NULL"
)

_SCHEMA = (
    """
    CREATE TABLE results (
        guild_id    INTEGER NOT NULL,
        player      INTEGER NOT NULL,
        game_id     INTEGER NOT NULL REFERENCES games (id),
        channel_id  INTEGER NOT NULL,
        kind        TEXT    NOT NULL,
        seats       INTEGER NOT NULL,
        variant     TEXT    NOT NULL,
        status      TEXT    NOT NULL,
        won         INTEGER,
        score       INTEGER,
        mixed       INTEGER NOT NULL,
        lead        INTEGER NOT NULL,
        team        TEXT    NOT NULL,
        daily       TEXT,
        ended_at    TEXT    NOT NULL,
        PRIMARY KEY (guild_id, player, game_id)
    ) WITHOUT ROWID
    """,
    """
    CREATE INDEX results_by_team ON results (guild_id, kind, mixed, team, won, score, seats, variant)
    WHERE lead = 1 AND status = 'finished'
    """,
    """
    CREATE INDEX results_by_player ON results (guild_id, kind, mixed, player, won, score, seats, variant)
    WHERE status = 'finished'
    """,
    "CREATE INDEX results_daily ON results (daily, guild_id) WHERE daily IS NOT NULL",
    "CREATE INDEX games_ended ON games (guild_id, id) WHERE status IN ('finished', 'abandoned')",
    "CREATE INDEX moves_auto ON moves (game_id) WHERE auto = 1",
    f"""
    CREATE TRIGGER results_at_end AFTER UPDATE OF status ON games
    WHEN NEW.status IN ('finished', 'abandoned') AND OLD.status NOT IN ('finished', 'abandoned')
         AND NEW.started_at IS NOT NULL AND json_valid(NEW.players) AND json_valid(NEW.variants)
    BEGIN
    {_RESULT_ROWS.format(g="NEW", source="json_each(IIF(json_valid(NEW.players), NEW.players, '[]')) p")};
    END
    """,
    BACKFILL,
)


async def migrate(db: aiosqlite.Connection) -> None:
    """Version 4 (appended to ``storage.sqlite.MIGRATIONS``): the results table, its trigger and indexes, and the
    results of every game that ended before."""
    for statement in _SCHEMA:
        await db.execute(statement)


# ---- the queries, shared with PostgreSQL ----------------------------------------------------------------------

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

RESULTS = """
SELECT game_id, kind, status, won, score, mixed, team FROM results
WHERE guild_id = ? AND player = ? ORDER BY game_id DESC LIMIT ?
"""


def leaderboard_query(
    guild_id: int, kind: str, teams: bool, mixed: bool, seats: int | None, variant: str | None, minimum: int
) -> tuple[str, list[Any]]:
    """The leaderboard's SQL (without LIMIT/OFFSET) and its arguments; the WHERE names a partial index's terms
    literally, so the planner can use it."""
    who = "team" if teams else "CAST(player AS TEXT)"
    where = ["guild_id = ?", "kind = ?", "mixed = ?", "status = 'finished'"]
    args: list[Any] = [guild_id, kind, int(mixed)]
    if teams:
        where.append("lead = 1")
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

# Whether the game ``q`` had computer players (a negative id among its players) or autopilot turns; ``{players}`` is
# its players' JSON as text.
MIXED = "(EXISTS (SELECT 1 FROM moves m WHERE m.game_id = q.id AND m.auto = 1) OR {players} LIKE '%-%')"
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


def player_results(rows: Sequence[Any]) -> list[PlayerResult]:
    """Rows of ``RESULTS`` (newest first) as results, oldest first."""
    return [
        PlayerResult(
            game_id=int(row["game_id"]),
            kind=str(row["kind"]),
            won=bool(row["won"]),
            score=None if row["status"] != "finished" or row["score"] is None else int(row["score"]),
            mixed=bool(row["mixed"]),
            team=tuple(int(p) for p in str(row["team"]).split()),
        )
        for row in reversed(rows)
    ]


def ended(records: Sequence[GameRecord], mixed: Sequence[Any]) -> list[EndedGame]:
    return [EndedGame(record, bool(flag)) for record, flag in zip(records, mixed, strict=True)]


class SQLiteStats:
    """The statistics queries of ``storage.Storage`` for ``SQLiteStorage`` (which provides ``_rows``)."""

    async def _rows(self, query: str, args: tuple[Any, ...] = ()) -> list[Any]:
        raise NotImplementedError

    async def _write(self, query: str, args: tuple[Any, ...] = ()) -> tuple[int, int | None]:
        raise NotImplementedError

    async def game(self, game_id: int) -> GameRecord | None:
        raise NotImplementedError

    async def player_tallies(self, guild_id: int, player: int) -> list[Tally]:
        return [tally(row) for row in await self._rows(TALLIES, (guild_id, player))]

    async def player_streaks(self, guild_id: int, player: int) -> list[Streak]:
        return [streak(row) for row in await self._rows(STREAKS, (guild_id, player))]

    async def player_teams(self, guild_id: int, player: int, kind: str, limit: int = 5) -> list[Standing]:
        return [standing(row) for row in await self._rows(TEAMS, (guild_id, player, kind, limit))]

    async def player_results(self, guild_id: int, player: int, limit: int = 60) -> list[PlayerResult]:
        return player_results(await self._rows(RESULTS, (guild_id, player, limit)))

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
        rows = await self._rows(f"{query} LIMIT ? OFFSET ?", (*args, limit, offset))
        if not rows and offset:
            total = await self._rows(f"SELECT count(*) AS lines FROM ({query}) q", tuple(args))
            return [], int(total[0]["lines"])
        return [standing(row) for row in rows], int(rows[0]["lines"]) if rows else 0

    async def ended_games(
        self, guild_id: int, channel_id: int | None = None, limit: int = 10, offset: int = 0
    ) -> list[EndedGame]:
        from storage.sqlite import _SELECT, _record  # the driver's module imports this one

        where, args = ENDED, [guild_id]
        if channel_id is not None:
            where += " AND channel_id = ?"
            args.append(channel_id)
        rows = await self._rows(
            f"SELECT q.*, {MIXED.format(players='q.players')} AS mixed FROM "
            f"({_SELECT} WHERE {where} ORDER BY id DESC LIMIT ? OFFSET ?) q ORDER BY q.id DESC",
            (*args, limit, offset),
        )
        return ended([_record(row) for row in rows], [row["mixed"] for row in rows])

    async def set_daily_deal(self, game: GameRecord, seed: int, day: str) -> GameRecord:
        from storage.sqlite import _dump, now

        changed, _ = await self._write(
            "UPDATE games SET seed = ?, options = ?, revision = revision + 1, updated_at = ? "
            "WHERE id = ? AND revision = ? AND status = 'lobby'",
            (seed, _dump({**game.options, "deal": "daily", "date": day}), now(), game.id, game.revision),
        )
        record = await self.game(game.id) if changed == 1 else None
        if record is None:
            raise Conflict(game.id)
        return record

    async def daily_games(self, guild_id: int, day: str) -> list[GameRecord]:
        from storage.sqlite import _SELECT, _record

        rows = await self._rows(f"{_SELECT} WHERE g.id IN ({DAILY_IDS}) ORDER BY g.id", (day, guild_id))
        return [_record(row) for row in rows]
