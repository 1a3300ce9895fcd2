-- Reliability (see docs/reliability.md).
--
-- games.seq: advanced by every move and every takeback and never reused, so
-- a button drawn for one position can never pass for a later one. Existing
-- games start at their ply (their old buttons carry the ply).
ALTER TABLE games ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
UPDATE games SET seq = ply;

-- moves.rep_key: the position's repetition key after the move ('' for games
-- without a repetition rule, and for moves stored before this migration), so
-- a repetition is counted with an index look-up instead of a replay.
ALTER TABLE moves ADD COLUMN rep_key TEXT NOT NULL DEFAULT '';
CREATE INDEX moves_rep ON moves(game_id, rep_key);

-- players.seen_locale: the last Discord locale seen from the user, for the
-- messages the scheduler writes to them.
ALTER TABLE players ADD COLUMN seen_locale TEXT NOT NULL DEFAULT '';

-- The outbox: messages that must reach Discord although no interaction is
-- waiting for them (flag-falls, reminders, expiries, downtime notices). Rows
-- are written in the transaction of the change they report and delivered by
-- the scheduler until Discord acknowledges them.
CREATE TABLE outbox (
	id            INTEGER PRIMARY KEY,
	channel       TEXT NOT NULL,
	nonce         TEXT NOT NULL,             -- Discord nonce (enforce_nonce): a resend after a crash is deduplicated
	payload       TEXT NOT NULL,             -- the message, opaque to the store (the bot's JSON)
	due_at        INTEGER NOT NULL,          -- next attempt
	attempts      INTEGER NOT NULL DEFAULT 0,
	claimed_until INTEGER NOT NULL DEFAULT 0,
	state         TEXT NOT NULL DEFAULT 'pending', -- pending, sent, failed (given up)
	message_id    TEXT NOT NULL DEFAULT '',  -- Discord's id once sent
	last_error    TEXT NOT NULL DEFAULT '',
	created_at    INTEGER NOT NULL,
	done_at       INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX outbox_due ON outbox(due_at) WHERE state = 'pending';
CREATE INDEX outbox_done ON outbox(done_at) WHERE state <> 'pending';
CREATE INDEX outbox_channel ON outbox(channel, id) WHERE state = 'pending';

-- Completed events are purged after a retention period.
ALTER TABLE events ADD COLUMN done_at INTEGER NOT NULL DEFAULT 0;
CREATE INDEX events_done ON events(done_at) WHERE done = 1;
