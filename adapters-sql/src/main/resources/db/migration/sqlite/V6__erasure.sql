-- The same as db/migration/postgresql/V6.
ALTER TABLE donors ADD COLUMN erased_at TEXT;
