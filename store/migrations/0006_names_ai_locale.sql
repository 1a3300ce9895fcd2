-- Player names, the computer's level and side, and the language of a game's
-- or challenge's public posts get columns of their own; they travelled as
-- JSON in the opaque extra column ("wn", "bn", "ai", "aiside", "loc" on
-- games; "cn", "on", "loc" on challenges), which is copied here. Names are
-- stored as players typed them (escaping for Discord happens at output);
-- the markdown escapes older rows carried are undone.
ALTER TABLE games ADD COLUMN name0 TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN name1 TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN ai_level INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN ai_side INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN locale TEXT NOT NULL DEFAULT '';
ALTER TABLE challenges ADD COLUMN challenger_name TEXT NOT NULL DEFAULT '';
ALTER TABLE challenges ADD COLUMN challenged_name TEXT NOT NULL DEFAULT '';
ALTER TABLE challenges ADD COLUMN locale TEXT NOT NULL DEFAULT '';

UPDATE games SET
	name0 = COALESCE(json_extract(extra, '$.wn'), ''),
	name1 = COALESCE(json_extract(extra, '$.bn'), ''),
	ai_level = COALESCE(json_extract(extra, '$.ai'), 0),
	ai_side = COALESCE(json_extract(extra, '$.aiside'), 0),
	locale = COALESCE(json_extract(extra, '$.loc'), '')
WHERE json_valid(extra);
UPDATE challenges SET
	challenger_name = COALESCE(json_extract(extra, '$.cn'), ''),
	challenged_name = COALESCE(json_extract(extra, '$.on'), ''),
	locale = COALESCE(json_extract(extra, '$.loc'), '')
WHERE json_valid(extra);

-- The escapes (a backslash before one of \*_~`|>[]()<@:) undone, the
-- backslash itself last.
UPDATE games SET
	name0 = REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(name0,
		'\*', '*'), '\_', '_'), '\~', '~'), '\`', '`'), '\|', '|'), '\>', '>'), '\[', '['), '\]', ']'), '\(', '('), '\)', ')'), '\<', '<'), '\@', '@'), '\:', ':'), '\\', '\'),
	name1 = REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(name1,
		'\*', '*'), '\_', '_'), '\~', '~'), '\`', '`'), '\|', '|'), '\>', '>'), '\[', '['), '\]', ']'), '\(', '('), '\)', ')'), '\<', '<'), '\@', '@'), '\:', ':'), '\\', '\')
WHERE instr(name0, '\') > 0 OR instr(name1, '\') > 0;
UPDATE challenges SET
	challenger_name = REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(challenger_name,
		'\*', '*'), '\_', '_'), '\~', '~'), '\`', '`'), '\|', '|'), '\>', '>'), '\[', '['), '\]', ']'), '\(', '('), '\)', ')'), '\<', '<'), '\@', '@'), '\:', ':'), '\\', '\'),
	challenged_name = REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(challenged_name,
		'\*', '*'), '\_', '_'), '\~', '~'), '\`', '`'), '\|', '|'), '\>', '>'), '\[', '['), '\]', ']'), '\(', '('), '\)', ')'), '\<', '<'), '\@', '@'), '\:', ':'), '\\', '\')
WHERE instr(challenger_name, '\') > 0 OR instr(challenged_name, '\') > 0;
