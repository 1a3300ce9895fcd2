-- PostgreSQL dialect of migrations/0006.
-- Player names, the computer's level and side, and the language of a game's
-- or challenge's public posts get columns of their own; they travelled as
-- JSON in the opaque extra column ("wn", "bn", "ai", "aiside", "loc" on
-- games; "cn", "on", "loc" on challenges), which is copied here. Names are
-- stored as players typed them (escaping for Discord happens at output);
-- the markdown escapes older rows carried are undone.
ALTER TABLE games ADD COLUMN name0 TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN name1 TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN ai_level BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN ai_side BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN locale TEXT NOT NULL DEFAULT '';
ALTER TABLE challenges ADD COLUMN challenger_name TEXT NOT NULL DEFAULT '';
ALTER TABLE challenges ADD COLUMN challenged_name TEXT NOT NULL DEFAULT '';
ALTER TABLE challenges ADD COLUMN locale TEXT NOT NULL DEFAULT '';

UPDATE games SET
	name0 = COALESCE(extra::jsonb ->> 'wn', ''),
	name1 = COALESCE(extra::jsonb ->> 'bn', ''),
	ai_level = COALESCE((extra::jsonb ->> 'ai')::BIGINT, 0),
	ai_side = COALESCE((extra::jsonb ->> 'aiside')::BIGINT, 0),
	locale = COALESCE(extra::jsonb ->> 'loc', '')
WHERE extra LIKE '{%';
UPDATE challenges SET
	challenger_name = COALESCE(extra::jsonb ->> 'cn', ''),
	challenged_name = COALESCE(extra::jsonb ->> 'on', ''),
	locale = COALESCE(extra::jsonb ->> 'loc', '')
WHERE extra LIKE '{%';

-- The escapes (a backslash before one of \*_~`|>[]()<@:) undone, the
-- backslash itself last.
UPDATE games SET
	name0 = REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(name0,
		'\*', '*'), '\_', '_'), '\~', '~'), '\`', '`'), '\|', '|'), '\>', '>'), '\[', '['), '\]', ']'), '\(', '('), '\)', ')'), '\<', '<'), '\@', '@'), '\:', ':'), '\\', '\'),
	name1 = REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(name1,
		'\*', '*'), '\_', '_'), '\~', '~'), '\`', '`'), '\|', '|'), '\>', '>'), '\[', '['), '\]', ']'), '\(', '('), '\)', ')'), '\<', '<'), '\@', '@'), '\:', ':'), '\\', '\')
WHERE strpos(name0, '\') > 0 OR strpos(name1, '\') > 0;
UPDATE challenges SET
	challenger_name = REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(challenger_name,
		'\*', '*'), '\_', '_'), '\~', '~'), '\`', '`'), '\|', '|'), '\>', '>'), '\[', '['), '\]', ']'), '\(', '('), '\)', ')'), '\<', '<'), '\@', '@'), '\:', ':'), '\\', '\'),
	challenged_name = REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(challenged_name,
		'\*', '*'), '\_', '_'), '\~', '~'), '\`', '`'), '\|', '|'), '\>', '>'), '\[', '['), '\]', ']'), '\(', '('), '\)', ')'), '\<', '<'), '\@', '@'), '\:', ':'), '\\', '\')
WHERE strpos(challenger_name, '\') > 0 OR strpos(challenged_name, '\') > 0;
