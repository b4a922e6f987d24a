package org.donordata.adapters.sql.donors;

import static org.donordata.adapters.sql.schema.Tables.DONORS;
import static org.donordata.adapters.sql.schema.Tables.DONOR_WORDS;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.donordata.adapters.sql.kit.ArrayParameters;
import org.donordata.adapters.sql.kit.Bindings;
import org.donordata.adapters.sql.kit.DatabaseKind;
import org.donordata.adapters.sql.kit.Pipeline;
import org.donordata.adapters.sql.kit.Statement;
import org.donordata.application.ApplicationId;
import org.donordata.domain.CustomValueIndex;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorField;
import org.donordata.domain.DuplicateKeys;
import org.donordata.domain.SearchWords;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.InsertValuesStep3;
import org.jooq.Param;
import org.jooq.Record;
import org.jooq.Row3;
import org.jooq.impl.DSL;

/**
 * A donor's entries in {@code donor_words} (V9): its search words and its duplicate keys (V10), kept in the transaction
 * that changes the donor: only the entries that came or went are written, by statements added to the write's
 * {@link Pipeline}. Several go in one statement (the one writer of SQLite pays per statement), up to
 * {@value #WORDS_PER_STATEMENT}, so that a connection keeps at most that many statements of each kind prepared; where
 * the database takes an array parameter, all in one (of).
 */
public record DonorWords(DatabaseKind kind, List<Statement> inserts, List<Statement> deletes) {

    static final int WORDS_PER_STATEMENT = 16;
    private static final int ROWS_PER_COPIED_BATCH = 5_000;

    private static final Param<Long> DONOR = DSL.param("p_words_donor", Long.class);
    private static final Param<Long> APPLICATION = DSL.param("p_words_application", Long.class);
    private static final List<Param<String>> WORDS = IntStream.range(0, WORDS_PER_STATEMENT)
            .mapToObj(i -> DSL.param("p_word_" + i, String.class)).toList();
    private static final Param<String[]> WORD_ARRAY = DSL.param("p_word_array", String[].class);

    /**
     * The statements for 1 to {@link #WORDS_PER_STATEMENT} words, at index count - 1; where the database takes an
     * array parameter (Dialect.arrays: PostgreSQL, whose writes go in one round trip, Pipeline), one of each for any
     * count, so that the joined statements a connection keeps are a handful.
     */
    static DonorWords of(DatabaseKind kind) {
        DSLContext renderer = kind.renderer();
        if (kind.arrays().isPresent()) {
            ArrayParameters arrays = kind.arrays().get();
            Field<String> word = DSL.field(DSL.name("entry", "word"), String.class);
            return new DonorWords(kind, List.of(Statement.render(renderer, DSL.insertInto(DONOR_WORDS,
                    DONOR_WORDS.DONOR_ID, DONOR_WORDS.WORD, DONOR_WORDS.APPLICATION_ID)
                    .select(DSL.select(DONOR, word, APPLICATION).from(arrays.rows(WORD_ARRAY, "entry", "word"))))),
                    List.of(Statement.render(renderer, DSL.deleteFrom(DONOR_WORDS).where(
                            DONOR_WORDS.DONOR_ID.eq(DONOR), arrays.equalsAny(DONOR_WORDS.WORD, WORD_ARRAY)))));
        }
        List<Statement> inserts = new ArrayList<>();
        List<Statement> deletes = new ArrayList<>();
        for (int count = 1; count <= WORDS_PER_STATEMENT; count++) {
            InsertValuesStep3<Record, Long, String, Long> insert = DSL.insertInto(DONOR_WORDS, DONOR_WORDS.DONOR_ID,
                    DONOR_WORDS.WORD, DONOR_WORDS.APPLICATION_ID);
            List<Field<String>> words = new ArrayList<>(WORDS.subList(0, count));
            for (Field<String> word : words) {
                insert = insert.values(DONOR, word, APPLICATION);
            }
            inserts.add(Statement.render(renderer, insert));
            deletes.add(Statement.render(renderer, DSL.deleteFrom(DONOR_WORDS)
                    .where(DONOR_WORDS.DONOR_ID.eq(DONOR), DONOR_WORDS.WORD.in(words))));
        }
        return new DonorWords(kind, List.copyOf(inserts), List.copyOf(deletes));
    }

    /** The fields of the search words and duplicate keys: the dearer entries, folded and digested. */
    private static final Set<DonorField> WORD_AND_KEY_FIELDS = Stream.concat(SearchWords.FIELDS.stream(),
            DuplicateKeys.FIELDS.stream()).collect(Collectors.toUnmodifiableSet());

    /** The consent and the flags it heeds: the fields of a donor's consent entries. */
    private static final Set<DonorField> CONSENT_FIELDS = Set.of(DonorField.CONSENT, DonorField.EMAIL_OPT_OUT,
            DonorField.DO_NOT_CONTACT);

