package org.donordata.application.fields;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.donordata.application.Actor;
import org.donordata.application.ApplicationId;
import org.donordata.domain.CustomField;

/**
 * Stored custom field definitions; every node of an installation sees the same ones. Each write records its event in
 * the trail ({@code field.created}, {@code field.modified}, {@code field.removed}) in its own transaction. Implemented
 * in adapters-sql; {@code CustomFieldRepositoryContract} (this module's tests) is what every implementation must pass.
 */
public interface CustomFieldRepository {

    /** Why a create stored nothing. */
    enum Refusal {
        /** Another field of the owner has the key. */
        KEY_TAKEN,
        /** The owner has the most fields it may have. */
        FULL
    }

    /** A created field, or why none was. */
    record Created(Optional<CustomField> field, Optional<Refusal> refusal) {
    }

    /**
     * Stores the field (its id is the store's: the one given is ignored), unless the owner has {@code limit} fields or
     * one with its key. Two creates at once never both pass the limit, nor both take a key.
     */
    Created create(ApplicationId owner, CustomField field, int limit, Actor actor);

    /** Up to {@code count} of the owner's fields in id order, skipping the first {@code offset}. */
    List<CustomField> page(ApplicationId owner, long offset, int count);

    /**
     * Every field of the owner's in id order, as committed now (at most {@link CustomField#MAX_PER_APPLICATION}): what
     * a filtered page and an import check against, read at every such request. A store may keep a read for the next
     * one, as long as every committed change reaches the next call.
     */
    List<CustomField> all(ApplicationId owner);

    Optional<CustomField> find(ApplicationId owner, long id);

    /**
     * Stores the owner's change of a field, as long as it was last changed at {@code previousUpdatedAt}; the change's
     * own {@code updatedAt} is later, so that a field's times tell its versions apart.
     *
     * @param choicesTakenOut choices the field had that no donor may hold for the change: those it takes out (and, for
     *        a field of type {@code choices} whose kept choices it moves, all of them)
     * @return false when another change came first or the field is gone: nothing was stored
     * @throws org.donordata.domain.CustomFieldConflictException when one of the owner's donors holds a choice taken
     *         out, checked with the field held, so that no write sets one meanwhile; nothing is stored
     */
    boolean update(ApplicationId owner, CustomField changed, Instant previousUpdatedAt, List<String> choicesTakenOut,
            Actor actor);
}
