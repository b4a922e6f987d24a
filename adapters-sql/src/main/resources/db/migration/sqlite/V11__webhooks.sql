-- The same as db/migration/postgresql/V11, which explains it.
CREATE TABLE webhook_endpoints (
    id                    INTEGER PRIMARY KEY AUTOINCREMENT,
    application_id        INTEGER NOT NULL REFERENCES applications (id),
    url                   TEXT NOT NULL,
    description           TEXT NOT NULL,
    secret                TEXT NOT NULL,
    previous_secret       TEXT,
    previous_secret_until TEXT,
    ignore_keys           TEXT NOT NULL,
    created_at            TEXT NOT NULL,
    delivered_change      INTEGER NOT NULL,
    delivered_donor       INTEGER NOT NULL,
    disabled_reason       TEXT,
    last_success_at       TEXT,
    last_failure_at       TEXT,
    last_failure          TEXT,
    consecutive_failures  INTEGER NOT NULL,
    failing_since         TEXT,
    next_attempt_at       TEXT,
    revision              INTEGER NOT NULL,
    lease_node            TEXT,
    lease_until           TEXT
);

CREATE INDEX webhook_endpoints_application ON webhook_endpoints (application_id, id);
