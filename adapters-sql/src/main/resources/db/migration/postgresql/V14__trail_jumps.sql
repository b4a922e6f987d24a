-- A donor's history paged at any depth in about the same time (issue 33, item 16; docs/api.md, "The trail"). V12
-- chained each donor's records (previous_id), so a page walked the whole chain: 25 ms of CPU at 12,000 records. Each
-- record now also holds its place in its donor's chain (chain_position, 1 for the first) and a second link further
-- back (jump_id, to the record at jump_position), chosen when the record is written from the record before it and that
-- record's jump alone (E. W. Myers, "An applicative random-access stack", 1983): from the latest record, following the
-- jump whenever it does not pass the page and the previous link otherwise reaches any position in O(log n) steps (38
-- at 100,000 records), so a page reads about that many records beyond its own. The record's insert reads the two
-- records it is chosen from, by primary key, and writes no index: the write cost V12 saved stays saved.
ALTER TABLE audit_trail ADD COLUMN chain_position BIGINT;
ALTER TABLE audit_trail ADD COLUMN jump_id BIGINT;
ALTER TABLE audit_trail ADD COLUMN jump_position BIGINT;

-- For migration 14.1 alone, which numbers the records written before in each donor's order on it; V14.2 drops it.
CREATE INDEX audit_trail_numbering ON audit_trail (donor_id, id);
