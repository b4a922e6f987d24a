-- The same as db/migration/postgresql/V20, which says why.
ALTER TABLE donors ADD COLUMN consent TEXT;

CREATE TABLE consent_records (
    id             BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    application_id BIGINT NOT NULL,
    donor_id       BIGINT NOT NULL,
    channel        VARCHAR(5) NOT NULL,
    purpose        VARCHAR(40) NOT NULL,
    status         VARCHAR(9) NOT NULL,
    given_at       DATETIME(6) NOT NULL,
    recorded_at    DATETIME(6) NOT NULL,
    source         VARCHAR(200) NOT NULL,
    method         VARCHAR(9) NOT NULL,
    statement      TEXT,
    actor_type     VARCHAR(10) NOT NULL,
    actor_key_id   BIGINT,
    actor_name     VARCHAR(100) NOT NULL,
    CONSTRAINT consent_records_application_fk FOREIGN KEY (application_id) REFERENCES applications (id),
    CONSTRAINT consent_records_donor_fk FOREIGN KEY (donor_id) REFERENCES donors (id),
    INDEX consent_records_donor (donor_id, given_at, id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_nopad_bin;

CREATE TABLE consent_purposes (
    id             BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    application_id BIGINT NOT NULL,
    purpose        VARCHAR(40) NOT NULL,
    CONSTRAINT consent_purposes_purpose UNIQUE (application_id, purpose),
    CONSTRAINT consent_purposes_application_fk FOREIGN KEY (application_id) REFERENCES applications (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_nopad_bin;
