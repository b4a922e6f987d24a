-- The same as db/migration/postgresql/V15, which explains it. CONCAT, as || is OR to MariaDB.
UPDATE api_keys SET scopes = REPLACE(scopes, 'donors:erase', 'donors:erase donors:merge')
WHERE name = 'default'
  AND CONCAT(' ', scopes, ' ') LIKE '% donors:erase %'
  AND CONCAT(' ', scopes, ' ') LIKE '% donors:read %'
  AND CONCAT(' ', scopes, ' ') LIKE '% donors:write %'
  AND CONCAT(' ', scopes, ' ') LIKE '% webhooks:manage %'
  AND CONCAT(' ', scopes, ' ') NOT LIKE '% donors:merge %';

ALTER TABLE idempotency_keys ADD COLUMN api_key_id BIGINT NOT NULL DEFAULT 0;

UPDATE idempotency_keys
JOIN (SELECT donor_id, MAX(actor_key_id) AS actor_key_id FROM audit_trail
      WHERE action = 'created' AND actor_key_id IS NOT NULL
        AND donor_id IN (SELECT donor_id FROM idempotency_keys)
      GROUP BY donor_id) AS created ON created.donor_id = idempotency_keys.donor_id
SET idempotency_keys.api_key_id = created.actor_key_id;

-- One statement: the foreign key on application_id always has an index that begins with it.
ALTER TABLE idempotency_keys
    ALTER COLUMN api_key_id DROP DEFAULT,
    DROP PRIMARY KEY,
    ADD PRIMARY KEY (application_id, api_key_id, idempotency_key);
