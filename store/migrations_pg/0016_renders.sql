-- Stored pictures of finished games (PostgreSQL dialect of migrations/0013).
CREATE TABLE game_renders (
	game_id    BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
	name       TEXT NOT NULL,
	data       BYTEA NOT NULL,
	created_at BIGINT NOT NULL,
	PRIMARY KEY (game_id, name)
);
