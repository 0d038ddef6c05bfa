"""Statistics for the PostgreSQL driver: the SQLite driver's ``results`` table, trigger and queries
(``storage._stats_sqlite`` explains them), in PostgreSQL's dialect. A mixin of ``PostgresStorage``; ``MIGRATION`` is
the driver's migration that creates the table and back-fills it.

A data-modifying statement's AFTER triggers run at its end and see all it changed, so the trigger on the game row,
fired by ``append_move``'s single statement, also sees the last move it appended (an autopilot move marks the game).
"""

from __future__ import annotations

import re
from typing import Any

from storage import Conflict, EndedGame, GameRecord, PlayerResult, Standing, Streak, Tally
from storage._stats_sqlite import (
    DAILY_IDS,
    ENDED,
    MIXED,
    RESULTS,
    STREAKS,
    TALLIES,
    TEAMS,
    ended,
    leaderboard_query,
    player_results,
    standing,
    streak,
    tally,
)

_RESULT_ROWS = """
INSERT INTO results (guild_id, player, game_id, channel_id, kind, seats, variant, status, won, score, mixed, lead,
                     team, daily, ended_at)
SELECT {g}.guild_id, p.player, {g}.id, {g}.channel_id, {g}.kind, jsonb_array_length({g}.players),
       array_to_string(ARRAY(SELECT jsonb_array_elements_text({g}.variants)), ','),
       {g}.status,
       CASE WHEN {g}.status <> 'finished' OR {g}.result IS NULL THEN NULL
            WHEN {g}.result ? 'won' THEN ({g}.result ->> 'won')::boolean::int
            ELSE (({g}.result ->> 'winner')::bigint = p.player)::int END,
       CASE WHEN {g}.status <> 'finished' OR {g}.result IS NULL THEN NULL
            ELSE COALESCE(({g}.result -> 'scores' ->> p.player::text)::int, ({g}.result ->> 'score')::int) END,
       (EXISTS (SELECT 1 FROM jsonb_array_elements({g}.players) b WHERE b.value::bigint < 0)
           OR EXISTS (SELECT 1 FROM moves m WHERE m.game_id = {g}.id AND m.auto))::int,
       (p.player = (SELECT min(h.value::bigint) FROM jsonb_array_elements({g}.players) h
                    WHERE h.value::bigint > 0))::int,
       (SELECT string_agg(h.value::bigint::text, ' ' ORDER BY h.value::bigint)
        FROM jsonb_array_elements({g}.players) h WHERE h.value::bigint > 0),
       CASE WHEN {g}.options ->> 'deal' = 'daily' THEN {g}.options ->> 'date' END,
       COALESCE({g}.ended_at, {g}.updated_at)
FROM {source}
WHERE p.player > 0
ON CONFLICT DO NOTHING
"""

# The results of every game that ended before the trigger existed (the migration; a benchmark's bulk fill).
BACKFILL = _RESULT_ROWS.format(
    g="g", source="games g, LATERAL (SELECT value::bigint AS player FROM jsonb_array_elements(g.players)) p"
).replace(
    "WHERE p.player > 0", "WHERE p.player > 0 AND g.status IN ('finished', 'abandoned') AND g.started_at IS NOT NULL"
)

MIGRATION = f"""
CREATE TABLE results (
    guild_id    BIGINT  NOT NULL,
    player      BIGINT  NOT NULL,
    game_id     BIGINT  NOT NULL REFERENCES games (id),
    channel_id  BIGINT  NOT NULL,
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
);
CREATE INDEX results_by_team ON results (guild_id, kind, mixed, team, won, score, seats, variant)
    WHERE lead = 1 AND status = 'finished';
CREATE INDEX results_by_player ON results (guild_id, kind, mixed, player, won, score, seats, variant)
    WHERE status = 'finished';
CREATE INDEX results_daily ON results (daily, guild_id) WHERE daily IS NOT NULL;
CREATE INDEX games_ended ON games (guild_id, id) WHERE status IN ('finished', 'abandoned');
CREATE INDEX moves_auto ON moves (game_id) WHERE auto;
CREATE FUNCTION record_results() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
{_RESULT_ROWS.format(g="NEW", source="(SELECT value::bigint AS player FROM jsonb_array_elements(NEW.players)) p")};
RETURN NULL;
END
$$;
CREATE TRIGGER results_at_end AFTER UPDATE OF status ON games FOR EACH ROW
    WHEN (NEW.status IN ('finished', 'abandoned') AND OLD.status NOT IN ('finished', 'abandoned')
          AND NEW.started_at IS NOT NULL)
    EXECUTE FUNCTION record_results();
{BACKFILL};
"""


