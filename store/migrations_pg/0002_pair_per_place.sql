-- A pair of players may have one active game directly in a channel and
-- others in that channel's threads: a thread is a place of its own (and
-- holds at most one active game, games_active_thread).
DROP INDEX games_active_pair;
CREATE UNIQUE INDEX games_active_pair ON games(channel, LEAST(player0, player1), GREATEST(player0, player1))
	WHERE status = 'active' AND thread = '';
