-- Fallback pings (PostgreSQL dialect of migrations/0005).
ALTER TABLE outbox ADD COLUMN game_id BIGINT NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN seq BIGINT NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN kind TEXT NOT NULL DEFAULT '';
CREATE INDEX outbox_pings ON outbox(game_id, seq) WHERE state = 'pending' AND kind = 'ping';
