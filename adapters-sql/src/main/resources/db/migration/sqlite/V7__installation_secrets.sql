-- The same as db/migration/postgresql/V7.
CREATE TABLE installation_secrets (
    id     INTEGER NOT NULL,
    secret BLOB    NOT NULL,
    CONSTRAINT installation_secrets_pkey PRIMARY KEY (id)
);
