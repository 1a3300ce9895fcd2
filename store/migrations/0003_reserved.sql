-- Placeholder on the ratings branch only: version 3 belongs to another
-- branch's migration. When the branches merge, delete this file (two
-- 0003_* files make Open fail with "migrations are not numbered 1..n").
SELECT 1;
