-- Playing anywhere on Discord (issue 43, docs/discord.md "Playing anywhere").
--
-- games.ladder: the ratings ladder a rated game counts on, fixed when the
-- game is created: a server's id where the bot is a member of the server,
-- 'global' elsewhere (DMs, group DMs, servers reached only through a
-- player's own install). ratings.guild holds the same value: the global
-- ladder is ratings' rows with guild 'global', apart from every server's.
ALTER TABLE games ADD COLUMN ladder TEXT NOT NULL DEFAULT '';
UPDATE games SET ladder = CASE WHEN guild = '' THEN 'global' ELSE guild END;
UPDATE ratings SET guild = 'global' WHERE guild = '';

-- games.no_posts: 1 when the bot user is not a member where the game is
-- played (a DM between players, a group DM, a server that did not add the
-- bot): Discord refuses its bot-token posts there, so everything goes
-- through the players' interactions (docs/discord.md).
ALTER TABLE games ADD COLUMN no_posts INTEGER NOT NULL DEFAULT 0;

-- players.dm_channel: the player's DM channel with the bot, learned from an
-- interaction there; players.dm_notices: 1 when the player allows the bot
-- to send there what it could not post where the game is played.
ALTER TABLE players ADD COLUMN dm_channel TEXT NOT NULL DEFAULT '';
ALTER TABLE players ADD COLUMN dm_notices INTEGER NOT NULL DEFAULT 0;

-- outbox state 'held': a post Discord refuses where the bot is not a
-- member (a flag-fall, a reminder, a late computer move), kept for the next
-- person who interacts with its game; never purged while held.
CREATE INDEX outbox_held ON outbox(game_id, id) WHERE state = 'held';
