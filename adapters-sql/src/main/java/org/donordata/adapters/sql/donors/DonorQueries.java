package org.donordata.adapters.sql.donors;

import static org.donordata.adapters.sql.schema.Tables.DONORS;
import static org.donordata.adapters.sql.schema.Tables.DONOR_ORDINALS;
import static org.donordata.adapters.sql.schema.Tables.DONOR_WORDS;
import static org.donordata.adapters.sql.schema.Tables.SEQUENCING;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.donordata.adapters.sql.kit.Bindings;
import org.donordata.adapters.sql.kit.DatabaseKind;
import org.donordata.adapters.sql.kit.Ordering;
import org.donordata.adapters.sql.kit.Statement;
import org.donordata.adapters.sql.consent.ConsentRows;
import org.donordata.adapters.sql.trail.TrailAppend;
import org.donordata.application.ApplicationId;
import org.donordata.application.Changed;
import org.donordata.application.DonorDocument;
import org.donordata.application.DonorRepository;
import org.donordata.application.DonorService;
import org.donordata.domain.ChangePosition;
import org.donordata.domain.Donor;
import org.donordata.domain.DonorField;
import org.donordata.domain.CustomFilter;
import org.donordata.domain.DonorFilter;
import org.donordata.domain.DuplicateKeys;
import org.donordata.domain.SearchQuery;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.Query;
import org.jooq.Record;
import org.jooq.Record1;
import org.jooq.Select;
import org.jooq.SelectConditionStep;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * The donor statements, rendered once by jOOQ in the database's dialect (rendering cost more CPU than PostgreSQL spent
 * on a create: docs/performance.md, "Reads skip the general paths"), and the reading of their rows. Parameters are
 * bound by their {@link Param} ({@link Bindings}): the constants here, and each writable field's
 * {@link DonorColumns#parameter}.
 *
 * @param rows the reads of donors as rows: one, a page, a filtered or searched page
 * @param findForUpdate one donor, locking the row for the caller's transaction
 * @param findForConsent the same, with what a new consent record of it is decided on (ConsentRows.historyOf)
 * @param documentColumns how the reads of documents select and read them
 * @param documents the reads that hand donors on, as documents
 * @param changes a page of the sync feed, as documents
 * @param insert a new donor (its id is the generated key)
 * @param update a donor's new details, timestamp, version, change number, when it was erased and what it was merged
 *        into (each null unless it was)
 * @param updateKeepingIndexed the same, leaving the columns of {@link DonorColumns#INDEXED} as they are
 * @param trail a record of a change
 * @param words a donor's search words
 * @param wordCount how many words of an owner's donors a search term begins, up to a limit (SearchPlan)
 * @param sharingKeys the donors that share the most of some duplicate keys with a donor, as rows
 * @param consent a donor's consent records, as writes and the list read them
 */
public record DonorQueries(DatabaseKind kind, Reading rows, Statement findForUpdate, Statement findForConsent,
        DonorColumns.Documents documentColumns, Reading documents,
        Statement insert, Statement update, Statement updateKeepingIndexed, Statement changes,
        Statement findByExternalIdForUpdate,
        IdempotencyKeyRows.Statements keys, Sequencing.AtInsert atInsert, TrailAppend trail, DonorWords words,
        Statement wordCount, Statement duplicateKeys, Statement sharingKeys, ConsentRows consent) {

    /**
     * The reads of one selection: a donor by id, a page in id order, a filtered page, and a searched page (rendered when
     * first asked for, per criteria and number of terms, and kept).
     */
    record Reading(Statement find, Statement page, Map<Set<Criterion>, Statement> filteredPages,
            Map<SearchShape, Statement> searchedPages, Map<CustomShape, Statement> customPages, DatabaseKind kind,
            DSLContext renderer, List<Field<?>> selected) {

        static Reading of(DatabaseKind kind, DSLContext renderer, List<Field<?>> selected) {
            Map<Set<Criterion>, Statement> filteredPages = new HashMap<>();
            for (Set<Criterion> criteria : everySubsetOf(EnumSet.allOf(Criterion.class))) {
                filteredPages.put(criteria, Statement.render(renderer, filtered(kind, selected, criteria)));
            }
            return new Reading(Statement.render(renderer, byId(selected)),
                    Statement.render(renderer, kind.numbersAtInsert() ? numbered(kind, selected) : numberedThenNewer(kind, selected)),
                    Map.copyOf(filteredPages), new ConcurrentHashMap<>(), new ConcurrentHashMap<>(), kind, renderer,
                    selected);
        }

        /** The page query for a filter without search. */
        Statement page(DonorFilter filter) {
            return filter.equals(DonorFilter.NONE) ? page : filteredPages.get(criteriaOf(filter));
        }

        /** The page query for a filter with search, read as planned, every match past after (AFTER). */
        Statement page(DonorFilter filter, SearchPlan plan) {
            return searched(new SearchShape(criteriaOf(filter), plan.terms().size(), plan.drawn(), 0, false,
                    filter.entryFilters().size()));
        }

        /** The page query for a filter on custom fields without search, read from its first one as {@code drive} says. */
        Statement page(DonorFilter filter, CustomDrive drive) {
            return customPages.computeIfAbsent(new CustomShape(criteriaOf(filter), filter.entryFilters().size(), drive),
                    shape -> Statement.render(renderer, DonorQueries.custom(kind, selected, shape)));
        }

        /**
         * The page query for a filter with search, walked within the owner's next {@code window} donors past after
         * (docs/api.md, "Searching (q)"); bound by WINDOW_FROM and WINDOW_TO where donors are numbered at insert, by
         * AFTER elsewhere.
         */
        Statement windowPage(DonorFilter filter, SearchPlan plan, int window) {
            return searched(new SearchShape(criteriaOf(filter), plan.terms().size(), false, window, false,
                    filter.entryFilters().size()));
        }

        /** How many donors of {@link #windowPage}'s window match: what a page past them still has to skip. */
        Statement windowMatches(DonorFilter filter, SearchPlan plan, int window) {
            return searched(new SearchShape(criteriaOf(filter), plan.terms().size(), false, window, true,
                    filter.entryFilters().size()));
        }

        private Statement searched(SearchShape shape) {
            return searchedPages.computeIfAbsent(shape, unused -> Statement.render(renderer,
                    DonorQueries.searched(kind, selected, shape)));
        }
    }

    /**
     * What a searched page's statement depends on: the filter's other criteria, how many terms its q has, whether
     * the page is drawn from the first term's donors (SearchPlan), and, walked within a window of the owner's donors,
     * the window's size (0: no window) and whether its matches are counted rather than read.
     */
    record SearchShape(Set<Criterion> criteria, int terms, boolean drawn, int window, boolean counted, int customs) {
    }

    /**
     * How a page filtered on custom fields (and no q) is read, from its first custom filter's entries in the words'
     * lookup index (CustomValueIndex; docs/architecture.md, "Custom fields: how values are stored"; the repository puts
     * first the filter to read from): an exact value's entries in donor id order ({@code EXACT}, as an email's); a
     * range's donors, few, read and sorted ({@code DRAWN}); or, when every range holds many, the owner's first donors
     * walked in id order, each checked ({@code WALKED}, cheap because matches are common: SearchPlan.COMMON), and
     * drawn when those do not fill the page ({@link #CUSTOM_WALK}). With an email or external id, that criterion's
     * index reads the page and every custom filter is checked ({@code CRITERION}).
     */
    enum CustomDrive { EXACT, DRAWN, WALKED, CRITERION }

    /**
     * How many of the owner's first donors a walked page of custom ranges examines (CustomDrive.WALKED): the search's
     * budget (DonorService.SEARCH_BUDGET). A page not filled within them is drawn instead, so that ranges whose donors
     * lie far on in id order (member numbers that grow with the donors) cost a sort, not a walk of every donor.
     */
    static final int CUSTOM_WALK = DonorService.SEARCH_BUDGET;

    /** What a page filtered on custom fields depends on: its other criteria, how many custom filters, its drive. */
    record CustomShape(Set<Criterion> criteria, int customs, CustomDrive drive) {
    }

    public static final Param<Long> APPLICATION = DSL.param("p_application", Long.class);
    public static final Param<Long> ID = DSL.param("p_id", Long.class);
    static final Param<Long> OFFSET = DSL.param("p_offset", Long.class);
    static final Param<Integer> COUNT = DSL.param("p_count", Integer.class);
    static final Param<Instant> CREATED = DSL.param("p_created", DONORS.CREATED_AT.getType());
    public static final Param<Instant> UPDATED = DSL.param("p_updated", DONORS.UPDATED_AT.getType());
    static final Param<Long> VERSION = DSL.param("p_version", Long.class);
    public static final Param<Long> CHANGE = Ordering.CHANGE;
    static final Param<String> EXTERNAL_ID = DSL.param("p_external_id", String.class);
    static final Param<Instant> ERASED = DSL.param("p_erased", DONORS.ERASED_AT.getType());
    static final Param<Long> MERGED = DSL.param("p_merged", Long.class);
    /** The donor a searched page starts past (0: the first), and the ordinals of a walked page's window (from, to]. */
    static final Param<Long> AFTER = DSL.param("p_after", Long.class);
    static final Param<Long> WINDOW_FROM = DSL.param("p_window_from", Long.class);
    static final Param<Long> WINDOW_TO = DSL.param("p_window_to", Long.class);
    /** The column of {@link #idWindow}. */
    static final String WALKED_ID = "walked_id";
    private static final Param<String> FILTER_EMAIL = DSL.param("p_filter_email", String.class);
    private static final Param<String> FILTER_EXTERNAL_ID = DSL.param("p_filter_external_id", String.class);
    private static final Param<String> FILTER_TYPE = DSL.param("p_filter_type", String.class);
    private static final Param<Instant> FILTER_CREATED_SINCE = DSL.param("p_created_since", DONORS.CREATED_AT.getType());
    private static final Param<Instant> FILTER_UPDATED_SINCE = DSL.param("p_updated_since", DONORS.UPDATED_AT.getType());
    /**
     * Each entry filter's range of entries (DonorFilter.entryFilters: the consent's, then each custom filter's), in the
     * order {@link #pageBindings} gives them.
     */
    private static final List<Param<String>> CUSTOM_FROM = IntStream.range(0, CustomFilter.MAX_PARAMETERS + 1)
            .mapToObj(i -> DSL.param("p_custom_from_" + i, String.class)).toList();
    private static final List<Param<String>> CUSTOM_TO = IntStream.range(0, CustomFilter.MAX_PARAMETERS + 1)
            .mapToObj(i -> DSL.param("p_custom_to_" + i, String.class)).toList();
    /** A search term's range of words: from the term up to the term followed by {@link #AFTER_EVERY_LETTER}. */
    private static final List<Param<String>> TERM_FROM = termParameters("p_term_from_");
    private static final List<Param<String>> TERM_TO = termParameters("p_term_to_");
    private static final List<Param<String>> DUPLICATE_KEYS = IntStream.range(0, DuplicateKeys.Reason.values().length)
            .mapToObj(i -> DSL.param("p_duplicate_key_" + i, String.class)).toList();
    private static final Param<Integer> WORD_COUNT_LIMIT = DSL.param("p_word_count_limit", Integer.class);
    /** U+10FFFF, which is no letter or digit and sorts after every one in each database's order of words (V9). */
    static final String AFTER_EVERY_LETTER = "\uDBFF\uDFFF";

    /** A criterion of a filtered list (docs/api.md, "Finding donors (filters)"): the condition it adds. */
    enum Criterion {
        EMAIL(DonorColumns.FOLDED_EMAIL.eq(FILTER_EMAIL)),
        EXTERNAL_ID(DonorColumns.text(DonorField.EXTERNAL_ID).eq(FILTER_EXTERNAL_ID)),
        TYPE(DonorColumns.text(DonorField.TYPE).eq(FILTER_TYPE)),
        CREATED_SINCE(DONORS.CREATED_AT.ge(FILTER_CREATED_SINCE)),
        UPDATED_SINCE(DONORS.UPDATED_AT.ge(FILTER_UPDATED_SINCE));

        private final Condition condition;

        Criterion(Condition condition) {
            this.condition = condition;
        }

        Condition condition() {
            return condition;
        }
    }

    /** Each kind's statements, rendered at its first database's open: they depend on the kind alone. */
    private static final Map<DatabaseKind, DonorQueries> RENDERED = new ConcurrentHashMap<>();

    /**
     * The statements of this kind of database: rendered once per process (their lazily rendered pages are kept in
     * thread-safe maps), since rendering them took a tenth of an open's processor time. They hold nothing of any one
     * database: what a database's node remembers of its reads (FieldRows) is its own.
     */
    public static DonorQueries of(DatabaseKind kind) {
        return RENDERED.computeIfAbsent(kind, DonorQueries::rendered);
    }

    private static DonorQueries rendered(DatabaseKind kind) {
        DSLContext renderer = kind.renderer();
        var byExternalId = DSL.select(DonorColumns.SELECTED).from(DONORS).where(DONORS.APPLICATION_ID.eq(APPLICATION),
                DonorColumns.text(DonorField.EXTERNAL_ID).eq(EXTERNAL_ID));
        Reading rows = Reading.of(kind, renderer, DonorColumns.SELECTED);
        DonorColumns.Documents documentColumns = DonorColumns.Documents.of(kind);
        List<Field<?>> documents = documentColumns.selected();
        return new DonorQueries(kind, rows,
                Statement.render(renderer, kind.lockedForUpdate(byId(DonorColumns.SELECTED))),
                Statement.render(renderer, kind.lockedForUpdate(byId(Stream.concat(DonorColumns.SELECTED.stream(),
                        ConsentRows.historyOf(DONORS.ID).stream()).toList()))), documentColumns,
                // Where the database writes no document, documents are read as rows: the same statements, once.
                documentColumns.object().isPresent() ? Reading.of(kind, renderer, documents) : rows,
                Statement.render(renderer, insert(kind)), Statement.render(renderer, update(kind, true)),
                Statement.render(renderer, update(kind, false)),
                Statement.render(renderer, changes(kind, documents)),
                Statement.render(renderer, kind.lockedForUpdate(byExternalId)),
                IdempotencyKeyRows.Statements.of(kind), Sequencing.AtInsert.of(kind), TrailAppend.of(kind),
                DonorWords.of(kind), Statement.render(renderer, wordCountQuery(kind)),
                Statement.render(renderer, duplicateKeysQuery()), Statement.render(renderer, sharingKeysQuery(kind, documents)),
                ConsentRows.of(kind));
    }

    private static SelectConditionStep<Record> byId(List<Field<?>> selected) {
        return DSL.select(selected).from(DONORS)
                .where(DONORS.APPLICATION_ID.eq(APPLICATION), DONORS.ID.eq(ID));
    }

    /**
     * The page of the donors that match every criterion, in id order: one range of the criterion's index (V5), the
     * offset counted in it.
     */
    private static Select<?> filtered(DatabaseKind kind, List<Field<?>> selected, Set<Criterion> criteria) {
        return page(kind, selected, DONORS.APPLICATION_ID.eq(APPLICATION), criteria, List.of());
    }

    /**
     * The page of the donors that match every criterion and have, for each term, a word in the term's range. Drawn, the
     * first term's donors are one range of the words' lookup index (V9); the other terms, or every one when the page
     * walks donors in id order, are each checked in the donor's own words (the table's key).
     */
    private static Select<?> searched(DatabaseKind kind, List<Field<?>> selected, SearchShape shape) {
        List<Condition> conditions = new ArrayList<>();
        if (shape.drawn()) {
            // Past after within the term's range: on the donors' id, SQLite might read every id above it instead.
            conditions.add(DONORS.ID.in(DSL.select(DONOR_WORDS.DONOR_ID).from(DONOR_WORDS)
                    .where(DONOR_WORDS.APPLICATION_ID.eq(APPLICATION), inRange(0), DONOR_WORDS.DONOR_ID.gt(AFTER))));
        }
        for (int term = shape.drawn() ? 1 : 0; term < shape.terms(); term++) {
            conditions.add(DSL.exists(DSL.selectOne().from(DONOR_WORDS)
                    .where(DONOR_WORDS.DONOR_ID.eq(DONORS.ID), inRange(term))));
        }
        conditions.addAll(customHeld(0, shape.customs()));
        if (shape.window() > 0) {
            return windowed(kind, selected, shape, conditions);
        }
        if (!shape.drawn()) {
            conditions.add(DONORS.ID.gt(AFTER));
        }
        // Without an exact criterion, SQLite would read all the owner's donors on an (application_id, ...) index and
        // sort them for one page, where it should draw the term's donors by id, or walk donors in id order and stop
        // when the page is full (docs/performance.md, "The owner compared as an expression where SQLite would pick its
        // index").
        boolean exact = shape.criteria().contains(Criterion.EMAIL) || shape.criteria().contains(Criterion.EXTERNAL_ID);
        Condition owner = exact ? DONORS.APPLICATION_ID.eq(APPLICATION) : ownerByNoIndex();
        return page(kind, selected, owner, shape.criteria(), conditions);
    }

    /**
     * A searched page among the owner's next {@code shape.window()} donors past after, or the count of its matches
     * (docs/api.md, "Searching (q)"). Where donors are numbered as they are inserted (SQLite, MariaDB: the k-th donor of
     * an application in id order has ordinal k, V3 and V4), the window is a range of ordinals (from, to], read in order
     * on the ordinals' key, each donor then by id: a page that fills early stops early, and no donor outside the window
     * is read. Elsewhere (PostgreSQL numbers its newest donors later) the window is the first ids past after on the
     * index (application_id, id) of V4, a derived table in id order that the donors are read from in turn.
     */
    private static Select<?> windowed(DatabaseKind kind, List<Field<?>> selected, SearchShape shape,
            List<Condition> terms) {
        List<Condition> conditions = new ArrayList<>(terms);
        shape.criteria().forEach(criterion -> conditions.add(criterion.condition()));
        Table<?> from;
        Field<Long> order;
        if (kind.numbersAtInsert()) {
            conditions.add(DONOR_ORDINALS.APPLICATION_ID.eq(APPLICATION));
            conditions.add(DONOR_ORDINALS.ORDINAL.gt(WINDOW_FROM));
            conditions.add(DONOR_ORDINALS.ORDINAL.le(WINDOW_TO));
            conditions.add(DONORS.ID.eq(DONOR_ORDINALS.DONOR_ID));
            // SQLite takes the left table of a CROSS JOIN as the outer loop: the ordinals in order, not every donor.
            from = DONOR_ORDINALS.crossJoin(DONORS);
            order = DONOR_ORDINALS.ORDINAL;
        } else {
            Table<?> walked = idWindow(shape.window());
            order = walked.field(WALKED_ID, Long.class);
            conditions.add(DONORS.ID.eq(order));
            from = walked.crossJoin(DONORS);
        }
        if (shape.counted()) {
            return DSL.selectCount().from(from).where(conditions);
        }
        return DSL.select(selected).from(from).where(conditions).orderBy(order)
                .limit(kind.rowLimit(COUNT)).offset(OFFSET);
    }

    /**
     * The owner's first {@code window} donor ids past after (AFTER), in id order, as the table {@code walked}
     * ({@value #WALKED_ID}): on PostgreSQL one range of the index (application_id, id). The size is written into the
     * statement, so that the planner knows how few rows it gives.
     */
    static Table<?> idWindow(int window) {
        var walking = DONORS.as("walking");
        return DSL.select(walking.ID.as(WALKED_ID)).from(walking)
                .where(walking.APPLICATION_ID.eq(APPLICATION), walking.ID.gt(AFTER))
                .orderBy(walking.ID).limit(DSL.inline(window)).asTable("walked");
    }

    /**
     * The page of the donors that match every criterion and every custom filter (CustomDrive says how the first is
     * read); the others are each checked in the donor's own entries (the words' key).
     */
    private static Select<?> custom(DatabaseKind kind, List<Field<?>> selected, CustomShape shape) {
        if (shape.drive() == CustomDrive.CRITERION) {
            List<Condition> conditions = new ArrayList<>(customHeld(0, shape.customs()));
            // Past a donor (AFTER, 0 unless a list filtered by consent goes on past one).
            conditions.add(DONORS.ID.gt(AFTER));
            return page(kind, selected, DONORS.APPLICATION_ID.eq(APPLICATION), shape.criteria(), conditions);
        }
        if (shape.drive() == CustomDrive.WALKED) {
            // The owner's first CUSTOM_WALK donors, in id order, as a search's window (its ordinals from 0 to it).
            return windowed(kind, selected, new SearchShape(shape.criteria(), 0, false, CUSTOM_WALK, false,
                    shape.customs()), customHeld(0, shape.customs()));
        }
        if (shape.customs() == 1 && shape.criteria().isEmpty()) {
            // One entry filter and nothing else to check, an exact value (or consent pair) or a drawn range (of an
            // integer, number or date: one entry a donor): the page's donors are read off the lookup index alone, its
            // offset skipped there, however many the filter holds, and only they are joined to their rows (skipped on
            // the join, each donor before the page had its row read; docs/performance.md, "Custom values").
            Condition entries = shape.drive() == CustomDrive.EXACT ? DONOR_WORDS.WORD.eq(CUSTOM_FROM.getFirst())
                    : DONOR_WORDS.WORD.ge(CUSTOM_FROM.getFirst()).and(DONOR_WORDS.WORD.lt(CUSTOM_TO.getFirst()));
            Table<?> drawn = DSL.select(DONOR_WORDS.DONOR_ID).from(DONOR_WORDS)
                    .where(DONOR_WORDS.APPLICATION_ID.eq(APPLICATION), entries, DONOR_WORDS.DONOR_ID.gt(AFTER))
                    .orderBy(DONOR_WORDS.DONOR_ID).limit(kind.boundLimit(COUNT)).offset(OFFSET).asTable("drawn");
            Field<Long> drawnId = drawn.field(DONOR_WORDS.DONOR_ID);
            return DSL.select(selected).from(drawn.crossJoin(DONORS))
                    .where(DONORS.ID.eq(drawnId), DONORS.APPLICATION_ID.eq(APPLICATION)).orderBy(drawnId);
        }
        if (shape.drive() == CustomDrive.EXACT) {
            // Past a donor (AFTER, 0 unless a list filtered by consent goes on past one): the entries from there on.
            List<Condition> conditions = new ArrayList<>(List.of(DONOR_WORDS.APPLICATION_ID.eq(APPLICATION),
                    DONOR_WORDS.WORD.eq(CUSTOM_FROM.getFirst()), DONOR_WORDS.DONOR_ID.gt(AFTER),
                    DONORS.ID.eq(DONOR_WORDS.DONOR_ID)));
            shape.criteria().forEach(criterion -> conditions.add(criterion.condition()));
            conditions.addAll(customHeld(1, shape.customs()));
            // The entries, in donor id order on the lookup index, lead: SQLite takes a CROSS JOIN's left table outside.
            return DSL.select(selected).from(DONOR_WORDS.crossJoin(DONORS)).where(conditions)
                    .orderBy(DONOR_WORDS.DONOR_ID).limit(kind.rowLimit(COUNT)).offset(OFFSET);
        }
        Condition firstRange = DONOR_WORDS.APPLICATION_ID.eq(APPLICATION)
                .and(DONOR_WORDS.WORD.ge(CUSTOM_FROM.getFirst())).and(DONOR_WORDS.WORD.lt(CUSTOM_TO.getFirst()));
        // DRAWN: the range's donors, as the database plans it best (Dialect.drawsFromAJoinedTable).
        if (!kind.drawsFromAJoinedTable()) {
            List<Condition> conditions = new ArrayList<>(List.of(DONORS.ID.in(DSL.select(DONOR_WORDS.DONOR_ID)
                    .from(DONOR_WORDS).where(firstRange))));
            conditions.addAll(customHeld(1, shape.customs()));
            return page(kind, selected, ownerByNoIndex(), shape.criteria(), conditions);
        }
        return drawnPage(kind, selected, shape,
                DSL.selectDistinct(DONOR_WORDS.DONOR_ID).from(DONOR_WORDS).where(firstRange));
    }

    /** The page of the donors {@code drawnIds} names, in id order, each checked against the rest of the shape. */
    private static Select<?> drawnPage(DatabaseKind kind, List<Field<?>> selected, CustomShape shape,
            Select<Record1<Long>> drawnIds) {
        Table<?> drawn = drawnIds.asTable("drawn");
        Field<Long> drawnId = drawn.field(DONOR_WORDS.DONOR_ID);
        List<Condition> conditions = new ArrayList<>(List.of(DONORS.ID.eq(drawnId),
                DONORS.APPLICATION_ID.eq(APPLICATION)));
        shape.criteria().forEach(criterion -> conditions.add(criterion.condition()));
        conditions.addAll(customHeld(1, shape.customs()));
        return DSL.select(selected).from(drawn.crossJoin(DONORS)).where(conditions).orderBy(drawnId)
                .limit(kind.rowLimit(COUNT)).offset(OFFSET);
    }

    /** Custom filters {@code from} (inclusive) to {@code to}, each checked in the donor's own entries. */
    private static List<Condition> customHeld(int from, int to) {
        List<Condition> held = new ArrayList<>();
        for (int i = from; i < to; i++) {
            var entries = DONOR_WORDS.as("custom_" + i);
            held.add(DSL.exists(DSL.selectOne().from(entries).where(entries.DONOR_ID.eq(DONORS.ID),
                    entries.WORD.ge(CUSTOM_FROM.get(i)), entries.WORD.lt(CUSTOM_TO.get(i)))));
        }
        return held;
    }

    private static Select<?> page(DatabaseKind kind, List<Field<?>> selected, Condition owner,
            Set<Criterion> criteria, List<Condition> more) {
        List<Condition> conditions = new ArrayList<>();
        conditions.add(owner);
        criteria.forEach(criterion -> conditions.add(criterion.condition()));
        conditions.addAll(more);
        return DSL.select(selected).from(DONORS).where(conditions).orderBy(DONORS.ID)
                .limit(kind.rowLimit(COUNT)).offset(OFFSET);
    }

    /** Counts the words of the owner's donors in a term's range, up to a limit (SearchPlan). */
    private static Select<?> wordCountQuery(DatabaseKind kind) {
        return DSL.selectCount().from(DSL.selectOne().from(DONOR_WORDS)
                .where(DONOR_WORDS.APPLICATION_ID.eq(APPLICATION), inRange(0))
                .limit(kind.boundLimit(WORD_COUNT_LIMIT)).asTable("counted"));
    }

    /** The owner's donor by id, once for each of its duplicate keys, or with a null key when it has none. */
    private static Select<?> duplicateKeysQuery() {
        String prefix = String.valueOf(DuplicateKeys.PREFIX);
        return DSL.select(DONORS.ID, DONOR_WORDS.WORD).from(DONORS)
                .leftJoin(DONOR_WORDS).on(DONOR_WORDS.DONOR_ID.eq(DONORS.ID),
                        DONOR_WORDS.WORD.ge(DSL.inline(prefix)), DONOR_WORDS.WORD.lt(DSL.inline(prefix + AFTER_EVERY_LETTER)))
                .where(DONORS.APPLICATION_ID.eq(APPLICATION), DONORS.ID.eq(ID));
    }

    /** Runs the {@link #duplicateKeys} query, bound: the donor's keys, or empty when there is no such donor. */
    static Optional<Set<String>> readDuplicateKeys(PreparedStatement query) throws SQLException {
        try (ResultSet rows = query.executeQuery()) {
            if (!rows.next()) {
                return Optional.empty();
            }
            Set<String> keys = new HashSet<>();
            do {
                String key = rows.getString(2);
                if (key != null) {
                    keys.add(key);
                }
            } while (rows.next());
            return Optional.of(keys);
        }
    }

    /**
     * The owner's donors, but one, that have the most of some duplicate keys, then in id order, among the donors the
     * keys reach: each key at most {@code count} donors, the first in id order of the key's entries in the words'
     * lookup index (V9), so that a read costs about the same however many donors share a value (docs/api.md,
     * "Duplicates and merge"; docs/performance.md, "Each reason reaches at most 30 donors"). The keys each reached
     * donor has are then looked up by the words' key (donor, word), counted per donor, and only the donors kept are
     * read.
     */
    private static Select<?> sharingKeysQuery(DatabaseKind kind, List<Field<?>> selected) {
        Select<Record1<Long>> reached = null;
        for (int i = 0; i < DUPLICATE_KEYS.size(); i++) {
            Table<?> first = DSL.select(DONOR_WORDS.DONOR_ID).from(DONOR_WORDS)
                    .where(DONOR_WORDS.APPLICATION_ID.eq(APPLICATION), DONOR_WORDS.WORD.eq(DUPLICATE_KEYS.get(i)),
                            DONOR_WORDS.DONOR_ID.ne(ID))
                    .orderBy(DONOR_WORDS.DONOR_ID)
                    .limit(kind.boundLimit(COUNT)).asTable("reached_" + i);
            Select<Record1<Long>> each = DSL.select(first.field(DONOR_WORDS.DONOR_ID)).from(first);
            reached = reached == null ? each : reached.unionAll(each);
        }
        Field<Integer> shared = DSL.count().as("shared");
        // Which of the keys asked for a candidate has, as bits in the order of the parameters (sharingKeysBindings).
        var whichKey = DSL.when(DONOR_WORDS.WORD.eq(DUPLICATE_KEYS.getFirst()), DSL.inline(1));
        for (int i = 1; i < DUPLICATE_KEYS.size(); i++) {
            whichKey = whichKey.when(DONOR_WORDS.WORD.eq(DUPLICATE_KEYS.get(i)), DSL.inline(1 << i));
        }
        Field<Integer> keysHad = DSL.sum(whichKey.else_(DSL.inline(0))).cast(Integer.class).as("keys_had");
        // No condition on the owner here: the reached donors are the owner's, and with one the planner could read the
        // keys' entries on the lookup index, every donor sharing a value, instead of the reached donors' by their key.
        Table<?> candidates = DSL.select(DONOR_WORDS.DONOR_ID, shared, keysHad).from(DONOR_WORDS)
                .where(DONOR_WORDS.DONOR_ID.in(reached), DONOR_WORDS.WORD.in(DUPLICATE_KEYS))
                .groupBy(DONOR_WORDS.DONOR_ID)
                .orderBy(DSL.count().desc(), DONOR_WORDS.DONOR_ID)
                .limit(kind.boundLimit(COUNT)).asTable("candidates");
        List<Field<?>> read = new ArrayList<>(selected);
        read.add(candidates.field(keysHad.getName()));
        // Else SQLite 3.53 may walk every one of the owner's donors on an (application_id, ...) index, looking each up
        // among the candidates (docs/performance.md, "Two statements, candidates as SQLite's own JSON").
        return DSL.select(read)
                .from(candidates.join(DONORS).on(DONORS.ID.eq(candidates.field(DONOR_WORDS.DONOR_ID))))
                .where(ownerByNoIndex())
                .orderBy(candidates.field(shared.getName()).desc(), DONORS.ID);
    }

    /** What {@link #sharingKeys} reads: the owner's donors, but {@code id}, that have any of these keys. */
    Bindings sharingKeysBindings(ApplicationId owner, long id, List<String> keys, int count) {
        if (keys.size() > DUPLICATE_KEYS.size()) {
            throw new IllegalArgumentException("a donor has at most " + DUPLICATE_KEYS.size() + " duplicate keys");
        }
        Bindings bindings = new Bindings(kind).set(APPLICATION, owner.value()).set(ID, id).set(COUNT, count);
        for (int i = 0; i < DUPLICATE_KEYS.size(); i++) {
            // A null matches no entry.
            bindings.set(DUPLICATE_KEYS.get(i), i < keys.size() ? keys.get(i) : null);
        }
        return bindings;
    }

    /**
     * The donor's owner compared as an expression, which no index serves: for reads that reach the owner's donors by
     * id, where SQLite 3.53's planner would otherwise prefer an index that begins with the owner (docs/performance.md,
     * "The owner compared as an expression where SQLite would pick its index").
     */
    private static Condition ownerByNoIndex() {
        return DONORS.APPLICATION_ID.plus(DSL.inline(0L)).eq(APPLICATION);
    }

    private static Condition inRange(int term) {
        return DONOR_WORDS.WORD.ge(TERM_FROM.get(term)).and(DONOR_WORDS.WORD.lt(TERM_TO.get(term)));
    }

    private static List<Param<String>> termParameters(String prefix) {
        return IntStream.range(0, SearchQuery.MAX_TERMS).mapToObj(i -> DSL.param(prefix + i, String.class)).toList();
    }

    private static List<Set<Criterion>> everySubsetOf(Set<Criterion> all) {
        List<Set<Criterion>> subsets = new ArrayList<>();
        subsets.add(EnumSet.noneOf(Criterion.class));
        for (Criterion criterion : all) {
            for (Set<Criterion> without : List.copyOf(subsets)) {
                Set<Criterion> with = EnumSet.copyOf(without);
                with.add(criterion);
                subsets.add(with);
            }
        }
        return subsets;
    }

    /**
     * The owner's donors whose latest change comes after a position, in change order, on the index (application,
     * change_seq, id) of V4; only changes the database says no earlier change can still come before
     * ({@link DatabaseKind#changesFinal}).
     */
    static Select<?> changes(DatabaseKind kind, List<Field<?>> selected) {
        return DSL.select(selected).from(DONORS)
                .where(DONORS.APPLICATION_ID.eq(APPLICATION),
                        DSL.row(DONORS.CHANGE_SEQ, DONORS.ID).gt(CHANGE,
                                ID),
                        kind.changesFinal(DONORS.CHANGE_SEQ))
                .orderBy(DONORS.CHANGE_SEQ, DONORS.ID)
                .limit(kind.rowLimit(COUNT));
    }

    /**
     * The insert reads its change number from a derived table before it draws the donor's id (the derived table is
     * evaluated first, whatever the planner does, since its OFFSET keeps it from being merged): on PostgreSQL, reading
     * the transaction id gives the transaction one before its id is drawn, which OrdinalNumbering relies on.
     */
    private static Query insert(DatabaseKind kind) {
        Table<?> change = DSL.select(kind.changeNumber().as(DONORS.CHANGE_SEQ.getName())).offset(DSL.inline(0))
                .asTable("change");
        Map<Field<?>, Field<?>> values = new LinkedHashMap<>();
        values.put(DONORS.APPLICATION_ID, APPLICATION);
        DonorField.storedFields().forEach(field -> values.put(DonorColumns.column(field), DonorColumns.parameter(field)));
        values.put(DONORS.CREATED_AT, CREATED);
        values.put(DONORS.UPDATED_AT, UPDATED);
        values.put(DONORS.VERSION, VERSION);
        values.put(DonorColumns.FOLDED_EMAIL, DonorColumns.FOLDED_EMAIL_PARAMETER);
        values.put(DONORS.CHANGE_SEQ, change.field(DONORS.CHANGE_SEQ.getName()));
        kind.nextTrailRecord().ifPresent(next -> values.put(DONORS.LAST_RECORD_ID, next));
        return DSL.insertInto(DONORS).columns(values.keySet())
                .select(DSL.select(values.values()).from(change));
    }

    private static Query update(DatabaseKind kind, boolean indexed) {
        Map<Field<?>, Field<?>> values = new LinkedHashMap<>();
        DonorField.storedFields().stream().filter(field -> indexed || !DonorColumns.INDEXED.contains(field))
                .forEach(field -> values.put(DonorColumns.column(field), DonorColumns.parameter(field)));
        values.put(DONORS.UPDATED_AT, UPDATED);
        values.put(DONORS.VERSION, VERSION);
        if (indexed) {
            values.put(DonorColumns.FOLDED_EMAIL, DonorColumns.FOLDED_EMAIL_PARAMETER);
        }
        values.put(DONORS.ERASED_AT, ERASED);
        values.put(DONORS.MERGED_INTO, MERGED);
        values.put(DONORS.CHANGE_SEQ, kind.changeNumber());
        values.put(DONORS.LAST_RECORD_ID, kind.lastTrailRecord());
        return DSL.update(DONORS).set(values)
                .where(DONORS.APPLICATION_ID.eq(APPLICATION), DONORS.ID.eq(ID));
    }

    /**
     * The donors at ordinals offset + 1 to offset + count: one seek however deep the page, since the k-th donor of an
     * application in id order has ordinal k (V3 and V4 migrations).
     */
    private static Select<Record> numbered(DatabaseKind kind, List<Field<?>> selected) {
        return DSL.select(selected)
                .from(DONOR_ORDINALS.join(DONORS).on(DONORS.ID.eq(DONOR_ORDINALS.DONOR_ID)))
                .where(DONOR_ORDINALS.APPLICATION_ID.eq(APPLICATION), DONOR_ORDINALS.ORDINAL.gt(OFFSET))
                .orderBy(DONOR_ORDINALS.ORDINAL)
                .limit(kind.rowLimit(COUNT));
    }

    /**
     * Where donors are numbered shortly after their insert (PostgreSQL, see OrdinalNumbering): the numbered donors
     * from the offset on, then the few newer ones, not numbered yet, in id order from where the numbered ones end.
     * Every numbered donor has a smaller id than every one not numbered yet, so together, in one statement and so one
     * snapshot, they are exactly the page an id-ordered offset would give.
     */
    private static Select<?> numberedThenNewer(DatabaseKind kind, List<Field<?>> selected) {
        Field<Long> numbered = DSL.field(DSL.select(DSL.coalesce(DSL.max(DONOR_ORDINALS.ORDINAL), DSL.inline(0L)))
                .from(DONOR_ORDINALS).where(DONOR_ORDINALS.APPLICATION_ID.eq(APPLICATION)));
        var newer = DSL.select(selected).from(DONORS)
                .where(DONORS.APPLICATION_ID.eq(APPLICATION),
                        DONORS.ID.gt(DSL.field(DSL.select(SEQUENCING.NUMBERED_THROUGH).from(SEQUENCING))))
                .orderBy(DONORS.ID)
                .limit(COUNT)
                .offset(DSL.greatest(DSL.inline(0L), OFFSET.minus(numbered)));
        var both = numbered(kind, selected).unionAll(newer).asTable("page");
        return DSL.select(both.fields()).from(both).orderBy(both.field(DONORS.ID)).limit(COUNT);
    }

    /**
     * Runs a query of {@link DonorColumns#SELECTED} whose parameters are bound, reading up to {@code count} rows: the
     * query's LIMIT may be larger (DatabaseKind.rowLimit).
     */
    List<Donor> donors(PreparedStatement query, int count) throws SQLException {
        List<Donor> donors = new ArrayList<>();
        try (ResultSet rows = query.executeQuery()) {
            while (donors.size() < count && rows.next()) {
                donors.add(DonorColumns.read(rows, kind));
            }
        }
        return donors;
    }

    /** Runs a query of one number (a count) whose parameters are bound. */
    static int number(PreparedStatement query) throws SQLException {
        try (ResultSet row = query.executeQuery()) {
            row.next();
            return row.getInt(1);
        }
    }

    /**
     * Runs the {@link #sharingKeys} query, bound with these keys in this order, reading up to count donors, each with
     * the keys it has.
     */
    List<DonorRepository.SharingKeys> keySharers(PreparedStatement query, List<String> keys, int count)
            throws SQLException {
        int keysHadColumn = documentColumns.selected().size() + 1;
        List<DonorRepository.SharingKeys> sharing = new ArrayList<>();
        try (ResultSet rows = query.executeQuery()) {
            while (sharing.size() < count && rows.next()) {
                int keysHad = rows.getInt(keysHadColumn);
                Set<String> had = new HashSet<>();
                for (int i = 0; i < keys.size(); i++) {
                    if ((keysHad & 1 << i) != 0) {
                        had.add(keys.get(i));
                    }
                }
                sharing.add(new DonorRepository.SharingKeys(documentColumns.read(rows), had));
            }
        }
        return sharing;
    }

    /** Runs a query of documents whose parameters are bound, reading up to count rows. */
    List<DonorDocument> documents(PreparedStatement query, int count) throws SQLException {
        List<DonorDocument> documents = new ArrayList<>();
        try (ResultSet rows = query.executeQuery()) {
            while (documents.size() < count && rows.next()) {
                documents.add(documentColumns.read(rows));
            }
        }
        return documents;
    }

    /** Runs the {@link #changes} query, bound, reading up to count donors and their changes' positions. */
    List<Changed> changed(PreparedStatement query, int count) throws SQLException {
        List<Changed> changed = new ArrayList<>();
        try (ResultSet rows = query.executeQuery()) {
            while (changed.size() < count && rows.next()) {
                DonorDocument document = documentColumns.read(rows);
                changed.add(new Changed(document,
                        new ChangePosition(documentColumns.change(rows), document.id())));
            }
        }
        return changed;
    }

    /**
     * A filtered page's bindings: its criteria's values, its search terms in the plan's order (none without q), the
     * owner, the offset and the count; a searched page's after is 0 (from the first donor) unless set again.
     */
    Bindings pageBindings(ApplicationId owner, DonorFilter filter, List<String> terms, long offset, int count) {
        return pageBindings(owner, filter, filter.entryFilters(), terms, offset, count);
    }

    /** {@link #pageBindings}, the custom filters in the order the statement reads them (CustomDrive: its first). */
    Bindings pageBindings(ApplicationId owner, DonorFilter filter, List<CustomFilter> customs, List<String> terms,
            long offset, int count) {
        Bindings bindings = new Bindings(kind).set(APPLICATION, owner.value()).set(OFFSET, offset).set(COUNT, count)
                .set(AFTER, 0L);
        filter.foldedEmail().ifPresent(email -> bindings.set(FILTER_EMAIL, email));
        filter.externalId().ifPresent(id -> bindings.set(FILTER_EXTERNAL_ID, id));
        filter.type().ifPresent(type -> bindings.set(FILTER_TYPE, type.key()));
        filter.createdSince().ifPresent(since -> bindings.set(FILTER_CREATED_SINCE, since));
        filter.updatedSince().ifPresent(since -> bindings.set(FILTER_UPDATED_SINCE, since));
        for (int term = 0; term < terms.size(); term++) {
            bindTerm(bindings, term, terms.get(term));
        }
        for (int i = 0; i < customs.size(); i++) {
            bindings.set(CUSTOM_FROM.get(i), customs.get(i).from()).set(CUSTOM_TO.get(i), customs.get(i).to());
        }
        return bindings;
    }

    /** The bindings of {@link #wordCount} for a custom filter's range: its entries, up to a limit. */
    Bindings wordCountBindings(ApplicationId owner, CustomFilter custom, int limit) {
        return new Bindings(kind).set(APPLICATION, owner.value()).set(WORD_COUNT_LIMIT, limit)
                .set(TERM_FROM.getFirst(), custom.from()).set(TERM_TO.getFirst(), custom.to());
    }

    /** The bindings of {@link #wordCount}: a term and the most words to count. */
    Bindings wordCountBindings(ApplicationId owner, String term, int limit) {
        return bindTerm(new Bindings(kind).set(APPLICATION, owner.value()).set(WORD_COUNT_LIMIT, limit), 0, term);
    }

    private static Bindings bindTerm(Bindings bindings, int term, String prefix) {
        return bindings.set(TERM_FROM.get(term), prefix).set(TERM_TO.get(term), prefix + AFTER_EVERY_LETTER);
    }

    /** The criteria a filter uses. */
    static Set<Criterion> criteriaOf(DonorFilter filter) {
        Set<Criterion> criteria = EnumSet.noneOf(Criterion.class);
        filter.email().ifPresent(unused -> criteria.add(Criterion.EMAIL));
        filter.externalId().ifPresent(unused -> criteria.add(Criterion.EXTERNAL_ID));
        filter.type().ifPresent(unused -> criteria.add(Criterion.TYPE));
        filter.createdSince().ifPresent(unused -> criteria.add(Criterion.CREATED_SINCE));
        filter.updatedSince().ifPresent(unused -> criteria.add(Criterion.UPDATED_SINCE));
        return criteria;
    }
}
