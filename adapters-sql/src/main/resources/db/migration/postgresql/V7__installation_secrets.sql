-- Secrets every node of an installation shares, kept with its data so that what they sign outlives restarts and
-- database copies: row 1 signs and encrypts the sync feed's tokens (contract section 9). Made on first start, 32 random
-- bytes; copied by copy-database. Like V1 to V6, the jOOQ classes are generated from this script.
CREATE TABLE installation_secrets (
    id     BIGINT NOT NULL,
    secret BYTEA  NOT NULL,
    CONSTRAINT installation_secrets_pkey PRIMARY KEY (id)
);
