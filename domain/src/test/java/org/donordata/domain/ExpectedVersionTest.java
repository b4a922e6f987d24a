package org.donordata.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Set;

import org.junit.jupiter.api.Test;

class ExpectedVersionTest {

    @Test
    void anyAcceptsEveryVersion() {
        assertTrue(ExpectedVersion.ANY.accepts(1));
        assertTrue(ExpectedVersion.ANY.accepts(Long.MAX_VALUE));
    }

    @Test
    void oneOfAcceptsTheListedVersionsOnly() {
        ExpectedVersion expected = ExpectedVersion.oneOf(Set.of(3L, 5L));

        assertTrue(expected.accepts(3));
        assertTrue(expected.accepts(5));
        assertFalse(expected.accepts(4));
        assertEquals(expected, ExpectedVersion.oneOf(Set.of(5L, 3L)));
    }

    @Test
    void anEmptyListAcceptsNoVersion() {
        assertFalse(ExpectedVersion.oneOf(Set.of()).accepts(1));
    }

    @Test
    void aDonorsVersionStartsAtOne() {
        Instant now = Instant.parse("2026-01-01T00:00:00Z");

        assertEquals(1, new Donor(1, DonorDetails.DEFAULTS, now, now, Donor.FIRST_VERSION).version());
        assertThrows(IllegalArgumentException.class, () -> new Donor(1, DonorDetails.DEFAULTS, now, now, 0));
    }

    @Test
    void aMismatchSaysWhichVersionTheDonorIsAt() {
        DonorVersionMismatchException mismatch = new DonorVersionMismatchException(12, 4);

        assertEquals("Donor 12 is at version 4, not a version the request expected; read it again and reapply the"
                + " change.", mismatch.getMessage());
    }

    @Test
    void noneAcceptsNoVersionNoneOfEveryOtherAndBothWhatBothAccept() {
        assertFalse(ExpectedVersion.NONE.accepts(1));
        assertFalse(ExpectedVersion.noneOf(Set.of(3L)).accepts(3));
        assertTrue(ExpectedVersion.noneOf(Set.of(3L)).accepts(4));
        ExpectedVersion both = ExpectedVersion.oneOf(Set.of(3L, 4L)).and(ExpectedVersion.noneOf(Set.of(3L)));
        assertFalse(both.accepts(3));
        assertTrue(both.accepts(4));
        assertFalse(both.accepts(5));
    }
}
