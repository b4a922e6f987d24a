package org.donordata.application;

/**
 * A stored donor as the API shows it: its JSON object (contract section 4: every field in field order, under its key),
 * encoded in UTF-8, rendered by the store in the query that reads it, with the id and version beside it for what a
 * driving adapter says about the donor (its ETag). Reads that only pass donors on take these rather than
 * {@link org.donordata.domain.Donor}s: no shape in between (docs/architecture.md, "The straight data path").
 *
 * @param json the bytes of the object; not copied, and never to be changed by anyone
 */
public record DonorDocument(long id, long version, byte[] json) {
}
