package org.donordata.application;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

import org.donordata.domain.ConsentPair;
import org.donordata.domain.ConsentRequest;
import org.donordata.domain.ConsentState;
import org.donordata.domain.CustomField;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DuplicateExternalIdException;

/**
 * What one atomic write of an owner's donors may do ({@link DonorRepository#write}), all in one transaction stamped
 * with one instant: a donor it reads is held against every other writer, on every node, until it ends, and anything it
 * throws undoes all of it. The store only stores; what to write is decided by the use cases ({@link DonorWrites}).
 */
public interface DonorTransaction {

    /**
     * Waits until no other write holds this key of the owner (an external id, an idempotency key), then holds it until
     * this write ends: of two writes that take one key, the second sees what the first left.
     */
    void takeTurn(String key);

    /** The owner's donor, held until this write ends. */
    Optional<Donor> find(long id);

    /** The owner's donor with this external id, held until this write ends. */
    Optional<Donor> findByExternalId(String externalId);

    /*
     * Every change below appends its record to the trail (docs/api.md, "The trail") in this transaction, stamped with
     * the donor's id, its version after the change and this write's instant: a change and its record are one step.
     */

    /**
     * Stores a new donor at its first version, with its record.
     *
     * @throws DuplicateExternalIdException when another donor of the owner has its external id
     */
    Donor insert(DonorDetails details, DonorChangeRecord record);

    /**
     * Stores the donor's new details at its next version, as its latest change, with its record.
     *
     * @throws DuplicateExternalIdException when another donor of the owner has the new external id
     */
    Donor update(Donor stored, DonorDetails after, DonorChangeRecord record);

    /**
     * Erases the donor (docs/api.md, "Erasure"): its details as {@link Donor#erasedDetails()} leaves them, the instant
     * recorded, and every record of the key of a create that stored it, and every consent record of it, deleted, as
     * its latest change, with its record.
     */
    Donor erase(Donor stored, DonorChangeRecord record);

    /**
     * Merges the donor into the survivor (docs/api.md, "Duplicates and merge"): erased as {@link #erase} does, except
     * that it records the survivor's id instead of the instant, as its latest change, with its record. Its consent
     * records are the survivor's by then ({@link #moveConsent}).
     */
    Donor mergeInto(Donor stored, long survivorId, DonorChangeRecord record);

    /**
     * What the owner's record of this idempotency key, as the API key that sent it holds it, says, if there is one,
     * expired or not.
     */
    Optional<KeyUse> keyUse(HeldIdempotencyKey key);

    /**
     * Records the key's use, replacing its record if that was used at or before {@code expiredUpTo}; records of other
     * keys used by then may be deleted too.
     */
    void recordKey(HeldIdempotencyKey key, KeyUse use, Instant expiredUpTo);

    /**
     * The owner's custom fields in id order, held against any change or removal of them until this write ends, so that
     * values checked against them are stored only as they allow (docs/api.md, "Custom fields"). A write that reads them
     * does so before it reads any donor: a removal holds the field, then its holders, so a write that held a donor
     * first and then waited for the fields could wait for the removal as the removal waits for it.
     */
    List<CustomField> customFields();

    /**
     * Deletes the owner's field for good, with the trail's record of its removal by {@code actor}; held first, so that
     * every write that reads the owner's fields afterwards waits for this one and no longer finds it.
     *
     * @return the field removed, or empty when the owner has no field with this id
     */
    Optional<CustomField> removeCustomField(long id, Actor actor);

    /**
     * Hands {@code each} the owner's donors found holding a value of the field with this key, up to {@code count} at a
     * time, each batch held and in id order, each donor as it is now (which may no longer hold it, or may come again in
     * a later batch); the next batch is read when {@code each} returns, past the last one read, so what a batch removed
     * is not read again (a store that keeps removed index entries until the transaction ends would otherwise walk all of
     * them for every batch).
     */
    void holding(String key, int count, Consumer<List<Donor>> each);

    /**
     * The owner's donor with this id, held as {@link #find} holds it, with its count of consent records, the latest
     * {@code given_at} of the pair's, and whether the owner's records name its purpose (docs/api.md, "Consent"): one
     * read, since recording consent is as frequent as a modify.
     */
    Optional<ConsentHistory> findForConsent(long donorId, ConsentPair pair);

    /**
     * Takes a purpose {@link #findForConsent} found not named yet, in the owner's turn for new purposes: true when the
     * owner's records name it by now or name fewer than {@code max} purposes (then it is one of them from now on),
     * false otherwise.
     */
    boolean takePurpose(String purpose, int max);

    /**
     * Appends a consent record to the donor's, recorded now by {@code actor}; the donor's details are the caller's to
     * change.
     *
     * @return the record's id
     */
    long addConsent(long donorId, ConsentRequest request, Actor actor);

    /**
     * Moves every consent record of one donor to another (a merge's duplicate to its survivor).
     *
     * @return the state the receiving donor's records now give: each pair's latest by given_at, then by id
     */
    ConsentState moveConsent(long fromDonorId, long toDonorId);
}
