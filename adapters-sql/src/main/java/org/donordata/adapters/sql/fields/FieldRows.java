package org.donordata.adapters.sql.fields;

import static org.donordata.adapters.sql.kit.StoredInstantBinding.micros;
import static org.donordata.adapters.sql.schema.Tables.CUSTOM_FIELDS;

import java.io.StringReader;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.donordata.adapters.sql.kit.Bindings;
import org.donordata.adapters.sql.kit.DatabaseKind;
import org.donordata.adapters.sql.kit.Reads;
import org.donordata.adapters.sql.kit.Statement;
import org.donordata.adapters.sql.trail.TrailAppend;
import org.donordata.application.Actor;
import org.donordata.application.ApplicationId;
import org.donordata.application.AuditAction;
import org.donordata.domain.CustomField;
import org.donordata.domain.CustomFieldType;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.Record;
import org.jooq.SelectForUpdateStep;
import org.jooq.impl.DSL;

import jakarta.json.Json;
import jakarta.json.JsonBuilderFactory;
import jakarta.json.JsonReader;
import jakarta.json.JsonReaderFactory;
import jakarta.json.JsonString;

/**
 * Rows of {@code custom_fields} (V18) as fields, and what a donor write does with them: read the owner's fields, held
 * against their change until the write ends (statements rendered once: every create reads them), and remove one.
 * Choices are kept as a JSON array in the field's order.
 *
 * <p>A write reads only each field's id and {@code updated_at} and takes the fields themselves from the node's last
 * full read when those are the same: an id is never used again (V18 keys the table so on every database) and every
 * change of a field that commits moves its {@code updated_at} on (CustomFieldService, SqlCustomFieldRepository.update),
 * so equal stamps are equal fields; a read that may have seen a change rolled back is forgotten ({@link #forgetAll}).
 * Reading and decoding ten columns of each field at every write of custom values cost the one writer nearly as much as
 * the values' own entries (docs/performance.md, "The fields a write checks its values against").
 */
public final class FieldRows {

    // Made once: Json's own methods look the provider up at every call, and every write reads the fields.
    private static final JsonReaderFactory READERS = Json.createReaderFactory(Map.of());
    private static final JsonBuilderFactory BUILDERS = Json.createBuilderFactory(Map.of());
    private static final Param<Long> APPLICATION = DSL.param("p_fields_application", Long.class);
    private static final List<Field<?>> COLUMNS = List.of(CUSTOM_FIELDS.ID, CUSTOM_FIELDS.FIELD_KEY,
            CUSTOM_FIELDS.LABEL, CUSTOM_FIELDS.FIELD_TYPE, CUSTOM_FIELDS.CHOICES, CUSTOM_FIELDS.REQUIRED,
            CUSTOM_FIELDS.DESCRIPTION, CUSTOM_FIELDS.ARCHIVED, CUSTOM_FIELDS.CREATED_AT, CUSTOM_FIELDS.UPDATED_AT);

    private final DatabaseKind kind;
    private final Statement heldStamps;
    private final Statement held;
    private final Statement committedStamps;
    private final Statement committed;
    /** Each owner's fields as last read in full, in id order: at most one entry per application. */
    private final Map<Long, List<CustomField>> lastRead = new ConcurrentHashMap<>();

    /** What a write compares with the last full read: a field's id and updated_at. */
    private record Stamp(long id, Instant updatedAt) {

        static List<Stamp> of(List<CustomField> fields) {
            return fields.stream().map(field -> new Stamp(field.id(), field.updatedAt())).toList();
        }
    }

    private FieldRows(DatabaseKind kind, Statement heldStamps, Statement held, Statement committedStamps,
            Statement committed) {
        this.kind = kind;
        this.heldStamps = heldStamps;
        this.held = held;
        this.committedStamps = committedStamps;
        this.committed = committed;
    }

    /**
     * One database's: what it remembers of its reads is that database's alone (a process may open several databases of
     * a kind, whose fields may share ids and updated_at), so made per open, not with the statements shared per kind.
     */
    public static FieldRows of(DatabaseKind kind) {
        List<Field<?>> stamps = List.of(CUSTOM_FIELDS.ID, CUSTOM_FIELDS.UPDATED_AT);
        return new FieldRows(kind, Statement.render(kind.renderer(), kind.lockedForShare(ownerFields(stamps))),
                Statement.render(kind.renderer(), kind.lockedForShare(ownerFields(COLUMNS))),
                Statement.render(kind.renderer(), ownerFields(stamps)),
                Statement.render(kind.renderer(), ownerFields(COLUMNS)));
    }

    private static SelectForUpdateStep<Record> ownerFields(List<Field<?>> columns) {
        return DSL.select(columns).from(CUSTOM_FIELDS).where(CUSTOM_FIELDS.APPLICATION_ID.eq(APPLICATION))
                .orderBy(CUSTOM_FIELDS.ID);
    }

