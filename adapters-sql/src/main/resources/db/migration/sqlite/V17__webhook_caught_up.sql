-- The same as db/migration/postgresql/V17, which explains it: where delivery to an endpoint is caught up. SQLite adds
-- a NOT NULL column only with a default, and cannot drop it after; every write sets both columns.
ALTER TABLE webhook_endpoints ADD COLUMN caught_up_change INTEGER NOT NULL DEFAULT 0;
ALTER TABLE webhook_endpoints ADD COLUMN caught_up_donor INTEGER NOT NULL DEFAULT 0;
UPDATE webhook_endpoints SET caught_up_change = delivered_change, caught_up_donor = delivered_donor;
