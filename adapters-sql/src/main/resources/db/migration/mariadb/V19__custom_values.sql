-- The same as db/migration/postgresql/V19, which says why. MEDIUMTEXT: a hundred text fields of 1,000 characters
-- each are more than TEXT's 64 KiB.
ALTER TABLE donors ADD COLUMN custom MEDIUMTEXT;