    /** The fields a donor's entries are made of: those, the custom values, and the consent with the flags it heeds. */
    private static final Set<DonorField> FIELDS = Stream.of(WORD_AND_KEY_FIELDS, CONSENT_FIELDS,
            Set.of(DonorField.CUSTOM)).flatMap(Set::stream).collect(Collectors.toUnmodifiableSet());

    /** A donor's entries: its search words, its duplicate keys, then its custom values' and its consent's. */
    static Set<String> entries(DonorDetails details) {
        Set<String> entries = new LinkedHashSet<>(SearchWords.of(details));
        entries.addAll(DuplicateKeys.of(details));
        entries.addAll(valueEntries(details));
        return entries;
    }

    /**
     * The entries of its custom values (CustomValueIndex) and of the consent pairs it may be contacted for
     * (ConsentState.entries).
     */
    private static Set<String> valueEntries(DonorDetails details) {
        Set<String> consent = consentEntries(details);
        if (consent.isEmpty()) {
            return CustomValueIndex.of(details.custom());
        }
        Set<String> entries = new LinkedHashSet<>(CustomValueIndex.of(details.custom()));
        entries.addAll(consent);
        return entries;
    }

    private static Set<String> consentEntries(DonorDetails details) {
        return details.consent().entries(details.flag(DonorField.EMAIL_OPT_OUT),
                details.flag(DonorField.DO_NOT_CONTACT));
    }

    /**
     * Stores a changed donor's entries: only those that came or went, nothing when none of their fields changed, and
     * when only custom values or consent changed only theirs, of the changed values alone (the words' folding and the
     * keys' digests are the dearer part, and a digest is made of each text value).
     */
    void replace(Pipeline write, ApplicationId owner, long donorId, DonorDetails before, DonorDetails after) {
        if (!before.differsIn(FIELDS, after)) {
            return;
        }
        if (before.differsIn(WORD_AND_KEY_FIELDS, after)) {
            replace(write, owner, donorId, entries(before), entries(after));
            return;
        }
        Set<String> was = CustomValueIndex.ofChanged(before.custom(), after.custom());
        Set<String> is = CustomValueIndex.ofChanged(after.custom(), before.custom());
        if (before.differsIn(CONSENT_FIELDS, after)) {
            was.addAll(consentEntries(before));
            is.addAll(consentEntries(after));
        }
        replace(write, owner, donorId, was, is);
    }

    private void replace(Pipeline write, ApplicationId owner, long donorId, Set<String> before, Set<String> after) {
        List<String> gone = before.stream().filter(word -> !after.contains(word)).toList();
        List<String> come = after.stream().filter(word -> !before.contains(word)).toList();
        add(write, deletes, owner, donorId, gone);
        add(write, inserts, owner, donorId, come);
    }

    /** Stores a new donor's entries. */
    void add(Pipeline write, ApplicationId owner, long donorId, DonorDetails details) {
        add(write, inserts, owner, donorId, List.copyOf(entries(details)));
    }

    /**
     * Stores the entries of donors written as rows, not by the service's writes (DatabaseCopy's batches): read from the
     * rows' own columns, so the entries are exactly those the service would have stored.
     */
    public static void addForRows(DSLContext tx, List<? extends Record> donors) {
        List<Row3<Long, String, Long>> rows = new ArrayList<>();
        for (Record donor : donors) {
            Map<DonorField, Object> stored = new EnumMap<>(DonorField.class);
            FIELDS.forEach(field -> stored.put(field, donor.get(DonorColumns.column(field))));
            for (String entry : entries(DonorColumns.details(stored))) {
                rows.add(DSL.row(donor.get(DONORS.ID), entry, donor.get(DONORS.APPLICATION_ID)));
            }
        }
        // SQLite takes at most 32,766 values a statement.
        for (int from = 0; from < rows.size(); from += ROWS_PER_COPIED_BATCH) {
            tx.insertInto(DONOR_WORDS, DONOR_WORDS.DONOR_ID, DONOR_WORDS.WORD, DONOR_WORDS.APPLICATION_ID)
                    .valuesOfRows(rows.subList(from, Math.min(rows.size(), from + ROWS_PER_COPIED_BATCH)))
                    .execute();
        }
    }

    private void add(Pipeline write, List<Statement> statements, ApplicationId owner, long donorId,
            List<String> words) {
        if (words.isEmpty()) {
            return;
        }
        if (statements.size() == 1) {
            write.add(statements.get(0), new Bindings(kind).set(DONOR, donorId).set(APPLICATION, owner.value())
                    .set(WORD_ARRAY, words.toArray(String[]::new)));
            return;
        }
        for (int from = 0; from < words.size(); from += WORDS_PER_STATEMENT) {
            List<String> chunk = words.subList(from, Math.min(words.size(), from + WORDS_PER_STATEMENT));
            Bindings bindings = new Bindings(kind).set(DONOR, donorId).set(APPLICATION, owner.value());
            for (int i = 0; i < chunk.size(); i++) {
                bindings.set(WORDS.get(i), chunk.get(i));
            }
            write.add(statements.get(chunk.size() - 1), bindings);
        }
    }
}
