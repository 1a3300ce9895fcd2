-- A player's text mode (issue 42): boards in words for a screen reader,
-- /board text:true by default. 0: pictures only.
ALTER TABLE players ADD COLUMN text_mode INTEGER NOT NULL DEFAULT 0;
