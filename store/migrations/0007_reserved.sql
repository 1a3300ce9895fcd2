-- Placeholder on the web branch only: the number is reserved for another
-- branch's migration (the merge replaces this file with it).
SELECT 1;
