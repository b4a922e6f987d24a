-- The same as db/migration/postgresql/V8, which explains it; but applications.key_hash stays, emptied: SQLite cannot
-- drop a column with a UNIQUE constraint without rebuilding the table that donors refer to. Nothing reads it.
CREATE TABLE api_keys (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    application_id INTEGER NOT NULL REFERENCES applications (id),
    name           TEXT NOT NULL,
    key_hash       TEXT NOT NULL,
    scopes         TEXT NOT NULL,
    created_at     TEXT NOT NULL,
    expires_at     TEXT,
    ends_at        TEXT,
    rotated_from   INTEGER REFERENCES api_keys (id),
    last_used_at   TEXT,
    CONSTRAINT api_keys_key_hash_unique UNIQUE (key_hash),
    CONSTRAINT api_keys_key_hash_length CHECK (length(key_hash) = 64)
);

CREATE INDEX api_keys_application ON api_keys (application_id, id);

INSERT INTO api_keys (application_id, name, key_hash, scopes, created_at)
SELECT id, 'default', key_hash, 'donors:erase donors:read donors:write webhooks:manage', created_at
FROM applications WHERE key_hash IS NOT NULL;

UPDATE applications SET key_hash = NULL;

CREATE TABLE audit_trail (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    application_id INTEGER NOT NULL REFERENCES applications (id),
    donor_id       INTEGER REFERENCES donors (id),
    key_id         INTEGER REFERENCES api_keys (id),
    at             TEXT NOT NULL,
    action         TEXT NOT NULL,
    fields         TEXT,
    actor_type     TEXT NOT NULL,
    actor_key_id   INTEGER,
    actor_name     TEXT NOT NULL,
    request_id     TEXT,
    version        INTEGER
);

CREATE INDEX audit_trail_donor ON audit_trail (donor_id, id);
