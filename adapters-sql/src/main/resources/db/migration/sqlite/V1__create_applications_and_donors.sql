-- The same schema as db/migration/postgresql/V1, from which the jOOQ classes are generated; only ids,
-- timestamps and booleans (0 or 1: SQLite has no boolean type) differ.
-- AUTOINCREMENT, so that an id is never reused after a delete.
-- Timestamps are TEXT, as jOOQ writes a java.time.Instant for SQLite: ISO-8601 in UTC with the fraction's
-- trailing zeros dropped, e.g. '2024-05-01 12:00:00.0001+00:00' (the repositories keep at most microseconds).
-- Why: exact to the microsecond (a REAL julian day is not); SQLite's own date functions read it; text order is
-- time order, because '+' sorts before '.' and every digit; and it needs no hand-made binding. SqlDatabaseTest
-- pins the format, so a jOOQ upgrade that changed it would be noticed.

-- key_hash is the SHA-256 (hex) of the one active api key; NULL means the key was revoked.
CREATE TABLE applications (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT NOT NULL,
    key_hash   TEXT,
    created_at TEXT NOT NULL,
    CONSTRAINT applications_name_unique UNIQUE (name),
    CONSTRAINT applications_key_hash_unique UNIQUE (key_hash),
    CONSTRAINT applications_key_hash_length CHECK (length(key_hash) = 64)
);

-- Donor ids are global, not per application; every query is scoped by application_id all the same.
CREATE TABLE donors (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    application_id    INTEGER NOT NULL REFERENCES applications (id),
    type              TEXT NOT NULL,
    first_name        TEXT,
    last_name         TEXT,
    organization_name TEXT,
    email             TEXT,
    phone             TEXT,
    address_line1     TEXT,
    address_line2     TEXT,
    city              TEXT,
    region            TEXT,
    postal_code       TEXT,
    country           TEXT,
    external_id       TEXT,
    email_opt_out     INTEGER NOT NULL CHECK (email_opt_out IN (0, 1)),
    do_not_contact    INTEGER NOT NULL CHECK (do_not_contact IN (0, 1)),
    notes             TEXT,
    created_at        TEXT NOT NULL,
    updated_at        TEXT NOT NULL,
    CONSTRAINT donors_type_known CHECK (type IN ('individual', 'organization'))
);

-- NULL external ids never collide, so donors without one are unconstrained.
CREATE UNIQUE INDEX donors_application_external_id_unique ON donors (application_id, external_id)
    WHERE external_id IS NOT NULL;
-- Paging reads "where application_id = ? order by id".
CREATE INDEX donors_application_id_id ON donors (application_id, id);
-- For matching email case-insensitively within an application. SQLite's lower() folds ASCII letters only,
-- and a query must use the same expression, lower(email), for the index to serve it.
CREATE INDEX donors_application_lower_email ON donors (application_id, lower(email));
