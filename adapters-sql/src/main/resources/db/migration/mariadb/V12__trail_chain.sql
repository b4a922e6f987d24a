-- The same as db/migration/postgresql/V12, which explains it. InnoDB keeps an index for every foreign key, so the
-- trail's key to donors goes with the index: the records are written in their donor's own transaction, and neither
-- is ever deleted.
ALTER TABLE donors ADD COLUMN last_record_id BIGINT NULL;
ALTER TABLE audit_trail ADD COLUMN previous_id BIGINT NULL;

UPDATE audit_trail
JOIN (SELECT id, LAG(id) OVER (PARTITION BY donor_id ORDER BY id) AS previous_id
      FROM audit_trail WHERE donor_id IS NOT NULL) AS chained ON chained.id = audit_trail.id
SET audit_trail.previous_id = chained.previous_id
WHERE chained.previous_id IS NOT NULL;
UPDATE donors
JOIN (SELECT donor_id, MAX(id) AS id FROM audit_trail WHERE donor_id IS NOT NULL GROUP BY donor_id) AS latest
  ON latest.donor_id = donors.id
SET donors.last_record_id = latest.id;

ALTER TABLE audit_trail DROP FOREIGN KEY audit_trail_donor_fk;
DROP INDEX audit_trail_donor ON audit_trail;
