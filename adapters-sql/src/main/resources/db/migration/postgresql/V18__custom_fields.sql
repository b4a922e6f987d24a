-- Custom fields (docs/api.md, "Custom fields"). Like the earlier scripts, the jOOQ classes are generated from this one.

-- 1. An application's field definitions. field_key is unique within the application, so that two creates of one key at
-- once leave one field; a removed field's row is deleted, which frees its key. choices is a JSON array of strings in
-- the field's order, null for a type without choices.
CREATE TABLE custom_fields (
    id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    application_id BIGINT NOT NULL REFERENCES applications (id),
    field_key      VARCHAR(40) NOT NULL,
    label          VARCHAR(200) NOT NULL,
    field_type     VARCHAR(10) NOT NULL,
    choices        TEXT,
    required       BOOLEAN NOT NULL,
    description    VARCHAR(1000),
    archived       BOOLEAN NOT NULL,
    created_at     TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at     TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT custom_fields_key UNIQUE (application_id, field_key)
);

-- 2. A field's events in the trail (field.created, field.modified, field.removed): donor_id and key_id null, the
-- field's id and key here. No reference to custom_fields: a removed field's records stay.
ALTER TABLE audit_trail ADD COLUMN field_id BIGINT;
ALTER TABLE audit_trail ADD COLUMN field_key VARCHAR(40);

-- 3. Defining fields needs the scope fields:manage. Every key named default that holds every other scope gains it, as
-- V15 gave donors:merge: scopes are stored space-separated and sorted, so it goes right after donors:write.
-- [jooq ignore start]
UPDATE api_keys SET scopes = replace(scopes, 'donors:write', 'donors:write fields:manage')
WHERE name = 'default'
  AND ' ' || scopes || ' ' LIKE '% donors:erase %'
  AND ' ' || scopes || ' ' LIKE '% donors:merge %'
  AND ' ' || scopes || ' ' LIKE '% donors:read %'
  AND ' ' || scopes || ' ' LIKE '% donors:write %'
  AND ' ' || scopes || ' ' LIKE '% webhooks:manage %'
  AND ' ' || scopes || ' ' NOT LIKE '% fields:manage %';
-- [jooq ignore stop]
