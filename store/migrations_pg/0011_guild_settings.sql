-- Per-server settings (PostgreSQL dialect of migrations/0011).
CREATE TABLE guild_settings (
	guild  TEXT PRIMARY KEY,
	locale TEXT NOT NULL DEFAULT '',
	game   TEXT NOT NULL DEFAULT '',
	clock  TEXT NOT NULL DEFAULT '',
	thread BIGINT,
	ai_off BIGINT NOT NULL DEFAULT 0
);
