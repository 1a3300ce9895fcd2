-- Puzzles found in a server's own finished games (docs/puzzles.md, "Puzzles
-- from your server's games"): proven like the shipped ones, served to that
-- server's players. line is the puzzle as a line of a collection file.
CREATE TABLE puzzle_pool (
	guild     TEXT NOT NULL,
	puzzle_id TEXT NOT NULL,
	game      TEXT NOT NULL,
	line      TEXT NOT NULL,
	rating    INTEGER NOT NULL,       -- the puzzle's starting rating
	game_id   INTEGER NOT NULL,       -- the finished game it came from
	added_at  INTEGER NOT NULL,
	PRIMARY KEY (guild, puzzle_id)
);
CREATE INDEX puzzle_pool_game ON puzzle_pool(guild, game);
CREATE INDEX puzzle_pool_id ON puzzle_pool(puzzle_id);

-- Finished games already mined for puzzles (a restart mines none twice).
CREATE TABLE puzzle_mined (
	game_id  INTEGER NOT NULL PRIMARY KEY,
	found    INTEGER NOT NULL,        -- puzzles it gave (new or not)
	mined_at INTEGER NOT NULL
);
