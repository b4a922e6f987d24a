package org.donordata.adapters.sql.donors;

import static org.donordata.adapters.sql.schema.Tables.DONORS;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import org.donordata.adapters.sql.kit.Bindings;
import org.donordata.adapters.sql.kit.DatabaseKind;
import org.donordata.application.DonorDocument;
import org.donordata.domain.Donor;
import org.donordata.domain.ConsentState;
import org.donordata.domain.CustomValues;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorField;
import org.donordata.domain.DonorType;
import org.donordata.domain.EmailAddress;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.impl.DSL;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;

/**
 * The mapping between donors and rows of the {@code donors} table, driven by {@link DonorField}: every field is the
 * column of the same name, so no column is named here. Rows are read from JDBC result sets of {@link #SELECTED}, by the
 * column's place in that list; jOOQ's general mapping cost more than a point read itself (docs/performance.md, "Reads
 * skip the general paths").
 */
public final class DonorColumns {

    private static final DonorField[] FIELDS = DonorField.values();

    // Made once: each write binds every field, and making a parameter (its column looked up by name) cost the one
    // writer thread more than binding it (docs/performance.md, "The one writer does no needless work").
    private static final Map<DonorField, Param<?>> PARAMETERS = parameters();

    /** What a donor read selects: every field's column in field order, the version, then the change's number. */
    static final List<Field<?>> SELECTED = Stream.concat(Stream.of(FIELDS).map(DonorColumns::column),
            Stream.of(DONORS.VERSION, DONORS.CHANGE_SEQ)).toList();

    private static final int ID_COLUMN = place(SELECTED, DONORS.ID);
    private static final int VERSION_COLUMN = place(SELECTED, DONORS.VERSION);
    private static final JsonFactory JSON = new JsonFactory();
    /** Each field's key, encoded once. */
    private static final SerializedString[] KEYS = Stream.of(FIELDS).map(field -> new SerializedString(field.key()))
            .toArray(SerializedString[]::new);
    private static final int CHANGE_COLUMN = place(SELECTED, DONORS.CHANGE_SEQ);

    private DonorColumns() {
    }

    /** The JDBC column number of a field in a row of this select list. */
    private static int place(List<Field<?>> selected, Field<?> field) {
        return selected.indexOf(field) + 1;
    }

    /** The column that holds the field. */
    static Field<?> column(DonorField field) {
        Field<?> column = DONORS.field(field.key());
        if (column == null) {
            throw new IllegalStateException("the donors table has no column " + field.key()
                    + "; a new donor field needs a migration");
        }
        return column;
    }

    /** The columns a write of these details sets, with their values as stored. */
    public static Map<Field<?>, Object> values(DonorDetails details) {
        Map<Field<?>, Object> values = new LinkedHashMap<>();
        for (DonorField field : DonorField.storedFields()) {
            values.put(column(field), stored(details.get(field)));
        }
        return values;
    }

    /** The named parameter that stands for a stored field's value in {@link DonorQueries}' writes. */
    static Param<?> parameter(DonorField field) {
        Param<?> parameter = PARAMETERS.get(field);
        if (parameter == null) {
            throw new IllegalArgumentException(field.key() + " is not written by the service");
        }
        return parameter;
    }

    private static Map<DonorField, Param<?>> parameters() {
        Map<DonorField, Param<?>> parameters = new EnumMap<>(DonorField.class);
        for (DonorField field : DonorField.storedFields()) {
            parameters.put(field, DSL.param("p_" + field.key(), column(field).getType()));
        }
        return Collections.unmodifiableMap(parameters);
    }

    /**
     * The writable fields whose columns an index of the donors table holds (the email as {@link #FOLDED_EMAIL}): an
     * update that changes none of them leaves their columns out (DonorQueries), since SQLite rewrites an entry in every
     * index of a column an UPDATE sets, changed or not, one more page written per index (docs/performance.md, "A modify
     * leaves unchanged indexed columns out"). {@code DonorColumnsTest} checks this against the migrations' indexes.
     */
    static final Set<DonorField> INDEXED = Collections.unmodifiableSet(EnumSet.of(DonorField.TYPE,
            DonorField.EXTERNAL_ID, DonorField.EMAIL));

