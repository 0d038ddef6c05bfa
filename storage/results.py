"""The ``results`` table: one row per person of every dealt game that ended, written by the database itself.

Every dealt game that ends leaves one row per person in ``results`` (computer players get none): its server,
channel, kind, table size, variants, whether it was won (a team win, or this person's first place), the score (the
team's cards left, or this person's points), whether computer players sat or the autopilot played a turn
(``mixed``), the team (its people in id order) and the daily deal's date. A trigger on the game row writes them in the
transaction that ends the game, so no driver code changes; the migration back-fills games that ended before it.

The rows are derived from ``games.result`` by one convention, not by game: a team result has ``won`` and ``score``,
a per-player result has ``winner`` and ``scores`` (by player id). Reading JSON and writing a trigger are where the
two databases' SQL differs most, so this table's definition is written once per dialect; the queries over it
(``storage.stats``) are shared. On PostgreSQL, a data-modifying statement's AFTER triggers run at its end and see
all it changed, so the trigger on the game row, fired by ``append_move``'s single statement, also sees the last move
it appended (an autopilot move marks the game).
"""

from __future__ import annotations

# ---- SQLite ---------------------------------------------------------------------------------------------------

_SQLITE_ROWS = """
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

# A row whose players can't be read (reported as damaged in its channel) has no results, and must not stop the
# migration or /endgame: json_each of malformed text would raise.
_SQLITE_BACKFILL = (
    _SQLITE_ROWS.format(g="g", source="games g, json_each(IIF(json_valid(g.players), g.players, '[]')) p")
    + " AND g.status IN ('finished', 'abandoned') AND g.started_at IS NOT NULL"
)

_SQLITE_TRIGGER = f"""
CREATE TRIGGER results_at_end AFTER UPDATE OF status ON games
WHEN NEW.status IN ('finished', 'abandoned') AND OLD.status NOT IN ('finished', 'abandoned')
     AND NEW.started_at IS NOT NULL AND json_valid(NEW.players) AND json_valid(NEW.variants)
BEGIN
{_SQLITE_ROWS.format(g="NEW", source="json_each(IIF(json_valid(NEW.players), NEW.players, '[]')) p")};
END
"""

# ---- PostgreSQL -----------------------------------------------------------------------------------------------

_POSTGRES_ROWS = """
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

_POSTGRES_BACKFILL = _POSTGRES_ROWS.format(
    g="g", source="games g, LATERAL (SELECT value::bigint AS player FROM jsonb_array_elements(g.players)) p"
).replace(
    "WHERE p.player > 0", "WHERE p.player > 0 AND g.status IN ('finished', 'abandoned') AND g.started_at IS NOT NULL"
)

_POSTGRES_TRIGGER = (
    f"""
CREATE FUNCTION record_results() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
{_POSTGRES_ROWS.format(g="NEW", source="(SELECT value::bigint AS player FROM jsonb_array_elements(NEW.players)) p")};
RETURN NULL;
END
$$
""",
    """
CREATE TRIGGER results_at_end AFTER UPDATE OF status ON games FOR EACH ROW
    WHEN (NEW.status IN ('finished', 'abandoned') AND OLD.status NOT IN ('finished', 'abandoned')
          AND NEW.started_at IS NOT NULL)
    EXECUTE FUNCTION record_results()
""",
)

# ---- both -----------------------------------------------------------------------------------------------------

# The table and its indexes (``Dialect.ddl`` fills in the types).
TABLE = """
CREATE TABLE results (
    guild_id    {bigint} NOT NULL,
    player      {bigint} NOT NULL,
    game_id     {bigint} NOT NULL REFERENCES games (id),
    channel_id  {bigint} NOT NULL,
    kind        TEXT     NOT NULL,
    seats       INTEGER  NOT NULL,
    variant     TEXT     NOT NULL,
    status      TEXT     NOT NULL,
    won         INTEGER,
    score       INTEGER,
    mixed       INTEGER  NOT NULL,
    lead        INTEGER  NOT NULL,
    team        TEXT     NOT NULL,
    daily       TEXT,
    ended_at    TEXT     NOT NULL,
    PRIMARY KEY (guild_id, player, game_id)
) {without_rowid};
CREATE INDEX results_by_team ON results (guild_id, kind, mixed, team, won, score, seats, variant)
    WHERE lead = 1 AND status = 'finished';
CREATE INDEX results_by_player ON results (guild_id, kind, mixed, player, won, score, seats, variant)
    WHERE status = 'finished';
CREATE INDEX results_daily ON results (daily, guild_id) WHERE daily IS NOT NULL;
CREATE INDEX games_ended ON games (guild_id, id) WHERE status IN ('finished', 'abandoned');
CREATE INDEX moves_auto ON moves (game_id) WHERE auto = {true}
"""
# The trigger that writes a game's results when it ends (each statement whole: they hold semicolons).
TRIGGER: dict[str, tuple[str, ...]] = {"sqlite": (_SQLITE_TRIGGER,), "postgres": _POSTGRES_TRIGGER}
# The results of every game that ended before the trigger existed (the migration; a benchmark's bulk fill).
BACKFILL: dict[str, str] = {"sqlite": _SQLITE_BACKFILL, "postgres": _POSTGRES_BACKFILL}
