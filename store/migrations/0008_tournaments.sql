-- Tournaments: round-robin, Swiss and knockout events run in a server
-- (docs/tournaments.md). Portable SQL (SQLite and PostgreSQL).

CREATE TABLE tournaments (
	id              INTEGER PRIMARY KEY,
	guild           TEXT NOT NULL,
	channel         TEXT NOT NULL DEFAULT '',   -- where it was created; its games and posts go there
	creator         TEXT NOT NULL,              -- Discord user id of the organiser
	kind            TEXT NOT NULL,              -- tank, camelot, gungi
	variant         TEXT NOT NULL DEFAULT '',
	clock           TEXT NOT NULL DEFAULT '',   -- time control of every game
	format          TEXT NOT NULL,              -- round-robin, swiss, knockout
	rounds          INTEGER NOT NULL DEFAULT 0, -- Swiss rounds (the other formats derive theirs)
	rated           INTEGER NOT NULL DEFAULT 1,
	max_players     INTEGER NOT NULL DEFAULT 0, -- 0: no limit of its own
	signup_deadline INTEGER NOT NULL DEFAULT 0, -- unix ns, 0: none
	round_length    INTEGER NOT NULL,           -- nanoseconds
	status          TEXT NOT NULL DEFAULT 'signup', -- signup, running, finished, cancelled
	round           INTEGER NOT NULL DEFAULT 0, -- current round; starting one is a compare-and-set on it
	round_deadline  INTEGER NOT NULL DEFAULT 0, -- unix ns
	created_at      INTEGER NOT NULL,
	updated_at      INTEGER NOT NULL
);
CREATE INDEX tournaments_guild ON tournaments(guild, status);
CREATE INDEX tournaments_due ON tournaments(status, round_deadline);

CREATE TABLE tournament_entrants (
	tournament_id   INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
	player          TEXT NOT NULL,
	seq             INTEGER NOT NULL,           -- sign-up order
	rating          REAL NOT NULL,              -- at sign-up (seeding)
	joined_at       INTEGER NOT NULL,
	withdrawn       INTEGER NOT NULL DEFAULT 0,
	withdrawn_round INTEGER NOT NULL DEFAULT 0, -- the round current when they withdrew
	PRIMARY KEY (tournament_id, player)
);

-- One row per board of a round; black '' is a bye. game_id is set once,
-- when the game starts (0 for byes and forfeits); result '' is pending.
CREATE TABLE tournament_pairings (
	tournament_id   INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
	round           INTEGER NOT NULL,
	board           INTEGER NOT NULL,
	white           TEXT NOT NULL,
	black           TEXT NOT NULL DEFAULT '',
	game_id         INTEGER NOT NULL DEFAULT 0,
	result          TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (tournament_id, round, board)
);
CREATE INDEX tournament_pairings_game ON tournament_pairings(game_id);
