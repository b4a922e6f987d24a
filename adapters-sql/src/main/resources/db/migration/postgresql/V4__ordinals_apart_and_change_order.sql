-- Creates without an application-wide lock, and an order of changes for the sync feed. Like V1 to V3, the jOOQ
-- classes are generated from this script.
--
-- Ordinals (V3 says what they are for) move to a table of their own, and on PostgreSQL they are no longer assigned by
-- the insert, which took a lock on its application to do so: every create of an application took turns, on every
-- node. A numbering job (OrdinalNumbering) assigns them shortly after, in id order, to the donors below a horizon no
-- running transaction can still insert under; sequencing.numbered_through says how far it has got. A page reads the
-- numbered donors by ordinal and the few newer ones by id (DonorQueries), in one statement, so it stays exact.
-- SQLite's single writer still numbers each donor as it inserts it.
--
-- donors.change_seq orders every change (create, modify) for the sync feed. PostgreSQL: the id of the transaction that
-- made it plus sequencing.change_offset; a change is handed out only once every transaction below the reading
-- snapshot's xmin has ended, so no change can later appear before one already handed out. SQLite: the next number of
-- sequencing.last_change, drawn under the database's single write lock, so numbers are in commit order.
CREATE TABLE donor_ordinals (
    application_id BIGINT NOT NULL REFERENCES applications (id),
    ordinal        BIGINT NOT NULL,
    donor_id       BIGINT NOT NULL REFERENCES donors (id),
    CONSTRAINT donor_ordinals_pkey PRIMARY KEY (application_id, ordinal),
    CONSTRAINT donor_ordinals_donor_unique UNIQUE (donor_id),
    CONSTRAINT donor_ordinals_positive CHECK (ordinal >= 1)
);

-- One row: how far numbering and change numbers have got.
CREATE TABLE sequencing (
    id               INTEGER NOT NULL,
    numbered_through BIGINT NOT NULL,
    last_change      BIGINT NOT NULL,
    change_offset    BIGINT NOT NULL,
    CONSTRAINT sequencing_pkey PRIMARY KEY (id),
    CONSTRAINT sequencing_one_row CHECK (id = 1)
);

ALTER TABLE donors ADD COLUMN change_seq BIGINT;

-- [jooq ignore start]
INSERT INTO donor_ordinals (application_id, ordinal, donor_id) SELECT application_id, ordinal, id FROM donors;
-- Existing donors changed before anything to come, in id order; transaction ids plus the offset come after them all.
UPDATE donors SET change_seq = id;
INSERT INTO sequencing (id, numbered_through, last_change, change_offset)
SELECT 1, coalesce(max(id), 0), coalesce(max(id), 0), coalesce(max(id), 0) + 1 FROM donors;
ALTER TABLE donors ALTER COLUMN change_seq SET NOT NULL;
-- The sync feed reads "where application_id = ? and (change_seq, id) > (?, ?) order by change_seq, id".
CREATE INDEX donors_application_change ON donors (application_id, change_seq, id);
-- Pages read the donors not numbered yet "where application_id = ? and id > ? order by id" (DonorQueries).
CREATE INDEX donors_application_id ON donors (application_id, id);
-- [jooq ignore stop]

-- Its index, donors_application_ordinal, goes with it.
ALTER TABLE donors DROP COLUMN ordinal;
