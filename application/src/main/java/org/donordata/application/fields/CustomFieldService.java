package org.donordata.application.fields;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import org.donordata.application.Actor;
import org.donordata.application.ApplicationId;
import org.donordata.application.DonorRepository;
import org.donordata.application.DonorService;
import org.donordata.application.DonorWrites;
import org.donordata.domain.CustomField;
import org.donordata.domain.CustomFieldChanges;
import org.donordata.domain.CustomFieldConflictException;
import org.donordata.domain.CustomFieldNotFoundException;
import org.donordata.domain.CustomFieldType;
import org.donordata.domain.Page;
import org.donordata.domain.PageRequest;

/**
 * Defining an application's custom fields (docs/api.md, "Custom fields"; scope {@code fields:manage} to change them,
 * {@code donors:read} to read them).
 */
public final class CustomFieldService {

    /** How often a modify is tried again when another modify of the field came first. */
    private static final int ATTEMPTS = 5;

    private final CustomFieldRepository fields;
    private final DonorRepository donors;
    private final Clock clock;

    /** @param donors where a removal deletes the field's values, with the field, in one write */
    public CustomFieldService(CustomFieldRepository fields, DonorRepository donors, Clock clock) {
        this.fields = fields;
        this.donors = donors;
        this.clock = clock;
    }

    /**
     * Defines a field.
     *
     * @throws org.donordata.domain.InvalidInputException naming every member at fault
     * @throws CustomFieldConflictException when the key is taken or the owner has the most fields it may have
     */
    public CustomField create(ApplicationId owner, CustomFieldChanges definition, Actor actor) {
        CustomField field = definition.create(1, now());
        CustomFieldRepository.Created created = fields.create(owner, field, CustomField.MAX_PER_APPLICATION, actor);
        return created.field().orElseThrow(() -> switch (created.refusal().orElseThrow()) {
            case KEY_TAKEN -> CustomFieldConflictException.keyTaken(field.key());
            case FULL -> CustomFieldConflictException.full();
        });
    }

    /** A page of the owner's fields in id order. */
    public Page<CustomField> list(ApplicationId owner, PageRequest request) {
        // One more than asked tells whether a next page exists.
        List<CustomField> read = fields.page(owner, request.offset(), request.limit() + 1);
        return Page.fromLookahead(read, request);
    }

    /** Every field of the owner's, in id order: at most {@link CustomField#MAX_PER_APPLICATION}. */
    public List<CustomField> all(ApplicationId owner) {
        return fields.all(owner);
    }

    /** @throws CustomFieldNotFoundException when the owner has no such field */
    public CustomField get(ApplicationId owner, long id) {
        return fields.find(owner, id).orElseThrow(CustomFieldNotFoundException::new);
    }

    /**
     * Changes a field's label, description, required, state or choices.
     *
     * @throws CustomFieldConflictException naming a choice taken out that a donor holds
     * @throws org.donordata.domain.InvalidInputException naming every member at fault
     * @throws CustomFieldNotFoundException when the owner has no such field
     */
    public CustomField modify(ApplicationId owner, long id, CustomFieldChanges changes, Actor actor) {
        for (int attempt = 1; ; attempt++) {
            CustomField current = get(owner, id);
            if (changes.applyTo(current, current.updatedAt()).equals(current)) {
                return current;
            }
            // Later than the change it replaces, whatever the clocks: updated_at is what a concurrent modify is
            // told apart by (CustomFieldRepository.update).
            Instant now = now();
            CustomField changed = changes.applyTo(current, now.isAfter(current.updatedAt()) ? now
                    : current.updatedAt().plus(1, ChronoUnit.MICROS));
            if (fields.update(owner, changed, current.updatedAt(), mayNotBeHeld(current, changed), actor)) {
                return changed;
            }
            if (attempt == ATTEMPTS) {
                throw new IllegalStateException("field " + id + " changed under " + ATTEMPTS + " modifies in a row");
            }
        }
    }

    /**
     * The choices the change may make only while no donor holds them: those it takes out, and, when it moves the
     * choices a {@code choices} field keeps into another order, all of them, since each donor's choices are stored and
     * shown in the field's order (docs/api.md, "Custom fields"). New choices go anywhere.
     */
    private static List<String> mayNotBeHeld(CustomField current, CustomField changed) {
        List<String> kept = current.choices().stream().filter(changed.choices()::contains).toList();
        boolean moved = current.type() == CustomFieldType.CHOICES
                && !kept.equals(changed.choices().stream().filter(current.choices()::contains).toList());
        return moved ? current.choices()
                : current.choices().stream().filter(choice -> !changed.choices().contains(choice)).toList();
    }

    /**
     * Deletes a field for good.
     *
     * @throws CustomFieldNotFoundException when the owner has no such field
     */
    public void remove(ApplicationId owner, long id, Actor actor) {
        DonorWrites writes = new DonorWrites(now(), DonorService.IDEMPOTENCY_KEY_LIFETIME, actor);
        if (!donors.writeAlone(owner, writes.now(), tx -> writes.removeCustomField(tx, id))) {
            throw new CustomFieldNotFoundException();
        }
    }

    /** Stores keep instants to the microsecond. */
    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
