package org.donordata.adapters.sql.donors;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import org.donordata.adapters.sql.fields.FieldRows;
import org.donordata.adapters.sql.kit.Bindings;
import org.donordata.adapters.sql.kit.Reads;
import org.donordata.adapters.sql.kit.Statement;
import org.donordata.adapters.sql.kit.Writes;
import org.donordata.adapters.sql.consent.ConsentRows;
import org.donordata.application.ApplicationId;
import org.donordata.domain.ConsentPair;
import org.donordata.application.ConsentRecord;
import org.donordata.application.ChangeEvent;
import org.donordata.application.Changed;
import org.donordata.application.DonorDocument;
import org.donordata.application.DonorRepository;
import org.donordata.application.DonorTransaction;
import org.donordata.application.SearchPage;
import org.donordata.domain.ChangePosition;
import org.donordata.domain.Donor;
import org.donordata.domain.CustomFilter;
import org.donordata.domain.DonorFilter;
import org.donordata.domain.SearchQuery;

/**
 * Donors in the {@code donors} table, every query scoped by the owning application. The same code for every database:
 * what differs is the strategy it is given for reads ({@link Reads}) and for writes ({@link Writes}), chosen by
 * {@link SqlDatabase}. Every write keeps its meaning whichever strategy runs it, since each runs in a transaction and
 * sees the writes committed before it, exactly as if each had committed on its own.
 */
public final class SqlDonorRepository implements DonorRepository {

    private final DonorQueries queries;
    private final FieldRows fields;
    private final Reads reads;
    private final Writes writes;
    private final ChangeEvents events;
    private final SearchWindow window;

    public SqlDonorRepository(DonorQueries queries, FieldRows fields, Reads reads, Writes writes) {
        this.queries = queries;
        this.fields = fields;
        this.events = ChangeEvents.of(queries.kind());
        this.window = SearchWindow.of(queries.kind());
        this.reads = reads;
        this.writes = writes;
    }

    @Override
    public List<Donor> list(ApplicationId owner, DonorFilter filter, long offset, int count) {
        DonorRepository.checkedCount(count);
        return page(owner, filter, 0, offset, count, queries.rows(), statement -> queries.donors(statement, count));
    }

    @Override
    public List<DonorDocument> documents(ApplicationId owner, DonorFilter filter, long after, long offset, int count) {
        DonorRepository.checkedCount(count);
        if (after != 0 && (filter.consent().isEmpty() || filter.search().isPresent())) {
            throw new IllegalArgumentException("a page past a donor is a list filtered by consent, without q");
        }
        return page(owner, filter, after, offset, count, queries.documents(),
                statement -> queries.documents(statement, count));
    }

    /** A page, searched as its plan says when the filter has a q (SearchPlan). */
    private <T> List<T> page(ApplicationId owner, DonorFilter filter, long after, long offset, int count,
            DonorQueries.Reading reading, Reads.Query<List<T>> read) {
        if (filter.search().isEmpty() && !filter.entryFilters().isEmpty()) {
            Optional<CustomRead> plan = customRead(owner, filter);
            if (plan.isEmpty()) {
                return List.of();
            }
            Bindings bindings = queries.pageBindings(owner, filter, plan.get().ordered(), List.of(), offset, count)
                    .set(DonorQueries.WINDOW_FROM, 0L).set(DonorQueries.WINDOW_TO, (long) DonorQueries.CUSTOM_WALK)
                    .set(DonorQueries.AFTER, after);
            List<T> page = read(reading.page(filter, plan.get().drive()), bindings, read);
            // A walk that did not fill the page within its window: the matches lie further on, drawn instead.
            return plan.get().drive() == DonorQueries.CustomDrive.WALKED && page.size() < count
                    ? read(reading.page(filter, DonorQueries.CustomDrive.DRAWN), bindings, read) : page;
        }
        if (filter.search().isEmpty()) {
            return read(reading.page(filter), queries.pageBindings(owner, filter, List.of(), offset, count), read);
        }
        SearchPlan plan = SearchPlan.of(filter.search().get(), (term, limit) -> read(queries.wordCount(),
                queries.wordCountBindings(owner, term, limit), DonorQueries::number));
        if (plan.matchesNone()) {
            return List.of();
        }
        return read(reading.page(filter, plan), queries.pageBindings(owner, filter, plan.terms(), offset, count), read);
    }

    /** A page's custom filters in the order its statement reads them, and how it reads the first. */
    private record CustomRead(List<CustomFilter> ordered, DonorQueries.CustomDrive drive) {
    }

