-- The same as db/migration/postgresql/V10, which explains it.
ALTER TABLE donors ADD COLUMN merged_into INTEGER;
