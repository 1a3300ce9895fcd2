-- A player's text mode (PostgreSQL dialect of migrations/0018).
ALTER TABLE players ADD COLUMN text_mode BIGINT NOT NULL DEFAULT 0;
