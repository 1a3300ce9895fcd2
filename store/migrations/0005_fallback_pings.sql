-- Fallback pings (docs/reliability.md): a move queues its turn ping in the
-- outbox, due a little later, in its own transaction; recording the
-- interaction's answer that carried the ping cancels it. The columns find
-- it: the game, the game sequence the move reached, and the kind ('ping';
-- '' for every other post).
ALTER TABLE outbox ADD COLUMN game_id INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN kind TEXT NOT NULL DEFAULT '';
CREATE INDEX outbox_pings ON outbox(game_id, seq) WHERE state = 'pending' AND kind = 'ping';
