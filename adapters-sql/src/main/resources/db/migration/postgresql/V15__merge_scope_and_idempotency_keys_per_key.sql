-- Two corrections found by issue 33. Like V1 to V12, the jOOQ classes are generated from this script.

-- 1. Merging needs its own scope, donors:merge (docs/api.md, "Duplicates and merge"): a merge wipes the duplicate's
-- personal data as an erasure does. Every key named default that holds every other scope (the key apps create makes,
-- rotations of it, and DONORS_API_KEY's) gains it, so what it could do before it can do after. Any other key, one
-- holding donors:write included, does not: an operator gives it donors:merge with a new key if it is to merge. Scopes
-- are stored space-separated and sorted (V8), so donors:merge goes right after donors:erase, which each of them holds.
-- [jooq ignore start]
UPDATE api_keys SET scopes = replace(scopes, 'donors:erase', 'donors:erase donors:merge')
WHERE name = 'default'
  AND ' ' || scopes || ' ' LIKE '% donors:erase %'
  AND ' ' || scopes || ' ' LIKE '% donors:read %'
  AND ' ' || scopes || ' ' LIKE '% donors:write %'
  AND ' ' || scopes || ' ' LIKE '% webhooks:manage %'
  AND ' ' || scopes || ' ' NOT LIKE '% donors:merge %';
-- [jooq ignore stop]

-- 2. Idempotency keys per API key (docs/api.md, "Safe retries and concurrent edits"): two integrations of one
-- application that pick the same Idempotency-Key each get their own create, never the other's donor id. api_key_id is
-- the id of the key that sent the create; 0, no key's id, for the commands of the command line (an import's keys).
-- With a constant default, adding the column rewrites nothing.
ALTER TABLE idempotency_keys ADD COLUMN api_key_id BIGINT DEFAULT 0 NOT NULL;

-- The rows of creates made before (at most a day's worth: rows live 24 hours) go to the key whose create the trail
-- records, so a retry across the upgrade still finds its create; one read of the trail, matched against this small
-- table. A donor without such a record (created by a command) keeps 0. The primary key is rebuilt with the key's id in
-- it (a day's rows again); the generated classes need only the column, so the rest is hidden from jOOQ's parser.
-- [jooq ignore start]
UPDATE idempotency_keys SET api_key_id = created.actor_key_id
FROM (SELECT donor_id, max(actor_key_id) AS actor_key_id FROM audit_trail
      WHERE action = 'created' AND actor_key_id IS NOT NULL
        AND donor_id IN (SELECT donor_id FROM idempotency_keys)
      GROUP BY donor_id) AS created
WHERE created.donor_id = idempotency_keys.donor_id;
ALTER TABLE idempotency_keys ALTER COLUMN api_key_id DROP DEFAULT;
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey;
ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_pkey
    PRIMARY KEY (application_id, api_key_id, idempotency_key);
-- [jooq ignore stop]
