-- Erasure (contract section 11): when a donor's personal data was erased; null for every other donor. Like V1 to V5,
-- the jOOQ classes are generated from this script.
ALTER TABLE donors ADD COLUMN erased_at TIMESTAMP WITH TIME ZONE;
