-- Deep pages without reading every row before them. Like V1 and V2, the jOOQ classes are generated from this script.
--
-- A donor's ordinal is its position among its application's donors in id order, from 1: the k-th donor of an
-- application (by id) has ordinal k. A page "offset o, limit n" is then the donors with ordinal o+1 to o+n, found by
-- one index seek however large o is, instead of an index walk past o entries. It stays exact because donors are never
-- deleted and every insert assigns max(ordinal) + 1 of its application under a lock that also orders the ids: here a
-- row lock on the application (FOR NO KEY UPDATE, taken before the insert allocates its id and held to commit), so
-- of two inserts for one application the later id always gets the larger ordinal, and a rolled-back insert leaves no
-- gap. The unique index refuses any duplicate that a code path without that lock could make.
ALTER TABLE donors ADD COLUMN ordinal BIGINT;

-- [jooq ignore start]
-- Existing donors are numbered in id order within each application.
UPDATE donors SET ordinal = numbered.ordinal
FROM (SELECT id, row_number() OVER (PARTITION BY application_id ORDER BY id) AS ordinal FROM donors) AS numbered
WHERE donors.id = numbered.id;
ALTER TABLE donors ALTER COLUMN ordinal SET NOT NULL;
ALTER TABLE donors ADD CONSTRAINT donors_ordinal_positive CHECK (ordinal >= 1);
-- Pages read "where application_id = ? and ordinal > ? order by ordinal limit ?", and inserts read the maximum.
CREATE UNIQUE INDEX donors_application_ordinal ON donors (application_id, ordinal);
-- Replaced by the index above: nothing reads donors by application in id order any more.
DROP INDEX donors_application_id_id;
-- [jooq ignore stop]
