-- Board messages' interaction webhooks (PostgreSQL dialect of
-- migrations/0013).
ALTER TABLE boards ADD COLUMN hook_token TEXT NOT NULL DEFAULT '';
ALTER TABLE boards ADD COLUMN hook_message TEXT NOT NULL DEFAULT '';
ALTER TABLE boards ADD COLUMN hook_at BIGINT NOT NULL DEFAULT 0;
