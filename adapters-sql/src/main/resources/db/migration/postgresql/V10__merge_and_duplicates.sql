-- Duplicates and merge (contract section 15). Like V1 to V9, the jOOQ classes are generated from this script.
--
-- A merged donor names the donor it was merged into; every other donor has null here. Nothing refers to it from
-- outside, and donors are never deleted, so no foreign key is needed to keep it true.
ALTER TABLE donors ADD COLUMN merged_into BIGINT;

-- The duplicate keys (DuplicateKeys: '~', a reason's letter and a hash of the donor's value for it) share
-- donor_words with the search words: written by the same statements as the words, in the change's transaction,
-- found by the same lookup index, and never reached by a search term, which begins with a letter or digit.
-- Migration 10.1 (IndexDuplicateKeys) stores them for the donors stored before.
