package org.donordata.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

import org.donordata.domain.Donor;
import org.donordata.domain.DonorChanges;
import org.donordata.domain.DonorDetails;
import org.donordata.domain.DonorField;
import org.donordata.domain.DonorNotFoundException;
import org.donordata.domain.DonorVersionMismatchException;
import org.donordata.domain.ExpectedVersion;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;

/** Modify with the versions the client expects (HTTP: If-Match); the check itself is the repository's, atomically. */
class ConditionalModifyTest {

    private static final ApplicationId OWNER = new ApplicationId(7);
    private static final Instant NOW = Instant.parse("2026-11-21T10:15:30.123456789Z");
    private static final Instant NOW_IN_MICROS = Instant.parse("2026-11-21T10:15:30.123456Z");
    private static final DonorChanges TO_LONDON = DonorChanges.from(Map.of("city", "London"));
    private static final DonorDetails ADA = DonorChanges.from(Map.of("first_name", "Ada", "last_name", "Lovelace"))
            .applyTo(DonorDetails.DEFAULTS);

    private final DonorRepository repository = mock(DonorRepository.class);
    private final DonorService service = new DonorService(repository, Clock.fixed(NOW, ZoneOffset.UTC));

    /** What reaches the port: the owner, the id, the versions expected, a change that applies the fields, the time. */
    @Test
    void theExpectedVersionsAndAChangeOfTheFieldsSentReachTheRepository() {
        when(repository.modify(any(), anyLong(), any(), any(), any()))
                .thenReturn(Optional.of(new Donor(3, ADA, NOW_IN_MICROS, NOW_IN_MICROS, 6)));

        service.modify(OWNER, 3, TO_LONDON, ExpectedVersion.oneOf(Set.of(4L, 5L)));

        ArgumentCaptor<UnaryOperator<DonorDetails>> change = ArgumentCaptor.captor();
        verify(repository).modify(eq(OWNER), eq(3L), eq(ExpectedVersion.oneOf(Set.of(4L, 5L))), change.capture(),
                eq(NOW_IN_MICROS));
        DonorDetails changed = change.getValue().apply(ADA);
        assertEquals("London", changed.text(DonorField.CITY));
        assertEquals(ADA.text(DonorField.FIRST_NAME), changed.text(DonorField.FIRST_NAME), "fields not sent are kept");
    }

    @Test
    void expectingAnyVersionIsPassedOnAsSuch() {
        when(repository.modify(any(), anyLong(), any(), any(), any()))
                .thenReturn(Optional.of(new Donor(3, ADA, NOW_IN_MICROS, NOW_IN_MICROS, 9)));

        service.modify(OWNER, 3, TO_LONDON, ExpectedVersion.ANY);

        verify(repository).modify(eq(OWNER), eq(3L), eq(ExpectedVersion.ANY), any(), eq(NOW_IN_MICROS));
    }

    @Test
    void theExpectedVersionsOfAnErasureReachTheRepository() {
        when(repository.erase(any(), anyLong(), any(), any()))
                .thenReturn(Optional.of(new Donor(3, DonorDetails.DEFAULTS, NOW_IN_MICROS, NOW_IN_MICROS, 2, NOW_IN_MICROS)));

        service.erase(OWNER, 3, ExpectedVersion.oneOf(Set.of(1L)));
        service.erase(OWNER, 3);

        verify(repository).erase(OWNER, 3L, ExpectedVersion.oneOf(Set.of(1L)), NOW_IN_MICROS);
        verify(repository).erase(OWNER, 3L, ExpectedVersion.ANY, NOW_IN_MICROS);
    }

    @Test
    void aStaleVersionIsReportedAsTheRepositoryFoundIt() {
        DonorVersionMismatchException stale = new DonorVersionMismatchException(3, 8);
        when(repository.modify(eq(OWNER), eq(3L), any(), any(), any())).thenThrow(stale);

        assertSame(stale, assertThrows(DonorVersionMismatchException.class,
                () -> service.modify(OWNER, 3, TO_LONDON, ExpectedVersion.oneOf(Set.of(7L)))));
    }

    @Test
    void aMissingDonorIsNotFoundWhateverTheExpectedVersion() {
        when(repository.modify(eq(OWNER), eq(12L), any(), any(), any())).thenReturn(Optional.empty());

        assertThrows(DonorNotFoundException.class, () -> service.modify(OWNER, 12, TO_LONDON, ExpectedVersion.ANY));
        assertThrows(DonorNotFoundException.class,
                () -> service.modify(OWNER, 12, TO_LONDON, ExpectedVersion.oneOf(Set.of(1L))));
    }
}
