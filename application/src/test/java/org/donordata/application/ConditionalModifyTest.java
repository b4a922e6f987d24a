package org.donordata.application;

import java.util.List;
import static org.donordata.application.RepositoryWrites.TESTER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Set;

import org.donordata.domain.Donor;
import org.donordata.domain.DonorChanges;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorField;
import org.donordata.domain.DonorNotFoundException;
import org.donordata.domain.DonorVersionMismatchException;
import org.donordata.domain.ExpectedVersion;
import org.junit.jupiter.api.Test;

/** Modify and erase with the versions the client expects (HTTP: If-Match), decided by the core in one write. */
class ConditionalModifyTest {

    private static final ApplicationId OWNER = new ApplicationId(7);
    private static final Instant NOW = Instant.parse("2026-11-21T10:15:30.123456789Z");
    private static final Instant NOW_IN_MICROS = Instant.parse("2026-11-21T10:15:30.123456Z");
    private static final Instant CREATED = Instant.parse("2026-11-20T08:00:00Z");
    private static final DonorChanges TO_LONDON = DonorChanges.from(Map.of("city", "London"));
    private static final DonorDetails ADA = DonorChanges.from(Map.of("first_name", "Ada", "last_name", "Lovelace"))
            .applyToNew(List::of);

    private final InMemoryDonorRepository repository = new InMemoryDonorRepository();
    private final DonorService service = new DonorService(repository, Clock.fixed(NOW, ZoneOffset.UTC));
    private final Donor ada = new RepositoryWrites(repository).insert(OWNER, ADA, CREATED);

    @Test
    void anExpectedVersionChangesTheFieldsSentKeepsTheOthersAndCountsTheVersion() {
        Donor modified = service.modify(OWNER, TESTER, ada.id(), TO_LONDON, ExpectedVersion.oneOf(Set.of(1L, 5L)));

        assertEquals("London", modified.details().text(DonorField.CITY));
        assertEquals("Ada", modified.details().text(DonorField.FIRST_NAME), "fields not sent are kept");
        assertEquals(2, modified.version());
        assertEquals(NOW_IN_MICROS, modified.updatedAt());
        assertEquals(modified, repository.find(OWNER, ada.id()).orElseThrow());
    }

    @Test
    void aStaleVersionIsRefusedWithTheStoredOneAndChangesNothing() {
        DonorVersionMismatchException stale = assertThrows(DonorVersionMismatchException.class,
                () -> service.modify(OWNER, TESTER, ada.id(), TO_LONDON, ExpectedVersion.oneOf(Set.of(7L))));

        assertTrue(stale.getMessage().contains("1"), stale.getMessage());
        assertEquals(ada, repository.find(OWNER, ada.id()).orElseThrow());
    }

    @Test
    void theExpectedVersionsOfAnErasureAreChecked() {
        assertThrows(DonorVersionMismatchException.class,
                () -> service.erase(OWNER, TESTER, ada.id(), ExpectedVersion.oneOf(Set.of(2L))));

        assertTrue(service.erase(OWNER, TESTER, ada.id(), ExpectedVersion.oneOf(Set.of(1L))).erased());
    }

    @Test
    void aMissingDonorIsNotFoundWhateverTheExpectedVersion() {
        assertThrows(DonorNotFoundException.class, () -> service.modify(OWNER, TESTER, 12, TO_LONDON, ExpectedVersion.ANY));
        assertThrows(DonorNotFoundException.class,
                () -> service.modify(OWNER, TESTER, 12, TO_LONDON, ExpectedVersion.oneOf(Set.of(1L))));
        assertThrows(DonorNotFoundException.class, () -> service.erase(new ApplicationId(8), TESTER, ada.id()));
    }
}
