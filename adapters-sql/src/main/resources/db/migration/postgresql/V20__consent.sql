-- Consent with its evidence (docs/api.md, "Consent"). Like the earlier scripts, the jOOQ classes are generated from
-- this one.

-- 1. A donor's current consent, one JSON object in its row keyed by CHANNEL:PURPOSE in key order, each the status of
-- the pair's latest record; NULL when it has none, which the API shows as {}. Worked out by the service as records
-- are added (ConsentState), so a read of a donor reads no record. The consent filter reads an entry per pair a donor
-- may be contacted for in donor_words (ConsentState.entries), so no index is added here.
ALTER TABLE donors ADD COLUMN consent TEXT;

-- 2. The records, never changed; deleted only with their donor's erasure, moved by a merge. One index: a donor's
-- records by given_at then id, which is how they are listed, counted and compared with a new one.
CREATE TABLE consent_records (
    id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    application_id BIGINT NOT NULL REFERENCES applications (id),
    donor_id       BIGINT NOT NULL REFERENCES donors (id),
    channel        VARCHAR(5) NOT NULL,
    purpose        VARCHAR(40) NOT NULL,
    status         VARCHAR(9) NOT NULL,
    given_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    recorded_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    source         VARCHAR(200) NOT NULL,
    method         VARCHAR(9) NOT NULL,
    statement      TEXT,
    actor_type     VARCHAR(10) NOT NULL,
    actor_key_id   BIGINT,
    actor_name     VARCHAR(100) NOT NULL
);
CREATE INDEX consent_records_donor ON consent_records (donor_id, given_at, id);

-- 3. The purposes an application's records name, at most 50 (taken before a record names a new one): a row per
-- purpose, so that counting them reads this table, not the records.
CREATE TABLE consent_purposes (
    id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    application_id BIGINT NOT NULL REFERENCES applications (id),
    purpose        VARCHAR(40) NOT NULL,
    CONSTRAINT consent_purposes_purpose UNIQUE (application_id, purpose)
);
