package org.donordata.domain;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Which of an application's donors a list holds: those matching every criterion given (AND); none given, all.
 *
 * @param search words the donor's names or email must begin with (docs/api.md, "Searching (q)")
 * @param email the address in any case, matched by its {@linkplain EmailAddress#fold folded} form
 * @param externalId an exact external id
 * @param type donors of this type only
 * @param createdSince donors created at or after this instant
 * @param updatedSince donors changed (or created) at or after this instant
 * @param custom filters on custom fields (CustomFilter), each to match
 * @param consent donors a mailing for this pair may reach (docs/api.md, "Consent"; ConsentState#permits)
 */
public record DonorFilter(Optional<SearchQuery> search, Optional<String> email, Optional<String> externalId, Optional<DonorType> type,
        Optional<Instant> createdSince, Optional<Instant> updatedSince, List<CustomFilter> custom,
        Optional<ConsentPair> consent) {

    public static final DonorFilter NONE = new DonorFilter(Optional.empty(), Optional.empty(), Optional.empty(),
            Optional.empty(), Optional.empty(), Optional.empty());

    /** The last instant a donor's times can hold: a store may write instants as text, which sorts years of 4 digits. */
    private static final Instant LAST_INSTANT = Instant.parse("9999-12-31T23:59:59.999999Z");

    public DonorFilter {
        custom = List.copyOf(custom);
        // 9999-12-31T23:59:59-18:00 lies in the year 10000 in UTC, which text sorts before 2026: no donor changes past
        // the last instant of 9999, so a time past it means that one.
        createdSince = createdSince.map(DonorFilter::withinStoredTimes);
        updatedSince = updatedSince.map(DonorFilter::withinStoredTimes);
    }

    private static Instant withinStoredTimes(Instant since) {
        return since.isAfter(LAST_INSTANT) ? LAST_INSTANT : since;
    }

    /** A filter on no consent. */
    public DonorFilter(Optional<SearchQuery> search, Optional<String> email, Optional<String> externalId,
            Optional<DonorType> type, Optional<Instant> createdSince, Optional<Instant> updatedSince,
            List<CustomFilter> custom) {
        this(search, email, externalId, type, createdSince, updatedSince, custom, Optional.empty());
    }

    /** A filter on no custom field and no consent. */
    public DonorFilter(Optional<SearchQuery> search, Optional<String> email, Optional<String> externalId,
            Optional<DonorType> type, Optional<Instant> createdSince, Optional<Instant> updatedSince) {
        this(search, email, externalId, type, createdSince, updatedSince, List.of());
    }

    /**
     * The filters a store reads from its index entries: the consent's one entry first (ConsentState#entry), then the
     * custom filters.
     */
    public List<CustomFilter> entryFilters() {
        if (consent.isEmpty()) {
            return custom;
        }
        List<CustomFilter> filters = new java.util.ArrayList<>();
        filters.add(CustomFilter.entry(DonorField.CONSENT.key(), ConsentState.entry(consent.get().key())));
        filters.addAll(custom);
        return filters;
    }

    /** The folded form of the email criterion. */
    public Optional<String> foldedEmail() {
        return email.map(EmailAddress::fold);
    }

    public boolean matches(Donor donor) {
        String address = donor.details().text(DonorField.EMAIL);
        return search.map(query -> query.matches(SearchWords.of(donor.details()))).orElse(true)
                && foldedEmail().map(folded -> address != null && folded.equals(EmailAddress.fold(address))).orElse(true)
                && externalId.map(id -> id.equals(donor.details().text(DonorField.EXTERNAL_ID))).orElse(true)
                && type.map(wanted -> wanted == donor.details().type()).orElse(true)
                && createdSince.map(since -> !donor.createdAt().isBefore(since)).orElse(true)
                && updatedSince.map(since -> !donor.updatedAt().isBefore(since)).orElse(true)
                && custom.stream().allMatch(filter -> filter.matches(donor.details().custom()))
                && consent.map(pair -> Optional.ofNullable(donor.details().consent().get(pair))
                        .filter(status -> ConsentState.permits(pair, status, donor.details().flag(DonorField.EMAIL_OPT_OUT),
                                donor.details().flag(DonorField.DO_NOT_CONTACT))).isPresent()).orElse(true);
    }
}
