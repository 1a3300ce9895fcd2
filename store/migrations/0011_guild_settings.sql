-- Per-server settings (/server): the language of public messages, the
-- default game and clock of /challenge, whether games open a thread and
-- whether the computer may be challenged. Empty text and a NULL thread
-- mean "the bot's configured default". Web links stay in web_guilds.
CREATE TABLE guild_settings (
	guild  TEXT PRIMARY KEY,
	locale TEXT NOT NULL DEFAULT '',
	game   TEXT NOT NULL DEFAULT '',
	clock  TEXT NOT NULL DEFAULT '',
	thread INTEGER,
	ai_off INTEGER NOT NULL DEFAULT 0
);
