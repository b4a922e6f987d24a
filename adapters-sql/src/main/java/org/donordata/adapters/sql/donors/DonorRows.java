package org.donordata.adapters.sql.donors;

import static org.donordata.adapters.sql.schema.Tables.DONOR_WORDS;
import static org.donordata.adapters.sql.schema.Tables.IDEMPOTENCY_KEYS;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Consumer;

import org.donordata.adapters.sql.fields.FieldRows;
import org.donordata.adapters.sql.kit.Bindings;
import org.donordata.adapters.sql.kit.DatabaseKind;
import org.donordata.adapters.sql.kit.Pipeline;
import org.donordata.adapters.sql.kit.PreparedStatements;
import org.donordata.adapters.sql.kit.Statement;
import org.donordata.adapters.sql.kit.UniqueConstraint;
import org.donordata.application.Actor;
import org.donordata.application.ApplicationId;
import org.donordata.application.DonorChangeRecord;
import org.donordata.application.DonorTransaction;
import org.donordata.application.HeldIdempotencyKey;
import org.donordata.application.KeyUse;
import org.donordata.application.ConsentHistory;
import org.donordata.domain.ConsentPair;
import org.donordata.domain.ConsentRequest;
import org.donordata.domain.ConsentState;
import org.donordata.domain.CustomField;
import org.donordata.domain.CustomValueIndex;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorField;
import org.donordata.domain.DuplicateExternalIdException;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Param;
import org.jooq.Record2;
import org.jooq.Result;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;

/**
 * A write's transaction on one owner's donor rows (DonorTransaction), run by the node's Writes (one per request, or
 * one per group of them), all stamped with the same instant, each change with its record in the trail (TrailAppend:
 * the donor's row names its latest record, which a change inserts just before the row changes, or which a new row
 * names ahead where the database tells the next record's id).
 */