def numbered(query: str) -> str:
    """SQLite's ``?`` placeholders as PostgreSQL's ``$1``, ``$2``, ..."""
    count = iter(range(1, 1000))
    return re.sub(r"\?", lambda _: f"${next(count)}", query)


_TALLIES, _STREAKS, _TEAMS, _RESULTS = numbered(TALLIES), numbered(STREAKS), numbered(TEAMS), numbered(RESULTS)


class PostgresStats:
    """The statistics queries of ``storage.Storage`` for ``PostgresStorage`` (which provides ``_rows``)."""

    async def _rows(self, query: str, *args: Any) -> list[Any]:
        raise NotImplementedError

    async def player_tallies(self, guild_id: int, player: int) -> list[Tally]:
        return [tally(row) for row in await self._rows(_TALLIES, guild_id, player)]

    async def player_streaks(self, guild_id: int, player: int) -> list[Streak]:
        return [streak(row) for row in await self._rows(_STREAKS, guild_id, player)]

    async def player_teams(self, guild_id: int, player: int, kind: str, limit: int = 5) -> list[Standing]:
        return [standing(row) for row in await self._rows(_TEAMS, guild_id, player, kind, limit)]

    async def player_results(self, guild_id: int, player: int, limit: int = 60) -> list[PlayerResult]:
        return player_results(await self._rows(_RESULTS, guild_id, player, limit))

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
        rows = await self._rows(numbered(f"{query} LIMIT ? OFFSET ?"), *args, limit, offset)
        if not rows and offset:
            total = await self._rows(numbered(f"SELECT count(*) AS lines FROM ({query}) q"), *args)
            return [], int(total[0]["lines"])
        return [standing(row) for row in rows], int(rows[0]["lines"]) if rows else 0

    async def ended_games(
        self, guild_id: int, channel_id: int | None = None, limit: int = 10, offset: int = 0
    ) -> list[EndedGame]:
        from storage.postgres import _SELECT  # the driver's module imports this one
        from storage.sqlite import _record

        where, args = ENDED, [guild_id]
        if channel_id is not None:
            where += " AND channel_id = ?"
            args.append(channel_id)
        rows = await self._rows(
            numbered(
                f"SELECT q.*, {MIXED.format(players='q.players::text').replace('m.auto = 1', 'm.auto')} AS mixed "
                f"FROM ({_SELECT} WHERE {where} ORDER BY id DESC LIMIT ? OFFSET ?) q ORDER BY q.id DESC"
            ),
            *args,
            limit,
            offset,
        )
        return ended([_record(row) for row in rows], [row["mixed"] for row in rows])

    async def set_daily_deal(self, game: GameRecord, seed: int, day: str) -> GameRecord:
        from storage.postgres import _COLUMNS
        from storage.sqlite import _dump, _record, now

        rows = await self._rows(
            "UPDATE games SET seed = $1, options = $2, revision = revision + 1, updated_at = $3 "
            f"WHERE id = $4 AND revision = $5 AND status = 'lobby' RETURNING {_COLUMNS}",
            seed,
            _dump({**game.options, "deal": "daily", "date": day}),
            now(),
            game.id,
            game.revision,
        )
        if not rows:
            raise Conflict(game.id)
        return _record(rows[0])

    async def daily_games(self, guild_id: int, day: str) -> list[GameRecord]:
        from storage.postgres import _SELECT
        from storage.sqlite import _record

        rows = await self._rows(numbered(f"{_SELECT} WHERE id IN ({DAILY_IDS}) ORDER BY id"), day, guild_id)
        return [_record(row) for row in rows]
