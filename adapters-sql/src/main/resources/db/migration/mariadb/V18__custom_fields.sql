-- The same as db/migration/postgresql/V18, which says why. choices is a MEDIUMTEXT: 200 choices of 100 characters
-- can pass a TEXT's 64 KiB.
CREATE TABLE custom_fields (
    id             BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    application_id BIGINT NOT NULL,
    field_key      VARCHAR(40) NOT NULL,
    label          VARCHAR(200) NOT NULL,
    field_type     VARCHAR(10) NOT NULL,
    choices        MEDIUMTEXT,
    required       BOOLEAN NOT NULL,
    description    VARCHAR(1000),
    archived       BOOLEAN NOT NULL,
    created_at     DATETIME(6) NOT NULL,
    updated_at     DATETIME(6) NOT NULL,
    CONSTRAINT custom_fields_application_fk FOREIGN KEY (application_id) REFERENCES applications (id),
    CONSTRAINT custom_fields_key UNIQUE (application_id, field_key)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_nopad_bin;

ALTER TABLE audit_trail ADD COLUMN field_id BIGINT;
ALTER TABLE audit_trail ADD COLUMN field_key VARCHAR(40);

UPDATE api_keys SET scopes = REPLACE(scopes, 'donors:write', 'donors:write fields:manage')
WHERE name = 'default'
  AND CONCAT(' ', scopes, ' ') LIKE '% donors:erase %'
  AND CONCAT(' ', scopes, ' ') LIKE '% donors:merge %'
  AND CONCAT(' ', scopes, ' ') LIKE '% donors:read %'
  AND CONCAT(' ', scopes, ' ') LIKE '% donors:write %'
  AND CONCAT(' ', scopes, ' ') LIKE '% webhooks:manage %'
  AND CONCAT(' ', scopes, ' ') NOT LIKE '% fields:manage %';