    /**
     * The column that holds the email address in the form an email filter matches ({@link EmailAddress#fold}), and
     * its parameter in {@link DonorQueries}' writes.
     */
    static final Field<String> FOLDED_EMAIL = DONORS.EMAIL_FOLDED;
    static final Param<String> FOLDED_EMAIL_PARAMETER = DSL.param("p_email_folded", String.class);

    /** Sets every writable field's {@link #parameter} and the folded email's to the details' values. */
    static Bindings set(Bindings bindings, DonorDetails details) {
        for (DonorField field : DonorField.storedFields()) {
            // The field's kind gives the value the column's type (the migrations' columns, the jOOQ classes).
            bindings.setUnchecked(parameter(field), stored(details.get(field)));
        }
        String email = details.text(DonorField.EMAIL);
        return bindings.set(FOLDED_EMAIL_PARAMETER, email == null ? null : EmailAddress.fold(email));
    }

    /**
     * Details from stored columns (text, the type by its key, custom values and consent as their columns' text, a flag
     * as a Boolean), every other field at its default: what a donor's entries in donor_words are made from where only
     * its columns are at hand (a migration, a copy).
     */
    static DonorDetails details(Map<DonorField, ?> stored) {
        Map<DonorField, Object> values = new EnumMap<>(DonorField.class);
        stored.forEach((field, value) -> values.put(field, switch (field.kind()) {
            case TYPE -> DonorType.fromKey((String) value).orElseThrow();
            case CUSTOM -> CustomColumn.read((String) value);
            case CONSENT -> ConsentColumn.read((String) value);
            case FLAG -> Boolean.TRUE.equals(value);
            default -> value;
        }));
        return DonorDetails.DEFAULTS.with(values);
    }

    /** The column of a text field (or the type, stored as its key, or the custom values, as CustomColumn's text). */
    @SuppressWarnings("unchecked")
    static Field<String> text(DonorField field) {
        if (field.kind() != DonorField.Kind.TYPE && field.kind() != DonorField.Kind.CUSTOM
                && field.kind() != DonorField.Kind.CONSENT && !field.kind().valueType().equals(String.class)) {
            throw new IllegalArgumentException(field.key() + " is not stored as text");
        }
        return (Field<String>) column(field);
    }

    private static Object stored(Object value) {
        return switch (value) {
            case DonorType type -> type.key();
            case CustomValues custom -> CustomColumn.text(custom);
            case ConsentState consent -> ConsentColumn.text(consent);
            case null, default -> value;
        };
    }

    /**
     * How a database's reads of documents select and read them: the donor's JSON object as the database gives it
     * (DatabaseKind.document), then its id, version and the change's number; or, where the database gives none, the
     * columns of {@link #SELECTED}, from which {@link #json} writes it.
     */
    record Documents(DatabaseKind kind, Optional<Field<String>> object) {

        /** What a read of the database's objects selects beside each: id and version (the ETag), the change's number. */
        private static final List<Field<?>> BESIDE_OBJECT = List.of(DONORS.ID, DONORS.VERSION, DONORS.CHANGE_SEQ);
        private static final Field<?> OBJECT = DSL.field(DSL.name("document"));
        private static final List<Field<?>> OBJECT_ROW = Stream.concat(Stream.of(OBJECT), BESIDE_OBJECT.stream()).toList();
        private static final int OBJECT_COLUMN = place(OBJECT_ROW, OBJECT);
        private static final int OBJECT_ID_COLUMN = place(OBJECT_ROW, DONORS.ID);
        private static final int OBJECT_VERSION_COLUMN = place(OBJECT_ROW, DONORS.VERSION);
        private static final int OBJECT_CHANGE_COLUMN = place(OBJECT_ROW, DONORS.CHANGE_SEQ);

        static Documents of(DatabaseKind kind) {
            return new Documents(kind, kind.document());
        }

        List<Field<?>> selected() {
            return object.<List<Field<?>>>map(json -> Stream.concat(Stream.of(json.as(OBJECT.getUnqualifiedName())),
                    BESIDE_OBJECT.stream()).toList()).orElse(SELECTED);
        }

