package org.donordata.adapters.sql.fields;

import static org.donordata.adapters.sql.kit.StoredInstantBinding.micros;

import static org.donordata.adapters.sql.schema.Tables.CUSTOM_FIELDS;
import static org.donordata.adapters.sql.schema.Tables.DONOR_WORDS;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.donordata.adapters.sql.applications.ApplicationStorage;
import org.donordata.adapters.sql.kit.DatabaseKind;
import org.donordata.adapters.sql.kit.Reads;
import org.donordata.adapters.sql.kit.UniqueConstraint;
import org.donordata.adapters.sql.kit.Writes;
import org.donordata.adapters.sql.trail.TrailAppend;
import org.donordata.application.Actor;
import org.donordata.application.ApplicationId;
import org.donordata.application.AuditAction;
import org.donordata.application.DonorRepository;
import org.donordata.application.fields.CustomFieldRepository;
import org.donordata.domain.CustomField;
import org.donordata.domain.CustomFieldConflictException;
import org.donordata.domain.CustomFieldType;
import org.donordata.domain.CustomValueIndex;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;

/**
 * Custom field definitions in {@code custom_fields}, each write with its trail record in one transaction, through the
 * node's writes as every other write goes (on SQLite and MariaDB, the one writer's shared commits). Choices are kept as
 * a JSON array in the field's order (FieldRows); a removal is a donor write (DonorTransaction), since it deletes the
 * field's values too.
 */
public final class SqlCustomFieldRepository implements CustomFieldRepository {

    private static final UniqueConstraint KEY = new UniqueConstraint("custom_fields_key",
            "custom_fields.application_id, custom_fields.field_key");

    private final DSLContext dsl;
    private final Writes writes;
    private final DatabaseKind kind;
    private final TrailAppend trail;
    private final Reads reads;
    private final FieldRows rows;

    /**
     * @param trail how the fields' events are appended to the trail
     * @param reads where {@link #all} reads, as the donors' reads do
     * @param rows the node's fields as donor writes read them, whose last read {@link #all} shares
     */
    public SqlCustomFieldRepository(DSLContext dsl, DatabaseKind kind, Writes writes, TrailAppend trail, Reads reads,
            FieldRows rows) {
        this.dsl = dsl;
        this.writes = writes;
        this.kind = kind;
        this.trail = trail;
        this.reads = reads;
        this.rows = rows;
    }

    @Override
    public Created create(ApplicationId owner, CustomField field, int limit, Actor actor) {
        try {
            return writes.write(tx -> {
                ApplicationStorage.lockOwner(tx, kind, owner);
                if (tx.fetchExists(CUSTOM_FIELDS, CUSTOM_FIELDS.APPLICATION_ID.eq(owner.value()),
                        CUSTOM_FIELDS.FIELD_KEY.eq(field.key()))) {
                    return refused(Refusal.KEY_TAKEN);
                }
                if (tx.fetchCount(CUSTOM_FIELDS, CUSTOM_FIELDS.APPLICATION_ID.eq(owner.value())) >= limit) {
                    return refused(Refusal.FULL);
                }
                long id;
                try {
                    id = tx.insertInto(CUSTOM_FIELDS)
                            .set(CUSTOM_FIELDS.APPLICATION_ID, owner.value())
                            .set(CUSTOM_FIELDS.FIELD_KEY, field.key())
                            .set(CUSTOM_FIELDS.LABEL, field.label())
                            .set(CUSTOM_FIELDS.FIELD_TYPE, field.type().wireName())
                            .set(CUSTOM_FIELDS.CHOICES, FieldRows.choices(field))
                            .set(CUSTOM_FIELDS.REQUIRED, field.required())
                            .set(CUSTOM_FIELDS.DESCRIPTION, field.description())
                            .set(CUSTOM_FIELDS.ARCHIVED, field.archived())
                            .set(CUSTOM_FIELDS.CREATED_AT, micros(field.createdAt()))
                            .set(CUSTOM_FIELDS.UPDATED_AT, micros(field.updatedAt()))
                            .returningResult(CUSTOM_FIELDS.ID)
                            .fetchSingle()
                            .value1();
                } catch (DataAccessException e) {
                    // Where the lock above does not keep two creates apart, the key's constraint does: refused as a
                    // domain refusal, so that a shared commit rolls back this write alone (GroupCommitWriter).
                    if (KEY.isViolatedBy(e, kind)) {
                        throw CustomFieldConflictException.keyTaken(field.key());
                    }
                    throw e;
                }
                trail.fieldEvent(tx, owner, id, field.key(), AuditAction.FIELD_CREATED, actor, micros(field.createdAt()));
                // As stored: its instants to the microsecond, nothing else the store changes.
                return new Created(Optional.of(new CustomField(id, field.key(), field.label(), field.type(),
                        field.choices(), field.required(), field.description(), field.archived(),
                        micros(field.createdAt()), micros(field.updatedAt()))), Optional.empty());
            });
        } catch (CustomFieldConflictException taken) {
            return refused(Refusal.KEY_TAKEN);
        }
    }

