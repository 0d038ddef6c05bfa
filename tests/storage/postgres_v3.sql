-- The schema the PostgreSQL driver wrote before its migrations and SQLite's became one history: its own version 3
-- (version 4 of the one history). Its three migrations, verbatim from storage/postgres.py at commit 311701e.

CREATE TABLE games (
    id             BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    channel_id     BIGINT  NOT NULL,
    guild_id       BIGINT  NOT NULL,
    kind           TEXT    NOT NULL,
    host_id        BIGINT,
    players        JSONB   NOT NULL,
    variants       JSONB   NOT NULL,
    seed           BIGINT  NOT NULL,
    rules_version  INTEGER NOT NULL DEFAULT 1,
    status         TEXT    NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'abandoned')),
    revision       INTEGER NOT NULL DEFAULT 0,
    options        JSONB   NOT NULL DEFAULT '{}',
    message_id     BIGINT,
    result         JSONB,
    damaged        TEXT,
    created_at     TEXT    NOT NULL,
    started_at     TEXT,
    ended_at       TEXT,
    updated_at     TEXT    NOT NULL
);
CREATE UNIQUE INDEX one_open_game_per_channel ON games (channel_id) WHERE status IN ('lobby', 'running');
CREATE INDEX games_by_status ON games (status);
CREATE INDEX games_by_channel ON games (channel_id, id);
CREATE TABLE moves (
    game_id     BIGINT  NOT NULL REFERENCES games (id),
    seq         INTEGER NOT NULL,
    player      BIGINT  NOT NULL,
    action      JSONB   NOT NULL,
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE private_messages (
    game_id     BIGINT NOT NULL REFERENCES games (id),
    user_id     BIGINT NOT NULL,
    message_id  BIGINT,
    text        TEXT   NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE dm_channels (user_id BIGINT PRIMARY KEY, channel_id BIGINT NOT NULL);

ALTER TABLE moves ADD COLUMN auto BOOLEAN NOT NULL DEFAULT false;
CREATE TABLE timers (
    game_id     BIGINT           PRIMARY KEY REFERENCES games (id),
    seq         INTEGER          NOT NULL,
    player      BIGINT           NOT NULL,
    remind_at   DOUBLE PRECISION,
    due_at      DOUBLE PRECISION NOT NULL
);

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

INSERT INTO results (guild_id, player, game_id, channel_id, kind, seats, variant, status, won, score, mixed, lead,
                     team, daily, ended_at)
SELECT NEW.guild_id, p.player, NEW.id, NEW.channel_id, NEW.kind, jsonb_array_length(NEW.players),
       array_to_string(ARRAY(SELECT jsonb_array_elements_text(NEW.variants)), ','),
       NEW.status,
       CASE WHEN NEW.status <> 'finished' OR NEW.result IS NULL THEN NULL
            WHEN NEW.result ? 'won' THEN (NEW.result ->> 'won')::boolean::int
            ELSE ((NEW.result ->> 'winner')::bigint = p.player)::int END,
       CASE WHEN NEW.status <> 'finished' OR NEW.result IS NULL THEN NULL
            ELSE COALESCE((NEW.result -> 'scores' ->> p.player::text)::int, (NEW.result ->> 'score')::int) END,
       (EXISTS (SELECT 1 FROM jsonb_array_elements(NEW.players) b WHERE b.value::bigint < 0)
           OR EXISTS (SELECT 1 FROM moves m WHERE m.game_id = NEW.id AND m.auto))::int,
       (p.player = (SELECT min(h.value::bigint) FROM jsonb_array_elements(NEW.players) h
                    WHERE h.value::bigint > 0))::int,
       (SELECT string_agg(h.value::bigint::text, ' ' ORDER BY h.value::bigint)
        FROM jsonb_array_elements(NEW.players) h WHERE h.value::bigint > 0),
       CASE WHEN NEW.options ->> 'deal' = 'daily' THEN NEW.options ->> 'date' END,
       COALESCE(NEW.ended_at, NEW.updated_at)
FROM (SELECT value::bigint AS player FROM jsonb_array_elements(NEW.players)) p
WHERE p.player > 0
ON CONFLICT DO NOTHING
;
RETURN NULL;
END
$$;
CREATE TRIGGER results_at_end AFTER UPDATE OF status ON games FOR EACH ROW
    WHEN (NEW.status IN ('finished', 'abandoned') AND OLD.status NOT IN ('finished', 'abandoned')
          AND NEW.started_at IS NOT NULL)
    EXECUTE FUNCTION record_results();

INSERT INTO results (guild_id, player, game_id, channel_id, kind, seats, variant, status, won, score, mixed, lead,
                     team, daily, ended_at)
SELECT g.guild_id, p.player, g.id, g.channel_id, g.kind, jsonb_array_length(g.players),
       array_to_string(ARRAY(SELECT jsonb_array_elements_text(g.variants)), ','),
       g.status,
       CASE WHEN g.status <> 'finished' OR g.result IS NULL THEN NULL
            WHEN g.result ? 'won' THEN (g.result ->> 'won')::boolean::int
            ELSE ((g.result ->> 'winner')::bigint = p.player)::int END,
       CASE WHEN g.status <> 'finished' OR g.result IS NULL THEN NULL
            ELSE COALESCE((g.result -> 'scores' ->> p.player::text)::int, (g.result ->> 'score')::int) END,
       (EXISTS (SELECT 1 FROM jsonb_array_elements(g.players) b WHERE b.value::bigint < 0)
           OR EXISTS (SELECT 1 FROM moves m WHERE m.game_id = g.id AND m.auto))::int,
       (p.player = (SELECT min(h.value::bigint) FROM jsonb_array_elements(g.players) h
                    WHERE h.value::bigint > 0))::int,
       (SELECT string_agg(h.value::bigint::text, ' ' ORDER BY h.value::bigint)
        FROM jsonb_array_elements(g.players) h WHERE h.value::bigint > 0),
       CASE WHEN g.options ->> 'deal' = 'daily' THEN g.options ->> 'date' END,
       COALESCE(g.ended_at, g.updated_at)
FROM games g, LATERAL (SELECT value::bigint AS player FROM jsonb_array_elements(g.players)) p
WHERE p.player > 0 AND g.status IN ('finished', 'abandoned') AND g.started_at IS NOT NULL
ON CONFLICT DO NOTHING
;

CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO schema_version (version) VALUES (3);
