-- The same as db/migration/postgresql/V5, which says why.
ALTER TABLE donors ADD COLUMN email_folded TEXT;

DROP INDEX donors_application_lower_email;
CREATE INDEX donors_application_email ON donors (application_id, email_folded, id);
CREATE INDEX donors_application_type ON donors (application_id, type, id);
CREATE INDEX donors_application_created ON donors (application_id, created_at, id);
CREATE INDEX donors_application_updated ON donors (application_id, updated_at, id);
