-- The same as db/migration/postgresql/V12, which explains it.
ALTER TABLE donors ADD COLUMN last_record_id INTEGER;
ALTER TABLE audit_trail ADD COLUMN previous_id INTEGER;

UPDATE audit_trail SET previous_id = chained.previous_id
FROM (SELECT id, lag(id) OVER (PARTITION BY donor_id ORDER BY id) AS previous_id
      FROM audit_trail WHERE donor_id IS NOT NULL) AS chained
WHERE chained.id = audit_trail.id AND chained.previous_id IS NOT NULL;
UPDATE donors SET last_record_id = latest.id
FROM (SELECT donor_id, max(id) AS id FROM audit_trail WHERE donor_id IS NOT NULL GROUP BY donor_id) AS latest
WHERE latest.donor_id = donors.id;

DROP INDEX audit_trail_donor;