        /** The document in the current row of a result set of {@link #selected}. */
        DonorDocument read(ResultSet row) throws SQLException {
            return object.isPresent()
                    ? new DonorDocument.Json(row.getLong(OBJECT_ID_COLUMN), row.getLong(OBJECT_VERSION_COLUMN),
                            row.getBytes(OBJECT_COLUMN))
                    : new DonorDocument.Json(row.getLong(ID_COLUMN), row.getLong(VERSION_COLUMN), json(row, kind));
        }

        /** The number of the latest change to the donor in the current row of a result set of {@link #selected}. */
        long change(ResultSet row) throws SQLException {
            return object.isPresent() ? row.getLong(OBJECT_CHANGE_COLUMN) : DonorColumns.change(row);
        }
    }

    /**
     * The donor's JSON object (DonorDocument.Json) from the current row of a result set of {@link #SELECTED}, written
     * from the columns as they are, no Donor made: the custom values and consent as their columns hold them (the API's
     * objects byte for byte, as a database that writes the object splices them too), an instant as Instant.toString
     * writes it. Reading each donor
     * into a Donor (its custom values and consent parsed) and writing it again was most of the service's processor time
     * in a page where the database writes no object (docs/performance.md, "The straight data path").
     */
    static byte[] json(ResultSet row, DatabaseKind kind) throws SQLException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(1024);
        try (JsonGenerator json = JSON.createGenerator(bytes)) {
            json.writeStartObject();
            for (int i = 0; i < FIELDS.length; i++) {
                int column = i + 1;
                json.writeFieldName(KEYS[i]);
                switch (FIELDS[i].kind()) {
                    case ID -> json.writeNumber(row.getLong(column));
                    case TYPE, TEXT, EMAIL, COUNTRY -> json.writeString(kind.text(row, column));
                    case FLAG -> json.writeBoolean(row.getBoolean(column));
                    case TIMESTAMP -> {
                        Instant instant = kind.instant(row, column);
                        json.writeString(instant == null ? null : instant.toString());
                    }
                    case REFERENCE -> {
                        long id = row.getLong(column);
                        if (row.wasNull()) {
                            json.writeNull();
                        } else {
                            json.writeNumber(id);
                        }
                    }
                    case CUSTOM, CONSENT -> {
                        String object = kind.text(row, column);
                        json.writeRawValue(object == null ? "{}" : object);
                    }
                }
            }
            json.writeEndObject();
        } catch (IOException intoMemory) {
            throw new UncheckedIOException("writing into memory failed", intoMemory);
        }
        return bytes.toByteArray();
    }

    /** The donor in the current row of a result set of {@link #SELECTED}. */
    static Donor read(ResultSet row, DatabaseKind kind) throws SQLException {
        Map<DonorField, Object> record = new EnumMap<>(DonorField.class);
        for (int i = 0; i < FIELDS.length; i++) {
            record.put(FIELDS[i], value(FIELDS[i], row, i + 1, kind));
        }
        return Donor.of(record, row.getLong(VERSION_COLUMN));
    }

    /** The number of the latest change to the donor in the current row (the V4 migration). */
    static long change(ResultSet row) throws SQLException {
        return row.getLong(CHANGE_COLUMN);
    }

    private static Object value(DonorField field, ResultSet row, int column, DatabaseKind kind) throws SQLException {
        return switch (field.kind()) {
            case ID -> row.getLong(column);
            case TYPE -> DonorType.fromKey(kind.text(row, column)).orElseThrow(
                    () -> new IllegalStateException("a stored donor has an unknown type"));
            case TEXT, EMAIL, COUNTRY -> kind.text(row, column);
            case CUSTOM -> CustomColumn.read(kind.text(row, column));
            case CONSENT -> ConsentColumn.read(kind.text(row, column));
            case FLAG -> row.getBoolean(column);
            case TIMESTAMP -> kind.instant(row, column);
            case REFERENCE -> {
                long id = row.getLong(column);
                yield row.wasNull() ? null : id;
            }
        };
    }
}
