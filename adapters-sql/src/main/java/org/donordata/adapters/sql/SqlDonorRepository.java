package org.donordata.adapters.sql;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import org.donordata.application.ApplicationId;
import org.donordata.application.Changed;
import org.donordata.application.DonorDocument;
import org.donordata.application.DonorRepository;
import org.donordata.application.KeyedCreate;
import org.donordata.application.Upserted;
import org.donordata.domain.ChangePosition;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorFilter;
import org.donordata.domain.DonorFingerprint;
import org.donordata.domain.DuplicateExternalIdException;
import org.donordata.domain.ExpectedVersion;
import org.donordata.domain.IdempotencyKey;

/**
 * Donors in the {@code donors} table, every query scoped by the owning application. The same code for every database:
 * what differs is the strategy it is given for reads ({@link Reads}) and for writes ({@link Writes}), chosen by
 * {@link SqlDatabase}. Every write keeps its meaning whichever strategy runs it, since each runs in a transaction and
 * sees the writes committed before it, exactly as if each had committed on its own.
 */
final class SqlDonorRepository implements DonorRepository {

    private final DonorQueries queries;
    private final Reads reads;
    private final Writes writes;

    SqlDonorRepository(DonorQueries queries, Reads reads, Writes writes) {
        this.queries = queries;
        this.reads = reads;
        this.writes = writes;
    }

    @Override
    public List<Donor> list(ApplicationId owner, DonorFilter filter, long offset, int count) {
        requireAtMostMaxRows(count);
        return page(queries.rows(filter), queries.pageBindings(owner, filter, offset, count),
                statement -> queries.donors(statement, count));
    }

    @Override
    public List<DonorDocument> documents(ApplicationId owner, DonorFilter filter, long offset, int count) {
        requireAtMostMaxRows(count);
        return page(queries.documents().page(filter), queries.pageBindings(owner, filter, offset, count),
                statement -> DonorQueries.documents(statement, count));
    }

    private <T> List<T> page(Statement page, Bindings bindings, Reads.Query<List<T>> read) {
        return reads.query(page.sql(), statement -> {
            page.bind(statement, bindings);
            return read.run(statement);
        });
    }

    @Override
    public Optional<Donor> find(ApplicationId owner, long id) {
        return reads.query(queries.find().sql(), find -> {
            queries.find().bind(find, byId(owner, id));
            return queries.donors(find, 1).stream().findFirst();
        });
    }

    private Bindings byId(ApplicationId owner, long id) {
        return new Bindings(queries.kind()).set(DonorQueries.APPLICATION, owner.value()).set(DonorQueries.ID, id);
    }

    @Override
    public Optional<DonorDocument> findDocument(ApplicationId owner, long id) {
        Statement find = queries.documents().find();
        return reads.query(find.sql(), statement -> {
            find.bind(statement, byId(owner, id));
            return DonorQueries.documents(statement, 1).stream().findFirst();
        });
    }

    @Override
    public List<Changed> changesAfter(ApplicationId owner, ChangePosition after, int count) {
        requireAtMostMaxRows(count);
        return reads.query(queries.changes().sql(), changes -> {
            queries.changes().bind(changes, byId(owner, after.donorId()).set(DonorQueries.CHANGE, after.change())
                    .set(DonorQueries.COUNT, count));
            return DonorQueries.changed(changes, count);
        });
    }

    private static void requireAtMostMaxRows(int count) {
        if (count > MAX_ROWS) {
            throw new IllegalArgumentException("a read takes at most " + MAX_ROWS + " donors, not " + count);
        }
    }

    @Override
    public Donor insert(ApplicationId owner, DonorDetails details, Instant now) {
        Writes.Write<Donor> insert = tx -> new DonorRows(tx, queries, owner, now).insert(details);
        return queries.kind().insertIsOneStatement() ? writes.writeStatement(insert) : writes.write(insert);
    }

    @Override
    public KeyedCreate insertOnce(ApplicationId owner, IdempotencyKey key, DonorFingerprint fingerprint, DonorDetails details,
            Instant now, Duration keyLifetime) {
        return writes.write(tx -> new IdempotentInsert(new DonorRows(tx, queries, owner, now), keyLifetime)
                .insertOnce(key, fingerprint, details));
    }

    @Override
    public Optional<Donor> modify(ApplicationId owner, long id, ExpectedVersion expected,
            UnaryOperator<DonorDetails> change, Instant now) {
        return writes.write(tx -> new DonorRows(tx, queries, owner, now).modify(id, expected, change));
    }

    @Override
    public Optional<Donor> erase(ApplicationId owner, long id, ExpectedVersion expected, Instant now) {
        return writes.write(tx -> new DonorRows(tx, queries, owner, now).erase(id, expected));
    }

    /**
     * Upserts of one external id take turns (a lock on it, held to commit), so the second of two concurrent ones finds
     * the donor the first created. A plain create of the same external id does not take that turn: when one commits
     * in between, the unique index refuses this create, and a second attempt finds its donor and modifies it.
     */
    @Override
    public Upserted upsert(ApplicationId owner, String externalId, ExpectedVersion expected,
            UnaryOperator<DonorDetails> modify, Supplier<DonorDetails> create, Optional<IdempotencyKey> key,
            Instant now, Duration keyLifetime) {
        Upsert upsert = new Upsert(externalId, expected, modify, create, key, keyLifetime);
        try {
            return writes.write(tx -> upsert.once(new DonorRows(tx, queries, owner, now)));
        } catch (DuplicateExternalIdException createdMeanwhile) {
            return writes.write(tx -> upsert.once(new DonorRows(tx, queries, owner, now)));
        }
    }

    /** One attempt of an upsert, within the rows' transaction. */
    private record Upsert(String externalId, ExpectedVersion expected, UnaryOperator<DonorDetails> modify,
            Supplier<DonorDetails> create, Optional<IdempotencyKey> key, Duration keyLifetime) {

        Upserted once(DonorRows rows) {
            DonorQueries queries = rows.queries();
            queries.kind().lockKey(rows.tx(), rows.owner().value(), "external-id:" + externalId);
            IdempotentInsert keyed = new IdempotentInsert(rows, keyLifetime);
            if (key.isPresent()) {
                Optional<Long> earlier = keyed.earlierCreate(key.get(), DonorFingerprint.of(create.get()));
                if (earlier.isPresent()) {
                    return new Upserted(rows.find(queries.find(), DonorQueries.ID, earlier.get()).orElseThrow(), true);
                }
            }
            Optional<Donor> existing = rows.find(queries.findByExternalIdForUpdate(), DonorQueries.EXTERNAL_ID,
                    externalId);
            if (existing.isPresent()) {
                return new Upserted(rows.modify(existing.get().id(), expected, modify).orElseThrow(), false);
            }
            DonorDetails details = create.get();
            Donor created = key.isPresent()
                    ? rows.find(queries.find(), DonorQueries.ID,
                            keyed.insertOnce(key.get(), DonorFingerprint.of(details), details).donorId()).orElseThrow()
                    : rows.insert(details);
            return new Upserted(created, true);
        }
    }
}
