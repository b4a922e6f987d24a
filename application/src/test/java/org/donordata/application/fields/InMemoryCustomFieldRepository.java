package org.donordata.application.fields;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.donordata.application.Actor;
import org.donordata.application.ApplicationId;
import org.donordata.application.AuditAction;
import org.donordata.application.AuditRecord;
import org.donordata.application.InMemoryDonorRepository;
import org.donordata.domain.CustomField;
import org.donordata.domain.CustomFieldConflictException;
import org.donordata.domain.CustomValueIndex;

/** Custom fields in a list, for tests; their events go to a donor store's trail, as one database's do. */
public final class InMemoryCustomFieldRepository implements CustomFieldRepository,
        InMemoryDonorRepository.FieldDefinitions {

    private record Owned(ApplicationId owner, CustomField field) {
    }

    private final List<Owned> fields = new ArrayList<>();
    private final InMemoryDonorRepository trail;
    private long lastId;

    public InMemoryCustomFieldRepository(InMemoryDonorRepository trail) {
        this.trail = trail;
        trail.useFields(this);
    }

    /**
     * Forgets every field; ids go on from where they were. Every method holds the donor store's lock, as its writes
     * do, so that a write sees the fields as they stand.
     */
    public void clear() {
        synchronized (trail) {
            fields.clear();
        }
    }

    @Override
    public Created create(ApplicationId owner, CustomField field, int limit, Actor actor) {
        synchronized (trail) {
            List<CustomField> mine = page(owner, 0, Integer.MAX_VALUE);
            if (mine.stream().anyMatch(existing -> existing.key().equals(field.key()))) {
                return new Created(Optional.empty(), Optional.of(Refusal.KEY_TAKEN));
            }
            if (mine.size() >= limit) {
                return new Created(Optional.empty(), Optional.of(Refusal.FULL));
            }
            CustomField stored = new CustomField(++lastId, field.key(), field.label(), field.type(), field.choices(),
                    field.required(), field.description(), field.archived(), field.createdAt(), field.updatedAt());
            fields.add(new Owned(owner, stored));
            record(owner, stored, AuditAction.FIELD_CREATED, actor, stored.createdAt());
            return new Created(Optional.of(stored), Optional.empty());
        }
    }

    @Override
    public List<CustomField> page(ApplicationId owner, long offset, int count) {
        synchronized (trail) {
            return fields.stream().filter(owned -> owned.owner().equals(owner)).map(Owned::field).skip(offset)
                    .limit(count).toList();
        }
    }

    @Override
    public Optional<CustomField> find(ApplicationId owner, long id) {
        synchronized (trail) {
            return fields.stream().filter(owned -> owned.owner().equals(owner) && owned.field().id() == id)
                    .map(Owned::field).findFirst();
        }
    }

    @Override
    public boolean update(ApplicationId owner, CustomField changed, Instant previousUpdatedAt,
            List<String> choicesTakenOut, Actor actor) {
        synchronized (trail) {
            for (String choice : choicesTakenOut) {
                if (trail.anyHolds(owner, CustomValueIndex.entry(changed.key(), choice))) {
                    throw CustomFieldConflictException.choiceHeld(changed.key(), choice);
                }
            }
            for (int i = 0; i < fields.size(); i++) {
                Owned owned = fields.get(i);
                if (owned.owner().equals(owner) && owned.field().id() == changed.id()) {
                    if (!owned.field().updatedAt().equals(previousUpdatedAt)) {
                        return false;
                    }
                    fields.set(i, new Owned(owner, changed));
                    record(owner, changed, AuditAction.FIELD_MODIFIED, actor, changed.updatedAt());
                    return true;
                }
            }
            return false;
        }
    }

    @Override
    public List<CustomField> all(ApplicationId owner) {
        return page(owner, 0, Integer.MAX_VALUE);
    }

    @Override
    public Optional<CustomField> remove(ApplicationId owner, long id, Actor actor, Instant now) {
        synchronized (trail) {
            Optional<CustomField> field = find(owner, id);
            field.ifPresent(removed -> {
                fields.removeIf(owned -> owned.field().id() == id);
                record(owner, removed, AuditAction.FIELD_REMOVED, actor, now);
            });
            return field;
        }
    }

    private void record(ApplicationId owner, CustomField field, AuditAction action, Actor actor, Instant at) {
        trail.recordFieldEvent(owner, at, action, actor, new AuditRecord.FieldReference(field.id(), field.key()));
    }
}
