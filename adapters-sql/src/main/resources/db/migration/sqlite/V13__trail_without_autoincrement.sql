-- SQLite only: the trail's table rebuilt (SQLite can change neither in place) without AUTOINCREMENT and without foreign
-- keys, which every record paid for on the one writer thread: AUTOINCREMENT a read and an update of the table's row in
-- sqlite_sequence per insert, the foreign keys a look-up of the record's application and donor; together some 3 µs of
-- the 7 µs a record cost (measured: docs/performance.md, "The trail's cost on writes"). Neither guarded anything here:
-- records are never deleted, so the next id SQLite gives, the largest plus one, was never given before (what
-- AUTOINCREMENT adds is only for tables whose largest row may be deleted); and only the service writes records, naming
-- the application and donor of the change it writes in the same transaction. PostgreSQL keeps its foreign keys and
-- MariaDB those it has (V12 dropped its donor's): the one writer thread, and the target its cost is held to, are
-- SQLite's. The copy writes the whole trail once more to the WAL at the first start after the upgrade.
CREATE TABLE audit_trail_rebuilt (
    id             INTEGER PRIMARY KEY,
    application_id INTEGER NOT NULL,
    donor_id       INTEGER,
    key_id         INTEGER,
    at             TEXT NOT NULL,
    action         TEXT NOT NULL,
    fields         TEXT,
    actor_type     TEXT NOT NULL,
    actor_key_id   INTEGER,
    actor_name     TEXT NOT NULL,
    request_id     TEXT,
    version        INTEGER,
    previous_id    INTEGER
);

INSERT INTO audit_trail_rebuilt (id, application_id, donor_id, key_id, at, action, fields, actor_type, actor_key_id,
                                 actor_name, request_id, version, previous_id)
SELECT id, application_id, donor_id, key_id, at, action, fields, actor_type, actor_key_id, actor_name, request_id,
       version, previous_id
FROM audit_trail ORDER BY id;

-- Dropping the table also drops its row in sqlite_sequence.
DROP TABLE audit_trail;
ALTER TABLE audit_trail_rebuilt RENAME TO audit_trail;
