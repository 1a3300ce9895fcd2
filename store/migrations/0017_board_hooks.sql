-- The interaction webhook a board message can be edited through while its
-- token lives (15 minutes from the interaction): stripping an old board's
-- buttons that way spends none of the bot token's global limit. hook_token
-- is the interaction's token ('' when the board was posted with the bot
-- token), hook_message '@original' or the follow-up's message id, hook_at
-- when the interaction was created (Unix nanoseconds). The token is
-- cleared once the board is stripped.
ALTER TABLE boards ADD COLUMN hook_token TEXT NOT NULL DEFAULT '';
ALTER TABLE boards ADD COLUMN hook_message TEXT NOT NULL DEFAULT '';
ALTER TABLE boards ADD COLUMN hook_at INTEGER NOT NULL DEFAULT 0;
