-- Keys you can hand out and a trail of who changed what (contract section 14). Like V1 to V7, the jOOQ classes are
-- generated from this script.

-- An application's keys, each with the scopes it grants (space-separated, sorted, as OAuth writes them). Only the
-- SHA-256 (hex) of a key is stored. ends_at is when the key stops working, once it was revoked (then ends_at is the
-- revocation) or replaced by a rotation with a grace period (then later); null while nothing ends it but expires_at.
-- rotated_from is the key a rotation replaced. Keys are never deleted: the trail names them.
CREATE TABLE api_keys (
    id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    application_id BIGINT NOT NULL REFERENCES applications (id),
    name           VARCHAR NOT NULL,
    key_hash       VARCHAR NOT NULL,
    scopes         VARCHAR NOT NULL,
    created_at     TIMESTAMP WITH TIME ZONE NOT NULL,
    expires_at     TIMESTAMP WITH TIME ZONE,
    ends_at        TIMESTAMP WITH TIME ZONE,
    rotated_from   BIGINT REFERENCES api_keys (id),
    last_used_at   TIMESTAMP WITH TIME ZONE,
    CONSTRAINT api_keys_key_hash_unique UNIQUE (key_hash),
    CONSTRAINT api_keys_key_hash_length CHECK (length(key_hash) = 64)
);

CREATE INDEX api_keys_application ON api_keys (application_id, id);

-- Each application's one key becomes its key named default, holding every scope, as contract section 14 says. A
-- revoked key (a null hash) has nothing to carry over.
-- [jooq ignore start]
INSERT INTO api_keys (application_id, name, key_hash, scopes, created_at)
SELECT id, 'default', key_hash, 'donors:erase donors:read donors:write webhooks:manage', created_at
FROM applications WHERE key_hash IS NOT NULL;
-- [jooq ignore stop]

ALTER TABLE applications DROP COLUMN key_hash;

-- One record per change of a donor, written in the change's own transaction, and the key events of an application
-- (key.created, key.rotated, key.revoked: donor_id null, key_id the key). fields names the fields whose value changed,
-- space-separated and sorted: never a value, so an erasure keeps the records. actor_key_id is the calling key's id for
-- changes made through the API, null for commands; request_id the request's X-Request-Id.
CREATE TABLE audit_trail (
    id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    application_id BIGINT NOT NULL REFERENCES applications (id),
    donor_id       BIGINT REFERENCES donors (id),
    key_id         BIGINT REFERENCES api_keys (id),
    at             TIMESTAMP WITH TIME ZONE NOT NULL,
    action         VARCHAR NOT NULL,
    fields         VARCHAR,
    actor_type     VARCHAR NOT NULL,
    actor_key_id   BIGINT,
    actor_name     VARCHAR NOT NULL,
    request_id     VARCHAR,
    version        BIGINT
);

-- A donor's history, oldest first (donor ids are global). One index only, since every write of a donor adds a
-- record: an application's audit, rare and read in batches, walks the records in id order instead.
CREATE INDEX audit_trail_donor ON audit_trail (donor_id, id);
