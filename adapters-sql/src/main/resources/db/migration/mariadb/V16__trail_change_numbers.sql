-- The same as db/migration/postgresql/V16, which explains it: each record of a donor's change holds the change's
-- number.
ALTER TABLE audit_trail ADD COLUMN change_seq BIGINT NULL;
