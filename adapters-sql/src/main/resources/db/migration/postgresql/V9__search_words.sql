-- Finding people (contract section 15). Like V1 to V8, the jOOQ classes are generated from this script.
--
-- The folded words of each donor's first, last and organization name and email (SearchWords: folded by the service,
-- the same on every database), one row per distinct word, written in the transaction that changes the donor; an
-- erased donor has none. A search term matches a range of the lookup index: the words from the term up to the term
-- followed by U+10FFFF, which sorts after every letter. "C" compares bytes, so that range is exactly the words
-- beginning with the term (a language's collation sorts by other rules). Migration 9.1 (IndexSearchWords) fills the
-- table for the donors stored before it.
CREATE TABLE donor_words (
    donor_id       BIGINT NOT NULL REFERENCES donors (id),
    word           VARCHAR(200) NOT NULL,
    application_id BIGINT NOT NULL,
    PRIMARY KEY (donor_id, word)
);

-- [jooq ignore start]
ALTER TABLE donor_words ALTER COLUMN word TYPE VARCHAR(200) COLLATE "C";
-- [jooq ignore stop]

-- A term's donors: one range, by application.
CREATE INDEX donor_words_lookup ON donor_words (application_id, word, donor_id);