    /**
     * How a page filtered on custom fields is read (DonorQueries.CustomDrive): by an email's or external id's index when
     * the filter has one; from an exact filter's entries; else from
     * the range with the fewest entries (each counted up to SearchPlan.COMMON), its donors drawn when it has fewer, the
     * owner's donors walked when every range has that many; nothing when a range has none.
     */
    private Optional<CustomRead> customRead(ApplicationId owner, DonorFilter filter) {
        List<CustomFilter> custom = filter.entryFilters();
        // An email or external id matches at most a few donors, on an index of its own.
        if (filter.email().isPresent() || filter.externalId().isPresent()) {
            return Optional.of(new CustomRead(custom, DonorQueries.CustomDrive.CRITERION));
        }
        Optional<CustomFilter> exact = custom.stream().filter(CustomFilter::exact).findFirst();
        if (exact.isPresent()) {
            return Optional.of(new CustomRead(first(exact.get(), custom), DonorQueries.CustomDrive.EXACT));
        }
        CustomFilter fewest = null;
        long fewestEntries = Long.MAX_VALUE;
        for (CustomFilter range : custom) {
            long entries = read(queries.wordCount(), queries.wordCountBindings(owner, range, SearchPlan.COMMON),
                    DonorQueries::number);
            if (entries == 0) {
                return Optional.empty();
            }
            if (entries < fewestEntries) {
                fewest = range;
                fewestEntries = entries;
            }
        }
        return Optional.of(new CustomRead(first(fewest, custom), fewestEntries < SearchPlan.COMMON
                ? DonorQueries.CustomDrive.DRAWN : DonorQueries.CustomDrive.WALKED));
    }

    private static List<CustomFilter> first(CustomFilter leading, List<CustomFilter> all) {
        List<CustomFilter> ordered = new ArrayList<>(List.of(leading));
        all.stream().filter(filter -> filter != leading).forEach(ordered::add);
        return ordered;
    }

    /**
     * Drawn from a rare term (SearchPlan) or by the external id, the page reads every match past after, which is
     * bounded already; else it walks the owner's next {@code budget} donors (DonorQueries.Reading.windowPage).
     */
    @Override
    public Searched search(ApplicationId owner, DonorFilter filter, long after, long offset, int count, int budget) {
        DonorRepository.checkedCount(count);
        SearchQuery query = filter.search().orElseThrow(() -> new IllegalArgumentException("a search needs a q"));
        if (budget < 1 || after < 0) {
            throw new IllegalArgumentException("a search examines at least one donor, past an id of at least 0");
        }
        SearchPlan plan = SearchPlan.of(query, budget, (term, limit) -> read(queries.wordCount(),
                queries.wordCountBindings(owner, term, limit), DonorQueries::number));
        if (plan.matchesNone()) {
            return new Searched(List.of(), Optional.empty());
        }
        DonorQueries.Reading reading = queries.documents();
        Reads.Query<List<DonorDocument>> documents = statement -> queries.documents(statement, count);
        Bindings bindings = queries.pageBindings(owner, filter, plan.terms(), offset, count)
                .set(DonorQueries.AFTER, after);
        if (plan.drawn() || filter.externalId().isPresent()) {
            return new Searched(read(reading.page(filter, plan), bindings, documents), Optional.empty());
        }
        List<DonorDocument> found;
        Optional<Long> last;
        if (queries.kind().numbersAtInsert()) {
            long from = after == 0 ? 0 : read(window.ordinal(), bindings, SearchWindow::number)
                    .orElseThrow(() -> new IllegalArgumentException("after is no donor of the owner's"));
            bindings.set(DonorQueries.WINDOW_FROM, from).set(DonorQueries.WINDOW_TO, from + budget);
            // Before the page: an ordinal, once given, keeps its donor, so a window full now is the very window the
            // page reads, and the next page cannot skip a donor numbered in between.
            last = read(window.donorAt(), bindings, SearchWindow::number);
            found = read(reading.windowPage(filter, plan, budget), bindings, documents);
        } else {
            found = read(reading.windowPage(filter, plan, budget), bindings, documents);
            last = found.size() < count ? read(window.window(budget), bindings, SearchWindow.lastWhenFull(budget))
                    : Optional.empty();
        }
        if (found.size() >= count || last.isEmpty()) {
            return new Searched(found, Optional.empty());
        }
        // A page with matches skipped all of the offset within the window; an empty one skipped as many as it held.
        long skip = found.isEmpty() && offset > 0
                ? Math.max(0, offset - read(reading.windowMatches(filter, plan, budget), bindings, DonorQueries::number))
                : 0;
        return new Searched(found, Optional.of(new SearchPage.From(last.get(), skip)));
    }

