-- More per-server settings (/server) and the daily puzzle.
-- games_channel: where /challenge may be used ('' = anywhere);
-- daily_channel and daily_hour (UTC): where and when the daily puzzle is
-- posted ('' = no daily puzzle); challenge_role: the role a member needs
-- to challenge ('' = everyone); variants: the default map of each game,
-- "game=variant" pairs joined by commas ('' = the games' own defaults).
ALTER TABLE guild_settings ADD COLUMN games_channel TEXT NOT NULL DEFAULT '';
ALTER TABLE guild_settings ADD COLUMN daily_channel TEXT NOT NULL DEFAULT '';
ALTER TABLE guild_settings ADD COLUMN daily_hour INTEGER NOT NULL DEFAULT 0;
ALTER TABLE guild_settings ADD COLUMN challenge_role TEXT NOT NULL DEFAULT '';
ALTER TABLE guild_settings ADD COLUMN variants TEXT NOT NULL DEFAULT '';

-- One daily puzzle per server and day (the primary key is what makes a
-- post happen once, whichever instance fires it).
CREATE TABLE daily_posts (
	guild     TEXT NOT NULL,
	day       TEXT NOT NULL,     -- UTC date of the post's slot, 2006-01-02
	game      TEXT NOT NULL,
	puzzle_id TEXT NOT NULL,
	channel   TEXT NOT NULL,
	posted_at INTEGER NOT NULL,  -- the slot (Unix nanoseconds)
	message_id TEXT NOT NULL DEFAULT '', -- Discord's id once delivered
	PRIMARY KEY (guild, day)
);

-- Who opened a daily puzzle, how often they missed and when they solved it.
CREATE TABLE daily_solvers (
	guild     TEXT NOT NULL,
	day       TEXT NOT NULL,
	player    TEXT NOT NULL,
	name      TEXT NOT NULL DEFAULT '',
	misses    INTEGER NOT NULL DEFAULT 0,
	solved_at INTEGER,            -- NULL until solved
	PRIMARY KEY (guild, day, player)
);
CREATE INDEX daily_solvers_player ON daily_solvers(player);
