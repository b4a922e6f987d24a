-- The same as db/migration/postgresql/V17, which explains it: where delivery to an endpoint is caught up.
ALTER TABLE webhook_endpoints
    ADD COLUMN caught_up_change BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN caught_up_donor BIGINT NOT NULL DEFAULT 0;

UPDATE webhook_endpoints SET caught_up_change = delivered_change, caught_up_donor = delivered_donor;

ALTER TABLE webhook_endpoints
    ALTER COLUMN caught_up_change DROP DEFAULT,
    ALTER COLUMN caught_up_donor DROP DEFAULT;
