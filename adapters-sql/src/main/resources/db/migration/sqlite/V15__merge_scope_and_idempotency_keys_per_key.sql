-- The same as db/migration/postgresql/V15, which explains it. SQLite cannot change a primary key in place, so
-- idempotency_keys is rebuilt (a day's rows at most), with each row's key id found as PostgreSQL's migration finds it.
UPDATE api_keys SET scopes = replace(scopes, 'donors:erase', 'donors:erase donors:merge')
WHERE name = 'default'
  AND ' ' || scopes || ' ' LIKE '% donors:erase %'
  AND ' ' || scopes || ' ' LIKE '% donors:read %'
  AND ' ' || scopes || ' ' LIKE '% donors:write %'
  AND ' ' || scopes || ' ' LIKE '% webhooks:manage %'
  AND ' ' || scopes || ' ' NOT LIKE '% donors:merge %';

CREATE TABLE idempotency_keys_rebuilt (
    application_id  INTEGER NOT NULL REFERENCES applications (id),
    idempotency_key TEXT NOT NULL,
    fingerprint     TEXT NOT NULL,
    donor_id        INTEGER NOT NULL REFERENCES donors (id),
    created_at      TEXT NOT NULL,
    api_key_id      INTEGER NOT NULL,
    CONSTRAINT idempotency_keys_pkey PRIMARY KEY (application_id, api_key_id, idempotency_key),
    CONSTRAINT idempotency_keys_fingerprint_length CHECK (length(fingerprint) = 64)
);

INSERT INTO idempotency_keys_rebuilt (application_id, idempotency_key, fingerprint, donor_id, created_at, api_key_id)
SELECT k.application_id, k.idempotency_key, k.fingerprint, k.donor_id, k.created_at, coalesce(created.actor_key_id, 0)
FROM idempotency_keys AS k
LEFT JOIN (SELECT donor_id, max(actor_key_id) AS actor_key_id FROM audit_trail
           WHERE action = 'created' AND actor_key_id IS NOT NULL
             AND donor_id IN (SELECT donor_id FROM idempotency_keys)
           GROUP BY donor_id) AS created ON created.donor_id = k.donor_id;

DROP TABLE idempotency_keys;
ALTER TABLE idempotency_keys_rebuilt RENAME TO idempotency_keys;

-- The purge of expired keys reads "where created_at <= ? limit 100" (V2); dropped with the table it indexed.
CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
