-- Finding donors (contract section 8). Like V1 to V4, the jOOQ classes are generated from this script.
--
-- email_folded holds the address in the form every address that differs from it only in case shares
-- (EmailAddress.fold: Unicode-aware, computed by the service, so the same on every database); an email filter matches
-- it. The service writes it with every donor; FoldStoredEmails (migration 5.1) folds the addresses stored before.
ALTER TABLE donors ADD COLUMN email_folded VARCHAR;

-- [jooq ignore start]
-- A filtered page reads "where application_id = ? and <criterion> order by id limit ? offset ?": each criterion has
-- an index that leads with the application and ends with the id, so a page of matches is one range in id order.
DROP INDEX donors_application_lower_email;
CREATE INDEX donors_application_email ON donors (application_id, email_folded, id);
CREATE INDEX donors_application_type ON donors (application_id, type, id);
CREATE INDEX donors_application_created ON donors (application_id, created_at, id);
CREATE INDEX donors_application_updated ON donors (application_id, updated_at, id);
-- external_id has its unique index (V1).
-- [jooq ignore stop]
