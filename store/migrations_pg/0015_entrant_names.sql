-- Tournament entrants keep the display name they joined with (raw, as
-- typed; escaped where shown), so standings after a restart name them, and
-- the computer's level for a computer entrant (0: a person). PostgreSQL
-- dialect of migrations/0013.
ALTER TABLE tournament_entrants ADD COLUMN name TEXT NOT NULL DEFAULT '';
ALTER TABLE tournament_entrants ADD COLUMN ai_level BIGINT NOT NULL DEFAULT 0;
