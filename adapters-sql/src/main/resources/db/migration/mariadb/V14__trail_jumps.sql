-- The same as db/migration/postgresql/V14, which explains it.
ALTER TABLE audit_trail ADD COLUMN chain_position BIGINT NULL;
ALTER TABLE audit_trail ADD COLUMN jump_id BIGINT NULL;
ALTER TABLE audit_trail ADD COLUMN jump_position BIGINT NULL;

CREATE INDEX audit_trail_numbering ON audit_trail (donor_id, id);
