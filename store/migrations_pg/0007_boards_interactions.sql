-- Placeholder on the tourney branch for the store branch's migration 0007
-- (numbers must run 1..n); the merge replaces it with that migration.
SELECT 1;
