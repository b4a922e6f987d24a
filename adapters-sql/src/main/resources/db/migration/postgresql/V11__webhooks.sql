-- Webhooks (contract section 16). Like V1 to V10, the jOOQ classes are generated from this script.
--
-- An application's endpoints, each with where delivery to it stands (DeliveryState): the feed position it has
-- delivered through (delivered_change, delivered_donor: a ChangePosition), which moves only past messages answered 2xx,
-- and its failures. secret signs every message; previous_secret, the one a rotation replaced, signs beside it until
-- previous_secret_until. ignore_keys: the ids of the keys whose changes are passed over, space-separated. revision
-- counts the owner's changes, so that a delivery which read the endpoint before one stores nothing after it.
-- lease_node holds the endpoint for delivery until lease_until: one node at a time delivers to an endpoint.
-- Removing an endpoint deletes its row.
CREATE TABLE webhook_endpoints (
    id                    BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    application_id        BIGINT NOT NULL REFERENCES applications (id),
    url                   VARCHAR(2000) NOT NULL,
    description           VARCHAR(500) NOT NULL,
    secret                VARCHAR(100) NOT NULL,
    previous_secret       VARCHAR(100),
    previous_secret_until TIMESTAMP WITH TIME ZONE,
    ignore_keys           VARCHAR(2000) NOT NULL,
    created_at            TIMESTAMP WITH TIME ZONE NOT NULL,
    delivered_change      BIGINT NOT NULL,
    delivered_donor       BIGINT NOT NULL,
    disabled_reason       VARCHAR(200),
    last_success_at       TIMESTAMP WITH TIME ZONE,
    last_failure_at       TIMESTAMP WITH TIME ZONE,
    last_failure          VARCHAR(200),
    consecutive_failures  INTEGER NOT NULL,
    failing_since         TIMESTAMP WITH TIME ZONE,
    next_attempt_at       TIMESTAMP WITH TIME ZONE,
    revision              BIGINT NOT NULL,
    lease_node            VARCHAR(100),
    lease_until           TIMESTAMP WITH TIME ZONE
);

CREATE INDEX webhook_endpoints_application ON webhook_endpoints (application_id, id);
