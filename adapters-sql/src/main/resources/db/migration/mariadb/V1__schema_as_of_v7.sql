-- MariaDB joined at schema version 7: this one script makes what V1 to V7 made on PostgreSQL and SQLite (version 1
-- here, so that it runs before the Java migration 5.1, FoldStoredEmails, which finds nothing to fold), and the next
-- migration is V8 on every database. The jOOQ classes come from the PostgreSQL scripts; the names here are the
-- same, and so are the meanings, which the PostgreSQL scripts explain.
--
-- Text is utf8mb4 with utf8mb4_nopad_bin: compared byte for byte, as PostgreSQL and SQLite compare it, so 'a' and 'A'
-- are two external ids, and so are 'a' and 'a ' (a PAD SPACE collation would call them equal). Lengths are the
-- domain's (DonorField), which counts UTF-16 units, never fewer than the characters MariaDB counts. Timestamps are
-- DATETIME(6) in UTC, which the service writes and reads as UTC (MariadbKind): no time zone of the server or the
-- session takes part, and the range reaches past 2038, which TIMESTAMP's does not.

CREATE TABLE applications (
    id         BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    name       VARCHAR(100) NOT NULL,
    key_hash   CHAR(64),
    created_at DATETIME(6) NOT NULL,
    CONSTRAINT applications_name_unique UNIQUE (name),
    CONSTRAINT applications_key_hash_unique UNIQUE (key_hash),
    CONSTRAINT applications_key_hash_length CHECK (length(key_hash) = 64)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_nopad_bin;

-- email_folded: EmailAddress.fold may make an address up to three times as long (upper case first); 762 characters
-- keep its index within InnoDB's 3,072 bytes. notes is TEXT, out of the row, which VARCHARs share at 65,535 bytes.
CREATE TABLE donors (
    id                BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    application_id    BIGINT NOT NULL,
    type              VARCHAR(20) NOT NULL,
    first_name        VARCHAR(200),
    last_name         VARCHAR(200),
    organization_name VARCHAR(200),
    email             VARCHAR(254),
    phone             VARCHAR(40),
    address_line1     VARCHAR(200),
    address_line2     VARCHAR(200),
    city              VARCHAR(200),
    region            VARCHAR(200),
    postal_code       VARCHAR(20),
    country           VARCHAR(2),
    external_id       VARCHAR(100),
    email_opt_out     BOOLEAN NOT NULL,
    do_not_contact    BOOLEAN NOT NULL,
    notes             TEXT,
    created_at        DATETIME(6) NOT NULL,
    updated_at        DATETIME(6) NOT NULL,
    version           BIGINT NOT NULL DEFAULT 1,
    change_seq        BIGINT NOT NULL,
    email_folded      VARCHAR(762),
    erased_at         DATETIME(6),
    CONSTRAINT donors_application FOREIGN KEY (application_id) REFERENCES applications (id),
    CONSTRAINT donors_type_known CHECK (type IN ('individual', 'organization')),
    CONSTRAINT donors_version_positive CHECK (version >= 1),
    -- NULL external ids never collide: a unique index allows any number of them.
    CONSTRAINT donors_application_external_id_unique UNIQUE (application_id, external_id),
    INDEX donors_application_change (application_id, change_seq, id),
    INDEX donors_application_email (application_id, email_folded, id),
    INDEX donors_application_type (application_id, type, id),
    INDEX donors_application_created (application_id, created_at, id),
    INDEX donors_application_updated (application_id, updated_at, id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_nopad_bin;

CREATE TABLE idempotency_keys (
    application_id  BIGINT NOT NULL,
    idempotency_key VARCHAR(255) NOT NULL,
    fingerprint     CHAR(64) NOT NULL,
    donor_id        BIGINT NOT NULL,
    created_at      DATETIME(6) NOT NULL,
    PRIMARY KEY (application_id, idempotency_key),
    CONSTRAINT idempotency_keys_application FOREIGN KEY (application_id) REFERENCES applications (id),
    CONSTRAINT idempotency_keys_donor FOREIGN KEY (donor_id) REFERENCES donors (id),
    CONSTRAINT idempotency_keys_fingerprint_length CHECK (length(fingerprint) = 64),
    INDEX idempotency_keys_created_at (created_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_nopad_bin;

-- MariaDB numbers each donor as it inserts it, as SQLite does: writes take turns (MariadbKind), which orders the ids.
CREATE TABLE donor_ordinals (
    application_id BIGINT NOT NULL,
    ordinal        BIGINT NOT NULL,
    donor_id       BIGINT NOT NULL,
    PRIMARY KEY (application_id, ordinal),
    CONSTRAINT donor_ordinals_donor_unique UNIQUE (donor_id),
    CONSTRAINT donor_ordinals_application FOREIGN KEY (application_id) REFERENCES applications (id),
    CONSTRAINT donor_ordinals_donor FOREIGN KEY (donor_id) REFERENCES donors (id),
    CONSTRAINT donor_ordinals_positive CHECK (ordinal >= 1)
) ENGINE = InnoDB;

-- One row, whose lock is the write turn every write transaction takes first (MariadbKind says why).
CREATE TABLE sequencing (
    id               INTEGER NOT NULL,
    numbered_through BIGINT NOT NULL,
    last_change      BIGINT NOT NULL,
    change_offset    BIGINT NOT NULL,
    PRIMARY KEY (id),
    CONSTRAINT sequencing_one_row CHECK (id = 1)
) ENGINE = InnoDB;

INSERT INTO sequencing (id, numbered_through, last_change, change_offset) VALUES (1, 0, 0, 1);

CREATE TABLE installation_secrets (
    id     BIGINT NOT NULL,
    secret VARBINARY(64) NOT NULL,
    PRIMARY KEY (id)
) ENGINE = InnoDB;
