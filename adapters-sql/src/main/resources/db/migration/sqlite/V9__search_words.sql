-- The same as db/migration/postgresql/V9, which explains it. SQLite compares text byte by byte (BINARY) already.
-- WITHOUT ROWID: the table is its primary key, so a word is stored twice (table and lookup index), not three times.
CREATE TABLE donor_words (
    donor_id       INTEGER NOT NULL REFERENCES donors (id),
    word           TEXT NOT NULL,
    application_id INTEGER NOT NULL,
    PRIMARY KEY (donor_id, word)
) WITHOUT ROWID;

CREATE INDEX donor_words_lookup ON donor_words (application_id, word, donor_id);
