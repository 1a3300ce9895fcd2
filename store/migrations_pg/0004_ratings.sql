-- Ratings and the archive (PostgreSQL dialect of migrations/0004).

-- Per-server game numbers (#1, #2, ... in each guild), assigned when a game
-- is created; existing games are numbered in creation order.
ALTER TABLE games ADD COLUMN number BIGINT NOT NULL DEFAULT 0;
UPDATE games SET number = (SELECT COUNT(*) FROM games g2 WHERE g2.guild = games.guild AND g2.id <= games.id);
CREATE UNIQUE INDEX games_guild_number ON games(guild, number) WHERE number > 0;
CREATE INDEX games_finished ON games(guild, status, number);

-- Whether the result counts for ratings. New games are rated unless the
-- caller says otherwise (casual challenges, games against the AI); games
-- finished before ratings existed are not.
ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 1;
UPDATE games SET rated = 0;

-- A player's Glicko-2 rating for one game on one server.
CREATE TABLE ratings (
	guild       TEXT NOT NULL,
	kind        TEXT NOT NULL,               -- tank, camelot, gungi
	player      TEXT NOT NULL,               -- Discord user id
	rating      DOUBLE PRECISION NOT NULL,
	rd          DOUBLE PRECISION NOT NULL,
	vol         DOUBLE PRECISION NOT NULL,
	games       BIGINT NOT NULL DEFAULT 0,  -- rated games counted
	wins        BIGINT NOT NULL DEFAULT 0,
	draws       BIGINT NOT NULL DEFAULT 0,
	losses      BIGINT NOT NULL DEFAULT 0,
	streak      BIGINT NOT NULL DEFAULT 0,  -- current: +n wins in a row, -n losses in a row
	best_streak BIGINT NOT NULL DEFAULT 0,  -- longest run of wins
	last_at     BIGINT NOT NULL,            -- when the last rated game finished
	PRIMARY KEY (guild, kind, player)
);
CREATE INDEX ratings_board ON ratings(guild, kind, rating);

-- What each rated game did to both ratings: one row per side. Its presence
-- makes applying a game's result idempotent.
CREATE TABLE rating_changes (
	game_id     BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
	side        BIGINT NOT NULL,
	player      TEXT NOT NULL,
	rating_before DOUBLE PRECISION NOT NULL,
	rd_before     DOUBLE PRECISION NOT NULL,
	rating_after  DOUBLE PRECISION NOT NULL,
	rd_after      DOUBLE PRECISION NOT NULL,
	vol_after     DOUBLE PRECISION NOT NULL,
	at          BIGINT NOT NULL,
	PRIMARY KEY (game_id, side)
);
CREATE INDEX rating_changes_player ON rating_changes(player);
