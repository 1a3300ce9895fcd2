-- Puzzles solved in Discord. Portable SQL (SQLite and PostgreSQL).

-- The puzzle a player is solving (one at a time): its id, game, how many
-- solver moves are done and whether a hint was taken.
CREATE TABLE puzzle_active (
	player     TEXT NOT NULL PRIMARY KEY,  -- Discord user id
	game       TEXT NOT NULL,
	puzzle_id  TEXT NOT NULL,
	step       INTEGER NOT NULL DEFAULT 0, -- solver moves played correctly
	hinted     INTEGER NOT NULL DEFAULT 0,
	started_at INTEGER NOT NULL
);

-- A player's Glicko-2 puzzle rating in one game, with counts and streak.
CREATE TABLE puzzle_ratings (
	player      TEXT NOT NULL,
	game        TEXT NOT NULL,
	rating      REAL NOT NULL,
	rd          REAL NOT NULL,
	vol         REAL NOT NULL,
	solved      INTEGER NOT NULL DEFAULT 0,  -- first attempts solved (hinted too)
	clean       INTEGER NOT NULL DEFAULT 0,  -- solved without a hint
	failed      INTEGER NOT NULL DEFAULT 0,
	streak      INTEGER NOT NULL DEFAULT 0,  -- clean solves in a row
	best_streak INTEGER NOT NULL DEFAULT 0,
	last_at     INTEGER NOT NULL,
	PRIMARY KEY (player, game)
);

-- Each puzzle's own Glicko-2 rating, moved by first attempts.
CREATE TABLE puzzle_stats (
	puzzle_id TEXT NOT NULL PRIMARY KEY,
	game      TEXT NOT NULL,
	rating    REAL NOT NULL,
	rd        REAL NOT NULL,
	vol       REAL NOT NULL,
	attempts  INTEGER NOT NULL DEFAULT 0,
	solved    INTEGER NOT NULL DEFAULT 0
);

-- First attempts: one per player and puzzle; only the first one rates.
CREATE TABLE puzzle_attempts (
	player    TEXT NOT NULL,
	puzzle_id TEXT NOT NULL,
	game      TEXT NOT NULL,
	solved    INTEGER NOT NULL,
	hinted    INTEGER NOT NULL,
	at        INTEGER NOT NULL,
	PRIMARY KEY (player, puzzle_id)
);
CREATE INDEX puzzle_attempts_game ON puzzle_attempts(player, game);
