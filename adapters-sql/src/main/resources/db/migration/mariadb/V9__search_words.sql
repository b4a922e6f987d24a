-- The same as db/migration/postgresql/V9, which explains it. utf8mb4_nopad_bin (the tables' collation, V1) compares
-- by code point, so the range of a term is the words beginning with it here too.
CREATE TABLE donor_words (
    donor_id       BIGINT NOT NULL,
    word           VARCHAR(200) NOT NULL,
    application_id BIGINT NOT NULL,
    PRIMARY KEY (donor_id, word),
    CONSTRAINT donor_words_donor_fk FOREIGN KEY (donor_id) REFERENCES donors (id),
    INDEX donor_words_lookup (application_id, word, donor_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_nopad_bin;
