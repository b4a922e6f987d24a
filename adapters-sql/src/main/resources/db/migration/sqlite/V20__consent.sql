-- The same as db/migration/postgresql/V20, which says why.
ALTER TABLE donors ADD COLUMN consent TEXT;

CREATE TABLE consent_records (
    id             INTEGER PRIMARY KEY,
    application_id INTEGER NOT NULL REFERENCES applications (id),
    donor_id       INTEGER NOT NULL REFERENCES donors (id),
    channel        TEXT NOT NULL,
    purpose        TEXT NOT NULL,
    status         TEXT NOT NULL,
    given_at       TEXT NOT NULL,
    recorded_at    TEXT NOT NULL,
    source         TEXT NOT NULL,
    method         TEXT NOT NULL,
    statement      TEXT,
    actor_type     TEXT NOT NULL,
    actor_key_id   INTEGER,
    actor_name     TEXT NOT NULL
);
CREATE INDEX consent_records_donor ON consent_records (donor_id, given_at, id);

CREATE TABLE consent_purposes (
    id             INTEGER PRIMARY KEY,
    application_id INTEGER NOT NULL REFERENCES applications (id),
    purpose        TEXT NOT NULL,
    CONSTRAINT consent_purposes_purpose UNIQUE (application_id, purpose)
);
