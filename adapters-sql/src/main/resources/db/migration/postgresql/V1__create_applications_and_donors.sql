-- The jOOQ table classes are generated from this script (DDLDatabase), so it keeps to DDL that jOOQ's
-- parser reads; statements the generator does not need sit between the "jooq ignore" markers.
-- Text columns are VARCHAR without a length, which PostgreSQL treats exactly like TEXT, because the
-- generator's H2 turns TEXT into a CLOB that it cannot index. Lengths are the domain's rule, checked there.

-- key_hash is the SHA-256 (hex) of the one active api key; NULL means the key was revoked.
CREATE TABLE applications (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name       VARCHAR NOT NULL,
    key_hash   VARCHAR,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT applications_name_unique UNIQUE (name),
    CONSTRAINT applications_key_hash_unique UNIQUE (key_hash),
    CONSTRAINT applications_key_hash_length CHECK (length(key_hash) = 64)
);

-- Donor ids are global, not per application; every query is scoped by application_id all the same.
CREATE TABLE donors (
    id                BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    application_id    BIGINT NOT NULL REFERENCES applications (id),
    type              VARCHAR NOT NULL,
    first_name        VARCHAR,
    last_name         VARCHAR,
    organization_name VARCHAR,
    email             VARCHAR,
    phone             VARCHAR,
    address_line1     VARCHAR,
    address_line2     VARCHAR,
    city              VARCHAR,
    region            VARCHAR,
    postal_code       VARCHAR,
    country           VARCHAR,
    external_id       VARCHAR,
    email_opt_out     BOOLEAN NOT NULL,
    do_not_contact    BOOLEAN NOT NULL,
    notes             VARCHAR,
    created_at        TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at        TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT donors_type_known CHECK (type IN ('individual', 'organization'))
);

-- [jooq ignore start]
-- Partial and expression indexes: the generator's H2 cannot build them, and the code does not refer to them.
-- NULL external ids never collide, so donors without one are unconstrained.
CREATE UNIQUE INDEX donors_application_external_id_unique ON donors (application_id, external_id)
    WHERE external_id IS NOT NULL;
-- Paging reads "where application_id = ? order by id".
CREATE INDEX donors_application_id_id ON donors (application_id, id);
-- For matching email case-insensitively within an application.
CREATE INDEX donors_application_lower_email ON donors (application_id, lower(email));
-- [jooq ignore stop]
