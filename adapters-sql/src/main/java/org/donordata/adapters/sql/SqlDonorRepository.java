package org.donordata.adapters.sql;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
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
import org.jooq.DSLContext;

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
        NamedQuery page = filter.equals(DonorFilter.NONE) ? queries.page()
                : queries.filteredPages().get(DonorQueries.criteriaOf(filter));
        List<Object> bindings = pageBindings(owner, filter, offset, count);
        return reads.query(page.sql(), statement -> {
            page.bind(statement, bindings.toArray());
            return queries.donors(statement, count);
        });
    }

    @Override
    public List<DonorDocument> documents(ApplicationId owner, DonorFilter filter, long offset, int count) {
        NamedQuery page = queries.documents().page(filter);
        List<Object> bindings = pageBindings(owner, filter, offset, count);
        return reads.query(page.sql(), statement -> {
            page.bind(statement, bindings.toArray());
            return DonorQueries.documents(statement, count);
        });
    }

    private List<Object> pageBindings(ApplicationId owner, DonorFilter filter, long offset, int count) {
        requireAtMostMaxRows(count);
        List<Object> bindings = queries.bindings(filter);
        Collections.addAll(bindings, DonorQueries.APPLICATION, owner.value(), DonorQueries.OFFSET, offset,
                DonorQueries.COUNT, count);
        return bindings;
    }

    @Override
    public Optional<Donor> find(ApplicationId owner, long id) {
        return reads.query(queries.find().sql(), find -> {
            queries.find().bind(find, DonorQueries.APPLICATION, owner.value(), DonorQueries.ID, id);
            return queries.donors(find, 1).stream().findFirst();
        });
    }

    @Override
    public Optional<DonorDocument> findDocument(ApplicationId owner, long id) {
        NamedQuery find = queries.documents().find();
        return reads.query(find.sql(), statement -> {
            find.bind(statement, DonorQueries.APPLICATION, owner.value(), DonorQueries.ID, id);
            return DonorQueries.documents(statement, 1).stream().findFirst();
        });
    }

    @Override
    public List<Changed> changesAfter(ApplicationId owner, ChangePosition after, int count) {
        requireAtMostMaxRows(count);
        return reads.query(queries.changes().sql(), changes -> {
            queries.changes().bind(changes, DonorQueries.APPLICATION, owner.value(), DonorQueries.CHANGE,
                    after.change(), DonorQueries.ID, after.donorId(), DonorQueries.COUNT, count);
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
        Writes.Write<Donor> insert = tx -> DonorRows.insert(tx, queries, owner, details, now);
        return queries.kind().insertIsOneStatement() ? writes.writeStatement(insert) : writes.write(insert);
    }

    @Override
    public KeyedCreate insertOnce(ApplicationId owner, IdempotencyKey key, DonorFingerprint fingerprint, DonorDetails details,
            Instant now, Duration keyLifetime) {
        return writes.write(tx -> IdempotentInsert.insertOnce(tx, queries, owner, key, fingerprint, details, now,
                keyLifetime));
    }

    @Override
    public Optional<Donor> modify(ApplicationId owner, long id, ExpectedVersion expected,
            UnaryOperator<DonorDetails> change, Instant now) {
        return writes.write(tx -> DonorRows.modify(tx, queries, owner, id, expected, change, now));
    }

    @Override
    public Optional<Donor> erase(ApplicationId owner, long id, ExpectedVersion expected, Instant now) {
        return writes.write(tx -> DonorRows.erase(tx, queries, owner, id, expected, now));
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
        try {
            return writes.write(tx -> upsertOnce(tx, owner, externalId, expected, modify, create, key, now,
                    keyLifetime));
        } catch (DuplicateExternalIdException createdMeanwhile) {
            return writes.write(tx -> upsertOnce(tx, owner, externalId, expected, modify, create, key, now,
                    keyLifetime));
        }
    }

    private Upserted upsertOnce(DSLContext tx, ApplicationId owner, String externalId, ExpectedVersion expected,
            UnaryOperator<DonorDetails> modify, Supplier<DonorDetails> create, Optional<IdempotencyKey> key,
            Instant now, Duration keyLifetime) {
        queries.kind().lockKey(tx, owner.value(), "external-id:" + externalId);
        if (key.isPresent()) {
            Optional<Long> earlier = IdempotentInsert.earlierCreate(tx, owner, key.get(),
                    DonorFingerprint.of(create.get()), now, keyLifetime);
            if (earlier.isPresent()) {
                return new Upserted(DonorRows.find(tx, queries, queries.find(), owner, DonorQueries.ID, earlier.get())
                        .orElseThrow(), true);
            }
        }
        Optional<Donor> existing = DonorRows.find(tx, queries, queries.findByExternalIdForUpdate(), owner,
                DonorQueries.EXTERNAL_ID, externalId);
        if (existing.isPresent()) {
            return new Upserted(DonorRows.modify(tx, queries, owner, existing.get().id(), expected, modify, now)
                    .orElseThrow(), false);
        }
        DonorDetails details = create.get();
        Donor created = key.isPresent()
                ? DonorRows.find(tx, queries, queries.find(), owner, DonorQueries.ID, IdempotentInsert.insertOnce(tx,
                        queries, owner, key.get(), DonorFingerprint.of(details), details, now, keyLifetime).donorId())
                        .orElseThrow()
                : DonorRows.insert(tx, queries, owner, details, now);
        return new Upserted(created, true);
    }
}
