-- The same as db/migration/postgresql/V2, from which the jOOQ classes are generated; only types differ, as in V1.

-- Every donor's version: 1 when created, one more with every write that changes it (the HTTP adapter's ETag).
-- Existing donors start at 1. SQLite adds a column with a constant default without rewriting the table.
ALTER TABLE donors ADD COLUMN version INTEGER NOT NULL DEFAULT 1
    CONSTRAINT donors_version_positive CHECK (version >= 1);

-- The idempotency keys of recent creates, per application (two applications may use the same key), with the
-- fingerprint (SHA-256, hex) of the donor details each create sent and the donor it stored. A key is remembered
-- for a lifetime the service sets (24 hours), counted from created_at; an expired row counts as absent, is replaced
-- when its key is used again, and is deleted a few at a time by later keyed creates.
CREATE TABLE idempotency_keys (
    application_id  INTEGER NOT NULL REFERENCES applications (id),
    idempotency_key TEXT NOT NULL,
    fingerprint     TEXT NOT NULL,
    donor_id        INTEGER NOT NULL REFERENCES donors (id),
    created_at      TEXT NOT NULL,
    CONSTRAINT idempotency_keys_pkey PRIMARY KEY (application_id, idempotency_key),
    CONSTRAINT idempotency_keys_fingerprint_length CHECK (length(fingerprint) = 64)
);

-- The purge of expired keys reads "where created_at <= ? limit 100"; text order is time order (see V1).
CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
