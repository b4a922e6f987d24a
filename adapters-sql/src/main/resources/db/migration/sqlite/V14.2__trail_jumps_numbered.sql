-- The same as db/migration/postgresql/V14.2.
DROP INDEX audit_trail_numbering;
