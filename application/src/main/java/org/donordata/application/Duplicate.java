package org.donordata.application;

import java.util.Comparator;
import java.util.List;

import org.donordata.domain.DuplicateKeys;

/** A donor that is likely the same person as another, and why (docs/api.md, "Duplicates and merge"). */
public record Duplicate(DonorDocument donor, List<DuplicateKeys.Reason> matched) {

    /** The ranking of docs/api.md, "Duplicates and merge": more reasons first, then in id order. */
    static final Comparator<Duplicate> MOST_REASONS_FIRST = Comparator
            .comparingInt((Duplicate duplicate) -> -duplicate.matched().size())
            .thenComparingLong(duplicate -> duplicate.donor().id());

    public Duplicate {
        matched = List.copyOf(matched);
    }
}
