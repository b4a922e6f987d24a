package org.donordata.application;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * One record of an application's trail, as history and audit show it: a change of a donor ({@code donorId},
 * {@code fields} and {@code version} present), an event of a key ({@code key} present), or of a custom field
 * ({@code field} present).
 *
 * @param sequence the order records were written in, within the installation
 * @param fields the names of the fields whose value changed, sorted
 */
public record AuditRecord(long sequence, Instant at, AuditAction action, Optional<Long> donorId, List<String> fields,
        Actor actor, Optional<Long> version, Optional<KeyReference> key, Optional<FieldReference> field) {

    public AuditRecord {
        fields = List.copyOf(fields);
    }

    /** A record of no custom field. */
    public AuditRecord(long sequence, Instant at, AuditAction action, Optional<Long> donorId, List<String> fields,
            Actor actor, Optional<Long> version, Optional<KeyReference> key) {
        this(sequence, at, action, donorId, fields, actor, version, key, Optional.empty());
    }

    /** The custom field a field event is about (docs/api.md, "Custom fields"). */
    public record FieldReference(long id, String key) {
    }

    /** The key a key event is about. */
    public record KeyReference(long id, String name) {
    }
}
