-- The same as db/migration/postgresql/V19, which says why.
ALTER TABLE donors ADD COLUMN custom TEXT;
