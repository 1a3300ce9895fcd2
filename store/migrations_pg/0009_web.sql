-- The web viewer (PostgreSQL dialect of migrations/0009).
CREATE TABLE web_links (
	game_id    BIGINT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
	token      TEXT NOT NULL,
	token_hash TEXT NOT NULL,
	hidden     BIGINT NOT NULL DEFAULT 0,
	created_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX web_links_token_hash ON web_links(token_hash);
CREATE TABLE web_guilds (
	guild     TEXT PRIMARY KEY,
	links_off BIGINT NOT NULL DEFAULT 0
);
