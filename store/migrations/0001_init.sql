-- Times are Unix nanoseconds (UTC); durations are nanoseconds.
CREATE TABLE players (
	id         TEXT PRIMARY KEY,              -- Discord user id
	name       TEXT NOT NULL DEFAULT '',
	locale     TEXT NOT NULL DEFAULT '',
	flip       INTEGER NOT NULL DEFAULT 0,    -- board orientation preference
	rating     REAL,                          -- for later
	updated_at INTEGER NOT NULL
);

CREATE TABLE games (
	id          INTEGER PRIMARY KEY,
	rev         INTEGER NOT NULL DEFAULT 0,   -- bumped by every write
	kind        TEXT NOT NULL,                -- tank, camelot, gungi
	variant     TEXT NOT NULL DEFAULT '',     -- map name, or '' for a custom start
	guild       TEXT NOT NULL DEFAULT '',
	channel     TEXT NOT NULL,
	thread      TEXT NOT NULL DEFAULT '',
	player0     TEXT NOT NULL,                -- plays side 0 (first to move)
	player1     TEXT NOT NULL,                -- plays side 1
	start_pos   TEXT NOT NULL,
	pos         TEXT NOT NULL,                -- cached current position
	ply         INTEGER NOT NULL DEFAULT 0,
	status      TEXT NOT NULL,                -- active, finished
	result      TEXT NOT NULL DEFAULT '',
	reason      TEXT NOT NULL DEFAULT '',
	clock       TEXT NOT NULL DEFAULT 'none', -- clock.Settings.String()
	left0       INTEGER NOT NULL DEFAULT 0,
	left1       INTEGER NOT NULL DEFAULT 0,
	turn_start  INTEGER NOT NULL DEFAULT 0,
	to_move     INTEGER NOT NULL DEFAULT 0,
	draw_offer  INTEGER NOT NULL DEFAULT 0,   -- 0 none, 1 side 0 offers, 2 side 1 offers
	takeback    INTEGER NOT NULL DEFAULT 0,   -- same encoding
	message_id  TEXT NOT NULL DEFAULT '',     -- Discord id of the board message
	extra       TEXT NOT NULL DEFAULT '',     -- opaque to the store
	created_at  INTEGER NOT NULL,
	updated_at  INTEGER NOT NULL
);
CREATE UNIQUE INDEX games_active_thread ON games(thread) WHERE status = 'active' AND thread <> '';
CREATE UNIQUE INDEX games_active_pair ON games(channel, min(player0, player1), max(player0, player1)) WHERE status = 'active';
CREATE INDEX games_guild ON games(guild, status);
CREATE INDEX games_channel ON games(channel, status);
CREATE INDEX games_player0 ON games(player0, channel);
CREATE INDEX games_player1 ON games(player1, channel);

CREATE TABLE moves (
	game_id  INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
	ply      INTEGER NOT NULL,               -- 1 for the first move
	side     INTEGER NOT NULL,
	notation TEXT NOT NULL,
	pos      TEXT NOT NULL,                  -- position after the move
	spent    INTEGER NOT NULL DEFAULT 0,
	at       INTEGER NOT NULL,
	PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;

CREATE TABLE challenges (
	id          INTEGER PRIMARY KEY,
	challenger  TEXT NOT NULL,
	challenged  TEXT NOT NULL DEFAULT '',    -- '' for an open challenge
	kind        TEXT NOT NULL,
	variant     TEXT NOT NULL DEFAULT '',
	start_pos   TEXT NOT NULL DEFAULT '',
	clock       TEXT NOT NULL DEFAULT 'none',
	side        TEXT NOT NULL DEFAULT '',    -- challenger's side choice
	guild       TEXT NOT NULL DEFAULT '',
	channel     TEXT NOT NULL,
	message_id  TEXT NOT NULL DEFAULT '',
	expires_at  INTEGER NOT NULL,
	status      TEXT NOT NULL,               -- pending, accepted, declined, cancelled, expired
	game_id     INTEGER REFERENCES games(id),
	extra       TEXT NOT NULL DEFAULT '',
	created_at  INTEGER NOT NULL
);
CREATE UNIQUE INDEX challenges_pending_pair ON challenges(min(challenger, challenged), max(challenger, challenged))
	WHERE status = 'pending' AND challenged <> '';
CREATE INDEX challenges_status ON challenges(status);

CREATE TABLE events (
	id            INTEGER PRIMARY KEY,
	kind          TEXT NOT NULL,             -- flag, remind, expire, ...
	ref           INTEGER NOT NULL,          -- game or challenge id
	ply           INTEGER NOT NULL DEFAULT 0,
	due_at        INTEGER NOT NULL,
	payload       TEXT NOT NULL DEFAULT '',
	attempts      INTEGER NOT NULL DEFAULT 0,
	claimed_until INTEGER NOT NULL DEFAULT 0,
	done          INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX events_due ON events(due_at) WHERE done = 0;
CREATE INDEX events_ref ON events(ref, kind);

CREATE TABLE meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
