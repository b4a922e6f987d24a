package org.donordata.application;

import java.util.List;


/**
 * What the trail records of one change of a donor, handed to the store with the change itself (DonorTransaction), so
 * that no change is stored without its record. The store adds the donor's id, its version after the change and the
 * transaction's instant.
 *
 * @param fields the names of the fields whose value changed ({@code custom.KEY} for a custom one): never values
 */
public record DonorChangeRecord(AuditAction action, List<String> fields, Actor actor) {

    public DonorChangeRecord {
        fields = List.copyOf(fields);
    }
}
