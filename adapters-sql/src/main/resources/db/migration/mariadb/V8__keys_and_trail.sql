-- The same as db/migration/postgresql/V8, which explains it.
CREATE TABLE api_keys (
    id             BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    application_id BIGINT NOT NULL,
    name           VARCHAR(100) NOT NULL,
    key_hash       CHAR(64) NOT NULL,
    scopes         VARCHAR(200) NOT NULL,
    created_at     DATETIME(6) NOT NULL,
    expires_at     DATETIME(6),
    ends_at        DATETIME(6),
    rotated_from   BIGINT,
    last_used_at   DATETIME(6),
    CONSTRAINT api_keys_key_hash_unique UNIQUE (key_hash),
    CONSTRAINT api_keys_key_hash_length CHECK (length(key_hash) = 64),
    CONSTRAINT api_keys_application_fk FOREIGN KEY (application_id) REFERENCES applications (id),
    CONSTRAINT api_keys_rotated_from_fk FOREIGN KEY (rotated_from) REFERENCES api_keys (id),
    INDEX api_keys_application (application_id, id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_nopad_bin;

INSERT INTO api_keys (application_id, name, key_hash, scopes, created_at)
SELECT id, 'default', key_hash, 'donors:erase donors:read donors:write webhooks:manage', created_at
FROM applications WHERE key_hash IS NOT NULL;

ALTER TABLE applications DROP CONSTRAINT applications_key_hash_length;
ALTER TABLE applications DROP INDEX applications_key_hash_unique;
ALTER TABLE applications DROP COLUMN key_hash;

CREATE TABLE audit_trail (
    id             BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    application_id BIGINT NOT NULL,
    donor_id       BIGINT,
    key_id         BIGINT,
    at             DATETIME(6) NOT NULL,
    action         VARCHAR(20) NOT NULL,
    fields         VARCHAR(400),
    actor_type     VARCHAR(10) NOT NULL,
    actor_key_id   BIGINT,
    actor_name     VARCHAR(100) NOT NULL,
    request_id     VARCHAR(64),
    version        BIGINT,
    CONSTRAINT audit_trail_application_fk FOREIGN KEY (application_id) REFERENCES applications (id),
    CONSTRAINT audit_trail_donor_fk FOREIGN KEY (donor_id) REFERENCES donors (id),
    CONSTRAINT audit_trail_key_fk FOREIGN KEY (key_id) REFERENCES api_keys (id),
    INDEX audit_trail_donor (donor_id, id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_nopad_bin;
