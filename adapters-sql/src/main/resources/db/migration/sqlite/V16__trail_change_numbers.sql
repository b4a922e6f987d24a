-- The same as db/migration/postgresql/V16, which explains it: each record of a donor's change holds the change's
-- number. A column added at the end costs SQLite no rewrite of the table.
ALTER TABLE audit_trail ADD COLUMN change_seq INTEGER;
