-- The same as db/migration/postgresql/V3, which explains the ordinal and why it stays exact; only the way the column
-- is added differs. SQLite adds a NOT NULL column only with a default, and checks no constraint added later, so the
-- default is 0, which no stored donor keeps: every insert sets the ordinal (under SQLite's single write lock, which
-- orders the ids too), and the existing donors are numbered here.
ALTER TABLE donors ADD COLUMN ordinal INTEGER NOT NULL DEFAULT 0;

UPDATE donors SET ordinal = numbered.ordinal
FROM (SELECT id, row_number() OVER (PARTITION BY application_id ORDER BY id) AS ordinal FROM donors) AS numbered
WHERE donors.id = numbered.id;

CREATE UNIQUE INDEX donors_application_ordinal ON donors (application_id, ordinal);
DROP INDEX donors_application_id_id;
