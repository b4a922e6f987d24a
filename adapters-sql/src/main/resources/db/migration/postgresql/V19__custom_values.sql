-- Custom field values (docs/api.md, "Custom fields"; docs/architecture.md, "Custom fields: how values are stored").
-- Like the earlier scripts, the jOOQ classes are generated from this one.
--
-- A donor's values are one JSON object in its row, keyed by field key in the order of the fields' ids, written by the
-- service (CustomColumn); NULL when it holds none, which the API shows as {}. Text, not jsonb: jsonb reorders keys
-- and rewrites numbers, and the object is only ever read whole. Filters reach values through entries in donor_words
-- (CustomValueIndex), so no index is added here, and no row is rewritten: every stored donor holds none.
ALTER TABLE donors ADD COLUMN custom TEXT;