    private static Created refused(Refusal refusal) {
        return new Created(Optional.empty(), Optional.of(refusal));
    }

    @Override
    public List<CustomField> page(ApplicationId owner, long offset, int count) {
        return dsl.selectFrom(CUSTOM_FIELDS).where(CUSTOM_FIELDS.APPLICATION_ID.eq(owner.value()))
                .orderBy(CUSTOM_FIELDS.ID).limit(DonorRepository.checkedCount(count)).offset(offset)
                .fetch(FieldRows::field);
    }

    @Override
    public List<CustomField> all(ApplicationId owner) {
        return rows.committed(reads, owner);
    }

    @Override
    public Optional<CustomField> find(ApplicationId owner, long id) {
        return dsl.selectFrom(CUSTOM_FIELDS)
                .where(CUSTOM_FIELDS.APPLICATION_ID.eq(owner.value()), CUSTOM_FIELDS.ID.eq(id))
                .fetchOptional(FieldRows::field);
    }

    @Override
    public boolean update(ApplicationId owner, CustomField changed, Instant previousUpdatedAt,
            List<String> choicesTakenOut, Actor actor) {
        // FieldRows takes a field whose id and updated_at it has read before for the one it read then.
        if (!changed.updatedAt().isAfter(previousUpdatedAt)) {
            throw new IllegalArgumentException("a field's change moves its updated_at on: " + changed.updatedAt()
                    + " is not after " + previousUpdatedAt);
        }
        return writes.write(tx -> {
            int updated = tx.update(CUSTOM_FIELDS)
                    .set(CUSTOM_FIELDS.LABEL, changed.label())
                    .set(CUSTOM_FIELDS.CHOICES, FieldRows.choices(changed))
                    .set(CUSTOM_FIELDS.REQUIRED, changed.required())
                    .set(CUSTOM_FIELDS.DESCRIPTION, changed.description())
                    .set(CUSTOM_FIELDS.ARCHIVED, changed.archived())
                    .set(CUSTOM_FIELDS.UPDATED_AT, micros(changed.updatedAt()))
                    .where(CUSTOM_FIELDS.APPLICATION_ID.eq(owner.value()), CUSTOM_FIELDS.ID.eq(changed.id()),
                            CUSTOM_FIELDS.UPDATED_AT.eq(micros(previousUpdatedAt)))
                    .execute();
            // After the update, which holds the field: a write that could set a choice waits for this one.
            for (String choice : updated == 1 ? choicesTakenOut : List.<String>of()) {
                if (tx.fetchExists(DONOR_WORDS, DONOR_WORDS.APPLICATION_ID.eq(owner.value()),
                        DONOR_WORDS.WORD.eq(CustomValueIndex.entry(changed.key(), choice)))) {
                    throw CustomFieldConflictException.choiceHeld(changed.key(), choice);
                }
            }
            if (updated == 1) {
                trail.fieldEvent(tx, owner, changed.id(), changed.key(), AuditAction.FIELD_MODIFIED, actor,
                        micros(changed.updatedAt()));
            }
            return updated == 1;
        });
    }
}
