-- The trail without an index by donor (issue 19; docs/performance.md, "The trail's cost on writes"). Every write of a
-- donor appends a record; on audit_trail_donor (donor_id, id) a modify's record landed on a random page of the index,
-- one more page for the writer to write per change. Instead each donor's records are chained: the donor's row holds
-- its latest record (last_record_id), each record the one before it of the same donor (previous_id). A record is
-- inserted just before the change of its donor's row, which takes the record's id in the same statement (so a change
-- still costs one statement more than it would without its record); history follows the chain by primary key.
ALTER TABLE donors ADD COLUMN last_record_id BIGINT;
ALTER TABLE audit_trail ADD COLUMN previous_id BIGINT;

-- The records written before: chained in the order of their ids, on the index that is dropped afterwards.
-- [jooq ignore start]
UPDATE audit_trail SET previous_id = chained.previous_id
FROM (SELECT id, lag(id) OVER (PARTITION BY donor_id ORDER BY id) AS previous_id
      FROM audit_trail WHERE donor_id IS NOT NULL) AS chained
WHERE chained.id = audit_trail.id AND chained.previous_id IS NOT NULL;
UPDATE donors SET last_record_id = latest.id
FROM (SELECT donor_id, max(id) AS id FROM audit_trail WHERE donor_id IS NOT NULL GROUP BY donor_id) AS latest
WHERE latest.donor_id = donors.id;
-- [jooq ignore stop]

DROP INDEX audit_trail_donor;
