-- Board messages (docs/reliability.md, "Only the current board is live"):
-- every message showing a game's board, with the game sequence it shows.
-- The newest (highest seq, then last recorded) keeps its buttons; an
-- outbox post of kind 'strip' removes the others' and clears live.
CREATE TABLE boards (
	id          INTEGER PRIMARY KEY,
	game_id     INTEGER NOT NULL,
	message_id  TEXT NOT NULL,
	channel_id  TEXT NOT NULL,
	seq         INTEGER NOT NULL,
	live        INTEGER NOT NULL DEFAULT 1, -- 1 until its buttons are removed
	recorded_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX boards_message ON boards(game_id, message_id);
CREATE INDEX boards_live ON boards(game_id, seq) WHERE live = 1;
CREATE INDEX outbox_strips ON outbox(game_id) WHERE state = 'pending' AND kind = 'strip';
-- The board each active game shows today, so the first board recorded
-- after the upgrade supersedes it.
INSERT INTO boards(game_id, message_id, channel_id, seq, live, recorded_at)
	SELECT id, message_id, CASE WHEN thread <> '' THEN thread ELSE channel END, seq, 1, updated_at
	FROM games WHERE status = 'active' AND message_id <> '';

-- Interactions already handled, shared by every instance on the database,
-- so a replayed interaction changes nothing (kept at least 10 minutes).
CREATE TABLE interactions (
	id      TEXT PRIMARY KEY,
	seen_at INTEGER NOT NULL
);
CREATE INDEX interactions_seen ON interactions(seen_at);

-- PostgreSQL: a token per write transaction, so that when the connection
-- breaks during COMMIT the store can tell whether it committed (and run it
-- again only if not). Unused by SQLite; purged after a day.
CREATE TABLE tx_done (
	token TEXT PRIMARY KEY,
	at    INTEGER NOT NULL
);
CREATE INDEX tx_done_at ON tx_done(at);
