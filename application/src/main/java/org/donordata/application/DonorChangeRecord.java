package org.donordata.application;

import java.util.List;

import org.donordata.domain.DonorField;

/**
 * What the trail records of one change of a donor, written in the change's transaction ({@link DonorTransaction#record}),
 * which stamps it with its instant.
 *
 * @param fields the fields whose value changed, by name: never their values
 * @param version the donor's version after the change
 */
public record DonorChangeRecord(long donorId, AuditAction action, List<DonorField> fields, Actor actor, long version) {

    public DonorChangeRecord {
        fields = List.copyOf(fields);
    }
}
