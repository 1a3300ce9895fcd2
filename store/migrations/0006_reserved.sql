-- Placeholder on the store branch for the arch branch's migration 0006
-- (numbers must run 1..n); the merge replaces it with that migration.
SELECT 1;
