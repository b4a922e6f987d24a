-- Where delivery to an endpoint is caught up (DeliveryState.caughtUpThrough, a ChangePosition like delivered_change
-- and delivered_donor): every change up to there was told or rightly passed over. A donor whose latest change a key the
-- endpoint ignores made is passed over only when every change of it since there was an ignored key's (docs/api.md,
-- Webhooks; issue 33): a run that stops short of the feed's end leaves delivered_* ahead of it. As from the others, the
-- jOOQ classes are generated from this script.
--
-- Endpoints stored before are taken as caught up where they have delivered through, as delivery measured from there.
-- With a constant default, adding the columns rewrites nothing; the copy then writes the few rows of this table.
ALTER TABLE webhook_endpoints ADD COLUMN caught_up_change BIGINT DEFAULT 0 NOT NULL;
ALTER TABLE webhook_endpoints ADD COLUMN caught_up_donor BIGINT DEFAULT 0 NOT NULL;

-- [jooq ignore start]
UPDATE webhook_endpoints SET caught_up_change = delivered_change, caught_up_donor = delivered_donor;
ALTER TABLE webhook_endpoints ALTER COLUMN caught_up_change DROP DEFAULT;
ALTER TABLE webhook_endpoints ALTER COLUMN caught_up_donor DROP DEFAULT;
-- [jooq ignore stop]
