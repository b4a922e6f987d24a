package org.donordata.application;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The instants the use cases hand to the repositories: the clock's time to the microsecond, the finest that both
 * SQLite and PostgreSQL keep, so that a record reads back exactly as it was written on every database.
 */
final class StoredTime {

    private StoredTime() {
    }

    static Instant now(Clock clock) {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
