-- The same as db/migration/postgresql/V14, which explains it.
ALTER TABLE audit_trail ADD COLUMN chain_position INTEGER;
ALTER TABLE audit_trail ADD COLUMN jump_id INTEGER;
ALTER TABLE audit_trail ADD COLUMN jump_position INTEGER;

CREATE INDEX audit_trail_numbering ON audit_trail (donor_id, id);
