-- The same as db/migration/postgresql/V18, which says why.
CREATE TABLE custom_fields (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    application_id INTEGER NOT NULL REFERENCES applications (id),
    field_key      TEXT NOT NULL,
    label          TEXT NOT NULL,
    field_type     TEXT NOT NULL,
    choices        TEXT,
    required       INTEGER NOT NULL,
    description    TEXT,
    archived       INTEGER NOT NULL,
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL,
    CONSTRAINT custom_fields_key UNIQUE (application_id, field_key)
);

ALTER TABLE audit_trail ADD COLUMN field_id INTEGER;
ALTER TABLE audit_trail ADD COLUMN field_key TEXT;

UPDATE api_keys SET scopes = replace(scopes, 'donors:write', 'donors:write fields:manage')
WHERE name = 'default'
  AND ' ' || scopes || ' ' LIKE '% donors:erase %'
  AND ' ' || scopes || ' ' LIKE '% donors:merge %'
  AND ' ' || scopes || ' ' LIKE '% donors:read %'
  AND ' ' || scopes || ' ' LIKE '% donors:write %'
  AND ' ' || scopes || ' ' LIKE '% webhooks:manage %'
  AND ' ' || scopes || ' ' NOT LIKE '% fields:manage %';