    /** The owner's fields in id order, held against a change until the transaction ends (DonorTransaction). */
    public List<CustomField> held(DSLContext tx, ApplicationId owner) {
        return tx.connectionResult(connection -> current(Reads.in(connection), owner, heldStamps, held));
    }

    /**
     * The owner's fields in id order as committed, for a read (no lock taken): what a page's custom filters and an
     * import's columns are checked against. Taken from the same last full read as {@link #held}'s when the stamps are
     * equal, so a filtered page reads two columns of each field, not ten and their choices' JSON.
     */
    public List<CustomField> committed(Reads reads, ApplicationId owner) {
        return current(reads, owner, committedStamps, committed);
    }

    /** The owner's fields: the last full read when the stamps read now are its own, else a full read, remembered. */
    private List<CustomField> current(Reads reads, ApplicationId owner, Statement stampsNow, Statement fieldsNow) {
        Bindings bindings = new Bindings(kind).set(APPLICATION, owner.value());
        List<CustomField> last = lastRead.get(owner.value());
        if (last != null && Stamp.of(last).equals(reads.query(stampsNow.sql(), statement -> {
            stampsNow.bind(statement, bindings);
            return stamps(statement);
        }))) {
            return last;
        }
        List<CustomField> read = reads.query(fieldsNow.sql(), statement -> {
            fieldsNow.bind(statement, bindings);
            return fields(statement);
        });
        lastRead.put(owner.value(), read);
        return read;
    }

    private List<CustomField> fields(PreparedStatement statement) throws SQLException {
        List<CustomField> fields = new ArrayList<>();
        try (ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                fields.add(read(rows));
            }
        }
        return List.copyOf(fields);
    }

    private List<Stamp> stamps(PreparedStatement statement) throws SQLException {
        List<Stamp> current = new ArrayList<>();
        try (ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                current.add(new Stamp(rows.getLong(1), kind.instant(rows, 2)));
            }
        }
        return current;
    }

    /**
     * Forgets every read: called when a transaction rolls back (SqlDatabase), since a write may have read fields that
     * another write of its group had changed, and that change is now undone while its {@code updated_at} may come again.
     */
    public void forgetAll() {
        lastRead.clear();
    }

    private CustomField read(ResultSet row) throws SQLException {
        String choices = kind.text(row, 5);
        return new CustomField(row.getLong(1), kind.text(row, 2), kind.text(row, 3),
                CustomFieldType.fromWireName(kind.text(row, 4)).orElseThrow(),
                choices == null ? List.of() : choices(choices), row.getBoolean(6), kind.text(row, 7),
                row.getBoolean(8), kind.instant(row, 9), kind.instant(row, 10));
    }

    /**
     * Deletes the owner's field, with the trail's record of its removal, before anything else of the write: held from
     * then on, so that every write that reads the owner's fields waits for this one.
     *
     * @return the field removed, or empty when the owner has none with this id (or another removal came first)
     */
    public static Optional<CustomField> remove(DSLContext tx, TrailAppend trail, ApplicationId owner, long id,
            Actor actor, Instant now) {
        Optional<CustomField> field = tx.selectFrom(CUSTOM_FIELDS)
                .where(CUSTOM_FIELDS.APPLICATION_ID.eq(owner.value()), CUSTOM_FIELDS.ID.eq(id))
                .fetchOptional(FieldRows::field);
        // Two removals at once: the second deletes nothing, and records nothing.
        if (field.isEmpty() || tx.deleteFrom(CUSTOM_FIELDS).where(CUSTOM_FIELDS.ID.eq(id)).execute() == 0) {
            return Optional.empty();
        }
        trail.fieldEvent(tx, owner, id, field.get().key(), AuditAction.FIELD_REMOVED, actor, micros(now));
        return field;
    }

    /** The field a row of {@code custom_fields} holds. */
    static CustomField field(Record row) {
        CustomFieldType type = CustomFieldType.fromWireName(row.get(CUSTOM_FIELDS.FIELD_TYPE)).orElseThrow();
        String choices = row.get(CUSTOM_FIELDS.CHOICES);
        return new CustomField(row.get(CUSTOM_FIELDS.ID), row.get(CUSTOM_FIELDS.FIELD_KEY), row.get(CUSTOM_FIELDS.LABEL),
                type, choices == null ? List.of() : choices(choices), row.get(CUSTOM_FIELDS.REQUIRED),
                row.get(CUSTOM_FIELDS.DESCRIPTION), row.get(CUSTOM_FIELDS.ARCHIVED), row.get(CUSTOM_FIELDS.CREATED_AT),
                row.get(CUSTOM_FIELDS.UPDATED_AT));
    }

    /** The stored form of a field's choices: a JSON array, or null for a type without choices. */
    static String choices(CustomField field) {
        if (!field.type().hasChoices()) {
            return null;
        }
        var array = BUILDERS.createArrayBuilder();
        field.choices().forEach(array::add);
        return array.build().toString();
    }

    private static List<String> choices(String stored) {
        try (JsonReader reader = READERS.createReader(new StringReader(stored))) {
            return reader.readArray().getValuesAs(JsonString::getString);
        }
    }
}