public record DonorRows(DSLContext tx, DonorQueries queries, FieldRows fields, ApplicationId owner, Instant now)
        implements DonorTransaction {

    private static final UniqueConstraint EXTERNAL_ID = new UniqueConstraint(
            "donors_application_external_id_unique", "donors.application_id, donors.external_id");

    /**
     * Stores a new donor at its first version, as its application's next ordinal now or soon (see the V4 migration).
     *
     * @throws DuplicateExternalIdException when another donor of the owner has the same external id
     */
    @Override
    public Donor insert(DonorDetails details, DonorChangeRecord record) {
        DatabaseKind kind = queries.kind();
        Long change = kind.drawChange(tx);
        Bindings bindings = DonorColumns.set(new Bindings(kind), details)
                .set(DonorQueries.APPLICATION, owner.value())
                .set(DonorQueries.CREATED, now)
                .set(DonorQueries.UPDATED, now)
                .set(DonorQueries.VERSION, Donor.FIRST_VERSION)
                .set(DonorQueries.CHANGE, change);
        try {
            long id = tx.connectionResult(connection -> {
                PreparedStatement insert = PreparedStatements.returningId(connection, queries.insert().sql());
                queries.insert().bind(insert, bindings);
                insert.executeUpdate();
                return kind.insertedId(tx, insert);
            });
            Pipeline write = new Pipeline(kind);
            queries.words().add(write, owner, id, details);
            if (kind.numbersAtInsert()) {
                queries.atInsert().number(write, new Bindings(kind).set(DonorQueries.APPLICATION, owner.value())
                        .set(DonorQueries.ID, id));
            }
            queries.trail().donorCreated(write, owner, id, record, change, now);
            write.run(tx);
            return new Donor(id, details, now, now, Donor.FIRST_VERSION);
        } catch (DataAccessException e) {
            throw duplicateExternalIdOr(e, details);
        }
    }

    @Override
    public void takeTurn(String key) {
        queries.kind().lockKey(tx, owner.value(), key);
    }

    @Override
    public Optional<Donor> find(long id) {
        return find(queries.findForUpdate(), DonorQueries.ID, id);
    }

    @Override
    public Optional<Donor> findByExternalId(String externalId) {
        return find(queries.findByExternalIdForUpdate(), DonorQueries.EXTERNAL_ID, externalId);
    }

    @Override
    public Donor update(Donor stored, DonorDetails after, DonorChangeRecord record) {
        try {
            return update(stored, after, null, null, record);
        } catch (DataAccessException e) {
            throw duplicateExternalIdOr(e, after);
        }
    }

    /**
     * Also deletes the records of the keys of creates that stored the donor, and its consent records: they name its
     * data.
     */
    @Override
    public Donor erase(Donor stored, DonorChangeRecord record) {
        forgetKeysOf(stored);
        queries.consent().deleteOf(tx, stored.id());
        return update(stored, stored.erasedDetails(), now, null, record);
    }

    /** As {@link #erase}, with the survivor's id recorded instead of the instant. */
    @Override
    public Donor mergeInto(Donor stored, long survivorId, DonorChangeRecord record) {
        forgetKeysOf(stored);
        queries.consent().deleteOf(tx, stored.id());
        return update(stored, stored.erasedDetails(), null, survivorId, record);
    }

    private void forgetKeysOf(Donor stored) {
        tx.deleteFrom(IDEMPOTENCY_KEYS).where(IDEMPOTENCY_KEYS.APPLICATION_ID.eq(owner.value()),
                IDEMPOTENCY_KEYS.DONOR_ID.eq(stored.id())).execute();
    }

    @Override
    public Optional<KeyUse> keyUse(HeldIdempotencyKey key) {
        return new IdempotencyKeyRows(this).use(key);
    }

    @Override
    public void recordKey(HeldIdempotencyKey key, KeyUse use, Instant expiredUpTo) {
        new IdempotencyKeyRows(this).record(key, use, expiredUpTo);
    }

    private Donor update(Donor stored, DonorDetails after, Instant erasedAt, Long mergedInto,
            DonorChangeRecord record) {
        long version = stored.version() + 1;
        DatabaseKind kind = queries.kind();
        Long change = kind.drawChange(tx);
        Bindings changed = DonorColumns.set(new Bindings(kind), after)
                .set(DonorQueries.APPLICATION, owner.value())
                .set(DonorQueries.ID, stored.id())
                .set(DonorQueries.UPDATED, now)
                .set(DonorQueries.VERSION, version)
                .set(DonorQueries.ERASED, erasedAt)
                .set(DonorQueries.MERGED, mergedInto)
                .set(DonorQueries.CHANGE, change);
        // The record just before the row's change, which names it as the donor's latest (DatabaseKind.lastTrailRecord).
        Pipeline write = new Pipeline(kind);
        queries.trail().donorChanged(write, owner, stored.id(), record, version, change, now);
        write.add(stored.details().differsIn(DonorColumns.INDEXED, after) ? queries.update()
                : queries.updateKeepingIndexed(), changed);
        queries.words().replace(write, owner, stored.id(), stored.details(), after);
        write.run(tx);
        return new Donor(stored.id(), after, stored.createdAt(), now, version, erasedAt, mergedInto);
    }

    /** The owner's donor a query of {@link DonorQueries} finds by one more parameter, within the transaction. */
    <T> Optional<Donor> find(Statement query, Param<T> parameter, T value) {
        Bindings bindings = new Bindings(queries.kind()).set(DonorQueries.APPLICATION, owner.value())
                .set(parameter, value);
        return tx.connectionResult(connection -> queries.donors(query.prepared(connection, bindings), 1).stream()
                .findFirst());
    }

    @Override
    public List<CustomField> customFields() {
        return fields.held(tx, owner);
    }

    @Override
    public Optional<CustomField> removeCustomField(long id, Actor actor) {
        return FieldRows.remove(tx, queries.trail(), owner, id, actor, now);
    }

    // The field's entries in donor_words (CustomValueIndex) in the order of the words' lookup index, each batch read
    // past the last entry of the one before (Dialect.after): a batch's updates delete its entries, which a database may
    // keep in the index until the transaction ends, so read from the range's start every batch would walk all the
    // removed ones again (docs/performance.md, "A removal of a widely held field, alone at last"). In that order, not
    // the donors', since ordered by donor every batch would sort the whole rest of the range. Each batch held in id
    // order.
    @Override
    public void holding(String key, int count, Consumer<List<Donor>> each) {
        String first = CustomValueIndex.keyed(key);
        Condition ofKey = DONOR_WORDS.APPLICATION_ID.eq(owner.value()).and(DONOR_WORDS.WORD.ge(first))
                .and(DONOR_WORDS.WORD.lt(first + DonorQueries.AFTER_EVERY_LETTER));
        Condition past = DSL.noCondition();
        for (;;) {
            Result<Record2<String, Long>> entries = tx.select(DONOR_WORDS.WORD, DONOR_WORDS.DONOR_ID)
                    .from(DONOR_WORDS).where(ofKey, past).orderBy(DONOR_WORDS.WORD, DONOR_WORDS.DONOR_ID)
                    .limit(count).fetch();
            if (entries.isEmpty()) {
                return;
            }
            List<Donor> holders = new ArrayList<>();
            new TreeSet<>(entries.getValues(DONOR_WORDS.DONOR_ID)).forEach(id -> find(id).ifPresent(holders::add));
            each.accept(holders);
            if (entries.size() < count) {
                return;
            }
            Record2<String, Long> last = entries.get(entries.size() - 1);
            past = queries.kind().after(DONOR_WORDS.WORD, DONOR_WORDS.DONOR_ID, last.value1(), last.value2());
        }
    }

    @Override
    public Optional<ConsentHistory> findForConsent(long donorId, ConsentPair pair) {
        Bindings bindings = queries.consent().historyBindings(new Bindings(queries.kind())
                .set(DonorQueries.APPLICATION, owner.value()).set(DonorQueries.ID, donorId), owner, pair);
        return tx.connectionResult(connection -> {
            try (ResultSet row = queries.findForConsent().prepared(connection, bindings).executeQuery()) {
                return row.next() ? Optional.of(queries.consent().history(DonorColumns.read(row, queries.kind()), row,
                        DonorColumns.SELECTED.size() + 1)) : Optional.empty();
            }
        });
    }

    @Override
    public boolean takePurpose(String purpose, int max) {
        return queries.consent().takePurpose(tx, owner, purpose, max);
    }

    @Override
    public long addConsent(long donorId, ConsentRequest request, Actor actor) {
        return queries.consent().add(tx, owner, donorId, request, actor, now);
    }

    @Override
    public ConsentState moveConsent(long fromDonorId, long toDonorId) {
        return queries.consent().move(tx, fromDonorId, toDonorId);
    }

    private RuntimeException duplicateExternalIdOr(DataAccessException e, DonorDetails details) {
        return EXTERNAL_ID.isViolatedBy(e, queries.kind())
                ? new DuplicateExternalIdException(details.text(DonorField.EXTERNAL_ID)) : e;
    }
}
