-- Stored pictures of finished games (docs/web.md, docs/ratings.md): the
-- animated replay, the final board and the viewer's ply images, drawn once
-- and served from here afterwards. name says what the picture shows
-- ("replay.gif", "ply-12-en.png", ...); a finished game's pictures never
-- change, and they go with the game.
CREATE TABLE game_renders (
	game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
	name       TEXT NOT NULL,
	data       BLOB NOT NULL,
	created_at INTEGER NOT NULL,
	PRIMARY KEY (game_id, name)
);
