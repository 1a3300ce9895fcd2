-- Puzzles found in a server's own finished games. PostgreSQL dialect of
-- migrations/0013.
CREATE TABLE puzzle_pool (
	guild     TEXT NOT NULL,
	puzzle_id TEXT NOT NULL,
	game      TEXT NOT NULL,
	line      TEXT NOT NULL,
	rating    BIGINT NOT NULL,
	game_id   BIGINT NOT NULL,
	added_at  BIGINT NOT NULL,
	PRIMARY KEY (guild, puzzle_id)
);
CREATE INDEX puzzle_pool_game ON puzzle_pool(guild, game);
CREATE INDEX puzzle_pool_id ON puzzle_pool(puzzle_id);

CREATE TABLE puzzle_mined (
	game_id  BIGINT NOT NULL PRIMARY KEY,
	found    BIGINT NOT NULL,
	mined_at BIGINT NOT NULL
);
