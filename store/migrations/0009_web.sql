-- The web viewer (docs/web.md): a game's page is reached only through a
-- random 128-bit capability. The token is looked up by its SHA-256 so that
-- the index search's timing tells nothing about valid tokens; either player
-- may hide a finished game; a server may turn links off.
CREATE TABLE web_links (
	game_id    INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
	token      TEXT NOT NULL,
	token_hash TEXT NOT NULL,
	hidden     INTEGER NOT NULL DEFAULT 0,
	created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX web_links_token_hash ON web_links(token_hash);
CREATE TABLE web_guilds (
	guild     TEXT PRIMARY KEY,
	links_off INTEGER NOT NULL DEFAULT 0
);