    /** Runs the statement on this node's reads, every place bound. */
    private <T> T read(Statement query, Bindings bindings, Reads.Query<T> read) {
        return reads.query(query.sql(), statement -> {
            query.bind(statement, bindings);
            return read.run(statement);
        });
    }

    @Override
    public Optional<Donor> find(ApplicationId owner, long id) {
        return read(queries.rows().find(), byId(owner, id), find -> queries.donors(find, 1).stream().findFirst());
    }

    private Bindings byId(ApplicationId owner, long id) {
        return new Bindings(queries.kind()).set(DonorQueries.APPLICATION, owner.value()).set(DonorQueries.ID, id);
    }

    @Override
    public Optional<List<ConsentRecord>> consents(ApplicationId owner, long donorId, long offset, int count) {
        DonorRepository.checkedCount(count);
        if (find(owner, donorId).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(read(queries.consent().page(), queries.consent().pageBindings(owner, donorId, offset, count),
                records -> queries.consent().records(records, count)));
    }

    @Override
    public List<ConsentPair> consentPairs(ApplicationId owner) {
        return read(queries.consent().pairs(), queries.consent().pairsBindings(owner), ConsentRows::pairs);
    }

    @Override
    public Optional<DonorDocument> findDocument(ApplicationId owner, long id) {
        return read(queries.documents().find(), byId(owner, id),
                find -> queries.documents(find, 1).stream().findFirst());
    }

    @Override
    public Optional<Set<String>> duplicateKeys(ApplicationId owner, long id) {
        return read(queries.duplicateKeys(), byId(owner, id), DonorQueries::readDuplicateKeys);
    }

    @Override
    public List<SharingKeys> sharingKeys(ApplicationId owner, long donorId, Set<String> keys, int count) {
        DonorRepository.checkedCount(count);
        if (keys.isEmpty()) {
            return List.of();
        }
        List<String> given = List.copyOf(keys);
        return read(queries.sharingKeys(), queries.sharingKeysBindings(owner, donorId, given, count),
                statement -> queries.keySharers(statement, given, count));
    }

    @Override
    public List<Changed> changesAfter(ApplicationId owner, ChangePosition after, int count) {
        DonorRepository.checkedCount(count);
        return read(queries.changes(), byId(owner, after.donorId()).set(DonorQueries.CHANGE, after.change())
                .set(DonorQueries.COUNT, count), changes -> queries.changed(changes, count));
    }

    @Override
    public List<ChangeEvent> changeEventsAfter(ApplicationId owner, ChangePosition after, int count) {
        DonorRepository.checkedCount(count);
        return read(events.events(), byId(owner, after.donorId()).set(DonorQueries.CHANGE, after.change())
                .set(DonorQueries.COUNT, count), query -> ChangeEvents.read(query, queries.kind(), count));
    }

    @Override
    public boolean changedByOthersAfter(ApplicationId owner, long donorId, ChangePosition after, Set<Long> keys) {
        return read(events.othersChanged(), ChangeEvents.othersChangedBindings(queries.kind(), owner, donorId, after,
                keys), ChangeEvents::readOthersChanged);
    }

    // Where the database never keeps a change back from the feed, there is nothing to ask.
    @Override
    public Optional<ChangePosition> hiddenChangesFloor(ApplicationId owner, ChangePosition after,
            ChangePosition through) {
        if (events.hiddenFloor().isEmpty()) {
            return Optional.empty();
        }
        return read(events.hiddenFloor().get(), ChangeEvents.hiddenFloorBindings(queries.kind(), owner, after,
                through), ChangeEvents::readFloor);
    }

    @Override
    public ChangePosition latestChange(ApplicationId owner) {
        return read(events.latest(), new Bindings(queries.kind()).set(DonorQueries.APPLICATION, owner.value()),
                ChangeEvents::readLatest);
    }

    /** The write runs in the transaction its Writes gives it, on this node's connections: see DonorRows. */
    @Override
    public <T> T write(ApplicationId owner, Instant now, Function<DonorTransaction, T> write) {
        return writes.write(tx -> write.apply(new DonorRows(tx, queries, fields, owner, now)));
    }

    @Override
    public <T> T writeAlone(ApplicationId owner, Instant now, Function<DonorTransaction, T> write) {
        return writes.writeAlone(tx -> write.apply(new DonorRows(tx, queries, fields, owner, now)));
    }
}
