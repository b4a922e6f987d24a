package org.donordata.application;

import java.util.List;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.spy;
import static org.mockito.Mockito.verify;

import java.time.Instant;
import java.util.Map;

import org.donordata.domain.DonorChanges;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorNotFoundException;
import org.donordata.domain.PageRequest;
import org.junit.jupiter.api.Test;

/** A donor's history: 404 as the donor is, and the donor looked up only when no record shows it is there. */
class TrailServiceTest {

    private static final ApplicationId OWNER = new ApplicationId(7);
    private static final ApplicationId OTHER = new ApplicationId(8);
    private static final Instant NOW = Instant.parse("2026-11-24T10:00:00Z");
    private static final DonorDetails ADA = DonorChanges.from(Map.of("first_name", "Ada", "last_name", "Lovelace"))
            .applyToNew(List::of);

    private final InMemoryDonorRepository store = spy(new InMemoryDonorRepository());
    private final TrailService trail = new TrailService(store, store);

    @Test
    void aDonorsRecordsAreItsHistoryWithoutLookingTheDonorUp() {
        long id = new RepositoryWrites(store).insert(OWNER, ADA, NOW).id();

        assertEquals(1, trail.history(OWNER, id, PageRequest.of(30, 0)).items().size());
        verify(store, never()).find(eq(OWNER), anyLong());
    }

    @Test
    void anotherApplicationsDonorAndNoDonorAreNotFound() {
        long id = new RepositoryWrites(store).insert(OWNER, ADA, NOW).id();

        assertThrows(DonorNotFoundException.class, () -> trail.history(OTHER, id, PageRequest.of(30, 0)));
        assertThrows(DonorNotFoundException.class, () -> trail.history(OWNER, id + 1, PageRequest.of(30, 0)));
    }

    @Test
    void aPagePastTheRecordsOfADonorIsEmpty() {
        long id = new RepositoryWrites(store).insert(OWNER, ADA, NOW).id();

        assertTrue(trail.history(OWNER, id, PageRequest.of(30, 5)).items().isEmpty());
    }
}
