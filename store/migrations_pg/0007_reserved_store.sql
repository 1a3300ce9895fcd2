-- Placeholder on the tournaments branch only: number 0007 is another
-- branch's migration, which replaces this file when the branches merge.
SELECT 1;
