-- The same as db/migration/postgresql/V4, which says why; only types differ, and donor_ordinals is kept in its
-- primary key's order (WITHOUT ROWID), so a page reads ordinal then donor with the same two seeks as before.
CREATE TABLE donor_ordinals (
    application_id INTEGER NOT NULL REFERENCES applications (id),
    ordinal        INTEGER NOT NULL,
    donor_id       INTEGER NOT NULL REFERENCES donors (id),
    CONSTRAINT donor_ordinals_pkey PRIMARY KEY (application_id, ordinal),
    CONSTRAINT donor_ordinals_donor_unique UNIQUE (donor_id),
    CONSTRAINT donor_ordinals_positive CHECK (ordinal >= 1)
) WITHOUT ROWID;

CREATE TABLE sequencing (
    id               INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
    numbered_through INTEGER NOT NULL,
    last_change      INTEGER NOT NULL,
    change_offset    INTEGER NOT NULL
);

INSERT INTO donor_ordinals (application_id, ordinal, donor_id) SELECT application_id, ordinal, id FROM donors;
INSERT INTO sequencing (id, numbered_through, last_change, change_offset)
SELECT 1, coalesce(max(id), 0), coalesce(max(id), 0), coalesce(max(id), 0) + 1 FROM donors;

-- SQLite adds a NOT NULL column only with a default; every write sets it.
ALTER TABLE donors ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0;
UPDATE donors SET change_seq = id;
CREATE INDEX donors_application_change ON donors (application_id, change_seq, id);

DROP INDEX donors_application_ordinal;
ALTER TABLE donors DROP COLUMN ordinal;
